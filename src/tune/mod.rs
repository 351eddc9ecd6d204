//! Tuning the evaluation from games: [`data`] (which positions to learn from, the file format),
//! [`label`] (another engine's scores for them, `panoply label`) and [`texel`] (fitting the
//! weights to the results, `panoply tune`); [`golden`] fits the logistic scale for it and for
//! the network trainer.

pub mod data;
pub mod golden;
pub mod label;
pub mod texel;
