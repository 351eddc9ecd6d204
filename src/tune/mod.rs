//! Tuning the evaluation from games: [`data`] (which positions to learn from, the file format),
//! [`label`] (another engine's scores for them, `panoply label`) and [`texel`] (fitting the
//! weights to the results, `panoply tune`).

pub mod data;
pub mod label;
pub mod texel;
