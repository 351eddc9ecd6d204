//! The clocks of a two-player game on the board: a time control (base time and increment per
//! move) chosen when the game starts, each side's remaining time with the side to move's clock
//! running, and what a flag fall means: a loss, unless the side left could never checkmate
//! (docs/serve.md, "Clocks"). Times are passed in as `Instant`s so that the rules are tested
//! without waiting.

use crate::bitboard::BitSet;
use crate::game::{Game, Outcome};
use crate::piece::Player;
use crate::search::Clock;
use crate::session::GameVisitor;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The longest base time or increment accepted: a day.
const MAX_MS: u64 = 24 * 3600 * 1000;

/// Base time and increment per move, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSettings {
    pub base_ms: u64,
    pub increment_ms: u64,
}

impl ClockSettings {
    /// A control from the page's `{"base": ms, "increment": ms}`; the error is one line.
    pub fn from_json(v: &Value) -> Result<ClockSettings, String> {
        let field = |name: &str| match &v[name] {
            Value::Null if name == "increment" => Ok(0),
            n => n
                .as_u64()
                .filter(|&ms| ms <= MAX_MS)
                .ok_or_else(|| format!("clock '{name}' must be a whole number of ms up to a day")),
        };
        let control = ClockSettings {
            base_ms: field("base")?,
            increment_ms: field("increment")?,
        };
        if control.base_ms == 0 {
            return Err("clock 'base' must be more than 0 ms".into());
        }
        Ok(control)
    }

    pub fn to_json(self) -> Value {
        json!({ "base": self.base_ms, "increment": self.increment_ms })
    }
}

/// Both sides' clocks. At most one runs: the side to move's, while the game goes on.
#[derive(Clone, Debug, PartialEq)]
pub struct Clocks {
    pub control: ClockSettings,
    remaining_ms: [u64; 2],
    /// The side whose clock runs, and since when.
    running: Option<(usize, Instant)>,
}

impl Clocks {
    pub fn new(control: ClockSettings) -> Clocks {
        Clocks::resumed(control, [control.base_ms; 2])
    }

    /// Clocks stopped at the times a kept game had.
    pub fn resumed(control: ClockSettings, remaining_ms: [u64; 2]) -> Clocks {
        Clocks {
            control,
            remaining_ms,
            running: None,
        }
    }

    /// What `side` has left at `now`, its running time taken off.
    pub fn remaining(&self, side: usize, now: Instant) -> Duration {
        let left = Duration::from_millis(self.remaining_ms[side]);
        match self.running {
            Some((s, since)) if s == side => {
                left.saturating_sub(now.saturating_duration_since(since))
            }
            _ => left,
        }
    }

    /// Both sides' times at `now`, in ms.
    pub fn remaining_ms(&self, now: Instant) -> [u64; 2] {
        [0, 1].map(|s| self.remaining(s, now).as_millis() as u64)
    }

    pub fn running(&self) -> Option<usize> {
        self.running.map(|(s, _)| s)
    }

    /// Stops the running clock at `now`; after a move (`moved`) its side gets the increment,
    /// unless its flag has fallen.
    pub fn stop(&mut self, now: Instant, moved: bool) {
        let Some((side, _)) = self.running else {
            return;
        };
        let left = self.remaining(side, now).as_millis() as u64;
        self.remaining_ms[side] = if moved && left > 0 {
            left + self.control.increment_ms
        } else {
            left
        };
        self.running = None;
    }

    /// Starts `side`'s clock at `now` (the running one is stopped first, without increment).
    pub fn start(&mut self, side: usize, now: Instant) {
        self.stop(now, false);
        self.running = Some((side, now));
    }

    /// The side whose flag has fallen at `now`: its clock runs and shows zero.
    pub fn flagged(&self, now: Instant) -> Option<usize> {
        self.running()
            .filter(|&side| self.remaining(side, now).is_zero())
    }

    /// The search's clock for `side` to move: its time and increment, the opponent's time.
    pub fn search_clock(&self, side: usize, now: Instant) -> Clock {
        Clock {
            time_left: self.remaining(side, now),
            increment: Duration::from_millis(self.control.increment_ms),
            opponent_time: Some(self.remaining(1 - side, now)),
            ..Clock::default()
        }
    }

