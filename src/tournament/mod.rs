//! `panoply match`: tournaments between engines in any variant Panoply knows, refereed by
//! Panoply's own rules.
//!
//! One concern per file: [`engine_config`] (engine definition files), [`engine_lookup`]
//! (where a named engine's file is), [`preflight`] (the variants each engine offers),
//! [`process`] (a child
//! process with deadlines), [`client`] (what the referee asks of an engine), [`uci`] and
//! [`xboard`] (the two protocols), [`board`] (the rules behind an object-safe interface),
//! [`referee`] (one game), [`time_control`], [`schedule`] (round robin, gauntlet), [`book`]
//! (opening books), [`pgn`], [`elo`], [`standings`] (the final table), [`progress`] (the live
//! line), [`book_maker`] (`panoply book`, in process with the search). This file runs the schedule on worker threads.

pub mod adjudication;
pub mod board;
pub mod book;
pub mod book_maker;
pub mod client;
pub mod connect;
pub mod elo;
pub mod engine_config;
pub mod engine_lookup;
pub mod openings;
pub mod pairs;
pub mod pgn;
pub mod preflight;
pub mod process;
pub mod progress;
pub mod record;
pub mod referee;
pub mod schedule;
pub mod seat_gauntlet;
pub mod sprt;
pub mod standings;
pub mod suite_maker;
pub mod time_control;
pub mod uci;
pub mod xboard;

use crate::game::AnyTables;
use crate::games;
use board::new_board;
use book::{Book, Rng};
use engine_config::EngineConfig;
use pgn::{write_game, PgnContext};
use progress::Progress;
use record::{GameRecord, GameSpec};
use referee::{play_game, RefereeSettings};
use schedule::{candidate_alone, schedule, Mode};
use seat_gauntlet::SeatTracker;
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
    /// Start positions (an opening suite): each played by both colours of a pair.
    pub openings: Option<openings::Suite>,
    /// Stop when a sequential test on the pairs of the first two engines decides.
    pub sprt: Option<sprt::SprtSettings>,
    /// The longest book line.
    pub book_plies: usize,
    pub seed: u64,
    pub max_plies: Option<usize>,
    /// Resignation and draw by both engines' scores (two-player games).
    pub adjudication: adjudication::Adjudication,
    pub pgn_out: Option<PathBuf>,
    pub event: String,
    pub progress: bool,
    /// Print one line per finished game on stdout.
    pub verbose: bool,
}

