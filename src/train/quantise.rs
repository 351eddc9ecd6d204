//! Float network ↔ network file: the mapping of `nnue::format` (feature weights and biases
//! × QA, output weights × QB, output bias × QA · QB), rounded to the nearest integer, and its
//! inverse for a run that starts from a shipped network. The trainer keeps weights inside
//! [`FEATURE_LIMIT`] and [`OUTPUT_LIMIT`] after every step, so nothing is clipped here that the
//! float network relied on.

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

/// The float network a quantised one stands for: each weight divided by its scale. Quantising
/// the result gives the same weights back (every stored weight is an integer well inside
/// `f32`'s exact range), so a run that starts from a network and trains no epoch writes it
/// again unchanged.
pub fn dequantise(net: &format::Network) -> FloatNetwork {
    let (qa, qb) = (net.header.qa as f32, net.header.qb as f32);
    let mut params = Vec::with_capacity(
        net.feature_weights.len() + net.feature_bias.len() + net.output_weights.len() + 1,
    );
    params.extend(net.feature_weights.iter().map(|&w| w as f32 / qa));
    params.extend(net.feature_bias.iter().map(|&w| w as f32 / qa));
    params.extend(net.output_weights.iter().map(|&w| w as f32 / qb));
    params.push((net.output_bias as f64 / (qa as f64 * qb as f64)) as f32);
    FloatNetwork {
        inputs: net.header.inputs(),
        hidden: net.header.hidden,
        params,
    }
}
