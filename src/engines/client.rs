//! What the referee needs from an engine, whatever protocol it speaks.

use super::engine_config::EngineConfig;
use super::process::{EngineError, EngineProcess};
use crate::records::time_control::TimeControl;
use std::time::{Duration, Instant};

/// The game an engine is about to play.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// Panoply's variant name.
    pub variant: String,
    /// Army names per seat (Variant::armies).
    pub armies: Vec<String>,
    pub players: usize,
    pub start_position: String,
    /// Whether `start_position` is the variant's own start (engines then need no set-up).
    pub standard_start: bool,
    pub control: TimeControl,
}

/// One request to move.
pub struct ThinkRequest<'a> {
    /// Every move from the start position, in Panoply's notation.
    pub moves: &'a [String],
    /// The seat that made each move.
    pub movers: &'a [usize],
    /// The seat to move.
    pub seat: usize,
    /// Time left per seat.
    pub clocks: &'a [Duration],
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
    /// The referee stops waiting at this instant.
    pub deadline: Instant,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// The engine's last reported search state, for PGN comments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    pub score: Option<Score>,
    pub depth: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineReply {
    /// A move in Panoply's notation (translated from the engine's dialect).
    Move {
        mv: String,
        info: SearchInfo,
    },
    Resign,
    /// The engine claims a result (XBoard `1-0 {...}` etc.).
    Claim {
        result: String,
        reason: String,
    },
}

pub trait EngineClient: Send {
    fn name(&self) -> &str;
    /// Whether the engine offers the game's variant (UCI: the `UCI_Variant` list, XBoard:
    /// `feature variants`), else why not in a few words.
    fn check_variant(&self, setup: &GameSetup) -> Result<(), String>;
    /// Prepares a new game; the engine must be ready to move when this returns.
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), EngineError>;
    fn think(&mut self, request: &ThinkRequest) -> Result<EngineReply, EngineError>;
    /// Tells the engine the game is over (best effort).
    fn game_over(&mut self, result: &str, reason: &str);
    /// The engine's process.
    fn process(&mut self) -> &mut EngineProcess;
    /// Ends the process: politely (`quit`), then by force.
    fn shut_down(&mut self) {
        self.process().shut_down("quit", Duration::from_millis(500));
    }
    /// Kills the process at once (after a crash or a hang).
    fn kill(&mut self) {
        self.process().kill();
    }
}

/// How long an engine gets to start up and answer a handshake.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The engine's name for a variant: the definition file's mapping, else Panoply's name.
pub fn engine_variant_name(cfg: &EngineConfig, variant: &str) -> String {
    cfg.variant_name(variant).unwrap_or(variant).to_string()
}
