//! Search and evaluation in the Missionary drop games: pieces in hand count as material, a
//! mate by drop is found, and short self-play games end by the rules without crashing.

use crate::common;

use common::{missionary_corner, tables};
use panoply::bitboard::Wide;
use panoply::eval::Evaluator;
use panoply::game::Game;
use panoply::search::{Limits, Score, SearchOptions, Searcher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn searcher(t: &Arc<panoply::movegen::tables::Tables<Wide>>) -> Searcher<Wide> {
    Searcher::new(
        t.clone(),
        SearchOptions {
            hash_mb: 8,
            threads: 1,
            multi_pv: 1,
        },
    )
}

#[test]
fn pieces_in_hand_count_as_material() {
    for name in ["missionary", "missiogi", "frontofhouse"] {
        let t = tables(name);
        let ev = Evaluator::new(&t);
        let eval = |h: &str| {
            let g = Game::from_position_string(t.clone(), &missionary_corner(h, 'w')).unwrap();
            ev.evaluate(&t, &g.pos)
        };
        let rook = t.variant.kind_by_token("R").unwrap();
        let gain = eval("R") - eval("");
        assert!(
            gain >= ev.value(panoply::piece::Player::WHITE, rook),
            "{name}: a Rook in hand adds {gain}"
        );
        assert!(
            eval("r") < eval(""),
            "{name}: Black's hand counts for Black"
        );
    }
}

#[test]
fn search_finds_a_mate_by_drop() {
    let t = tables("missionary");
    let g = Game::from_position_string(t.clone(), &missionary_corner("R", 'w')).unwrap();
    let mut s = searcher(&t);
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let r = s.search(&g, &limits, &AtomicBool::new(false), &mut |_| {});
    let best = g.format_move(r.best.unwrap());
    assert!(
        ["R@wa8", "R@xa8", "R@ya8", "R@za8"].contains(&best.as_str()),
        "{best}"
    );
    assert_eq!(r.score, Score::Mate(1));
}

/// Plays a short game at a small fixed depth; returns the number of plies and the outcome.
fn self_play(name: &str, depth: u32, max_plies: usize) -> (usize, Option<panoply::game::Outcome>) {
    let t = tables(name);
    let mut g = Game::new(t.clone());
    let mut s = searcher(&t);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    for ply in 0..max_plies {
        if let Some(o) = g.outcome() {
            return (ply, Some(o));
        }
        let r = s.search(&g, &limits, &AtomicBool::new(false), &mut |_| {});
        let mv = r.best.expect("a move while the game is not over");
        assert!(g.legal_moves().contains(&mv), "{name}: illegal best move");
        g.play(mv);
    }
    (max_plies, g.outcome())
}

#[test]
fn short_self_play_games_stay_legal() {
    for name in ["missionary", "missiogi", "frontofhouse"] {
        let (plies, outcome) = self_play(name, 2, 12);
        assert!(plies > 0, "{name}");
        eprintln!("{name}: {plies} plies, {outcome:?}");
    }
}

#[test]
#[ignore = "slow: longer self-play games, run once for the closing report"]
fn longer_self_play_games_end_by_the_rules() {
    for name in ["missionary", "missiogi", "frontofhouse"] {
        let (plies, outcome) = self_play(name, 3, 300);
        eprintln!("{name}: {plies} plies, {outcome:?}");
    }
}
