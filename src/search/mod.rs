//! Search: the API the protocols drive. A [`Searcher`] owns the transposition table and the
//! per-thread histories, which persist across moves of a game; [`Searcher::search`] runs an
//! iterative-deepening alpha-beta search (see [`two_player`]) on one or more threads (Lazy
//! SMP, see [`threads`]) within the given [`Limits`] and reports progress through `on_info`.
//! Games of more than two players go to [`multi_player`] (paranoid or best-reply search).

pub mod bench;
pub mod correction;
pub mod memory;
pub mod multi_player;
pub mod multi_table;
pub mod ordering;
pub mod see;
pub mod selfplay;
pub mod strength;
pub mod threads;
pub mod time;
pub mod tt;
pub mod two_player;
pub mod wdl;

use crate::bitboard::BitSet;
use crate::eval::Evaluator;
use crate::game::Game;
use crate::games::utility::{multi_player_utility, SharedUtility};
use crate::movegen::tables::Tables;
use crate::moves::Move;
use crate::nnue::{EvalSettings, Nnue};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tt::TranspositionTable;

/// When to stop searching. `Default` is no limit at all except `stop` (and `infinite: false`,
/// so a search without limits ends at the maximum depth).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop deepening after the first iteration that ends past this many nodes (data
    /// generation: whole iterations only, so each move's score is a finished search's; the
    /// hard limit is `nodes`).
    pub soft_nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search until stopped (analysis, pondering), even past a found mate.
    pub infinite: bool,
    /// When the command that asked for this search arrived. The clock runs from then, so the
    /// time spent reading the position, replaying its moves and looking in the book counts
    /// against the budget as it does on the GUI's clock. `None`: from the start of the search.
    pub started: Option<Instant>,
    /// What each move costs beyond the engine's own count (`Move Overhead`); the measured
    /// lag adds to it. `None`: [`time::DEFAULT_MOVE_OVERHEAD`].
    pub move_overhead: Option<Duration>,
    /// Moves the side to move is expected still to play ([`time::expected_moves_left`]);
    /// `None`: a fixed horizon of 32.
    pub moves_left: Option<u32>,
}

/// The engine's clock, whichever protocol form it came in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    pub time_left: Duration,
    pub increment: Duration,
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
    pub opponent_time: Option<Duration>,
    /// How much more than the engine's own count recent moves cost on this clock (pipes,
    /// a loaded machine); the budget keeps it in hand.
    pub lag: Duration,
}

/// A score for protocols: centipawns, or a mate distance in moves (negative: being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

/// Progress of the search, sent after every completed iteration (per MultiPV line). The
/// principal variation is in moves (`M = Move`) or, once written for a protocol, in move
/// strings (`Info<String>`).
#[derive(Clone, Debug, PartialEq)]
pub struct Info<M = Move> {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<M>,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
}

impl<M> Info<M> {
    /// The same report with the principal variation's moves converted by `f`.
    pub fn map_pv<N>(&self, f: impl FnMut(&M) -> N) -> Info<N> {
        Info {
            depth: self.depth,
            seldepth: self.seldepth,
            multipv: self.multipv,
            score: self.score,
            nodes: self.nodes,
            time: self.time,
            pv: self.pv.iter().map(f).collect(),
            hashfull: self.hashfull,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    pub score: Score,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub multi_pv: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            hash_mb: 64,
            threads: 1,
            multi_pv: 1,
        }
    }
}

/// Internal scores: centipawns, with mates as `MATE - plies`.
pub const INFINITY: i32 = 32_000;
pub const MATE: i32 = 31_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
pub const MAX_PLY: usize = 128;

/// Converts an internal score to the protocol form.
pub fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Mate(-(MATE + s) / 2)
    } else {
        Score::Cp(s)
    }
}

/// A persistent search engine for one variant.
pub struct Searcher<B: BitSet> {
    tables: Arc<Tables<B>>,
    eval: Arc<Evaluator<B>>,
    /// The user's choice of evaluation, and the network it gives this variant (if any).
    eval_settings: EvalSettings,
    nnue: Option<Arc<Nnue>>,
    tt: Arc<TranspositionTable>,
    options: SearchOptions,
    /// Histories and killers per thread, kept between moves.
    threads: Vec<ordering::ThreadData>,
    /// Where a two-player search runs (see [`threads::Placement`]).
    placement: threads::Placement,
    /// How games of more than two players are searched (see [`multi_player`]).
    multi_player: multi_player::Method,
    /// The evaluation the variant's family supplies for games of more than two players.
    utility: Option<SharedUtility<B>>,
    /// The multi-player searches' table, kept across moves and armies (its entries are per
    /// root army); made at the first such search, so two-player engines do not carry it.
    multi_table: Option<multi_table::MultiTable>,
}

impl<B: BitSet> Searcher<B> {
    pub fn new(tables: Arc<Tables<B>>, options: SearchOptions) -> Self {
        let mut options = sanitize(options);
        let eval = Arc::new(Evaluator::new(&tables));
        let threads = (0..options.threads)
            .map(|_| ordering::ThreadData::new(&tables))
            .collect();
        // The table may be smaller than asked if the machine has less memory.
        let tt = TranspositionTable::new(options.hash_mb);
        options.hash_mb = options.hash_mb.min(tt.megabytes());
        let eval_settings = EvalSettings::default();
        Searcher {
            tt: Arc::new(tt),
            nnue: eval_settings.network_for(&tables),
            eval_settings,
            eval,
            options,
            threads,
            placement: threads::Placement::OwnThread,
            multi_player: multi_player::Method::DEFAULT,
            utility: multi_player_utility(&tables),
            multi_table: None,
            tables,
        }
    }

