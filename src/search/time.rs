//! Time management, the one place that decides how long a move may take, for two- and
//! four-player games alike. From the limits a protocol passes (a fixed move time, a chess
//! clock in any of its forms, or nothing) it makes:
//!
//! 1. an expected number of moves still to play: the clock's `moves_to_go`, or else the
//!    family's expected game length (its descriptor's [`GameLength`]) minus the moves made
//!    ([`expected_moves_left`], set by the session in [`Limits::moves_left`]; four-player
//!    armies play 130–160 moves each);
//! 2. a base budget, the clock's equal share over those moves plus most of the increment,
//!    with the overhead (`Move Overhead` plus the lag the protocol measured) kept in hand;
//! 3. a soft limit — start no iteration after it — which [`Pacer`] stretches while the best
//!    move is unstable or the score falls, and shrinks while it is stable;
//! 4. a hard limit, enforced by a watchdog thread ([`watchdog`]) as well as by the
//!    searchers' own checks every few hundred nodes.

use super::{Clock, Limits, MATE_BOUND};
pub use crate::games::GameLength;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What protocol round trips and process scheduling may cost per move unless the GUI sets
/// `Move Overhead`. The budget keeps this much in hand so that fast games (1 s + 0.01 s) are
/// never lost on time, also on a loaded machine where a process may wait tens of
/// milliseconds for a core.
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(50);
/// The largest `Move Overhead` a GUI may set, in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
/// Moves assumed left in a sudden-death game when nobody said how far the game is.
const HORIZON: u32 = 32;

/// Moves the side to move is expected still to play after `moves_made` of its own, in a game
/// of length `g` (the family's; two-player 2D games: the old fixed horizon of 32 early on,
/// down to 20 moves left by move 36).
pub fn expected_moves_left(g: GameLength, moves_made: u32) -> u32 {
    g.expected.saturating_sub(moves_made).clamp(g.floor, g.cap)
}
/// How often the watchdog looks at the clock and the stop flag.
const WATCHDOG_TICK: Duration = Duration::from_millis(1);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this much time.
    pub soft: Option<Duration>,
    /// Stop searching at this time, whatever the state of the search.
    pub hard: Option<Duration>,
}

impl Budget {
    pub const UNLIMITED: Budget = Budget {
        soft: None,
        hard: None,
    };
}

/// The budget for one move. `infinite` wins over everything; otherwise the tighter of a move
/// time and a clock applies.
pub fn budget(limits: &Limits) -> Budget {
    if limits.infinite {
        return Budget::UNLIMITED;
    }
    let mut b = Budget::UNLIMITED;
    let overhead = limits.move_overhead.unwrap_or(DEFAULT_MOVE_OVERHEAD);
    if let Some(mt) = limits.movetime {
        // A fixed time per move is there to be used: no time is saved for later moves, so
        // the search deepens until the deadline (an interrupted iteration keeps its best
        // move first, see `Worker::root`).
        let hard = mt.saturating_sub(overhead.min(mt / 4));
        b = Budget {
            soft: None,
            hard: Some(hard),
        };
    }
    if let Some(clock) = &limits.clock {
        let horizon = limits.moves_left.unwrap_or(HORIZON).max(1);
        let c = clock_budget(clock, overhead, horizon);
        b = Budget {
            soft: min_opt(b.soft, c.soft),
            hard: min_opt(b.hard, c.hard),
        };
    }
    b
}

