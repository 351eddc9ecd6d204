//! Panoply: a chess-variant engine for chess with different armies, in 2D and 3D, for two
//! and four players.
//!
//! Data flows one way: protocol -> session -> search -> movegen -> board. The layers, bottom
//! up (docs/architecture.md; `tests/layers.rs` keeps the order): the core crate
//! `panoply-core`, re-exported here under the same names — [`geometry`] and [`bitboard`]
//! (cells and cell sets), [`piece`] (pieces as data), [`variant`] (rules as data), [`moves`],
//! [`position`] (the board state and position strings), [`movegen`] (tables, legal moves,
//! perft), [`game`] (a game in progress, the width choice) — which knows no family; then
//! [`random`] (the seeded generators of everything that replays from a seed), [`located`]
//! (errors at a line of a file), [`digest`] (SHA-256), [`out`] (stdout that a closed pipe ends
//! quietly) and [`version`] (the build's name and commit); [`eval`] and [`nnue`] (the evaluations); [`games`] (the
//! families, which fill in their variants, and the registry of variant names); [`search`];
//! [`session`] (the engine as the protocols and the board server drive it); and, on top,
//! [`protocol`] (UCI, XBoard), [`server`] (the browser board), [`shell`] (a text interface
//! for humans), [`tournament`] (`panoply match`, engines as child processes, books, PGN),
//! [`armies`] (armies defined in a file), [`interop`] (other engines' conventions),
//! [`bench`] (`panoply bench`), [`datagen`] (training games), [`train`] (NNUE networks) and
//! [`tune`] (the Texel fit, labels).

pub use panoply_core::{
    bitboard, game, geometry, movegen, moves, outcome, piece, position, variant, with_tables,
};

pub mod armies;
pub mod bench;
pub mod datagen;
pub mod digest;
pub mod engines;
pub mod eval;
pub mod games;
pub mod interop;
pub mod located;
pub mod nnue;
pub mod out;
pub mod protocol;
pub mod random;
pub mod records;
pub mod search;
pub mod server;
pub mod session;
pub mod shell;
pub mod tournament;
pub mod train;
pub mod tune;
pub mod version;
