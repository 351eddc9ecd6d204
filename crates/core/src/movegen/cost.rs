//! The cost of legal move generation per generated move, so that boards of different sizes
//! and bitset widths can be compared (`panoply bench` reports the 3D/2D ratio).

use super::{generate, legal_moves, tables::Tables, MoveList};
use crate::bitboard::BitSet;
use crate::position::Position;
use std::time::Instant;

/// Positions from `games` random games of up to `plies` moves from `start` (deterministic:
/// the same seed gives the same positions), every position with a legal move included.
pub fn sample_positions<B: BitSet>(
    t: &Tables<B>,
    start: &Position<B>,
    games: usize,
    plies: usize,
    seed: u64,
) -> Vec<Position<B>> {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = *start;
        for _ in 0..plies {
            let moves = legal_moves(t, &pos);
            if moves.is_empty() {
                break;
            }
            out.push(pos);
            pos = pos.play(t, moves[(next() % moves.len() as u64) as usize]);
        }
    }
    out
}

/// Time and moves of repeated legal move generation on a set of positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cost {
    pub secs: f64,
    pub moves: u64,
}

impl Cost {
    pub fn nanos_per_move(&self) -> f64 {
        self.secs * 1e9 / self.moves.max(1) as f64
    }
}

/// Generates the legal moves of every position once into a reused list (moves listed, not
/// bulk-counted) and adds the time and the number of moves to `cost`. Callers alternate
/// rounds of the games they compare, so that load from other processes hits both alike.
pub fn generation_round<B: BitSet>(t: &Tables<B>, positions: &[Position<B>], cost: &mut Cost) {
    let mut list = MoveList::new();
    let start = Instant::now();
    for pos in positions {
        list.clear();
        generate(t, std::hint::black_box(pos), &mut list);
        cost.moves += std::hint::black_box(&list).len() as u64;
    }
    cost.secs += start.elapsed().as_secs_f64();
}
