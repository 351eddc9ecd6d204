//! `panoply openings`: balanced opening suites for testing. Short, lightly biased random
//! lines from the variant's start (where engine sessions start it): each ply picks at random
//! among the moves whose resulting position the static evaluation puts within
//! [`PLY_MARGIN`] of the best, so lines look like play rather than King walks and hung
//! pieces. Each end position is searched by
//! Panoply's own search at a shallow fixed depth and kept only when the score is within a
//! margin of level and the game is not over. Positions are distinct. With a seed and a fixed
//! depth on one thread, a suite is reproducible.
//!
//! Games of more than two players (Armies of Faith) have no centipawn search score from the
//! side to move's view: there each ply's candidates are judged by the mover's utility (the
//! family's multi-player evaluation), and a position is kept when every army's static
//! utility is within the margin of level. The four-seat gauntlet needs such a suite: at fixed
//! nodes every game from the start position is the same game.

use crate::bitboard::BitSet;
use crate::game::Game;
use crate::games;
use crate::games::utility::{multi_player_utility, SharedUtility};
use crate::movegen::tables::Tables;
use crate::moves::Move;
use crate::piece::Player;
use crate::random::XorShiftStar;
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
    let mut judge = Judge::new(t)?;
    let mut rng = XorShiftStar::new(s.seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for tries in 1..=s.max_tries {
        if out.len() >= s.count {
            break;
        }
        let Some(game) = random_line(&mut judge, &start, s, &mut rng) else {
            continue;
        };
        let position = game.position_string();
        if seen.contains(&position) {
            continue;
        }
        if judge.level_enough(&game, s) {
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
    judge: &mut Judge<B>,
    start: &Game<B>,
    s: &SuiteSettings,
    rng: &mut XorShiftStar,
) -> Option<Game<B>> {
    let span = (s.plies.1 - s.plies.0 + 1) as u64;
    let plies = s.plies.0 + rng.below(span) as usize;
    let mut game = start.clone();
    for _ in 0..plies {
        if game.outcome().is_some() {
            return None;
        }
        let candidates = plausible_moves(judge, &game);
        if candidates.is_empty() {
            return None;
        }
        game.play(candidates[rng.below(candidates.len() as u64) as usize]);
    }
    game.outcome().is_none().then_some(game)
}

/// The legal moves after which the mover's static view is within [`PLY_MARGIN`] of the best.
fn plausible_moves<B: BitSet>(judge: &mut Judge<B>, game: &Game<B>) -> Vec<Move> {
    let scored: Vec<(Move, i32)> = game
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = game.clone();
            child.play(mv);
            (mv, judge.mover_value(game, &child))
        })
        .collect();
    let best = scored.iter().map(|&(_, v)| v).max().unwrap_or(0);
    scored
        .into_iter()
        .filter(|&(_, v)| v >= best - PLY_MARGIN)
        .map(|(mv, _)| mv)
        .collect()
}

/// What judges moves and positions: the two-player search, or the family's utility per army.
enum Judge<B: BitSet> {
    Search(Box<Searcher<B>>),
    Utility(Arc<Tables<B>>, SharedUtility<B>),
}

impl<B: BitSet> Judge<B> {
    fn new(t: &Arc<Tables<B>>) -> Result<Judge<B>, String> {
        if t.players() == 2 {
            return Ok(Judge::Search(Box::new(Searcher::new(
                t.clone(),
                SearchOptions {
                    hash_mb: 16,
                    threads: 1,
                    multi_pv: 1,
                },
            ))));
        }
        match multi_player_utility(t) {
            Some(u) => Ok(Judge::Utility(t.clone(), u)),
            None => Err(format!(
                "{}: no evaluation for {} players",
                t.variant.name,
                t.players()
            )),
        }
    }

    /// The static value of `child` for the army that moved from `parent` into it.
    fn mover_value(&mut self, parent: &Game<B>, child: &Game<B>) -> i32 {
        match self {
            Judge::Search(searcher) => -searcher.evaluate(child),
            Judge::Utility(t, u) => u.utility(t, &child.pos, parent.pos.side),
        }
    }

    /// Two players: a shallow search scores it near level. More: every army still playing
    /// is statically near level.
    fn level_enough(&mut self, game: &Game<B>, s: &SuiteSettings) -> bool {
        match self {
            Judge::Search(searcher) => {
                searcher.new_game();
                let limits = Limits {
                    depth: Some(s.depth),
                    ..Limits::default()
                };
                let result = searcher.search(game, &limits, &AtomicBool::new(false), &mut |_| {});
                matches!(result.score, Score::Cp(cp) if cp.abs() <= s.max_eval)
            }
            Judge::Utility(t, u) => (0..t.players())
                .map(|p| Player(p as u8))
                .filter(|&p| game.pos.is_alive(p))
                .all(|p| u.utility(t, &game.pos, p).abs() <= s.max_eval),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_four_player_suite_has_distinct_playable_positions_away_from_the_start() {
        let settings = SuiteSettings {
            variant: "aof5".into(),
            count: 3,
            plies: (4, 6),
            max_eval: 200,
            depth: 1,
            seed: 5,
            max_tries: 200,
        };
        let lines = make_suite(&settings, &|_| {}).unwrap();
        assert_eq!(lines.len(), 3);
        let tables = games::tables("aof5").unwrap();
        crate::with_tables!(&tables, t => {
            let start = Game::from_position_string(t.clone(), t.variant.session_start())
                .unwrap()
                .position_string();
            let mut seen = HashSet::new();
            for line in &lines {
                let position = line.strip_prefix("aof5 ").expect("tagged with its variant");
                let game = Game::from_position_string(t.clone(), position).unwrap();
                assert!(game.outcome().is_none());
                assert!(!game.legal_moves().is_empty());
                assert_ne!(game.position_string(), start);
                assert!(seen.insert(position.to_string()), "{position} twice");
            }
        });
        // The same seed makes the same suite.
        assert_eq!(make_suite(&settings, &|_| {}).unwrap(), lines);
    }
}
