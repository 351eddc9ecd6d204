//! Multi-player search on Armies of Faith: both methods find a winning checkmate, score
//! several root moves (MultiPV) best first, and a short self-play game runs to its ply limit
//! with legal moves only.

use crate::common;

use common::*;
use panoply::game::Game;
use panoply::games::aof5::eval::Eval;
use panoply::search::multi_player::{search, Method, MultiLimits};
use panoply::search::multi_table::MultiTable;
use panoply::search::selfplay::{play, SelfPlay};
use std::sync::atomic::AtomicBool;

/// Catholic to move against a lone Protestant King boxed in on jz1: the Rook move jv3jz3
/// gives check with no way out, and that third checkmate wins.
#[test]
fn both_methods_find_the_winning_checkmate() {
    let t = tables("aof5");
    let pieces = [
        ("as2", "cK"),
        ("jz1", "pK"),
        ("jy4", "cR"),
        ("iy4", "cR"),
        ("iz4", "cR"),
        ("jv3", "cR"),
    ];
    let pos = parse(&t, &pieces, "c cp - 0 1");
    let eval = Eval::new(&t);
    for method in Method::ALL {
        let limits = MultiLimits {
            depth: Some(2),
            ..Default::default()
        };
        let r = search_quietly(&t, &eval, &pos, method, limits);
        let best = r.best.expect("a move");
        let after = pos.play(&t, best);
        assert_eq!(
            after.alive,
            0b0001,
            "{method:?} played {}",
            t.shape.cell_name(best.to())
        );
        assert!(r.score > 20_000, "{method:?} score {}", r.score);
    }
}

/// MultiPV at the root (what a playing level chooses from): the best `lines` moves come back
/// with their scores, best first, and the first is the one-line search's move and score.
#[test]
fn several_root_moves_are_scored_best_first() {
    let t = tables("aof5");
    let game = Game::new(t.clone());
    let eval = Eval::new(&t);
    for method in Method::ALL {
        for depth in [1, 2] {
            let run = |lines| {
                let limits = MultiLimits {
                    depth: Some(depth),
                    lines,
                    ..Default::default()
                };
                let mut last = None;
                let flag = AtomicBool::new(false);
                let table = &mut MultiTable::new(16);
                let r = search(
                    &t,
                    &eval,
                    &game.pos,
                    &[],
                    method,
                    limits,
                    &flag,
                    table,
                    |it| last = Some(it.clone()),
                );
                (r, last.expect("an iteration"))
            };
            let (one, one_it) = run(1);
            let (four, four_it) = run(4);
            assert_eq!(one_it.lines, [(one.score, one.best.unwrap())]);
            let lines = &four_it.lines;
            assert_eq!(lines.len(), 4, "{method:?} depth {depth}");
            assert!(lines.windows(2).all(|w| w[0].0 >= w[1].0), "{lines:?}");
            let mut moves: Vec<_> = lines.iter().map(|l| l.1).collect();
            moves.dedup();
            assert_eq!(moves.len(), 4, "{lines:?}");
            assert_eq!(lines[0], (four.score, four.best.unwrap()));
            assert_eq!(four.score, one.score, "{method:?} depth {depth}");
            if depth == 1 {
                assert_eq!(four.best, one.best, "{method:?}");
            }
        }
    }
}

/// A raised stop flag ends the search within a few hundred nodes, leaves included: the
/// budget is checked at every node (a check only at interior nodes whose count happened to
/// be a multiple of 256 let time limits overrun by far).
#[test]
fn a_stop_flag_ends_the_search_at_once() {
    let t = tables("aof5");
    let game = Game::new(t.clone());
    let eval = Eval::new(&t);
    for method in Method::ALL {
        let limits = MultiLimits {
            depth: Some(6),
            ..Default::default()
        };
        let r = search(
            &t,
            &eval,
            &game.pos,
            &[],
            method,
            limits,
            &AtomicBool::new(true),
            &mut MultiTable::new(16),
            |_| {},
        );
        assert!(r.nodes <= 1_000, "{method:?} searched {} nodes", r.nodes);
        assert!(r.best.is_some(), "{method:?} still names a legal move");
    }
}

