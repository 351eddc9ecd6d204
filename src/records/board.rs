//! The referee's view of a game: Panoply's own rules (`Game<B>`) behind an object-safe
//! interface, so the game loop does not care about the board width or the player count.

use crate::bitboard::BitSet;
use crate::game::{AnyTables, Game, Outcome};
use crate::movegen::notation::{parse_move, MoveError};
use crate::movegen::tables::{KindTables, Tables};
use crate::moves::MoveKind;
use crate::piece::{Kind, Player};
use crate::position::fen::PositionError;
use crate::position::Position;
use crate::variant::Variant;

pub trait Board: Send {
    fn variant(&self) -> &Variant;
    fn players(&self) -> usize {
        self.variant().players()
    }
    /// The seat to move (a player index).
    fn side_to_move(&self) -> usize;
    /// Plays a move string; returns it in Panoply's canonical spelling.
    fn play(&mut self, mv: &str) -> Result<String, MoveError>;
    fn legal_moves(&self) -> Vec<String>;
    /// The name of the piece that the legal move string `mv` moves on the board (`None` for
    /// an illegal move, a drop or a pass), for engines that spell moves by the piece.
    fn mover_name(&self, mv: &str) -> Option<String>;
    fn outcome(&self) -> Option<Outcome>;
    fn position_string(&self) -> String;
    /// Bit p set: player p is still playing (four-player games eliminate checkmated armies).
    fn alive_mask(&self) -> u8;
    /// Only royal pieces on the board, nothing in hand, and no royal piece able to attack
    /// another: no checkmate can ever follow (see [`royals_cannot_attack_each_other`]).
    fn only_royals_left(&self) -> bool;
}

impl<B: BitSet> Board for Game<B> {
    fn variant(&self) -> &Variant {
        &self.tables.variant
    }

    fn side_to_move(&self) -> usize {
        self.pos.side.index()
    }

    fn play(&mut self, mv: &str) -> Result<String, MoveError> {
        let m = self.play_str(mv)?;
        Ok(self.format_move(m))
    }

    fn legal_moves(&self) -> Vec<String> {
        Game::legal_moves(self)
            .into_iter()
            .map(|m| self.format_move(m))
            .collect()
    }

    fn mover_name(&self, mv: &str) -> Option<String> {
        let m = parse_move(&self.tables, &self.pos, mv).ok()?;
        if matches!(m.kind(), MoveKind::Drop | MoveKind::Pass) {
            return None;
        }
        let piece = self.pos.piece_at(m.from())?;
        Some(self.tables.variant.kind(piece.kind()).name.clone())
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn position_string(&self) -> String {
        Game::position_string(self)
    }

    fn alive_mask(&self) -> u8 {
        self.pos.alive
    }

    fn only_royals_left(&self) -> bool {
        let v = &self.tables.variant;
        let board_royal_only = self
            .tables
            .shape
            .all_cells()
            .all(|c| self.pos.piece_at(c).is_none_or(|p| v.kind(p.kind()).royal));
        let hands_empty = (0..v.players().min(2))
            .all(|p| v.kinds().all(|k| self.pos.hand(Player(p as u8), k) == 0));
        board_royal_only && hands_empty && royals_cannot_attack_each_other(&self.tables, &self.pos)
    }
}

/// Whether no royal piece on the board can ever attack another, on a board of royal pieces
/// only. A royal piece that moves to attack another is then attacked by it in turn, which no
/// move may leave it (a four-player game too: RULES 5.4), so no check, and so no checkmate,
/// can follow. That needs every capture of every royal kind on the board to be returned by
/// every other: a King against a King, an Emperor against an Emperor. An Emperor against a
/// King is not: the Emperor attacks the King along the triagonal step the King lacks (RULES
/// 5.3), so Armies of Faith can still checkmate and a second checkmate by an Emperor wins.
/// Slides and lame or bent leaps are not judged here: a royal kind with them counts as able
/// to attack.
fn royals_cannot_attack_each_other<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> bool {
    let mut royals: Vec<(Player, Kind)> = t
        .shape
        .all_cells()
        .filter_map(|c| pos.piece_at(c))
        .map(|p| (p.player(), p.kind()))
        .collect();
    royals.sort_by_key(|&(p, k)| (p.0, k.0));
    royals.dedup();
    let plain = |kt: &KindTables<B>| kt.slides.is_empty() && !kt.has_lame && !kt.has_bent;
    royals.iter().all(|&(p, k)| {
        royals.iter().filter(|&&(q, _)| q != p).all(|&(q, l)| {
            let (mine, theirs) = (t.kind(p, k), t.kind(q, l));
            plain(mine)
                && plain(theirs)
                && t.shape.all_cells().all(|from| {
                    mine.capture[from.index()]
                        .cells()
                        .all(|to| theirs.capture[to.index()].contains(from))
                })
        })
    })
}

/// A board for `tables`, at `start` (a position string) or where engines start the variant
/// by themselves ([`Variant::session_start`]: `startpos`, XBoard's `new`).
pub fn new_board(tables: &AnyTables, start: Option<&str>) -> Result<Box<dyn Board>, PositionError> {
    crate::with_tables!(tables, t => {
        let start = start.unwrap_or(t.variant.session_start()).to_string();
        Ok(Box::new(Game::from_position_string(t.clone(), &start)?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_and_spells_moves_canonically() {
        let tables = crate::games::tables("cwda-fide-clobberers").unwrap();
        let mut b = new_board(&tables, None).unwrap();
        assert_eq!(b.players(), 2);
        assert_eq!(b.side_to_move(), 0);
        assert_eq!(b.play("E2E4").unwrap(), "e2e4");
        assert_eq!(b.side_to_move(), 1);
        assert!(b.play("e2e4").is_err());
        assert!(b.legal_moves().contains(&"e7e5".to_string()));
        assert!(!b.only_royals_left());
        let bare = new_board(&tables, Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1")).unwrap();
        assert!(bare.only_royals_left());
    }

    #[test]
    fn names_the_piece_a_legal_move_moves() {
        let tables = crate::games::tables("swda-posh-amphibians").unwrap();
        let b = new_board(&tables, Some("t3k3/1Q6/8/8/8/8/8/4K2O w - - 0 1")).unwrap();
        assert_eq!(b.mover_name("b7c8k").as_deref(), Some("Berolina Pawn"));
        assert_eq!(b.mover_name("h1g3").as_deref(), Some("Ring"));
        // A Berolina Pawn moves diagonally: straight ahead is no move of it.
        assert_eq!(b.mover_name("b7b8"), None);
        assert_eq!(b.mover_name("nonsense"), None);
    }
}
