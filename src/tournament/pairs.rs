//! The game pairs of a match between two engines: the results of both games of a pair are
//! joined into one pair score for the first engine (A), which feeds the pentanomial counts,
//! the Elo estimate and the SPRT ([`super::sprt`]). The lines printed here follow the shapes
//! cutechess-cli prints (`Score of A vs B: ...`, `Elo difference: ...`, `SPRT: llr ...`), which
//! tools of distributed testing frameworks already parse. Once the test has decided, the
//! state that decided it is kept ([`SprtOutcome`]): games still under way at the stop finish
//! and are reported, but they no longer move the test.

use super::elo::Record;
use super::sprt::{Decision, Pentanomial, SprtSettings};
use crate::records::record::GameRecord;
use std::collections::HashMap;

/// Pair bookkeeping for engine A (index 0) against engine B (index 1).
#[derive(Debug, Default)]
pub struct PairTracker {
    /// A's points in the first finished game of each unfinished pair.
    pending: HashMap<usize, f64>,
    pub pentanomial: Pentanomial,
    /// A's games one by one.
    pub games: Record,
    /// The test when it decided (None while it runs).
    pub stopped: Option<SprtOutcome>,
}

/// Where the test stands after some pairs: the pairs it saw, its LLR and what that means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtOutcome {
    pub settings: SprtSettings,
    pub pentanomial: Pentanomial,
    /// A's games when the pairs above were complete.
    pub games: u32,
    pub llr: f64,
    pub decision: Decision,
}

/// How a two-engine match ended, for the final report.
#[derive(Clone, Debug)]
pub struct PairReport {
    pub names: [String; 2],
    pub pentanomial: Pentanomial,
    pub games: Record,
    /// The test at its decision, or after the last pair if it never decided.
    pub sprt: Option<SprtOutcome>,
}

impl PairTracker {
    /// Records a finished game; true when it completes its pair.
    pub fn record(&mut self, game: &GameRecord) -> bool {
        let Some(a) = points_of(game, 0) else {
            return false;
        };
        self.games.add(match a {
            x if x > 0.75 => Record {
                wins: 1,
                ..Record::default()
            },
            x if x < 0.25 => Record {
                losses: 1,
                ..Record::default()
            },
            _ => Record {
                draws: 1,
                ..Record::default()
            },
        });
        let Some(pair) = game.spec.pair else {
            return false;
        };
        match self.pending.remove(&pair) {
            Some(first) => {
                self.pentanomial.add(((first + a) * 2.0).round() as usize);
                true
            }
            None => {
                self.pending.insert(pair, a);
                false
            }
        }
    }

    /// `Score of A vs B: W - L - D  [0.523] N`.
    pub fn score_line(&self, names: &[String; 2]) -> String {
        let g = self.games;
        let n = g.games();
        format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {n}",
            names[0],
            names[1],
            g.wins,
            g.losses,
            g.draws,
            if n == 0 { 0.5 } else { g.score() / n as f64 }
        )
    }

    /// The test on the pairs so far.
    pub fn outcome(&self, settings: &SprtSettings) -> SprtOutcome {
        let llr = self.pentanomial.llr(settings);
        SprtOutcome {
            settings: *settings,
            pentanomial: self.pentanomial,
            games: self.games.games(),
            llr,
            decision: settings.decide(llr),
        }
    }

    /// After a pair completes: the test's new state, and the state is kept once it decides.
    /// None after the decision: later pairs are no part of the test.
    pub fn update_test(&mut self, settings: &SprtSettings) -> Option<SprtOutcome> {
        if self.stopped.is_some() {
            return None;
        }
        let outcome = self.outcome(settings);
        if outcome.decision != Decision::Continue {
            self.stopped = Some(outcome);
        }
        Some(outcome)
    }

    /// The test as the end report shows it: at its decision, else on every pair.
    pub fn final_outcome(&self, settings: &SprtSettings) -> SprtOutcome {
        self.stopped.unwrap_or_else(|| self.outcome(settings))
    }
}

/// `x` with three decimals, never `-0.000`: a ratio that rounds to zero has no sign.
fn three_decimals(x: f64) -> String {
    // Adding 0.0 turns -0.0 into 0.0; rounding first catches -0.0004 too.
    format!("{:.3}", (x * 1000.0).round() / 1000.0 + 0.0)
}

impl SprtOutcome {
    /// `SPRT: llr 1.230 (41.8%), lbound -2.94, ubound 2.94, model logistic`: cutechess-cli's
    /// shape with the Elo model appended.
    pub fn line(&self) -> String {
        let (lo, hi) = self.settings.bounds();
        let llr = self.llr;
        let share = if llr >= 0.0 { llr / hi } else { llr / -lo };
        format!(
            "SPRT: llr {} ({:.1}%), lbound {lo:.2}, ubound {hi:.2}, model {}",
            three_decimals(llr),
            share * 100.0 + 0.0,
            self.settings.model
        )
    }
}

