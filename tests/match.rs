//! `panoply match` end to end: real engine processes (scripted fakes in tests/engines/,
//! Fairy-Max, Panoply itself), adjudication, PGN records and the final table.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

const FAIRY_MAX: &str = "/usr/games/fairymax";

struct PgnGame {
    tags: HashMap<String, String>,
    movetext: String,
}

fn engines_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines")
}

fn temp_pgn() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    let p = std::env::temp_dir().join(format!("panoply-match-{}-{n}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    for chunk in text.split("[Event ").skip(1) {
        let mut tags = HashMap::new();
        let mut movetext = String::new();
        for line in format!("[Event {chunk}").lines() {
            if let Some(tag) = line.strip_prefix('[') {
                let (name, value) = tag.split_once(' ').unwrap();
                tags.insert(
                    name.to_string(),
                    value.trim_end_matches(']').trim_matches('"').to_string(),
                );
            } else {
                movetext.push_str(line);
                movetext.push(' ');
            }
        }
        games.push(PgnGame { tags, movetext });
    }
    games
}

struct MatchRun {
    status: i32,
    stdout: String,
    stderr: String,
    games: Vec<PgnGame>,
}

/// Runs `panoply match` in tests/engines with the given arguments and a fresh PGN file.
fn run_match(args: &[&str], env: &[(&str, &str)]) -> MatchRun {
    let pgn = temp_pgn();
    let out = Command::new(env!("CARGO_BIN_EXE_panoply"))
        .arg("match")
        .args(args)
        .arg("--pgn")
        .arg(&pgn)
        .current_dir(engines_dir())
        .envs(env.iter().copied())
        .output()
        .expect("panoply runs");
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let _ = std::fs::remove_file(&pgn);
    MatchRun {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        games: parse_pgn(&text),
    }
}

/// The final table's row of an engine, split into columns.
fn table_row(stdout: &str, engine: &str) -> Vec<String> {
    let line = stdout
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(engine))
        .unwrap_or_else(|| panic!("no table row for {engine} in:\n{stdout}"));
    line.split_whitespace().map(str::to_string).collect()
}

fn require_fairy_max() {
    assert!(
        Path::new(FAIRY_MAX).exists(),
        "this test needs Fairy-Max: apt-get install fairymax"
    );
}

#[test]
fn broken_engines_forfeit_and_the_match_goes_on() {
    // A gauntlet: the scripted opener against an engine that answers an illegal move, one
    // that crashes and one that never answers; each plays both colours.
    let run = run_match(
        &[
            "opener.engine",
            "illegal.engine",
            "crash.engine",
            "hang.engine",
            "--mode",
            "gauntlet",
            "--games",
            "2",
            "--tc",
            "1+0.05",
            "--quiet",
        ],
        &[],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.games.len(), 6);
    let expected = [
        ("Illegal", "rules infraction", "illegal move: 'e2e5'"),
        ("Crash", "abandoned", "engine crashed: process exited"),
        ("Hang", "time forfeit", "did not answer in time"),
    ];
    for g in &run.games {
        let (white, black) = (&g.tags["White"], &g.tags["Black"]);
        let broken = if white == "Opener" { black } else { white };
        let (_, termination, reason) = expected.iter().find(|e| e.0 == broken).unwrap();
        let result = if white == "Opener" { "1-0" } else { "0-1" };
        assert_eq!(&g.tags["Result"], result, "{}", g.movetext);
        assert_eq!(&g.tags["Termination"], termination);
        assert!(g.movetext.contains(reason), "{}", g.movetext);
        assert_eq!(g.tags["Variant"], "chess");
        // The opener's 1. e2e4 is recorded when it had White.
        let plies: usize = g.tags["PlyCount"].parse().unwrap();
        assert_eq!(plies, usize::from(white == "Opener"));
    }
    let opener = table_row(&run.stdout, "Opener");
    assert_eq!(opener[2..6], ["6", "6.0", "100.0%", "+inf"]);
    for (name, ..) in expected {
        let row = table_row(&run.stdout, name);
        assert_eq!(row[2..6], ["2", "0.0", "0.0%", "-inf"], "{name}");
        assert_eq!(row[6..], ["0-0-2", "2"], "{name}: pairs and forfeits");
    }
}

