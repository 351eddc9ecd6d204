//! Two-player alpha-beta: principal-variation search with a transposition table, null-move
//! pruning, late-move reductions, futility, late-move, history and exchange pruning near the
//! leaves (bolder where the static evaluation is not improving; the evaluation corrected by
//! the table's bound), extension of checks that do not lose material and of singular hash
//! moves, and a quiescence search over captures and promotions (all moves when in check).
//! One [`Worker`] runs per thread; the threads share only the table and the flags.

use super::ordering::{
    is_capture, material_gain, moving_kind, pick_next, AllSink, Ranker, TacticalSink, ThreadData,
    HASH_MOVE,
};
use super::see::see_at_least;
use super::tt::{Bound, Entry, TranspositionTable};
use super::{INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::bitboard::BitSet;
use crate::eval::keys::Keys;
use crate::eval::Evaluator;
use crate::movegen::tables::Tables;
use crate::movegen::{generate, is_in_check, may_give_check, quick_legality};
use crate::moves::{Move, MoveKind};
use crate::nnue::Nnue;
use crate::outcome::Verdict;
use crate::piece::Player;
use crate::position::Position;
use crate::variant::StalemateRule;
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a draw costs the searching side, in centipawns.
pub const DRAW_CONTEMPT: i32 = 15;

/// Exchange losses (per ply of depth left) beyond which a capture is not searched.
const SEE_CAPTURE_MARGIN: i32 = 100;
/// Exchange losses (per squared ply of depth left) beyond which a quiet move is not searched.
const SEE_QUIET_MARGIN: i32 = 30;

/// Depth from which the hash move is tested for being singular.
const SINGULAR_MIN_DEPTH: i32 = 5;

/// Depth up to which the hash move is searched before the other moves are generated (deeper,
/// generating them costs little beside the search, and the histories' journal grows).
const HASH_FIRST_MAX_DEPTH: i32 = 6;

/// The static evaluation of a ply where none was taken (the side to move was in check).
const NO_EVAL: i32 = i32::MIN;

/// How often (in nodes) the main thread looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 1024;

/// What all threads of one search share.
pub struct Shared<'a, B: BitSet> {
    pub t: &'a Tables<B>,
    pub ev: &'a Evaluator<B>,
    /// The network evaluating this variant, if one is active (else `ev` evaluates).
    pub nnue: Option<&'a Nnue>,
    pub tt: &'a TranspositionTable,
    /// Set by the main thread when the search must end; every thread obeys it.
    pub abort: AtomicBool,
    /// The caller's stop request.
    pub stop: &'a AtomicBool,
    /// Nodes searched by all threads, updated in batches.
    pub nodes: AtomicU64,
    pub start: Instant,
    pub hard_deadline: Option<Duration>,
    pub node_limit: Option<u64>,
}

/// A root move with the score and line of its last full search.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub pv: Vec<Move>,
}

pub struct Worker<'a, 'd, B: BitSet> {
    pub shared: &'a Shared<'a, B>,
    pub data: &'d mut ThreadData,
    pub is_main: bool,
    pub nodes: u64,
    unreported: u64,
    pub seldepth: usize,
    /// Zobrist keys of the game since its last irreversible move, then of the search path.
    keys: Vec<u64>,
    /// Keys before this index are not compared (a null move lies between).
    null_barrier: Vec<usize>,
    pv: Vec<Vec<Move>>,
    /// Per ply: the move that led to this ply's position and its history slot.
    path: Vec<Option<usize>>,
    reductions: Vec<[u8; 64]>,
    /// Static evaluation per ply of the current path ([`NO_EVAL`] where in check), for the
    /// "improving" signal.
    evals: Vec<i32>,
    /// Per ply, the move a singular-extension search leaves out ([`Move::NONE`] otherwise).
    excluded: Vec<Move>,
    /// The side to move at the root (whose draws cost [`DRAW_CONTEMPT`]).
    root_side: Player,
}

impl<'a, 'd, B: BitSet> Worker<'a, 'd, B> {
    pub fn new(
        shared: &'a Shared<'a, B>,
        data: &'d mut ThreadData,
        is_main: bool,
        game_keys: Vec<u64>,
        root_side: Player,
    ) -> Self {
        let reductions = (0..64)
            .map(|d: usize| {
                std::array::from_fn(|n| {
                    if d == 0 || n == 0 {
                        0
                    } else {
                        (0.75 + (d as f64).ln() * (n as f64).ln() / 2.25) as u8
                    }
                })
            })
            .collect();
        Worker {
            shared,
            data,
            is_main,
            nodes: 0,
            unreported: 0,
            seldepth: 0,
            keys: game_keys,
            null_barrier: vec![0],
            pv: vec![Vec::new(); MAX_PLY + 2],
            path: vec![None; MAX_PLY + 2],
            reductions,
            evals: vec![NO_EVAL; MAX_PLY + 2],
            excluded: vec![Move::NONE; MAX_PLY + 2],
            root_side,
        }
    }

