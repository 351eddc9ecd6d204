//! Lazy SMP: every thread runs the same iterative deepening on the same position and they
//! share only the lock-free transposition table, so helpers fill it with results the main
//! thread then finds. Helpers start at staggered depths so that they do not all search the
//! same tree in step. The main thread owns the clock, reports progress and decides the move.
//!
//! The searches run on threads of their own with a large stack (deep lines on 3D boards need
//! it); progress goes back to the caller's thread over a channel, so `on_info` is called
//! where the caller expects it. A caller that runs many short one-thread searches and owns a
//! thread with such a stack (the data generator) may run the search on that thread instead
//! ([`Placement::CallerThread`]): a thread started per search cost it about a tenth of its time.

use super::ordering::{material_gain, mover_value, ThreadData};
use super::time::{self, Budget};
use super::tt::TranspositionTable;
use super::two_player::{RootMove, Shared, Worker};
use super::{
    to_score, Info, Limits, Score, SearchOptions, SearchResult, INFINITY, MATE, MATE_BOUND, MAX_PLY,
};
use crate::bitboard::BitSet;
use crate::eval::Evaluator;
use crate::game::Game;
use crate::movegen::tables::Tables;
use crate::movegen::{is_in_check, legal_moves};
use crate::moves::Move;
use crate::nnue::Nnue;
use crate::variant::StalemateRule;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The stack of a search thread: deep lines on 3D boards need more than the default.
pub const STACK_SIZE: usize = 64 * 1024 * 1024;

/// Where the main search runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Placement {
    /// On a thread started for the search, with a [`STACK_SIZE`] stack; `on_info` is called as
    /// the search goes.
    #[default]
    OwnThread,
    /// On the calling thread, which must have a stack of at least [`STACK_SIZE`]; only for
    /// one-thread searches (more threads still start helpers), and `on_info` is called after
    /// the search, in order.
    CallerThread,
}

#[allow(clippy::too_many_arguments)]
pub fn run<B: BitSet>(
    t: &Tables<B>,
    ev: &Evaluator<B>,
    nnue: Option<&Nnue>,
    tt: &TranspositionTable,
    data: &mut [ThreadData],
    options: SearchOptions,
    game: &Game<B>,
    limits: &Limits,
    stop: &AtomicBool,
    placement: Placement,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let start = limits.started.unwrap_or_else(Instant::now);
    let pos = game.pos;
    let moves = legal_moves(t, &pos);
    if moves.is_empty() {
        return no_move_result(t, &pos);
    }
    tt.new_search();
    let budget = time::budget(limits);
    let shared = Shared {
        t,
        ev,
        nnue,
        tt,
        abort: AtomicBool::new(false),
        stop,
        nodes: AtomicU64::new(0),
        start,
        hard_deadline: budget.hard,
        node_limit: limits.nodes,
    };
    let root = order_root(ev, tt, &pos, &moves);
    let mut keys = game.repetition_keys();
    keys.push(pos.hash);
    let mut max_depth = limits.depth.map_or(MAX_PLY as i32 - 2, |d| {
        (d as i32).clamp(1, MAX_PLY as i32 - 2)
    });
    if moves.len() == 1 && budget.hard.is_some() {
        // On the clock a forced move is played at once: one ply for its score and no more.
        max_depth = 1;
    }
    let (main_data, helpers) = data.split_first_mut().expect("at least one thread");
    let (tx, rx) = mpsc::channel::<Info>();
    let mut result = std::thread::scope(|s| {
        let shared = &shared;
        if let Some(hard) = budget.hard {
            // The workers look at the clock only every so many nodes, and a node of a 3D game
            // with a long move list can be slow: the watchdog stops them on time regardless.
            let deadline = time::deadline(start, hard);
            s.spawn(move || time::watchdog(deadline, shared.stop, &shared.abort));
        }
        spawn_helpers(s, shared, helpers, &keys, &root, pos);
        let search = move || {
            let result = main_search(
                shared, main_data, keys, root, &pos, max_depth, options, limits, budget, tx,
            );
            shared.abort.store(true, Ordering::Relaxed);
            result
        };
        if placement == Placement::CallerThread {
            let result = search();
            rx.try_iter().for_each(|info| on_info(&info));
            return result;
        }
        let main = std::thread::Builder::new()
            .name("search-main".into())
            .stack_size(STACK_SIZE)
            .spawn_scoped(s, search)
            .expect("spawn search thread");
        for info in rx {
            on_info(&info);
        }
        main.join().expect("search thread")
    });
    // Every thread has flushed its count by now.
    result.nodes = shared.nodes.load(Ordering::Relaxed);
    result
}

