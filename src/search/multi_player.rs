//! Search for games of more than two players (Armies of Faith): paranoid alpha-beta and
//! Best-Reply Search+ (BRS+), selectable by [`Method`].
//!
//! - Paranoid (Sturtevant & Korf 2000): the searching army maximises its utility, every
//!   other army minimises it, one ply per move; alpha-beta applies as in two-player games.
//! - BRS+ (Esser, Gras, Winands, Schadd & Lanctot 2013, extending Schadd & Winands' Best-Reply
//!   Search 2011): between two moves of the searching army, only the single strongest
//!   reply of all opponents together is searched; the other opponents play the move their
//!   static move ordering ranks first instead of passing, so every searched position can
//!   occur in the game. One "opponent layer" counts as one ply.
//!
//! Both use iterative deepening with captures ordered by value, checks before quiet moves
//! (checkmates come from checks: RULES 5.4), killer moves, a transposition table that the
//! caller keeps between searches ([`super::multi_table`]: one per engine, entries per root
//! army), and stop on a node or time budget, keeping the best move of
//! the last finished iteration unless a move of the unfinished one beat it.
//!
//! BRS+ also searches by principal variation (a move after the first is tried with a null
//! window at its mover's bound first), prunes quiet moves and replies that cannot reach the
//! bound in the last two plies (futility), and orders the opponent layer as one list: the
//! table's reply, then captures of the searching army's pieces by whichever opponent, the
//! killer, then the opponents' moves interleaved by their rank in each one's own order, so
//! that each opponent's likeliest replies come before any opponent's unlikely ones.

use super::multi_table::MultiTable;
use super::ordering::TacticalSink;
use super::{time, Info, Limits, Score, SearchResult};
use crate::bitboard::BitSet;
pub use crate::eval::utility::Utility;
use crate::game::Game;
use crate::geometry::Cell;
use crate::movegen::{generate, is_in_check, piece_targets, tables::Tables, MoveList};
use crate::moves::{Move, MoveKind};
use crate::piece::{Kind, Player};
use crate::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The multi-player search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Paranoid,
    BestReply,
}

impl Method {
    pub const ALL: [Method; 2] = [Method::Paranoid, Method::BestReply];
    /// The method that did better in self-play, two armies of each method rotated through
    /// the seats (docs/aof5-research.md, "Paranoid or BRS+": BRS+ armies won most decided games).
    pub const DEFAULT: Method = Method::BestReply;

    pub fn name(self) -> &'static str {
        match self {
            Method::Paranoid => "paranoid",
            Method::BestReply => "brs",
        }
    }

    pub fn from_name(s: &str) -> Option<Method> {
        match s.to_ascii_lowercase().as_str() {
            "paranoid" => Some(Method::Paranoid),
            "brs" | "brs+" | "best-reply" | "bestreply" => Some(Method::BestReply),
            _ => None,
        }
    }
}

/// When to stop.
#[derive(Clone, Copy, Debug, Default)]
pub struct MultiLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop searching after this long, whatever the state of the search.
    pub movetime: Option<Duration>,
    /// Do not start another iteration once this much time is mostly spent.
    pub soft: Option<Duration>,
    /// Where the times above count from (the arrival of the command); `None`: from now.
    pub started: Option<Instant>,
    /// Quiescence beyond the depth: at most this many captures (0: none, the leaf's static
    /// value stands).
    pub capture_plies: u32,
    /// Root moves scored exactly per iteration, best first (MultiPV; 0 counts as 1). A
    /// playing level chooses among them.
    pub lines: usize,
}

/// One finished iteration.
#[derive(Clone, Debug)]
pub struct Iteration {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    pub best: Move,
    /// The best root moves with their exact scores, best first: `best` and `score` first,
    /// [`MultiLimits::lines`] of them (fewer if there are fewer moves).
    pub lines: Vec<(i32, Move)>,
}

#[derive(Clone, Debug)]
pub struct MultiResult {
    pub best: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

/// Captures searched beyond the depth by the engine (protocols and self-play unless told
/// otherwise); 0 turns quiescence off.
pub const QUIESCENCE_CAPTURES: u32 = 0;

const MAX_DEPTH: u32 = 64;
/// Added to the ordering key of a move that checks: a quiet check goes before the killer,
/// a check that captures before captures that do not.
const CHECK_BONUS: i32 = 8_000;
const MAX_PLY: usize = 128;
/// How far a quiet reply of the opponent layer is taken to move the searching army's value
/// at most ([`Searcher::futile_replies`]).
const REPLY_MARGIN: [i32; 3] = [0, 60, 200];
/// The same for a quiet move of the searching army ([`Searcher::futile_moves`]).
const MOVE_MARGIN: [i32; 3] = [0, 60, 200];

struct Searcher<'a, B: BitSet, U: Utility<B> + ?Sized> {
    t: &'a Tables<B>,
    eval: &'a U,
    root: Player,
    method: Method,
    nodes: u64,
    limits: MultiLimits,
    start: Instant,
    stop: &'a AtomicBool,
    aborted: bool,
    /// Node count at which the clock and the stop flag are next looked at.
    next_clock_check: u64,
    /// Keys of the game's earlier positions and of the current line, for repetitions.
    keys: Vec<u64>,
    killers: [Move; MAX_PLY],
    /// The legal moves of the opponents along the last line of first-ordered replies tried
    /// at an opponent layer (by position key), so that the layer's replies, when that line
    /// does not refute, are not generated twice.
    line_moves: Vec<(u64, Vec<Move>)>,
    table: &'a mut MultiTable,
}

