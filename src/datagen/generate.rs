//! Training-data generation: self-play games on every thread, each thread with one
//! long-lived [`Searcher`] reused across games, from balanced suite positions plus a few
//! seeded random plies, at a soft node limit per move (the search stops after the iteration
//! that passes it, or at the hard limit), with decided and dead-drawn games adjudicated.
//! Whole games are appended to the output under a lock, so a killed run leaves complete
//! records and at most one truncated one, which the next run on the file cuts off.
//!
//! Game `i` of a run depends only on (seed, shard, i) and the engine: its variant is the
//! `i`-th in turn, its suite position and random plies come from a generator seeded with the
//! three, and the searcher's table and histories are cleared before it. A run on an existing
//! file numbers its games on from the records already there, so re-running appends new games.

use super::reader::{complete_prefix, DataError};
use super::record::{tokens, GameResult, Origin, PgdRecord, Ply, StoredMove, StoredScore};
use crate::game::{AnyTables, Game, Outcome};
use crate::movegen::legal_moves;
use crate::movegen::tables::Tables;
use crate::piece::Player;
use crate::random::Rng;
use crate::records::openings::Suite;
use crate::search::threads::STACK_SIZE;
use crate::search::{Limits, SearchOptions, Searcher};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// When a game is ended before the rules end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// A game is won when both sides' searches agree on a score at least this big...
    pub win_score: i32,
    /// ...for this many plies in a row.
    pub win_plies: usize,
    /// A game is drawn when, after `draw_after` plies, the score stays within `draw_score`
    /// for `draw_plies` plies in a row (0 plies: never).
    pub draw_score: i32,
    pub draw_plies: usize,
    pub draw_after: usize,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication {
            win_score: 2500,
            win_plies: 4,
            draw_score: 10,
            draw_plies: 12,
            draw_after: 80,
        }
    }
}

/// How every game is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatagenSettings {
    /// Stop deepening after the iteration that passes this many nodes.
    pub soft_nodes: u64,
    /// Never search more nodes than this for a move.
    pub hard_nodes: u64,
    /// Random plies played from the suite position before the recorded game starts.
    pub random_plies: usize,
    /// Games still running after this many recorded plies are stored as unfinished.
    pub max_plies: usize,
    pub hash_mb: usize,
    pub adjudication: Adjudication,
}

impl Default for DatagenSettings {
    fn default() -> Self {
        DatagenSettings {
            soft_nodes: 1_000,
            hard_nodes: 4_000,
            random_plies: 4,
            max_plies: 400,
            hash_mb: 8,
            adjudication: Adjudication::default(),
        }
    }
}

/// A variant and its balanced start positions.
#[derive(Clone)]
pub struct Opening {
    pub tables: Arc<Tables<u64>>,
    pub positions: Vec<String>,
}

