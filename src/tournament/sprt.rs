//! Sequential probability ratio test on game pairs, as the distributed testing frameworks run
//! it. Both games of a pair start from the same opening with colours swapped; the pair's
//! score for engine A (0, ½, 1, 1½ or 2 points) falls in one of five bins (the pentanomial
//! counts), which removes the opening's bias from the variance. Hypotheses are logistic Elo
//! differences: H0 `elo0`, H1 `elo1`. After every pair the log-likelihood ratio is
//! approximated from the mean and variance of the pair scores (a generalised SPRT):
//! LLR = N (s1 − s0)(2 μ − s0 − s1) / (2 σ²), with s0, s1 the expected pair scores of the two
//! hypotheses, μ and σ² the observed mean and variance per pair, N the pairs. The test accepts
//! H1 when LLR ≥ ln((1 − β)/α), H0 when LLR ≤ ln(β/(1 − α)).

use super::elo::elo_from_score;
use std::fmt;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

/// The test's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSettings {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SprtSettingsError(pub String);

impl fmt::Display for SprtSettingsError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "bad SPRT setting '{}' (expected e.g. elo0=0 elo1=5 alpha=0.05 beta=0.05)",
            self.0
        )
    }
}

impl std::error::Error for SprtSettingsError {}

impl SprtSettings {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; alpha and beta default to 0.05).
    pub fn parse(words: &[String]) -> Result<SprtSettings, SprtSettingsError> {
        let mut s = SprtSettings {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in words.iter().flat_map(|w| w.split_whitespace()) {
            let bad = || SprtSettingsError(word.to_string());
            let (key, value) = word.split_once('=').ok_or_else(bad)?;
            let v: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(bad)?;
            match key {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" if v > 0.0 && v < 0.5 => s.alpha = v,
                "beta" if v > 0.0 && v < 0.5 => s.beta = v,
                _ => return Err(bad()),
            }
        }
        if s.elo0.is_nan() || s.elo1.is_nan() {
            return Err(SprtSettingsError("elo0 and elo1 are both needed".into()));
        }
        if s.elo1 <= s.elo0 {
            return Err(SprtSettingsError(format!(
                "elo1={} must be above elo0={}",
                s.elo1, s.elo0
            )));
        }
        Ok(s)
    }

    /// (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
}

/// Pair scores for engine A: `counts[i]` pairs scored i half-points (LL, LD, DD or WL, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Continue,
    /// H1: A is at least `elo1` stronger.
    AcceptH1,
    /// H0: A is at most `elo0` stronger.
    AcceptH0,
}

impl Pentanomial {
    /// Adds a pair worth `half_points` (0..=4) to A.
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean and variance of the pair score as a fraction of the pair's two points.
    fn moments(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let x = |i: usize| i as f64 / 4.0;
        let mean = (0..5).map(|i| self.counts[i] as f64 * x(i)).sum::<f64>() / n;
        let var = (0..5)
            .map(|i| self.counts[i] as f64 * (x(i) - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }

    /// The log-likelihood ratio of H1 against H0 (0 until the pairs differ).
    pub fn llr(&self, s: &SprtSettings) -> f64 {
        let Some((mean, var)) = self.moments() else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = expected_score(s.elo0);
        let s1 = expected_score(s.elo1);
        self.pairs() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn decision(&self, s: &SprtSettings) -> Decision {
        let llr = self.llr(s);
        let (lower, upper) = s.bounds();
        if llr >= upper {
            Decision::AcceptH1
        } else if llr <= lower {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }

    /// A's Elo advantage and its 95% error bar, from the pairs (None without pairs; an
    /// infinite difference when every pair was won or lost).
    pub fn elo(&self) -> Option<(f64, f64)> {
        let (mean, var) = self.moments()?;
        let half = Z95 * (var / self.pairs() as f64).sqrt();
        let lo = (mean - half).max(0.0);
        let hi = (mean + half).min(1.0);
        Some((
            elo_from_score(mean) + 0.0,
            (elo_from_score(hi) - elo_from_score(lo)) / 2.0,
        ))
    }
}

/// The expected score of a side `elo` logistic Elo stronger.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Decision::Continue => "no decision yet",
            Decision::AcceptH1 => "H1 accepted",
            Decision::AcceptH0 => "H0 accepted",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> SprtSettings {
        SprtSettings::parse(&["elo0=0 elo1=5 alpha=0.05 beta=0.05".to_string()]).unwrap()
    }

    #[test]
    fn bounds_follow_from_the_error_rates() {
        let (lo, hi) = settings().bounds();
        assert!((lo - (0.05f64 / 0.95).ln()).abs() < 1e-12);
        assert!((hi - 19f64.ln()).abs() < 1e-12);
        assert!((hi - 2.944).abs() < 1e-3 && (lo + 2.944).abs() < 1e-3);
    }

    #[test]
    fn llr_matches_a_hand_calculation() {
        // Counts [5, 20, 50, 20, 5] are symmetric: mean 0.5, so
        // LLR = N (s1 - s0)(1 - s0 - s1) / (2 var).
        let p = Pentanomial {
            counts: [5, 20, 50, 20, 5],
        };
        let n = 100.0;
        let var = (5.0 * 0.25 + 20.0 * 0.0625 + 20.0 * 0.0625 + 5.0 * 0.25) / n;
        let s0 = 0.5;
        let s1 = 1.0 / (1.0 + 10f64.powf(-5.0 / 400.0));
        let expected = n * (s1 - s0) * (1.0 - s0 - s1) / (2.0 * var);
        assert!((p.llr(&settings()) - expected).abs() < 1e-9);
        assert!(p.llr(&settings()) < 0.0, "an even score leans to H0");
        // A clear winner: 60% of pair points.
        let w = Pentanomial {
            counts: [2, 10, 40, 30, 18],
        };
        assert!(w.llr(&settings()) > 0.0);
    }

    #[test]
    fn a_strong_lead_is_accepted_and_a_loss_rejected() {
        let s = settings();
        let win = Pentanomial {
            counts: [10, 60, 200, 120, 60],
        };
        assert_eq!(win.decision(&s), Decision::AcceptH1);
        let lose = Pentanomial {
            counts: [60, 120, 200, 60, 10],
        };
        assert_eq!(lose.decision(&s), Decision::AcceptH0);
        let few = Pentanomial {
            counts: [0, 1, 2, 1, 0],
        };
        assert_eq!(few.decision(&s), Decision::Continue);
    }

    #[test]
    fn elo_of_pairs() {
        let even = Pentanomial {
            counts: [5, 20, 50, 20, 5],
        };
        let (elo, err) = even.elo().unwrap();
        assert_eq!(elo, 0.0);
        assert!(err > 0.0 && err < 60.0, "{err}");
        // Mean 0.6 -> 70.4 Elo.
        let ahead = Pentanomial {
            counts: [0, 0, 60, 40, 0],
        };
        let (elo, _) = ahead.elo().unwrap();
        assert!((elo - 70.44).abs() < 0.05, "{elo}");
        assert_eq!(Pentanomial::default().elo(), None);
    }

    #[test]
    fn settings_are_checked() {
        let bad = |s: &str| SprtSettings::parse(&[s.to_string()]).is_err();
        assert!(bad("elo0=5 elo1=0"));
        assert!(bad("elo0=0"));
        assert!(bad("elo0=0 elo1=5 alpha=2"));
        assert!(bad("elo0=0 elo1=5 gamma=0.1"));
        assert!(bad("elo0=x elo1=5"));
        let s = SprtSettings::parse(&["elo0=-1".into(), "elo1=4".into()]).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.0, 4.0, 0.05, 0.05));
    }
}
