//! The float network the trainer fits, shaped as the network file stores it: feature weights
//! (a row of `hidden` per input, shared by both perspectives), feature biases, output weights
//! (the side to move's half first) and an output bias, all in one flat vector so the
//! optimiser and the checkpoints see a single array. Forward and backward passes work on
//! feature lists: an accumulator is the bias plus the rows of the active inputs, and the
//! first layer's gradient touches only those rows.

use crate::random::{mix, Rng};

/// Float weights and biases of the first layer stay within this, so that × QA = 255 they fit
/// `i16` (≤ 502) and no accumulator can leave the `i16` range even in the worst case the
/// engine checks, a bias plus one piece on each of 64 cells: 65 · 502 = 32630 ≤ 32767.
pub const FEATURE_LIMIT: f32 = 1.97;
/// Output weights stay within `i16::MAX / QB` (QB = 512): ±63.99, wide enough never to bind
/// in practice; QB is large so that small output weights keep their precision.
pub const OUTPUT_LIMIT: f32 = 32767.0 / 512.0;

#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub inputs: usize,
    pub hidden: usize,
    /// `[inputs * hidden]` feature weights, `[hidden]` feature biases, `[2 * hidden]` output
    /// weights, `[1]` output bias.
    pub params: Vec<f32>,
}

/// `clamp(x, 0, 1)²`.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The derivative of [`screlu`].
#[inline]
fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        2.0 * x
    } else {
        0.0
    }
}

/// The two accumulators of one position, kept between the forward and the backward pass.
pub struct Scratch {
    own: Vec<f32>,
    other: Vec<f32>,
    d_own: Vec<f32>,
    d_other: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            own: vec![0.0; hidden],
            other: vec![0.0; hidden],
            d_own: vec![0.0; hidden],
            d_other: vec![0.0; hidden],
        }
    }
}

/// A gradient with the same layout as [`FloatNetwork::params`], and which feature rows it touched
/// (only those are summed and cleared).
pub struct Gradient {
    pub values: Vec<f32>,
    touched: Vec<bool>,
    rows: Vec<u16>,
}

impl Gradient {
    pub fn new(net: &FloatNetwork) -> Gradient {
        Gradient {
            values: vec![0.0; net.params.len()],
            touched: vec![false; net.inputs],
            rows: Vec::new(),
        }
    }

    fn touch(&mut self, row: u16) {
        if !self.touched[row as usize] {
            self.touched[row as usize] = true;
            self.rows.push(row);
        }
    }

    /// Adds `other` into `self`: the touched feature rows and every dense parameter.
    pub fn add(&mut self, other: &Gradient, hidden: usize) {
        for &row in &other.rows {
            self.touch(row);
            let r = row as usize * hidden..(row as usize + 1) * hidden;
            for (a, b) in self.values[r.clone()].iter_mut().zip(&other.values[r]) {
                *a += b;
            }
        }
        let dense = self.touched.len() * hidden;
        for (a, b) in self.values[dense..].iter_mut().zip(&other.values[dense..]) {
            *a += b;
        }
    }

    /// Back to zero, at the cost of the touched rows only.
    pub fn clear(&mut self, hidden: usize) {
        for &row in &self.rows {
            self.touched[row as usize] = false;
            self.values[row as usize * hidden..(row as usize + 1) * hidden].fill(0.0);
        }
        self.rows.clear();
        let dense = self.touched.len() * hidden;
        self.values[dense..].fill(0.0);
    }
}

impl FloatNetwork {
    /// Random weights from `seed`: first-layer weights uniform in ±1/√32 (so a position's
    /// thirty-odd active rows put accumulators around the SCReLU's bend), output weights in
    /// ±1/√(2·hidden), biases zero.
    pub fn new(inputs: usize, hidden: usize, seed: u64) -> FloatNetwork {
        let mut rng = Rng::new(mix(seed));
        let mut params = vec![0.0; inputs * hidden + hidden + 2 * hidden + 1];
        let feature = (32f32).sqrt().recip();
        for w in &mut params[..inputs * hidden] {
            *w = rng.uniform(feature);
        }
        let output = ((2 * hidden) as f32).sqrt().recip();
        let start = inputs * hidden + hidden;
        for w in &mut params[start..start + 2 * hidden] {
            *w = rng.uniform(output);
        }
        FloatNetwork {
            inputs,
            hidden,
            params,
        }
    }

    /// Output weights and bias zero: the network outputs 0 until trained.
    pub fn zero_output(&mut self) {
        let start = self.output_start();
        self.params[start..].fill(0.0);
    }

    fn feature_bias_start(&self) -> usize {
        self.inputs * self.hidden
    }

    fn output_start(&self) -> usize {
        self.feature_bias_start() + self.hidden
    }

    pub fn feature_weights(&self) -> &[f32] {
        &self.params[..self.feature_bias_start()]
    }

