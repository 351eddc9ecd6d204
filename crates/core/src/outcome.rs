//! How games end: the result of a finished game, and what a family's rule says of a position
//! before the side to move moves. Defined below the tables so that a family's rule functions
//! (`movegen::tables::FamilyRules`) can return them.

use crate::piece::Player;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win { winner: Player, reason: String },
    Draw { reason: String },
}

/// What a family rule says about a position before the side to move moves, besides
/// checkmate and stalemate (Shatranj with Different Armies' bare King).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Draw,
    Win(Player),
}
