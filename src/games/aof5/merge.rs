//! The Pawn+Yeoman merger (docs/rules.md 5.4): an unpromoted Pawn or Yeoman moves, by either of
//! its move kinds, onto an unpromoted ally of the other kind standing on a promotion cell
//! of both (not the corner column); the two become one Queen.

use super::pieces::{PAWN, QUEEN, YEOMAN};
use crate::bitboard::BitSet;
use crate::movegen::tables::Tables;
use crate::moves::{Move, MoveKind};
use crate::position::Position;

/// Calls `f` with every pseudo-legal merger of the side to move.
pub fn for_each_merge<B: BitSet>(t: &Tables<B>, pos: &Position<B>, mut f: impl FnMut(Move)) {
    let us = pos.side;
    let (pawns, yeomen) = (pos.pieces(us, PAWN), pos.pieces(us, YEOMAN));
    if pawns.is_empty() || yeomen.is_empty() {
        return;
    }
    let (Some(pz), Some(yz)) = (t.promotion(us, PAWN), t.promotion(us, YEOMAN)) else {
        return;
    };
    let zone = (pz.may_to & yz.may_to).without(pz.must_to | yz.must_to);
    for (mover, partners) in [(PAWN, yeomen & zone), (YEOMAN, pawns & zone)] {
        if partners.is_empty() {
            continue;
        }
        let kt = t.kind(us, mover);
        for from in pos.pieces(us, mover).cells() {
            let i = from.index();
            for to in ((kt.quiet[i] | kt.capture[i]) & partners).cells() {
                f(Move::new(from, to, MoveKind::Merge, QUEEN.0));
            }
        }
    }
}
