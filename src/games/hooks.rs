//! Where a family's own rules enter the shared machinery. Move generation, making a move and
//! position strings call these; each dispatches on the variant's family, so that `movegen`
//! and `position` name no family and a new family rule is added here, beside its family.

use super::aof5;
use crate::bitboard::BitSet;
use crate::movegen::tables::Tables;
use crate::moves::Move;
use crate::position::fen::PositionError;
use crate::position::Position;
use crate::variant::Family;

/// Whether the game ended before the side to move moves (Armies of Faith: a checkmate won
/// it, or one army is left), so that there are no moves.
#[inline]
pub fn game_over<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> bool {
    t.variant.family == Family::ArmiesOfFaith && aof5::events::is_over(pos)
}

/// Whether a player with no legal move passes (Armies of Faith) instead of the game ending
/// in checkmate or stalemate.
#[inline]
pub fn stuck_player_passes<B: BitSet>(t: &Tables<B>) -> bool {
    t.variant.family == Family::ArmiesOfFaith
}

/// Calls `f` with every pseudo-legal move of the side to move that no piece's move table
/// makes: Armies of Faith's Pawn+Yeoman mergers.
#[inline]
pub fn for_each_family_move<B: BitSet>(t: &Tables<B>, pos: &Position<B>, f: impl FnMut(Move)) {
    if t.variant.family == Family::ArmiesOfFaith {
        aof5::merge::for_each_merge(t, pos, f);
    }
}

/// The rule events after a move, before the next player's turn: Armies of Faith's
/// checkmates, eliminations and promotions by checkmate.
#[inline]
pub fn after_move<B: BitSet>(t: &Tables<B>, pos: &mut Position<B>) {
    if t.variant.family == Family::ArmiesOfFaith {
        aof5::events::start_of_turn(t, pos);
    }
}

/// Parses a position string of a family with a format of its own; `None` for the others.
pub fn parse_position<B: BitSet>(
    t: &Tables<B>,
    s: &str,
) -> Option<Result<Position<B>, PositionError>> {
    (t.variant.family == Family::ArmiesOfFaith).then(|| aof5::fen::parse(t, s))
}

/// Writes a position string of a family with a format of its own; `None` for the others.
pub fn format_position<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Option<String> {
    (t.variant.family == Family::ArmiesOfFaith).then(|| aof5::fen::format(t, pos))
}
