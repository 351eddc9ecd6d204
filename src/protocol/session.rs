//! What both protocols share: the current variant, the game and a searcher for whichever
//! bitset width the variant needs, and searches that run on a worker thread.

use super::Event;
use crate::bitboard::{BitSet, Wide};
use crate::game::{AnyTables, Game, Outcome};
use crate::games;
use crate::games::VariantError;
use crate::movegen::notation::{format_move, parse_move, MoveError};
use crate::movegen::perft;
use crate::movegen::tables::Tables;
use crate::moves::MoveKind;
use crate::piece::{Kind, Player};
use crate::position::fen::PositionError;
use crate::search::multi_player::Method;
use crate::search::tt::HashError;
use crate::search::{Info, Limits, Score, SearchOptions, Searcher};
use crate::variant::Variant;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

/// One search progress report, with the principal variation already written as move strings.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<String>,
    pub hashfull: u32,
}

/// A finished search: the searcher comes back with the result.
pub struct Finished {
    searcher: AnySearcher,
    outcome: SearchOutcome,
}

/// The move a search chose, as move strings in the game's notation.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    pub best: Option<String>,
    pub ponder: Option<String>,
    pub score: Score,
}

enum AnySearcher {
    Narrow(Searcher<u64>),
    Wide(Searcher<Wide>),
}

impl AnySearcher {
    fn options(&self) -> SearchOptions {
        match self {
            AnySearcher::Narrow(s) => s.options(),
            AnySearcher::Wide(s) => s.options(),
        }
    }

    fn set_options(&mut self, options: SearchOptions) -> Result<(), HashError> {
        match self {
            AnySearcher::Narrow(s) => s.set_options(options),
            AnySearcher::Wide(s) => s.set_options(options),
        }
    }
}

// One per session: the wide game's size costs nothing, a box would cost an indirection on
// every access.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum AnyGame {
    Narrow(Game<u64>),
    Wide(Game<Wide>),
}

/// Runs `$body` with `$g` bound to the concrete `Game<B>` of an [`AnyGame`].
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            AnyGame::Narrow($g) => $body,
            AnyGame::Wide($g) => $body,
        }
    };
}

/// Code that needs the game itself, of whichever bitset width (the board server's views):
/// [`Session::visit`] hands it the concrete `Game<B>`.
pub trait GameVisitor {
    type Output;
    fn visit<B: BitSet>(self, game: &Game<B>) -> Self::Output;
}

/// A saved game, see [`Session::snapshot`].
pub struct Snapshot(AnyGame);

pub struct Session {
    tables: AnyTables,
    game: AnyGame,
    /// `None` while a search runs on the worker thread.
    searcher: Option<AnySearcher>,
    options: SearchOptions,
    /// How games of more than two players are searched; handed to the searcher per search.
    multi_player: Method,
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

/// A game from the position a GUI starts this variant from.
fn start_game(tables: &AnyTables) -> AnyGame {
    let start = tables.variant().session_start();
    let game = match tables {
        AnyTables::Narrow(t) => Game::from_position_string(t.clone(), start).map(AnyGame::Narrow),
        AnyTables::Wide(t) => Game::from_position_string(t.clone(), start).map(AnyGame::Wide),
    };
    game.expect("built-in start positions parse")
}

impl Session {
    pub fn new(tables: AnyTables, options: SearchOptions) -> Session {
        let mut s = Session::new_without_searcher(tables, options);
        let searcher = new_searcher(&s.tables, options);
        s.options = searcher.options();
        s.searcher = Some(searcher);
        s
    }

    fn new_without_searcher(tables: AnyTables, options: SearchOptions) -> Session {
        let game = start_game(&tables);
        Session {
            tables,
            game,
            searcher: None,
            options,
            multi_player: Method::DEFAULT,
        }
    }

    pub fn by_name(name: &str, options: SearchOptions) -> Result<Session, VariantError> {
        Ok(Session::new(games::tables(name)?, options))
    }

    pub fn tables(&self) -> &AnyTables {
        &self.tables
    }

    pub fn variant(&self) -> &Variant {
        self.tables.variant()
    }

    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    pub fn is_searching(&self) -> bool {
        self.searcher.is_none()
    }

