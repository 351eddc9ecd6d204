//! Move strings (docs/rules.md): `e2e4`, promotion letter `e7e8c`, castling as the King's from-to,
//! Missionary promotion `wd7wd8+` and drop `W@wc5`, Armies of Faith `=CODE` and `pass`.

use super::{legal_moves, tables::Tables};
use crate::bitboard::BitSet;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::variant::PromotionSuffix;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move string of this game.
    Malformed(String),
    /// A well-formed move that is not legal here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MoveError::Malformed(s) => write!(f, "'{s}' is not a move string"),
            MoveError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Writes a move in the game's notation.
pub fn format_move<B: BitSet>(t: &Tables<B>, mv: Move) -> String {
    let cell = |c| t.shape.cell_name(c);
    match mv.kind() {
        MoveKind::Pass => "pass".to_string(),
        MoveKind::Drop => format!(
            "{}@{}",
            t.variant.kind(mv.piece_kind()).token.to_ascii_uppercase(),
            cell(mv.to())
        ),
        MoveKind::Castle => {
            let c = &t.variant.castlings[mv.extra() as usize];
            format!("{}{}", cell(c.king_from), cell(c.king_to))
        }
        MoveKind::Promotion => {
            let token = &t.variant.kind(mv.piece_kind()).token;
            let suffix = match t.variant.promotion_suffix {
                PromotionSuffix::Plus => "+".to_string(),
                PromotionSuffix::EqualsToken => format!("={token}"),
                PromotionSuffix::Token => token.to_ascii_lowercase(),
            };
            format!("{}{}{}", cell(mv.from()), cell(mv.to()), suffix)
        }
        MoveKind::EnPassant if mv.ep_promotion().is_some() => format!(
            "{}{}={}",
            cell(mv.from()),
            cell(mv.to()),
            t.variant.kind(mv.ep_promotion().unwrap()).token
        ),
        _ => format!("{}{}", cell(mv.from()), cell(mv.to())),
    }
}

/// Whether `s` has the shape of a move string of this game (cells that exist, a suffix).
fn well_formed<B: BitSet>(t: &Tables<B>, s: &str) -> bool {
    if s == "pass" {
        return true;
    }
    if let Some((_, cell)) = s.split_once('@') {
        return t.shape.parse_cell(&cell.to_ascii_lowercase()).is_some();
    }
    let lower = s.to_ascii_lowercase();
    let Some((_, n)) = t.shape.parse_cell_prefix(&lower) else {
        return false;
    };
    t.shape.parse_cell_prefix(&lower[n..]).is_some()
}

/// Finds the legal move written as `s`.
pub fn parse_move<B: BitSet>(t: &Tables<B>, pos: &Position<B>, s: &str) -> Result<Move, MoveError> {
    let s = s.trim();
    if !well_formed(t, s) {
        return Err(MoveError::Malformed(s.to_string()));
    }
    legal_moves(t, pos)
        .into_iter()
        .find(|&m| format_move(t, m).eq_ignore_ascii_case(s))
        .ok_or_else(|| MoveError::Illegal(s.to_string()))
}
