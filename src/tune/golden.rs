//! Golden-section search: the minimum of a one-dimensional function that falls then rises on
//! an interval (the logistic scale K that best maps scores to results, for `tune` and `train`).

/// The argument in `[lo, hi]` where `f` is least, after `steps` narrowings of the bracket
/// (each keeps 0.618 of it).
pub fn minimise(f: impl Fn(f64) -> f64, (mut lo, mut hi): (f64, f64), steps: usize) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..steps {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if f(a) < f(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    #[test]
    fn finds_the_minimum_of_a_parabola() {
        let x = super::minimise(|x| (x - 3.25).powi(2), (0.0, 10.0), 60);
        assert!((x - 3.25).abs() < 1e-9, "{x}");
    }
}
