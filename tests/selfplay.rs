//! `panoply selfplay` through the binary: every game line names a real ending, which a replay
//! of the printed moves with the library confirms (the rules ended the game there, and not
//! earlier), and the summary's counts add up.

use panoply::game::{Game, Outcome};
use panoply::with_tables;
use std::process::Command;

/// One game as the tool printed it.
struct GameLine {
    text: String,
    plies: usize,
    moves: Vec<String>,
}

/// Runs `panoply selfplay ARGS --moves` and returns the game lines and the summary lines.
fn selfplay(args: &[&str]) -> (Vec<GameLine>, Vec<String>) {
    let o = Command::new(env!("CARGO_BIN_EXE_panoply"))
        .arg("selfplay")
        .args(args)
        .arg("--moves")
        .env_remove("RUST_LOG")
        .output()
        .expect("the panoply binary runs");
    let out = String::from_utf8(o.stdout).unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
    let lines: Vec<&str> = out.lines().collect();
    let summary_at = lines
        .iter()
        .position(|l| l.starts_with("summary: "))
        .unwrap_or_else(|| panic!("no summary in {out}"));
    let mut games = Vec::new();
    for pair in lines[..summary_at].chunks(2) {
        let [line, moves] = pair else {
            panic!("a game line without its moves line: {out}")
        };
        let (head, plies) = line
            .rsplit_once(" after ")
            .unwrap_or_else(|| panic!("no length in {line}"));
        let number = format!("game {}: ", games.len() + 1);
        let text = head
            .strip_prefix(&number)
            .unwrap_or_else(|| panic!("{line}"));
        let plies = plies.strip_suffix(" plies").unwrap().parse().unwrap();
        let moves = moves.strip_prefix("  moves:").expect("moves line");
        games.push(GameLine {
            text: text.to_string(),
            plies,
            moves: moves.split_whitespace().map(String::from).collect(),
        });
    }
    let summary = lines[summary_at..].iter().map(|l| l.to_string()).collect();
    (games, summary)
}

/// How the tool must word an outcome.
fn expected_text(outcome: &Option<Outcome>, cap: usize) -> String {
    match outcome {
        Some(Outcome::Win { winner, reason }) => {
            format!("{} wins by {reason}", ["white", "black"][winner.index()])
        }
        Some(Outcome::Draw { reason }) => format!("draw by {reason}"),
        None => format!("no result, stopped by the ply cap of {cap} plies"),
    }
}

/// Replays every game with the library: each move legal, no ending before the last move, and
/// the ending printed is the one the rules give (or the ply cap, reached with no ending).
fn check_games(variant: &str, fen: Option<&str>, games: &[GameLine], cap: usize) {
    let tables = panoply::games::tables(variant).unwrap();
    with_tables!(&tables, t => {
        for (i, g) in games.iter().enumerate() {
            let mut game = match fen {
                Some(f) => Game::from_position_string(t.clone(), f).unwrap(),
                None => Game::new(t.clone()),
            };
            assert_eq!(g.moves.len(), g.plies, "{variant} game {}", i + 1);
            for m in &g.moves {
                assert_eq!(game.outcome(), None, "{variant} game {}: played on after the end", i + 1);
                game.play_str(m).unwrap_or_else(|e| panic!("{variant} game {}: {m}: {e}", i + 1));
            }
            let outcome = game.outcome();
            if outcome.is_none() {
                assert_eq!(g.plies, cap, "{variant} game {}: stopped early", i + 1);
            }
            assert_eq!(g.text, expected_text(&outcome, cap), "{variant} game {}", i + 1);
        }
    });
}

/// The summary's game count and average length match the games, and the results and the
/// endings each add up to the number of games.
fn check_summary(summary: &[String], games: &[GameLine]) {
    let head = &summary[0];
    let total: usize = games.iter().map(|g| g.plies).sum();
    let average = format!("{:.1} plies on average", total as f64 / games.len() as f64);
    assert!(
        head.starts_with(&format!("summary: {} games, {average}, ", games.len())),
        "{head}"
    );
    let count = |prefix: &str| -> usize {
        summary
            .iter()
            .filter_map(|l| l.strip_prefix(prefix))
            .map(|l| l.rsplit_once(": ").unwrap().1.parse::<usize>().unwrap())
            .sum()
    };
    assert_eq!(count("  result "), games.len(), "{summary:?}");
    assert_eq!(count("  ending "), games.len(), "{summary:?}");
    for g in games {
        let ending = match g.text.split_once(" by ") {
            _ if g.text.starts_with("no result") => "ply cap",
            Some((_, rule)) => rule,
            None => panic!("no ending in {}", g.text),
        };
        assert!(
            summary
                .iter()
                .any(|l| l.starts_with(&format!("  ending {ending}: "))),
            "{ending} missing in {summary:?}"
        );
    }
}

fn run_and_check(variant: &str, fen: Option<&str>, cap: usize, extra: &[&str]) -> Vec<GameLine> {
    let cap_text = cap.to_string();
    let mut args = vec!["--variant", variant, "--max-plies", &cap_text];
    if let Some(f) = fen {
        args.extend(["--fen", f]);
    }
    args.extend(extra);
    let (games, summary) = selfplay(&args);
    let wanted: usize = extra
        .iter()
        .position(|&a| a == "--games")
        .map_or(2, |i| extra[i + 1].parse().unwrap());
    assert_eq!(games.len(), wanted, "{variant}");
    check_games(variant, fen, &games, cap);
    check_summary(&summary, &games);
    games
}

