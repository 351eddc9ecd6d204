//! What a search for more than two players needs from an evaluation: a utility per player.

use crate::bitboard::BitSet;
use crate::movegen::tables::Tables;
use crate::piece::{Kind, Player};
use crate::position::Position;

/// What a multi-player search needs from an evaluation.
pub trait Utility<B: BitSet>: Sync {
    /// Player `p`'s utility in `pos` (terminal positions included).
    fn utility(&self, t: &Tables<B>, pos: &Position<B>, p: Player) -> i32;
    fn piece_value(&self, k: Kind) -> i32;
    /// The utility of a won game.
    fn win(&self) -> i32;
    /// Each player's static score in `pos`, as the browser board shows them beside the
    /// armies; `None` for an evaluation that has no such per-army figure to show.
    fn army_scores(&self, _t: &Tables<B>, _pos: &Position<B>) -> Option<Vec<i32>> {
        None
    }
}
