//! `panoply train`: fits an NNUE network (the layout of [`crate::nnue`]) to recorded
//! self-play positions. [`source`] reads positions, [`dataset`] and [`data`] turn them into
//! feature lists split by game and fit the sigmoid scale, [`network`] is the float network
//! with its forward and backward passes, [`optimizer`] AdamW and the rate schedule,
//! [`trainer`] the loop, [`checkpoint`] resumable state, [`quantise`] the network file.

pub mod checkpoint;
pub mod data;
pub mod dataset;
pub mod network;
pub mod optimizer;
pub mod quantise;
pub mod source;
pub mod trainer;

#[cfg(test)]
mod tests;
