//! `panoply match`: tournaments between engines in any variant Panoply knows, refereed by
//! Panoply's own rules. The games' records (PGN, books, openings, time controls) are
//! [`crate::records`]; the engines as child processes are [`crate::engines`].
//!
//! One concern per file: [`referee`] (one game), [`adjudication`], [`schedule`] (round robin,
//! gauntlet), [`pairs`] and [`seat_gauntlet`] (the statistics of pairs and seats), [`sprt`],
//! [`elo`], [`standings`] (the final table), [`progress`] (the live line), [`book_maker`]
//! (`panoply book`, in process with the search), [`suite_maker`] (`panoply openings`),
//! [`tally`] (the count game by game and the end report), [`shard`] (`--shard K/N`),
//! [`merge`] (`panoply results`) and [`resume`] (`--resume`). This file runs the schedule on
//! worker threads.

pub mod adjudication;
pub mod book_maker;
pub mod elo;
pub mod merge;
pub mod pairs;
pub mod progress;
pub mod referee;
pub mod resume;
pub mod schedule;
pub mod seat_gauntlet;
pub mod shard;
pub mod sprt;
pub mod standings;
pub mod suite_maker;
pub mod tally;

use crate::engines::engine_config::EngineConfig;
use crate::engines::preflight;
use crate::game::AnyTables;
use crate::games;
use crate::random::XorShiftStar;
use crate::records::board::new_board;
use crate::records::book::Book;
use crate::records::openings;
use crate::records::pgn::{self, write_game_tagged, PgnContext};
use crate::records::record::{GameRecord, GameSpec};
use crate::records::time_control::TimeControl;
use progress::Progress;
use referee::{play_game, RefereeSettings};
use schedule::{candidate_alone, schedule, Mode};
use seat_gauntlet::SeatTracker;
use shard::Shard;
use std::collections::VecDeque;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;
pub use tally::MatchReport;
use tally::Tally;

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
    /// Go on with the match whose games `pgn_out` already holds: play only the others.
    pub resume: bool,
    pub event: String,
    pub progress: bool,
    /// Print one line per finished game on stdout.
    pub verbose: bool,
    /// The part of the schedule to play ([`Shard::WHOLE`] for all of it).
    pub shard: Shard,
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
    let mut rng = XorShiftStar::new(seed);
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

/// What the worker threads of a match share.
struct Shared<'a> {
    settings: &'a MatchSettings,
    tables: &'a [AnyTables],
    queue: Mutex<VecDeque<GameSpec>>,
    results: Mutex<Vec<GameRecord>>,
    failure: Mutex<Option<String>>,
    progress: Progress,
    pgn_file: Option<Mutex<std::fs::File>>,
    ctx: PgnContext,
    referee: RefereeSettings,
    /// What each game's PGN records for a merge, by game number.
    merge_tags: std::collections::BTreeMap<usize, shard::MergeTags>,
    tally: Mutex<Tally>,
    /// Set once the test has decided: no new game starts, games under way finish.
    decided: std::sync::atomic::AtomicBool,
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
    let players: Vec<usize> = tables.iter().map(|t| t.variant().players()).collect();
    let slots = schedule(
        settings.engines.len(),
        settings.mode,
        &players,
        settings.games,
    );
    // The whole schedule and its openings first, so that every shard chooses the same ones.
    let all_specs = openings(settings, &tables, &slots)?;
    let rounds: Vec<usize> = slots.iter().map(|s| s.opening_round).collect();
    let merge_tags = shard::merge_tags(settings, &players, &all_specs, &rounds);
    let names: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
    let played = match (&settings.pgn_out, settings.resume) {
        (Some(path), true) => resume::played_games(path, &merge_tags, &names, settings.shard)?,
        _ => Vec::new(),
    };
    // The engines once the settings (and a resumed file) are known good.
    preflight::check_engines(&settings.engines, &tables, settings.control)
        .map_err(MatchError::Setup)?;
    let done: std::collections::BTreeSet<usize> = played.iter().map(|r| r.spec.number).collect();
    let specs: VecDeque<GameSpec> = all_specs
        .into_iter()
        .filter(|s| settings.shard.owns(shard::unit_of(s)) && !done.contains(&s.number))
        .collect();
    let total = specs.len();
    if settings.resume && settings.verbose {
        crate::outln!(
            "Resuming: {} {} in the PGN file, {total} to play",
            played.len(),
            if played.len() == 1 { "game" } else { "games" }
        );
    }
    let seat_gauntlet = players.iter().any(|&p| candidate_alone(settings.mode, p));
    check_test(
        settings.sprt.as_ref(),
        settings.engines.len(),
        &players,
        seat_gauntlet,
    )?;
    // A shard plays all its units: only the merge of every shard can run the test.
    let test = settings.sprt.filter(|_| settings.shard == Shard::WHOLE);
    // The games played before count first, in the order the first run counted them.
    let mut tally = Tally::new(names.clone(), settings.mode, &players, test);
    let mut decided_before = false;
    for record in &played {
        decided_before |= tally.count(record).decided;
    }
    let shared = Shared {
        settings,
        tables: &tables,
        queue: Mutex::new(specs),
        results: Mutex::new(played),
        failure: Mutex::new(None),
        progress: Progress::new(settings.progress, total, names.clone()),
        pgn_file: open_pgn(settings)?,
        ctx: PgnContext {
            event: settings.event.clone(),
            site: "panoply match".into(),
            date: pgn::today(),
            control: settings.control,
        },
        referee: RefereeSettings {
            control: settings.control,
            margin: settings.margin,
            max_plies: settings.max_plies,
            adjudication: settings.adjudication,
        },
        merge_tags,
        tally: Mutex::new(tally),
        decided: std::sync::atomic::AtomicBool::new(decided_before),
    };
    let workers = settings.concurrency.clamp(1, total.max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| shared.work());
        }
    });
    shared.progress.clear();
    if let Some(f) = shared.failure.into_inner().unwrap() {
        return Err(MatchError::Aborted(f));
    }
    let games = shared.results.into_inner().unwrap();
    Ok(shared.tally.into_inner().unwrap().report(games))
}

