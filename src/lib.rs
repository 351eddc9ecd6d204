//! Panoply: a chess-variant engine for chess with different armies, in 2D and 3D, for two
//! and four players.
//!
//! Data flows one way: protocol -> game -> search -> movegen -> board. The layers, bottom up:
//! [`geometry`] and [`bitboard`] (cells and cell sets), [`piece`] (pieces as data),
//! [`variant`] and [`games`] (rules as data), [`movegen`] (tables, legal moves, perft),
//! [`position`] (the board state and position strings), [`game`] (the width choice).
//! Beside them: [`shell`] (a text interface for humans), [`tournament`] (`panoply match`, engines as child processes), [`interop`]
//! (other engines' conventions) and [`bench`] (`panoply bench`: perft and search speed).

pub mod bench;
pub mod bitboard;
pub mod eval;
pub mod game;
pub mod games;
pub mod geometry;
pub mod interop;
pub mod movegen;
pub mod moves;
pub mod piece;
pub mod position;
pub mod protocol;
pub mod search;
pub mod server;
pub mod shell;
pub mod tournament;
pub mod tune;
pub mod variant;
