//! The toy family through the whole engine: move generation (perft against a count by hand
//! and an independent brute-force count), its own rule, a search and a game played
//! in-process — all reached by its name, through the registry, like any family.

use super::START;
use crate::game::{AnyTables, Game};
use crate::games;
use crate::movegen::{perft, tables::Tables};
use crate::outcome::Outcome;
use crate::piece::Player;
use crate::position::fen;
use crate::search::{Limits, Score, SearchOptions, Searcher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn tables() -> Arc<Tables<u64>> {
    match games::tables(super::NAME).expect("the registry knows the toy") {
        AnyTables::Narrow(t) => t,
        AnyTables::Wide(_) => panic!("a 5x5 board fits 64 cells"),
    }
}

/// A square's content in the independent count: (side, is a Rook).
type Square = Option<(usize, bool)>;

/// Leaf count of Kings and Rooks on 5x5 (cells `rank * 5 + file`), written apart from the
/// engine's move generator: every King step and Rook slide to a cell not held by its own
/// side, kept when the mover's King is not attacked afterwards.
fn brute_force(board: [Square; 25], side: usize, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut leaves = 0;
    for from in 0..25 {
        let Some((s, rook)) = board[from] else {
            continue;
        };
        if s != side {
            continue;
        }
        for to in targets(&board, from, rook) {
            let mut next = board;
            next[to] = next[from].take();
            let king = (0..25).find(|&c| next[c] == Some((side, false)));
            if king.is_some_and(|k| !attacked(&next, k, 1 - side)) {
                leaves += brute_force(next, 1 - side, depth - 1);
            }
        }
    }
    leaves
}

/// Cells a King (or Rook) on `from` reaches: empty or enemy-held.
fn targets(board: &[Square; 25], from: usize, rook: bool) -> Vec<usize> {
    let (f, r) = ((from % 5) as i32, (from / 5) as i32);
    let own = board[from].map(|(s, _)| s);
    let mut out = Vec::new();
    let steps: &[(i32, i32)] = if rook {
        &[(1, 0), (-1, 0), (0, 1), (0, -1)]
    } else {
        &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    };
    for &(df, dr) in steps {
        let (mut x, mut y) = (f + df, r + dr);
        while (0..5).contains(&x) && (0..5).contains(&y) {
            let c = (y * 5 + x) as usize;
            if board[c].map(|(s, _)| s) == own {
                break;
            }
            out.push(c);
            if board[c].is_some() || !rook {
                break;
            }
            (x, y) = (x + df, y + dr);
        }
    }
    out
}

fn attacked(board: &[Square; 25], cell: usize, by: usize) -> bool {
    (0..25).any(|c| match board[c] {
        Some((s, rook)) if s == by => targets(board, c, rook).contains(&cell),
        _ => false,
    })
}

/// [`START`] for the independent count: White King a1, Rook b1; Black Rook d5, King e5.
fn start_board() -> [Square; 25] {
    let mut b = [None; 25];
    b[0] = Some((0, false));
    b[1] = Some((0, true));
    b[23] = Some((1, true));
    b[24] = Some((1, false));
    b
}

#[test]
fn perft_matches_a_count_by_hand_and_an_independent_count() {
    let t = tables();
    let pos = fen::parse(&t, START).unwrap();
    // By hand: the King goes to a2 or b2 (b1 is its Rook's); the Rook goes up b2-b5 and
    // along c1-e1. Nothing pins or checks.
    assert_eq!(perft::perft(&t, &pos, 1), 9);
    for depth in 1..=4 {
        assert_eq!(
            perft::perft(&t, &pos, depth),
            brute_force(start_board(), 0, depth),
            "depth {depth}"
        );
    }
}

#[test]
fn a_king_on_the_centre_cell_wins_and_the_search_goes_there() {
    let t = tables();
    // White King b2 steps to c3: neither the Rook on d4 nor the King on e5 covers it.
    let start = "4k/3r1/5/1K3/R4 w - - 0 1";
    let mut game = Game::from_position_string(t.clone(), start).unwrap();
    assert_eq!(game.outcome(), None);
    let mut searcher = Searcher::new(t.clone(), SearchOptions::default());
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let r = searcher.search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
    let best = r.best.expect("a move");
    assert_eq!(game.format_move(best), "b2c3");
    assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
    game.play(best);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Player::WHITE,
            reason: "king of the hill".into()
        })
    );
}

#[test]
fn a_game_played_in_process_ends_by_the_rules() {
    let t = tables();
    let mut game = Game::new(t.clone());
    let mut searcher = Searcher::new(t.clone(), SearchOptions::default());
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    for _ in 0..400 {
        if game.outcome().is_some() {
            break;
        }
        let r = searcher.search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
        let best = r.best.expect("a move while the game goes on");
        assert!(game.legal_moves().contains(&best));
        game.play(best);
    }
    let outcome = game.outcome().expect("the game ended");
    assert!(game.history.len() > 2, "{outcome:?} after {} plies", game.history.len());
}
