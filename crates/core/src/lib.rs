//! Panoply's core, which knows no game family: cells and cell sets ([`geometry`],
//! [`bitboard`]), pieces as data ([`piece`]), variants as data ([`variant`]), moves
//! ([`moves`]), positions and their strings ([`position`]), move generation and perft
//! ([`movegen`]), and a game in progress with the choice of bitset width ([`game`]).
//!
//! A family's rules reach this crate only as data on a [`variant::Variant`] and as the
//! functions the family fills in ([`movegen::tables::FamilyRules`]); being a crate of its
//! own, it cannot call up into the families even by accident.

pub mod bitboard;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod outcome;
pub mod piece;
pub mod position;
pub mod variant;
