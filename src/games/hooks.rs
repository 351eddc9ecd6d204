//! Where a family's own rules enter the shared machinery. Move generation, making a move,
//! position strings, the end of a game and the search call these; each dispatches on the
//! variant, so that the shared modules name no family and a new family rule is added here,
//! beside its family.

use super::{aof5, missionary, swda};
use crate::bitboard::BitSet;
use crate::game::{Game, Outcome};
use crate::movegen::tables::Tables;
use crate::moves::Move;
use crate::piece::Player;
use crate::position::fen::PositionError;
use crate::position::Position;
use crate::variant::Family;

/// What a family rule says about a position before the side to move moves, besides
/// checkmate and stalemate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Draw,
    Win(Player),
}

/// The verdict of a family rule on the position, if one applies: Shatranj with Different
/// Armies' bare King. Cheap where none does, so that the search can ask at every node.
#[inline]
pub fn verdict<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Option<Verdict> {
    if t.variant.bare_king {
        swda::bare_king_verdict(t, pos)
    } else {
        None
    }
}

/// Whether the family decides alone when its games end (Armies of Faith: checkmates
/// eliminate armies, a stuck player passes), so that the shared checkmate, stalemate and
/// draw rules do not apply.
#[inline]
pub fn ends_by_own_rules<B: BitSet>(t: &Tables<B>) -> bool {
    t.variant.family == Family::ArmiesOfFaith
}

/// How a game has ended by its family's own rules, if it has (see [`ends_by_own_rules`]
/// and [`verdict`]).
pub fn own_outcome<B: BitSet>(game: &Game<B>) -> Option<Outcome> {
    let t = &*game.tables;
    if ends_by_own_rules(t) {
        aof5::events::outcome(game)
    } else if t.variant.bare_king {
        swda::bare_king_outcome(t, &game.pos)
    } else {
        None
    }
}

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
    match t.variant.family {
        Family::ArmiesOfFaith => Some(aof5::fen::parse(t, s)),
        Family::Missionary => Some(missionary::fen::parse(t, s)),
        _ => None,
    }
}

/// Writes a position string of a family with a format of its own; `None` for the others.
pub fn format_position<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Option<String> {
    match t.variant.family {
        Family::ArmiesOfFaith => Some(aof5::fen::format(t, pos)),
        Family::Missionary => Some(missionary::fen::format(t, pos)),
        _ => None,
    }
}