/// Starts the helper threads: each deepens on its own, from a staggered first depth, until the
/// main search sets `abort`.
fn spawn_helpers<'scope, 'env, B: BitSet>(
    s: &'scope std::thread::Scope<'scope, 'env>,
    shared: &'scope Shared<'env, B>,
    helpers: &'scope mut [ThreadData],
    keys: &[u64],
    root: &[RootMove],
    pos: crate::position::Position<B>,
) {
    for (i, d) in helpers.iter_mut().enumerate() {
        let keys = keys.to_vec();
        let mut root = root.to_vec();
        std::thread::Builder::new()
            .name(format!("search-helper-{}", i + 1))
            .stack_size(STACK_SIZE)
            .spawn_scoped(s, move || {
                let mut w = Worker::new(shared, d, false, keys, pos.side);
                let first = 1 + (i as i32 + 1) % 2;
                iterate(
                    &mut w,
                    &pos,
                    &mut root,
                    first,
                    MAX_PLY as i32 - 2,
                    1,
                    |_, _, _| true,
                );
                w.flush_nodes();
            })
            .expect("spawn search helper");
    }
}

/// The result of a position without a legal move: mated in check (or stalemated where
/// stalemate loses), else drawn.
fn no_move_result<B: BitSet>(t: &Tables<B>, pos: &crate::position::Position<B>) -> SearchResult {
    let in_check = is_in_check(t, pos, pos.side);
    let lost = in_check || t.variant.stalemate == StalemateRule::Loss;
    SearchResult {
        best: None,
        ponder: None,
        score: if lost { Score::Mate(0) } else { Score::Cp(0) },
        nodes: 0,
    }
}

