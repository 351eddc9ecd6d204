//! Elo difference from a win/draw/loss record, with a 95% confidence interval.
//!
//! The score fraction p = (W + D/2) / N maps to an Elo difference by the logistic model,
//! d = -400 log10(1/p - 1). Its error comes from the per-game score variance
//! s^2 = (W (1-p)^2 + D (1/2-p)^2 + L p^2) / N: the interval p ± 1.96 s / sqrt(N) is mapped
//! through the same function, and half its width is the error bar.

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

impl Record {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn score(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    pub fn add(&mut self, o: Record) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }
}

pub fn elo_from_score(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// (Elo difference, 95% error bar); None without games. A perfect or null score gives an
/// infinite difference.
pub fn elo_difference(r: Record) -> Option<(f64, f64)> {
    let n = r.games() as f64;
    if n == 0.0 {
        return None;
    }
    let p = r.score() / n;
    let var = (r.wins as f64 * (1.0 - p).powi(2)
        + r.draws as f64 * (0.5 - p).powi(2)
        + r.losses as f64 * p.powi(2))
        / n;
    let half = Z95 * (var / n).sqrt();
    let lo = (p - half).max(0.0);
    let hi = (p + half).min(1.0);
    let error = (elo_from_score(hi) - elo_from_score(lo)) / 2.0;
    // `+ 0.0` turns the -0.0 of an even score into 0.0.
    Some((elo_from_score(p) + 0.0, error))
}

/// `+35.2 ± 20.1`, `+inf`, or `-` without games.
pub fn format_elo(r: Record) -> String {
    match elo_difference(r) {
        None => "-".into(),
        Some((d, _)) if d.is_infinite() => if d > 0.0 { "+inf" } else { "-inf" }.into(),
        Some((d, e)) if e.is_finite() => format!("{d:+.1} ± {e:.1}"),
        Some((d, _)) => format!("{d:+.1} ± inf"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_with_a_symmetric_bar() {
        let (d, e) = elo_difference(Record {
            wins: 10,
            draws: 20,
            losses: 10,
        })
        .unwrap();
        assert!(d.abs() < 1e-9);
        // p = 0.5, s = sqrt(0.125), half = 1.96 * 0.3536 / sqrt(40) = 0.1096
        let expected = elo_from_score(0.5 + Z95 * (0.125f64 / 40.0).sqrt());
        assert!((e - expected).abs() < 1e-9, "{e} {expected}");
        assert!((e - 77.2).abs() < 0.5, "{e}");
    }

    #[test]
    fn known_values() {
        // 75% is +190.8 Elo.
        let (d, _) = elo_difference(Record {
            wins: 3,
            draws: 0,
            losses: 1,
        })
        .unwrap();
        assert!((d - 190.85).abs() < 0.01, "{d}");
        assert_eq!(
            format_elo(Record {
                wins: 2,
                draws: 0,
                losses: 0
            }),
            "+inf"
        );
        assert_eq!(format_elo(Record::default()), "-");
        assert!(format_elo(Record {
            wins: 6,
            draws: 2,
            losses: 2
        })
        .contains(" ± "));
    }
}
