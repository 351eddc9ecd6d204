//! `panoply match`: tournaments between engines in any variant Panoply knows, refereed by
//! Panoply's own rules.
//!
//! One concern per file: [`engine_config`] (engine definition files), [`process`] (a child
//! process with deadlines), [`client`] (what the referee asks of an engine), [`uci`] and
//! [`xboard`] (the two protocols), [`board`] (the rules behind an object-safe interface),
//! [`referee`] (one game), [`time_control`], [`schedule`] (round robin, gauntlet), [`book`]
//! (opening books), [`pgn`], [`elo`], [`standings`] (the final table), [`progress`] (the live
//! line), [`book_maker`] (`panoply book`, in process with the search). This file runs the schedule on worker threads.

pub mod board;
pub mod book;
pub mod book_maker;
pub mod client;
pub mod elo;
pub mod engine_config;
pub mod pgn;
pub mod process;
pub mod progress;
pub mod referee;
pub mod schedule;
pub mod standings;
pub mod time_control;
pub mod uci;
pub mod xboard;

use crate::game::AnyTables;
use board::new_board;
use book::{Book, Rng};
use engine_config::EngineConfig;
use pgn::{write_game, PgnContext};
use progress::Progress;
use referee::{play_game, GameRecord, GameSpec, RefereeSettings};
use schedule::{schedule, Mode};
use standings::{standings, EngineStanding};
use std::collections::VecDeque;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;
use time_control::TimeControl;

pub struct MatchSettings {
    pub engines: Vec<EngineConfig>,
    pub variants: Vec<String>,
    pub mode: Mode,
    /// Games per pair of engines and variant.
    pub games: usize,
    pub control: TimeControl,
    pub margin: Duration,
    /// Games played at the same time.
    pub concurrency: usize,
    pub book: Option<Book>,
    /// The longest book line.
    pub book_plies: usize,
    pub seed: u64,
    pub max_plies: Option<usize>,
    pub pgn_out: Option<PathBuf>,
    pub event: String,
    pub progress: bool,
    /// Print one line per finished game on stdout.
    pub verbose: bool,
}

pub struct MatchReport {
    pub games: Vec<GameRecord>,
    pub table: Vec<EngineStanding>,
}

#[derive(Debug)]
pub enum MatchError {
    Setup(String),
    Aborted(String),
    Io(String),
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            MatchError::Setup(m) => write!(f, "{m}"),
            MatchError::Aborted(m) => write!(f, "match stopped: {m}"),
            MatchError::Io(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// Chooses the opening of every game: one book line per (variant, opening round).
fn openings(
    settings: &MatchSettings,
    tables: &[AnyTables],
    slots: &[schedule::Slot],
) -> Result<Vec<GameSpec>, MatchError> {
    let mut lines: std::collections::HashMap<(usize, usize), Vec<String>> = Default::default();
    let mut specs = Vec::new();
    for slot in slots {
        let line = match &settings.book {
            None => Vec::new(),
            Some(book) => lines
                .entry((slot.variant, slot.opening_round))
                .or_insert_with(|| {
                    let seed =
                        settings.seed ^ ((slot.variant as u64) << 32) ^ slot.opening_round as u64;
                    let mut rng = Rng::new(seed);
                    let t = &tables[slot.variant];
                    match new_board(t, None) {
                        Ok(mut b) => {
                            book.walk(&t.variant().name, b.as_mut(), settings.book_plies, &mut rng)
                        }
                        Err(_) => Vec::new(),
                    }
                })
                .clone(),
        };
        specs.push(GameSpec {
            number: slot.number,
            variant: tables[slot.variant].variant().name.clone(),
            seats: slot.seats.clone(),
            opening: line,
        });
    }
    Ok(specs)
}

/// Engine names made unique (`Fairy-Max`, `Fairy-Max (2)`), so tables and PGN tell them apart.
pub fn unique_names(engines: &mut [EngineConfig]) {
    for i in 1..engines.len() {
        let base = engines[i].name.clone();
        let mut n = 1;
        while engines[..i].iter().any(|e| e.name == engines[i].name) {
            n += 1;
            engines[i].name = format!("{base} ({n})");
        }
    }
}

pub fn run_match(settings: &MatchSettings) -> Result<MatchReport, MatchError> {
    if settings.engines.len() < 2 {
        return Err(MatchError::Setup(
            "a match needs at least two engines".into(),
        ));
    }
    let tables: Vec<AnyTables> = settings
        .variants
        .iter()
        .map(|v| AnyTables::by_name(v).map_err(|e| MatchError::Setup(e.to_string())))
        .collect::<Result<_, _>>()?;
    let players: Vec<usize> = tables.iter().map(|t| t.variant().players()).collect();
    let slots = schedule(
        settings.engines.len(),
        settings.mode,
        &players,
        settings.games,
    );
    let specs = openings(settings, &tables, &slots)?;
    let total = specs.len();
    let queue = Mutex::new(specs.into_iter().collect::<VecDeque<_>>());
    let results: Mutex<Vec<GameRecord>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let names: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
    let progress = Progress::new(settings.progress, total, names.clone());
    let pgn_file = match &settings.pgn_out {
        Some(path) => Some(Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| MatchError::Io(format!("{}: {e}", path.display())))?,
        )),
        None => None,
    };
    let ctx = PgnContext {
        event: settings.event.clone(),
        site: "panoply match".into(),
        date: pgn::today(),
        control: settings.control,
    };
    let referee = RefereeSettings {
        control: settings.control,
        margin: settings.margin,
        max_plies: settings.max_plies,
    };
    let workers = settings.concurrency.clamp(1, total.max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                if failure.lock().unwrap().is_some() {
                    return;
                }
                let Some(spec) = queue.lock().unwrap().pop_front() else {
                    return;
                };
                let number = spec.number;
                let t = tables
                    .iter()
                    .find(|t| t.variant().name == spec.variant)
                    .expect("scheduled variant");
                progress.game_started(number);
                let on_ply = |plies| progress.ply(number, plies);
                match play_game(spec, &settings.engines, t, &referee, &on_ply) {
                    Ok(record) => {
                        let earned: Vec<(usize, f64)> = record
                            .spec
                            .seats
                            .iter()
                            .zip(&record.scores)
                            .map(|(&e, &s)| (e, s))
                            .collect();
                        progress.game_finished(number, &earned);
                        if let Some(f) = &pgn_file {
                            let mut f = f.lock().unwrap();
                            if let Err(e) = f.write_all(write_game(&ctx, &record).as_bytes()) {
                                *failure.lock().unwrap() = Some(format!("writing PGN: {e}"));
                            }
                        }
                        if settings.verbose {
                            progress.clear();
                            println!(
                                "Game {} ({}, {}): {} {{{}}}",
                                record.spec.number,
                                record.engine_names.join(" vs "),
                                record.spec.variant,
                                pgn::result_text(&record.scores),
                                record.reason
                            );
                        }
                        results.lock().unwrap().push(record);
                    }
                    Err(e) => {
                        progress.game_finished(number, &[]);
                        *failure.lock().unwrap() = Some(format!("game {number}: {e}"));
                    }
                }
            });
        }
    });
    progress.clear();
    if let Some(f) = failure.into_inner().unwrap() {
        return Err(MatchError::Aborted(f));
    }
    let mut games = results.into_inner().unwrap();
    games.sort_by_key(|g| g.spec.number);
    let table = standings(&names, &games);
    Ok(MatchReport { games, table })
}
