//! Sequential probability ratio test (the generalised SPRT of fishtest and fastchess) on the
//! score distribution of a match. Both games of a pair start from the same opening with
//! colours swapped; the pair's score for engine A (0, ½, 1, 1½ or 2 points) falls in one of
//! five bins (the pentanomial counts), which removes the opening's bias from the variance.
//!
//! The hypotheses are H0: A is `elo0` stronger, H1: A is `elo1` stronger, in one of two Elo
//! models ([`EloModel`]): logistic Elo fixes the expected score, normalised Elo fixes the
//! t-value (score − ½) / σ. After every pair the log-likelihood ratio is computed exactly:
//! under each hypothesis the maximum-likelihood distribution of the bins is found (a Lagrange
//! multiplier solves the constraint), and LLR = N Σ p̂ᵢ ln(p1ᵢ / p0ᵢ) with p̂ the observed
//! frequencies, empty bins counted as 0.001 observations. The test accepts H1 when
//! LLR ≥ ln((1 − β)/α), H0 when LLR ≤ ln(β/(1 − α)). [`generalized_llr`] works on any bins
//! (per-game, per-pair, other score steps), so other match formats can reuse it. The
//! derivation and the independent reference values are in docs/sprt.md.

use super::elo::elo_from_score;
use std::fmt;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

/// The weight an empty bin is given, in observations: without it the likelihood of a result
/// never seen yet would be zero and a one-sided record (every pair won) could never decide.
/// fishtest and fastchess use the same value.
pub const EMPTY_BIN_WEIGHT: f64 = 1e-3;

/// Normalised Elo per unit of t-value per game, 800 / ln 10: near zero, one normalised Elo
/// is then one logistic Elo for a side that never draws.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// A pair's score as a fraction of its two points, bin by bin.
pub const PAIR_POINTS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The largest normalised Elo a hypothesis may state: far beyond any test that needs a
/// sequential test, and small enough that the fixed-point iteration for the t-value always
/// starts inside its domain (see docs/sprt.md).
pub const NORMALIZED_ELO_LIMIT: f64 = 100.0;

/// Newton steps allowed for one Lagrange multiplier (it converges in well under 50).
const MULTIPLIER_STEPS: usize = 200;
/// Fixed-point rounds allowed for one t-value fit (it settles in about 10).
const T_VALUE_ROUNDS: usize = 200;

/// How an Elo difference translates into a property of the score distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// The expected score is 1 / (1 + 10^(−elo/400)); the default, and the meaning of the
    /// bounds of every SPRT in the project's history.
    Logistic,
    /// The t-value per game (score − ½) / σ is elo / (800 / ln 10): a fixed normalised Elo
    /// costs the same number of games whatever the draw rate (fishtest's default).
    Normalized,
}

impl EloModel {
    pub fn name(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }

    /// The constraint a hypothesis of `elo` puts on bins whose samples are each the mean
    /// score of `games_per_sample` games (1 for game bins, 2 for pairs). A sample that
    /// averages k games has a standard deviation √k times smaller than one game's, as
    /// fishtest reckons it for pairs, so its t-value is √k times the per-game one.
    pub fn constraint(self, elo: f64, games_per_sample: f64) -> Constraint {
        match self {
            EloModel::Logistic => Constraint::Mean(expected_score(elo)),
            EloModel::Normalized => Constraint::TValue {
                reference: 0.5,
                t: elo / NELO_PER_T * games_per_sample.sqrt(),
            },
        }
    }
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a hypothesis fixes about the true score distribution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Constraint {
    /// The expected score.
    Mean(f64),
    /// (mean − reference) / standard deviation.
    TValue { reference: f64, t: f64 },
}

/// Why no likelihood ratio could be computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LlrError {
    /// Points and counts differ in length, or there are fewer than two bins.
    Shape,
    /// No distribution on these points satisfies the hypothesis (e.g. a mean outside them).
    Unreachable,
    /// The t-value fit did not settle.
    NoConvergence,
}

