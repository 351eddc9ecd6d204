//! The network's hot loops — adding and removing feature rows in an accumulator, and the
//! output layer's sum — with AVX2 where the processor has it (detected once at run time: the
//! build targets x86-64-v2, which lacks it) and a portable fallback that gives exactly the
//! same numbers.
//!
//! Exactness: accumulator lanes are `i16` and wrap (two's complement), so an update gives the
//! true sum whenever the final value fits, whatever order the rows come in; the engine refuses
//! networks whose accumulators could leave the `i16` range ([`super::layers::check_bounds`]).
//! In the output layer a term is `clamp(acc, 0, QA)² · w` with `QA ≤ 255` and `|w| ≤ 2^15`,
//! at most `65025 · 32768 < 2^31`: it fits an `i32` lane, but a sum of two does not, so terms
//! are widened to `i64` before they are added.

/// Which implementation the hot loops use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Path {
    /// The fastest path this processor runs.
    pub fn best() -> Path {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Path::Avx2;
        }
        Path::Portable
    }

    /// Every path this processor runs (for the tests that compare them).
    pub fn available() -> Vec<Path> {
        let mut paths = vec![Path::Portable];
        if Path::best() != Path::Portable {
            paths.push(Path::best());
        }
        paths
    }

    /// `acc += row`, lane by lane (wrapping).
    #[inline]
    pub fn add(self, acc: &mut [i16], row: &[i16]) {
        debug_assert_eq!(acc.len(), row.len());
        match self {
            Path::Portable => portable::add(acc, row),
            // SAFETY: `Avx2` is only chosen when the processor has AVX2 (`Path::best`).
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => unsafe { avx2::add(acc, row) },
        }
    }

    /// `acc -= row`, lane by lane (wrapping).
    #[inline]
    pub fn sub(self, acc: &mut [i16], row: &[i16]) {
        debug_assert_eq!(acc.len(), row.len());
        match self {
            Path::Portable => portable::sub(acc, row),
            // SAFETY: as in `add`.
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => unsafe { avx2::sub(acc, row) },
        }
    }

    /// `Σ clamp(acc[i], 0, qa)² · w[i]` over all lanes, exactly; needs `qa ≤ 255`.
    #[inline]
    pub fn screlu_dot(self, acc: &[i16], w: &[i16], qa: i16) -> i64 {
        debug_assert_eq!(acc.len(), w.len());
        debug_assert!((0..=255).contains(&qa));
        match self {
            Path::Portable => portable::screlu_dot(acc, w, qa),
            // SAFETY: as in `add`.
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => unsafe { avx2::screlu_dot(acc, w, qa) },
        }
    }
}

mod portable {
    pub fn add(acc: &mut [i16], row: &[i16]) {
        for (a, &r) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(r);
        }
    }

    pub fn sub(acc: &mut [i16], row: &[i16]) {
        for (a, &r) in acc.iter_mut().zip(row) {
            *a = a.wrapping_sub(r);
        }
    }

    pub fn screlu_dot(acc: &[i16], w: &[i16], qa: i16) -> i64 {
        acc.iter()
            .zip(w)
            .map(|(&a, &w)| {
                let c = a.clamp(0, qa) as i32;
                (c * c * w as i32) as i64
            })
            .sum()
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// Lanes of `i16` per 256-bit register.
    const LANES: usize = 16;

    #[target_feature(enable = "avx2")]
    pub unsafe fn add(acc: &mut [i16], row: &[i16]) {
        let n = acc.len().min(row.len()) / LANES * LANES;
        for i in (0..n).step_by(LANES) {
            // SAFETY: `i + LANES <= n <= len` of both slices; unaligned loads and stores.
            let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
            let r = _mm256_loadu_si256(row.as_ptr().add(i) as *const __m256i);
            _mm256_storeu_si256(
                acc.as_mut_ptr().add(i) as *mut __m256i,
                _mm256_add_epi16(a, r),
            );
        }
        super::portable::add(&mut acc[n..], &row[n..]);
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn sub(acc: &mut [i16], row: &[i16]) {
        let n = acc.len().min(row.len()) / LANES * LANES;
        for i in (0..n).step_by(LANES) {
            // SAFETY: as in `add`.
            let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
            let r = _mm256_loadu_si256(row.as_ptr().add(i) as *const __m256i);
            _mm256_storeu_si256(
                acc.as_mut_ptr().add(i) as *mut __m256i,
                _mm256_sub_epi16(a, r),
            );
        }
        super::portable::sub(&mut acc[n..], &row[n..]);
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], w: &[i16], qa: i16) -> i64 {
        let n = acc.len().min(w.len()) / LANES * LANES;
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let mut total = _mm256_setzero_si256();
        for i in (0..n).step_by(LANES) {
            // SAFETY: `i + LANES <= n <= len` of both slices.
            let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
            let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            let wv = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
            for half in 0..2 {
                let (c8, w8) = if half == 0 {
                    (_mm256_castsi256_si128(c), _mm256_castsi256_si128(wv))
                } else {
                    (
                        _mm256_extracti128_si256::<1>(c),
                        _mm256_extracti128_si256::<1>(wv),
                    )
                };
                let c32 = _mm256_cvtepi16_epi32(c8);
                let w32 = _mm256_cvtepi16_epi32(w8);
                // c² ≤ 65025 and c²·w fits in i32 (see the module doc); the sum does not.
                let term = _mm256_mullo_epi32(_mm256_mullo_epi32(c32, c32), w32);
                total =
                    _mm256_add_epi64(total, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(term)));
                total = _mm256_add_epi64(
                    total,
                    _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(term)),
                );
            }
        }
        let mut lanes = [0i64; 4];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, total);
        lanes.iter().sum::<i64>() + super::portable::screlu_dot(&acc[n..], &w[n..], qa)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    /// Random lanes over the whole i16 range, with the extremes mixed in.
    fn lanes(rng: &mut Rng, n: usize) -> Vec<i16> {
        (0..n)
            .map(|_| match rng.below(8) {
                0 => i16::MIN,
                1 => i16::MAX,
                2 => 0,
                _ => rng.next_u64() as i16,
            })
            .collect()
    }

    #[test]
    fn every_path_gives_the_portable_numbers() {
        let mut rng = Rng::new(0x5eed);
        // Lengths with and without a tail beyond the last full register.
        for n in [0, 1, 15, 16, 17, 64, 255, 256, 512, 1000] {
            for _ in 0..20 {
                let acc = lanes(&mut rng, n);
                let row = lanes(&mut rng, n);
                let qa = [1, 127, 181, 255][rng.below(4) as usize];
                for path in Path::available() {
                    let mut a = acc.clone();
                    let mut b = acc.clone();
                    path.add(&mut a, &row);
                    portable::add(&mut b, &row);
                    assert_eq!(a, b, "{path:?} add, n = {n}");
                    path.sub(&mut a, &row);
                    portable::sub(&mut b, &row);
                    assert_eq!(a, acc, "{path:?} add then sub, n = {n}");
                    assert_eq!(
                        path.screlu_dot(&acc, &row, qa),
                        portable::screlu_dot(&acc, &row, qa),
                        "{path:?} output, n = {n}, qa = {qa}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_output_sum_does_not_overflow_at_the_extremes() {
        let n = 1024;
        let acc = vec![i16::MAX; n];
        for w in [i16::MIN, i16::MAX] {
            let expected = n as i64 * 255 * 255 * w as i64;
            for path in Path::available() {
                assert_eq!(
                    path.screlu_dot(&acc, &vec![w; n], 255),
                    expected,
                    "{path:?}"
                );
            }
        }
    }
}
