//! Seeded random networks, for the tests that compare the engine's paths and for speed
//! measurements before a trained network exists. Their weights are small enough that every
//! accumulator stays inside the `i16` range the engine requires ([`super::layers::check_bounds`]).

use super::features::Catalog;
use super::format::{Header, Network};
use serde_json::json;

/// A small deterministic generator (splitmix64), so a seed reproduces a network.
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

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Uniform in `-bound..=bound`.
    pub fn within(&mut self, bound: i16) -> i16 {
        (self.below(2 * bound as u64 + 1) as i64 - bound as i64) as i16
    }
}

/// A random network for `catalog` on boards of `cells` cells with `hidden` units per
/// perspective (QA 255, QB 64, scale 400, as a trained network would have).
pub fn network(family: &str, catalog: Catalog, cells: usize, hidden: usize, seed: u64) -> Network {
    let header = Header {
        family: family.to_string(),
        cells,
        catalog,
        hidden,
        qa: 255,
        qb: 64,
        scale: 400,
        notes: json!({"random": true, "seed": seed}),
    };
    let mut rng = Rng::new(seed);
    // A cell holds one piece: |bias| + cells · max|w| must stay below 2^15.
    let bound = (32_000 / (cells + 1)).min(127) as i16;
    let inputs = header.inputs();
    Network {
        feature_weights: (0..inputs * hidden).map(|_| rng.within(bound)).collect(),
        feature_bias: (0..hidden).map(|_| rng.within(bound)).collect(),
        output_weights: (0..2 * hidden).map(|_| rng.within(16)).collect(),
        output_bias: rng.within(1000) as i32,
        header,
    }
}
