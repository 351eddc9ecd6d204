//! Time management: turns the limits a protocol passes (a fixed move time, a chess clock in
//! any of its forms, or nothing) into a soft budget — do not start another iteration after
//! it — and a hard deadline that the search checks every few thousand nodes.

use super::{Clock, Limits};
use std::time::Duration;

/// What protocol round trips and process scheduling may cost per move. The budget keeps this
/// much in hand so that fast games (1 s + 0.01 s) are never lost on time.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(30);
/// Moves assumed left in a sudden-death game.
const HORIZON: u32 = 32;

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
        let hard = mt.saturating_sub(MOVE_OVERHEAD.min(mt / 4));
        b = Budget {
            soft: Some(hard),
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
    let usable = left.saturating_sub(MOVE_OVERHEAD.min(left / 2));
    let moves = clock.moves_to_go.unwrap_or(HORIZON).clamp(1, HORIZON);
    // Spend an equal share of what is left plus most of the increment; when the clock runs
    // low the share shrinks with it and the increment carries the game.
    let share = usable / (moves + 1) + clock.increment * 3 / 4;
    let cap = if moves == 1 {
        usable * 4 / 5
    } else {
        usable * 2 / 5
    };
    let soft = share.min(cap);
    let hard = (soft * 4).min(cap).max(soft);
    Budget {
        soft: Some(soft),
        hard: Some(hard),
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
        assert_eq!(b.hard, Some(Duration::from_millis(970)));
        assert!(b.soft <= b.hard);
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
    fn the_tighter_of_move_time_and_clock_applies() {
        let mut l = clock(100_000, 0, None);
        l.movetime = Some(Duration::from_millis(100));
        assert_eq!(budget(&l).hard, Some(Duration::from_millis(75)));
    }
}
