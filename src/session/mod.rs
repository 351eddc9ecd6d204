//! The engine as the protocols and the board server drive it: the current variant's game and
//! searcher ([`board::AnyBoard`], of whichever bitset width the variant needs), and searches
//! that run on a worker thread and report back through a callback.

pub mod board;

use crate::bitboard::BitSet;
use crate::game::{AnyTables, Game, Outcome};
use crate::games;
use crate::movegen::notation::{format_move, parse_move, MoveError};
use crate::movegen::perft;
use crate::movegen::tables::Tables;
use crate::moves::MoveKind;
use crate::nnue::EvalSettings;
use crate::piece::{Kind, Player};
use crate::position::fen::PositionError;
use crate::search::multi_player::Method;
use crate::search::strength::{self, Level};
use crate::search::time::{self, DEFAULT_MOVE_OVERHEAD};
use crate::search::tt::HashError;
use crate::search::{Info, Limits, Score, SearchOptions};
use crate::variant::Variant;
use board::{with_board, AnyBoard, Board};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A finished search: the searcher comes back (in a board of the searched game) with the
/// move it chose.
pub struct Finished {
    // Boxed: a board of the wide games is large, and this travels through channels.
    board: Box<AnyBoard>,
    outcome: SearchOutcome,
}

/// Where a search's progress reports go, with the principal variation as move strings.
pub type Reporter = Box<dyn FnMut(&Info<String>) + Send>;
/// What a search calls when it ends (see [`Session::finish`]).
pub type WhenDone = Box<dyn FnOnce(Finished) + Send>;

/// The move a search chose, as move strings in the game's notation.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    pub best: Option<String>,
    pub ponder: Option<String>,
    pub score: Score,
}

/// Code that needs the game itself, of whichever bitset width (the board server's views):
/// [`Session::visit`] hands it the concrete `Game<B>`.
pub trait GameVisitor {
    type Output;
    fn visit<B: BitSet>(self, game: &Game<B>) -> Self::Output;
}

/// A saved game, see [`Session::snapshot`].
pub struct Snapshot(AnyBoard);

pub struct Session {
    /// The game, and the searcher except while a search runs on the worker thread.
    board: AnyBoard,
    options: SearchOptions,
    /// How games of more than two players are searched; handed to the searcher per search.
    multi_player: Method,
    play: PlaySettings,
    /// The evaluation chosen (`UseNNUE`, `EvalFile`), and whether the searcher, away on a
    /// search, has yet to get it.
    eval: EvalSettings,
    eval_pending: bool,
}

/// How the session's searches play, beyond the searcher's own options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaySettings {
    /// `Move Overhead`: kept in hand on every move, the measured lag on top.
    pub move_overhead: Duration,
    /// `Skill Level` / `UCI_Elo`: below full strength, see [`strength`].
    pub level: Level,
    /// `UCI_AnalyseMode`: always full strength.
    pub analyse_mode: bool,
}

impl Default for PlaySettings {
    fn default() -> Self {
        PlaySettings {
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            level: Level::FULL,
            analyse_mode: false,
        }
    }
}

/// The bounds of the options both protocols offer (UCI `Hash` and `Threads`, XBoard
/// `memory` and `cores`).
pub const MAX_HASH_MB: usize = 65536;
pub const MAX_THREADS: usize = 256;

pub fn default_options() -> SearchOptions {
    SearchOptions {
        hash_mb: 64,
        threads: 1,
        multi_pv: 1,
    }
}

/// Runs `$body` with `$g` bound to the game of an [`AnyBoard`] (by reference or mutable
/// reference, as the board is given).
macro_rules! with_game {
    ($board:expr, $g:ident => $body:expr) => {
        match $board {
            AnyBoard::Narrow(Board { game: $g, .. }) => $body,
            AnyBoard::Wide(Board { game: $g, .. }) => $body,
        }
    };
}

/// A game, without a searcher, from the position a GUI starts this variant from.
fn start_board(tables: &AnyTables) -> AnyBoard {
    AnyBoard::game_at(tables, tables.variant().session_start())
        .expect("a variant's start position parses")
}

