//! What each piece kind is worth and how it moves on an empty board, derived once per
//! variant from the compiled tables: published values where the rules give them, values
//! from mobility otherwise, colour-boundness, and per-cell mobility for piece-square terms.

use crate::bitboard::BitSet;
use crate::geometry::Cell;
use crate::movegen::bent_targets;
use crate::movegen::tables::Tables;
use crate::piece::{Kind, Player};

/// Default value of a pawn-like piece without a published value.
pub const PAWN_VALUE: i32 = 100;

/// Movement facts of one (player, kind), measured on an otherwise empty board.
#[derive(Clone, Debug)]
pub struct Mobility {
    /// Number of target cells from each cell.
    pub per_cell: Vec<u32>,
    /// Mean of `per_cell` over the board.
    pub average: f64,
    /// Every move keeps the parity of x+y+z: the piece never leaves its cell colour.
    pub colour_bound: bool,
}

/// Target cells of a piece of `p`/`k` standing alone on `from`: leaps, slides and lame moves
/// in both move and capture modes, and what its bent moves reach.
fn empty_board_targets<B: BitSet>(t: &Tables<B>, p: Player, k: Kind, from: Cell) -> B {
    (plain_reach(t, p, k, from) | bent_reach(t, p, k, from)) & t.board
}

/// Leaps, slides and lame moves of both modes on an empty board.
fn plain_reach<B: BitSet>(t: &Tables<B>, p: Player, k: Kind, from: Cell) -> B {
    let kt = t.kind(p, k);
    let i = from.index();
    let mut targets = kt.quiet[i] | kt.capture[i];
    for s in &kt.slides {
        let mut a = t.ray_attack(s.dir as usize, from, B::empty());
        if s.max > 0 {
            a &= s.limit[i];
        }
        targets |= a;
    }
    for l in &kt.lame[i] {
        targets.set(l.to);
    }
    targets
}

/// The cells a lone piece on `from` moves to by its bent paths: with nothing to capture, a
/// capturing path reaches nothing.
fn bent_reach<B: BitSet>(t: &Tables<B>, p: Player, k: Kind, from: Cell) -> B {
    bent_targets(t, p, k, from, B::empty(), false)
}

/// Parity of x+y+z of a cell (its "colour").
pub fn cell_parity<B: BitSet>(t: &Tables<B>, c: Cell) -> u8 {
    let (x, y, z) = t.shape.coords(c);
    ((x + y + z) & 1) as u8
}

pub fn mobility<B: BitSet>(t: &Tables<B>, p: Player, k: Kind) -> Mobility {
    let mut per_cell = Vec::with_capacity(t.cells);
    let mut colour_bound = true;
    let mut any_move = false;
    for from in t.shape.all_cells() {
        let targets = empty_board_targets(t, p, k, from);
        per_cell.push(targets.count());
        let parity = cell_parity(t, from);
        for to in targets.cells() {
            any_move = true;
            if cell_parity(t, to) != parity {
                colour_bound = false;
            }
        }
    }
    let average = per_cell.iter().sum::<u32>() as f64 / per_cell.len().max(1) as f64;
    Mobility {
        per_cell,
        average,
        colour_bound: colour_bound && any_move,
    }
}

/// A value in centipawns from empty-board mobility, for pieces without a published value.
/// A quadratic through the FIDE pieces on 8x8 (Knight 5.25 targets on average -> 325,
/// Rook 14 -> 500, Queen 22.75 -> 950) grows like real piece values do (a long-range piece
/// gains more than its extra targets, because it also reaches far); below the Knight's
/// mobility it turns linear down to zero. Colour-bound pieces see half the board: -10%.
pub fn value_from_mobility(m: &Mobility) -> i32 {
    let a = m.average;
    let v = if a < 5.25 {
        325.0 * a / 5.25
    } else {
        352.0 - 14.57 * a + 1.796 * a * a
    };
    let v = if m.colour_bound { v * 0.9 } else { v };
    v.round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyTables;
    use crate::games;
    use crate::movegen::legal_moves;
    use crate::piece::Piece;
    use crate::position::Position;

    /// Every kind of `t` on every cell where it bends: its bent reach adds to its plain reach
    /// what the lone piece's generated moves add (how these tables were made before, by a
    /// move generation per cell and kind). Returns how many bent paths were met.
    fn compare_with_a_lone_piece<B: BitSet>(t: &Tables<B>) -> usize {
        let mut bent = 0;
        for p in (0..t.players()).map(|p| Player(p as u8)) {
            for k in t.variant.kinds() {
                for from in t.shape.all_cells() {
                    let paths = t.kind(p, k).bent[from.index()].len();
                    if paths == 0 {
                        continue;
                    }
                    bent += paths;
                    let mut pos = Position::empty(t);
                    pos.side = p;
                    pos.put(t, from, Piece::new(p, k));
                    let mut lone = B::empty();
                    for m in legal_moves(t, &pos) {
                        lone.set(m.to());
                    }
                    let plain = plain_reach(t, p, k, from);
                    assert_eq!(
                        plain | bent_reach(t, p, k, from),
                        plain | lone,
                        "{}: {k:?} of {p:?} on {from:?}",
                        t.variant.name
                    );
                }
            }
        }
        bent
    }

    #[test]
    fn the_empty_board_targets_are_a_lone_piece_s_moves_and_reach() {
        let mut bent = 0;
        let variants = [
            "aof5",
            "aof5-raj",
            "missionary",
            "missiogi",
            "frontofhouse",
            "cyclical",
            "cwda-nutty-clobberers",
            "swda-posh-jostlers",
            "swda-amphibians-originals",
        ];
        for variant in variants {
            bent += match games::tables(variant).unwrap() {
                AnyTables::Narrow(t) => compare_with_a_lone_piece(&t),
                AnyTables::Wide(t) => compare_with_a_lone_piece(&t),
            };
        }
        assert!(bent > 100, "only {bent} bent paths");
    }
}
