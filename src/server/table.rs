//! The game on the table: one [`Session`] (the same game and searcher code the protocols
//! use), who plays each seat, and the engine's thinking. Every change of the game goes
//! through here; the engine searches on the session's worker thread and its result comes
//! back through [`Room::search_done`], so requests are answered while the engine thinks.
//!
//! All pages share this one game (see docs/serve.md): the server is a board on a table, and a
//! second tab is a second chair at it, which is what watching an engine game or a
//! four-player game from several windows needs; one search thread serves them all.

use super::clock::{flag_outcome, CanMate, ClockSettings, Clocks};
use super::error::ApiError;
use super::hub::Hub;
use super::saved::{MovesView, SavedGame, Store};
pub use super::settings::{Budget, Seat, SeatLevel};
use super::view::{outcome_json, outcome_text, seat_names, StateView};
use crate::game::{AnyTables, Outcome};
use crate::games;
use crate::search::multi_player::Method;
use crate::search::{Info, Limits, Score, SearchOptions};
use crate::session::{Finished, Reporter, Session};
use crate::with_tables;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

/// The hash table of the server's one searcher.
const HASH_MB: usize = 32;

/// How often the flag of the running clock is looked at: a flag fall is announced at most
/// this late.
const FLAG_WATCH: Duration = Duration::from_millis(50);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// The engine plays the result for the seat to move.
    Move,
    /// Thinking shown to the user until the position changes.
    Analysis,
}

struct RunningSearch {
    id: u64,
    stop: Arc<AtomicBool>,
    purpose: Purpose,
    /// The game's generation when the search started: a result for an older position is
    /// never played.
    generation: u64,
}

pub struct Table {
    session: Session,
    seats: Vec<Seat>,
    /// How strongly the engine plays each seat when the seat is the engine's.
    levels: Vec<SeatLevel>,
    budget: Budget,
    analysis: bool,
    /// Engine seats wait (after "pause", or an undo in an engine-only game).
    paused: bool,
    /// Counts the changes of the game.
    generation: u64,
    search: Option<RunningSearch>,
    next_search: u64,
    /// The latest line per MultiPV index of the current search.
    thinking: Vec<Value>,
    /// Where the game is kept after every change (none: in memory only).
    store: Option<Store>,
    /// The game was continued from the file at start (until a new game), for the page's notice.
    resumed: bool,
    /// The last write failed: it was reported once, and is reported again only after a
    /// success, so that a full disk does not fill the log with a line per move.
    save_failed: bool,
    /// The clocks of a timed two-player game (none: untimed).
    clocks: Option<Clocks>,
    /// The result of a flag fall, which the game's own rules know nothing of.
    time_outcome: Option<Outcome>,
}

/// The variant, the seats' names (White, Catholic, ...), who plays them and the result.
pub struct RecordContext {
    pub tables: AnyTables,
    pub seat_names: Vec<String>,
    pub players: Vec<String>,
    pub outcome: Option<crate::game::Outcome>,
}

/// The table and the streams of the pages watching it.
pub struct Room {
    table: Mutex<Table>,
    pub hub: Arc<Hub>,
}

fn default_seats(players: usize) -> Vec<Seat> {
    let mut seats = vec![Seat::Engine; players];
    seats[0] = Seat::Human;
    seats
}

impl Room {
    pub fn new(variant: &str) -> Result<Arc<Room>, ApiError> {
        let tables = games::tables(variant).map_err(ApiError::Variant)?;
        let options = SearchOptions {
            hash_mb: HASH_MB,
            ..SearchOptions::default()
        };
        let mut session = Session::new(tables, options);
        let start = session.variant().start_position.clone();
        session.set_position(&start).map_err(ApiError::Position)?;
        let players = session.variant().players();
        let table = Table {
            session,
            seats: default_seats(players),
            levels: vec![SeatLevel::FULL; players],
            budget: Budget {
                nodes: None,
                movetime_ms: Some(1000),
                depth: None,
            },
            analysis: false,
            paused: false,
            generation: 0,
            search: None,
            next_search: 0,
            thinking: Vec::new(),
            store: None,
            resumed: false,
            save_failed: false,
            clocks: None,
            time_outcome: None,
        };
        let room = Arc::new(Room {
            table: Mutex::new(table),
            hub: Arc::new(Hub::default()),
        });
        Room::watch_flags(Arc::downgrade(&room));
        Ok(room)
    }

