//! Labelling training positions with another engine's judgement (`panoply label`): each
//! recorded position is searched by that engine, and its score replaces the recorded one. With
//! `panoply tune --lambda 0` the evaluation is then fitted to a stronger engine's view of the
//! positions Panoply's own games reach.

use super::data::Sample;
use crate::engines::client::{EngineClient, EngineReply, GameSetup, Score, ThinkRequest};
use crate::engines::connect::connect;
use crate::engines::engine_config::EngineConfig;
use crate::game::AnyTables;
use crate::games;
use crate::records::board::new_board;
use crate::records::time_control::TimeControl;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How to label.
#[derive(Clone, Debug)]
pub struct LabelSettings {
    pub engine: EngineConfig,
    /// Nodes per position.
    pub nodes: u64,
    /// Engine processes searching side by side.
    pub concurrency: usize,
    /// Positions the engine scores beyond this (or as a mate) are dropped: the game is decided
    /// and the evaluation has nothing to learn from them.
    pub max_score: i32,
    /// Longest wait for one search before the engine counts as hung.
    pub timeout: Duration,
}

/// Why labelling stopped.
#[derive(Debug)]
pub enum LabelError {
    /// A position of the training file is not one of Panoply's variants or not a position.
    Position { variant: String, reason: String },
    /// The labelling engine failed (would not start, crashed, hung or broke the protocol).
    Engine(String),
}

impl fmt::Display for LabelError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            LabelError::Position { variant, reason } => write!(f, "{variant}: {reason}"),
            LabelError::Engine(reason) => write!(f, "labelling engine: {reason}"),
        }
    }
}

impl std::error::Error for LabelError {}

/// What labelling kept and dropped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Labelled {
    pub samples: Vec<Sample>,
    /// Positions the engine found decided (beyond `max_score`, or a mate).
    pub decided: usize,
}

/// Relabels `samples` with the engine's scores, in their order; `progress` hears a line now
/// and then.
pub fn label(
    samples: &[Sample],
    s: &LabelSettings,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Labelled, LabelError> {
    let workers = s.concurrency.clamp(1, samples.len().max(1));
    let chunk = samples.len().div_ceil(workers).max(1);
    let done = AtomicUsize::new(0);
    let parts: Vec<Result<Vec<Option<Sample>>, LabelError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .enumerate()
            .map(|(w, part)| {
                let done = &done;
                scope.spawn(move || {
                    label_part(part, s, w, &|| {
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if n.is_multiple_of(1000) {
                            progress(&format!("{n} of {} positions labelled", samples.len()));
                        }
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(LabelError::Engine("a worker panicked".into())))
            })
            .collect()
    });
    let mut out = Labelled::default();
    for part in parts {
        for sample in part? {
            match sample {
                Some(sample) => out.samples.push(sample),
                None => out.decided += 1,
            }
        }
    }
    Ok(out)
}

/// One worker's share: its own engine process, one position after another.
fn label_part(
    part: &[Sample],
    s: &LabelSettings,
    worker: usize,
    tick: &dyn Fn(),
) -> Result<Vec<Option<Sample>>, LabelError> {
    let engine_error = |e: &dyn fmt::Display| LabelError::Engine(e.to_string());
    let mut client =
        connect(&s.engine, &format!("label-{worker}")).map_err(|e| engine_error(&e))?;
    let mut out = Vec::with_capacity(part.len());
    let mut result = Ok(());
    // Recorded games keep to one variant for many positions in a row.
    let mut tables: Option<AnyTables> = None;
    for sample in part {
        let scored = tables_for(&mut tables, &sample.variant)
            .and_then(|t| score_for_white(&mut *client, t, sample, s));
        match scored {
            Ok(score) => out.push(score.map(|score| Sample {
                score,
                ..sample.clone()
            })),
            Err(e) => {
                result = Err(e);
                break;
            }
        }
        tick();
    }
    client.shut_down();
    result.map(|()| out)
}

/// The rules of `variant`, from `cache` when it holds them already.
fn tables_for<'a>(
    cache: &'a mut Option<AnyTables>,
    variant: &str,
) -> Result<&'a AnyTables, LabelError> {
    if cache.as_ref().is_none_or(|t| t.variant().name != variant) {
        let tables = games::tables(variant).map_err(|e| LabelError::Position {
            variant: variant.to_string(),
            reason: e.to_string(),
        })?;
        *cache = Some(tables);
    }
    Ok(cache.as_ref().expect("just filled"))
}

/// The engine's score of the sample's position for White, `None` when it finds it decided.
fn score_for_white(
    client: &mut dyn EngineClient,
    tables: &AnyTables,
    sample: &Sample,
    s: &LabelSettings,
) -> Result<Option<i32>, LabelError> {
    let position_error = |reason: String| LabelError::Position {
        variant: sample.variant.clone(),
        reason,
    };
    let board = new_board(tables, Some(&sample.position))
        .map_err(|e| position_error(format!("'{}': {e}", sample.position)))?;
    let v = tables.variant();
    if v.players() != 2 {
        return Err(position_error(
            "only two-player games can be labelled".into(),
        ));
    }
    let setup = GameSetup {
        variant: v.name.clone(),
        armies: v.armies.clone(),
        players: 2,
        start_position: sample.position.clone(),
        standard_start: false,
        control: TimeControl::Nodes(s.nodes),
    };
    // A new game for every position: the engine starts each search afresh, so a label does not
    // depend on the positions searched before it.
    client
        .new_game(&setup)
        .map_err(|e| LabelError::Engine(e.to_string()))?;
    let seat = board.side_to_move();
    let clocks = [s.timeout, s.timeout];
    let request = ThinkRequest {
        moves: &[],
        movers: &[],
        seat,
        clocks: &clocks,
        increment: Duration::ZERO,
        moves_to_go: None,
        deadline: Instant::now() + s.timeout,
    };
    let reply = client
        .think(&request)
        .map_err(|e| LabelError::Engine(e.to_string()))?;
    let EngineReply::Move { info, .. } = reply else {
        return Ok(None);
    };
    let for_mover = match info.score {
        Some(Score::Centipawns(cp)) if cp.abs() <= s.max_score => cp,
        Some(_) => return Ok(None),
        None => return Err(LabelError::Engine("a search ended without a score".into())),
    };
    Ok(Some(if seat == 0 { for_mover } else { -for_mover }))
}