    #[inline]
    fn aborted(&self) -> bool {
        self.shared.abort.load(Ordering::Relaxed)
    }

    /// Counts a node; the main thread also enforces the limits here.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported += 1;
        if let Some(limit) = self.shared.node_limit {
            if self.is_main && self.total_nodes() >= limit {
                self.shared.abort.store(true, Ordering::Relaxed);
            }
        }
        if self.unreported >= POLL_INTERVAL {
            self.shared
                .nodes
                .fetch_add(self.unreported, Ordering::Relaxed);
            self.unreported = 0;
            if self.is_main {
                self.poll();
            }
        }
    }

    /// Nodes of all threads (this one exactly, the others as last reported).
    pub fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.unreported
    }

    fn poll(&self) {
        let s = self.shared;
        let late = s.hard_deadline.is_some_and(|d| s.start.elapsed() >= d);
        if late || s.stop.load(Ordering::Relaxed) {
            s.abort.store(true, Ordering::Relaxed);
        }
    }

    /// Flushes the node count into the shared total.
    pub fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
    }

    fn is_draw(&self, pos: &Position<B>) -> bool {
        let limit = self.shared.t.variant.move_rule_plies;
        if limit > 0 && pos.halfmove >= limit {
            return true;
        }
        let window = pos.halfmove as usize;
        let barrier = *self.null_barrier.last().unwrap();
        let n = self.keys.len();
        // `keys` ends with this position itself.
        let lowest = n.saturating_sub(window + 1).max(barrier);
        (lowest..n.saturating_sub(1))
            .rev()
            .any(|i| self.keys[i] == pos.hash)
    }

    /// Score when the side to move has no legal move.
    fn no_moves_score(&self, pos: &Position<B>, in_check: bool, ply: usize) -> i32 {
        if in_check || self.shared.t.variant.stalemate == StalemateRule::Loss {
            -MATE + ply as i32
        } else {
            self.draw_score(pos)
        }
    }

    /// A draw is worth a little less than nothing to the side that searches: it plays on
    /// in equal positions rather than repeat (but takes a draw when it is worse).
    #[inline]
    fn draw_score(&self, pos: &Position<B>) -> i32 {
        if pos.side == self.root_side {
            -DRAW_CONTEMPT
        } else {
            DRAW_CONTEMPT
        }
    }

    fn has_pieces(&self, pos: &Position<B>, p: Player) -> bool {
        self.shared.ev.piece_material(pos, p) > 0
    }

    fn generate_all(&mut self, pos: &Position<B>, ply: usize) -> Vec<(Move, i32)> {
        let mut moves = std::mem::take(&mut self.data.move_stack[ply]);
        moves.clear();
        generate(self.shared.t, pos, &mut AllSink { out: &mut moves });
        moves
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// Searches the root moves `moves` with a window; returns the best score. Moves that
    /// fail low get `-INFINITY` so that a stable sort keeps the best first.
    pub fn root(
        &mut self,
        pos: &Position<B>,
        moves: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let t = self.shared.t;
        self.enter(pos, 0);
        let in_check = is_in_check(t, pos, pos.side);
        let mut best = -INFINITY;
        self.count_node();
        for i in 0..moves.len() {
            let mv = moves[i].mv;
            let child = pos.play(t, mv);
            let gives_check = is_in_check(t, &child, child.side);
            let new_depth = depth - 1 + gives_check as i32;
            self.path[1] = self.history_slot(pos, mv);
            self.keys.push(child.hash);
            let quiet = !is_capture(pos, mv) && mv.kind() != MoveKind::Promotion;
            let mut score;
            if i == 0 {
                score = -self.search(&child, new_depth, -beta, -alpha, 1, gives_check, true);
            } else {
                let r = if depth >= 3 && quiet && !gives_check && !in_check && i >= 3 {
                    (self.reduction(depth, i) - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                score = -self.search(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    1,
                    gives_check,
                    true,
                );
                if score > alpha && r > 0 {
                    score =
                        -self.search(&child, new_depth, -alpha - 1, -alpha, 1, gives_check, true);
                }
                if score > alpha && score < beta {
                    score = -self.search(&child, new_depth, -beta, -alpha, 1, gives_check, true);
                }
            }
            self.keys.pop();
            if self.aborted() {
                return best;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                moves[i].score = score;
                moves[i].pv.clear();
                moves[i].pv.push(mv);
                moves[i].pv.extend_from_slice(&self.pv[1]);
                // Keep the new best first at once, so an interrupted iteration still knows it.
                moves[..=i].rotate_right(1);
                if score >= beta {
                    return score;
                }
                alpha = score;
            } else {
                moves[i].score = -INFINITY;
            }
        }
        best
    }

    /// Whether the static evaluation is better than two plies ago (or four, when the side
    /// was in check then): pruning is bolder where it is not.
    fn improving(&self, ply: usize, in_check: bool) -> bool {
        if in_check {
            return false;
        }
        let now = self.evals[ply];
        [2, 4]
            .iter()
            .filter(|&&back| ply >= back)
            .map(|&back| self.evals[ply - back])
            .find(|&e| e != NO_EVAL)
            .is_none_or(|e| now > e)
    }

    /// The slots of the moves that led here: the opponent's last, ours before it.
    #[inline]
    fn context(&self, ply: usize) -> [Option<usize>; 2] {
        [
            self.path[ply],
            if ply >= 1 { self.path[ply - 1] } else { None },
        ]
    }

    #[inline]
    fn reduction(&self, depth: i32, n: usize) -> i32 {
        self.reductions[(depth as usize).min(63)][n.min(63)] as i32
    }

    fn history_slot(&self, pos: &Position<B>, mv: Move) -> Option<usize> {
        match mv.kind() {
            MoveKind::Pass => None,
            _ => Some(
                self.data
                    .slot(pos.side.index(), moving_kind(pos, mv), mv.to()),
            ),
        }
    }

    /// The main search. `in_check` is whether the side to move is in check here. Its phases:
    /// the node's bookkeeping ([`Self::open_node`]), the table probe ([`tt_cutoff`]), the
    /// static evaluation ([`Self::node_eval`]), the pruning ([`Self::prune`]) and the move
    /// loop ([`Self::move_loop`]).
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        &mut self,
        pos: &Position<B>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        null_ok: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        self.enter(pos, ply);
        if depth <= 0 && !in_check {
            return self.quiesce(pos, alpha, beta, ply, in_check);
        }
        let depth = depth.max(1);
        let (alpha, beta) = match self.open_node(pos, alpha, beta, ply) {
            Ok(window) => window,
            Err(score) => return score,
        };
        let excluded = self.excluded[ply];
        let tt_entry = self.shared.tt.probe(pos.hash);
        let hash_move = tt_entry.map_or(Move::NONE, |e| e.mv);
        let cut_allowed = !pv_node && excluded.is_none();
        if let Some(score) = tt_cutoff(tt_entry, depth, alpha, beta, ply, cut_allowed) {
            return score;
        }
        let (raw_eval, keys, static_eval) = self.node_eval(pos, ply, in_check);
        self.evals[ply] = if in_check { NO_EVAL } else { static_eval };
        let improving = self.improving(ply, in_check);
        let eval = refined_eval(static_eval, tt_entry, ply);
        if !pv_node && !in_check && beta.abs() < MATE_BOUND && excluded.is_none() {
            let window = (alpha, beta);
            if let Some(score) = self.prune(pos, depth, window, ply, eval, improving, null_ok) {
                return score;
            }
        }
        // Internal iterative reduction: without a hash move, a PV or deep node is likely
        // mis-ordered; search it a little shallower.
        let depth = if hash_move.is_none() && depth >= 6 && pv_node {
            depth - 1
        } else {
            depth
        };
        let mut node = Node {
            depth,
            beta,
            ply,
            in_check,
            pv_node,
            improving,
            eval,
            tt_entry,
            hash_move,
            excluded,
            original_alpha: alpha,
            alpha,
            best: -INFINITY,
            best_move: Move::NONE,
            searched: 0,
            quiets_tried: ArrayVec::new(),
            captures_tried: ArrayVec::new(),
        };
        self.move_loop(pos, &mut node, keys, raw_eval)
    }

    /// A node's bookkeeping before its moves: counts it, and ends it early when the search
    /// is stopped, the position is drawn or over, the ply limit is reached, or a mate
    /// already found is closer than any line from here (mate-distance pruning). Gives the
    /// window, narrowed by that pruning, or the node's score.
    #[inline(always)]
    fn open_node(
        &mut self,
        pos: &Position<B>,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> Result<(i32, i32), i32> {
        self.count_node();
        if self.aborted() {
            return Err(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw(pos) {
            return Err(self.draw_score(pos));
        }
        if let Some(v) = self.terminal(pos, ply) {
            return Err(v);
        }
        if ply >= MAX_PLY {
            return Err(self.static_eval(pos, ply));
        }
        // Mate-distance pruning: no line from here beats a mate already found closer.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return Err(alpha);
        }
        Ok((alpha, beta))
    }

    /// The static evaluation before and after correction, and the correction keys. In check
    /// there is no static evaluation, so nothing to correct or learn from.
    #[inline(always)]
    fn node_eval(
        &mut self,
        pos: &Position<B>,
        ply: usize,
        in_check: bool,
    ) -> (i32, Option<Keys>, i32) {
        let (raw_eval, keys) = if in_check {
            (-INFINITY, None)
        } else {
            (
                self.static_eval(pos, ply),
                Some(self.shared.ev.correction_keys(pos)),
            )
        };
        let static_eval = keys.map_or(-INFINITY, |k| self.corrected(raw_eval, pos, k));
        (raw_eval, keys, static_eval)
    }

    /// The pruning of a non-PV node out of check, before its moves: reverse futility,
    /// razoring and the null move. Gives the node's score when one of them settles it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn prune(
        &mut self,
        pos: &Position<B>,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
        eval: i32,
        improving: bool,
        null_ok: bool,
    ) -> Option<i32> {
        // Reverse futility: far above beta near the leaves, the opponent will not recover.
        if depth <= 8 && eval - 80 * (depth - improving as i32) >= beta {
            return Some(eval);
        }
        // Razoring: far below alpha at the last plies, only a capture could save the
        // node; if the quiescence search finds none, trust it.
        if depth <= 2 && eval + 250 * depth + 150 <= alpha {
            let v = self.quiesce(pos, alpha, alpha + 1, ply, false);
            if self.aborted() {
                return Some(0);
            }
            if v <= alpha {
                return Some(v);
            }
        }
        // Null move: give the opponent a free move; if we still beat beta, cut. Not with
        // pawns and King only, where passing may be the best move (zugzwang).
        if null_ok && depth >= 3 && eval >= beta && self.has_pieces(pos, pos.side) {
            let r = 3 + depth / 4 + ((eval - beta) / 200).min(2);
            let child = pos.play(self.shared.t, Move::pass());
            self.keys.push(child.hash);
            self.null_barrier.push(self.keys.len() - 1);
            self.path[ply + 1] = None;
            let score = -self.search(
                &child,
                depth - 1 - r,
                -beta,
                -beta + 1,
                ply + 1,
                false,
                false,
            );
            self.null_barrier.pop();
            self.keys.pop();
            if self.aborted() {
                return Some(0);
            }
            if score >= beta {
                return Some(if score >= MATE_BOUND { beta } else { score });
            }
        }
        None
    }

    /// The move loop of `node`: the hash move first (before the others are generated, when
    /// it is quickly known legal), then the others best-ranked first, until one cuts; then
    /// the node's conclusion.
    #[inline(always)]
    fn move_loop(
        &mut self,
        pos: &Position<B>,
        node: &mut Node,
        keys: Option<Keys>,
        raw_eval: i32,
    ) -> i32 {
        let (t, ply, hash_move) = (self.shared.t, node.ply, node.hash_move);
        // Taken now: the searches below change the killers and the counter-moves.
        let ranker = Ranker {
            t,
            ev: self.shared.ev,
            hash_move,
            killers: self.data.killers[ply],
            counter: self.data.countermove(self.path[ply]),
            context: self.context(ply),
        };
        let hash_first = !hash_move.is_none()
            && hash_move != node.excluded
            && node.depth <= HASH_FIRST_MAX_DEPTH
            && quick_legality(t, pos, hash_move) == Some(true);
        let (mut moves, first) = if hash_first {
            // The hash move often refutes the node alone; the others are generated and ranked
            // only when it did not, ranked as the tables stood before it was searched.
            let mark = self.data.open_journal();
            let next = self.try_move(pos, node, hash_move, HASH_MOVE);
            if !matches!(next, Next::Continue) {
                self.data.close_journal(mark);
                return match next {
                    Next::Return(score) => score,
                    _ => self.conclude(pos, node, keys, raw_eval),
                };
            }
            let mut moves = self.generate_all(pos, ply);
            self.data.ranked_as_at(mark, |data| {
                for m in moves.iter_mut() {
                    m.1 = ranker.score(data, pos, m.0);
                }
            });
            self.data.close_journal(mark);
            // The same pick as in the loop leaves the others in the loop's order.
            let picked = pick_next(&mut moves, 0);
            debug_assert_eq!(picked, hash_move);
            (moves, 1)
        } else {
            let mut moves = self.generate_all(pos, ply);
            if moves.is_empty() {
                self.data.move_stack[ply] = moves;
                return self.no_moves_score(pos, node.in_check, ply);
            }
            for m in moves.iter_mut() {
                m.1 = ranker.score(self.data, pos, m.0);
            }
            (moves, 0)
        };
        for i in first..moves.len() {
            let mv = pick_next(&mut moves, i);
            match self.try_move(pos, node, mv, moves[i].1) {
                Next::Continue => {}
                Next::Cut => break,
                Next::Return(score) => {
                    self.data.move_stack[ply] = moves;
                    return score;
                }
            }
        }
        self.data.move_stack[ply] = moves;
        self.conclude(pos, node, keys, raw_eval)
    }

    /// Tries one move of `node`'s loop; `order` is the score it was ranked by.
    fn try_move(&mut self, pos: &Position<B>, node: &mut Node, mv: Move, order: i32) -> Next {
        let t = self.shared.t;
        let Node {
            depth,
            beta,
            ply,
            in_check,
            pv_node,
            ..
        } = *node;
        if mv == node.excluded {
            return Next::Continue;
        }
        // Singular extension: when every other move falls well short of what the table
        // says the hash move scores, the hash move is forced and gets a ply more; when
        // even the others beat beta, several moves refute the line and it is cut.
        let mut singular = false;
        if mv == node.hash_move {
            match self.singular(pos, node.tt_entry, depth, beta, ply, in_check) {
                Singular::Extend => singular = true,
                Singular::Cut(score) => return Next::Return(score),
                Singular::No => {}
            }
        }
        let capture = is_capture(pos, mv);
        let quiet = !capture && mv.kind() != MoveKind::Promotion;
        let slot = self.history_slot(pos, mv);
        // Quiet moves near the leaves that cannot raise alpha are pruned unless they check;
        // one that cannot check is dropped before it is made (most moves of such nodes).
        let futile = quiet
            && !pv_node
            && !in_check
            && node.best > -MATE_BOUND
            && self.futile_quiet(node, slot);
        if futile && !may_give_check(t, pos, mv) {
            return Next::Continue;
        }
        let child = pos.play(t, mv);
        let gives_check = is_in_check(t, &child, child.side);
        if futile && !gives_check {
            return Next::Continue;
        }
        // Near the leaves, skip moves that lose more in the exchange than the remaining
        // depth could win back: captures of defended pieces, quiet moves onto attacked cells,
        // checks that give a piece away (the last by the captures' margin).
        if !pv_node && !in_check && node.best > -MATE_BOUND && depth <= 6 {
            let margin = if capture || gives_check {
                -SEE_CAPTURE_MARGIN * depth
            } else {
                -SEE_QUIET_MARGIN * depth * depth
            };
            if (capture && order < 0 || quiet) && !see_at_least(t, self.shared.ev, pos, mv, margin)
            {
                return Next::Continue;
            }
        }
        self.path[ply + 1] = slot;
        // Checks that do not lose material get a ply more; a check that gives a piece
        // away is seldom the point of a line and extending it feeds the horizon.
        let extension = ((singular || gives_check && see_at_least(t, self.shared.ev, pos, mv, 0))
            && ply < 2 * MAX_PLY / 3) as i32;
        let new_depth = depth - 1 + extension;
        self.keys.push(child.hash);
        let score = self.search_child(&child, node, new_depth, gives_check, quiet, slot, order);
        self.keys.pop();
        node.searched += 1;
        if self.aborted() {
            return Next::Return(0);
        }
        if score > node.best {
            node.best = score;
            if score > node.alpha {
                node.best_move = mv;
                node.alpha = score;
                if pv_node {
                    self.update_pv(ply, mv);
                }
                if score >= beta {
                    if quiet {
                        self.reward_quiet(ply, depth, mv, slot, &node.quiets_tried);
                    }
                    self.reward_capture(pos, depth, mv, capture, &node.captures_tried);
                    return Next::Cut;
                }
            }
        }
        if quiet {
            if let Some(s) = slot {
                let _ = node.quiets_tried.try_push(s);
            }
        } else if capture {
            let _ = node
                .captures_tried
                .try_push(self.data.capture_index(pos, mv));
        }
        Next::Continue
    }

    /// Whether a quiet move of `node` cannot raise alpha near the leaves: a late one (fewer
    /// while the position is getting worse), one far below alpha, one that has failed often
    /// elsewhere (by the history of its `slot`).
    fn futile_quiet(&self, node: &Node, slot: Option<usize>) -> bool {
        let Node {
            depth,
            ply,
            improving,
            eval,
            ..
        } = *node;
        let late = (3 + depth * depth) as usize / (2 - improving as usize);
        if depth <= 8 && node.searched >= late
            || depth <= 6 && eval + 100 + 110 * depth <= node.alpha
        {
            return true;
        }
        depth <= 4
            && slot.is_some_and(|s| self.data.quiet_score(s, self.context(ply)) < -4000 * depth)
    }

    /// Searches the position after a move of `node`: the first in full, the others with a
    /// null window, late quiet ones reduced, then again in full where they beat alpha.
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        child: &Position<B>,
        node: &Node,
        new_depth: i32,
        gives_check: bool,
        quiet: bool,
        slot: Option<usize>,
        order: i32,
    ) -> i32 {
        let Node {
            depth,
            alpha,
            beta,
            ply,
            pv_node,
            improving,
            searched,
            ..
        } = *node;
        if searched == 0 {
            return -self.search(child, new_depth, -beta, -alpha, ply + 1, gives_check, true);
        }
        let mut r = 0;
        if depth >= 3 && searched >= 2 + pv_node as usize && quiet {
            r = self.reduction(depth, searched);
            if pv_node {
                r -= 1;
            }
            // A quiet check is reduced too, a ply less than other late quiet moves.
            if gives_check {
                r -= 1;
            }
            if !improving {
                r += 1;
            }
            if order >= HASH_MOVE / 16 {
                // killers and counter-move
                r -= 1;
            }
            if let Some(s) = slot {
                r -= self.data.quiet_score(s, self.context(ply)) / 8000;
            }
            r = r.clamp(0, new_depth - 1);
        }
        let mut score = -self.search(
            child,
            new_depth - r,
            -alpha - 1,
            -alpha,
            ply + 1,
            gives_check,
            true,
        );
        if score > alpha && r > 0 {
            score = -self.search(
                child,
                new_depth,
                -alpha - 1,
                -alpha,
                ply + 1,
                gives_check,
                true,
            );
        }
        if score > alpha && score < beta {
            score = -self.search(child, new_depth, -beta, -alpha, ply + 1, gives_check, true);
        }
        score
    }

    /// A node's result once its moves are done: kept in the table, and what it says about
    /// the static evaluation learnt.
    fn conclude(
        &mut self,
        pos: &Position<B>,
        node: &Node,
        keys: Option<Keys>,
        raw_eval: i32,
    ) -> i32 {
        let Node {
            best,
            best_move,
            alpha,
            beta,
            depth,
            ply,
            ..
        } = *node;
        if best == -INFINITY {
            // Only the excluded move was legal: to the singular test the hash move is not
            // "better than the others", there are none.
            return alpha;
        }
        if node.excluded.is_none() {
            let bound = Bound::of(best, node.original_alpha, beta);
            self.store(pos.hash, best_move, best, bound, depth, ply);
            let quiet_best = best_move.is_none()
                || !is_capture(pos, best_move) && best_move.kind() != MoveKind::Promotion;
            if let Some(keys) = keys.filter(|_| quiet_best) {
                self.learn_correction(pos, keys, raw_eval, best, bound, depth);
            }
        }
        best
    }

    /// Records `pos` as the position at `ply` of the path, for the network's accumulators.
    #[inline]
    fn enter(&mut self, pos: &Position<B>, ply: usize) {
        if self.shared.nnue.is_some() {
            self.data.accumulators.enter(ply, pos.mailbox());
        }
    }

    /// The static evaluation of `pos`, entered at `ply` (see [`Self::enter`]).
    #[inline]
    fn static_eval(&mut self, pos: &Position<B>, ply: usize) -> i32 {
        let s = self.shared;
        self.data.evaluate(s.t, s.ev, s.nnue, pos, ply)
    }

    /// The static evaluation corrected by what searches found about positions of this pawn
    /// structure and material.
    #[inline]
    fn corrected(&self, raw_eval: i32, pos: &Position<B>, keys: Keys) -> i32 {
        let c = self.data.correction.get(pos.side.index(), keys);
        (raw_eval + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Records how far a search's result lay from the static evaluation, when the result
    /// says so: an exact score, or a bound on the far side of the evaluation.
    fn learn_correction(
        &mut self,
        pos: &Position<B>,
        keys: Keys,
        raw_eval: i32,
        best: i32,
        bound: Bound,
        depth: i32,
    ) {
        if bound.corrects(best, raw_eval) && best.abs() < MATE_BOUND {
            self.data
                .correction
                .update(pos.side.index(), keys, best - raw_eval, depth);
        }
    }

    /// Keeps a node's result in the table (mate scores made relative to the node).
    fn store(&self, hash: u64, mv: Move, score: i32, bound: Bound, depth: i32, ply: usize) {
        let score = to_tt(score, ply);
        let entry = Entry {
            mv,
            score,
            depth,
            bound,
        };
        self.shared.tt.store(hash, entry);
    }

    /// The singular test of the hash move (see the move loop of [`Self::search`]): a
    /// shallow null-window search of the other moves below the table's score.
    fn singular(
        &mut self,
        pos: &Position<B>,
        tt_entry: Option<Entry>,
        depth: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> Singular {
        let Some(e) = tt_entry else {
            return Singular::No;
        };
        let tt_score = from_tt(e.score, ply);
        if depth < SINGULAR_MIN_DEPTH
            || !self.excluded[ply].is_none()
            || e.depth < depth - 3
            || e.bound == Bound::Upper
            || tt_score.abs() >= MATE_BOUND
        {
            return Singular::No;
        }
        let singular_beta = tt_score - 2 * depth;
        self.excluded[ply] = e.mv;
        let score = self.search(
            pos,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            in_check,
            false,
        );
        self.excluded[ply] = Move::NONE;
        if self.aborted() {
            Singular::No
        } else if score < singular_beta {
            Singular::Extend
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else {
            Singular::No
        }
    }

    fn reward_quiet(
        &mut self,
        ply: usize,
        depth: i32,
        mv: Move,
        slot: Option<usize>,
        tried: &[usize],
    ) {
        let bonus = depth * depth * 16;
        let context = self.context(ply);
        if let Some(s) = slot {
            self.data.update_quiet(s, context, bonus);
        }
        for &s in tried {
            self.data.update_quiet(s, context, -bonus);
        }
        self.data.add_killer(ply, mv);
        let prev = self.path[ply];
        self.data.set_countermove(prev, mv);
    }

    /// After a cut-off by `mv`: the captures tried before it did not refute the line (they
    /// lose credit), and `mv` did if it is a capture.
    fn reward_capture(
        &mut self,
        pos: &Position<B>,
        depth: i32,
        mv: Move,
        capture: bool,
        tried: &[usize],
    ) {
        let bonus = depth * depth * 16;
        if capture {
            let i = self.data.capture_index(pos, mv);
            self.data.update_capture(i, bonus);
        }
        for &i in tried {
            self.data.update_capture(i, -bonus);
        }
    }

    /// Quiescence: stand pat, then captures and promotions; all moves when in check.
    pub fn quiesce(
        &mut self,
        pos: &Position<B>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        self.count_node();
        if self.aborted() {
            return 0;
        }
        self.enter(pos, ply);
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.terminal(pos, ply) {
            return v;
        }
        let t = self.shared.t;
        let ev = self.shared.ev;
        if ply >= MAX_PLY {
            return self.static_eval(pos, ply);
        }
        let tt_entry = self.shared.tt.probe(pos.hash);
        if let Some(e) = tt_entry {
            let score = from_tt(e.score, ply);
            if e.bound.settles(score, alpha, beta) {
                return score;
            }
        }
        let hash_move = tt_entry.map_or(Move::NONE, |e| e.mv);
        let stand = if in_check {
            -INFINITY
        } else {
            let raw = self.static_eval(pos, ply);
            self.corrected(raw, pos, ev.correction_keys(pos))
        };
        if stand >= beta {
            return stand;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand);
        let Some(mut moves) = self.quiescence_moves(pos, ply, in_check, hash_move) else {
            return self.no_moves_score(pos, true, ply);
        };
        let mut best = stand;
        let mut best_move = Move::NONE;
        for i in 0..moves.len() {
            let mv = pick_next(&mut moves, i);
            if !in_check {
                // Delta pruning: even winning this piece cannot reach alpha.
                let gain = material_gain(ev, pos, mv);
                if stand + gain + 200 <= alpha {
                    continue;
                }
                if !see_at_least(t, ev, pos, mv, 0) {
                    continue;
                }
            }
            let child = pos.play(t, mv);
            let gives_check = is_in_check(t, &child, child.side);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, gives_check);
            if self.aborted() {
                self.data.move_stack[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = mv;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.data.move_stack[ply] = moves;
        let bound = Bound::of(best, original_alpha, beta);
        self.store(pos.hash, best_move, best, bound, 0, ply);
        best
    }

    /// The moves of a quiescence node, ranked: every move in check, the captures (and other
    /// tactical moves) otherwise; the hash move first, then by material gained, the cheaper
    /// mover first. `None` in check with no move (the list is given back to the stack).
    #[inline(always)]
    fn quiescence_moves(
        &mut self,
        pos: &Position<B>,
        ply: usize,
        in_check: bool,
        hash_move: Move,
    ) -> Option<Vec<(Move, i32)>> {
        let (t, ev) = (self.shared.t, self.shared.ev);
        let mut moves = std::mem::take(&mut self.data.move_stack[ply]);
        moves.clear();
        if in_check {
            generate(t, pos, &mut AllSink { out: &mut moves });
            if moves.is_empty() {
                self.data.move_stack[ply] = moves;
                return None;
            }
        } else {
            let enemies = pos.enemies(pos.side);
            generate(
                t,
                pos,
                &mut TacticalSink {
                    enemies,
                    out: &mut moves,
                },
            );
        }
        for m in moves.iter_mut() {
            let gain = material_gain(ev, pos, m.0);
            m.1 = if m.0 == hash_move {
                HASH_MOVE
            } else {
                gain * 16 - super::ordering::mover_value(ev, pos, m.0) / 16
            };
        }
        Some(moves)
    }

    /// A score when a family rule ends the game here before any move is generated (SwDA's
    /// bare King).
    fn terminal(&self, pos: &Position<B>, ply: usize) -> Option<i32> {
        let t = self.shared.t;
        let verdict = t.rules.verdict?;
        verdict(t, pos).map(|v| match v {
            Verdict::Draw => self.draw_score(pos),
            Verdict::Win(w) if w == pos.side => MATE - ply as i32,
            Verdict::Win(_) => -MATE + ply as i32,
        })
    }
}

/// The table's score for a node when its entry settles it: deep enough, with a bound that
/// holds the score against the window. Only where a cut is allowed (not at PV nodes, not in
/// a singular test).
#[inline(always)]
fn tt_cutoff(
    entry: Option<Entry>,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
    cut_allowed: bool,
) -> Option<i32> {
    let e = entry?;
    let score = from_tt(e.score, ply);
    (cut_allowed && e.depth >= depth && e.bound.settles(score, alpha, beta)).then_some(score)
}

/// The static evaluation corrected by the table: a stored bound on the score that lies on
/// the far side of the evaluation is the better guess of what the position is worth.
fn refined_eval(static_eval: i32, tt_entry: Option<Entry>, ply: usize) -> i32 {
    let Some(e) = tt_entry else {
        return static_eval;
    };
    if static_eval == -INFINITY {
        return static_eval;
    }
    let score = from_tt(e.score, ply);
    if e.bound.corrects(score, static_eval) && score.abs() < MATE_BOUND {
        score
    } else {
        static_eval
    }
}

/// One node of [`Worker::search`] while its moves are tried: what stays fixed, and what the
/// moves tried so far reached.
struct Node {
    /// The depth after internal iterative reduction.
    depth: i32,
    beta: i32,
    ply: usize,
    in_check: bool,
    pv_node: bool,
    improving: bool,
    /// The static evaluation refined by the table, for futility.
    eval: i32,
    tt_entry: Option<Entry>,
    hash_move: Move,
    /// The move a singular test leaves out.
    excluded: Move,
    original_alpha: i32,
    alpha: i32,
    best: i32,
    best_move: Move,
    searched: usize,
    /// History slots of the quiet moves and capture-history indices of the captures
    /// searched without a cut-off: they are punished when a later move cuts.
    quiets_tried: ArrayVec<usize, 64>,
    captures_tried: ArrayVec<usize, 32>,
}

/// What a node's move loop does after one move.
enum Next {
    Continue,
    /// The move beat beta.
    Cut,
    /// The node ends with this score (a singular cut, or the search was stopped).
    Return(i32),
}

/// What the singular test found about the hash move.
enum Singular {
    /// Forced: search it a ply deeper.
    Extend,
    /// Other moves beat beta too: the node fails high with this score.
    Cut(i32),
    No,
}

/// Mate scores are stored relative to the node, so that they stay right when the same
/// position is reached at another ply.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
