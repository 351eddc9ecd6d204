//! The network's forward pass, twice: [`reference`] — the definition, in plain `i64`
//! arithmetic from the lists of active inputs — and [`output`], the engine's path from two
//! accumulators kept in `i16` lanes. Both compute, for the side to move `us`:
//!
//! `acc_p = bias + Σ rows of p's active inputs` (per perspective `p`),
//! `sum = Σ clamp(acc_us, 0, QA)² · w[..H] + Σ clamp(acc_them, 0, QA)² · w[H..]`,
//! `out = (sum / QA + out_bias) · scale / (QA · QB)`,
//!
//! with Rust's integer division (towards zero). They agree exactly on every network the engine
//! accepts: [`check_bounds`] refuses those whose accumulators could leave the `i16` range or
//! whose QA would let an output term leave the `i32` range (see [`super::simd`]).

use super::format::Network;
use super::simd::Path;

/// Why a network cannot be run exactly with `i16` accumulators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoundsError {
    /// QA above 255: a squared activation times a weight may not fit 32 bits.
    Qa(i32),
    /// A hidden unit whose accumulator could reach this magnitude (above 32767).
    Accumulator { unit: usize, reach: i64 },
}

impl std::fmt::Display for BoundsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoundsError::Qa(qa) => write!(f, "the network's QA is {qa}; the engine needs 1 to 255"),
            BoundsError::Accumulator { unit, reach } => write!(
                f,
                "hidden unit {unit} could reach {reach}, beyond the 16-bit accumulator \
                 (weights too large: clip them in training)"
            ),
        }
    }
}

/// Checks that every position's accumulators fit `i16`: a cell holds at most one piece, so a
/// unit's worst case is its bias plus, per cell, the largest weight any input of that cell has.
pub fn check_bounds(net: &Network) -> Result<(), BoundsError> {
    let h = &net.header;
    if !(1..=255).contains(&h.qa) {
        return Err(BoundsError::Qa(h.qa));
    }
    let (hidden, cells) = (h.hidden, h.cells);
    let inputs_per_cell = h.inputs() / cells;
    // Per cell and unit, the largest |weight| over the inputs of that cell.
    let mut cell_max = vec![0i64; cells * hidden];
    for (input, row) in net.feature_weights.chunks_exact(hidden).enumerate() {
        let cell = input % cells;
        let maxima = &mut cell_max[cell * hidden..(cell + 1) * hidden];
        for (m, &w) in maxima.iter_mut().zip(row) {
            *m = (*m).max((w as i64).abs());
        }
    }
    debug_assert!(inputs_per_cell > 0);
    for unit in 0..hidden {
        let reach = (net.feature_bias[unit] as i64).abs()
            + (0..cells).map(|c| cell_max[c * hidden + unit]).sum::<i64>();
        if reach > i16::MAX as i64 {
            return Err(BoundsError::Accumulator { unit, reach });
        }
    }
    Ok(())
}

/// The definition: the output for the side to move from its active inputs (`us`) and the
/// opponent's (`them`), in centipawns.
pub fn reference(net: &Network, us: &[usize], them: &[usize]) -> i32 {
    let h = &net.header;
    let hidden = h.hidden;
    let accumulate = |active: &[usize]| -> Vec<i64> {
        (0..hidden)
            .map(|j| {
                net.feature_bias[j] as i64
                    + active
                        .iter()
                        .map(|&i| net.feature_weights[i * hidden + j] as i64)
                        .sum::<i64>()
            })
            .collect()
    };
    let qa = h.qa as i64;
    let mut sum = 0i64;
    for (side, acc) in [accumulate(us), accumulate(them)].iter().enumerate() {
        for (j, &a) in acc.iter().enumerate() {
            let c = a.clamp(0, qa);
            sum += c * c * net.output_weights[side * hidden + j] as i64;
        }
    }
    finish(net, sum)
}

/// The engine's path: the same output from the two perspectives' accumulators.
#[inline]
pub fn output(net: &Network, path: Path, us: &[i16], them: &[i16]) -> i32 {
    let hidden = net.header.hidden;
    let qa = net.header.qa as i16;
    let w = &net.output_weights;
    let sum = path.screlu_dot(us, &w[..hidden], qa) + path.screlu_dot(them, &w[hidden..], qa);
    finish(net, sum)
}

/// From the output layer's sum to centipawns.
#[inline]
fn finish(net: &Network, sum: i64) -> i32 {
    let h = &net.header;
    let (qa, qb) = (h.qa as i64, h.qb as i64);
    let out = (sum / qa + net.output_bias as i64) * h.scale as i64 / (qa * qb);
    out.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::features::{Catalog, CatalogEntry};
    use crate::nnue::random;
    use crate::random::Rng;

    fn catalog(n: usize) -> Catalog {
        Catalog {
            entries: (0..n)
                .map(|i| CatalogEntry {
                    token: format!("P{i}"),
                    name: format!("piece {i}"),
                })
                .collect(),
        }
    }

    /// Accumulators the engine's way: bias, then the rows added in `i16` lanes.
    fn accumulate(net: &Network, path: Path, active: &[usize]) -> Vec<i16> {
        let hidden = net.header.hidden;
        let mut acc = net.feature_bias.clone();
        for &i in active {
            path.add(&mut acc, &net.feature_weights[i * hidden..(i + 1) * hidden]);
        }
        acc
    }

    /// Up to one piece per cell, as on a board.
    fn active(rng: &mut Rng, net: &Network) -> Vec<usize> {
        let cells = net.header.cells;
        let per_cell = net.header.inputs() / cells;
        let mut active = Vec::new();
        for cell in 0..cells {
            if rng.below(3) == 0 {
                active.push(rng.below(per_cell as u64) as usize * cells + cell);
            }
        }
        active
    }

    #[test]
    fn the_quantised_forward_pass_equals_the_reference() {
        let mut rng = Rng::new(11);
        for (seed, hidden) in [(1, 256), (2, 40), (3, 17)] {
            let net = random::network("test", catalog(6), 64, hidden, seed);
            check_bounds(&net).unwrap();
            let mut differ = 0;
            for _ in 0..50 {
                let us = active(&mut rng, &net);
                let them = active(&mut rng, &net);
                let expected = reference(&net, &us, &them);
                for path in Path::available() {
                    let (a, b) = (accumulate(&net, path, &us), accumulate(&net, path, &them));
                    assert_eq!(output(&net, path, &a, &b), expected, "{path:?}");
                }
                differ += (expected != reference(&net, &them, &us)) as usize;
            }
            // The side to move matters: the two halves of the output weights differ.
            assert!(differ > 40, "{differ}");
        }
    }

    #[test]
    fn weights_that_could_overflow_an_accumulator_are_refused() {
        let mut net = random::network("test", catalog(2), 64, 8, 5);
        assert_eq!(check_bounds(&net), Ok(()));
        // 64 cells of 600 reach 38400 > 32767 for unit 3.
        let hidden = net.header.hidden;
        for row in net.feature_weights.chunks_exact_mut(hidden) {
            row[3] = -600;
        }
        assert!(matches!(
            check_bounds(&net),
            Err(BoundsError::Accumulator { unit: 3, .. })
        ));
        net.header.qa = 256;
        assert_eq!(check_bounds(&net), Err(BoundsError::Qa(256)));
    }
}