/// Searches `pos` for the army to move. `history` holds the keys of the game's earlier
/// positions (a repetition scores as a draw, 0). `table` keeps what the search learns for
/// the next searches of the game (cleared for a new game by its owner).
#[allow(clippy::too_many_arguments)]
pub fn search<B: BitSet, U: Utility<B> + ?Sized>(
    t: &Tables<B>,
    eval: &U,
    pos: &Position<B>,
    history: &[u64],
    method: Method,
    limits: MultiLimits,
    stop: &AtomicBool,
    table: &mut MultiTable,
    mut on_iteration: impl FnMut(&Iteration),
) -> MultiResult {
    let mut s = Searcher::new(t, eval, pos.side, method, limits, stop, table);
    s.keys = history.to_vec();
    let mut moves: Vec<Move> = legal_vec(t, pos);
    let mut result = MultiResult {
        best: moves.first().copied(),
        score: 0,
        depth: 0,
        nodes: 0,
    };
    if moves.len() <= 1 {
        return result;
    }
    s.order(pos, &mut moves, 0);
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let lines = limits.lines.clamp(1, moves.len());
    for depth in 1..=max_depth {
        let (top, scores) = s.root_iteration(pos, &moves, depth, lines);
        if s.aborted {
            // The moves searched before the budget ran out were searched to this depth: one
            // that beat the first (the last iteration's best) is the better move.
            // It is reported like a finished iteration, so the last line shown (and the
            // lines a level chooses from) agree with the move played.
            if let Some(&(score, best)) = top.first().filter(|t| t.1 != moves[0]) {
                result.best = Some(best);
                result.score = score;
                on_iteration(&Iteration {
                    depth,
                    score,
                    nodes: s.nodes,
                    time: s.start.elapsed(),
                    best,
                    lines: top,
                });
            }
            break;
        }
        // The next iteration searches the moves in the order of this one's values (a stable
        // sort: the best first, so the lines lead), so that the most promising moves are
        // searched deeper first when the budget ends it early.
        let mut scored: Vec<(i32, Move)> = scores.into_iter().zip(moves).collect();
        scored.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        moves = scored.into_iter().map(|(_, m)| m).collect();
        let best = top[0];
        result = MultiResult {
            best: Some(best.1),
            score: best.0,
            depth,
            nodes: s.nodes,
        };
        on_iteration(&Iteration {
            depth,
            score: best.0,
            nodes: s.nodes,
            time: s.start.elapsed(),
            best: best.1,
            lines: top,
        });
        if best.0.abs() >= eval.win() - MAX_PLY as i32 {
            break;
        }
        // The next iteration takes longer than all before it: do not start it late.
        if limits
            .soft
            .is_some_and(|soft| s.start.elapsed() >= soft.mul_f64(0.6))
        {
            break;
        }
    }
    result.nodes = s.nodes;
    result
}

/// The royal pieces a move's quietness depends on ([`Searcher::quiet`]).
struct RoyalsAround<B> {
    /// The army to move's own.
    movers: B,
    /// The searching army's.
    searching: B,
    /// Those of the armies still playing other than the one to move.
    enemies: B,
}

/// The Kings (and Emperors) of the armies still playing other than the one to move.
fn enemy_royals<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> B {
    (0..t.players() as u8)
        .map(Player)
        .filter(|&p| p != pos.side && pos.is_alive(p))
        .fold(B::empty(), |acc, p| acc | pos.royals(t, p))
}

/// Whether the moved piece attacks one of `enemy_royals` from where it lands: a direct
/// check. Discovered checks, and the moved piece's own cell still blocking a line back, are
/// not judged: this orders moves, it does not decide a rule.
fn gives_check<B: BitSet>(t: &Tables<B>, pos: &Position<B>, m: Move, enemy_royals: B) -> bool {
    if enemy_royals.is_empty() || m.kind() == MoveKind::Pass {
        return false;
    }
    let Some(piece) = pos.piece_at(m.from()) else {
        return false;
    };
    let kind = match m.kind() {
        MoveKind::Promotion | MoveKind::Merge => m.piece_kind(),
        _ => piece.kind(),
    };
    may_reach_royal(t, pos.side, kind, m.to(), enemy_royals)
        && (piece_targets(t, pos, pos.side, kind, m.to()) & enemy_royals).any()
}

/// Whether a piece of kind `k` on `from` could capture on one of `royals` on an empty
/// board: false spares [`gives_check`] the piece's targets, which most moves do not need.
fn may_reach_royal<B: BitSet>(t: &Tables<B>, us: Player, k: Kind, from: Cell, royals: B) -> bool {
    let kt = t.kind(us, k);
    kt.has_lame
        || kt.has_bent
        || (kt.capture[from.index()] & royals).any()
        || (!kt.slides.is_empty()
            && royals
                .cells()
                .any(|r| t.slide_lines[us.index()][r.index()].contains(from)))
}

/// The opponent layer's order of a reply as one number, compared as the tuple (not the table's
/// reply, the most taken first, not the killer, rank in its army's order, which opponent):
/// sorting numbers is cheaper than sorting tuples. Every field fits its bits: a threat is an
/// `i32`, a rank is below a move list's 8,192 and there are three opponents.
fn reply_key(not_hint: bool, threat: i32, not_killer: bool, rank: usize, opponent: usize) -> u64 {
    debug_assert!(rank < 1 << 16 && opponent < 1 << 8);
    let less_taken = (i32::MAX as i64 - threat as i64) as u64;
    (not_hint as u64) << 57
        | less_taken << 25
        | (not_killer as u64) << 24
        | (rank as u64) << 8
        | opponent as u64
}