impl fmt::Display for LlrError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            LlrError::Shape => "score bins need two or more points, one count each",
            LlrError::Unreachable => "no score distribution on these bins meets the hypothesis",
            LlrError::NoConvergence => "the maximum-likelihood fit did not converge",
        })
    }
}

impl std::error::Error for LlrError {}

/// The generalised log-likelihood ratio of H1 against H0 for observed score bins: `counts[i]`
/// samples scored `points[i]` (ascending fractions of the sample's points). Empty bins count
/// [`EMPTY_BIN_WEIGHT`] observations; N is the total so regularised.
pub fn generalized_llr(
    points: &[f64],
    counts: &[u64],
    h0: Constraint,
    h1: Constraint,
) -> Result<f64, LlrError> {
    if points.len() != counts.len() || points.len() < 2 {
        return Err(LlrError::Shape);
    }
    let weights: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { EMPTY_BIN_WEIGHT } else { c as f64 })
        .collect();
    let n: f64 = weights.iter().sum();
    let observed: Vec<f64> = weights.iter().map(|w| w / n).collect();
    let p0 = maximum_likelihood(points, &observed, h0)?;
    let p1 = maximum_likelihood(points, &observed, h1)?;
    let per_sample: f64 = (0..points.len())
        .map(|i| observed[i] * (p1[i] / p0[i]).ln())
        .sum();
    Ok(n * per_sample)
}

/// The distribution on `points` under `constraint` most likely to have produced the
/// frequencies `observed` (all positive).
pub fn maximum_likelihood(
    points: &[f64],
    observed: &[f64],
    constraint: Constraint,
) -> Result<Vec<f64>, LlrError> {
    match constraint {
        Constraint::Mean(mean) => mle_with_mean(points, observed, mean),
        Constraint::TValue { reference, t } => mle_with_t_value(points, observed, reference, t),
    }
}

/// Maximising Σ p̂ᵢ ln pᵢ subject to Σ pᵢ = 1 and Σ pᵢ aᵢ = s gives pᵢ = p̂ᵢ / (1 + x (aᵢ − s))
/// with the multiplier x the root of Σ p̂ᵢ (aᵢ − s) / (1 + x (aᵢ − s)) = 0.
fn mle_with_mean(points: &[f64], observed: &[f64], mean: f64) -> Result<Vec<f64>, LlrError> {
    let shifted: Vec<f64> = points.iter().map(|a| a - mean).collect();
    let x = lagrange_multiplier(&shifted, observed, 0.0)?;
    Ok(tilted(&shifted, observed, x))
}

/// The t-value constraint is not linear in p: its Lagrange conditions are those of a mean
/// constraint whose shifts depend on the solution's own mean and σ, so they are solved by
/// fixed-point rounds from the uniform distribution until the distribution stops moving.
fn mle_with_t_value(
    points: &[f64],
    observed: &[f64],
    reference: f64,
    t: f64,
) -> Result<Vec<f64>, LlrError> {
    let mut fit = vec![1.0 / points.len() as f64; points.len()];
    // Successive rounds' multipliers are close: each round's Newton steps start from the last.
    let mut x = 0.0;
    for _ in 0..T_VALUE_ROUNDS {
        let (mean, var) = mean_and_variance(points, &fit);
        let sigma = var.sqrt();
        let shifted: Vec<f64> = points
            .iter()
            .map(|&a| a - reference - t * sigma * (1.0 + ((mean - a) / sigma).powi(2)) / 2.0)
            .collect();
        x = lagrange_multiplier(&shifted, observed, x)?;
        let next = tilted(&shifted, observed, x);
        let moved = next
            .iter()
            .zip(&fit)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        fit = next;
        // Rounding keeps a fit with near-empty bins moving by about 1e-12 a round for ever;
        // at 1e-11 the LLR of a million pairs is still right to 1e-5.
        if moved < 1e-11 {
            break;
        }
    }
    let (mean, var) = mean_and_variance(points, &fit);
    if ((mean - reference) / var.sqrt() - t).abs() > 1e-8 {
        return Err(LlrError::NoConvergence);
    }
    Ok(fit)
}