    /// Changes hash size, threads or MultiPV. A hash table the machine cannot give is
    /// refused and the old one kept (the other options still apply). During a search the
    /// change waits for its end (see [`Session::finish`]).
    pub fn set_options(&mut self, options: SearchOptions) -> Result<(), HashError> {
        self.options = options;
        let Some(searcher) = &mut self.searcher else {
            return Ok(());
        };
        let result = searcher.set_options(options);
        self.options = searcher.options();
        result
    }

    pub fn multi_player_method(&self) -> Method {
        self.multi_player
    }

    /// Chooses paranoid or best-reply search for games of more than two players; takes
    /// effect at the next search.
    pub fn set_multi_player_method(&mut self, method: Method) {
        self.multi_player = method;
    }

    /// Forgets what the searcher learnt (transposition table, history) before a new game.
    pub fn new_game(&mut self) {
        match &mut self.searcher {
            Some(AnySearcher::Narrow(s)) => s.new_game(),
            Some(AnySearcher::Wide(s)) => s.new_game(),
            None => {}
        }
    }

    /// A copy of the game (position and history) to return to after a failed change.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot(self.game.clone())
    }

    pub fn restore(&mut self, snapshot: Snapshot) {
        self.game = snapshot.0;
    }

    /// Back to the start position (the GUIs' own where they have one, see
    /// [`Variant::session_start`]).
    pub fn reset(&mut self) {
        self.game = start_game(&self.tables);
    }

    /// Sets up a position string; the game is unchanged on error.
    pub fn set_position(&mut self, s: &str) -> Result<(), PositionError> {
        self.game = match &self.tables {
            AnyTables::Narrow(t) => {
                AnyGame::Narrow(Game::from_position_string(t.clone(), s.trim())?)
            }
            AnyTables::Wide(t) => AnyGame::Wide(Game::from_position_string(t.clone(), s.trim())?),
        };
        Ok(())
    }

    /// Plays a move string; the game is unchanged on error.
    pub fn play(&mut self, s: &str) -> Result<(), MoveError> {
        with_game!(&mut self.game, g => g.play_str(s).map(|_| ()))
    }

    pub fn undo(&mut self) -> bool {
        with_game!(&mut self.game, g => g.undo())
    }

    pub fn plies_played(&self) -> usize {
        with_game!(&self.game, g => g.history.len())
    }

    pub fn side_to_move(&self) -> Player {
        with_game!(&self.game, g => g.pos.side)
    }

    /// The move number of the position string (starts at 1, grows after the second player).
    pub fn fullmove(&self) -> u32 {
        with_game!(&self.game, g => g.pos.fullmove as u32)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(&self.game, g => g.outcome())
    }

    pub fn position_string(&self) -> String {
        with_game!(&self.game, g => g.position_string())
    }

    /// The legal moves as move strings.
    pub fn legal_moves(&self) -> Vec<String> {
        with_game!(&self.game, g => g.legal_moves().into_iter().map(|m| g.format_move(m)).collect())
    }

    pub fn is_legal(&self, s: &str) -> bool {
        with_game!(&self.game, g => parse_move(&g.tables, &g.pos, s).is_ok())
    }

    /// The kind of the moving piece before and after a legal move string (they differ
    /// when the piece changes type on arrival, as in Cyclical Armies); `None` for drops,
    /// passes and strings that are not legal moves.
    pub fn kinds_of_move(&self, s: &str) -> Option<(Kind, Kind)> {
        with_game!(&self.game, g => {
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
        with_game!(&self.game, g => g
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
        with_game!(&self.game, g => visitor.visit(g))
    }

    /// Per-root-move perft counts of the current position, sorted by move string.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        with_game!(&self.game, g => {
            let mut rows: Vec<(String, u64)> = perft::divide(&g.tables, &g.pos, depth)
                .into_iter()
                .map(|(m, n)| (g.format_move(m), n))
                .collect();
            rows.sort();
            rows
        })
    }