    /// Looks at the running clock until the room is gone, and ends the game when a flag falls
    /// (a human's clock runs out with no request arriving, so nothing else would notice).
    fn watch_flags(room: Weak<Room>) {
        std::thread::spawn(move || loop {
            std::thread::sleep(FLAG_WATCH);
            let Some(room) = room.upgrade() else { return };
            let mut t = room.lock();
            room.end_if_flagged(&mut t);
        });
    }

    /// Ends the game if the running clock's flag has fallen; true if it did now.
    fn end_if_flagged(self: &Arc<Self>, t: &mut Table) -> bool {
        let fallen = t.check_flag();
        if fallen {
            self.changed(t);
        }
        fallen
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        // A panicking request thread must not take the game down with it.
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs a change of the game: on success the engine reconsiders and the pages hear of it.
    fn change<R>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Table) -> Result<R, ApiError>,
    ) -> Result<Value, ApiError> {
        let mut t = self.lock();
        f(&mut t)?;
        self.changed(&mut t);
        Ok(t.state())
    }

    /// After a change: older thinking is stopped and forgotten, the next search is chosen.
    fn changed(self: &Arc<Self>, t: &mut Table) {
        t.generation += 1;
        t.save();
        t.thinking.clear();
        if let Some(s) = &t.search {
            s.stop.store(true, Ordering::Relaxed);
        }
        self.schedule(t);
        self.hub
            .broadcast("state", &json!({ "generation": t.generation }));
    }

    pub fn state(&self) -> Value {
        self.lock().state()
    }

    /// A room with a kept game set up again: its variant, start position, seats and engine
    /// settings, then every move through the session, checked as when it was first played.
    pub fn restore(saved: &SavedGame) -> Result<Arc<Room>, String> {
        let room = Room::new(&saved.variant).map_err(|e| e.to_string())?;
        {
            let mut t = room.lock();
            t.new_game(None, Some(&saved.start), None)
                .map_err(|e| e.to_string())?;
            if saved.seats.len() != t.seats.len() {
                return Err(format!(
                    "{} seats for a game of {}",
                    saved.seats.len(),
                    t.seats.len()
                ));
            }
            t.seats = saved.seats.clone();
            // Files from before levels have none: full strength.
            if !saved.levels.is_empty() {
                if saved.levels.len() != t.seats.len() {
                    return Err(format!(
                        "{} levels for {} seats",
                        saved.levels.len(),
                        t.seats.len()
                    ));
                }
                t.levels = saved.levels.clone();
            }
            t.budget = saved.budget;
            let options = SearchOptions {
                multi_pv: saved.multi_pv.clamp(1, 8),
                ..*t.session.options()
            };
            t.session.set_options(options).map_err(|e| e.to_string())?;
            t.session.set_multi_player_method(saved.method);
            for (i, mv) in saved.moves.iter().enumerate() {
                t.session
                    .play(mv)
                    .map_err(|e| format!("move {} ({mv}): {e}", i + 1))?;
            }
            t.resumed = !saved.moves.is_empty();
            // Each side resumes with the time it had when the game was last written.
            t.clocks = saved
                .clock
                .map(|(control, remaining)| Clocks::resumed(control, remaining));
            t.tick_clock(false);
        }
        Ok(room)
    }

    /// From now on the game is kept in `store` (written at once, so that a `--fresh` start
    /// replaces the old game), and the engine starts if it is to move, as after any change.
    pub fn keep(self: &Arc<Self>, store: Option<Store>) {
        let mut t = self.lock();
        t.store = store;
        t.save();
        self.schedule(&mut t);
    }

    pub fn visit<V: crate::session::GameVisitor>(&self, v: V) -> V::Output {
        self.lock().session.visit(v)
    }

    /// What the game record needs besides the moves.
    pub fn record_context(&self) -> RecordContext {
        let t = self.lock();
        RecordContext {
            tables: t.session.tables().clone(),
            seat_names: t.names(),
            players: t
                .seats
                .iter()
                .zip(&t.levels)
                .map(|(s, level)| match s {
                    Seat::Human => "Human".to_string(),
                    Seat::Engine if *level == SeatLevel::FULL => "Panoply".to_string(),
                    Seat::Engine => format!("Panoply (level {})", level.number()),
                })
                .collect(),
            outcome: t.outcome(),
        }
    }

    /// A human move; `seat`, when given, must be the seat to move.
    pub fn play(self: &Arc<Self>, mv: &str, seat: Option<usize>) -> Result<Value, ApiError> {
        // A move that comes after the flag fell (before the watcher saw it) is too late.
        self.end_if_flagged(&mut self.lock());
        self.change(|t| {
            t.check_can_move(seat)?;
            t.session.play(mv).map_err(ApiError::from)?;
            t.tick_clock(true);
            Ok(())
        })
    }

    /// A new game of `variant` (or the current one) from `position` (or the start), on
    /// `clock` (two-player games only; none: untimed).
    pub fn new_game(
        self: &Arc<Self>,
        variant: Option<&str>,
        position: Option<&str>,
        clock: Option<ClockSettings>,
    ) -> Result<Value, ApiError> {
        self.change(|t| t.new_game(variant, position, clock))
    }

    /// Takes back moves until a human is to move (one move if no seat is human).
    pub fn undo(self: &Arc<Self>) -> Result<Value, ApiError> {
        self.change(|t| {
            if t.session.plies_played() == 0 {
                return Err(ApiError::NothingToUndo);
            }
            t.session.undo();
            if t.seats.contains(&Seat::Human) {
                while t.seat_to_move() == Seat::Engine && t.session.undo() {}
            } else {
                t.paused = true;
            }
            // Time is not given back: the clocks go on from what they show.
            t.tick_clock(false);
            Ok(())
        })
    }

    /// Who plays each seat, and how strongly the engine plays each; nothing changes unless
    /// every list given has one entry per seat.
    pub fn set_seats(
        self: &Arc<Self>,
        seats: Option<Vec<Seat>>,
        levels: Option<Vec<SeatLevel>>,
    ) -> Result<Value, ApiError> {
        self.change(|t| {
            let count = t.seats.len();
            let given = [seats.as_ref().map(Vec::len), levels.as_ref().map(Vec::len)];
            if let Some(n) = given.into_iter().flatten().find(|&n| n != count) {
                return Err(ApiError::BadRequest(format!(
                    "this game has {count} seats, not {n}"
                )));
            }
            if let Some(seats) = seats {
                t.seats = seats;
            }
            if let Some(levels) = levels {
                t.levels = levels;
            }
            Ok(())
        })
    }

    /// Engine settings: budget per move, MultiPV, four-player search method, analysis.
    pub fn configure(
        self: &Arc<Self>,
        budget: Option<Budget>,
        multi_pv: Option<usize>,
        method: Option<Method>,
        analysis: Option<bool>,
    ) -> Result<Value, ApiError> {
        self.change(|t| {
            if let Some(b) = budget {
                t.budget = b;
            }
            if let Some(n) = multi_pv {
                let options = SearchOptions {
                    multi_pv: n.clamp(1, 8),
                    ..*t.session.options()
                };
                // Only the line count changes here; the table keeps its size, so a refusal
                // would leave the game as it was and is reported like any bad request.
                t.session
                    .set_options(options)
                    .map_err(|e| ApiError::BadRequest(e.to_string()))?;
            }
            if let Some(m) = method {
                t.session.set_multi_player_method(m);
            }
            if let Some(a) = analysis {
                t.analysis = a;
            }
            Ok(())
        })
    }

    /// Stops the engine. With `play_now` the search ends and its move is played (the
    /// protocols' `stop`); otherwise engine seats pause until [`Room::resume`].
    pub fn stop(self: &Arc<Self>, play_now: bool) -> Value {
        let mut t = self.lock();
        if let Some(s) = &t.search {
            s.stop.store(true, Ordering::Relaxed);
        }
        if !play_now {
            t.paused = true;
            t.analysis = false;
            t.tick_clock(false);
            self.hub
                .broadcast("state", &json!({ "generation": t.generation }));
        }
        t.state()
    }

    pub fn resume(self: &Arc<Self>) -> Value {
        let mut t = self.lock();
        t.paused = false;
        t.tick_clock(false);
        self.schedule(&mut t);
        self.hub
            .broadcast("state", &json!({ "generation": t.generation }));
        t.state()
    }

    /// Starts the search the table needs now, if any and if the engine is free.
    fn schedule(self: &Arc<Self>, t: &mut Table) {
        if t.search.is_some() || t.outcome().is_some() {
            return;
        }
        let purpose = if t.seat_to_move() == Seat::Engine && !t.paused {
            Purpose::Move
        } else if t.analysis {
            Purpose::Analysis
        } else {
            return;
        };
        let now = Instant::now();
        let side = t.session.side_to_move().index();
        let limits = match purpose {
            // A timed game: the engine's own clock, as a GUI sends it over the protocols.
            Purpose::Move => match &t.clocks {
                Some(c) => Limits {
                    clock: Some(c.search_clock(side, now)),
                    started: Some(now),
                    ..Limits::default()
                },
                None => t.budget.limits(),
            },
            Purpose::Analysis => Limits {
                infinite: true,
                ..Limits::default()
            },
        };
        // The seat's level, through the session as the protocols' `Skill Level` goes (analysis
        // is at full strength whatever the level).
        let mut play = t.session.play_settings();
        play.level = t.levels.get(side).map_or(SeatLevel::FULL, |l| *l).level();
        t.session.set_play_settings(play);
        let id = t.next_search;
        t.next_search += 1;
        let stop = Arc::new(AtomicBool::new(false));
        t.search = Some(RunningSearch {
            id,
            stop: stop.clone(),
            purpose,
            generation: t.generation,
        });
        let (done_tx, done_rx) = channel();
        let room = Arc::clone(self);
        let report = self.reporter(id, purpose);
        let done = Box::new(move |finished| {
            let _ = done_tx.send(finished);
        });
        t.session.start_search(limits, stop, report, done);
        // The result comes back on a thread of its own, which takes the table's lock.
        std::thread::spawn(move || {
            if let Ok(finished) = done_rx.recv() {
                room.search_done(id, finished);
            }
        });
    }

    /// Sends every progress report of search `id` to the pages, and keeps the latest line per
    /// MultiPV index for pages that open later.
    fn reporter(self: &Arc<Self>, id: u64, purpose: Purpose) -> Reporter {
        let room = Arc::downgrade(self);
        Box::new(move |r: &Info<String>| {
            let Some(room) = room.upgrade() else { return };
            let line = info_json(id, purpose, r);
            {
                let mut t = room.lock();
                if t.search.as_ref().map(|s| s.id) != Some(id) {
                    return;
                }
                let i = (r.multipv.max(1) - 1) as usize;
                if t.thinking.len() <= i {
                    t.thinking.resize(i + 1, Value::Null);
                }
                t.thinking[i] = line.clone();
            }
            room.hub.broadcast("info", &line);
        })
    }

    /// A search has ended: the engine's move is played if it is still wanted, and the next
    /// search starts.
    fn search_done(self: &Arc<Self>, id: u64, finished: Finished) {
        let mut t = self.lock();
        let outcome = t.session.finish(finished);
        if t.search.as_ref().map(|s| s.id) != Some(id) {
            return;
        }
        let search = t.search.take().expect("checked above");
        if self.end_if_flagged(&mut t) {
            // The engine's time ran out before its move came: it is not played.
            return;
        }
        let wanted = search.purpose == Purpose::Move
            && search.generation == t.generation
            && !t.paused
            && t.seat_to_move() == Seat::Engine;
        match outcome.best.filter(|_| wanted) {
            Some(best) => {
                match t.session.play(&best) {
                    Ok(()) => t.tick_clock(true),
                    Err(e) => log::error!("the engine's move {best} was refused: {e}"),
                }
                self.changed(&mut t);
            }
            None => {
                self.schedule(&mut t);
                self.hub
                    .broadcast("state", &json!({ "generation": t.generation }));
            }
        }
    }
}

