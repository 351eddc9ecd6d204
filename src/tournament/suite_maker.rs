//! `panoply openings`: balanced opening suites for testing. Short, lightly biased random
//! lines from the variant's start (where engine sessions start it): each ply picks at random
//! among the moves whose resulting position the static evaluation puts within
//! [`PLY_MARGIN`] of the best, so lines look like play rather than King walks and hung
//! pieces. Each end position is searched by
//! Panoply's own search at a shallow fixed depth and kept only when the score is within a
//! margin of level and the game is not over. Positions are distinct. With a seed and a fixed
//! depth on one thread, a suite is reproducible.

use super::book::Rng;
use crate::bitboard::BitSet;
use crate::game::Game;
use crate::games;
use crate::movegen::tables::Tables;
use crate::moves::Move;
use crate::search::{Limits, Score, SearchOptions, Searcher};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Moves within this many centipawns of the best-looking one are candidates at each ply.
const PLY_MARGIN: i32 = 80;

#[derive(Clone, Debug)]
pub struct SuiteSettings {
    pub variant: String,
    /// Positions wanted.
    pub count: usize,
    /// Random plies per line, inclusive range.
    pub plies: (usize, usize),
    /// Keep positions the search scores within this many centipawns of level.
    pub max_eval: i32,
    /// Search depth per position.
    pub depth: u32,
    pub seed: u64,
    /// Give up after this many lines (a variant whose random lines are rarely level).
    pub max_tries: usize,
}

/// The suite's lines (`variant position`), in the order found.
pub fn make_suite(s: &SuiteSettings, report: &dyn Fn(&str)) -> Result<Vec<String>, String> {
    if s.plies.0 > s.plies.1 {
        return Err(format!(
            "the ply range {}..{} is empty",
            s.plies.0, s.plies.1
        ));
    }
    let tables = games::tables(&s.variant).map_err(|e| e.to_string())?;
    if tables.variant().players() != 2 {
        return Err(format!(
            "{}: opening suites are for two-player games",
            s.variant
        ));
    }
    crate::with_tables!(&tables, t => collect(t, s, report))
}

fn collect<B: BitSet>(
    t: &Arc<Tables<B>>,
    s: &SuiteSettings,
    report: &dyn Fn(&str),
) -> Result<Vec<String>, String> {
    let name = t.variant.name.clone();
    let start = Game::from_position_string(t.clone(), t.variant.session_start())
        .map_err(|e| format!("{name}: {e}"))?;
    let mut searcher = Searcher::new(
        t.clone(),
        SearchOptions {
            hash_mb: 16,
            threads: 1,
            multi_pv: 1,
        },
    );
    let mut rng = Rng::new(s.seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for tries in 1..=s.max_tries {
        if out.len() >= s.count {
            break;
        }
        let Some(game) = random_line(&mut searcher, &start, s, &mut rng) else {
            continue;
        };
        let position = game.position_string();
        if seen.contains(&position) {
            continue;
        }
        searcher.new_game();
        if level_enough(&mut searcher, &game, s) {
            seen.insert(position.clone());
            out.push(format!("{name} {position}"));
            if out.len() % 100 == 0 {
                report(&format!(
                    "{name}: {} positions from {tries} lines",
                    out.len()
                ));
            }
        }
    }
    if out.len() < s.count {
        report(&format!(
            "{name}: only {} positions found in {} lines",
            out.len(),
            s.max_tries
        ));
    }
    Ok(out)
}

/// A random line of a length in the range; `None` if the game ended on the way.
fn random_line<B: BitSet>(
    searcher: &mut Searcher<B>,
    start: &Game<B>,
    s: &SuiteSettings,
    rng: &mut Rng,
) -> Option<Game<B>> {
    let span = (s.plies.1 - s.plies.0 + 1) as u64;
    let plies = s.plies.0 + rng.below(span) as usize;
    let mut game = start.clone();
    for _ in 0..plies {
        if game.outcome().is_some() {
            return None;
        }
        let candidates = plausible_moves(searcher, &game);
        if candidates.is_empty() {
            return None;
        }
        game.play(candidates[rng.below(candidates.len() as u64) as usize]);
    }
    game.outcome().is_none().then_some(game)
}

/// The legal moves after which the static evaluation is within [`PLY_MARGIN`] of the best.
fn plausible_moves<B: BitSet>(searcher: &mut Searcher<B>, game: &Game<B>) -> Vec<Move> {
    let scored: Vec<(Move, i32)> = game
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = game.clone();
            child.play(mv);
            (mv, -searcher.evaluate(&child))
        })
        .collect();
    let best = scored.iter().map(|&(_, v)| v).max().unwrap_or(0);
    scored
        .into_iter()
        .filter(|&(_, v)| v >= best - PLY_MARGIN)
        .map(|(mv, _)| mv)
        .collect()
}

fn level_enough<B: BitSet>(searcher: &mut Searcher<B>, game: &Game<B>, s: &SuiteSettings) -> bool {
    let limits = Limits {
        depth: Some(s.depth),
        ..Limits::default()
    };
    let result = searcher.search(game, &limits, &AtomicBool::new(false), &mut |_| {});
    matches!(result.score, Score::Cp(cp) if cp.abs() <= s.max_eval)
}
