//! Time controls and the chess clock of one seat.
//!
//! Text forms (seconds may have decimals, `m:ss` is accepted for the base):
//! - `10+0.1`: 10 s for the game, 0.1 s added after each move;
//! - `40/60+0.5`: 60 s for every 40 moves, plus 0.5 s per move;
//! - `st=0.2`: a fixed 0.2 s per move;
//! - `nodes=20000`: a fixed number of nodes per move (UCI `go nodes`), for comparisons that
//!   do not depend on the machine's load.

use std::fmt;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// `moves` per period (None: the whole game), `base` per period, `increment` per move.
    Clock {
        moves: Option<u32>,
        base: Duration,
        increment: Duration,
    },
    /// A fixed time for every move.
    PerMove(Duration),
    /// A fixed number of nodes for every move; the clock only catches a hung engine.
    Nodes(u64),
}

/// In fixed-node games an engine forfeits only when it takes this long plus a microsecond
/// per ten nodes (a floor of 100k nodes per second): it has hung, not thought.
const NODE_GAME_GRACE: Duration = Duration::from_secs(10);

/// The deadline of one move of a fixed-node game.
fn node_deadline(nodes: u64) -> Duration {
    NODE_GAME_GRACE + Duration::from_micros(nodes.saturating_mul(10))
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControlError(pub String);

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "bad time control '{}' (examples: 10+0.1, 40/60+0.5, st=0.2, nodes=20000)",
            self.0
        )
    }
}

impl std::error::Error for TimeControlError {}

fn seconds(text: &str) -> Option<Duration> {
    let secs = match text.split_once(':') {
        Some((m, s)) => m.parse::<u64>().ok()? as f64 * 60.0 + s.parse::<f64>().ok()?,
        None => text.parse::<f64>().ok()?,
    };
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs))
}

impl TimeControl {
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let err = || TimeControlError(text.to_string());
        let t = text.trim();
        if let Some(nodes) = t.strip_prefix("nodes=") {
            let n = nodes
                .parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(err)?;
            return Ok(TimeControl::Nodes(n));
        }
        if let Some(per_move) = t.strip_prefix("st=") {
            let d = seconds(per_move).filter(|d| !d.is_zero()).ok_or_else(err)?;
            return Ok(TimeControl::PerMove(d));
        }
        let (moves, rest) = match t.split_once('/') {
            Some((m, rest)) => (
                Some(m.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(err)?),
                rest,
            ),
            None => (None, t),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b).ok_or_else(err)?, seconds(i).ok_or_else(err)?),
            None => (seconds(rest).ok_or_else(err)?, Duration::ZERO),
        };
        if base.is_zero() && increment.is_zero() {
            return Err(err());
        }
        Ok(TimeControl::Clock {
            moves,
            base,
            increment,
        })
    }

    /// The PGN `TimeControl` tag value.
    pub fn pgn_tag(&self) -> String {
        let s = |d: Duration| format!("{}", d.as_secs_f64());
        match *self {
            TimeControl::PerMove(d) => format!("{}/move", s(d)),
            // PGN has no form for a node budget: "-" is "no time control".
            TimeControl::Nodes(_) => "-".into(),
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => {
                let mut out = String::new();
                if let Some(m) = moves {
                    out.push_str(&format!("{m}/"));
                }
                out.push_str(&s(base));
                if !increment.is_zero() {
                    out.push_str(&format!("+{}", s(increment)));
                }
                out
            }
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TimeControl::PerMove(d) => write!(f, "st={}", d.as_secs_f64()),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            _ => write!(f, "{}", self.pgn_tag()),
        }
    }
}

/// The clock of one seat.
#[derive(Clone, Debug)]
pub struct Clock {
    pub control: TimeControl,
    pub remaining: Duration,
    moves_made: u32,
}

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        let remaining = match control {
            TimeControl::Clock { base, .. } => base,
            TimeControl::PerMove(d) => d,
            TimeControl::Nodes(n) => node_deadline(n),
        };
        Clock {
            control,
            remaining,
            moves_made: 0,
        }
    }

    /// The longest the seat may think now (before the referee's grace margin).
    pub fn budget(&self) -> Duration {
        self.remaining
    }

    /// Moves left until the next time control, if the control has periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.control {
            TimeControl::Clock { moves: Some(m), .. } => Some(m - self.moves_made % m),
            _ => None,
        }
    }

    pub fn increment(&self) -> Duration {
        match self.control {
            TimeControl::Clock { increment, .. } => increment,
            TimeControl::PerMove(_) | TimeControl::Nodes(_) => Duration::ZERO,
        }
    }

    /// Charges a move that took `used`; false if the flag fell (more than the time left plus
    /// `margin`).
    pub fn charge(&mut self, used: Duration, margin: Duration) -> bool {
        if used > self.remaining + margin {
            self.remaining = Duration::ZERO;
            return false;
        }
        self.moves_made += 1;
        match self.control {
            TimeControl::PerMove(d) => self.remaining = d,
            TimeControl::Nodes(n) => self.remaining = node_deadline(n),
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => {
                self.remaining = self.remaining.saturating_sub(used) + increment;
                if moves.is_some_and(|m| self.moves_made.is_multiple_of(m)) {
                    self.remaining += base;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_the_three_forms() {
        assert_eq!(
            TimeControl::parse("40/60+0.5").unwrap(),
            TimeControl::Clock {
                moves: Some(40),
                base: ms(60_000),
                increment: ms(500)
            }
        );
        assert_eq!(
            TimeControl::parse("1:30+0.1").unwrap(),
            TimeControl::Clock {
                moves: None,
                base: ms(90_000),
                increment: ms(100)
            }
        );
        assert_eq!(
            TimeControl::parse("st=0.2").unwrap(),
            TimeControl::PerMove(ms(200))
        );
        for bad in ["", "abc", "0", "40/", "x/10", "10+y", "st=0", "-5"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn increments_and_periods_refill_the_clock() {
        let mut c = Clock::new(TimeControl::parse("2/1+0.5").unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(ms(400), ms(0)));
        assert_eq!(c.remaining, ms(1100));
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(ms(100), ms(0)));
        // second move of the period: increment plus a new period's base
        assert_eq!(c.remaining, ms(2500));
        assert!(!c.charge(ms(2600), ms(50)));
        assert_eq!(c.remaining, ms(0));
    }

    #[test]
    fn the_margin_forgives_a_small_overrun() {
        let mut c = Clock::new(TimeControl::parse("st=0.1").unwrap());
        assert!(c.charge(ms(120), ms(50)));
        assert_eq!(c.remaining, ms(100));
    }
}
