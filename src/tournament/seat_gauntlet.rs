//! The gauntlet of a game of more than two seats: the candidate (the match's first engine)
//! alone in one seat, another engine in all the others, the seat rotated
//! ([`super::schedule`]). The candidate's score in a game is its points as the PGN records
//! them: a win 1, a loss 0, a draw the point shared among the armies still playing (1/4 each
//! of four, 1/3 of three, 1/2 of two), so equal strength scores 1/n in n seats. This file
//! keeps the candidate's per-game score bins, its mean with a 95% error, its score per seat,
//! and the sequential test on the bins ([`super::sprt::generalized_llr`]).
//!
//! Elo to score: by the multi-player logistic (Luce) model each engine has a strength
//! 10^(elo/400) and wins a game with probability its share of the strengths at the table, so
//! a candidate `elo` stronger than n − 1 equal opponents expects 1 / (1 + (n − 1) 10^(−elo/400))
//! — 1/n at 0 Elo, and for two seats the two-player logistic score. H0 and H1 then fix the
//! bins' mean at the shares of `elo0` and `elo1` (docs/testing.md, "Four-seat gauntlet").

use super::sprt::{generalized_llr, Constraint, Decision, EloModel, LlrError, SprtSettings};
use crate::records::record::GameRecord;

/// The candidate's possible scores in a game of up to four seats: a loss, a draw among four,
/// three or two armies, a win.
pub const SCORE_POINTS: [f64; 5] = [0.0, 0.25, 1.0 / 3.0, 0.5, 1.0];

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

/// The expected score of a candidate `elo` stronger than each of the other `seats − 1`.
pub fn expected_share(elo: f64, seats: usize) -> f64 {
    1.0 / (1.0 + (seats as f64 - 1.0) * 10f64.powf(-elo / 400.0))
}

/// The Elo advantage that expects score `share` in `seats` seats (the inverse of
/// [`expected_share`]).
pub fn elo_of_share(share: f64, seats: usize) -> f64 {
    400.0 * ((seats as f64 - 1.0) * share / (1.0 - share)).log10()
}

/// The test as it stands after some games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatSprtOutcome {
    pub settings: SprtSettings,
    pub counts: [u64; 5],
    pub llr: f64,
    pub decision: Decision,
}

/// Why the four-seat test cannot run.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatTestError {
    /// Only logistic Elo has a score per seat count defined here.
    Model(EloModel),
    Llr(LlrError),
}

impl std::fmt::Display for SeatTestError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            SeatTestError::Model(m) => write!(
                f,
                "the gauntlet of more than two seats tests logistic Elo only, not model={m}"
            ),
            SeatTestError::Llr(e) => write!(f, "{e}"),
        }
    }
}

/// The candidate's results, game by game.
#[derive(Clone, Debug)]
pub struct SeatTracker {
    pub seats: usize,
    /// Games per bin of [`SCORE_POINTS`].
    pub counts: [u64; 5],
    /// Per seat: games the candidate played there and the points it scored.
    pub by_seat: Vec<(u32, f64)>,
    /// The test when it decided (None while it runs).
    pub stopped: Option<SeatSprtOutcome>,
}

impl SeatTracker {
    pub fn new(seats: usize) -> SeatTracker {
        SeatTracker {
            seats,
            counts: [0; 5],
            by_seat: vec![(0, 0.0); seats],
            stopped: None,
        }
    }

    /// Records a game of this many seats in which engine `candidate` sat alone; false for
    /// any other game.
    pub fn record(&mut self, game: &GameRecord, candidate: usize) -> bool {
        let seats = &game.spec.seats;
        let mine: Vec<usize> = (0..seats.len())
            .filter(|&s| seats[s] == candidate)
            .collect();
        if seats.len() != self.seats || mine.len() != 1 {
            return false;
        }
        let points = game.scores[mine[0]];
        let bin = (0..SCORE_POINTS.len())
            .min_by(|&i, &j| {
                (SCORE_POINTS[i] - points)
                    .abs()
                    .total_cmp(&(SCORE_POINTS[j] - points).abs())
            })
            .expect("bins");
        self.counts[bin] += 1;
        let seat = &mut self.by_seat[mine[0]];
        seat.0 += 1;
        seat.1 += points;
        true
    }

