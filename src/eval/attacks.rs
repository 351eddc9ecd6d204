//! What one piece attacks and where it can move, on the current occupancy: the raw material
//! of mobility, threats and King attack. Works for every piece the tables can hold (leaps,
//! slides, lame leaps, bent moves) on any board.

use crate::bitboard::BitSet;
use crate::geometry::Cell;
use crate::movegen::tables::Tables;
use crate::piece::{Kind, Player};

/// The cells one piece reaches.
#[derive(Clone, Copy, Debug)]
pub struct Reach<B> {
    /// Cells it would capture on if an enemy stood there (whoever stands there now): the
    /// cells it attacks, or defends when an own piece stands there.
    pub attacks: B,
    /// Cells it may move to without capturing, if they are empty.
    pub moves: B,
}

/// The reach of a piece of `p`/`k` on `from`, with `occ` the occupied cells.
#[inline]
pub fn reach<B: BitSet>(t: &Tables<B>, p: Player, k: Kind, from: Cell, occ: B) -> Reach<B> {
    let kt = t.kind(p, k);
    let i = from.index();
    let (slide_captures, slide_moves) = t.slide_reach(kt, from, occ);
    let mut attacks = kt.capture[i] | slide_captures;
    let mut moves = kt.quiet[i] | slide_moves;
    if kt.has_lame {
        for l in kt.lame[i].iter().filter(|l| !occ.contains(l.via)) {
            if l.mode.captures() {
                attacks.set(l.to);
            }
            if l.mode.moves() {
                moves.set(l.to);
            }
        }
    }
    if kt.has_bent {
        for b in kt.bent[i].iter().filter(|b| !occ.contains(b.first)) {
            let line = t.ray_attack(b.dir as usize, b.first, occ);
            if b.mode.captures() {
                attacks |= line;
            }
            if b.mode.moves() {
                moves |= line;
            }
        }
    }
    Reach { attacks, moves }
}

/// The cells a piece whose every capture is a plain leap attacks (see
/// [`captures_by_leaps_only`]): one table lookup where [`reach`] would trace its moves too.
#[inline]
pub fn leap_attacks<B: BitSet>(t: &Tables<B>, p: Player, k: Kind, from: Cell) -> B {
    t.kind(p, k).capture[from.index()]
}

/// Whether `p`/`k` captures only by plain leaps (no slides, lame or bent captures), so that
/// [`leap_attacks`] is all it attacks, whatever the occupancy.
pub fn captures_by_leaps_only<B: BitSet>(t: &Tables<B>, p: Player, k: Kind) -> bool {
    let kt = t.kind(p, k);
    kt.slides.iter().all(|s| !s.mode.captures())
        && kt.lame.iter().flatten().all(|l| !l.mode.captures())
        && kt.bent.iter().flatten().all(|b| !b.mode.captures())
}