fn min_opt(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// `base_overhead`: `Move Overhead`, to which the measured lag adds; `horizon`: the moves
/// expected left when the clock does not say.
fn clock_budget(clock: &Clock, base_overhead: Duration, horizon: u32) -> Budget {
    let left = clock.time_left;
    let inc = clock.increment;
    let overhead = base_overhead + clock.lag;
    if short_of_time(clock, overhead) {
        return short_budget(left, inc);
    }
    let usable = left.saturating_sub(overhead.min(left / 2));
    let moves = clock.moves_to_go.unwrap_or(horizon).clamp(1, horizon);
    // Spend an equal share of what is left plus most of the increment; when the clock runs
    // low the share shrinks with it and the increment carries the game.
    let share = usable / (moves + 1) + inc * 3 / 4;
    let cap = if moves == 1 {
        usable * 4 / 5
    } else {
        usable * 2 / 5
    };
    let soft = share.min(cap);
    // On the 3D boards an iteration costs many times the one before, so an iteration begun
    // just before the soft limit usually runs into the hard one: keep it near.
    let hard = (soft * 5 / 2).min(cap).max(soft);
    Budget {
        soft: Some(soft),
        hard: Some(hard),
    }
}

/// Below this the clock is always short: the reserve that absorbs a process stalled for a
/// few hundred milliseconds on a loaded machine.
const SHORT_FLOOR: Duration = Duration::from_millis(300);

/// Whether the clock is down to a few moves' worth of overhead and increment. Every move
/// then costs the process's latency on top of the thinking time, so the engine must think
/// for well under its increment or the clock drains move by move until the flag falls.
fn short_of_time(clock: &Clock, overhead: Duration) -> bool {
    // Stalls as long as the recent lag may come again: keep a few of them in hand.
    let reserve = ((overhead + clock.increment) * 3).max(SHORT_FLOOR);
    let last_move_of_period = clock.moves_to_go == Some(1);
    clock.time_left < reserve && !last_move_of_period
}

/// Short of time: an eighth of the increment, cut at a quarter, so that each move wins
/// back most of the increment even when a loaded machine doubles the wall time of the
/// search; without increment a fortieth of what is left.
fn short_budget(left: Duration, inc: Duration) -> Budget {
    let (soft, hard) = if inc.is_zero() {
        (left / 80, left / 40)
    } else {
        (inc / 8, inc / 4)
    };
    let hard = hard.min(left / 4);
    Budget {
        soft: Some(soft.min(hard)),
        hard: Some(hard),
    }
}

/// Decides after each finished iteration whether to start another, scaling the soft limit
/// by how settled the search looks (issue 40): a best move that has not changed for several
/// iterations needs less time (× 0.7), one that just changed more (× 1 + ½ per recent change,
/// the count halving every iteration), and a score that fell since the last iteration more
/// still (× 1 + drop / 150 cp, at most × 2). The product stays within × 0.5 … × 2.5; a
/// deeper iteration is begun only before 60 % of the scaled limit, since the next one takes
/// longer than all before it. The hard limit is not scaled: it stays the bound. Its timed
/// SPRT against a fixed scale of 1 is undecided so far (docs/strength-history.md).
pub struct Pacer<M> {
    soft: Option<Duration>,
    best: Option<M>,
    /// Iterations in a row that kept the best move.
    stable: u32,
    /// Recent best-move changes, halved every iteration.
    changes: f64,
    score: Option<i32>,
}

impl<M: PartialEq + Copy> Pacer<M> {
    pub fn new(soft: Option<Duration>) -> Self {
        Pacer {
            soft,
            best: None,
            stable: 0,
            changes: 0.0,
            score: None,
        }
    }

    /// An iteration ended after `elapsed` with `best` scored `score` (centipawns, mates as
    /// the search's mate scores): whether another one is worth starting.
    pub fn another_iteration(&mut self, elapsed: Duration, best: M, score: i32) -> bool {
        self.changes /= 2.0;
        match self.best {
            Some(b) if b == best => self.stable += 1,
            Some(_) => {
                self.stable = 0;
                self.changes += 1.0;
            }
            None => {}
        }
        self.best = Some(best);
        let drop = match self.score {
            Some(before) if before.abs() < MATE_BOUND && score.abs() < MATE_BOUND => {
                (before - score).max(0)
            }
            _ => 0,
        };
        self.score = Some(score);
        let Some(soft) = self.soft else { return true };
        elapsed < soft.mul_f64(0.6 * self.scale(drop))
    }

    /// The factor on the soft limit, see the type.
    fn scale(&self, drop: i32) -> f64 {
        let stability = if self.stable >= 4 {
            0.7
        } else {
            1.0 + 0.5 * self.changes
        };
        let falling = if drop >= 20 {
            1.0 + (drop as f64 / 150.0).min(1.0)
        } else {
            1.0
        };
        (stability * falling).clamp(0.5, 2.5)
    }
}

/// `start + after`, or a deadline no search reaches if that is beyond what the clock holds
/// (a GUI may send absurd times).
pub fn deadline(start: Instant, after: Duration) -> Instant {
    const YEAR: Duration = Duration::from_secs(365 * 24 * 3600);
    // A year from now always fits in an `Instant`.
    start.checked_add(after.min(YEAR)).unwrap_or(start)
}

/// Sets `halt` at `deadline` or as soon as `stop` is set, whichever comes first; returns
/// without doing anything once `halt` is set by someone else (the search ended). Run it on a
/// thread of its own beside a search: it stops the search on time even when a single node
/// takes long (3D boards, long move lists) or the search threads are starved of CPU.
pub fn watchdog(deadline: Instant, stop: &AtomicBool, halt: &AtomicBool) {
    loop {
        if halt.load(Ordering::Relaxed) {
            return;
        }
        let now = Instant::now();
        if now >= deadline || stop.load(Ordering::Relaxed) {
            halt.store(true, Ordering::Relaxed);
            return;
        }
        std::thread::sleep((deadline - now).min(WATCHDOG_TICK));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time_left: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                moves_to_go: mtg,
                opponent_time: None,
                lag: Duration::ZERO,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn infinite_and_plain_depth_have_no_deadline() {
        let inf = Limits {
            infinite: true,
            movetime: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        assert_eq!(budget(&inf), Budget::UNLIMITED);
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(budget(&depth), Budget::UNLIMITED);
    }

    #[test]
    fn move_time_keeps_the_overhead() {
        let b = budget(&Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..Limits::default()
        });
        assert_eq!(b.hard, Some(Duration::from_millis(950)));
        // The whole time is searched: no soft limit ends the deepening early.
        assert_eq!(b.soft, None);
    }

    #[test]
    fn every_clock_form_stays_inside_the_clock() {
        for (ms, inc, mtg) in [
            (1000, 10, None),
            (60, 10, None),
            (5, 10, None),
            (0, 0, None),
            (10_000, 100, None),
            (300_000, 0, Some(40)),
            (2_000, 0, Some(1)),
            (500, 0, Some(3)),
        ] {
            let b = budget(&clock(ms, inc, mtg));
            let left = Duration::from_millis(ms);
            let hard = b.hard.unwrap();
            let soft = b.soft.unwrap();
            assert!(soft <= hard, "{ms} {inc} {mtg:?}");
            assert!(
                hard + DEFAULT_MOVE_OVERHEAD.min(left / 2) <= left,
                "hard {hard:?} with {ms} ms left"
            );
        }
    }

    #[test]
    fn a_fast_game_spends_little_per_move() {
        let b = budget(&clock(1000, 10, None));
        assert!(b.soft.unwrap() < Duration::from_millis(50));
        assert!(b.hard.unwrap() < Duration::from_millis(200));
        // A long game with increment spends more per move.
        let slow = budget(&clock(10_000, 100, None));
        assert!(slow.soft.unwrap() > b.soft.unwrap() * 5);
    }

    #[test]
    fn short_of_time_the_engine_spends_well_under_its_increment() {
        for ms in [0, 5, 60, 150, 299] {
            let b = budget(&clock(ms, 10, None));
            assert!(
                b.hard.unwrap() <= Duration::from_millis(3),
                "{ms} ms left: {b:?}"
            );
        }
        // Above the floor the clock is spent as usual.
        let b = budget(&clock(600, 10, None));
        assert!(b.soft.unwrap() > Duration::from_millis(10));
        // Without increment the share shrinks with the clock.
        let b = budget(&clock(200, 0, None));
        assert_eq!(b.hard, Some(Duration::from_millis(5)));
    }

    #[test]
    fn the_watchdog_halts_at_the_deadline_or_on_stop_and_ends_with_the_search() {
        let (stop, halt) = (AtomicBool::new(false), AtomicBool::new(false));
        watchdog(Instant::now(), &stop, &halt);
        assert!(halt.load(Ordering::Relaxed));
        let halt = AtomicBool::new(false);
        stop.store(true, Ordering::Relaxed);
        watchdog(deadline(Instant::now(), Duration::MAX), &stop, &halt);
        assert!(halt.load(Ordering::Relaxed));
        // The search already ended (set `halt` itself): the watchdog returns at once.
        let stop = AtomicBool::new(false);
        watchdog(deadline(Instant::now(), Duration::MAX), &stop, &halt);
    }

    #[test]
    fn lag_seen_on_recent_moves_is_kept_in_hand() {
        let mut l = clock(1000, 10, None);
        let calm = budget(&l);
        l.clock.as_mut().unwrap().lag = Duration::from_millis(400);
        // A second on the clock is short when stalls of 0.4 s happen.
        assert!(budget(&l).hard.unwrap() <= Duration::from_millis(3));
        l.clock.as_mut().unwrap().time_left = Duration::from_millis(5000);
        assert!(budget(&l).soft.unwrap() > calm.soft.unwrap());
    }

    #[test]
    fn the_tighter_of_move_time_and_clock_applies() {
        let mut l = clock(100_000, 0, None);
        l.movetime = Some(Duration::from_millis(100));
        assert_eq!(budget(&l).hard, Some(Duration::from_millis(75)));
    }

    #[test]
    fn move_overhead_is_the_base_the_lag_adds_to() {
        let mut l = clock(10_000, 100, None);
        let default = budget(&l);
        l.move_overhead = Some(Duration::from_millis(1000));
        let careful = budget(&l);
        assert!(careful.soft.unwrap() < default.soft.unwrap());
        // With 500 ms of lag on top, 1.5 s per move is kept in hand: 4 s are short.
        l.clock.as_mut().unwrap().lag = Duration::from_millis(500);
        l.clock.as_mut().unwrap().time_left = Duration::from_millis(4000);
        assert!(budget(&l).hard.unwrap() <= Duration::from_millis(25));
        let mut mt = Limits {
            movetime: Some(Duration::from_millis(1000)),
            move_overhead: Some(Duration::from_millis(10)),
            ..Limits::default()
        };
        assert_eq!(budget(&mt).hard, Some(Duration::from_millis(990)));
        // A move time is never cut by more than a quarter.
        mt.move_overhead = Some(Duration::from_millis(5000));
        assert_eq!(budget(&mt).hard, Some(Duration::from_millis(750)));
    }

    #[test]
    fn four_player_armies_budget_for_their_long_games() {
        let length = |name: &str| {
            let v = crate::games::by_name(name).unwrap();
            crate::games::describe(v.family).game_length
        };
        let (aof, cwda) = (length("aof5"), length("chess"));
        assert_eq!(expected_moves_left(aof, 0), 160);
        assert_eq!(expected_moves_left(aof, 150), 40);
        assert_eq!(expected_moves_left(cwda, 0), 32);
        assert_eq!(expected_moves_left(cwda, 30), 26);
        assert_eq!(expected_moves_left(cwda, 100), 20);
        // 2 s + 0.02 s, simulated (no searching): each move takes 1.3 × its soft limit plus
        // 10 ms of lag. Budgeting for the long game keeps the clock spread over 60 moves and
        // more; the old fixed horizon of 32 ran the army short of time by then.
        let clock_after = |moves: u32, pace: bool| {
            let mut left = Duration::from_millis(2000);
            for made in 0..moves {
                let mut l = clock(left.as_millis() as u64, 20, None);
                l.moves_left = pace.then(|| expected_moves_left(aof, made));
                let soft = budget(&l).soft.unwrap();
                left = (left + Duration::from_millis(20))
                    .saturating_sub(soft.mul_f64(1.3) + Duration::from_millis(10));
                assert!(left > Duration::from_millis(100), "move {made}: {left:?}");
            }
            left
        };
        assert!(clock_after(60, true) > Duration::from_millis(500));
        assert!(clock_after(60, false) < Duration::from_millis(400));
        clock_after(200, true);
        let mut first = clock(2000, 20, None);
        first.moves_left = Some(160);
        assert!(budget(&first).hard.unwrap() < Duration::from_millis(80));
    }

    #[test]
    fn the_pacer_thinks_longer_on_unstable_moves_and_falling_scores() {
        let soft = Some(Duration::from_millis(100));
        let at = Duration::from_millis(70);
        // A move kept for four iterations: 50 ms is past 60 % of a 0.7-scaled limit.
        let mut stable = Pacer::new(soft);
        let go: Vec<bool> = (0..6)
            .map(|_| stable.another_iteration(Duration::from_millis(50), 1, 20))
            .collect();
        assert_eq!(go, [true, true, true, true, false, false]);
        // The best move changed in the last iteration: 70 ms is well inside.
        let mut changing = Pacer::new(soft);
        for (i, mv) in [1, 1, 2, 3].into_iter().enumerate() {
            let go = changing.another_iteration(at, mv, 20);
            assert_eq!(go, i >= 2, "iteration {i}");
        }
        // The same move, but its score fell by a pawn: more time.
        let mut falling = Pacer::new(soft);
        assert!(!falling.another_iteration(at, 1, 20));
        assert!(falling.another_iteration(at, 1, -80));
        // Without a clock there is nothing to pace.
        assert!(Pacer::new(None).another_iteration(Duration::from_secs(99), 1, 0));
    }
}
