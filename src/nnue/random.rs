//! Seeded random networks, for the tests that compare the engine's paths and for speed
//! measurements before a trained network exists. Their weights are small enough that every
//! accumulator stays inside the `i16` range the engine requires ([`super::layers::check_bounds`]).

use super::features::Catalog;
use super::format::{Header, Network};
use crate::random::Rng;
use serde_json::json;

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
        base: super::format::Base::Nothing,
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
