//! The `Variant` of two armies facing each other: FIDE King and Pawns, each side's back
//! rank, castling with each side's partner, promotion as each army says.

use super::army::{Army, Promotion};
use crate::games::cwda;
use crate::geometry::{Cell, Shape};
use crate::piece::{Kind, PieceDef, Player};
use crate::variant::{Castling, Variant};

/// Why two armies cannot meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collision {
    pub letter: char,
}

/// `cwda-<white>-<black>[-anypromo]` for two armies, or the letter they disagree on.
pub fn variant(white: &Army, black: &Army, any_promotion: bool) -> Result<Variant, Collision> {
    if let Some(letter) = white.collision(black) {
        return Err(Collision { letter });
    }
    let shape = Shape::flat(8, 8);
    // King, Pawn, White's pieces, then Black's that White lacks: a piece both armies have
    // (same letter, same moves) is one kind.
    let mut pieces = vec![cwda::king(), cwda::fide_pawn()];
    for def in white.pieces.iter().chain(&black.pieces) {
        if !pieces.iter().any(|p| p.token == def.token) {
            pieces.push(def.clone());
        }
    }
    let kinds_of = |army: &Army, pieces: &[PieceDef]| -> Vec<Kind> {
        army.pieces
            .iter()
            .filter_map(|d| pieces.iter().position(|p| p.token == d.token))
            .map(|i| Kind(i as u8))
            .collect()
    };
    let own = [kinds_of(white, &pieces), kinds_of(black, &pieces)];
    let mut both = own[0].clone();
    both.extend(own[1].iter().filter(|k| !own[0].contains(k)));
    let choice = |p: usize, army: &Army| {
        if any_promotion || army.promotion == Promotion::Either {
            both.clone()
        } else {
            own[p].clone()
        }
    };
    let choices = [choice(0, white), choice(1, black)];
    let suffix = if any_promotion { "-anypromo" } else { "" };
    let name = format!("cwda-{}-{}{suffix}", white.code, black.code);
    Ok(Variant {
        armies: vec![white.code.clone(), black.code.clone()],
        start_position: start_position(white, black),
        promotions: cwda::last_rank_promotions(&shape, cwda::PAWN, choices),
        double_step_cells: cwda::double_step_ranks(&shape),
        castlings: castlings(&shape, [white, black]),
        ..Variant::new(
            name,
            cwda::FAMILY,
            shape,
            cwda::two_player_orientations(),
            vec!['w', 'b'],
            pieces,
        )
    })
}

fn start_position(white: &Army, black: &Army) -> String {
    let rank = |a: &Army| a.setup.iter().collect::<String>();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1",
        rank(black).to_lowercase(),
        rank(white)
    )
}

/// Short castling as FIDE's; long castling to the army's files. Cells that must be empty
/// are those between King and partner and those they reach; the King's path must be safe.
fn castlings(shape: &Shape, armies: [&Army; 2]) -> Vec<Castling> {
    let mut out = Vec::new();
    for (p, army) in armies.into_iter().enumerate() {
        let rank = if p == 0 { 0 } else { 7 };
        let c = |f: i32| -> Cell { shape.cell(f, rank, 0).expect("on the 8x8 board") };
        let symbols = if p == 0 { ['K', 'Q'] } else { ['k', 'q'] };
        let (long_king, long_partner) = army.long_castling;
        for (symbol, corner, king_to, partner_to) in [
            (symbols[0], 7, 6, 5),
            (symbols[1], 0, long_king, long_partner),
        ] {
            let lo = corner.min(4).min(king_to).min(partner_to);
            let hi = corner.max(4).max(king_to).max(partner_to);
            let empty = (lo..=hi)
                .filter(|&f| f != 4 && f != corner)
                .map(c)
                .collect();
            let path = if king_to > 4 {
                4..=king_to
            } else {
                king_to..=4
            };
            let mut safe: Vec<Cell> = path.map(c).collect();
            if king_to < 4 {
                safe.reverse();
            }
            out.push(Castling {
                player: Player(p as u8),
                symbol,
                king_from: c(4),
                king_to: c(king_to),
                partner_from: c(corner),
                partner_to: c(partner_to),
                empty,
                safe,
            });
        }
    }
    out
}