/// The `--pgn` file, opened for appending.
fn open_pgn(settings: &MatchSettings) -> Result<Option<Mutex<std::fs::File>>, MatchError> {
    match &settings.pgn_out {
        Some(path) => Ok(Some(Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| MatchError::Io(format!("{}: {e}", path.display())))?,
        ))),
        None => Ok(None),
    }
}

impl Shared<'_> {
    /// One worker: plays games from the queue until it is empty, a game fails or the test
    /// has decided.
    fn work(&self) {
        loop {
            if self.failure.lock().unwrap().is_some()
                || self.decided.load(std::sync::atomic::Ordering::Relaxed)
            {
                return;
            }
            let Some(spec) = self.queue.lock().unwrap().pop_front() else {
                return;
            };
            let number = spec.number;
            let t = self
                .tables
                .iter()
                .find(|t| t.variant().name == spec.variant)
                .expect("scheduled variant");
            self.progress.game_started(number);
            let on_ply = |plies| self.progress.ply(number, plies);
            match play_game(spec, &self.settings.engines, t, &self.referee, &on_ply) {
                Ok(record) => self.finished(record),
                Err(e) => {
                    self.progress.game_finished(number, &[]);
                    *self.failure.lock().unwrap() = Some(format!("game {number}: {e}"));
                }
            }
        }
    }

    /// Records a finished game: the progress line, the PGN, the verbose lines, the tally.
    fn finished(&self, record: GameRecord) {
        let earned: Vec<(usize, f64)> = record
            .spec
            .seats
            .iter()
            .zip(&record.scores)
            .map(|(&e, &s)| (e, s))
            .collect();
        self.progress.game_finished(record.spec.number, &earned);
        if let Some(f) = &self.pgn_file {
            let tags = self.merge_tags[&record.spec.number].pgn_tags();
            let text = write_game_tagged(&self.ctx, &record, &tags);
            if let Err(e) = f.lock().unwrap().write_all(text.as_bytes()) {
                *self.failure.lock().unwrap() = Some(format!("writing PGN: {e}"));
            }
        }
        let verbose = self.settings.verbose;
        if verbose {
            self.progress.clear();
            crate::outln!(
                "Finished game {} ({}): {} {{{}}}",
                record.spec.number,
                record.engine_names.join(" vs "),
                pgn::result_text(&record.scores),
                record.reason
            );
        }
        let counted = self.tally.lock().unwrap().count(&record);
        if verbose {
            for line in &counted.lines {
                crate::outln!("{line}");
            }
        }
        if counted.decided {
            self.decided
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
        self.results.lock().unwrap().push(record);
    }
}

/// Whether the match's SPRT can run: on the pairs of exactly two engines, or in a gauntlet
/// of games of more than two seats on the candidate's games, all of one seat count, in
/// logistic Elo. `players[v]` is the seat count of variant v.
pub fn check_test(
    sprt: Option<&sprt::SprtSettings>,
    engines: usize,
    players: &[usize],
    seat_gauntlet: bool,
) -> Result<(), MatchError> {
    let Some(test) = sprt else {
        return Ok(());
    };
    if !seat_gauntlet {
        if engines != 2 {
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
