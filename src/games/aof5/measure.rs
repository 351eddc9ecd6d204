//! What self-play games measure for the Armies of Faith piece values (`panoply selfplay
//! --mobility --fit-values`): positions sampled from the games, each kind's reach in them,
//! and per-army value samples, fitted in [`super::fit`]. The reports are the text the
//! command prints, ending in a `table:` line to paste into `eval.rs`.

use super::eval::{mean_mobility_among, prior_value};
use super::fit::{fit_values, ValueSample, FIT_WEIGHTS};
use super::pieces::KIND_COUNT;
use crate::bitboard::BitSet;
use crate::game::record::Record;
use crate::game::{Game, Outcome};
use crate::movegen::tables::Tables;
use crate::piece::{Kind, Player};
use crate::position::Position;
use std::fmt::Write;

/// Plies between two sampled positions: far enough apart to differ.
pub const SAMPLE_EVERY: usize = 8;

/// A game's positions every few plies after the random opening, replayed from its start.
pub fn sampled_positions<B: BitSet>(
    mut game: Game<B>,
    moves: &[String],
    opening: usize,
) -> Vec<Position<B>> {
    let mut out = Vec::new();
    for (ply, m) in moves.iter().enumerate() {
        if ply >= opening && (ply - opening).is_multiple_of(SAMPLE_EVERY) {
            out.push(game.pos);
        }
        game.play_str(m).expect("a recorded move replays");
    }
    out
}

/// Each army still playing in `pos`, with its material against the others and how the
/// game ended for it.
pub fn value_samples<B: BitSet>(pos: &Position<B>, record: &Record) -> Vec<ValueSample> {
    let playing: Vec<usize> = (0..4).filter(|&p| pos.is_alive(Player(p as u8))).collect();
    let counts = army_counts(pos);
    playing
        .iter()
        .map(|&p| ValueSample {
            difference: material_difference(&counts, &playing, p),
            playing: playing.len(),
            result: result_for(record, p),
        })
        .collect()
}

/// Army `p`'s pieces per kind less the mean of the other armies playing.
fn material_difference(
    counts: &[[f64; KIND_COUNT]; 4],
    playing: &[usize],
    p: usize,
) -> [f64; KIND_COUNT] {
    let mut difference = [0.0; KIND_COUNT];
    for (k, d) in difference.iter_mut().enumerate() {
        let others: f64 = playing
            .iter()
            .filter(|&&q| q != p)
            .map(|&q| counts[q][k])
            .sum();
        *d = counts[p][k] - others / (playing.len() - 1).max(1) as f64;
    }
    difference
}

/// Army `p`'s result: 1 for the winner, 0 for a loser, an equal share for the armies still
/// playing at a draw or an unfinished game.
fn result_for(record: &Record, p: usize) -> f64 {
    let at_end: Vec<usize> = (0..4)
        .filter(|&p| !record.checkmates.iter().any(|c| c.victim.index() == p))
        .collect();
    match &record.outcome {
        Some(Outcome::Win { winner, .. }) => (winner.index() == p) as u8 as f64,
        _ if at_end.contains(&p) => 1.0 / at_end.len() as f64,
        _ => 0.0,
    }
}

/// Pieces per army and kind.
fn army_counts<B: BitSet>(pos: &Position<B>) -> [[f64; KIND_COUNT]; 4] {
    let mut counts = [[0.0; KIND_COUNT]; 4];
    for (p, army) in counts.iter_mut().enumerate() {
        for (k, c) in army.iter_mut().enumerate() {
            *c = pos.pieces(Player(p as u8), Kind(k as u8)).count() as f64;
        }
    }
    counts
}

/// Fits the piece values to the games' results; the report gives them with what they make
/// of the start position.
pub fn fit_report<B: BitSet>(
    t: &Tables<B>,
    start: &Position<B>,
    samples: &[ValueSample],
) -> String {
    let (prior, free) = priors(t);
    let counts = army_counts(start);
    let fit = fit_values(samples, &prior, &free, &counts, FIT_WEIGHTS);
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "value fit over {} army-positions: scale {:.0}, mean squared error {:.5} with the \
         priors, {:.5} fitted",
        samples.len(),
        fit.scale,
        fit.error_before,
        fit.error_after
    );
    let start_total = |values: &[f64; KIND_COUNT], p: usize| -> f64 {
        counts[p].iter().zip(values).map(|(c, v)| c * v).sum()
    };
    for (p, name) in t.variant.armies.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {name:<10} start material: prior {:.0}, fitted {:.0}",
            start_total(&prior, p),
            start_total(&fit.values, p)
        );
    }
    for k in t.variant.kinds() {
        let _ = writeln!(
            out,
            "  {:<13} prior {:5.0}  fitted {:5.0}",
            t.variant.kind(k).name,
            prior[k.index()],
            fit.values[k.index()]
        );
    }
    let table: Vec<String> = fit
        .values
        .iter()
        .map(|v| format!("{}", v.round() as i32))
        .collect();
    let _ = writeln!(out, "  table: [{}]", table.join(", "));
    out
}

/// Each kind's prior value, and whether the fit may move it.
fn priors<B: BitSet>(t: &Tables<B>) -> ([f64; KIND_COUNT], [bool; KIND_COUNT]) {
    let mut prior = [0.0; KIND_COUNT];
    let mut free = [false; KIND_COUNT];
    for k in t.variant.kinds() {
        let def = t.variant.kind(k);
        prior[k.index()] = if def.royal { 0.0 } else { prior_value(k) };
        // Pawns and Yeomen stay at 100: the unit the other values are counted in.
        free[k.index()] = !def.royal && !def.pawn;
    }
    (prior, free)
}

/// Each kind's mean reach on the empty board and in the sampled positions, and the
/// measured table as `games/aof5/eval.rs` holds it.
pub fn mobility_report<B: BitSet>(t: &Tables<B>, occupancies: &[B]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "mobility over {} sampled positions:",
        occupancies.len()
    );
    let mut table = Vec::new();
    for k in t.variant.kinds() {
        let empty = mean_mobility_among(t, k, &[B::empty()]);
        let in_play = mean_mobility_among(t, k, occupancies);
        let _ = writeln!(
            out,
            "  {:<13} empty board {empty:6.2}  in play {in_play:6.2}",
            t.variant.kind(k).name
        );
        table.push(format!("{in_play:.2}"));
    }
    let _ = writeln!(out, "  table: [{}]", table.join(", "));
    out
}
