//! What a game played out leaves behind: how it ended, its moves and who was eliminated when.
//! Self-play writes it; the measurements of a family (Armies of Faith's piece values) read it.

use crate::outcome::Outcome;
use crate::piece::Player;

/// A checkmate seen during a game: who, whom, at which ply.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkmate {
    pub by: Player,
    pub victim: Player,
    pub ply: usize,
}

/// A game played out by engine copies.
#[derive(Clone, Debug)]
pub struct Record {
    /// `None`: stopped at the ply limit.
    pub outcome: Option<Outcome>,
    pub plies: usize,
    pub moves: Vec<String>,
    /// Players eliminated during the game (multi-player games only).
    pub checkmates: Vec<Checkmate>,
    /// Nodes the engines searched for the game's moves.
    pub nodes: u64,
    /// For a multi-player game stopped at the ply limit: the army whose evaluation is best.
    pub leader: Option<Player>,
}