#[test]
fn two_d_games_end_by_the_rules_or_the_ply_cap() {
    // From the start: short games, varied by the random opening.
    run_and_check(
        "shatranj",
        None,
        24,
        &["--games", "3", "--nodes", "300", "--random-opening", "3"],
    );
    // Rook against Ferz in SwDA: White wins the Ferz and with it the game by the bare-king
    // rule, unless something earlier ends it; the replay decides which. The budget is in
    // nodes, not depth: a fixed depth means less and less as the search prunes more.
    let games = run_and_check(
        "swda-originals-originals",
        Some("4k3/8/8/8/3f4/8/8/R3K3 w - - 0 1"),
        200,
        &["--games", "2", "--nodes", "20000", "--random-opening", "1"],
    );
    assert!(
        games.iter().any(|g| g.text.starts_with("white wins by ")),
        "the Rook side wins at least once"
    );
    // A bare side at the start: the game is over before any move.
    let games = run_and_check(
        "swda-posh-amphibians",
        Some("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"),
        10,
        &["--games", "1", "--nodes", "100"],
    );
    assert_eq!(games[0].text, "white wins by bare king");
    assert_eq!(games[0].plies, 0);
}

#[test]
fn missionary_games_end_by_the_rules_or_the_ply_cap() {
    run_and_check(
        "missionary",
        None,
        6,
        &["--games", "2", "--nodes", "200", "--random-opening", "2"],
    );
    // A Rook in hand mates the cornered Black Emperor by a drop on the a8 column.
    let corner = "k5/6/6/6/6/6/6/6|6/6/1K4/6/6/6/6/6|6/6/6/6/6/6/6/6|6/6/6/6/6/6/6/6|\
                  6/6/6/6/6/6/6/6|1R4/6/6/6/6/6/6/6[R] w - - 0 1";
    let games = run_and_check(
        "missionary",
        Some(corner),
        10,
        &["--games", "1", "--depth", "3", "--random-opening", "0"],
    );
    assert_eq!(games[0].text, "white wins by checkmate");
    assert_eq!(games[0].plies, 1);
    assert!(games[0].moves[0].starts_with("R@"), "{}", games[0].moves[0]);
}

#[test]
fn bad_selfplay_requests_fail_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["--variant", "shatranj"], "give a budget per move"),
        (
            &["--variant", "shatranj", "--nodes", "10", "--methods", "brs"],
            "four-player games only",
        ),
        (
            &["--variant", "missionary", "--nodes", "10", "--fen", "6/6 w"],
            "bad position string",
        ),
        (
            &["--variant", "atlantis", "--nodes", "10"],
            "unknown variant",
        ),
        (
            &["--variant", "aof5", "--nodes", "10", "--methods", "brs,brs"],
            "one method or 4",
        ),
        (
            &["--variant", "shatranj", "--nodes", "10", "--depths"],
            "four-player games only",
        ),
        (
            &[
                "--variant",
                "aof5",
                "--nodes",
                "10",
                "--openings",
                "/nonexistent.epd",
            ],
            "cannot read",
        ),
    ];
    for (args, mention) in cases {
        let o = Command::new(env!("CARGO_BIN_EXE_panoply"))
            .arg("selfplay")
            .args(*args)
            .env_remove("RUST_LOG")
            .output()
            .unwrap();
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(mention), "{args:?}: {err}");
    }
}

/// Four-player games from an opening suite: game N starts from the suite's Nth position (its
/// printed moves replay from there), and `--depths` counts every searched move once per army,
/// at the depth a fixed-depth budget reaches.
#[test]
fn four_player_games_start_from_the_suite_and_count_their_depths() {
    let suite_path = concat!(env!("CARGO_MANIFEST_DIR"), "/book/suites/aof5.epd");
    let o = Command::new(env!("CARGO_BIN_EXE_panoply"))
        .args(["selfplay", "--variant", "aof5", "--openings", suite_path])
        .args(["--games", "2", "--max-plies", "8", "--depth", "2"])
        .args([
            "--random-opening",
            "0",
            "--methods",
            "brs",
            "--depths",
            "--moves",
        ])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let suite = std::fs::read_to_string(suite_path).unwrap();
    let starts: Vec<&str> = suite
        .lines()
        .filter_map(|l| l.strip_prefix("aof5 "))
        .collect();
    let t = crate::common::tables("aof5");
    let move_lines: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("  moves:"))
        .collect();
    assert_eq!(move_lines.len(), 2, "{out}");
    for (start, moves) in starts.iter().zip(&move_lines) {
        let mut game = Game::from_position_string(t.clone(), start).unwrap();
        for m in moves.split_whitespace() {
            game.play_str(m)
                .unwrap_or_else(|e| panic!("{m} from {start}: {e}"));
        }
    }
    let counted = |army: &str| -> usize {
        let prefix = format!("  depth {army}: median 2 mean 2.00 over ");
        let line = out
            .lines()
            .find_map(|l| l.strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("no depth 2 line for {army} in {out}"));
        line.strip_suffix(" moves").unwrap().parse().unwrap()
    };
    let armies = ["Catholic", "Protestant", "Islamic", "Byzantine"].map(counted);
    assert_eq!(armies.iter().sum::<usize>(), counted("all"));
    assert!((12..=16).contains(&counted("all")), "{out}");
}