    pub fn feature_bias(&self) -> &[f32] {
        &self.params[self.feature_bias_start()..self.output_start()]
    }

    pub fn output_weights(&self) -> &[f32] {
        &self.params[self.output_start()..self.output_start() + 2 * self.hidden]
    }

    pub fn output_bias(&self) -> f32 {
        self.params[self.params.len() - 1]
    }

    fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        acc.copy_from_slice(self.feature_bias());
        for &f in features {
            let row = &self.params[f as usize * h..(f as usize + 1) * h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The float output (centipawns / scale) for the side to move's and the other side's
    /// active inputs; the accumulators stay in `s` for [`FloatNetwork::backward`].
    pub fn forward(&self, own: &[u16], other: &[u16], s: &mut Scratch) -> f32 {
        self.accumulate(own, &mut s.own);
        self.accumulate(other, &mut s.other);
        let (w_own, w_other) = self.output_weights().split_at(self.hidden);
        let mut out = self.output_bias();
        for (x, w) in s.own.iter().zip(w_own) {
            out += screlu(*x) * w;
        }
        for (x, w) in s.other.iter().zip(w_other) {
            out += screlu(*x) * w;
        }
        out
    }

    /// Adds to `grad` the gradient of a loss whose derivative by the output is `d_out`, for
    /// the position [`FloatNetwork::forward`] last saw in `s`.
    pub fn backward(
        &self,
        own: &[u16],
        other: &[u16],
        d_out: f32,
        s: &mut Scratch,
        grad: &mut Gradient,
    ) {
        let h = self.hidden;
        let out_start = self.output_start();
        let (w_own, w_other) = self.output_weights().split_at(h);
        let g = &mut grad.values;
        g[self.params.len() - 1] += d_out;
        for i in 0..h {
            g[out_start + i] += d_out * screlu(s.own[i]);
            g[out_start + h + i] += d_out * screlu(s.other[i]);
            s.d_own[i] = d_out * w_own[i] * screlu_slope(s.own[i]);
            s.d_other[i] = d_out * w_other[i] * screlu_slope(s.other[i]);
        }
        let bias = self.feature_bias_start();
        for i in 0..h {
            g[bias + i] += s.d_own[i] + s.d_other[i];
        }
        for (features, d) in [(own, &s.d_own), (other, &s.d_other)] {
            for &f in features {
                grad.touch(f);
                let row = &mut grad.values[f as usize * h..(f as usize + 1) * h];
                for (a, b) in row.iter_mut().zip(d.iter()) {
                    *a += b;
                }
            }
        }
    }

    /// Keeps every weight inside the range its quantised form can hold.
    pub fn clip(&mut self) {
        let out = self.output_start();
        for w in &mut self.params[..out] {
            *w = w.clamp(-FEATURE_LIMIT, FEATURE_LIMIT);
        }
        let end = out + 2 * self.hidden;
        for w in &mut self.params[out..end] {
            *w = w.clamp(-OUTPUT_LIMIT, OUTPUT_LIMIT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loss with a nonlinear derivative: (y - 0.3)², so d/dy = 2(y - 0.3).
    fn loss(net: &FloatNetwork, own: &[u16], other: &[u16], s: &mut Scratch) -> f64 {
        let y = net.forward(own, other, s) as f64;
        (y - 0.3).powi(2)
    }

    #[test]
    fn gradients_match_finite_differences() {
        let mut net = FloatNetwork::new(12, 4, 3);
        // Put biases where the SCReLU bends, so every branch of the slope is exercised.
        for (i, b) in net.params[48..52].iter_mut().enumerate() {
            *b = [0.3, -0.2, 0.7, 0.1][i];
        }
        let (own, other): (&[u16], &[u16]) = (&[0, 5, 7], &[2, 5, 11]);
        let mut s = Scratch::new(4);
        let y = net.forward(own, other, &mut s);
        let mut grad = Gradient::new(&net);
        net.backward(own, other, 2.0 * (y - 0.3), &mut s, &mut grad);
        let mut checked = 0;
        for i in 0..net.params.len() {
            let eps = 1e-3;
            let mut plus = net.clone();
            plus.params[i] += eps;
            let mut minus = net.clone();
            minus.params[i] -= eps;
            let numeric = (loss(&plus, own, other, &mut s) - loss(&minus, own, other, &mut s))
                / (2.0 * eps as f64);
            let analytic = grad.values[i] as f64;
            assert!(
                (numeric - analytic).abs() < 2e-3 * (1.0 + numeric.abs()),
                "parameter {i}: finite difference {numeric}, backward {analytic}"
            );
            if analytic != 0.0 {
                checked += 1;
            }
        }
        // Rows of inactive inputs have no gradient; the active ones and the dense part do.
        assert!(checked > 20, "only {checked} nonzero gradients");
        // Clearing leaves nothing behind.
        grad.clear(4);
        assert!(grad.values.iter().all(|&g| g == 0.0));
    }
}
