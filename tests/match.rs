//! `panoply match` end to end: real engine processes (scripted fakes in tests/engines/,
//! Fairy-Max, Panoply itself), adjudication, PGN records and the final table.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

const FAIRY_MAX: &str = "/usr/games/fairymax";

/// 50 ms a move for games between Panoply instances, with a generous grace: the shared test
/// machine can be slow to schedule an engine (time forfeits are tested with the broken
/// engines).
const FAST: [&str; 4] = ["--tc", "st=0.05", "--margin-ms", "3000"];

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

/// Whether Fairy-Max is installed. Without it the test is skipped with a message, unless
/// `PANOPLY_REQUIRE_FAIRYMAX` is set (CI sets it after installing Fairy-Max, see .ci/run):
/// then a missing Fairy-Max fails the test.
fn fairy_max_present() -> bool {
    if Path::new(FAIRY_MAX).exists() {
        return true;
    }
    assert!(
        std::env::var_os("PANOPLY_REQUIRE_FAIRYMAX").is_none(),
        "PANOPLY_REQUIRE_FAIRYMAX is set but {FAIRY_MAX} is missing: apt-get install fairymax"
    );
    eprintln!("SKIPPED: {FAIRY_MAX} is not installed (apt-get install fairymax)");
    false
}

fn repo_file(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

/// A definition file for this test build of Panoply under the given name (in the temp dir).
fn panoply_engine(name: &str) -> String {
    let p = std::env::temp_dir().join(format!(
        "panoply-{}-{}.engine",
        std::process::id(),
        name.replace(' ', "_")
    ));
    let text = format!(
        "name = {name}\ncommand = \"{}\"\nprotocol = uci\noption.Hash = 16\n",
        env!("CARGO_BIN_EXE_panoply")
    );
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// The table row of an engine whose name has two words (`Panoply A`): rank, the two words,
/// games, points, ...
fn named_row(stdout: &str, name: &str) -> Vec<String> {
    let words: Vec<&str> = name.split_whitespace().collect();
    stdout
        .lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .find(|w| w.len() > 3 && w[0].parse::<u32>().is_ok() && w[1..3] == words[..])
        .unwrap_or_else(|| panic!("no table row for {name} in:\n{stdout}"))
}

/// The moves of a PGN movetext with their comments: (move, comment).
fn moves_with_comments(movetext: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut rest = movetext;
    while let Some(c) = rest.chars().next() {
        if c == '{' {
            let end = rest.find('}').unwrap();
            // A move's own comment comes first; a second one is the game's end.
            match out.last_mut() {
                Some(last) if last.1.is_empty() => last.1 = rest[1..end].to_string(),
                _ => {}
            }
            rest = &rest[end + 1..];
        } else if c.is_whitespace() {
            rest = &rest[1..];
        } else {
            let end = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
            let word = &rest[..end];
            let is_number = word.ends_with('.') && word[..word.len() - 1].parse::<u32>().is_ok();
            let is_result = word == "*"
                || (word.contains('-')
                    && word.split('-').all(|p| {
                        !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '/')
                    }));
            if !is_number && !is_result {
                out.push((word.to_string(), String::new()));
            }
            rest = &rest[end..];
        }
    }
    out
}

/// A PGN `Result` of n seats as points per seat (`1/2-1/2`, `0-1/3-1/3-1/3`).
fn seat_points(result: &str, seats: usize) -> Vec<f64> {
    let points: Vec<f64> = result
        .split('-')
        .map(|p| match p.split_once('/') {
            Some((a, b)) => a.parse::<f64>().unwrap() / b.parse::<f64>().unwrap(),
            None => p.parse().unwrap(),
        })
        .collect();
    assert_eq!(points.len(), seats, "{result}");
    points
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
    // Every game ended in a forfeit: the table is printed, and the match fails.
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("every game of the match ended in a forfeit (game 1: "),
        "{}",
        run.stderr
    );
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
fn an_engine_lacking_a_variant_of_the_match_stops_it_before_the_first_game() {
    // The Opener offers chess alone in its UCI_Variant list.
    let run = run_match(
        &[
            "opener.engine",
            "crash.engine",
            "--variant",
            "chess",
            "--variant",
            "cwda-nutty-fide",
            "--quiet",
        ],
        &[],
    );
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr,
        "panoply: Opener cannot play the match's cwda-nutty-fide: it does not offer \
         cwda-nutty-fide in its UCI_Variant list\n"
    );
    assert!(
        run.games.is_empty() && run.stdout.is_empty(),
        "{}",
        run.stdout
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
    if !fairy_max_present() {
        return;
    }
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

#[test]
fn a_four_seat_gauntlet_rotates_the_candidate_and_scores_its_games() {
    // The candidate alone in one seat, rotated; the move limit draws every game 1/4 each.
    let bin = env!("CARGO_BIN_EXE_panoply");
    let run = run_match(
        &[
            "random.engine",
            "random.engine",
            "--mode",
            "gauntlet",
            "--variant",
            "aof5",
            "--games",
            "4",
            "--tc",
            "10+0.1",
            "--max-plies",
            "8",
            "--quiet",
        ],
        &[("PANOPLY_BIN", bin)],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.games.len(), 4);
    let armies = ["Catholic", "Protestant", "Islamic", "Byzantine"];
    for (i, g) in run.games.iter().enumerate() {
        let seats = armies.map(|s| g.tags[s].clone());
        let candidate: Vec<usize> = (0..4).filter(|&s| seats[s] == "Random").collect();
        assert_eq!(candidate, vec![i], "game {i}: {seats:?}");
        assert_eq!(g.tags["Result"], "1/4-1/4-1/4-1/4");
    }
    assert!(
        run.stdout
            .contains("Score of Random in one seat of 4: 25.0% +/- 0.0% (equal 25.0%), Elo +0 [W 0, D 4, L 0] 4"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("By seat: seat 1: 0.25/1, seat 2: 0.25/1, seat 3: 0.25/1, seat 4: 0.25/1"),
        "{}",
        run.stdout
    );
}

#[test]
fn two_panoplies_play_cwda_and_shatranj_from_the_books() {
    use panoply::records::book::Book;
    let (a, b) = (panoply_engine("Panoply A"), panoply_engine("Panoply B"));
    let books = [repo_file("book/cwda.book"), repo_file("book/shatranj.book")];
    let run = run_match(
        &[
            &[
                a.as_str(),
                &b,
                "--variant",
                "cwda-fide-nutty",
                "--variant",
                "shatranj",
                "--games",
                "2",
                "--max-plies",
                "24",
                "--book",
                &books[0],
                "--book",
                &books[1],
                "--book-plies",
                "4",
                "--quiet",
            ][..],
            &FAST[..],
        ]
        .concat(),
        &[],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.games.len(), 4);
    let mut book = Book::load(Path::new(&books[0])).unwrap();
    book.add_text(&std::fs::read_to_string(&books[1]).unwrap(), "shatranj")
        .unwrap();
    let starts = [
        (
            "cwda-fide-nutty",
            "gihokhig/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (
            "shatranj",
            "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1",
        ),
    ];
    let mut points = HashMap::new();
    for (variant, start) in starts {
        let games: Vec<&PgnGame> = run
            .games
            .iter()
            .filter(|g| g.tags["Variant"] == variant)
            .collect();
        assert_eq!(games.len(), 2, "{variant}");
        let mut openings = Vec::new();
        for g in &games {
            assert_eq!(g.tags["FEN"], start);
            assert_eq!(g.tags["SetUp"], "1");
            let moves = moves_with_comments(&g.movetext);
            // Four book plies, the first one a move the book has for the start position,
            // then engine moves with their search comments.
            assert!(moves[..4].iter().all(|(_, c)| c == "book"), "{moves:?}");
            assert!(moves[4..].iter().all(|(_, c)| c != "book"), "{moves:?}");
            assert!(
                book.moves(variant, start)
                    .iter()
                    .any(|m| m.mv == moves[0].0),
                "{variant}: {} is not a book move",
                moves[0].0
            );
            openings.push(moves[..4].to_vec());
            let plies: usize = g.tags["PlyCount"].parse().unwrap();
            match g.tags["Termination"].as_str() {
                "adjudication" => {
                    assert_eq!(plies, 24, "{}", g.movetext);
                    assert_eq!(g.tags["Result"], "1/2-1/2");
                }
                "normal" => assert!(plies < 24, "{}", g.movetext),
                other => panic!("{variant}: unexpected termination {other}: {}", g.movetext),
            }
            let p = seat_points(&g.tags["Result"], 2);
            *points.entry(g.tags["White"].clone()).or_insert(0.0) += p[0];
            *points.entry(g.tags["Black"].clone()).or_insert(0.0) += p[1];
        }
        // The two games of a pair share the opening, each engine having both colours.
        assert_eq!(openings[0], openings[1], "{variant}");
        assert_ne!(games[0].tags["White"], games[1].tags["White"]);
    }
    // The final table agrees with the PGN: 4 games each, points as recorded, no forfeits.
    for name in ["Panoply A", "Panoply B"] {
        let row = named_row(&run.stdout, name);
        assert_eq!(row[3], "4", "{row:?}");
        assert_eq!(row[4], format!("{:.1}", points[name]), "{row:?}");
        assert_eq!(row.last().unwrap(), "0", "no forfeits: {row:?}");
    }
}

#[test]
fn two_panoplies_play_armies_of_faith() {
    // Four seats, two engines: A B A B in the first game, B A B A in the second.
    let (a, b) = (panoply_engine("Panoply A"), panoply_engine("Panoply B"));
    let run = run_match(
        &[
            &[
                a.as_str(),
                &b,
                "--variant",
                "aof5",
                "--games",
                "2",
                "--max-plies",
                "12",
                "--quiet",
            ][..],
            // A node budget, not a clock: on a loaded machine 0.05 s may end a four-player
            // search before its first iteration, and the comments checked below need one.
            &["--tc", "nodes=4000"][..],
        ]
        .concat(),
        &[],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.games.len(), 2);
    let mut firsts = Vec::new();
    for g in &run.games {
        assert_eq!(g.tags["Players"], "4");
        assert_eq!(g.tags["Variant"], "aof5");
        assert!(!g.tags.contains_key("White"));
        let seats = ["Catholic", "Protestant", "Islamic", "Byzantine"].map(|s| g.tags[s].clone());
        assert_eq!(seats[0], seats[2]);
        assert_eq!(seats[1], seats[3]);
        assert_ne!(seats[0], seats[1]);
        firsts.push(seats[0].clone());
        let points = seat_points(&g.tags["Result"], 4);
        assert!(
            (points.iter().sum::<f64>() - 1.0).abs() < 1e-9,
            "{points:?}"
        );
        let moves = moves_with_comments(&g.movetext);
        match g.tags["Termination"].as_str() {
            "adjudication" => {
                assert_eq!(g.tags["PlyCount"], "12");
                assert_eq!(moves.len(), 12);
            }
            "normal" => assert!(moves.len() < 12),
            other => panic!("unexpected termination {other}: {}", g.movetext),
        }
        // Army letters in turn order c p i b, a move number for each round, and the
        // engines' search comments (score/depth time).
        assert!(
            g.movetext.trim_start().starts_with("1. c:"),
            "{}",
            g.movetext
        );
        let letters: Vec<&str> = moves.iter().map(|(m, _)| &m[..2]).collect();
        assert_eq!(letters[..4], ["c:", "p:", "i:", "b:"], "{}", g.movetext);
        assert!(g.movetext.contains(" 2. c:"), "{}", g.movetext);
        assert!(
            moves
                .iter()
                .all(|(_, c)| c.contains('/') && c.contains('s')),
            "{}",
            g.movetext
        );
    }
    assert_ne!(firsts[0], firsts[1], "seats swap in the second game");
    for name in ["Panoply A", "Panoply B"] {
        let row = named_row(&run.stdout, name);
        assert_eq!(row[3], "2", "{row:?}");
        assert_eq!(row.last().unwrap(), "0", "no forfeits: {row:?}");
    }
}

#[test]
fn panoply_plays_fairy_max_in_cwda() {
    if !fairy_max_present() {
        return;
    }
    let panoply = panoply_engine("Panoply");
    let fm = repo_file("engines/fairymax.engine");
    let book = repo_file("book/cwda.book");
    let run = run_match(
        &[
            &panoply,
            &fm,
            "--variant",
            "cwda-clobberers-nutty",
            "--games",
            "2",
            "--tc",
            "2+0.05",
            "--margin-ms",
            "1000",
            "--max-plies",
            "40",
            "--book",
            &book,
            "--book-plies",
            "2",
            "--quiet",
        ],
        &[],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.games.len(), 2);
    let mut points = 0.0;
    for g in &run.games {
        assert_eq!(g.tags["Variant"], "cwda-clobberers-nutty");
        assert_eq!(
            g.tags["FEN"],
            "gihokhig/pppppppp/8/8/8/8/PPPPPPPP/DWACKAWD w KQkq - 0 1"
        );
        let players = [g.tags["White"].as_str(), g.tags["Black"].as_str()];
        assert!(players.contains(&"Panoply") && players.contains(&"Fairy-Max"));
        let moves = moves_with_comments(&g.movetext);
        assert_eq!(moves[0].1, "book");
        assert_eq!(moves[1].1, "book");
        // Both engines played real moves to the end: by the rules or the move limit.
        match g.tags["Termination"].as_str() {
            "adjudication" => assert_eq!(g.tags["PlyCount"], "40"),
            "normal" => assert!(moves.len() < 40),
            other => panic!("unexpected termination {other}: {}", g.movetext),
        }
        let p = seat_points(&g.tags["Result"], 2);
        points += if players[0] == "Panoply" { p[0] } else { p[1] };
    }
    let row = table_row(&run.stdout, "Panoply");
    assert_eq!(row[2], "2");
    assert_eq!(row[3], format!("{points:.1}"));
    assert_eq!(row.last().unwrap(), "0", "no forfeits");
    let row = table_row(&run.stdout, "Fairy-Max");
    assert_eq!(row[2], "2");
    assert_eq!(row.last().unwrap(), "0", "no forfeits");
}

#[test]
fn bad_books_stop_the_match_and_a_book_for_other_games_warns() {
    let run = run_match(
        &["opener.engine", "opener.engine", "--book", "no-such.book"],
        &[],
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("no-such.book: cannot read"),
        "{}",
        run.stderr
    );
    let bad = std::env::temp_dir().join(format!("panoply-bad-{}.book", std::process::id()));
    std::fs::write(&bad, "variant chess\nstartpos ; e2e4 ; many\n").unwrap();
    let run = run_match(
        &[
            "opener.engine",
            "opener.engine",
            "--book",
            bad.to_str().unwrap(),
        ],
        &[],
    );
    let _ = std::fs::remove_file(&bad);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains(&format!(
            "{}:2: weight 'many' is not a positive integer",
            bad.display()
        )),
        "{}",
        run.stderr
    );
    assert!(run.games.is_empty());
    // A book without the match's variant is no error, but says so.
    let shatranj = repo_file("book/shatranj.book");
    let run = run_match(
        &[
            "opener.engine",
            "opener.engine",
            "--games",
            "1",
            "--book",
            &shatranj,
            // The Opener knows one move a side: the game ends before it forfeits.
            "--max-plies",
            "1",
            "--quiet",
        ],
        &[],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "the book has no entries for chess: its games start from the initial position"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(run.games.len(), 1);
    assert!(!run.games[0].movetext.contains("{book}"));
}

/// An opening suite of two CwDA positions in a temp file.
fn temp_suite() -> String {
    let p = std::env::temp_dir().join(format!("panoply-suite-{}.epd", std::process::id()));
    std::fs::write(
        &p,
        "# two openings\n\
         cwda-nutty-rookies smfekfms/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/GIHOKHIG w KQkq e6 0 2\n\
         cwda-nutty-rookies smfekfms/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/GIHOKHIG w KQkq d6 0 2\n",
    )
    .unwrap();
    p.display().to_string()
}

#[test]
fn fixed_node_pairs_from_a_suite_feed_the_sprt() {
    let (a, b) = (panoply_engine("Cand"), panoply_engine("Base"));
    let suite = temp_suite();
    let run = run_match(
        &[
            &a,
            &b,
            "--variant",
            "cwda-nutty-rookies",
            "--openings",
            &suite,
            "--nodes",
            "400",
            "--games",
            "4",
            "--sprt",
            "elo0=0",
            "elo1=5",
            "--quiet",
            "--max-plies",
            "60",
        ],
        &[],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    // One line per game, in the form distributed testing frameworks parse.
    let finished: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("Finished game "))
        .collect();
    assert_eq!(finished.len(), 4, "{}", run.stdout);
    for line in &finished {
        let (_, rest) = line.split_once(": ").unwrap();
        let result = rest.split_whitespace().next().unwrap();
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{line}");
        assert!(line.contains("(Cand vs Base)") || line.contains("(Base vs Cand)"));
        assert!(rest.contains('{') && rest.ends_with('}'), "{line}");
    }
    assert!(
        run.stdout.contains("Score of Cand vs Base: "),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("SPRT: llr "), "{}", run.stdout);
    // The Elo model is named on every SPRT line; logistic is the default.
    for line in run.stdout.lines().filter(|l| l.starts_with("SPRT: llr ")) {
        assert!(line.ends_with(", model logistic"), "{line}");
    }
    // Both games of a pair start from the same suite position with colours swapped.
    assert_eq!(run.games.len(), 4);
    let mut by_fen: HashMap<&str, Vec<&PgnGame>> = HashMap::new();
    for g in &run.games {
        assert_eq!(g.tags["TimeControl"], "-");
        by_fen.entry(g.tags["FEN"].as_str()).or_default().push(g);
    }
    assert_eq!(by_fen.len(), 2, "both suite positions are played");
    for games in by_fen.values() {
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tags["White"], games[1].tags["Black"]);
    }
    // The pentanomial counts sum to the pairs.
    let line = run
        .stdout
        .lines()
        .find(|l| l.starts_with("Pentanomial"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    let counts: u32 = line
        .rsplit_once('[')
        .unwrap()
        .1
        .trim_end_matches(']')
        .split(", ")
        .map(|n| n.parse::<u32>().unwrap())
        .sum();
    assert_eq!(counts, 2, "{line}");
    assert!(
        run.stdout
            .contains("SPRT (elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic): llr"),
        "{}",
        run.stdout
    );
}

#[test]
fn bad_suites_and_sprt_settings_are_clear_errors() {
    let (a, b) = (panoply_engine("A"), panoply_engine("B"));
    let bad = std::env::temp_dir().join(format!("panoply-bad-suite-{}.epd", std::process::id()));
    std::fs::write(&bad, "cwda-nutty-rookies not/a/position w - - 0 1\n").unwrap();
    let bad = bad.display().to_string();
    let run = run_match(&[&a, &b, "--openings", &bad, "--nodes", "100"], &[]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains(&format!("{bad}:1:")), "{}", run.stderr);
    let run = run_match(
        &[&a, &b, "--nodes", "100", "--sprt", "elo0=5", "elo1=0"],
        &[],
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("--sprt: elo1=0 must be above elo0=5"),
        "{}",
        run.stderr
    );
    let run = run_match(
        &[
            &a,
            &b,
            "--nodes",
            "100",
            "--sprt",
            "elo0=0",
            "elo1=5",
            "model=bayesian",
        ],
        &[],
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains(
            "--sprt: unknown model 'bayesian' (expected model=logistic or model=normalized)"
        ),
        "{}",
        run.stderr
    );
    let c = panoply_engine("C");
    let run = run_match(
        &[&a, &b, &c, "--nodes", "100", "--sprt", "elo0=0", "elo1=5"],
        &[],
    );
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("exactly two engines"), "{}", run.stderr);
}

#[test]
fn games_both_engines_call_lost_or_level_are_adjudicated() {
    let (a, b) = (panoply_engine("Odds A"), panoply_engine("Odds B"));
    let suite = std::env::temp_dir().join(format!("panoply-odds-{}.epd", std::process::id()));
    // White is a Queen up.
    std::fs::write(
        &suite,
        "chess rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
    )
    .unwrap();
    let suite = suite.display().to_string();
    let run = run_match(
        &[
            &a,
            &b,
            "--openings",
            &suite,
            "--nodes",
            "3000",
            "--games",
            "2",
            "--resign",
            "movecount=2",
            "score=400",
            "--max-plies",
            "200",
            "--quiet",
        ],
        &[],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.games.len(), 2);
    for g in &run.games {
        assert_eq!(g.tags["Result"], "1-0", "{}", g.movetext);
        assert_eq!(g.tags["Termination"], "adjudication");
        assert!(
            g.movetext.contains("White wins by adjudication"),
            "{}",
            g.movetext
        );
        // Two scores of each engine are all it takes.
        assert!(
            g.tags["PlyCount"].parse::<u32>().unwrap() <= 10,
            "{}",
            g.movetext
        );
    }
    // A level start: drawn once both engines' scores have stayed level for two moves each.
    let run = run_match(
        &[
            &a,
            &b,
            "--nodes",
            "2000",
            "--games",
            "1",
            "--draw",
            "movenumber=2",
            "movecount=2",
            "score=5000",
            "--quiet",
        ],
        &[],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let g = &run.games[0];
    assert_eq!(g.tags["Result"], "1/2-1/2");
    assert!(
        g.movetext.contains("both engines' scores are level"),
        "{}",
        g.movetext
    );
    assert_eq!(g.tags["PlyCount"], "4", "{}", g.movetext);
    // Bad settings are one clear line and exit code 2.
    for bad in [["--resign", "movecount=3"], ["--draw", "movenumber=x"]] {
        let run = run_match(&[&a, &b, "--nodes", "100", bad[0], bad[1]], &[]);
        assert_eq!(run.status, 2, "{bad:?}");
        assert!(
            run.stderr.starts_with(&format!("panoply: {}: ", bad[0])),
            "{}",
            run.stderr
        );
    }
}

/// A Panoply engine file at a strength level (`Skill Level`, issue 44).
fn panoply_at_level(name: &str, level: u32) -> String {
    let p = std::env::temp_dir().join(format!("panoply-{}-{name}.engine", std::process::id()));
    let text = format!(
        "name = {name}\ncommand = \"{}\"\nprotocol = uci\noption.Hash = 16\n\
         option.Skill Level = {level}\n",
        env!("CARGO_BIN_EXE_panoply")
    );
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn a_low_skill_level_loses_to_a_high_one() {
    let (low, high) = (panoply_at_level("Low", 0), panoply_at_level("High", 20));
    let suite = std::env::temp_dir().join(format!("panoply-{}-levels.epd", std::process::id()));
    std::fs::write(
        &suite,
        "chess rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n\
         chess rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1\n\
         chess rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 1\n",
    )
    .unwrap();
    // Fixed nodes: the result does not depend on the machine's load. Level 0 searches at
    // most 400 nodes and often plays a worse move; level 20 searches the full 3000.
    let run = run_match(
        &[
            &low,
            &high,
            "--openings",
            &suite.display().to_string(),
            "--games",
            "6",
            "--nodes",
            "3000",
            "--max-plies",
            "200",
            "--quiet",
        ],
        &[],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.games.len(), 6);
    let points = |name| table_row(&run.stdout, name)[3].parse::<f64>().unwrap();
    assert!(points("Low") <= 1.5, "{}", run.stdout);
    assert_eq!(points("Low") + points("High"), 6.0);
}