    pub fn games(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The candidate's mean score and the half-width of its 95% interval (None without games).
    pub fn score(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let weighted = |f: &dyn Fn(f64) -> f64| -> f64 {
            SCORE_POINTS
                .iter()
                .zip(self.counts)
                .map(|(&a, c)| c as f64 * f(a))
                .sum::<f64>()
                / n
        };
        let mean = weighted(&|a| a);
        let var = weighted(&|a| (a - mean).powi(2));
        Some((mean, Z95 * (var / n).sqrt()))
    }

    /// The LLR of H1 against H0 on the bins so far (0 without games).
    pub fn llr(&self, s: &SprtSettings) -> Result<f64, SeatTestError> {
        if s.model != EloModel::Logistic {
            return Err(SeatTestError::Model(s.model));
        }
        if self.games() == 0 {
            return Ok(0.0);
        }
        generalized_llr(
            &SCORE_POINTS,
            &self.counts,
            Constraint::Mean(expected_share(s.elo0, self.seats)),
            Constraint::Mean(expected_share(s.elo1, self.seats)),
        )
        .map_err(SeatTestError::Llr)
    }

    /// After a game: the test's new state, kept once it decides (None after the decision).
    pub fn update_test(&mut self, s: &SprtSettings) -> Option<SeatSprtOutcome> {
        if self.stopped.is_some() {
            return None;
        }
        let llr = self.llr(s).unwrap_or(f64::NAN);
        let outcome = SeatSprtOutcome {
            settings: *s,
            counts: self.counts,
            llr,
            decision: s.decide(llr),
        };
        if outcome.decision != Decision::Continue {
            self.stopped = Some(outcome);
        }
        Some(outcome)
    }

    /// `Score of A in one seat of 4: 31.2% +/- 6.0% (equal 25.0%), Elo +33 [W 5, D 10, L 9] 24`.
    pub fn score_line(&self, candidate: &str) -> String {
        let c = self.counts;
        let draws: u64 = c[1..4].iter().sum();
        let equal = 100.0 / self.seats as f64;
        let score = match self.score() {
            Some((mean, err)) => format!(
                "{:.1}% +/- {:.1}% (equal {equal:.1}%), Elo {:+.0}",
                mean * 100.0,
                err * 100.0,
                elo_of_share(mean, self.seats)
            ),
            None => format!("- (equal {equal:.1}%)"),
        };
        format!(
            "Score of {candidate} in one seat of {}: {score} [W {}, D {draws}, L {}] {}",
            self.seats,
            c[4],
            c[0],
            self.games()
        )
    }

    /// The end report: the score, the bins, the score per seat and the test.
    pub fn summary(&self, candidate: &str, sprt: Option<&SprtSettings>) -> String {
        let c = self.counts;
        let mut out = format!("{}\n", self.score_line(candidate));
        out.push_str(&format!(
            "Score bins [0, 1/4, 1/3, 1/2, 1]: [{}, {}, {}, {}, {}]\n",
            c[0], c[1], c[2], c[3], c[4]
        ));
        let per_seat: Vec<String> = self
            .by_seat
            .iter()
            .enumerate()
            .map(|(s, &(g, p))| format!("seat {}: {p:.2}/{g}", s + 1))
            .collect();
        out.push_str(&format!("By seat: {}\n", per_seat.join(", ")));
        if let Some(s) = sprt {
            let t = self.stopped;
            let llr = t.map_or_else(|| self.llr(s).unwrap_or(f64::NAN), |t| t.llr);
            let (lo, hi) = s.bounds();
            out.push_str(&format!(
                "SPRT ({s}, score {:.4} against {:.4}): llr {llr:.3}, bounds [{lo:.2}, {hi:.2}], {} games: {}\n",
                expected_share(s.elo1, self.seats),
                expected_share(s.elo0, self.seats),
                t.map_or(self.games(), |t| t.counts.iter().sum()),
                s.decide(llr)
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::record::{GameSpec, Termination};

    fn game(seats: Vec<usize>, scores: Vec<f64>) -> GameRecord {
        GameRecord {
            spec: GameSpec {
                number: 1,
                variant: "aof5".into(),
                seats,
                start: None,
                opening: Vec::new(),
                pair: None,
            },
            engine_names: Vec::new(),
            seat_names: Vec::new(),
            seat_symbols: Vec::new(),
            start_position: String::new(),
            moves: Vec::new(),
            scores,
            termination: Termination::Normal,
            reason: String::new(),
        }
    }

    #[test]
    fn elo_translates_to_a_share_of_the_table() {
        assert!((expected_share(0.0, 4) - 0.25).abs() < 1e-12);
        assert!((expected_share(0.0, 3) - 1.0 / 3.0).abs() < 1e-12);
        // Two seats: the two-player logistic score.
        assert!(
            (expected_share(100.0, 2) - crate::tournament::sprt::expected_score(100.0)).abs()
                < 1e-12
        );
        // 400 Elo: ten times each opponent's strength, 10 / 13 of the wins.
        assert!((expected_share(400.0, 4) - 10.0 / 13.0).abs() < 1e-12);
        assert!((elo_of_share(expected_share(57.0, 4), 4) - 57.0).abs() < 1e-9);
    }

    #[test]
    fn scores_fall_in_bins_by_seat() {
        let mut t = SeatTracker::new(4);
        assert!(t.record(&game(vec![0, 1, 1, 1], vec![1.0, 0.0, 0.0, 0.0]), 0));
        assert!(t.record(&game(vec![1, 0, 1, 1], vec![0.25; 4]), 0));
        // A draw after one army was checkmated: 1/3 each of the three still playing.
        let third = 1.0 / 3.0;
        assert!(t.record(&game(vec![1, 1, 0, 1], vec![third, 0.0, third, third]), 0));
        assert!(t.record(&game(vec![1, 1, 1, 0], vec![0.0, 1.0, 0.0, 0.0]), 0));
        // Not a game with the candidate alone.
        assert!(!t.record(&game(vec![0, 1, 0, 1], vec![0.25; 4]), 0));
        assert!(!t.record(&game(vec![0, 1], vec![1.0, 0.0]), 0));
        assert_eq!(t.counts, [1, 1, 1, 0, 1]);
        assert_eq!(t.by_seat[0], (1, 1.0));
        assert_eq!(t.by_seat[2].0, 1);
        assert_eq!(t.by_seat[3], (1, 0.0));
        let (mean, err) = t.score().unwrap();
        let expect = (1.0 + 0.25 + third) / 4.0;
        assert!((mean - expect).abs() < 1e-12);
        let var = [1.0, 0.25, third, 0.0]
            .iter()
            .map(|a: &f64| (a - expect).powi(2))
            .sum::<f64>()
            / 4.0;
        assert!((err - Z95 * (var / 4.0).sqrt()).abs() < 1e-12);
        assert!(t
            .score_line("Cand")
            .starts_with("Score of Cand in one seat of 4: 39.6% +/- "));
    }

    fn settings(model: EloModel) -> SprtSettings {
        SprtSettings {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    #[test]
    fn the_test_accepts_a_strong_candidate_and_rejects_an_equal_one() {
        let s = settings(EloModel::Logistic);
        // A candidate that wins 40% of its games, loses 45%, draws the rest four ways.
        let mut strong = SeatTracker::new(4);
        let mut decided = None;
        for g in 0..400 {
            let points = match g % 20 {
                0..=7 => 1.0,
                8..=16 => 0.0,
                _ => 0.25,
            };
            let mut scores = vec![(1.0 - points) / 3.0; 4];
            scores[g % 4] = points;
            let mut seats = vec![1; 4];
            seats[g % 4] = 0;
            strong.record(&game(seats, scores), 0);
            if let Some(o) = strong.update_test(&s) {
                if o.decision != Decision::Continue {
                    decided = Some((g + 1, o.decision));
                }
            }
        }
        let (games, decision) = decided.unwrap();
        assert_eq!(decision, Decision::AcceptH1);
        assert!(games < 400, "{games}");
        assert_eq!(
            strong.stopped.unwrap().counts.iter().sum::<u64>(),
            games as u64
        );
        // One a quarter of a time: wins 20%, loses 70%, draws 10%; H0 within 400 games.
        let mut equal = SeatTracker::new(4);
        let mut last = Decision::Continue;
        for g in 0..400 {
            let points = match g % 10 {
                0 | 1 => 1.0,
                2..=8 => 0.0,
                _ => 0.25,
            };
            equal.record(
                &game(vec![0, 1, 1, 1], vec![points, 0.0, 0.0, 1.0 - points]),
                0,
            );
            if let Some(o) = equal.update_test(&s) {
                last = o.decision;
            }
        }
        assert_eq!(last, Decision::AcceptH0);
        // The bins' LLR is the generalised one, and only the logistic model is offered.
        let llr = equal.stopped.unwrap().llr;
        assert!(llr <= s.bounds().0);
        assert_eq!(
            SeatTracker::new(4).llr(&settings(EloModel::Normalized)),
            Err(SeatTestError::Model(EloModel::Normalized))
        );
    }
}