impl Session {
    pub fn new(tables: AnyTables, options: SearchOptions) -> Session {
        let mut board = start_board(&tables);
        board.add_searcher(options);
        let mut session = Session {
            board,
            options,
            multi_player: Method::DEFAULT,
            play: PlaySettings::default(),
            eval: EvalSettings::default(),
            eval_pending: false,
        };
        session.options = session.searcher_options().unwrap_or(options);
        session
    }

    /// The options the searcher settled on (hash sizes are rounded), if it is here.
    fn searcher_options(&self) -> Option<SearchOptions> {
        with_board!(&self.board, b => b.searcher.as_ref().map(|s| s.options()))
    }

    pub fn tables(&self) -> AnyTables {
        self.board.tables()
    }

    pub fn variant(&self) -> &Variant {
        with_board!(&self.board, b => &b.game.tables.variant)
    }

    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    pub fn is_searching(&self) -> bool {
        self.searcher_options().is_none()
    }

    /// Changes hash size, threads or MultiPV. A hash table the machine cannot give is
    /// refused and the old one kept (the other options still apply). During a search the
    /// change waits for its end (see [`Session::finish`]).
    pub fn set_options(&mut self, options: SearchOptions) -> Result<(), HashError> {
        self.options = options;
        with_board!(&mut self.board, b => {
            let Some(searcher) = &mut b.searcher else {
                return Ok(());
            };
            let result = searcher.set_options(options);
            self.options = searcher.options();
            result
        })
    }

    pub fn multi_player_method(&self) -> Method {
        self.multi_player
    }

    /// Chooses paranoid or best-reply search for games of more than two players; takes
    /// effect at the next search.
    pub fn set_multi_player_method(&mut self, method: Method) {
        self.multi_player = method;
    }

    pub fn play_settings(&self) -> PlaySettings {
        self.play
    }

    /// Changes the overhead, level or analysis mode; takes effect at the next search.
    pub fn set_play_settings(&mut self, play: PlaySettings) {
        self.play = play;
    }

    /// The level a search with `limits` plays at: full strength for analysis.
    fn level_for(&self, limits: &Limits) -> Option<Level> {
        let level = self.play.level;
        (!level.is_full() && !limits.infinite && !self.play.analyse_mode).then_some(level)
    }

    /// Fills in what the time manager needs beyond the protocol's limits: the overhead and
    /// the moves the side to move is expected still to play in this family's games.
    fn pace(&self, limits: &mut Limits) {
        limits.move_overhead.get_or_insert(self.play.move_overhead);
        let made = self.fullmove().saturating_sub(1);
        let length = games::describe(self.variant().family).game_length;
        limits
            .moves_left
            .get_or_insert_with(|| time::expected_moves_left(length, made));
    }

    /// Switches the network evaluation on or off; returns which evaluation the variant gets.
    pub fn set_use_nnue(&mut self, on: bool) -> String {
        self.eval.use_nnue = on;
        self.apply_eval();
        self.eval_description()
    }

    /// Loads a network file (`""` forgets it). A bad file is refused and the evaluation stays
    /// as it was; a good one for another family waits for its variants. Returns which
    /// evaluation the current variant gets.
    pub fn load_eval_file(&mut self, path: &str) -> Result<String, String> {
        self.eval
            .load_file(path)
            .map_err(|e| format!("EvalFile {path} refused: {e}"))?;
        self.apply_eval();
        Ok(self.eval_description())
    }

    pub fn eval_settings(&self) -> &EvalSettings {
        &self.eval
    }

    /// One line: the variant and the evaluation it gets.
    pub fn eval_description(&self) -> String {
        with_board!(&self.board, b => self.eval.describe(&b.game.tables))
    }

    /// Hands the evaluation settings to the searcher, or keeps them for when it is back.
    fn apply_eval(&mut self) {
        self.eval_pending = with_board!(&mut self.board, b => match &mut b.searcher {
            Some(s) => {
                s.set_eval(self.eval.clone());
                false
            }
            None => true,
        });
    }

    /// Forgets what the searcher learnt (transposition table, history) before a new game.
    pub fn new_game(&mut self) {
        with_board!(&mut self.board, b => {
            if let Some(s) = &mut b.searcher {
                s.new_game()
            }
        })
    }