    /// For the page, which counts the running clock down itself between answers.
    pub fn to_json(&self, now: Instant) -> Value {
        json!({
            "base": self.control.base_ms,
            "increment": self.control.increment_ms,
            "remaining": self.remaining_ms(now),
            "running": self.running(),
        })
    }
}

/// The result when `flagged`'s time runs out: the other side wins, or the game is drawn if
/// the other side could not checkmate by any series of legal moves.
pub fn flag_outcome(flagged: usize, winner_can_mate: bool) -> Outcome {
    if winner_can_mate {
        Outcome::Win {
            winner: Player(1 - flagged as u8),
            reason: "time forfeit".into(),
        }
    } else {
        Outcome::Draw {
            reason: "timeout against insufficient material".into(),
        }
    }
}

/// Whether `player` has anything that could ever checkmate: the rule judges that a side
/// with only royal pieces (a bare King, on the board and in hand) cannot, and that any other
/// piece could, with the opponent's help, as the laws of chess count a flag fall.
pub struct CanMate {
    pub player: usize,
}

impl GameVisitor for CanMate {
    type Output = bool;
    fn visit<B: BitSet>(self, g: &Game<B>) -> bool {
        let t = &g.tables;
        let player = Player(self.player as u8);
        let on_board = t.shape.all_cells().any(|c| {
            g.pos
                .piece_at(c)
                .is_some_and(|p| p.player() == player && !t.variant.pieces[p.kind().index()].royal)
        });
        let in_hand = t.variant.drops.as_ref().is_some_and(|d| {
            d.hand_order
                .iter()
                .any(|&k| !t.variant.pieces[k.index()].royal && g.pos.hand(player, k) > 0)
        });
        on_board || in_hand
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(base_ms: u64, increment_ms: u64) -> ClockSettings {
        ClockSettings {
            base_ms,
            increment_ms,
        }
    }

    #[test]
    fn the_running_clock_is_charged_and_the_mover_gets_the_increment() {
        let t0 = Instant::now();
        let mut c = Clocks::new(control(5000, 1000));
        c.start(0, t0);
        assert_eq!(
            c.remaining_ms(t0 + Duration::from_millis(1500)),
            [3500, 5000]
        );
        c.stop(t0 + Duration::from_millis(1500), true);
        c.start(1, t0 + Duration::from_millis(1500));
        assert_eq!(
            c.remaining_ms(t0 + Duration::from_millis(2000)),
            [4500, 4500]
        );
        assert_eq!(c.running(), Some(1));
        assert_eq!(c.flagged(t0 + Duration::from_millis(5999)), None);
        assert_eq!(c.flagged(t0 + Duration::from_millis(6500)), Some(1));
    }

    #[test]
    fn a_fallen_flag_gets_no_increment() {
        let t0 = Instant::now();
        let mut c = Clocks::new(control(1000, 3000));
        c.start(0, t0);
        c.stop(t0 + Duration::from_secs(2), true);
        assert_eq!(c.remaining_ms(t0 + Duration::from_secs(2)), [0, 1000]);
    }

    #[test]
    fn the_search_gets_the_real_clock() {
        let t0 = Instant::now();
        let mut c = Clocks::resumed(control(60_000, 2000), [30_000, 45_000]);
        c.start(1, t0);
        let clock = c.search_clock(1, t0 + Duration::from_millis(500));
        assert_eq!(clock.time_left, Duration::from_millis(44_500));
        assert_eq!(clock.increment, Duration::from_millis(2000));
        assert_eq!(clock.opponent_time, Some(Duration::from_millis(30_000)));
    }

    #[test]
    fn controls_from_the_page_are_checked() {
        let ok = ClockSettings::from_json(&json!({"base": 300000, "increment": 3000}));
        assert_eq!(ok, Ok(control(300_000, 3000)));
        assert_eq!(
            ClockSettings::from_json(&json!({"base": 2000})),
            Ok(control(2000, 0))
        );
        assert!(ClockSettings::from_json(&json!({"base": 0})).is_err());
        assert!(ClockSettings::from_json(&json!({"base": "5 min"})).is_err());
        assert!(ClockSettings::from_json(&json!({"increment": 3})).is_err());
    }

    #[test]
    fn a_flag_fall_loses_unless_the_other_side_is_bare() {
        assert_eq!(
            flag_outcome(0, true),
            Outcome::Win {
                winner: Player(1),
                reason: "time forfeit".into()
            }
        );
        assert!(matches!(flag_outcome(1, false), Outcome::Draw { .. }));
    }
}