/// Root moves in a first order: hash move, then captures by gain, then the rest.
fn order_root<B: BitSet>(
    ev: &Evaluator<B>,
    tt: &TranspositionTable,
    pos: &crate::position::Position<B>,
    moves: &[Move],
) -> Vec<RootMove> {
    let hash_move = tt.probe(pos.hash).map_or(Move::NONE, |e| e.mv);
    let mut scored: Vec<(i32, Move)> = moves
        .iter()
        .map(|&m| {
            let key = if m == hash_move {
                i32::MAX
            } else {
                material_gain(ev, pos, m) * 16 - mover_value(ev, pos, m) / 16
            };
            (key, m)
        })
        .collect();
    scored.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
    scored
        .into_iter()
        .map(|(_, mv)| RootMove {
            mv,
            score: -INFINITY,
            pv: vec![mv],
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn main_search<B: BitSet>(
    shared: &Shared<'_, B>,
    data: &mut ThreadData,
    keys: Vec<u64>,
    mut root: Vec<RootMove>,
    pos: &crate::position::Position<B>,
    max_depth: i32,
    options: SearchOptions,
    limits: &Limits,
    budget: Budget,
    tx: mpsc::Sender<Info>,
) -> SearchResult {
    let mut w = Worker::new(shared, data, true, keys, pos.side);
    let lines = options.multi_pv.min(root.len());
    let mut best_score = -INFINITY;
    let mut pacer = time::Pacer::new(budget.soft);
    let mut report = |w: &mut Worker<'_, '_, B>, root: &[RootMove], depth: i32| -> bool {
        w.flush_nodes();
        let elapsed = shared.start.elapsed();
        for (i, rm) in root.iter().take(lines).enumerate() {
            let _ = tx.send(Info {
                depth: depth as u32,
                seldepth: w.seldepth.max(depth as usize) as u32,
                multipv: i as u32 + 1,
                score: to_score(rm.score),
                nodes: w.total_nodes(),
                time: elapsed,
                pv: rm.pv.clone(),
                hashfull: shared.tt.hashfull(),
            });
        }
        best_score = root[0].score;
        // Stop deepening when the soft budget, scaled by the stability of the best move, is
        // spent (see `time::Pacer`) or a mate is proven well inside the horizon.
        let soft_spent = !pacer.another_iteration(elapsed, root[0].mv, root[0].score);
        let mate_plies = MATE - root[0].score.abs();
        let mate_settled = root[0].score.abs() >= MATE_BOUND && depth > mate_plies + 2;
        let soft_nodes_spent = limits.soft_nodes.is_some_and(|n| w.total_nodes() >= n);
        !(soft_spent || soft_nodes_spent || (mate_settled && !limits.infinite))
    };
    let completed = iterate(&mut w, pos, &mut root, 1, max_depth, lines, &mut report);
    w.flush_nodes();
    if limits.infinite {
        // Analysis and pondering end only on the caller's stop.
        while !shared.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    let best = root[0].mv;
    let score = if completed == 0 || root[0].score == -INFINITY {
        best_score
    } else {
        root[0].score
    };
    let ponder = root[0].pv.get(1).copied().or_else(|| {
        let next = pos.play(shared.t, best);
        shared
            .tt
            .probe(next.hash)
            .map(|e| e.mv)
            .filter(|&m| !m.is_none() && legal_moves(shared.t, &next).contains(&m))
    });
    SearchResult {
        best: Some(best),
        ponder,
        score: to_score(if score == -INFINITY { 0 } else { score }),
        nodes: 0,
    }
}

/// Iterative deepening with aspiration windows from `first` to `last` depth, `lines`
/// principal variations. After each completed iteration `report` decides whether to go on.
/// Returns the last completed depth (0 if none).
fn iterate<B: BitSet>(
    w: &mut Worker<'_, '_, B>,
    pos: &crate::position::Position<B>,
    root: &mut [RootMove],
    first: i32,
    last: i32,
    lines: usize,
    mut report: impl FnMut(&mut Worker<'_, '_, B>, &[RootMove], i32) -> bool,
) -> i32 {
    let mut completed = 0;
    let mut previous = vec![0i32; lines];
    for depth in first..=last {
        w.seldepth = 0;
        for line in 0..lines {
            let score = aspiration(w, pos, &mut root[line..], depth, previous[line]);
            if w.shared.abort.load(Ordering::Relaxed) {
                return completed;
            }
            previous[line] = score;
        }
        completed = depth;
        if !report(w, root, depth) {
            break;
        }
    }
    completed
}

fn aspiration<B: BitSet>(
    w: &mut Worker<'_, '_, B>,
    pos: &crate::position::Position<B>,
    root: &mut [RootMove],
    depth: i32,
    previous: i32,
) -> i32 {
    let mut delta = 25;
    let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
        (previous - delta, previous + delta)
    } else {
        (-INFINITY, INFINITY)
    };
    loop {
        let score = w.root(pos, root, depth, alpha, beta);
        if w.shared.abort.load(Ordering::Relaxed) {
            return score;
        }
        if score <= alpha && alpha > -INFINITY {
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INFINITY);
        } else if score >= beta && beta < INFINITY {
            beta = (score + delta).min(INFINITY);
        } else {
            return score;
        }
        delta += delta / 2 + 10;
        if delta > 1000 {
            alpha = -INFINITY;
            beta = INFINITY;
        }
    }
}
