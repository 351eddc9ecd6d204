//! How much longer the engine's moves take on the GUI's clock than on its own: pipes,
//! process start-up of each search and, on a loaded machine, waiting for a core. The
//! difference shows in the clock the GUI sends with the next move; the largest recent one
//! becomes [`crate::search::Clock::lag`], which the time budget keeps in hand.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How many moves' differences are remembered.
const WINDOW: usize = 16;

#[derive(Default)]
pub struct LagMeter {
    /// The clock and increment of the move being thought on, and when it was asked for.
    asked: Option<(Duration, Duration, Instant)>,
    /// The clock the GUI should show at our next move if it saw what we saw, once our move
    /// is sent.
    expected: Option<Duration>,
    recent: VecDeque<Duration>,
}

impl LagMeter {
    /// A new game: earlier moves say nothing about the next clock.
    pub fn clear(&mut self) {
        *self = LagMeter::default();
    }

    /// A move is asked for with `left` on our clock: records how far the clock fell behind
    /// what we expected since our last move, and returns the largest recent difference.
    pub fn asked(&mut self, left: Duration, increment: Duration, at: Instant) -> Duration {
        if let Some(expected) = self.expected.take() {
            if self.recent.len() == WINDOW {
                self.recent.pop_front();
            }
            self.recent.push_back(expected.saturating_sub(left));
        }
        self.asked = Some((left, increment, at));
        self.lag()
    }

    /// Our move was sent now.
    pub fn answered(&mut self) {
        self.answered_at(Instant::now());
    }

    /// Our move was sent at `sent`.
    fn answered_at(&mut self, sent: Instant) {
        if let Some((left, increment, at)) = self.asked.take() {
            let spent = sent.saturating_duration_since(at);
            self.expected = Some(left.saturating_sub(spent).saturating_add(increment));
        }
    }

    /// The largest difference of the recent moves.
    pub fn lag(&self) -> Duration {
        self.recent.iter().copied().max().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_clock_falling_behind_our_own_count_is_lag() {
        let mut m = LagMeter::default();
        let t0 = Instant::now();
        assert_eq!(m.asked(ms(1000), ms(10), t0), Duration::ZERO);
        // 200 ms by our own count.
        m.answered_at(t0 + ms(200));
        // We expected 1000 - 200 + 10 = 810 ms; the GUI says 700.
        assert_eq!(m.asked(ms(700), ms(10), t0 + ms(300)), ms(110));
        m.answered_at(t0 + ms(310));
        // A clock ahead of our count is no lag; the largest recent one is kept.
        assert!(m.asked(ms(5000), ms(10), Instant::now()) >= ms(110));
        m.clear();
        assert_eq!(m.lag(), Duration::ZERO);
    }

    #[test]
    fn a_move_never_answered_is_not_counted() {
        let mut m = LagMeter::default();
        m.asked(ms(1000), ms(0), Instant::now());
        // No answer (the search was stopped by `force`, say): the next clock is not compared.
        assert_eq!(m.asked(ms(10), ms(0), Instant::now()), Duration::ZERO);
    }
}
