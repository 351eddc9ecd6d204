//! The game pairs of a match between two engines: the results of both games of a pair are
//! joined into one pair score for the first engine (A), which feeds the pentanomial counts,
//! the Elo estimate and the SPRT ([`super::sprt`]). The lines printed here follow the shapes
//! cutechess-cli prints (`Score of A vs B: ...`, `Elo difference: ...`, `SPRT: llr ...`), which
//! tools of distributed testing frameworks already parse.

use super::elo::Record;
use super::record::GameRecord;
use super::sprt::{Decision, Pentanomial, SprtSettings};
use std::collections::HashMap;

/// Pair bookkeeping for engine A (index 0) against engine B (index 1).
#[derive(Debug, Default)]
pub struct PairTracker {
    /// A's points in the first finished game of each unfinished pair.
    pending: HashMap<usize, f64>,
    pub pentanomial: Pentanomial,
    /// A's games one by one.
    pub games: Record,
}

/// How a two-engine match ended, for the final report.
#[derive(Clone, Debug)]
pub struct PairReport {
    pub names: [String; 2],
    pub pentanomial: Pentanomial,
    pub games: Record,
    pub sprt: Option<(SprtSettings, f64, Decision)>,
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

    /// `SPRT: llr 1.23 (41.8%), lbound -2.94, ubound 2.94`.
    pub fn sprt_line(&self, s: &SprtSettings) -> String {
        let llr = self.pentanomial.llr(s);
        let (lo, hi) = s.bounds();
        let share = if llr >= 0.0 { llr / hi } else { llr / -lo };
        format!(
            "SPRT: llr {llr:.3} ({:.1}%), lbound {lo:.2}, ubound {hi:.2}",
            share * 100.0
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
        if let Some((s, llr, decision)) = &self.sprt {
            let (lo, hi) = s.bounds();
            out.push_str(&format!(
                "SPRT (elo0={} elo1={} alpha={} beta={}): llr {llr:.3}, bounds [{lo:.2}, {hi:.2}]: {decision}\n",
                s.elo0, s.elo1, s.alpha, s.beta
            ));
        }
        out
    }
}
