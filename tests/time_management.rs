//! Time management seen from outside the search (issue 13): the clock runs from the
//! arrival of the command, in the two-player and the four-player searchers, and a forced
//! move on the clock is not searched deeper than one ply. No assertion here depends on the
//! speed of the machine.

use panoply::game::Game;
use panoply::search::{Clock, Info, Limits, SearchOptions, Searcher};
use panoply::with_tables;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Searches the variant's position and returns the move and every progress report.
fn search(variant: &str, fen: Option<&str>, limits: &Limits) -> (Option<String>, Vec<Info>) {
    let tables = panoply::games::tables(variant).unwrap();
    with_tables!(&tables, t => {
        let g = match fen {
            Some(f) => Game::from_position_string(t.clone(), f).unwrap(),
            None => Game::new(t.clone()),
        };
        let options = SearchOptions { hash_mb: 1, threads: 1, multi_pv: 1 };
        let mut s = Searcher::new(t.clone(), options);
        let stop = AtomicBool::new(false);
        let mut infos = Vec::new();
        let r = s.search(&g, limits, &stop, &mut |i: &Info| infos.push(i.clone()));
        (r.best.map(|m| g.format_move(m)), infos)
    })
}

#[test]
fn the_clock_runs_from_the_arrival_of_the_command() {
    let arrived = Instant::now() - Duration::from_secs(3);
    let limits = Limits {
        depth: Some(1),
        started: Some(arrived),
        ..Limits::default()
    };
    for variant in ["chess", "missionary", "aof5"] {
        let (best, infos) = search(variant, None, &limits);
        assert!(best.is_some(), "{variant}");
        assert!(!infos.is_empty(), "{variant}");
        for i in &infos {
            assert!(i.time >= Duration::from_secs(3), "{variant}: {i:?}");
        }
    }
}

#[test]
fn a_forced_move_on_the_clock_is_searched_one_ply() {
    // Black's king has one square: b8.
    let fen = "k7/8/1K6/8/8/8/8/7R b - - 0 1";
    let limits = Limits {
        clock: Some(Clock {
            time_left: Duration::from_secs(60),
            ..Clock::default()
        }),
        ..Limits::default()
    };
    let (best, infos) = search("chess", Some(fen), &limits);
    assert_eq!(best.as_deref(), Some("a8b8"));
    assert!(infos.iter().all(|i| i.depth == 1), "{infos:?}");
    // Without a clock (analysis) the same position is searched deeper.
    let (_, infos) = search(
        "chess",
        Some(fen),
        &Limits {
            depth: Some(3),
            ..Limits::default()
        },
    );
    assert!(infos.iter().any(|i| i.depth == 3));
}