    /// Chooses the search method for games of more than two players. The methods value a
    /// position differently, so a change forgets the multi-player table.
    pub fn set_multi_player_method(&mut self, method: multi_player::Method) {
        if method != self.multi_player {
            if let Some(table) = &mut self.multi_table {
                table.clear();
            }
        }
        self.multi_player = method;
    }

    pub fn multi_player_method(&self) -> multi_player::Method {
        self.multi_player
    }

    pub fn options(&self) -> SearchOptions {
        self.options
    }

    /// Applies new options: resizes the table (clearing it) and the thread count. A table
    /// the machine cannot give is refused: the old one stays, with its size in the options,
    /// and the other options still apply.
    pub fn set_options(&mut self, options: SearchOptions) -> Result<(), tt::HashError> {
        let mut options = sanitize(options);
        let mut refused = Ok(());
        if options.hash_mb != self.options.hash_mb {
            match TranspositionTable::try_new(options.hash_mb) {
                Ok(table) => self.tt = Arc::new(table),
                Err(e) => {
                    options.hash_mb = self.options.hash_mb;
                    refused = Err(e);
                }
            }
        }
        self.threads.truncate(options.threads);
        while self.threads.len() < options.threads {
            self.threads.push(ordering::ThreadData::new(&self.tables));
        }
        self.options = options;
        refused
    }

    /// Chooses the evaluation (network on or off, a network file); takes effect at once.
    pub fn set_eval(&mut self, settings: EvalSettings) {
        self.nnue = settings.network_for(&self.tables);
        self.eval_settings = settings;
        for t in &mut self.threads {
            t.clear_eval_cache();
        }
    }

    pub fn eval_settings(&self) -> &EvalSettings {
        &self.eval_settings
    }

    /// Whether a network evaluates the current variant.
    pub fn uses_network(&self) -> bool {
        self.nnue.is_some()
    }

    /// Runs one-thread two-player searches on the calling thread, which must have a stack of
    /// at least [`threads::STACK_SIZE`] bytes (see [`threads::Placement`]).
    pub fn search_on_caller_thread(&mut self) {
        self.placement = threads::Placement::CallerThread;
    }

    /// Forgets everything learnt: tables, histories and killers.
    pub fn new_game(&mut self) {
        self.tt.clear();
        if let Some(table) = &mut self.multi_table {
            table.clear();
        }
        for t in &mut self.threads {
            t.clear();
        }
    }

    /// The static evaluation of the game's position, from the side to move's view.
    pub fn evaluate(&mut self, game: &Game<B>) -> i32 {
        self.adopt(game);
        match &self.nnue {
            Some(n) => {
                n.evaluate_position(&game.pos, || self.eval.evaluate(&self.tables, &game.pos))
            }
            None => self.eval.evaluate(&self.tables, &game.pos),
        }
    }

    /// Searches the game's current position. Returns when a limit is reached or `stop` is
    /// set (for `infinite`, only on `stop`), always with a legal move if there is one.
    pub fn search(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.adopt(game);
        if self.tables.players() > 2 {
            let Some(utility) = &self.utility else {
                log::error!(
                    "{} has no multi-player evaluation",
                    self.tables.variant.name
                );
                let best = crate::movegen::legal_moves(&self.tables, &game.pos)
                    .first()
                    .copied();
                return SearchResult {
                    best,
                    ponder: None,
                    score: Score::Cp(0),
                    nodes: 0,
                };
            };
            let table = self
                .multi_table
                .get_or_insert_with(multi_table::MultiTable::standard);
            return multi_player::search_game(
                game,
                utility.as_ref(),
                self.multi_player,
                limits,
                stop,
                self.options.multi_pv,
                table,
                on_info,
            );
        }
        threads::run(
            &self.tables,
            &self.eval,
            self.nnue.as_deref(),
            &self.tt,
            &mut self.threads,
            self.options,
            game,
            limits,
            stop,
            self.placement,
            on_info,
        )
    }

    /// Switches to the game's variant when it differs from the one the searcher was built for.
    fn adopt(&mut self, game: &Game<B>) {
        if !Arc::ptr_eq(&self.tables, &game.tables) {
            self.tables = game.tables.clone();
            self.eval = Arc::new(Evaluator::new(&self.tables));
            self.nnue = self.eval_settings.network_for(&self.tables);
            self.utility = multi_player_utility(&self.tables);
            self.threads = (0..self.options.threads)
                .map(|_| ordering::ThreadData::new(&self.tables))
                .collect();
            self.tt.clear();
            if let Some(table) = &mut self.multi_table {
                table.clear();
            }
        }
    }
}

fn sanitize(o: SearchOptions) -> SearchOptions {
    SearchOptions {
        hash_mb: o.hash_mb.clamp(1, 1 << 16),
        threads: o.threads.clamp(1, 256),
        multi_pv: o.multi_pv.clamp(1, 256),
    }
}

#[cfg(test)]
mod tests;
