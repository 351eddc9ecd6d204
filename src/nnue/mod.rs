//! The learned evaluation (NNUE): a network whose first layer is kept up to date move by move.
//! [`features`] says which inputs a position switches on, [`format`] reads and writes network
//! files. The layout: one input per (piece identity, own or enemy, cell) seen from each side's
//! perspective; a hidden layer per perspective (the accumulator); squared clipped ReLU; one
//! output. Families without a network keep the classical evaluation ([`crate::eval`]).

pub mod features;
pub mod format;