impl Table {
    fn seat_to_move(&self) -> Seat {
        self.seats
            .get(self.session.side_to_move().index())
            .copied()
            .unwrap_or(Seat::Human)
    }

    fn names(&self) -> Vec<String> {
        with_tables!(&self.session.tables(), tb => seat_names(tb))
    }

    fn check_can_move(&self, seat: Option<usize>) -> Result<(), ApiError> {
        let names = self.names();
        if let Some(o) = self.outcome() {
            return Err(ApiError::GameOver(outcome_text(&names, &o)));
        }
        let side = self.session.side_to_move().index();
        if let Some(s) = seat.filter(|&s| s != side) {
            return Err(ApiError::WrongSeat {
                sent: names.get(s).cloned().unwrap_or_else(|| format!("seat {s}")),
                to_move: names[side].clone(),
            });
        }
        if self.seat_to_move() == Seat::Engine {
            return Err(ApiError::EngineSeat(names[side].clone()));
        }
        Ok(())
    }

    fn new_game(
        &mut self,
        variant: Option<&str>,
        position: Option<&str>,
        clock: Option<ClockSettings>,
    ) -> Result<(), ApiError> {
        let tables = match variant {
            Some(name) => games::tables(name).map_err(ApiError::Variant)?,
            None => self.session.tables().clone(),
        };
        if clock.is_some() && tables.variant().players() != 2 {
            return Err(ApiError::BadRequest(
                "four-player games have no clocks: the engine keeps its budget per move".into(),
            ));
        }
        // Parse the position first: a bad one must leave the current game as it was.
        let start = tables.variant().start_position.clone();
        let position = position.map(str::trim).filter(|p| !p.is_empty());
        with_tables!(&tables, tb => {
            crate::position::fen::parse(tb, position.unwrap_or(&start))
                .map_err(ApiError::Position)?;
        });
        let players = tables.variant().players();
        if variant.is_some() {
            self.session.set_tables(tables);
        }
        self.session
            .set_position(position.unwrap_or(&start))
            .map_err(ApiError::Position)?;
        if !self.session.is_searching() {
            self.session.new_game();
        }
        if self.seats.len() != players {
            self.seats = default_seats(players);
            self.levels = vec![SeatLevel::FULL; players];
        }
        self.paused = false;
        self.resumed = false;
        self.time_outcome = None;
        self.clocks = clock.map(Clocks::new);
        self.tick_clock(false);
        Ok(())
    }

