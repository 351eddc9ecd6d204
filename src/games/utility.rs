//! The evaluation each family of more than two players hands to the multi-player search, so
//! that the search works on any such family without naming one.

use crate::bitboard::BitSet;
use crate::movegen::tables::Tables;

pub use super::descriptor::SharedUtility;

/// The evaluation the multi-player search uses for the variant of `t` (its family's
/// descriptor's); `None` for a family without one (every two-player family).
pub fn multi_player_utility<B: BitSet>(t: &Tables<B>) -> Option<SharedUtility<B>> {
    super::describe(t.variant.family).utility.as_ref()?.build(t)
}