#[test]
fn fairy_max_letters_are_translated_both_ways() {
    // Scripted XBoard engines in the Fairy-Max dialect: White's pawn promotes with Fairy-Max's
    // `c` (a Nutty Colonel, Panoply's `o`); Black must receive it as `c` again.
    let log = std::env::temp_dir().join(format!("panoply-scripted-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let run = run_match(
        &[
            "promoter.engine",
            "waiter.engine",
            "--games",
            "1",
            "--variant",
            "cwda-nutty-rookies",
            "--max-plies",
            "10",
            "--quiet",
        ],
        &[("SCRIPTED_LOG", log.to_str().unwrap())],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let g = &run.games[0];
    assert!(g.movetext.contains("5. b7a8o "), "{}", g.movetext);
    assert_eq!(g.tags["Termination"], "adjudication");
    assert_eq!(g.tags["Result"], "1/2-1/2");
    let sent = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    assert!(sent.contains("option Variant fairy selects=Nutters-Rookies\n"));
    assert!(sent.contains("variant fairy\n"));
    assert!(sent.lines().any(|l| l == "b7a8c"), "{sent}");
    assert!(!sent.contains("b7a8o"));
}

#[test]
fn a_game_an_engine_cannot_play_stops_the_match_with_a_clear_error() {
    // Fairy-Max has no Rookies-against-Rookies game.
    let run = run_match(
        &[
            "promoter.engine",
            "waiter.engine",
            "--variant",
            "cwda-rookies-rookies",
            "--quiet",
        ],
        &[],
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr
            .contains("Fairy-Max has no variant for cwda-rookies-rookies"),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_engine_files_are_reported() {
    let run = run_match(&["no-such.engine", "opener.engine"], &[]);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("no-such.engine: cannot read"),
        "{}",
        run.stderr
    );
    let run = run_match(&["opener.engine", "opener.engine", "--tc", "fast"], &[]);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("bad time control 'fast'"),
        "{}",
        run.stderr
    );
}

#[test]
fn fairy_max_plays_cwda_against_itself() {
    require_fairy_max();
    let fm = "../../engines/fairymax.engine";
    let run = run_match(
        &[
            fm,
            fm,
            "--variant",
            "cwda-clobberers-nutty",
            "--games",
            "2",
            "--tc",
            "5+0.1",
            "--max-plies",
            "30",
            "--concurrency",
            "2",
            "--quiet",
        ],
        &[],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.games.len(), 2);
    for g in &run.games {
        assert_eq!(g.tags["Variant"], "cwda-clobberers-nutty");
        assert_eq!(
            g.tags["FEN"],
            "gihokhig/pppppppp/8/8/8/8/PPPPPPPP/DWACKAWD w KQkq - 0 1"
        );
        // No forfeit: the game ends by the rules or at the move limit.
        assert!(
            ["normal", "adjudication"].contains(&g.tags["Termination"].as_str()),
            "{}",
            g.movetext
        );
    }
    assert_eq!(table_row(&run.stdout, "Fairy-Max")[2], "2");
    let row = table_row(&run.stdout, "Fairy-Max");
    assert_eq!(row.last().unwrap(), "0", "no forfeits");
}

#[test]
fn four_player_games_are_refereed_and_recorded() {
    // Random movers (legal moves from `panoply show`) in Armies of Faith: two engines sit
    // a b a b, then b a b a; the move limit ends the games in a draw.
    let bin = env!("CARGO_BIN_EXE_panoply");
    let run = run_match(
        &[
            "random.engine",
            "illegal.engine",
            "random.engine",
            "--variant",
            "aof5",
            "--games",
            "2",
            "--tc",
            "10+0.1",
            "--max-plies",
            "16",
            "--quiet",
        ],
        &[("PANOPLY_BIN", bin)],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.games.len(), 6);
    for g in &run.games {
        assert_eq!(g.tags["Players"], "4");
        assert_eq!(g.tags["Variant"], "aof5");
        let seats = ["Catholic", "Protestant", "Islamic", "Byzantine"].map(|s| g.tags[s].clone());
        assert_eq!(seats[0], seats[2]);
        assert_eq!(seats[1], seats[3]);
        if seats.contains(&"Illegal".to_string()) {
            // The first Illegal seat forfeits at its first move; the others share the point.
            let (result, plies) = if seats[0] == "Illegal" {
                ("0-1/3-1/3-1/3", "0")
            } else {
                ("1/3-0-1/3-1/3", "1")
            };
            assert_eq!(g.tags["Result"], result);
            assert_eq!(g.tags["PlyCount"], plies);
            assert_eq!(g.tags["Termination"], "rules infraction");
            assert!(
                g.movetext.contains("forfeits: illegal move"),
                "{}",
                g.movetext
            );
        } else {
            assert_eq!(g.tags["Result"], "1/4-1/4-1/4-1/4");
            assert_eq!(g.tags["Termination"], "adjudication");
            assert_eq!(g.tags["PlyCount"], "16");
            // Moves carry their army's letter; a move number starts each round.
            assert!(
                g.movetext.trim_start().starts_with("1. c:"),
                "{}",
                g.movetext
            );
            assert!(g.movetext.contains(" b:"), "{}", g.movetext);
            assert!(g.movetext.contains(" 2. c:"), "{}", g.movetext);
        }
    }
    let illegal = table_row(&run.stdout, "Illegal");
    assert_eq!(illegal[2..4], ["4", "1.3"]);
    assert_eq!(illegal.last().unwrap(), "4", "four forfeits");
}
