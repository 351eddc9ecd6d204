//! Float network → network file: the mapping of `nnue::format` (feature weights and biases
//! × QA, output weights × QB, output bias × QA · QB), rounded to the nearest integer. The
//! trainer keeps weights inside [`FEATURE_LIMIT`] and [`OUTPUT_LIMIT`] after every step, so
//! nothing is clipped here that the float network relied on.

use super::network::{FloatNetwork, FEATURE_LIMIT, OUTPUT_LIMIT};
use crate::nnue::format::{self, Header};

pub const QA: i32 = 255;
pub const QB: i32 = 512;

fn round_i16(x: f32, limit: f32, q: i32) -> i16 {
    (x.clamp(-limit, limit) * q as f32).round() as i16
}

/// The quantised network; `header` gives the family, catalog, scale and notes (its `hidden`,
/// `qa` and `qb` are set here).
pub fn quantise(net: &FloatNetwork, mut header: Header) -> format::Network {
    header.hidden = net.hidden;
    header.qa = QA;
    header.qb = QB;
    let feature =
        |w: &[f32]| -> Vec<i16> { w.iter().map(|&x| round_i16(x, FEATURE_LIMIT, QA)).collect() };
    format::Network {
        feature_weights: feature(net.feature_weights()),
        feature_bias: feature(net.feature_bias()),
        output_weights: net
            .output_weights()
            .iter()
            .map(|&x| round_i16(x, OUTPUT_LIMIT, QB))
            .collect(),
        output_bias: (net.output_bias() as f64 * (QA * QB) as f64).round() as i32,
        header,
    }
}
