//! Fitting the Armies of Faith piece values to self-play results (Texel-style): each army
//! in each sampled position is predicted to score `sigmoid(base + material / scale)`,
//! where `material` is its pieces' worth less the mean of the other armies still playing,
//! and the values are moved to make that prediction match the game's result. Two pulls
//! keep the fit honest where the games say little: each value is held near its prior (its
//! reach in play), and the four armies' start arrays are held level, as the seed says the
//! armies are "of equal size and similar strength".

use super::pieces::KIND_COUNT;

/// One army in one sampled position, with how its game ended for it.
#[derive(Clone, Debug)]
pub struct ValueSample {
    /// Its pieces per kind less the mean count of the other armies still playing.
    pub difference: [f64; KIND_COUNT],
    /// Armies still playing when the position was sampled.
    pub playing: usize,
    /// 1 for the winner, 0 for a loser, an equal share for the armies still playing at a
    /// draw or an unfinished game.
    pub result: f64,
}

/// How strongly the fit holds values near their priors and the start arrays level.
#[derive(Clone, Copy, Debug)]
pub struct FitWeights {
    /// Per kind: the weight of ((value − prior) / prior)².
    pub prior: f64,
    /// Per army: the weight of ((start material − mean start material) / 100)².
    pub level_start: f64,
}

pub const FIT_WEIGHTS: FitWeights = FitWeights {
    prior: 0.02,
    level_start: 1.0,
};

/// What the fit found.
#[derive(Clone, Debug)]
pub struct Fit {
    pub values: [f64; KIND_COUNT],
    /// Centipawns of material that change the predicted result by e (the sigmoid's scale).
    pub scale: f64,
    /// Mean squared error of the predicted results, with the priors and after the fit.
    pub error_before: f64,
    pub error_after: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The prediction at level material: an equal share among the armies playing.
fn base(playing: usize) -> f64 {
    (1.0 / (playing.max(2) - 1) as f64).ln()
}

fn error(samples: &[ValueSample], values: &[f64; KIND_COUNT], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let material: f64 = s.difference.iter().zip(values).map(|(d, v)| d * v).sum();
            (sigmoid(base(s.playing) + material / scale) - s.result).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Fits the values of the kinds in `free` (the others keep their priors). `start` holds
/// each army's piece count per kind in the start array.
pub fn fit_values(
    samples: &[ValueSample],
    prior: &[f64; KIND_COUNT],
    free: &[bool; KIND_COUNT],
    start: &[[f64; KIND_COUNT]; 4],
    weights: FitWeights,
) -> Fit {
    // The scale first, with the priors (as Texel tuning fits its K before the weights).
    let scale = (1..=400)
        .map(|i| 10.0 * i as f64)
        .min_by(|&a, &b| error(samples, prior, a).total_cmp(&error(samples, prior, b)))
        .unwrap();
    let error_before = error(samples, prior, scale);
    let mut values = *prior;
    // Adam over the full batch: the features (piece counts) differ by orders of magnitude
    // in how often they change, which plain gradient descent handles badly.
    let (mut m, mut v) = ([0.0; KIND_COUNT], [0.0; KIND_COUNT]);
    let (rate, beta1, beta2) = (2.0, 0.9, 0.999);
    let n = samples.len().max(1) as f64;
    for step in 1..=3000 {
        let mut grad = [0.0; KIND_COUNT];
        for s in samples {
            let material: f64 = s.difference.iter().zip(&values).map(|(d, v)| d * v).sum();
            let p = sigmoid(base(s.playing) + material / scale);
            let g = 2.0 * (p - s.result) * p * (1.0 - p) / scale / n;
            for (gk, d) in grad.iter_mut().zip(&s.difference) {
                *gk += g * d;
            }
        }
        for k in 0..KIND_COUNT {
            grad[k] += 2.0 * weights.prior * (values[k] - prior[k]) / (prior[k] * prior[k]);
        }
        let totals: Vec<f64> = start
            .iter()
            .map(|a| a.iter().zip(&values).map(|(c, v)| c * v).sum())
            .collect();
        let mean_total = totals.iter().sum::<f64>() / 4.0;
        for k in 0..KIND_COUNT {
            let mean_count = start.iter().map(|a| a[k]).sum::<f64>() / 4.0;
            for (a, total) in start.iter().zip(&totals) {
                grad[k] +=
                    2.0 * weights.level_start * (total - mean_total) / 1e4 * (a[k] - mean_count);
            }
        }
        for k in (0..KIND_COUNT).filter(|&k| free[k]) {
            m[k] = beta1 * m[k] + (1.0 - beta1) * grad[k];
            v[k] = beta2 * v[k] + (1.0 - beta2) * grad[k] * grad[k];
            let m_hat = m[k] / (1.0 - beta1.powi(step));
            let v_hat = v[k] / (1.0 - beta2.powi(step));
            values[k] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
    }
    Fit {
        values,
        scale,
        error_before,
        error_after: error(samples, &values, scale),
    }
}
