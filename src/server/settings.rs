//! Who plays each seat and what the engine spends on a move: the table's settings, apart from
//! the table so that the kept game ([`super::saved`]) can name them without importing the
//! table that keeps it.

use crate::search::strength::{Level, MAX_LEVEL};
use crate::search::Limits;
use std::time::Duration;

/// The longest time the page may give the engine for one move: 10 minutes.
pub const MAX_MOVETIME_MS: u64 = 10 * 60 * 1000;
/// The most nodes the page may give the engine for one move.
pub const MAX_NODES: u64 = 1_000_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Engine,
}

impl Seat {
    pub fn name(self) -> &'static str {
        match self {
            Seat::Human => "human",
            Seat::Engine => "engine",
        }
    }
    pub fn from_name(s: &str) -> Option<Seat> {
        match s {
            "human" => Some(Seat::Human),
            "engine" => Some(Seat::Engine),
            _ => None,
        }
    }
}

/// How strongly the engine plays a seat: the `Skill Level` of the protocols, 0 (weakest) to
/// 20 (full strength), played through the same [`Level`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatLevel(u8);

impl SeatLevel {
    pub const FULL: SeatLevel = SeatLevel(MAX_LEVEL as u8);

    /// The level numbered `n`, if it is one.
    pub fn new(n: u64) -> Option<SeatLevel> {
        u8::try_from(n)
            .ok()
            .filter(|&n| n <= SeatLevel::FULL.0)
            .map(SeatLevel)
    }

    pub fn number(self) -> u8 {
        self.0
    }

    pub fn level(self) -> Level {
        Level::new(f64::from(self.0))
    }
}

/// What the engine spends on a move it plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
}

impl Budget {
    pub(super) fn limits(self) -> Limits {
        let mut l = Limits {
            nodes: self.nodes,
            movetime: self.movetime_ms.map(Duration::from_millis),
            depth: self.depth,
            ..Limits::default()
        };
        if l.nodes.is_none() && l.movetime.is_none() && l.depth.is_none() {
            l.movetime = Some(Duration::from_secs(1));
        }
        l
    }
}