#[test]
fn a_short_self_play_game_keeps_to_the_rules() {
    let t = tables("aof5-raj");
    let eval = Eval::new(&t);
    let config = SelfPlay {
        methods: vec![
            Method::Paranoid,
            Method::BestReply,
            Method::Paranoid,
            Method::BestReply,
        ],
        limits: vec![MultiLimits {
            nodes: Some(300),
            ..Default::default()
        }],
        max_plies: 16,
        random_opening: 4,
    };
    let record = play(Game::new(t.clone()), &eval, &config, 3, &mut |_, _| {});
    assert_eq!(record.plies, 16);
    // Replaying the recorded moves through move parsing proves each was legal.
    let mut game = Game::new(t.clone());
    for m in &record.moves {
        game.play_str(m).unwrap();
    }
}

/// The engine's searcher (what the protocols call) answers for the army to move.
#[test]
fn the_searcher_plays_four_player_games() {
    use panoply::search::{Limits, SearchOptions, Searcher};
    let t = tables("aof5");
    let mut game = Game::new(t.clone());
    game.play_str("gs1es1").unwrap();
    let mut searcher = Searcher::new(t.clone(), SearchOptions::default());
    for method in Method::ALL {
        searcher.set_multi_player_method(method);
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let mut infos = 0;
        let r = searcher.search(&game, &limits, &AtomicBool::new(false), &mut |_| infos += 1);
        let best = r.best.expect("a move");
        assert!(game.legal_moves().contains(&best));
        assert_eq!(game.pos.side, panoply::piece::Player(1));
        assert_eq!(infos, 1);
    }
}

/// The engine's searcher keeps its four-player table between moves: searching the same
/// position again costs fewer nodes, and a new game (or another method) forgets it, so
/// the first search's count comes back exactly.
#[test]
fn the_searcher_keeps_its_four_player_table_until_a_new_game() {
    use panoply::search::{Limits, SearchOptions, Searcher};
    let t = tables("aof5");
    let mut game = Game::new(t.clone());
    game.play_str("gs1es1").unwrap();
    let mut searcher = Searcher::new(t.clone(), SearchOptions::default());
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let nodes = |s: &mut Searcher<_>| {
        s.search(&game, &limits, &AtomicBool::new(false), &mut |_| {})
            .nodes
    };
    let first = nodes(&mut searcher);
    let again = nodes(&mut searcher);
    assert!(again < first / 2, "{again} nodes again after {first}");
    searcher.new_game();
    assert_eq!(nodes(&mut searcher), first, "after a new game");
    nodes(&mut searcher);
    searcher.set_multi_player_method(Method::Paranoid);
    searcher.set_multi_player_method(Method::BestReply);
    assert_eq!(nodes(&mut searcher), first, "after a change of method");
}

/// A search of `pos` with no game history, never stopped, its iterations unreported.
fn search_quietly(
    t: &panoply::movegen::tables::Tables<panoply::bitboard::Wide>,
    eval: &Eval<panoply::bitboard::Wide>,
    pos: &panoply::position::Position<panoply::bitboard::Wide>,
    method: Method,
    limits: MultiLimits,
) -> panoply::search::multi_player::MultiResult {
    search(
        t,
        eval,
        pos,
        &[],
        method,
        limits,
        &AtomicBool::new(false),
        &mut MultiTable::new(16),
        |_| {},
    )
}

/// The best move of a depth-1 search for the army to move, with `captures` quiescence
/// captures beyond the depth.
fn depth_one_best(
    t: &panoply::movegen::tables::Tables<panoply::bitboard::Wide>,
    pos: &panoply::position::Position<panoply::bitboard::Wide>,
    method: Method,
    captures: u32,
) -> String {
    let limits = MultiLimits {
        depth: Some(1),
        capture_plies: captures,
        ..Default::default()
    };
    let eval = Eval::new(t);
    let r = search_quietly(t, &eval, pos, method, limits);
    panoply::movegen::notation::format_move(t, r.best.expect("a move"))
}

/// Kings far away on level 4, so that King safety plays no part.
const KINGS: [(&str, &str); 4] = [("js4", "cK"), ("jz4", "pK"), ("az4", "iK"), ("as4", "bK")];

/// The Catholic Rook can take an Islamic Knight that the Islamic Rook guards. One ply sees
/// only the Knight won; quiescence sees the Rook lost to the recapture and declines.
#[test]
fn quiescence_declines_a_capture_that_loses_the_capturer() {
    let t = tables("aof5");
    let mut pieces = KINGS.to_vec();
    pieces.extend([("ev2", "cR"), ("ex2", "iN"), ("hx2", "iR")]);
    let pos = parse(&t, &pieces, "c cpib - 0 1");
    for method in Method::ALL {
        assert_eq!(depth_one_best(&t, &pos, method, 0), "ev2ex2", "{method:?}");
        assert_ne!(depth_one_best(&t, &pos, method, 4), "ev2ex2", "{method:?}");
    }
}