    /// A copy of the game (position and history) to return to after a failed change.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot(self.board.game_only())
    }

    /// Returns to a snapshot of this variant's game (one of another variant is ignored).
    pub fn restore(&mut self, snapshot: Snapshot) {
        self.board.take_game(snapshot.0);
    }

    /// Back to the start position (the GUIs' own where they have one, see
    /// [`Variant::session_start`]).
    pub fn reset(&mut self) {
        self.board.take_game(start_board(&self.tables()));
    }

    /// Sets up a position string; the game is unchanged on error.
    pub fn set_position(&mut self, s: &str) -> Result<(), PositionError> {
        let board = AnyBoard::game_at(&self.tables(), s)?;
        self.board.take_game(board);
        Ok(())
    }

    /// Plays a move string; the game is unchanged on error.
    pub fn play(&mut self, s: &str) -> Result<(), MoveError> {
        with_game!(&mut self.board, g => g.play_str(s).map(|_| ()))
    }

    pub fn undo(&mut self) -> bool {
        with_game!(&mut self.board, g => g.undo())
    }

    pub fn plies_played(&self) -> usize {
        with_game!(&self.board, g => g.history.len())
    }

    pub fn side_to_move(&self) -> Player {
        with_game!(&self.board, g => g.pos.side)
    }

    /// The move number of the position string (starts at 1, grows after the second player).
    pub fn fullmove(&self) -> u32 {
        with_game!(&self.board, g => g.pos.fullmove as u32)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(&self.board, g => g.outcome())
    }

    pub fn position_string(&self) -> String {
        with_game!(&self.board, g => g.position_string())
    }

    /// The legal moves as move strings.
    pub fn legal_moves(&self) -> Vec<String> {
        with_game!(&self.board, g => g.legal_moves().into_iter().map(|m| g.format_move(m)).collect())
    }

    pub fn is_legal(&self, s: &str) -> bool {
        with_game!(&self.board, g => parse_move(&g.tables, &g.pos, s).is_ok())
    }

    /// The kind of the moving piece before and after a legal move string (they differ
    /// when the piece changes type on arrival, as in Cyclical Armies); `None` for drops,
    /// passes and strings that are not legal moves.
    pub fn kinds_of_move(&self, s: &str) -> Option<(Kind, Kind)> {
        with_game!(&self.board, g => {
            let mv = parse_move(&g.tables, &g.pos, s).ok()?;
            if matches!(mv.kind(), MoveKind::Drop | MoveKind::Pass) {
                return None;
            }
            let before = g.pos.piece_at(mv.from())?.kind();
            let after = g.pos.play(&g.tables, mv).piece_at(mv.to())?.kind();
            Some((before, after))
        })
    }

    /// The kind the piece of a legal move string arrives as, if it is not the kind it left
    /// as (a promotion, or a type change on arrival).
    pub fn changed_kind(&self, s: &str) -> Option<Kind> {
        let (before, after) = self.kinds_of_move(s)?;
        (before != after).then_some(after)
    }

    /// Occupants of a 2D board, top rank first: (file, rank, player, kind).
    pub fn pieces(&self) -> Vec<(i32, i32, Player, Kind)> {
        with_game!(&self.board, g => g
            .tables
            .shape
            .all_cells()
            .filter_map(|c| {
                let p = g.pos.piece_at(c)?;
                let (x, y, _) = g.tables.shape.coords(c);
                Some((x, y, p.player(), p.kind()))
            })
            .collect())
    }

    /// Lets `visitor` read the game (position, history, tables) without copying it.
    pub fn visit<V: GameVisitor>(&self, visitor: V) -> V::Output {
        with_game!(&self.board, g => visitor.visit(g))
    }

    /// Per-root-move perft counts of the current position, sorted by move string.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        with_game!(&self.board, g => {
            let mut rows: Vec<(String, u64)> = perft::divide(&g.tables, &g.pos, depth)
                .into_iter()
                .map(|(m, n)| (g.format_move(m), n))
                .collect();
            rows.sort();
            rows
        })
    }

    /// Starts a search on a worker thread. Progress goes to `report`; at the end the worker
    /// calls `done`, whose [`Finished`] the caller hands back to [`Session::finish`].
    pub fn start_search(
        &mut self,
        mut limits: Limits,
        stop: Arc<AtomicBool>,
        report: Reporter,
        done: WhenDone,
    ) {
        let method = self.multi_player;
        self.pace(&mut limits);
        let level = self.level_for(&limits);
        let shown = Shown {
            lines: self.options.multi_pv,
            level,
        };
        with_board!(&mut self.board, b => {
            let mut searcher = b
                .searcher
                .take()
                .expect("one search at a time: the caller waits for the last one to finish");
            searcher.set_multi_player_method(method);
            if let Some(level) = level {
                // A smaller search that scores a few root moves to choose a mistake from;
                // the options return to the session's at `finish`.
                if let Some(cap) = level.node_limit() {
                    limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
                }
                let mut o = searcher.options();
                o.multi_pv = o.multi_pv.max(strength::CANDIDATES);
                let _ = searcher.set_options(o);
            }
            let searched = Board {
                game: b.game.clone(),
                searcher: Some(searcher),
            };
            spawn_search(searched, limits, stop, report, done, shown)
        })
    }

    /// Takes the searcher back from a finished search and returns what it found.
    pub fn finish(&mut self, finished: Finished) -> SearchOutcome {
        let mut returned = *finished.board;
        if self.board.would_take_searcher(&returned) {
            // Options changed during the search apply now.
            let options = self.options;
            with_board!(&mut returned, b => {
                if let Some(searcher) = &mut b.searcher {
                    if searcher.options() != options {
                        if let Err(e) = searcher.set_options(options) {
                            log::warn!("{e}; the hash table stays as it was");
                        }
                        self.options = searcher.options();
                    }
                }
            });
        }
        self.board.take_searcher(returned);
        if self.eval_pending {
            self.apply_eval();
        }
        finished.outcome
    }

    /// Selects another variant: new tables and game. The searcher is kept when the bitset
    /// width stays (it adapts to the variant itself), so its table is not reallocated per
    /// game. The caller has stopped any search first.
    pub fn set_tables(&mut self, tables: AnyTables) {
        let old = std::mem::replace(&mut self.board, start_board(&tables));
        // A searcher of the other width is dropped before the new one takes its memory.
        self.board.take_searcher(old);
        self.board.add_searcher(self.options);
        self.options = self.searcher_options().unwrap_or(self.options);
        self.apply_eval();
    }
}