    /// Starts a search on a worker thread. Progress goes to `report`; at the end the worker
    /// sends [`Event::SearchDone`], which the protocol loop hands back to [`Session::finish`].
    pub fn start_search(
        &mut self,
        limits: Limits,
        stop: Arc<AtomicBool>,
        report: Box<dyn FnMut(&Report) + Send>,
        done: Sender<Event>,
    ) {
        let mut searcher = self
            .searcher
            .take()
            .expect("the protocol loop starts one search at a time");
        match &mut searcher {
            AnySearcher::Narrow(s) => s.set_multi_player_method(self.multi_player),
            AnySearcher::Wide(s) => s.set_multi_player_method(self.multi_player),
        }
        match (searcher, &self.game) {
            (AnySearcher::Narrow(s), AnyGame::Narrow(g)) => spawn_search(
                s,
                g.clone(),
                limits,
                stop,
                report,
                done,
                AnySearcher::Narrow,
            ),
            (AnySearcher::Wide(s), AnyGame::Wide(g)) => {
                spawn_search(s, g.clone(), limits, stop, report, done, AnySearcher::Wide)
            }
            _ => unreachable!("searcher and game are built from the same tables"),
        }
    }

    /// Takes the searcher back from a finished search and returns what it found.
    pub fn finish(&mut self, finished: Finished) -> SearchOutcome {
        let same_width = matches!(
            (&finished.searcher, &self.tables),
            (AnySearcher::Narrow(_), AnyTables::Narrow(_))
                | (AnySearcher::Wide(_), AnyTables::Wide(_))
        );
        if same_width && self.searcher.is_none() {
            let mut searcher = finished.searcher;
            // Options changed during the search apply now.
            if searcher.options() != self.options {
                if let Err(e) = searcher.set_options(self.options) {
                    log::warn!("{e}; the hash table stays as it was");
                }
                self.options = searcher.options();
            }
            self.searcher = Some(searcher);
        }
        finished.outcome
    }

    /// Selects another variant: new tables and game. The searcher is kept when the bitset
    /// width stays (it adapts to the variant itself), so its table is not reallocated per
    /// game. The protocol loop has stopped any search first.
    pub fn set_tables(&mut self, tables: AnyTables) {
        let mut next = Session::new_without_searcher(tables, self.options);
        next.multi_player = self.multi_player;
        // A searcher of the other width is dropped before the new one takes its memory.
        let kept = match (self.searcher.take(), &next.tables) {
            (Some(AnySearcher::Narrow(s)), AnyTables::Narrow(_)) => Some(AnySearcher::Narrow(s)),
            (Some(AnySearcher::Wide(s)), AnyTables::Wide(_)) => Some(AnySearcher::Wide(s)),
            _ => None,
        };
        let searcher = kept.unwrap_or_else(|| new_searcher(&next.tables, self.options));
        next.options = searcher.options();
        next.searcher = Some(searcher);
        *self = next;
    }
}

fn new_searcher(tables: &AnyTables, options: SearchOptions) -> AnySearcher {
    match tables {
        AnyTables::Narrow(t) => AnySearcher::Narrow(Searcher::new(t.clone(), options)),
        AnyTables::Wide(t) => AnySearcher::Wide(Searcher::new(t.clone(), options)),
    }
}

fn spawn_search<B: BitSet + Send + Sync + 'static>(
    mut searcher: Searcher<B>,
    game: Game<B>,
    limits: Limits,
    stop: Arc<AtomicBool>,
    mut report: Box<dyn FnMut(&Report) + Send>,
    done: Sender<Event>,
    wrap: fn(Searcher<B>) -> AnySearcher,
) where
    Searcher<B>: Send,
    Game<B>: Send,
{
    std::thread::spawn(move || {
        let tables: Arc<Tables<B>> = game.tables.clone();
        let mut on_info = |info: &Info| {
            report(&Report {
                depth: info.depth,
                seldepth: info.seldepth,
                multipv: info.multipv,
                score: info.score,
                nodes: info.nodes,
                time: info.time,
                pv: info.pv.iter().map(|&m| format_move(&tables, m)).collect(),
                hashfull: info.hashfull,
            })
        };
        let result = searcher.search(&game, &limits, &stop, &mut on_info);
        let _ = done.send(Event::SearchDone(Finished {
            searcher: wrap(searcher),
            outcome: SearchOutcome {
                best: result.best.map(|m| format_move(&tables, m)),
                ponder: result.ponder.map(|m| format_move(&tables, m)),
                score: result.score,
            },
        }));
    });
}
