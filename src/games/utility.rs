//! The evaluation each family of more than two players hands to the multi-player search, so
//! that the search works on any such family without naming one.

use crate::bitboard::BitSet;
use crate::eval::utility::Utility;
use crate::movegen::tables::Tables;
use crate::variant::Family;
use std::sync::Arc;

/// A multi-player evaluation shared by the search threads.
pub type SharedUtility<B> = Arc<dyn Utility<B> + Send + Sync>;

/// The evaluation the multi-player search uses for the variant of `t`; `None` for a family
/// without one (every two-player family).
pub fn multi_player_utility<B: BitSet>(t: &Tables<B>) -> Option<SharedUtility<B>> {
    match t.variant.family {
        Family::ArmiesOfFaith => Some(Arc::new(super::aof5::eval::Eval::new(t))),
        Family::Cwda | Family::Cyclical | Family::Swda | Family::Missionary => None,
    }
}