/// The Byzantine Knight attacks the Catholic Queen while an Islamic Knight hangs to the
/// Catholic Rook. One ply takes the Knight and loses the Queen; quiescence sees the
/// Byzantine Knight's capture and moves the Queen.
#[test]
fn quiescence_sees_a_hanging_queen_that_one_ply_misses() {
    let t = tables("aof5");
    let mut pieces = KINGS.to_vec();
    pieces.extend([("ev3", "cQ"), ("gw3", "bN"), ("bs1", "cR"), ("bx1", "iN")]);
    let pos = parse(&t, &pieces, "c cpib - 0 1");
    for method in Method::ALL {
        assert_eq!(depth_one_best(&t, &pos, method, 0), "bs1bx1", "{method:?}");
        let saved = depth_one_best(&t, &pos, method, 4);
        assert!(saved.starts_with("ev3"), "{method:?} played {saved}");
    }
}

/// The Byzantine King on as1 with one way out (as2), Islam and Protestant out of the game;
/// no Catholic move checkmates at once, but several do in two (a check that leaves only as2
/// and a Rook that then checks there, or a Rook that takes as2 away and a check). The
/// search finds a checkmate three plies deep, and its move really forces one.
#[test]
fn the_search_finds_a_checkmate_in_two() {
    let t = tables("aof5");
    let pieces = [
        ("js2", "cK"),
        ("as1", "bK"),
        ("at4", "cR"),
        ("bt4", "cR"),
        ("bs4", "cR"),
        ("cu3", "cB"),
        ("dv1", "cR"),
        ("iv2", "cR"),
    ];
    let pos = parse(&t, &pieces, "c cb - 0 1");
    let mates_now = |p: &panoply::position::Position<_>| {
        panoply::movegen::legal_moves(&t, p)
            .iter()
            .any(|&m| p.play(&t, m).alive == 0b0001)
    };
    assert!(!mates_now(&pos));
    let eval = Eval::new(&t);
    for method in Method::ALL {
        let limits = MultiLimits {
            depth: Some(3),
            ..Default::default()
        };
        let r = search_quietly(&t, &eval, &pos, method, limits);
        // Won three plies from the root: Catholic, Byzantine, Catholic.
        assert_eq!(r.score, panoply::games::aof5::eval::WIN - 3, "{method:?}");
        let after = pos.play(&t, r.best.expect("a move"));
        let replies = panoply::movegen::legal_moves(&t, &after);
        assert!(!replies.is_empty());
        for &reply in replies.iter() {
            assert!(mates_now(&after.play(&t, reply)), "{method:?}");
        }
    }
}

/// The position of the quiescence test above: one ply takes the guarded Knight (ev2ex2),
/// two plies see the Islamic Rook take the Rook back. A node budget that ends the second
/// iteration three quarters of the way through still plays what that iteration found: the
/// capture goes first in it (the best of the first), is refuted, and a move searched after
/// it to the same depth beats it.
#[test]
fn an_unfinished_iteration_still_refutes_the_first_iteration_s_move() {
    let t = tables("aof5");
    let mut pieces = KINGS.to_vec();
    pieces.extend([("ev2", "cR"), ("ex2", "iN"), ("hx2", "iR")]);
    let pos = parse(&t, &pieces, "c cpib - 0 1");
    let eval = Eval::new(&t);
    let run = |depth: Option<u32>, nodes: Option<u64>| {
        let limits = MultiLimits {
            depth,
            nodes,
            ..Default::default()
        };
        let r = search_quietly(&t, &eval, &pos, Method::BestReply, limits);
        let best = panoply::movegen::notation::format_move(&t, r.best.expect("a move"));
        (best, r.depth, r.nodes)
    };
    let (one, _, one_nodes) = run(Some(1), None);
    let (two, _, two_nodes) = run(Some(2), None);
    assert_eq!(one, "ev2ex2");
    assert_ne!(two, "ev2ex2");
    let (cut, depth, _) = run(None, Some((one_nodes + 3 * two_nodes) / 4));
    assert_eq!(depth, 1, "the second iteration did not finish");
    assert_ne!(cut, "ev2ex2");
}
