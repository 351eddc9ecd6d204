//! One small seeded random generator (SplitMix64) for everything that must replay from a
//! seed: random networks and games in the tests, the trainer's initialisation, shuffling and
//! validation split, and the data generator's openings. The same seed gives the same stream
//! on every machine.

/// One SplitMix64 step from state `x`: a good 64-bit hash of `x`.
pub fn mix(x: u64) -> u64 {
    Rng::new(x).next_u64()
}

/// SplitMix64. `Rng::new(seed)` starts from the seed as it is; nearby seeds still give
/// unrelated streams, because every output goes through the finaliser.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Folds `value` into the state, so that (seed, value) pairs give unrelated streams.
    pub fn fold_in(&mut self, value: u64) {
        self.0 ^= self.next_u64().wrapping_add(value);
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A uniform index into a slice of `len` items (0 when it is empty).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len.max(1) as u64) as usize
    }

    /// Uniform in `-bound..=bound`.
    pub fn within(&mut self, bound: i16) -> i16 {
        (self.below(2 * bound as u64 + 1) as i64 - bound as i64) as i16
    }

    /// Uniform in `[-limit, limit)`.
    pub fn uniform(&mut self, limit: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (unit * 2.0 - 1.0) * limit
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_splitmix64() {
        // The first outputs of SplitMix64 from state 0 (its reference sequence).
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(mix(0), 0xe220_a839_7b1d_cdaf);
    }
}