/// Why a generation run cannot go on.
#[derive(Debug)]
pub enum GenError {
    Setup(String),
    Output { file: PathBuf, reason: String },
    Data(DataError),
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            GenError::Setup(m) => write!(f, "{m}"),
            GenError::Output { file, reason } => write!(f, "{}: {reason}", file.display()),
            GenError::Data(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GenError {}

/// The openings of the named variants in a suite; each must have positions and a board of
/// at most 64 cells.
pub fn openings(suite: &Suite, names: &[String]) -> Result<Vec<Opening>, GenError> {
    names
        .iter()
        .map(|name| {
            let any = crate::games::tables(name).map_err(|e| GenError::Setup(e.to_string()))?;
            let positions = suite.positions(&any);
            let AnyTables::Narrow(tables) = any else {
                return Err(GenError::Setup(format!(
                    "{name}: boards beyond 64 cells are not supported by datagen yet"
                )));
            };
            if positions.is_empty() {
                return Err(GenError::Setup(format!(
                    "the suite has no position for {name}"
                )));
            }
            Ok(Opening { tables, positions })
        })
        .collect()
}

/// The random source of game `game` of a run: each (seed, shard, game) its own stream.
pub fn game_rng(seed: u64, shard: u64, game: u64) -> Rng {
    let mut rng = Rng::new(seed);
    rng.fold_in(shard.wrapping_mul(0xA24B_AED4_963E_E407));
    rng.fold_in(game.wrapping_mul(0x9FB2_1C65_1E98_DF25));
    rng
}

/// The game after a random suite position and random plies, not yet over; after many
/// draws that all end at once, the suite position itself.
fn start_game(opening: &Opening, random_plies: usize, rng: &mut Rng) -> Game<u64> {
    let t = &opening.tables;
    let suite_game = |rng: &mut Rng| {
        let start = &opening.positions[rng.index(opening.positions.len())];
        Game::from_position_string(t.clone(), start).expect("suite positions are checked")
    };
    for _ in 0..100 {
        let mut game = suite_game(rng);
        for _ in 0..random_plies {
            let moves = legal_moves(t, &game.pos);
            if moves.is_empty() {
                break;
            }
            game.pos = game.pos.play(t, moves[rng.index(moves.len())]);
        }
        if game.outcome().is_none() {
            return game;
        }
    }
    suite_game(rng)
}

/// Watches the scores of a game for adjudication.
#[derive(Default)]
struct Adjudicator {
    win_run: usize,
    leader: Option<Player>,
    draw_run: usize,
}

impl Adjudicator {
    /// Sees the score of the search at ply `ply` by `side`; the result if it decides.
    fn see(
        &mut self,
        a: &Adjudication,
        side: Player,
        ply: usize,
        score: i32,
    ) -> Option<GameResult> {
        let leader = if score > 0 { side } else { Player(1 - side.0) };
        if score.abs() >= a.win_score {
            self.win_run = if self.leader == Some(leader) {
                self.win_run + 1
            } else {
                1
            };
            self.leader = Some(leader);
        } else {
            self.win_run = 0;
            self.leader = None;
        }
        if self.win_run >= a.win_plies {
            return Some(win_for(leader));
        }
        let quiet = ply >= a.draw_after && score.abs() <= a.draw_score;
        self.draw_run = if quiet { self.draw_run + 1 } else { 0 };
        (a.draw_plies > 0 && self.draw_run >= a.draw_plies).then_some(GameResult::Draw)
    }
}

fn win_for(p: Player) -> GameResult {
    if p == Player::WHITE {
        GameResult::WhiteWin
    } else {
        GameResult::BlackWin
    }
}

fn result_of(outcome: &Outcome) -> GameResult {
    match outcome {
        Outcome::Win { winner, .. } => win_for(*winner),
        Outcome::Draw { .. } => GameResult::Draw,
    }
}

/// Plays one game into `record` (its buffers reused): `searcher` moves for both sides.
/// Returns the nodes searched.
pub fn play_game(
    searcher: &mut Searcher<u64>,
    opening: &Opening,
    settings: &DatagenSettings,
    rng: &mut Rng,
    record: &mut PgdRecord,
) -> u64 {
    let t = &opening.tables;
    let start = start_game(opening, settings.random_plies, rng).position_string();
    let mut game = Game::from_position_string(t.clone(), &start).expect("a position we wrote");
    record.variant.clone_from(&t.variant.name);
    record.tokens = tokens(t);
    record.start = start;
    record.plies.clear();
    searcher.new_game();
    let limits = Limits {
        nodes: Some(settings.hard_nodes),
        soft_nodes: Some(settings.soft_nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut adjudicator = Adjudicator::default();
    let mut nodes = 0;
    record.result = loop {
        if let Some(outcome) = game.outcome() {
            break Some(result_of(&outcome));
        }
        // The record counts plies in a u16.
        if record.plies.len() >= settings.max_plies.min(u16::MAX as usize) {
            break None;
        }
        let found = searcher.search(&game, &limits, &stop, &mut |_| {});
        nodes += found.nodes;
        let mv = found.best.expect("a game that is not over has a move");
        let score = StoredScore::from_search(found.score);
        record.plies.push(Ply {
            mv: StoredMove::from_move(mv),
            score,
        });
        let verdict = adjudicator.see(
            &settings.adjudication,
            game.pos.side,
            record.plies.len(),
            score.0 as i32,
        );
        game.play(mv);
        if verdict.is_some() {
            break verdict;
        }
    };
    nodes
}

/// A generation run: what to play and where to write it.
pub struct Job {
    pub openings: Vec<Opening>,
    pub settings: DatagenSettings,
    pub seed: u64,
    pub shard: u64,
    pub threads: usize,
    /// Stop after this many games (`None`: no limit).
    pub games: Option<u64>,
    /// Stop starting games once this many positions are written (`None`: no limit).
    pub positions: Option<u64>,
    pub out: PathBuf,
}

/// Counts of a run so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    pub games: u64,
    pub positions: u64,
    /// Nodes searched.
    pub nodes: u64,
    /// Bytes written by this run.
    pub bytes: u64,
    /// White wins, draws, Black wins, unfinished.
    pub results: [u64; 4],
    pub elapsed: Duration,
    /// Games already in the file when the run started.
    pub resumed_from: u64,
}

/// What the threads share: the output, the counters and the next game's number.
struct Shared {
    out: Mutex<File>,
    next_game: AtomicU64,
    last_game: Option<u64>,
    games: AtomicU64,
    positions: AtomicU64,
    nodes: AtomicU64,
    bytes: AtomicU64,
    results: [AtomicU64; 4],
    failed: AtomicBool,
    running: AtomicU64,
}

impl Shared {
    /// The next game number to play, or `None` when the run is done.
    fn claim(&self, job: &Job) -> Option<u64> {
        let enough = job
            .positions
            .is_some_and(|p| self.positions.load(Ordering::Relaxed) >= p);
        if enough || self.failed.load(Ordering::Relaxed) {
            return None;
        }
        let i = self.next_game.fetch_add(1, Ordering::Relaxed);
        self.last_game.is_none_or(|last| i < last).then_some(i)
    }

    fn progress(&self, start: Instant, resumed_from: u64) -> Progress {
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        Progress {
            games: load(&self.games),
            positions: load(&self.positions),
            nodes: load(&self.nodes),
            bytes: load(&self.bytes),
            results: std::array::from_fn(|i| load(&self.results[i])),
            elapsed: start.elapsed(),
            resumed_from,
        }
    }
}

/// Opens the output for appending, first cutting off a record a killed run left truncated;
/// returns the file and how many complete records it holds.
fn open_output(path: &Path) -> Result<(File, u64), GenError> {
    let failed = |e: std::io::Error| GenError::Output {
        file: path.to_path_buf(),
        reason: e.to_string(),
    };
    let mut records = 0;
    if path.exists() {
        let (count, complete) = complete_prefix(path).map_err(GenError::Data)?;
        let size = std::fs::metadata(path).map_err(failed)?.len();
        if complete < size {
            eprintln!(
                "datagen: {}: cutting a truncated record of {} bytes at byte {complete}",
                path.display(),
                size - complete
            );
            let file = OpenOptions::new().write(true).open(path).map_err(failed)?;
            file.set_len(complete).map_err(failed)?;
        }
        records = count;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(failed)?;
    Ok((file, records))
}

/// Runs the job on its threads; `report` is called every `every` with the counts so far and
/// once at the end. Returns the final counts.
pub fn run(
    job: &Job,
    every: Duration,
    mut report: impl FnMut(&Progress),
) -> Result<Progress, GenError> {
    if job.openings.is_empty() {
        return Err(GenError::Setup("no variant to play".into()));
    }
    let (file, resumed_from) = open_output(&job.out)?;
    let shared = Shared {
        out: Mutex::new(file),
        next_game: AtomicU64::new(resumed_from),
        last_game: job.games.map(|g| resumed_from + g),
        games: AtomicU64::new(0),
        positions: AtomicU64::new(0),
        nodes: AtomicU64::new(0),
        bytes: AtomicU64::new(0),
        results: Default::default(),
        failed: AtomicBool::new(false),
        running: AtomicU64::new(job.threads.max(1) as u64),
    };
    let start = Instant::now();
    let outcome: Result<(), GenError> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..job.threads.max(1))
            .map(|i| {
                // The searches run on this thread (no thread started per move), so it has the
                // stack a search thread has.
                std::thread::Builder::new()
                    .name(format!("datagen-{i}"))
                    .stack_size(STACK_SIZE)
                    .spawn_scoped(s, || {
                        let r = worker(job, &shared);
                        if r.is_err() {
                            shared.failed.store(true, Ordering::Relaxed);
                        }
                        shared.running.fetch_sub(1, Ordering::Relaxed);
                        r
                    })
                    .expect("spawn datagen worker")
            })
            .collect();
        let mut last = Instant::now();
        while shared.running.load(Ordering::Relaxed) > 0 {
            std::thread::sleep(Duration::from_millis(100).min(every));
            if last.elapsed() >= every {
                report(&shared.progress(start, resumed_from));
                last = Instant::now();
            }
        }
        workers
            .into_iter()
            .try_for_each(|w| w.join().expect("datagen worker"))
    });
    let progress = shared.progress(start, resumed_from);
    report(&progress);
    outcome.map(|_| progress)
}

/// One thread: plays the games it claims and appends each whole record.
fn worker(job: &Job, shared: &Shared) -> Result<(), GenError> {
    let options = SearchOptions {
        hash_mb: job.settings.hash_mb,
        threads: 1,
        multi_pv: 1,
    };
    let mut searcher = Searcher::new(job.openings[0].tables.clone(), options);
    searcher.search_on_caller_thread();
    let mut record = PgdRecord::default();
    let mut bytes = Vec::new();
    while let Some(i) = shared.claim(job) {
        let opening = &job.openings[(i % job.openings.len() as u64) as usize];
        let mut rng = game_rng(job.seed, job.shard, i);
        let nodes = play_game(&mut searcher, opening, &job.settings, &mut rng, &mut record);
        record.origin = Some(Origin {
            seed: job.seed,
            shard: job.shard,
            game: i,
        });
        bytes.clear();
        record.encode(&mut bytes);
        shared
            .out
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .write_all(&bytes)
            .map_err(|e| GenError::Output {
                file: job.out.clone(),
                reason: e.to_string(),
            })?;
        shared.games.fetch_add(1, Ordering::Relaxed);
        shared.nodes.fetch_add(nodes, Ordering::Relaxed);
        shared
            .positions
            .fetch_add(record.plies.len() as u64, Ordering::Relaxed);
        shared
            .bytes
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let result = record.result.unwrap_or(GameResult::Unfinished);
        shared.results[result as usize].fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}