/// The legal moves of the army to move. The list is filled in place and copied out once:
/// `legal_moves` returns its list (room for 8192 moves, 32 KB) by value, and copying that
/// on every call cost about a tenth of the search's time.
fn legal_vec<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Vec<Move> {
    let mut list = MoveList::new();
    generate(t, pos, &mut list);
    list.to_vec()
}

/// Puts the table's move (if it is one of `moves`) first.
fn first(moves: &mut [Move], m: Move) {
    if let Some(i) = moves.iter().position(|&x| x == m) {
        moves[..=i].rotate_right(1);
    }
}

/// The [`super::Searcher`] entry for games of more than two players, with the evaluation
/// their family supplies: the protocol limits become a depth, node and time budget.
#[allow(clippy::too_many_arguments)]
pub fn search_game<B: BitSet>(
    game: &Game<B>,
    eval: &dyn Utility<B>,
    method: Method,
    limits: &Limits,
    stop: &AtomicBool,
    lines: usize,
    table: &mut MultiTable,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let t = &game.tables;
    let budget = time::budget(limits);
    let started = limits.started.unwrap_or_else(Instant::now);
    let multi = MultiLimits {
        depth: limits.depth,
        nodes: limits.nodes,
        movetime: budget.hard,
        soft: budget.soft,
        started: Some(started),
        capture_plies: QUIESCENCE_CAPTURES,
        lines,
    };
    let players = t.players() as i32;
    let score = |s: i32| score_for(eval.win(), players, s);
    let keys = game.repetition_keys();
    // The search stops on `halt`: set by the watchdog at the deadline or on `stop`, and by
    // us when the search is over (which ends the watchdog).
    let halt = AtomicBool::new(false);
    let r = std::thread::scope(|scope| {
        let deadline = time::deadline(started, budget.hard.unwrap_or(Duration::MAX));
        let halt = &halt;
        scope.spawn(move || time::watchdog(deadline, stop, halt));
        let r = search(
            t,
            eval,
            &game.pos,
            &keys,
            method,
            multi,
            halt,
            table,
            |it| {
                for (i, &(value, mv)) in it.lines.iter().enumerate() {
                    on_info(&Info {
                        depth: it.depth,
                        seldepth: it.depth,
                        multipv: i as u32 + 1,
                        score: score(value),
                        nodes: it.nodes,
                        time: it.time,
                        pv: vec![mv],
                        hashfull: 0,
                    });
                }
            },
        );
        halt.store(true, Ordering::Relaxed);
        r
    });
    SearchResult {
        best: r.best,
        ponder: None,
        score: score(r.score),
        nodes: r.nodes,
    }
}

/// A score for protocols: a won or lost game in so many plies becomes a mate in moves of the
/// army to move.
fn score_for(win: i32, players: i32, s: i32) -> Score {
    let plies = win - s.abs();
    if plies <= MAX_PLY as i32 {
        let moves = (plies + players - 1) / players;
        Score::Mate(if s > 0 { moves } else { -moves })
    } else {
        Score::Cp(s)
    }
}

impl<'a, B: BitSet, U: Utility<B> + ?Sized> Searcher<'a, B, U> {
    /// A searcher for `root` that has searched nothing yet, with no earlier positions.
    fn new(
        t: &'a Tables<B>,
        eval: &'a U,
        root: Player,
        method: Method,
        limits: MultiLimits,
        stop: &'a AtomicBool,
        table: &'a mut MultiTable,
    ) -> Self {
        Searcher {
            t,
            eval,
            root,
            method,
            nodes: 0,
            limits,
            start: limits.started.unwrap_or_else(Instant::now),
            stop,
            aborted: false,
            next_clock_check: 0,
            keys: Vec::new(),
            killers: [Move::NONE; MAX_PLY],
            line_moves: Vec::new(),
            table,
        }
    }

