//! Playing below full strength (`Skill Level`, `UCI_LimitStrength` + `UCI_Elo`). A level
//! weakens the engine the way players find natural: a smaller search (a node limit) and,
//! now and then, a deliberate choice of a near-best move instead of the best one. Both grow
//! as the level falls:
//!
//! | level | nodes | mistake chance | largest loss |
//! |------:|------:|---------------:|-------------:|
//! | 0     | 400   | 70 %           | 700 cp       |
//! | 4     | 2.6 k | 56 %           | 300 cp       |
//! | 10    | 44 k  | 35 %           | 210 cp       |
//! | 19    | 3.0 M | 3.5 %          | 75 cp        |
//! | 20    | full strength                        |
//!
//! The loss is measured by the engine's own MultiPV scores of the last finished iteration:
//! from level 4 up no move is played that scores more than 3 pawns below the best; a move
//! into a mate against the engine is never chosen when the best move avoids it (its loss is
//! beyond every limit). The choice is drawn from a generator seeded by the position and the
//! level, so a position always gets the same move at the same level (repeatable tests and
//! matches that still vary from position to position). Analysis (`go infinite`,
//! `UCI_AnalyseMode`) is always at full strength.

use super::{Score, MATE};
use crate::random::Rng;

/// The strongest level: full strength.
pub const MAX_LEVEL: f64 = 20.0;
/// Levels and the Elo they measured (docs/strength-levels.md: chess, 100 ms a move, against
/// Fairy-Stockfish's `UCI_Elo` settings, 100 games each, about ±70 at 95 %). `UCI_Elo` is read
/// off this table, linearly between its points: the levels are not evenly spaced in Elo (8 to
/// 16 lie close together), so a straight scale would promise strengths they do not have.
const CALIBRATION: [(f64, i64); 6] = [
    (0.0, 940),
    (4.0, 1420),
    (8.0, 1840),
    (12.0, 1980),
    (16.0, 2050),
    (20.0, 2370),
];
pub const MIN_ELO: i64 = CALIBRATION[0].1;
pub const MAX_ELO: i64 = CALIBRATION[CALIBRATION.len() - 1].1;
/// Root moves scored (MultiPV lines) to choose a mistake from.
pub const CANDIDATES: usize = 5;

/// A playing level from 0 (weakest) to 20 (full strength); fractions come from `UCI_Elo`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level(f64);

impl Level {
    pub const FULL: Level = Level(MAX_LEVEL);

    pub fn new(level: f64) -> Level {
        Level(level.clamp(0.0, MAX_LEVEL))
    }

    /// The level a `UCI_Elo` stands for on the calibrated scale.
    pub fn from_elo(elo: i64) -> Level {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let segment = CALIBRATION
            .windows(2)
            .find(|pair| elo <= pair[1].1)
            .unwrap_or(&CALIBRATION[CALIBRATION.len() - 2..]);
        let ((low_level, low_elo), (high_level, high_elo)) = (segment[0], segment[1]);
        let fraction = (elo - low_elo) as f64 / (high_elo - low_elo) as f64;
        Level::new(low_level + fraction * (high_level - low_level))
    }

    pub fn is_full(self) -> bool {
        self.0 >= MAX_LEVEL
    }

    /// The largest search: 400 nodes at level 0, 1.6 times more per level.
    pub fn node_limit(self) -> Option<u64> {
        (!self.is_full()).then(|| (400.0 * 1.6f64.powf(self.0)) as u64)
    }

    /// How often a move other than the best is played: 70 % at level 0, falling evenly to
    /// nothing at full strength.
    pub fn mistake_chance(self) -> f64 {
        0.7 * (MAX_LEVEL - self.0) / MAX_LEVEL
    }

    /// The largest loss (centipawns, by the engine's own score) a chosen mistake may cost:
    /// 300 at level 4 down to 75 at level 19 (15 per level), and up to 700 below level 4.
    pub fn largest_loss(self) -> i32 {
        if self.0 >= 4.0 {
            (300.0 - 15.0 * (self.0 - 4.0)) as i32
        } else {
            (300.0 + 100.0 * (4.0 - self.0)) as i32
        }
    }

    /// The move to play among root moves scored by the same iteration, best first (MultiPV
    /// order): the index of the chosen one. `seed` makes the choice repeatable.
    pub fn choose(self, scores: &[Score], seed: u64) -> usize {
        if self.is_full() || scores.len() < 2 {
            return 0;
        }
        let mut rng = Rng::new(seed ^ self.0.to_bits());
        if rng.unit_f64() >= self.mistake_chance() {
            return 0;
        }
        let best = centipawns(scores[0]);
        let limit = self.largest_loss();
        // Smaller losses are likelier: weight = limit - loss + 1.
        let weights: Vec<(usize, i64)> = scores
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, &s)| (i, i64::from(limit) - i64::from(best - centipawns(s)) + 1))
            .filter(|&(_, w)| w > 0)
            .collect();
        let total: i64 = weights.iter().map(|w| w.1).sum();
        if total <= 0 {
            return 0;
        }
        let mut pick = (rng.unit_f64() * total as f64) as i64;
        for (i, w) in weights {
            if pick < w {
                return i;
            }
            pick -= w;
        }
        0
    }
}

/// Scores on one scale: mates as far beyond any material score as the search puts them.
fn centipawns(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - 2 * n,
        Score::Mate(n) => -MATE - 2 * n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_elo_scale_maps_onto_the_levels() {
        assert_eq!(Level::from_elo(MIN_ELO), Level::new(0.0));
        assert_eq!(Level::from_elo(MAX_ELO), Level::FULL);
        // Between two calibrated points, linearly: 1910 is halfway from level 8 to level 12.
        assert_eq!(Level::from_elo(1910), Level::new(10.0));
        assert_eq!(Level::from_elo(1420), Level::new(4.0));
        assert_eq!(Level::from_elo(100), Level::new(0.0));
        let levels: Vec<f64> = (MIN_ELO..=MAX_ELO).map(|e| Level::from_elo(e).0).collect();
        assert!(
            levels.windows(2).all(|w| w[0] <= w[1]),
            "the scale rises with the Elo"
        );
        assert!(Level::FULL.node_limit().is_none());
        assert_eq!(Level::new(0.0).node_limit(), Some(400));
        assert_eq!(Level::new(4.0).largest_loss(), 300);
        assert_eq!(Level::new(19.0).largest_loss(), 75);
        assert_eq!(Level::new(0.0).largest_loss(), 700);
    }

    #[test]
    fn mistakes_grow_as_the_level_falls_and_stay_within_the_largest_loss() {
        let scores = [
            Score::Cp(50),
            Score::Cp(30),
            Score::Cp(-100),
            Score::Cp(-400),
            Score::Mate(-3),
        ];
        let played = |level: f64| -> Vec<usize> {
            (0..2000u64)
                .map(|seed| Level::new(level).choose(&scores, seed))
                .collect()
        };
        let mistakes = |v: &[usize]| v.iter().filter(|&&i| i != 0).count();
        let (low, mid, high) = (played(1.0), played(10.0), played(19.0));
        assert!(mistakes(&low) > mistakes(&mid) && mistakes(&mid) > mistakes(&high));
        assert!(mistakes(&high) > 0);
        // From level 4 up nothing 3 pawns worse; never the mate, at any level.
        assert!(played(4.0).iter().all(|&i| i <= 2));
        assert!(low.iter().all(|&i| i != 4));
        assert!(Level::FULL.choose(&scores, 7) == 0);
        // Repeatable: the same seed, the same move.
        assert_eq!(played(5.0), played(5.0));
    }
}
