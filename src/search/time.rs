//! Time management: turns the limits a protocol passes (a fixed move time, a chess clock in
//! any of its forms, or nothing) into a soft budget — do not start another iteration after
//! it — and a hard deadline, enforced by a watchdog thread ([`watchdog`]) as well as by the
//! searchers' own checks every few hundred nodes.

use super::{Clock, Limits};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What protocol round trips and process scheduling may cost per move. The budget keeps this
/// much in hand so that fast games (1 s + 0.01 s) are never lost on time, also on a loaded
/// machine where a process may wait tens of milliseconds for a core.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(50);
/// Moves assumed left in a sudden-death game.
const HORIZON: u32 = 32;
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
    if let Some(mt) = limits.movetime {
        // A fixed time per move is there to be used: no time is saved for later moves, so
        // the search deepens until the deadline (an interrupted iteration keeps its best
        // move first, see `Worker::root`).
        let hard = mt.saturating_sub(MOVE_OVERHEAD.min(mt / 4));
        b = Budget {
            soft: None,
            hard: Some(hard),
        };
    }
    if let Some(clock) = &limits.clock {
        let c = clock_budget(clock);
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

fn clock_budget(clock: &Clock) -> Budget {
    let left = clock.time_left;
    let inc = clock.increment;
    if short_of_time(clock) {
        return short_budget(left, inc);
    }
    let overhead = MOVE_OVERHEAD.max(clock.lag);
    let usable = left.saturating_sub(overhead.min(left / 2));
    let moves = clock.moves_to_go.unwrap_or(HORIZON).clamp(1, HORIZON);
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
fn short_of_time(clock: &Clock) -> bool {
    // Stalls as long as the recent lag may come again: keep a few of them in hand.
    let reserve = ((MOVE_OVERHEAD.max(clock.lag) + clock.increment) * 3).max(SHORT_FLOOR);
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
                hard + MOVE_OVERHEAD.min(left / 2) <= left,
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
}
