//! The running count of a match, game by game, and its end-of-run report. `panoply match`
//! feeds it each game as it finishes and `panoply results` ([`super::merge`]) feeds it the
//! games read back from PGN files; both print the report [`MatchReport::summary`] writes, so
//! the two cannot drift apart.
//!
//! What a game moves: in a gauntlet of games of more than two seats, the candidate's score
//! bins and their test after every game ([`super::seat_gauntlet`]); between two engines, the
//! game pairs and their test after every completed pair ([`super::pairs`]).

use super::pairs::{PairReport, PairTracker};
use super::schedule::{candidate_alone, Mode};
use super::seat_gauntlet::SeatTracker;
use super::sprt::{Decision, SprtSettings};
use super::standings::{format_table, standings, EngineStanding};
use crate::records::record::GameRecord;

/// What the match has counted so far.
pub struct Tally {
    names: Vec<String>,
    mode: Mode,
    /// Whether any variant of the match seats the candidate alone.
    seat_gauntlet: bool,
    sprt: Option<SprtSettings>,
    pairs: PairTracker,
    seats: SeatTracker,
}

/// What counting one game said: the lines a verbose match prints after it, and whether the
/// test has decided with it.
pub struct Counted {
    pub lines: Vec<String>,
    pub decided: bool,
}

/// How a match ended: its games in schedule order, the table and the statistics.
pub struct MatchReport {
    pub games: Vec<GameRecord>,
    pub table: Vec<EngineStanding>,
    /// For a match of two engines: the pairs, Elo and the test, if one ran.
    pub pairs: Option<PairReport>,
    /// For a gauntlet of games of more than two seats: the candidate's score and test.
    pub seats: Option<SeatTracker>,
    /// The test the match ran (None without one, or in a shard, which does not test).
    pub sprt: Option<SprtSettings>,
}

impl Tally {
    /// `players[v]` is the seat count of variant v; `sprt` the test to run, if any.
    pub fn new(
        names: Vec<String>,
        mode: Mode,
        players: &[usize],
        sprt: Option<SprtSettings>,
    ) -> Tally {
        Tally {
            names,
            mode,
            seat_gauntlet: players.iter().any(|&p| candidate_alone(mode, p)),
            sprt,
            pairs: PairTracker::default(),
            seats: SeatTracker::new(players.iter().copied().max().unwrap_or(2)),
        }
    }

    /// Counts a finished game.
    pub fn count(&mut self, record: &GameRecord) -> Counted {
        let mut lines = Vec::new();
        let mut decided = false;
        if candidate_alone(self.mode, record.spec.seats.len()) {
            self.seats.record(record, 0);
            lines.push(self.seats.score_line(&self.names[0]));
            if let Some(outcome) = self.sprt.and_then(|s| self.seats.update_test(&s)) {
                lines.push(format!(
                    "SPRT: llr {:.3}, lbound {:.2}, ubound {:.2}",
                    outcome.llr,
                    outcome.settings.bounds().0,
                    outcome.settings.bounds().1
                ));
                decided = outcome.decision != Decision::Continue;
            }
        } else if self.names.len() == 2 {
            let completed = self.pairs.record(record);
            lines.push(self.pairs.score_line(&self.pair_names()));
            if let (true, Some(test), false) = (completed, &self.sprt, self.seat_gauntlet) {
                if let Some(outcome) = self.pairs.update_test(test) {
                    lines.push(outcome.line());
                    decided = outcome.decision != Decision::Continue;
                }
            }
        }
        Counted { lines, decided }
    }

    fn pair_names(&self) -> [String; 2] {
        [self.names[0].clone(), self.names[1].clone()]
    }

    /// The report on `games` (the games counted, in any order).
    pub fn report(self, mut games: Vec<GameRecord>) -> MatchReport {
        games.sort_by_key(|g| g.spec.number);
        let table = standings(&self.names, &games);
        let pairs = (self.names.len() == 2 && !self.seat_gauntlet).then(|| PairReport {
            names: self.pair_names(),
            pentanomial: self.pairs.pentanomial,
            games: self.pairs.games,
            sprt: self.sprt.map(|s| self.pairs.final_outcome(&s)),
        });
        MatchReport {
            games,
            table,
            pairs,
            seats: self.seat_gauntlet.then_some(self.seats),
            sprt: self.sprt,
        }
    }
}

impl MatchReport {
    /// The end of the match's output: the table, then the pair or seat statistics.
    pub fn summary(&self) -> String {
        let mut out = format_table(&self.table);
        if let Some(pairs) = &self.pairs {
            out.push_str(&pairs.summary());
        }
        if let Some(seats) = &self.seats {
            out.push_str(&seats.summary(&self.table[0].name, self.sprt.as_ref()));
        }
        out
    }
}