fn tilted(shifted: &[f64], observed: &[f64], x: f64) -> Vec<f64> {
    shifted
        .iter()
        .zip(observed)
        .map(|(c, p)| p / (1.0 + x * c))
        .collect()
}

/// The root x of f(x) = Σ pᵢ cᵢ / (1 + x cᵢ) = 0 with every 1 + x cᵢ > 0. f falls strictly
/// from +∞ to −∞ between −1/max c and −1/min c, so the root is unique; Newton steps find it,
/// kept inside a shrinking bracket (a step that would leave it bisects instead). The root can
/// lie within 1e-9 of an end of its interval (an empty bin pulled up to half the mass), so
/// the iteration runs to the last bit rather than to a tolerance. It starts from `guess` if
/// that is inside the interval, else from 0.
fn lagrange_multiplier(shifted: &[f64], probs: &[f64], guess: f64) -> Result<f64, LlrError> {
    let lowest = shifted.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = shifted.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lowest < 0.0 && highest > 0.0) {
        return Err(LlrError::Unreachable);
    }
    let (mut below, mut above) = (-1.0 / highest, -1.0 / lowest);
    let mut x = if guess > below && guess < above {
        guess
    } else {
        0.0
    };
    for _ in 0..MULTIPLIER_STEPS {
        // f(x) and f'(x), or which end x has rounded onto (a factor 1 + x c not positive).
        let mut value = 0.0;
        let mut slope = 0.0;
        let mut outside = None;
        for (&c, &p) in shifted.iter().zip(probs) {
            let q = 1.0 + x * c;
            if q <= 0.0 {
                outside = Some(c > 0.0);
                break;
            }
            value += p * c / q;
            slope -= p * c * c / (q * q);
        }
        let next = match outside {
            Some(at_lower_end) => {
                if at_lower_end {
                    below = x;
                } else {
                    above = x;
                }
                0.5 * (below + above)
            }
            None => {
                if value == 0.0 {
                    return Ok(x);
                }
                if value > 0.0 {
                    below = x;
                } else {
                    above = x;
                }
                let newton = x - value / slope;
                if newton > below && newton < above {
                    newton
                } else {
                    0.5 * (below + above)
                }
            }
        };
        if next == x || (next - x).abs() <= 2.0 * f64::EPSILON * x.abs() {
            return Ok(next);
        }
        x = next;
    }
    Ok(x)
}

fn mean_and_variance(points: &[f64], probs: &[f64]) -> (f64, f64) {
    let mean: f64 = points.iter().zip(probs).map(|(a, p)| a * p).sum();
    let var: f64 = points
        .iter()
        .zip(probs)
        .map(|(a, p)| p * (a - mean).powi(2))
        .sum();
    (mean, var)
}

/// The test's hypotheses, error rates and Elo model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSettings {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

/// A `--sprt` setting that cannot be used.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtSettingsError {
    /// A word that is not `key=value`.
    NotKeyValue(String),
    UnknownKey(String),
    NotANumber {
        key: String,
        value: String,
    },
    /// alpha or beta outside (0, 0.5).
    RateOutOfRange {
        key: String,
        value: f64,
    },
    UnknownModel(String),
    MissingElo,
    ElosOutOfOrder {
        elo0: f64,
        elo1: f64,
    },
    /// A normalised-Elo hypothesis beyond ±[`NORMALIZED_ELO_LIMIT`].
    NormalizedEloTooLarge(f64),
}

impl fmt::Display for SprtSettingsError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SprtSettingsError::NotKeyValue(w) => write!(
                f,
                "'{w}' is not key=value (expected e.g. elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic)"
            ),
            SprtSettingsError::UnknownKey(k) => write!(
                f,
                "unknown setting '{k}' (expected elo0, elo1, alpha, beta or model)"
            ),
            SprtSettingsError::NotANumber { key, value } => {
                write!(f, "{key}={value}: '{value}' is not a finite number")
            }
            SprtSettingsError::RateOutOfRange { key, value } => {
                write!(f, "{key}={value} must be above 0 and below 0.5")
            }
            SprtSettingsError::UnknownModel(m) => write!(
                f,
                "unknown model '{m}' (expected model=logistic or model=normalized)"
            ),
            SprtSettingsError::MissingElo => write!(f, "elo0 and elo1 are both needed"),
            SprtSettingsError::ElosOutOfOrder { elo0, elo1 } => {
                write!(f, "elo1={elo1} must be above elo0={elo0}")
            }
            SprtSettingsError::NormalizedEloTooLarge(elo) => write!(
                f,
                "{elo} normalized Elo is beyond the supported ±{NORMALIZED_ELO_LIMIT}"
            ),
        }
    }
}