/// What a search shows and plays: the MultiPV lines the user asked for, and the level
/// that chooses the move among the lines searched (`None`: full strength).
struct Shown {
    lines: usize,
    level: Option<Level>,
}

/// Runs the search of `board` on a new thread; `done` gets the board back with the move.
fn spawn_search<B: BitSet>(
    board: Board<B>,
    limits: Limits,
    stop: Arc<AtomicBool>,
    mut report: Reporter,
    done: WhenDone,
    shown: Shown,
) where
    AnyBoard: From<Board<B>>,
{
    std::thread::spawn(move || {
        let Board { game, searcher } = board;
        let mut searcher = searcher.expect("the session hands its searcher over");
        let tables: Arc<Tables<B>> = game.tables.clone();
        // The root lines of the last iteration, by MultiPV number.
        let mut lines: Vec<Info> = Vec::new();
        let mut on_info = |info: &Info| {
            let i = info.multipv as usize - 1;
            if i == 0 {
                lines.clear();
            }
            if i == lines.len() {
                lines.push(info.clone());
            }
            if i < shown.lines {
                report(&info.map_pv(|&m| format_move(&tables, m)));
            }
        };
        let mut result = searcher.search(&game, &limits, &stop, &mut on_info);
        if let (Some(level), false) = (shown.level, lines.is_empty()) {
            let scores: Vec<Score> = lines.iter().map(|l| l.score).collect();
            let chosen = &lines[level.choose(&scores, game.pos.hash)];
            if chosen.multipv > 1 && !chosen.pv.is_empty() {
                result.best = Some(chosen.pv[0]);
                result.ponder = chosen.pv.get(1).copied();
                result.score = chosen.score;
            }
        }
        let outcome = SearchOutcome {
            best: result.best.map(|m| format_move(&tables, m)),
            ponder: result.ponder.map(|m| format_move(&tables, m)),
            score: result.score,
        };
        let board = Board {
            game,
            searcher: Some(searcher),
        };
        done(Finished {
            board: Box::new(AnyBoard::from(board)),
            outcome,
        });
    });
}