pub struct MatchReport {
    pub games: Vec<GameRecord>,
    pub table: Vec<EngineStanding>,
    /// For a match of two engines: the pairs, Elo and the test, if one ran.
    pub pairs: Option<pairs::PairReport>,
    /// For a gauntlet of games of more than two seats: the candidate's score and test.
    pub seats: Option<seat_gauntlet::SeatTracker>,
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

/// Chooses the opening of every game: a suite position, or a book line, per (variant,
/// opening round); both games of a pair share it.
fn openings(
    settings: &MatchSettings,
    tables: &[AnyTables],
    slots: &[schedule::Slot],
) -> Result<Vec<GameSpec>, MatchError> {
    let suites: Vec<Vec<String>> = tables
        .iter()
        .enumerate()
        .map(|(v, t)| match &settings.openings {
            Some(suite) => openings::shuffled(suite.positions(t), settings.seed ^ v as u64),
            None => Vec::new(),
        })
        .collect();
    for (t, suite) in tables.iter().zip(&suites) {
        if settings.openings.is_some() && suite.is_empty() {
            return Err(MatchError::Setup(format!(
                "the openings have no position for {}",
                t.variant().name
            )));
        }
    }
    let mut lines: std::collections::HashMap<(usize, usize), Vec<String>> = Default::default();
    let mut pairs: std::collections::HashMap<(usize, Vec<usize>, usize), usize> =
        Default::default();
    let mut specs = Vec::new();
    for slot in slots {
        let suite = &suites[slot.variant];
        let start = (!suite.is_empty()).then(|| suite[slot.opening_round % suite.len()].clone());
        let line = match (&settings.book, &start) {
            (Some(book), None) => lines
                .entry((slot.variant, slot.opening_round))
                .or_insert_with(|| book_line(settings, book, &tables[slot.variant], slot))
                .clone(),
            _ => Vec::new(),
        };
        let mut engines = slot.seats.clone();
        engines.sort();
        engines.dedup();
        let next = pairs.len();
        let pair = *pairs
            .entry((slot.variant, engines, slot.opening_round))
            .or_insert(next);
        specs.push(GameSpec {
            number: slot.number,
            variant: tables[slot.variant].variant().name.clone(),
            seats: slot.seats.clone(),
            start,
            opening: line,
            pair: Some(pair),
        });
    }
    Ok(specs)
}

fn book_line(
    settings: &MatchSettings,
    book: &Book,
    t: &AnyTables,
    slot: &schedule::Slot,
) -> Vec<String> {
    let seed = settings.seed ^ ((slot.variant as u64) << 32) ^ slot.opening_round as u64;
    let mut rng = Rng::new(seed);
    match new_board(t, None) {
        Ok(mut b) => book.walk(&t.variant().name, b.as_mut(), settings.book_plies, &mut rng),
        Err(_) => Vec::new(),
    }
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
        .map(|v| games::tables(v).map_err(|e| MatchError::Setup(e.to_string())))
        .collect::<Result<_, _>>()?;
    preflight::check_engines(&settings.engines, &tables, settings.control)
        .map_err(MatchError::Setup)?;
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
        adjudication: settings.adjudication,
    };
    let seat_gauntlet = players.iter().any(|&p| candidate_alone(settings.mode, p));
    check_test(settings, &players, seat_gauntlet)?;
    let seat_tracker = Mutex::new(SeatTracker::new(players.iter().copied().max().unwrap_or(2)));
    let pair_names = [names[0].clone(), names[1].clone()];
    let tracker = Mutex::new(pairs::PairTracker::default());
    // Set once the test has decided: no new game starts, games under way finish.
    let decided = std::sync::atomic::AtomicBool::new(false);
    let workers = settings.concurrency.clamp(1, total.max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                if failure.lock().unwrap().is_some()
                    || decided.load(std::sync::atomic::Ordering::Relaxed)
                {
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
                            crate::outln!(
                                "Finished game {} ({}): {} {{{}}}",
                                record.spec.number,
                                record.engine_names.join(" vs "),
                                pgn::result_text(&record.scores),
                                record.reason
                            );
                        }
                        if candidate_alone(settings.mode, record.spec.seats.len()) {
                            let mut t = seat_tracker.lock().unwrap();
                            t.record(&record, 0);
                            if settings.verbose {
                                crate::outln!("{}", t.score_line(&names[0]));
                            }
                            if let Some(outcome) = settings.sprt.and_then(|s| t.update_test(&s)) {
                                if settings.verbose {
                                    crate::outln!(
                                        "SPRT: llr {:.3}, lbound {:.2}, ubound {:.2}",
                                        outcome.llr,
                                        outcome.settings.bounds().0,
                                        outcome.settings.bounds().1
                                    );
                                }
                                if outcome.decision != sprt::Decision::Continue {
                                    decided.store(true, std::sync::atomic::Ordering::Relaxed);
                                }
                            }
                        } else if settings.engines.len() == 2 {
                            let mut t = tracker.lock().unwrap();
                            let completed = t.record(&record);
                            if settings.verbose {
                                crate::outln!("{}", t.score_line(&pair_names));
                            }
                            if let (true, Some(test), false) =
                                (completed, &settings.sprt, seat_gauntlet)
                            {
                                if let Some(outcome) = t.update_test(test) {
                                    if settings.verbose {
                                        crate::outln!("{}", outcome.line());
                                    }
                                    if outcome.decision != sprt::Decision::Continue {
                                        decided.store(true, std::sync::atomic::Ordering::Relaxed);
                                    }
                                }
                            }
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
    let tracker = tracker.into_inner().unwrap();
    let pairs = (settings.engines.len() == 2 && !seat_gauntlet).then(|| pairs::PairReport {
        names: pair_names,
        pentanomial: tracker.pentanomial,
        games: tracker.games,
        sprt: settings.sprt.map(|s| tracker.final_outcome(&s)),
    });
    Ok(MatchReport {
        games,
        table,
        pairs,
        seats: seat_gauntlet.then(|| seat_tracker.into_inner().unwrap()),
    })
}

/// Whether the match's SPRT can run: on the pairs of exactly two engines, or in a gauntlet
/// of games of more than two seats on the candidate's games, all of one seat count, in
/// logistic Elo.
fn check_test(
    settings: &MatchSettings,
    players: &[usize],
    seat_gauntlet: bool,
) -> Result<(), MatchError> {
    let Some(test) = &settings.sprt else {
        return Ok(());
    };
    if !seat_gauntlet {
        if settings.engines.len() != 2 {
            return Err(MatchError::Setup(
                "an SPRT compares exactly two engines".into(),
            ));
        }
        return Ok(());
    }
    if players.iter().any(|&p| p != players[0]) {
        return Err(MatchError::Setup(
            "a gauntlet's SPRT over more than two seats needs variants of one seat count".into(),
        ));
    }
    SeatTracker::new(players[0])
        .llr(test)
        .map(|_| ())
        .map_err(|e| MatchError::Setup(e.to_string()))
}
