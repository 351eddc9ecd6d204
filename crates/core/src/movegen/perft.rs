//! Perft: counts leaf nodes of the legal move tree, with bulk counting at the last ply and a
//! parallel version (rayon) that splits the root moves across threads.

use super::{count_legal, generate, legal_moves, tables::Tables, MoveList};
use crate::bitboard::BitSet;
use crate::moves::Move;
use crate::position::Position;
use rayon::prelude::*;

/// Leaf count of the legal move tree to `depth` plies.
pub fn perft<B: BitSet>(t: &Tables<B>, pos: &Position<B>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(t, pos),
        _ => {
            // Filled in place: returning the (large) list by value would copy it.
            let mut moves = MoveList::new();
            generate(t, pos, &mut moves);
            moves
                .iter()
                .map(|&m| perft(t, &pos.play(t, m), depth - 1))
                .sum()
        }
    }
}

/// Per-root-move counts, computed in parallel over the root moves.
pub fn divide<B: BitSet>(t: &Tables<B>, pos: &Position<B>, depth: u32) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = legal_moves(t, pos).into_iter().collect();
    if depth == 0 {
        return Vec::new();
    }
    moves
        .into_par_iter()
        .map(|m| (m, perft_split(t, &pos.play(t, m), depth - 1)))
        .collect()
}

/// Like [`perft`], parallel at the first levels where the tree is big enough to share.
pub fn perft_parallel<B: BitSet>(t: &Tables<B>, pos: &Position<B>, depth: u32) -> u64 {
    if depth <= 1 {
        return perft(t, pos, depth);
    }
    divide(t, pos, depth).iter().map(|&(_, n)| n).sum()
}

fn perft_split<B: BitSet>(t: &Tables<B>, pos: &Position<B>, depth: u32) -> u64 {
    if depth < 4 {
        return perft(t, pos, depth);
    }
    legal_moves(t, pos)
        .into_iter()
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|m| perft_split(t, &pos.play(t, m), depth - 1))
        .sum()
}

/// [`divide`], printing how many root moves are done on stderr as it goes.
pub fn divide_with_progress<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    depth: u32,
    progress: bool,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = legal_moves(t, pos).into_iter().collect();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = moves.len();
    let rows = moves
        .into_par_iter()
        .map(|m| {
            let n = perft_split(t, &pos.play(t, m), depth - 1);
            let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if progress {
                eprint!("\r{d}/{total} root moves");
            }
            (m, n)
        })
        .collect();
    if progress {
        eprintln!();
    }
    rows
}