    /// The game's result: a flag fall, or what the rules say.
    fn outcome(&self) -> Option<Outcome> {
        self.time_outcome.clone().or_else(|| self.session.outcome())
    }

    /// After a change: the clock of the side to move runs while the game goes on and is not
    /// paused; after a move (`moved`) the mover's clock stops with its increment.
    fn tick_clock(&mut self, moved: bool) {
        let now = Instant::now();
        let side = self.session.side_to_move().index();
        let running = self.outcome().is_none() && !self.paused;
        let Some(clocks) = &mut self.clocks else {
            return;
        };
        clocks.stop(now, moved);
        if running {
            clocks.start(side, now);
        }
    }

    /// Ends the game if the running clock's flag has fallen; true if it did now.
    fn check_flag(&mut self) -> bool {
        let now = Instant::now();
        let Some(flagged) = self.clocks.as_ref().and_then(|c| c.flagged(now)) else {
            return false;
        };
        let winner_can_mate = self.session.visit(CanMate {
            player: 1 - flagged,
        });
        self.time_outcome = Some(flag_outcome(flagged, winner_can_mate));
        self.tick_clock(false);
        true
    }

    fn state(&self) -> Value {
        let mut v = self.session.visit(StateView);
        if let Some(o) = &self.time_outcome {
            v["outcome"] = outcome_json(&self.names(), o);
            v["legal"] = json!([]);
        }
        v["clock"] = json!(self.clocks.as_ref().map(|c| c.to_json(Instant::now())));
        let options = self.session.options();
        v["seats"] = json!(self.seats.iter().map(|s| s.name()).collect::<Vec<_>>());
        v["levels"] = json!(self.levels.iter().map(|l| l.number()).collect::<Vec<_>>());
        v["engine"] = json!({
            "nodes": self.budget.nodes,
            "movetime": self.budget.movetime_ms,
            "depth": self.budget.depth,
            "multipv": options.multi_pv,
            "method": self.session.multi_player_method().name(),
            "analysis": self.analysis,
            "paused": self.paused,
            "searching": self.search.as_ref().map(|s| match s.purpose {
                Purpose::Move => "move",
                Purpose::Analysis => "analysis",
            }),
        });
        v["thinking"] = json!(self.thinking);
        v["generation"] = json!(self.generation);
        v["resumed"] = json!(self.resumed);
        v
    }

