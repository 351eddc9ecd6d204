//! Tuning the evaluation from games: [`data`] (which positions to learn from, the file format)
//! and [`texel`] (fitting the weights to the results, `panoply tune`).

pub mod data;
pub mod texel;