impl std::error::Error for SprtSettingsError {}

impl SprtSettings {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic` (any order; alpha and beta
    /// default to 0.05, the model to logistic).
    pub fn parse(words: &[String]) -> Result<SprtSettings, SprtSettingsError> {
        let mut elo0 = None;
        let mut elo1 = None;
        let mut s = SprtSettings {
            elo0: 0.0,
            elo1: 0.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        for word in words.iter().flat_map(|w| w.split_whitespace()) {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtSettingsError::NotKeyValue(word.to_string()))?;
            let number = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| SprtSettingsError::NotANumber {
                        key: key.to_string(),
                        value: value.to_string(),
                    })
            };
            let rate = || {
                let v = number()?;
                if v > 0.0 && v < 0.5 {
                    Ok(v)
                } else {
                    Err(SprtSettingsError::RateOutOfRange {
                        key: key.to_string(),
                        value: v,
                    })
                }
            };
            match key {
                "elo0" => elo0 = Some(number()?),
                "elo1" => elo1 = Some(number()?),
                "alpha" => s.alpha = rate()?,
                "beta" => s.beta = rate()?,
                "model" => {
                    s.model = match value {
                        "logistic" => EloModel::Logistic,
                        "normalized" => EloModel::Normalized,
                        _ => return Err(SprtSettingsError::UnknownModel(value.to_string())),
                    }
                }
                _ => return Err(SprtSettingsError::UnknownKey(key.to_string())),
            }
        }
        let (Some(e0), Some(e1)) = (elo0, elo1) else {
            return Err(SprtSettingsError::MissingElo);
        };
        (s.elo0, s.elo1) = (e0, e1);
        if s.elo1 <= s.elo0 {
            return Err(SprtSettingsError::ElosOutOfOrder {
                elo0: s.elo0,
                elo1: s.elo1,
            });
        }
        if s.model == EloModel::Normalized {
            if let Some(&far) = [s.elo0, s.elo1]
                .iter()
                .find(|e| e.abs() > NORMALIZED_ELO_LIMIT)
            {
                return Err(SprtSettingsError::NormalizedEloTooLarge(far));
            }
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

    /// The LLR of H1 against H0 for score bins whose samples average `games_per_sample`
    /// games each (see [`EloModel::constraint`]).
    pub fn llr_of_bins(
        &self,
        points: &[f64],
        counts: &[u64],
        games_per_sample: f64,
    ) -> Result<f64, LlrError> {
        generalized_llr(
            points,
            counts,
            self.model.constraint(self.elo0, games_per_sample),
            self.model.constraint(self.elo1, games_per_sample),
        )
    }

    /// What an LLR means against the bounds.
    pub fn decide(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::AcceptH1
        } else if llr <= lower {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }
}

/// `elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic`: the settings as `--sprt` takes them.
impl fmt::Display for SprtSettings {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={} model={}",
            self.elo0, self.elo1, self.alpha, self.beta, self.model
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

    /// The pairs in `self` that `earlier` did not have yet.
    pub fn since(&self, earlier: &Pentanomial) -> Pentanomial {
        let mut counts = self.counts;
        for (c, e) in counts.iter_mut().zip(earlier.counts) {
            *c = c.saturating_sub(e);
        }
        Pentanomial { counts }
    }

    /// Mean and variance of the pair score as a fraction of the pair's two points.
    fn moments(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let probs: Vec<f64> = self.counts.iter().map(|&c| c as f64 / n).collect();
        Some(mean_and_variance(&PAIR_POINTS, &probs))
    }

    /// The log-likelihood ratio of H1 against H0 (0 without pairs). NaN if the hypotheses
    /// cannot be fitted, which the limits [`SprtSettings::parse`] puts on them rule out.
    pub fn llr(&self, s: &SprtSettings) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        s.llr_of_bins(&PAIR_POINTS, &self.counts, 2.0)
            .unwrap_or(f64::NAN)
    }

    pub fn decision(&self, s: &SprtSettings) -> Decision {
        s.decide(self.llr(s))
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

    fn settings(text: &str) -> SprtSettings {
        SprtSettings::parse(&[text.to_string()]).unwrap()
    }

    fn logistic(elo0: f64, elo1: f64) -> SprtSettings {
        settings(&format!("elo0={elo0} elo1={elo1}"))
    }

    fn normalized(elo0: f64, elo1: f64) -> SprtSettings {
        settings(&format!("elo0={elo0} elo1={elo1} model=normalized"))
    }

    /// The statistic Panoply used before issue 38, kept here to compare with:
    /// N (s1 − s0)(2 μ − s0 − s1) / (2 σ²) on the raw counts.
    fn approximate_llr(p: &Pentanomial, s: &SprtSettings) -> f64 {
        let (mean, var) = p.moments().unwrap();
        let (s0, s1) = (expected_score(s.elo0), expected_score(s.elo1));
        p.pairs() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    fn penta(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    #[track_caller]
    fn assert_close(got: f64, want: f64, tolerance: f64) {
        assert!(
            (got - want).abs() <= tolerance,
            "got {got:.10}, want {want:.10} (± {tolerance})"
        );
    }

    #[test]
    fn bounds_follow_from_the_error_rates() {
        let (lo, hi) = logistic(0.0, 5.0).bounds();
        assert!((lo - (0.05f64 / 0.95).ln()).abs() < 1e-12);
        assert!((hi - 19f64.ln()).abs() < 1e-12);
        assert!((hi - 2.944).abs() < 1e-3 && (lo + 2.944).abs() < 1e-3);
    }

    // Expected values: `python3 docs/sprt/reference.py` (an independent implementation of
    // the published formulas; bisection where this file uses Newton steps).

    #[test]
    fn issue_38_few_pairs_far_from_the_hypotheses() {
        let p = penta([1, 1, 12, 11, 22]);
        let s = logistic(0.0, 10.0);
        assert_close(approximate_llr(&p, &s), 2.948_069_969_6, 1e-9);
        assert_close(p.llr(&s), 1.236_398_911_7, 1e-8);
        assert_eq!(
            p.decision(&s),
            Decision::Continue,
            "the old formula said H1"
        );
        assert_close(p.llr(&normalized(0.0, 10.0)), 1.335_628_286_6, 1e-8);
    }

    #[test]
    fn issue_38_empty_bins_are_regularised() {
        let p = penta([0, 0, 0, 10, 10]);
        let s = logistic(0.0, 5.0);
        assert_close(approximate_llr(&p, &s), 3.420_506_931_8, 1e-9);
        assert_close(p.llr(&s), 0.285_760_369_8, 1e-8);
        assert_eq!(
            p.decision(&s),
            Decision::Continue,
            "the old formula said H1"
        );
        assert_close(p.llr(&normalized(0.0, 5.0)), 0.348_425_330_9, 1e-8);
    }

    #[test]
    fn issue_38_a_match_of_won_pairs_decides() {
        let (s, n) = (logistic(0.0, 5.0), normalized(0.0, 5.0));
        assert_close(penta([0, 0, 0, 0, 30]).llr(&s), 0.428_656_595_1, 1e-8);
        assert_close(penta([0, 0, 0, 0, 30]).llr(&n), 0.604_320_584_2, 1e-8);
        // The reference bisects on the match length for the first pair at the bound.
        assert_close(penta([0, 0, 0, 0, 206]).llr(&s), 2.943_275_555_3, 1e-7);
        assert_close(penta([0, 0, 0, 0, 207]).llr(&s), 2.957_563_163_0, 1e-7);
        assert_eq!(penta([0, 0, 0, 0, 206]).decision(&s), Decision::Continue);
        assert_eq!(penta([0, 0, 0, 0, 207]).decision(&s), Decision::AcceptH1);
        assert_close(penta([0, 0, 0, 0, 146]).llr(&n), 2.940_990_007_8, 1e-7);
        assert_close(penta([0, 0, 0, 0, 147]).llr(&n), 2.961_133_709_7, 1e-7);
        assert_eq!(penta([0, 0, 0, 0, 147]).decision(&n), Decision::AcceptH1);
    }

    #[test]
    fn issue_38_a_match_of_drawn_pairs_decides() {
        let (s, n) = (logistic(0.0, 5.0), normalized(0.0, 5.0));
        assert_close(penta([0, 0, 40, 0, 0]).llr(&s), -0.572_881_959_0, 1e-8);
        assert_close(penta([0, 0, 40, 0, 0]).llr(&n), -0.013_658_495_7, 1e-8);
        assert_close(penta([0, 0, 203, 0, 0]).llr(&s), -2.933_894_546_0, 1e-7);
        assert_close(penta([0, 0, 204, 0, 0]).llr(&s), -2.948_384_337_8, 1e-7);
        assert_eq!(penta([0, 0, 203, 0, 0]).decision(&s), Decision::Continue);
        assert_eq!(penta([0, 0, 204, 0, 0]).decision(&s), Decision::AcceptH0);
        // Draws say little about normalised Elo, whose unit is the spread of the scores.
        assert_close(penta([0, 0, 7129, 0, 0]).llr(&n), -2.944_119_931_0, 1e-6);
        assert_close(penta([0, 0, 7130, 0, 0]).llr(&n), -2.944_533_915_6, 1e-6);
        assert_eq!(penta([0, 0, 7130, 0, 0]).decision(&n), Decision::AcceptH0);
    }

    #[test]
    fn near_the_hypotheses_exact_and_approximate_agree() {
        let p = penta([50, 650, 2700, 690, 42]);
        let s = logistic(0.0, 5.0);
        assert_close(p.llr(&s), -2.468_939_399_0, 1e-8);
        assert_close(approximate_llr(&p, &s), -2.469_131_655_7, 1e-9);
        assert_close(p.llr(&s), approximate_llr(&p, &s), 5e-4);
        assert_close(p.llr(&normalized(0.0, 5.0)), -0.095_903_412_5, 1e-8);
    }

    #[test]
    fn longer_tests_in_both_models() {
        let h1 = penta([90, 1410, 4760, 1600, 140]);
        assert_close(h1.llr(&logistic(0.0, 5.0)), 10.273_832_929_9, 1e-7);
        assert_close(h1.llr(&normalized(0.0, 5.0)), 6.774_211_101_1, 1e-7);
        assert_close(
            penta([40, 620, 2650, 640, 50]).llr(&normalized(0.0, 5.0)),
            0.451_048_960_1,
            1e-8,
        );
        let non_regression = penta([12, 75, 230, 64, 9]);
        assert_close(
            non_regression.llr(&logistic(-5.0, 0.0)),
            -0.574_093_301_0,
            1e-8,
        );
        assert_close(
            non_regression.llr(&normalized(-5.0, 0.0)),
            -0.376_877_414_7,
            1e-8,
        );
    }

    #[test]
    fn per_game_bins_use_the_same_core() {
        // L, D, W counts: points 0, ½, 1, one game per sample.
        let points = [0.0, 0.5, 1.0];
        let counts = [3, 20, 40];
        assert_close(
            logistic(0.0, 5.0)
                .llr_of_bins(&points, &counts, 1.0)
                .unwrap(),
            0.772_810_526_1,
            1e-8,
        );
        assert_close(
            normalized(0.0, 5.0)
                .llr_of_bins(&points, &counts, 1.0)
                .unwrap(),
            0.638_360_742_4,
            1e-8,
        );
    }

    #[test]
    fn fits_meet_their_constraints() {
        let observed = [0.02, 0.2, 0.55, 0.2, 0.03];
        let fit = maximum_likelihood(&PAIR_POINTS, &observed, Constraint::Mean(0.53)).unwrap();
        let (mean, _) = mean_and_variance(&PAIR_POINTS, &fit);
        assert_close(mean, 0.53, 1e-12);
        assert_close(fit.iter().sum(), 1.0, 1e-12);
        let t = Constraint::TValue {
            reference: 0.5,
            t: 0.1,
        };
        let fit = maximum_likelihood(&PAIR_POINTS, &observed, t).unwrap();
        let (mean, var) = mean_and_variance(&PAIR_POINTS, &fit);
        assert_close((mean - 0.5) / var.sqrt(), 0.1, 1e-9);
        // A mean outside the points cannot be met.
        assert_eq!(
            maximum_likelihood(&PAIR_POINTS, &observed, Constraint::Mean(1.5)),
            Err(LlrError::Unreachable)
        );
        assert_eq!(
            generalized_llr(
                &[0.0, 1.0],
                &[1, 2, 3],
                Constraint::Mean(0.4),
                Constraint::Mean(0.6)
            ),
            Err(LlrError::Shape)
        );
    }

    #[test]
    fn a_strong_lead_is_accepted_and_a_loss_rejected() {
        for s in [logistic(0.0, 5.0), normalized(0.0, 5.0)] {
            let win = penta([10, 60, 200, 120, 60]);
            assert_eq!(win.decision(&s), Decision::AcceptH1, "{s}");
            let lose = penta([60, 120, 200, 60, 10]);
            assert_eq!(lose.decision(&s), Decision::AcceptH0, "{s}");
            let few = penta([0, 1, 2, 1, 0]);
            assert_eq!(few.decision(&s), Decision::Continue, "{s}");
            assert_eq!(Pentanomial::default().llr(&s), 0.0);
        }
    }

    #[test]
    fn extreme_records_at_the_model_limits_still_have_a_ratio() {
        let edge = NORMALIZED_ELO_LIMIT;
        for counts in [
            [0, 0, 0, 0, 1000],
            [1000, 0, 0, 0, 0],
            [0, 1000, 0, 0, 0],
            [0, 0, 1, 0, 0],
            [1, 0, 0, 0, 1],
        ] {
            for s in [normalized(-edge, edge), normalized(edge - 1.0, edge)] {
                assert!(penta(counts).llr(&s).is_finite(), "{counts:?} {s}");
            }
            assert!(penta(counts).llr(&logistic(-400.0, 400.0)).is_finite());
        }
    }

    /// Plays `runs` simulated SPRTs whose pairs are drawn from `truth` and counts how many
    /// accepted H1 and H0; none may run past `max_pairs` undecided.
    fn simulate(s: &SprtSettings, truth: &[f64], runs: usize, seed: u64) -> (usize, usize) {
        let mut rng = crate::random::XorShiftStar::new(seed);
        let cumulative: Vec<f64> = truth
            .iter()
            .scan(0.0, |sum, p| {
                *sum += p;
                Some(*sum)
            })
            .collect();
        let max_pairs = 100_000;
        let (mut h1, mut h0) = (0, 0);
        for _ in 0..runs {
            let mut p = Pentanomial::default();
            let decision = loop {
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                p.add(cumulative.iter().position(|&c| u < c).unwrap_or(4));
                match p.decision(s) {
                    Decision::Continue => assert!(p.pairs() < max_pairs, "no decision"),
                    d => break d,
                }
            };
            match decision {
                Decision::AcceptH1 => h1 += 1,
                _ => h0 += 1,
            }
        }
        (h1, h0)
    }

    #[test]
    fn simulated_tests_keep_their_error_rates() {
        // A pair distribution shaped like a fixed-node match between close engines: mostly
        // split or drawn pairs (LL 3%, LD 20%, DD/WL 52%, WD 22%, WW 3%), fitted to exactly
        // the Elo of each hypothesis. The hypotheses are wide so that a run lasts a few
        // hundred pairs and the whole test stays quick.
        let shape = [0.03, 0.20, 0.52, 0.22, 0.03];
        // A normalised-Elo fit costs about ten mean fits, hence fewer of its runs.
        for (s, runs, seed) in [
            (logistic(0.0, 20.0), 2000, 38),
            (normalized(0.0, 40.0), 1000, 83),
        ] {
            let truth = |elo: f64| {
                let fit =
                    maximum_likelihood(&PAIR_POINTS, &shape, s.model.constraint(elo, 2.0)).unwrap();
                assert_close(fit.iter().sum(), 1.0, 1e-12);
                fit
            };
            let (false_h1, _) = simulate(&s, &truth(s.elo0), runs, seed);
            let (_, false_h0) = simulate(&s, &truth(s.elo1), runs, seed + 1);
            // Each rate may exceed its target by three standard errors of a binomial count.
            let allowed = |rate: f64| rate + 3.0 * (rate * (1.0 - rate) / runs as f64).sqrt();
            let (h1_rate, h0_rate) = (false_h1 as f64 / runs as f64, false_h0 as f64 / runs as f64);
            eprintln!("{s}: false H1 {h1_rate:.4}, false H0 {h0_rate:.4} over {runs} runs each");
            assert!(h1_rate <= allowed(s.alpha), "{s}: false H1 rate {h1_rate}");
            assert!(h0_rate <= allowed(s.beta), "{s}: false H0 rate {h0_rate}");
        }
    }

    #[test]
    fn elo_of_pairs() {
        let even = penta([5, 20, 50, 20, 5]);
        let (elo, err) = even.elo().unwrap();
        assert_eq!(elo, 0.0);
        assert!(err > 0.0 && err < 60.0, "{err}");
        // Mean 0.6 -> 70.4 Elo.
        let (elo, _) = penta([0, 0, 60, 40, 0]).elo().unwrap();
        assert!((elo - 70.44).abs() < 0.05, "{elo}");
        assert_eq!(Pentanomial::default().elo(), None);
    }

    #[test]
    fn pairs_since_a_snapshot() {
        let late = penta([1, 2, 5, 3, 1]).since(&penta([1, 1, 4, 3, 0]));
        assert_eq!(late.counts, [0, 1, 1, 0, 1]);
    }

    #[test]
    fn settings_are_checked() {
        let err = |s: &str| SprtSettings::parse(&[s.to_string()]).unwrap_err();
        assert_eq!(
            err("elo0=5 elo1=0"),
            SprtSettingsError::ElosOutOfOrder {
                elo0: 5.0,
                elo1: 0.0
            }
        );
        assert_eq!(err("elo0=0").to_string(), "elo0 and elo1 are both needed");
        assert_eq!(
            err("elo0=0 elo1=5 alpha=2").to_string(),
            "alpha=2 must be above 0 and below 0.5"
        );
        assert_eq!(
            err("elo0=0 elo1=5 gamma=0.1"),
            SprtSettingsError::UnknownKey("gamma".into())
        );
        assert_eq!(
            err("elo0=x elo1=5").to_string(),
            "elo0=x: 'x' is not a finite number"
        );
        assert_eq!(
            err("elo0=0 elo1=5 model=bayesian").to_string(),
            "unknown model 'bayesian' (expected model=logistic or model=normalized)"
        );
        assert_eq!(
            err("elo0=0 elo1=5 fast"),
            SprtSettingsError::NotKeyValue("fast".into())
        );
        assert_eq!(
            err("elo0=0 elo1=150 model=normalized"),
            SprtSettingsError::NormalizedEloTooLarge(150.0)
        );
        // Backward compatible: the model is optional and logistic by default.
        let s = SprtSettings::parse(&["elo0=-1".into(), "elo1=4".into()]).unwrap();
        assert_eq!(
            (s.elo0, s.elo1, s.alpha, s.beta, s.model),
            (-1.0, 4.0, 0.05, 0.05, EloModel::Logistic)
        );
        assert_eq!(
            s.to_string(),
            "elo0=-1 elo1=4 alpha=0.05 beta=0.05 model=logistic"
        );
        let s = settings("model=normalized beta=0.1 elo1=2 elo0=0");
        assert_eq!((s.model, s.beta), (EloModel::Normalized, 0.1));
    }
}