/// The points engine `e` scored in a game it played (None if it did not play).
fn points_of(game: &GameRecord, e: usize) -> Option<f64> {
    let seats: Vec<usize> = (0..game.spec.seats.len())
        .filter(|&s| game.spec.seats[s] == e)
        .collect();
    (!seats.is_empty()).then(|| seats.iter().map(|&s| game.scores[s]).sum())
}

impl PairReport {
    /// The end of a two-engine match: Elo from the pairs, the pentanomial counts, the test.
    pub fn summary(&self) -> String {
        let p = &self.pentanomial;
        let mut out = format!("Games: {}, pairs: {}\n", self.games.games(), p.pairs());
        match p.elo() {
            Some((elo, err)) => out.push_str(&format!(
                "Elo difference: {elo:+.1} +/- {err:.1} ({} vs {}, 95%, from pairs)\n",
                self.names[0], self.names[1]
            )),
            None => out.push_str("Elo difference: - (no complete pair)\n"),
        }
        let c = p.counts;
        out.push_str(&format!(
            "Pentanomial [LL, LD, DD+WL, WD, WW]: [{}, {}, {}, {}, {}]\n",
            c[0], c[1], c[2], c[3], c[4]
        ));
        if let Some(t) = &self.sprt {
            let (lo, hi) = t.settings.bounds();
            out.push_str(&format!(
                "SPRT ({}): llr {}, bounds [{lo:.2}, {hi:.2}], {} pairs: {}\n",
                t.settings,
                three_decimals(t.llr),
                t.pentanomial.pairs(),
                t.decision
            ));
            let late_games = self.games.games().saturating_sub(t.games);
            if late_games > 0 {
                let late = p.since(&t.pentanomial);
                let c = late.counts;
                out.push_str(&format!(
                    "Finished after the decision, not in the SPRT: {late_games} games, {} pairs [{}, {}, {}, {}, {}]\n",
                    late.pairs(),
                    c[0],
                    c[1],
                    c[2],
                    c[3],
                    c[4]
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_that_round_to_zero_are_printed_without_a_sign() {
        assert_eq!(three_decimals(-0.0004), "0.000");
        assert_eq!(three_decimals(-0.0), "0.000");
        assert_eq!(three_decimals(-0.0006), "-0.001");
        assert_eq!(three_decimals(2.9475), "2.948");
    }

    fn settings() -> SprtSettings {
        SprtSettings::parse(&["elo0=0 elo1=5".to_string()]).unwrap()
    }

    #[test]
    fn the_decision_that_stopped_the_match_is_the_one_reported() {
        let s = settings();
        let mut t = PairTracker::default();
        // 206 won pairs: not yet (llr 2.943); the 207th decides (llr 2.958).
        t.pentanomial.counts = [0, 0, 0, 0, 206];
        t.games.wins = 412;
        assert_eq!(t.update_test(&s).unwrap().decision, Decision::Continue);
        t.pentanomial.add(4);
        t.games.wins += 2;
        let stop = t.update_test(&s).unwrap();
        assert_eq!(stop.decision, Decision::AcceptH1);
        // Games under way at the stop finish: three lost pairs would have undone the decision.
        for _ in 0..3 {
            t.pentanomial.add(0);
            t.games.losses += 2;
        }
        assert_eq!(t.update_test(&s), None, "later pairs are not tested");
        assert_eq!(t.pentanomial.decision(&s), Decision::Continue);
        let report = PairReport {
            names: ["A".into(), "B".into()],
            pentanomial: t.pentanomial,
            games: t.games,
            sprt: Some(t.final_outcome(&s)),
        };
        let summary = report.summary();
        assert!(
            summary.contains(
                "SPRT (elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic): llr 2.958, \
                 bounds [-2.94, 2.94], 207 pairs: H1 accepted\n"
            ),
            "{summary}"
        );
        assert!(
            summary.contains(
                "Finished after the decision, not in the SPRT: 6 games, 3 pairs [3, 0, 0, 0, 0]\n"
            ),
            "{summary}"
        );
        assert!(summary.contains("Pentanomial [LL, LD, DD+WL, WD, WW]: [3, 0, 0, 0, 207]"));
    }

    #[test]
    fn an_undecided_test_reports_every_pair_and_its_model() {
        let s = SprtSettings::parse(&["elo0=0 elo1=5 model=normalized".to_string()]).unwrap();
        let mut t = PairTracker::default();
        t.pentanomial.counts = [1, 1, 12, 11, 22];
        let outcome = t.update_test(&s).unwrap();
        assert_eq!(t.final_outcome(&s), outcome);
        assert_eq!(
            outcome.line(),
            format!(
                "SPRT: llr {:.3} ({:.1}%), lbound -2.94, ubound 2.94, model normalized",
                outcome.llr,
                outcome.llr / 19f64.ln() * 100.0
            )
        );
        assert_eq!(outcome.decision, Decision::Continue);
    }
}
