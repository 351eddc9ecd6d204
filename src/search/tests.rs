//! Search behaviour on real positions: mates found and proven, material won and kept, limits
//! obeyed, draws by repetition, threads and MultiPV.

use super::*;
use crate::game::AnyTables;
use crate::games;
use crate::movegen::{is_in_check, legal_moves};
use crate::position::Position;
use std::sync::atomic::Ordering;

fn game(variant: &str, fen: &str) -> Game<u64> {
    match games::tables(variant).unwrap() {
        AnyTables::Narrow(t) => Game::from_position_string(t, fen).unwrap(),
        AnyTables::Wide(_) => unreachable!("8x8 variants are narrow"),
    }
}

fn searcher(g: &Game<u64>, threads: usize) -> Searcher<u64> {
    Searcher::new(
        g.tables.clone(),
        SearchOptions {
            hash_mb: 8,
            threads,
            multi_pv: 1,
        },
    )
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Searches and returns the result and every Info sent.
fn run(g: &Game<u64>, limits: &Limits, threads: usize) -> (SearchResult, Vec<Info>) {
    let mut s = searcher(g, threads);
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let r = s.search(g, limits, &stop, &mut |i: &Info| infos.push(i.clone()));
    (r, infos)
}

/// Brute force, no pruning: can the side to move force mate within `n` moves?
fn forced_mate(t: &Tables<u64>, pos: &Position<u64>, n: u32) -> bool {
    n > 0
        && legal_moves(t, pos).iter().any(|&m| {
            let next = pos.play(t, m);
            let replies = legal_moves(t, &next);
            if replies.is_empty() {
                return is_in_check(t, &next, next.side);
            }
            replies
                .iter()
                .all(|&r| forced_mate(t, &next.play(t, r), n - 1))
        })
}

fn assert_mate_in(variant: &str, fen: &str, n: u32) {
    let g = game(variant, fen);
    let (r, _) = run(&g, &depth(2 * n + 2), 1);
    assert_eq!(r.score, Score::Mate(n as i32), "{variant} {fen}");
    let t = &g.tables;
    assert!(!forced_mate(t, &g.pos, n - 1), "a shorter mate exists");
    // The chosen move keeps a forced mate in n - 1 against every reply.
    let next = g.pos.play(t, r.best.unwrap());
    let replies = legal_moves(t, &next);
    assert!(!replies.is_empty() || is_in_check(t, &next, next.side));
    for reply in replies {
        assert!(
            forced_mate(t, &next.play(t, reply), n - 1),
            "{variant}: {} does not mate in {n}",
            g.format_move(r.best.unwrap())
        );
    }
}

#[test]
fn finds_mate_in_two_with_a_colonel() {
    assert_mate_in("cwda-nutty-fide", "7k/8/5K2/8/8/8/8/3O4 w - - 0 1", 2);
}

#[test]
fn finds_mate_in_two_with_a_rook() {
    assert_mate_in("cwda-fide-rookies", "2k5/8/1K6/8/8/8/8/3R4 w - - 0 1", 2);
}

#[test]
fn finds_mate_in_three_with_an_archbishop() {
    assert_mate_in("cwda-clobberers-fide", "k7/2K5/8/8/8/8/8/C7 w - - 0 1", 3);
}

#[test]
fn reports_being_mated() {
    // Black's only move is Kb8, and then the Chancellor mates on h8.
    let g = game("cwda-rookies-fide", "k7/8/1K6/8/8/8/8/7E b - - 0 1");
    let (r, _) = run(&g, &depth(4), 1);
    assert_eq!(r.score, Score::Mate(-1));
}

#[test]
fn takes_a_hanging_queen() {
    let g = game("chess", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    let (r, _) = run(&g, &depth(4), 1);
    assert_eq!(g.format_move(r.best.unwrap()), "d2d5");
}

#[test]
fn saves_an_attacked_piece() {
    // The Knight on d5 is attacked by a pawn; every sensible move saves it.
    let g = game(
        "cwda-fide-nutty",
        "6k1/5ppp/2p5/3N4/8/8/PPP2PPP/6K1 w - - 0 1",
    );
    let (r, _) = run(&g, &depth(5), 1);
    let from = g.format_move(r.best.unwrap());
    assert!(from.starts_with("d5"), "played {from}");
    match r.score {
        Score::Cp(c) => assert!(c > 200, "score {c}"),
        s => panic!("unexpected {s:?}"),
    }
}

#[test]
fn obeys_the_depth_limit() {
    let g = game(
        "chess",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    );
    let (r, infos) = run(&g, &depth(5), 1);
    assert!(r.best.is_some());
    assert_eq!(infos.last().unwrap().depth, 5);
    assert!(infos.iter().all(|i| i.depth <= 5));
}

#[test]
fn obeys_the_node_limit() {
    let g = game(
        "cwda-clobberers-nutty",
        "dwackawd/pppppppp/8/8/8/8/PPPPPPPP/GIHOKHIG w KQkq - 0 1",
    );
    let limits = Limits {
        nodes: Some(5_000),
        ..Limits::default()
    };
    let (r, infos) = run(&g, &limits, 1);
    assert!(legal_moves(&g.tables, &g.pos).contains(&r.best.unwrap()));
    assert!(infos.iter().all(|i| i.nodes <= 5_000), "{:?}", infos.last());
}

#[test]
fn a_stopped_search_still_returns_a_legal_move() {
    let g = game(
        "cwda-rookies-fide",
        "smfekfms/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    let mut s = searcher(&g, 2);
    let stop = AtomicBool::new(true);
    let r = s.search(&g, &Limits::default(), &stop, &mut |_| {});
    assert!(legal_moves(&g.tables, &g.pos).contains(&r.best.unwrap()));
}

#[test]
fn an_infinite_search_ends_when_stopped() {
    let g = game(
        "chess",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    );
    let mut s = searcher(&g, 2);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let mut infos = 0;
    let r = std::thread::scope(|sc| {
        sc.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            stop.store(true, Ordering::Relaxed);
        });
        s.search(&g, &limits, &stop, &mut |_| infos += 1)
    });
    assert!(infos > 0);
    assert!(legal_moves(&g.tables, &g.pos).contains(&r.best.unwrap()));
}

#[test]
fn no_legal_move_gives_no_best_move() {
    let g = game("chess", "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1");
    let (r, infos) = run(&g, &depth(3), 1);
    assert_eq!(r.best, None);
    assert_eq!(r.score, Score::Mate(0));
    assert!(infos.is_empty());
}

#[test]
fn repeating_a_position_is_scored_as_a_draw() {
    // White is a Queen down; the position after Rb1 already occurred, so Rb1 draws.
    let mut g = game("chess", "k7/8/8/8/q7/8/8/2R4K w - - 0 1");
    for m in ["c1b1", "a4a5", "b1c1", "a5a4"] {
        g.play_str(m).unwrap();
    }
    let (r, _) = run(&g, &depth(6), 1);
    // A draw is worth the contempt below zero to the side that searches.
    assert_eq!(
        r.score,
        Score::Cp(-two_player::DRAW_CONTEMPT),
        "best {}",
        g.format_move(r.best.unwrap())
    );
    assert_eq!(g.format_move(r.best.unwrap()), "c1b1");
}

#[test]
fn fixed_depth_single_thread_search_is_deterministic() {
    let g = game(
        "cwda-nutty-rookies",
        "smfekfms/pppppppp/8/8/8/8/PPPPPPPP/GIHOKHIG w KQkq - 0 1",
    );
    let (a, ia) = run(&g, &depth(6), 1);
    let (b, ib) = run(&g, &depth(6), 1);
    assert_eq!(a, b);
    assert_eq!(ia.last().unwrap().nodes, ib.last().unwrap().nodes);
}

#[test]
fn several_threads_find_the_same_mate() {
    let g = game("cwda-nutty-fide", "7k/8/5K2/8/8/8/8/3O4 w - - 0 1");
    let (r, _) = run(&g, &depth(6), 3);
    assert_eq!(r.score, Score::Mate(2));
}

#[test]
fn multi_pv_reports_distinct_lines() {
    let g = game("chess", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    let mut s = searcher(&g, 1);
    s.set_options(SearchOptions {
        hash_mb: 8,
        threads: 1,
        multi_pv: 3,
    })
    .expect("an 8 MB table fits");
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let r = s.search(&g, &depth(4), &stop, &mut |i: &Info| infos.push(i.clone()));
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 4).collect();
    assert_eq!(last.len(), 3);
    assert_eq!(last[0].multipv, 1);
    assert_eq!(last[0].pv[0], r.best.unwrap());
    assert_ne!(last[0].pv[0], last[1].pv[0]);
    assert_ne!(last[1].pv[0], last[2].pv[0]);
    assert_ne!(last[0].pv[0], last[2].pv[0]);
}

/// Plays random games of `t`'s variant and tests `may_give_check` on every legal move of every
/// position: a move it calls unable to check must not check. Returns (moves it cleared, checks
/// seen), so the caller knows both answers were exercised.
fn random_games_judging_checks<B: crate::bitboard::BitSet>(
    t: &crate::movegen::tables::Tables<B>,
    seed: u64,
) -> (usize, usize) {
    use crate::movegen::may_give_check;
    let mut rng = crate::random::Rng::new(seed);
    let (mut cleared, mut checks) = (0, 0);
    for _ in 0..4 {
        let mut pos: Position<B> =
            crate::position::fen::parse(t, &t.variant.start_position).unwrap();
        for _ in 0..150 {
            let moves = legal_moves(t, &pos);
            if moves.is_empty() || t.rules.verdict.and_then(|v| v(t, &pos)).is_some() {
                break;
            }
            for &mv in moves.iter() {
                let child = pos.play(t, mv);
                let checks_now = is_in_check(t, &child, child.side);
                checks += checks_now as usize;
                if !may_give_check(t, &pos, mv) {
                    cleared += 1;
                    assert!(!checks_now, "{}: {mv:?} checks", t.variant.name);
                }
            }
            pos = pos.play(t, moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    (cleared, checks)
}

#[test]
fn a_move_called_unable_to_check_never_checks() {
    let variants = [
        "chess",
        "cwda-fide-nutty",
        "cwda-clobberers-rookies",
        "cwda-nutty-clobberers",
        "cwda-rookies-fide",
        "shatranj",
        "swda-originals-posh",
        "swda-jostlers-amphibians",
        "cyclical",
        "cyclical-fixed-reverse",
        "missionary",
        "missiogi",
        "frontofhouse",
    ];
    for (i, variant) in variants.into_iter().enumerate() {
        let (cleared, checks) = match games::tables(variant).unwrap() {
            AnyTables::Narrow(t) => random_games_judging_checks(&t, i as u64),
            AnyTables::Wide(t) => random_games_judging_checks(&t, i as u64),
        };
        assert!(
            cleared > 1000 && checks > 100,
            "{variant}: {cleared} cleared, {checks} checks"
        );
    }
}