    /// One iteration over the root's moves at `depth`: the best `lines` scores, best first,
    /// and each move's score (`i32::MIN` for the moves not searched before a stop).
    fn root_iteration(
        &mut self,
        pos: &Position<B>,
        moves: &[Move],
        depth: u32,
        lines: usize,
    ) -> (Vec<(i32, Move)>, Vec<i32>) {
        let (t, win) = (self.t, self.eval.win());
        // The best `lines` scores so far, best first: the last of them is the window's
        // lower bound, so every move that may join them gets an exact score.
        let mut top: Vec<(i32, Move)> = Vec::with_capacity(lines + 1);
        let mut scores = vec![i32::MIN; moves.len()];
        for (i, &m) in moves.iter().enumerate() {
            let alpha = if top.len() < lines {
                -win - 1
            } else {
                top[lines - 1].0
            };
            let child = pos.play(t, m);
            let score = self.scout(pos, &child, depth - 1, (alpha, win + 1), 1, true, i == 0);
            if self.aborted {
                break;
            }
            scores[i] = score;
            // After the equal scores already there: the earlier move stays ahead.
            let at = top.partition_point(|&(v, _)| v >= score);
            if at < lines {
                top.insert(at, (score, m));
                top.truncate(lines);
            }
        }
        (top, scores)
    }

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
        } else if self.nodes >= self.next_clock_check {
            // Nodes are counted in more than one place, so a check "every 256th node" could
            // skip its multiples: look at the clock once at least 256 nodes have passed.
            self.next_clock_check = self.nodes + 256;
            self.aborted = self.stop.load(Ordering::Relaxed)
                || self
                    .limits
                    .movetime
                    .is_some_and(|d| self.start.elapsed() >= d);
        }
        self.aborted
    }

    /// Value for the root army of a position reached by a move from `parent`.
    fn child_value(
        &mut self,
        parent: &Position<B>,
        pos: &Position<B>,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.keys.push(parent.hash);
        let v = match self.method {
            Method::Paranoid => self.paranoid(pos, depth, alpha, beta, ply),
            Method::BestReply => self.best_reply(pos, depth, alpha, beta, ply),
        };
        self.keys.pop();
        v
    }

    /// [`Self::child_value`], in BRS+ by principal variation search: after the first move
    /// of a node, a move is first tried with the narrowest window at the bound its mover
    /// must beat (`alpha` for the searching army, `beta` for an opponent), and searched
    /// again with the whole window only when it beats it.
    #[allow(clippy::too_many_arguments)]
    fn scout(
        &mut self,
        parent: &Position<B>,
        pos: &Position<B>,
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: usize,
        maximizing: bool,
        first: bool,
    ) -> i32 {
        if first || self.method != Method::BestReply || beta - alpha <= 1 {
            return self.child_value(parent, pos, depth, alpha, beta, ply);
        }
        let (a, b) = if maximizing {
            (alpha, alpha + 1)
        } else {
            (beta - 1, beta)
        };
        let v = self.child_value(parent, pos, depth, a, b, ply);
        if self.aborted || v <= alpha || v >= beta {
            return v;
        }
        self.child_value(parent, pos, depth, alpha, beta, ply)
    }

    /// The value of a finished game (or of one the root army is out of) for the root army,
    /// preferring quick wins and slow losses.
    fn terminal_value(&self, pos: &Position<B>, ply: usize) -> i32 {
        let v = self.eval.utility(self.t, pos, self.root);
        if v > 0 {
            v - ply as i32
        } else {
            v + ply as i32
        }
    }

    /// Leaf and terminal values; `None` when the position must be searched.
    fn settled(
        &mut self,
        pos: &Position<B>,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        self.nodes += 1;
        if self.finished(pos) {
            return Some(self.terminal_value(pos, ply));
        }
        if self.keys.contains(&pos.hash) {
            return Some(0);
        }
        // The budget is checked at every node, leaves included, so that a time limit holds.
        if self.out_of_budget() || ply >= MAX_PLY - 1 {
            return Some(self.eval.utility(self.t, pos, self.root));
        }
        if depth == 0 {
            let captures = self.limits.capture_plies;
            return Some(self.quiesce(pos, alpha, beta, ply, captures));
        }
        None
    }

    /// Quiescence beyond the depth, so that a leaf neither counts a piece as won that the
    /// next armies take back nor misses a piece of the root army left hanging. The root
    /// army stops (its value as it stands) or captures any enemy piece; every other army
    /// captures a piece of the root army or lets the next army move — by a pass on the
    /// board, so that turn order and the checkmates between moves stay the game's. At most
    /// `left` captures; the node itself is already counted.
    fn quiesce(
        &mut self,
        pos: &Position<B>,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        left: u32,
    ) -> i32 {
        let stand = self.eval.utility(self.t, pos, self.root);
        // An army in check is not searched on: its escapes are mostly quiet moves, which this
        // search does not look at, and a pass would leave its King to be checkmated between
        // moves, which no legal move of the game allows.
        if left == 0
            || ply >= MAX_PLY - 1
            || self.out_of_budget()
            || is_in_check(self.t, pos, pos.side)
        {
            return stand;
        }
        let maximizing = pos.side == self.root;
        let victims = if maximizing {
            pos.enemies(pos.side)
        } else {
            pos.by_player[self.root.index()]
        };
        let mut best = stand;
        if maximizing {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            let passed = pos.play(self.t, Move::pass());
            self.nodes += 1;
            best = self.quiesce_child(&passed, alpha, beta, ply + 1, left);
            if self.aborted {
                return 0;
            }
            beta = beta.min(best);
            if alpha >= beta {
                return best;
            }
        }
        let mut tactical = Vec::new();
        generate(
            self.t,
            pos,
            &mut TacticalSink {
                enemies: victims,
                out: &mut tactical,
            },
        );
        let mut captures: Vec<Move> = tactical
            .into_iter()
            .map(|(m, _)| m)
            .filter(|m| m.kind() == MoveKind::EnPassant || victims.contains(m.to()))
            .collect();
        self.order(pos, &mut captures, ply);
        for m in captures {
            let child = pos.play(self.t, m);
            self.nodes += 1;
            let v = self.quiesce_child(&child, alpha, beta, ply + 1, left - 1);
            if self.aborted {
                return 0;
            }
            if maximizing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// A position inside quiescence: a finished game scores as such, else it is searched on.
    fn quiesce_child(
        &mut self,
        pos: &Position<B>,
        alpha: i32,
        beta: i32,
        ply: usize,
        left: u32,
    ) -> i32 {
        if self.finished(pos) {
            return self.terminal_value(pos, ply);
        }
        self.quiesce(pos, alpha, beta, ply, left)
    }

    /// The common start of a node: a settled value or a table cutoff to return (`Err`), or
    /// the table's move to try first (`Ok`).
    fn enter(
        &mut self,
        pos: &Position<B>,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Result<Move, i32> {
        if let Some(v) = self.settled(pos, depth, alpha, beta, ply) {
            return Err(v);
        }
        let probe = self.table.probe(self.root, pos.hash, depth, alpha, beta);
        match probe.cutoff {
            Some(v) => Err(v),
            None => Ok(probe.best),
        }
    }

    fn paranoid(
        &mut self,
        pos: &Position<B>,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        match self.enter(pos, depth, alpha, beta, ply) {
            Ok(hint) => self.every_move(pos, depth, alpha, beta, ply, hint),
            Err(v) => v,
        }
    }

    /// Searches every move of the army to move, the root army maximizing and the others
    /// minimizing its value, and stores the result.
    fn every_move(
        &mut self,
        pos: &Position<B>,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        hint: Move,
    ) -> i32 {
        let window = (alpha, beta);
        let maximizing = pos.side == self.root;
        let mut moves: Vec<Move> = legal_vec(self.t, pos);
        if moves.is_empty() {
            return self.eval.utility(self.t, pos, self.root);
        }
        self.order(pos, &mut moves, ply);
        first(&mut moves, hint);
        let mut best = if maximizing { i32::MIN } else { i32::MAX };
        let mut best_move = moves[0];
        let futile = if maximizing {
            self.futile_moves(pos, depth, alpha)
        } else {
            None
        };
        if let Some(stand) = futile {
            best = stand;
        }
        let royals = futile.map(|_| self.royals_around(pos));
        let mut first = true;
        for m in moves {
            if royals.as_ref().is_some_and(|r| self.quiet(pos, r, m)) {
                continue;
            }
            let child = pos.play(self.t, m);
            let v = self.scout(
                pos,
                &child,
                depth - 1,
                (alpha, beta),
                ply + 1,
                maximizing,
                first,
            );
            first = false;
            if self.aborted {
                return 0;
            }
            if (maximizing && v > best) || (!maximizing && v < best) {
                best = v;
                best_move = m;
            }
            if maximizing {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                self.killers[ply] = m;
                break;
            }
        }
        self.remember(pos, depth, window, best, best_move);
        best
    }

    /// Stores a finished node's value; mate-like values depend on the ply and stay out.
    fn remember(&mut self, pos: &Position<B>, depth: u32, window: (i32, i32), v: i32, m: Move) {
        if v.abs() < self.eval.win() - MAX_PLY as i32 {
            self.table
                .store(self.root, pos.hash, depth, window.0, window.1, v, m);
        }
    }

    fn best_reply(
        &mut self,
        pos: &Position<B>,
        depth: u32,
        alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        let hint = match self.enter(pos, depth, alpha, beta, ply) {
            Ok(hint) => hint,
            Err(v) => return v,
        };
        if pos.side == self.root {
            return self.every_move(pos, depth, alpha, beta, ply, hint);
        }
        let window = (alpha, beta);
        // The opponent layer: each opponent may be the one that replies; the ones before it
        // play their first-ordered move, and so do the ones after it.
        if depth == 1 {
            // The line where every opponent plays its first-ordered move is one of the
            // replies, and found without ordering all of them: when it already refutes the
            // searching army's move, no other reply needs to be generated.
            let prefix = self.default_line(pos, ply, true);
            if prefix.side == self.root && !self.finished(&prefix) {
                let stand = self.eval.utility(self.t, &prefix, self.root);
                if stand <= alpha {
                    return stand;
                }
            }
        }
        let mut best = i32::MAX;
        let mut best_reply = Move::NONE;
        let (prefixes, replies, prefix) = self.opponent_replies(pos, ply, hint);
        let futile = self.futile_replies(&prefix, depth, alpha);
        if let Some(stand) = futile {
            best = stand;
            beta = beta.min(stand);
        }
        let royals: Option<Vec<RoyalsAround<B>>> =
            futile.map(|_| prefixes.iter().map(|p| self.royals_around(p)).collect());
        let mut first = true;
        for &(k, m) in &replies {
            if royals
                .as_ref()
                .is_some_and(|r| self.quiet(&prefixes[k], &r[k], m))
            {
                continue;
            }
            let child = self.default_line(&prefixes[k].play(self.t, m), ply, false);
            let v = self.scout(pos, &child, depth - 1, (alpha, beta), ply + 1, false, first);
            first = false;
            if self.aborted {
                return 0;
            }
            if v < best {
                best = v;
                best_reply = m;
            }
            beta = beta.min(v);
            if alpha >= beta {
                self.killers[ply] = m;
                self.remember(pos, depth, window, best, m);
                return best;
            }
        }
        if best == i32::MAX {
            // The searching army was eliminated or the game ended inside the layer.
            return self.eval.utility(self.t, &prefix, self.root);
        }
        self.remember(pos, depth, window, best, best_reply);
        best
    }

    /// The position after every opponent, from `pos` on, has played its first-ordered move;
    /// with `keep`, the opponents' legal moves on the way are kept in `line_moves`.
    fn default_line(&mut self, pos: &Position<B>, ply: usize, keep: bool) -> Position<B> {
        let mut line = *pos;
        let mut kept = 0;
        while line.side != self.root && !self.finished(&line) {
            // The move static ordering ranks first is what an opponent not searched plays in
            // BRS+. It costs a move generation, so it counts as a node.
            self.nodes += 1;
            let mut list = MoveList::new();
            generate(self.t, &line, &mut list);
            if keep {
                self.keep_line_moves(kept, line.hash, &list);
                kept += 1;
            }
            let Some(d) = self.first_ordered(&line, &list, ply) else {
                break;
            };
            line = line.play(self.t, d);
        }
        if keep {
            self.line_moves.truncate(kept);
        }
        line
    }

    /// Keeps `moves`, generated in the position keyed `key`, as the `i`th of `line_moves`,
    /// reusing the room of the list there.
    fn keep_line_moves(&mut self, i: usize, key: u64, moves: &[Move]) {
        if i == self.line_moves.len() {
            self.line_moves.push((key, Vec::new()));
        }
        let (k, kept) = &mut self.line_moves[i];
        *k = key;
        kept.clear();
        kept.extend_from_slice(moves);
    }

    /// The legal moves of `pos`: those kept from the last line of first-ordered replies
    /// when it passed `pos`, else generated.
    fn line_or_legal_moves(&mut self, pos: &Position<B>) -> Vec<Move> {
        match self.line_moves.iter().position(|&(k, _)| k == pos.hash) {
            Some(i) => self.line_moves.swap_remove(i).1,
            None => legal_vec(self.t, pos),
        }
    }

    /// At an opponent layer of the last two plies: the value of the line where every
    /// opponent plays its first-ordered move, when it stands so far above `alpha` that no
    /// quiet reply (see [`Self::quiet`]) is likely to bring the searching army's value down
    /// to it. Such a reply only moves the pieces near Kings and a Pawn's advance, worth
    /// less than [`REPLY_MARGIN`] together; the replies that are not quiet are still
    /// searched, and the first-ordered replies are what the value stands for.
    fn futile_replies(&self, prefix: &Position<B>, depth: u32, alpha: i32) -> Option<i32> {
        if depth > 2 || prefix.side != self.root || self.finished(prefix) {
            return None;
        }
        let stand = self.eval.utility(self.t, prefix, self.root);
        (stand - REPLY_MARGIN[depth as usize] > alpha
            && stand.abs() < self.eval.win() - MAX_PLY as i32)
            .then_some(stand)
    }

    /// In BRS+, at a move of the searching army in the last two plies: its value as it
    /// stands, when that is so far below `alpha` that no quiet move (see [`Self::quiet`])
    /// is likely to lift it above; only the moves that are not quiet are then searched.
    /// Not in check, where every move changes the King's safety.
    fn futile_moves(&self, pos: &Position<B>, depth: u32, alpha: i32) -> Option<i32> {
        if depth > 2 || self.method != Method::BestReply || is_in_check(self.t, pos, pos.side) {
            return None;
        }
        let stand = self.eval.utility(self.t, pos, self.root);
        (stand + MOVE_MARGIN[depth as usize] <= alpha
            && alpha.abs() < self.eval.win() - MAX_PLY as i32)
            .then_some(stand)
    }

    /// What [`Self::quiet`] needs of `pos`, worked out once for all of its moves.
    fn royals_around(&self, pos: &Position<B>) -> RoyalsAround<B> {
        RoyalsAround {
            movers: pos.royals(self.t, pos.side),
            searching: pos.royals(self.t, self.root),
            enemies: enemy_royals(self.t, pos),
        }
    }

    /// A move that neither captures, promotes nor checks a King or Emperor, nor moves one,
    /// nor comes within two cells of a royal piece of the searching army: what it changes
    /// of the searching army's value is a Pawn's advance and a piece's distance to the other
    /// Kings. `royals` is [`Self::royals_around`] of `pos`.
    fn quiet(&self, pos: &Position<B>, royals: &RoyalsAround<B>, m: Move) -> bool {
        let t = self.t;
        !matches!(
            m.kind(),
            MoveKind::Promotion | MoveKind::EnPassant | MoveKind::Merge | MoveKind::Drop
        ) && !pos.occupied.contains(m.to())
            && !royals.movers.contains(m.from())
            && !royals.searching.cells().any(|k| t.distance(k, m.to()) <= 2)
            && !gives_check(t, pos, m, royals.enemies)
    }

    /// The replies of the opponent layer: each opponent's moves in its own order, the
    /// opponents before it having played their first-ordered moves (`prefixes[k]` is the
    /// position the `k`th opponent moves in). The table's reply (`hint`) goes first, then
    /// captures of the searching army's pieces by any opponent, most valuable victim first
    /// — the replies most likely to refute the searching army's move — then the killer, then
    /// every opponent's first-ordered move before any opponent's second, and so on, the
    /// next army first among equals: a refutation by the last opponent is not tried only
    /// after every move of the others. Also returns the position after every opponent's
    /// first-ordered move.
    #[allow(clippy::type_complexity)]
    fn opponent_replies(
        &mut self,
        pos: &Position<B>,
        ply: usize,
        hint: Move,
    ) -> (Vec<Position<B>>, Vec<(usize, Move)>, Position<B>) {
        let mut prefixes = Vec::new();
        let mut replies = Vec::new();
        let mut prefix = *pos;
        while prefix.side != self.root && !self.finished(&prefix) {
            let mut moves = self.line_or_legal_moves(&prefix);
            if moves.is_empty() {
                break;
            }
            self.order(&prefix, &mut moves, ply);
            let next = prefix.play(self.t, moves[0]);
            replies.extend(
                moves
                    .iter()
                    .enumerate()
                    .map(|(r, &m)| (prefixes.len(), r, m)),
            );
            prefixes.push(prefix);
            prefix = next;
        }
        let killer = self.killers[ply];
        let mut keyed: Vec<(u64, usize, Move)> = replies
            .into_iter()
            .map(|(k, rank, m)| {
                let threat = self.threat(&prefixes[k], m);
                (reply_key(m != hint, threat, m != killer, rank, k), k, m)
            })
            .collect();
        // The keys are distinct (a rank and an opponent name one reply), so the order is
        // fully decided and an unstable sort gives it.
        keyed.sort_unstable_by_key(|&(key, _, _)| key);
        let replies = keyed.into_iter().map(|(_, k, m)| (k, m)).collect();
        (prefixes, replies, prefix)
    }

    /// How much a reply by the army to move in `pos` takes from the searching army: 0 unless
    /// it captures one of its pieces, else more for a more valuable victim and then for a
    /// cheaper attacker.
    fn threat(&self, pos: &Position<B>, m: Move) -> i32 {
        let ours = pos.by_player[self.root.index()];
        if m.kind() == MoveKind::Pass || !ours.contains(m.to()) {
            return 0;
        }
        let value = |c| {
            pos.piece_at(c)
                .map_or(0, |p| self.eval.piece_value(p.kind()))
        };
        1 + 16 * value(m.to()) - value(m.from()) / 16
    }

    /// The game is over, or the searching army is out of it.
    fn finished(&self, pos: &Position<B>) -> bool {
        pos.winner.is_some() || pos.alive.count_ones() <= 1 || !pos.is_alive(self.root)
    }

    /// The move [`Self::order`] puts first, found without judging every move for check:
    /// a move goes up by at most [`CHECK_BONUS`], so a move whose key without it falls that
    /// far below the best full key so far cannot overtake it. Ties go to the earlier
    /// generated move, as in `order`'s stable sort.
    fn first_ordered(&self, pos: &Position<B>, moves: &[Move], ply: usize) -> Option<Move> {
        let killer = self.killers.get(ply).copied().unwrap_or(Move::NONE);
        let royals = enemy_royals(self.t, pos);
        let bases: Vec<i32> = moves
            .iter()
            .map(|m| self.static_key(pos, m, killer))
            .collect();
        let full_key = |i: usize| {
            let check = gives_check(self.t, pos, moves[i], royals);
            bases[i] + if check { CHECK_BONUS } else { 0 }
        };
        // Start from the first move of the highest key without the bonus: its full key is
        // the first bound the others must come near.
        let top = (0..moves.len()).max_by_key(|&i| (bases[i], std::cmp::Reverse(i)))?;
        let mut best = (full_key(top), top);
        for (i, &base) in bases.iter().enumerate() {
            if i == top || base + CHECK_BONUS < best.0 {
                continue;
            }
            let key = full_key(i);
            if key > best.0 || (key == best.0 && i < best.1) {
                best = (key, i);
            }
        }
        Some(moves[best.1])
    }

    /// Captures by victim value (then cheap attackers first), promotions and mergers, the
    /// killer, then the rest in generation order; a move that checks goes up by
    /// [`CHECK_BONUS`].
    fn order(&self, pos: &Position<B>, moves: &mut [Move], ply: usize) {
        let killer = self.killers.get(ply).copied().unwrap_or(Move::NONE);
        let royals = enemy_royals(self.t, pos);
        let key = |m: &Move| -> i32 {
            let base = self.static_key(pos, m, killer);
            if gives_check(self.t, pos, *m, royals) {
                base + CHECK_BONUS
            } else {
                base
            }
        };
        // Cached: the key plays through the piece's targets, once per move is enough.
        moves.sort_by_cached_key(|m| std::cmp::Reverse(key(m)));
    }

    /// Captures by victim value (then cheap attackers first), promotions and mergers, the
    /// killer, then the rest.
    fn static_key(&self, pos: &Position<B>, m: &Move, killer: Move) -> i32 {
        if m.kind() == MoveKind::Pass {
            return 0;
        }
        let attacker = pos
            .piece_at(m.from())
            .map_or(0, |p| self.eval.piece_value(p.kind()));
        let victim = match m.kind() {
            MoveKind::EnPassant => 100,
            MoveKind::Merge => 0,
            _ => pos
                .piece_at(m.to())
                .map_or(0, |p| self.eval.piece_value(p.kind())),
        };
        let promo = match m.kind() {
            MoveKind::Promotion | MoveKind::Merge => self.eval.piece_value(m.piece_kind()),
            _ => 0,
        };
        if victim > 0 || promo > 0 {
            10_000 + 16 * (victim + promo) - attacker / 16
        } else if *m == killer {
            5_000
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::movegen::notation::format_move;

    /// A Catholic Rook on dv1, the Byzantine King on as1: of the Rook's and the King's moves
    /// only those landing on a line to as1 (ds1 along row s, av1 along column a) check.
    #[test]
    fn direct_checks_are_told_from_other_moves() {
        let crate::game::AnyTables::Wide(t) = crate::games::tables("aof5").unwrap() else {
            panic!("aof5 uses the wide bitset");
        };
        let empty = "10/10/10/10/10/10/10/10";
        let text = format!(
            "10/10/10/10/3,cR,6/10/10/bK,9|10/10/10/10/10/10/10/9,cK|{empty}|{empty} c cb - 0 1"
        );
        let pos = crate::position::fen::parse(&t, &text).unwrap();
        let royals = enemy_royals(&t, &pos);
        assert_eq!(royals.count(), 1);
        let mut checks: Vec<String> = legal_moves(&t, &pos)
            .iter()
            .filter(|&&m| gives_check(&t, &pos, m, royals))
            .map(|&m| format_move(&t, m))
            .collect();
        checks.sort();
        assert_eq!(checks, ["dv1av1", "dv1ds1"]);
        assert!(legal_moves(&t, &pos).len() > 20);
    }

    /// A BRS+ searcher for `root` with no limits.
    fn brs_searcher<'a, B: BitSet, U: Utility<B>>(
        t: &'a Tables<B>,
        eval: &'a U,
        stop: &'a AtomicBool,
        table: &'a mut MultiTable,
        root: Player,
    ) -> Searcher<'a, B, U> {
        let limits = MultiLimits::default();
        Searcher::new(t, eval, root, Method::BestReply, limits, stop, table)
    }

    /// What futility pruning may skip: of the Catholic moves below (a Rook on dv1, its King
    /// on ft2, the Byzantine King on as1), the Rook's moves that check, capture or come near
    /// the King, and every King move, are kept; a Rook move that does none of that is quiet.
    #[test]
    fn futility_skips_only_moves_that_neither_take_check_nor_near_the_king() {
        let crate::game::AnyTables::Wide(t) = crate::games::tables("aof5").unwrap() else {
            panic!("aof5 uses the wide bitset");
        };
        let eval = crate::games::aof5::eval::Eval::new(&t);
        let empty = "10/10/10/10/10/10/10/10";
        let text = format!(
            "10/10/10/10/3,cR,6/10/10/bK,9|10/10/10/10/10/10/5,cK,4/10|{empty}|{empty} c cb - 0 1"
        );
        let pos = crate::position::fen::parse(&t, &text).unwrap();
        let stop = AtomicBool::new(false);
        let mut table = MultiTable::new(4);
        let s = brs_searcher(&t, &eval, &stop, &mut table, pos.side);
        let quiet = |name: &str| {
            let m = legal_vec(&t, &pos)
                .into_iter()
                .find(|&m| format_move(&t, m) == name)
                .unwrap_or_else(|| panic!("{name} is not legal"));
            s.quiet(&pos, &s.royals_around(&pos), m)
        };
        assert!(quiet("dv1dz1"), "a Rook move far from every King");
        assert!(!quiet("dv1ds1"), "a check along row s");
        assert!(!quiet("dv1av1"), "a check along column a");
        assert!(!quiet("dv1dt1"), "within two cells of its own King");
        assert!(!quiet("ft2ft1"), "a King move");
    }

    /// The packed key orders replies as the tuple it stands for, at the fields' extremes too.
    #[test]
    fn the_reply_key_orders_as_its_tuple() {
        let threats = [i32::MIN, -313, -1, 0, 1, 16_001, i32::MAX];
        let mut tuples = Vec::new();
        for not_hint in [false, true] {
            for &threat in &threats {
                for not_killer in [false, true] {
                    for rank in [0, 1, 255, 256, crate::movegen::MAX_MOVES - 1] {
                        for opponent in 0..3 {
                            tuples.push((not_hint, threat, not_killer, rank, opponent));
                        }
                    }
                }
            }
        }
        let by_tuple =
            |&(h, t, k, r, o): &(bool, i32, bool, usize, usize)| (h, std::cmp::Reverse(t), k, r, o);
        let by_key = |&(h, t, k, r, o): &(bool, i32, bool, usize, usize)| reply_key(h, t, k, r, o);
        let mut a = tuples.clone();
        a.sort_by_key(by_tuple);
        let mut b = tuples;
        b.sort_by_key(by_key);
        assert_eq!(a, b);
    }

    /// The default move of a non-searched opponent, found lazily, is the move the full
    /// ordering puts first: in suite positions and one move later (another army to move),
    /// with and without a killer at the ply.
    #[test]
    fn the_lazy_first_move_is_the_ordering_s_first() {
        let crate::game::AnyTables::Wide(t) = crate::games::tables("aof5").unwrap() else {
            panic!("aof5 uses the wide bitset");
        };
        let eval = crate::games::aof5::eval::Eval::new(&t);
        let suite = include_str!("../../book/suites/aof5.epd");
        let stop = AtomicBool::new(false);
        let mut table = MultiTable::new(4);
        let mut s = brs_searcher(&t, &eval, &stop, &mut table, Player(0));
        let mut compared = 0;
        for line in suite.lines().filter(|l| l.starts_with("aof5 ")).take(12) {
            let start = crate::position::fen::parse(&t, &line[5..]).unwrap();
            let after: Vec<Position<_>> = legal_vec(&t, &start)
                .iter()
                .step_by(7)
                .map(|&m| start.play(&t, m))
                .collect();
            for pos in std::iter::once(start).chain(after) {
                let generated = legal_vec(&t, &pos);
                for killer in [Move::NONE, generated[generated.len() / 2]] {
                    s.killers[3] = killer;
                    let mut ordered = generated.clone();
                    s.order(&pos, &mut ordered, 3);
                    assert_eq!(s.first_ordered(&pos, &generated, 3), Some(ordered[0]));
                    compared += 1;
                }
            }
        }
        assert!(compared > 200, "{compared} positions compared");
    }
}
