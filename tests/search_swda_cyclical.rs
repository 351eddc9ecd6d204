//! Search and evaluation know the SwDA and Cyclical rules: baring wins and both bare draws,
//! stalemating wins in SwDA, spare royals count as material, and a cyclical piece's value
//! depends on the type it becomes next.

use panoply::eval::Evaluator;
use panoply::game::{AnyTables, Game};
use panoply::movegen::legal_moves;
use panoply::piece::Player;
use panoply::search::{Limits, Score, SearchOptions, SearchResult, Searcher};
use std::sync::atomic::AtomicBool;

fn game(variant: &str, fen: &str) -> Game<u64> {
    match panoply::games::tables(variant).unwrap() {
        AnyTables::Narrow(t) => Game::from_position_string(t, fen).unwrap(),
        AnyTables::Wide(_) => unreachable!(),
    }
}

fn search(g: &Game<u64>, depth: u32) -> SearchResult {
    let mut s = Searcher::new(
        g.tables.clone(),
        SearchOptions {
            hash_mb: 8,
            threads: 1,
            multi_pv: 1,
        },
    );
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    s.search(g, &limits, &AtomicBool::new(false), &mut |_| {})
}

fn best(g: &Game<u64>, r: &SearchResult) -> String {
    g.format_move(r.best.expect("a move"))
}

#[test]
fn baring_the_opponent_is_a_win() {
    // Rh1xa1 leaves Black bare with no way to take the last Rook.
    let g = game("shatranj", "k7/8/8/8/8/8/6K1/r6R w - - 0 1");
    let r = search(&g, 4);
    assert_eq!(best(&g, &r), "h1a1");
    assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
}

#[test]
fn the_bare_side_takes_the_last_piece_for_a_draw() {
    let g = game("shatranj", "8/8/8/8/2R5/3k4/8/7K b - - 0 1");
    let r = search(&g, 4);
    assert_eq!(best(&g, &r), "d3c4");
    // A draw (give or take the search's small draw contempt), not a loss.
    assert!(
        matches!(r.score, Score::Cp(cp) if cp.abs() <= 50),
        "{:?}",
        r.score
    );
}

#[test]
fn stalemating_wins_in_swda() {
    // Kb6-a6 leaves Black without a move (the h-pawns are blocked): a win, not a draw.
    let g = game("shatranj", "k7/P7/1K6/8/8/7p/7P/8 w - - 0 1");
    let r = search(&g, 4);
    assert_eq!(r.score, Score::Mate(1));
    let after = g.pos.play(&g.tables, r.best.unwrap());
    assert!(legal_moves(&g.tables, &after).is_empty());
}

#[test]
fn a_spare_royal_counts_as_a_crown_prince() {
    let ev = |fen: &str| {
        let g = game("swda-posh-posh", fen);
        let t = &g.tables;
        Evaluator::new(t).evaluate(t, &g.pos)
    };
    let two = ev("4k3/pppppppp/8/8/8/8/PPPPPPPP/K3K3 w - - 0 1");
    let one = ev("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
    assert!((250..=450).contains(&(two - one)), "{two} vs {one}");
}

#[test]
fn a_cyclical_piece_is_worth_its_type_and_the_next() {
    let value = |variant: &str, p: Player, token: &str| {
        let any = panoply::games::tables(variant).unwrap();
        let AnyTables::Narrow(t) = any else {
            unreachable!()
        };
        let k = t.variant.kind_by_token(token).unwrap();
        Evaluator::new(&t).value(p, k)
    };
    // Bishop (325) becomes a Charging Knight (375); with `reverse` Black's becomes a Half
    // Duck (400). (Evaluation then scales each side to equal starting material, which
    // changes nothing when both sides cycle alike.)
    assert_eq!(value("cyclical", Player::WHITE, "B"), 350);
    assert_eq!(value("cyclical", Player::BLACK, "B"), 350);
    let (w, b) = (
        value("cyclical-reverse", Player::WHITE, "B"),
        value("cyclical-reverse", Player::BLACK, "B"),
    );
    assert!(
        b >= w + 10,
        "Half Duck next ({b}) vs Charging Knight next ({w})"
    );
    // In CwDA nothing changes type: the Bishop is worth its own (tuned) value, no blend.
    let any = panoply::games::tables("chess").unwrap();
    let AnyTables::Narrow(t) = any else {
        unreachable!()
    };
    let ev = Evaluator::new(&t);
    let bishop = t.variant.kind_by_token("B").unwrap();
    let own = ev
        .weights()
        .get(ev.weights().find("value.Bishop").unwrap())
        .mg;
    assert_eq!(ev.value(Player::WHITE, bishop), own);
}