    /// Writes the game to its file, if it has one. A failed write is reported, and the game
    /// goes on in memory: the board must not stop because the disk is full.
    fn save(&mut self) {
        let Some(store) = &self.store else { return };
        let (start, moves) = self.session.visit(MovesView);
        let game = SavedGame {
            variant: self.session.variant().name.clone(),
            start,
            moves,
            seats: self.seats.clone(),
            levels: self.levels.clone(),
            budget: self.budget,
            multi_pv: self.session.options().multi_pv,
            method: self.session.multi_player_method(),
            clock: self
                .clocks
                .as_ref()
                .map(|c| (c.control, c.remaining_ms(Instant::now()))),
        };
        match store.save(&game) {
            Ok(()) => self.save_failed = false,
            Err(e) if !self.save_failed => {
                eprintln!("panoply serve: {e}");
                self.save_failed = true;
            }
            Err(_) => {}
        }
    }
}

fn info_json(id: u64, purpose: Purpose, r: &Info<String>) -> Value {
    let ms = r.time.as_millis() as u64;
    let score = match r.score {
        Score::Cp(c) => json!({ "cp": c }),
        Score::Mate(m) => json!({ "mate": m }),
    };
    json!({
        "search": id,
        "analysis": purpose == Purpose::Analysis,
        "depth": r.depth,
        "seldepth": r.seldepth,
        "multipv": r.multipv.max(1),
        "score": score,
        "nodes": r.nodes,
        "time": ms,
        "nps": r.nodes * 1000 / ms.max(1),
        "pv": r.pv,
    })
}
