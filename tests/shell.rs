//! `panoply shell` driven through the built binary: whole sessions piped into stdin, for
//! the games no GUI shows (Missionary in 3D, four-player Armies of Faith).

use crate::common;

use panoply::game::Game;
use panoply::with_tables;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `panoply shell ARGS` on the script; returns (exit success, stdout lines, stderr).
fn session(args: &[&str], script: &[&str]) -> (bool, Vec<String>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_panoply"))
        .arg("shell")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("panoply starts");
    let mut stdin = child.stdin.take().unwrap();
    // The shell may exit before reading everything (a bad --fen): ignore a broken pipe.
    let _ = stdin.write_all((script.join("\n") + "\n").as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    (
        out.status.success(),
        stdout.lines().map(String::from).collect(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The position string and sorted legal moves after `moves` from `fen` (or the start).
fn reference(variant: &str, fen: Option<&str>, moves: &[&str]) -> (String, Vec<String>) {
    let tables = panoply::games::tables(variant).unwrap();
    with_tables!(&tables, t => {
        let mut g = match fen {
            Some(f) => Game::from_position_string(t.clone(), f).unwrap(),
            None => Game::new(t.clone()),
        };
        for m in moves {
            g.play_str(m).unwrap();
        }
        let mut legal: Vec<String> = g.legal_moves().into_iter().map(|m| g.format_move(m)).collect();
        legal.sort();
        (g.position_string(), legal)
    })
}

fn moves_line(legal: &[String]) -> String {
    format!("{} legal moves: {}", legal.len(), legal.join(" "))
}

/// The first line starting with `starts`.
fn line_starting<'a>(lines: &'a [String], starts: &str) -> &'a str {
    lines
        .iter()
        .find(|l| l.starts_with(starts))
        .unwrap_or_else(|| panic!("no line starting '{starts}' in:\n{}", lines.join("\n")))
}

#[test]
fn an_aof5_session_plays_moves_searches_and_takes_back() {
    let (_, start_legal) = reference("aof5", None, &[]);
    let (after_two, legal_two) = reference("aof5", None, &["gt1ft1", "gy1fy1"]);
    let (ok, lines, _) = session(
        &["--variant", "aof5", "--method", "brs"],
        &[
            "show",
            "moves",
            "gt1ft1",
            "gy1fy1",
            "fen",
            "fy1fx1",
            "zz",
            "set method quantum",
            "go nodes 3000",
            "undo",
            "fen",
            "perft 1",
            "set method paranoid",
            "go depth 2",
            "new aof5-raj",
            "fen",
            "quit",
            "moves",
        ],
    );
    assert!(ok);
    let text = lines.join("\n");
    assert_eq!(
        lines[0],
        "panoply shell: aof5 (type 'help' for the commands)"
    );
    for level in ["level 1", "level 2", "level 3", "level 4"] {
        assert!(lines[1].contains(level), "{}", lines[1]);
    }
    assert!(text.contains(
        "playing: Catholic (c), Protestant (p), Islamic (i), Byzantine (b); to move: Catholic (c)"
    ));
    assert!(text.contains("cMH"), "army prefixes in the diagram");
    assert!(lines.contains(&moves_line(&start_legal)));
    assert_eq!(start_legal.len(), 80);
    assert!(lines.contains(&"Catholic plays gt1ft1".into()));
    assert!(lines.contains(&"Protestant plays gy1fy1".into()));
    // fen printed twice: after two moves, and again after the engine's move was taken back.
    let fens: Vec<&String> = lines
        .iter()
        .filter(|l| l.ends_with(" 0 1") || l.contains(" cpib "))
        .collect();
    assert_eq!(fens[0], &after_two);
    assert_eq!(fens[1], &after_two, "undo restored the position");
    assert_eq!(
        line_starting(&lines, "error: 'fy1fx1'"),
        "error: 'fy1fx1' is not a legal move in this position"
    );
    assert!(text.contains("error: 'zz' is neither a command nor a move string"));
    assert!(text.contains("error: unknown search method 'quantum' (paranoid or brs)"));
    // Both engine moves are Islamic moves of the position after two moves.
    let engine: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("Islamic plays "))
        .collect();
    assert_eq!(engine.len(), 2, "{text}");
    for l in engine {
        let mv = l.split_whitespace().nth(2).unwrap();
        assert!(legal_two.contains(&mv.to_string()), "{l}");
    }
    let undo = line_starting(&lines, "took back ");
    assert!(legal_two.contains(&undo["took back ".len()..].to_string()));
    assert!(line_starting(&lines, "perft 1: ")
        .starts_with(&format!("perft 1: {} nodes", legal_two.len())));
    assert!(lines.contains(&"new game: aof5-raj".into()));
    assert_eq!(lines.last().unwrap(), &panoply::games::aof5::START);
    let listings = lines
        .iter()
        .filter(|l| l.contains(" legal moves: "))
        .count();
    assert_eq!(listings, 1, "nothing runs after quit");
}

#[test]
fn the_shell_passes_and_reports_checkmates_between_moves() {
    let t = common::tables("aof5");
    // The Byzantine King on as1 is boxed in by Catholic Rooks; a Catholic Bishop check from
    // ds4 leaves it no move, so at the Byzantine turn the Catholics checkmate it (rule b).
    let mut pieces = common::BYZANTINE_BOXED_IN.to_vec();
    pieces.extend([("is2", "cR"), ("fu4", "cB")]);
    let boxed = format!("{} b cpib - 0 1", common::board(&t, &pieces));
    let (ok, lines, _) = session(
        &["--variant", "aof5", "--fen", &boxed],
        &["moves", "pass", "fu4ds4", "jz2jz1", "az2bz2", "show", "fen"],
    );
    assert!(ok);
    let text = lines.join("\n");
    assert!(lines.contains(&"1 legal moves: pass".into()), "{text}");
    assert!(lines.contains(&"Byzantine plays pass".into()), "{text}");
    let at = lines
        .iter()
        .position(|l| l == "Islamic plays az2bz2")
        .expect(&text);
    assert_eq!(lines[at + 1], "Catholic checkmates Byzantine");
    assert!(
        text.contains("playing: Catholic (c), Protestant (p), Islamic (i); to move: Catholic (c)")
    );
    let (fen, _) = reference(
        "aof5",
        Some(&boxed),
        &["pass", "fu4ds4", "jz2jz1", "az2bz2"],
    );
    assert_eq!(lines.last().unwrap(), &fen);
    assert!(
        fen.contains("cGV"),
        "the delivering Bishop became a Governor: {fen}"
    );
}

#[test]
fn a_missionary_session_shows_six_levels_and_hands() {
    let (_, legal) = reference("missionary", None, &[]);
    let first = legal[0].clone();
    let (after, legal_after) = reference("missionary", None, &[&first]);
    let (ok, lines, _) = session(
        &["--variant", "missionary"],
        &[
            "show",
            "moves",
            &first,
            "W@wc5",
            "fen",
            "go depth 1",
            "undo",
            "fen",
            "help",
            "bogus",
        ],
    );
    assert!(ok);
    let text = lines.join("\n");
    for level in [
        "level u", "level v", "level w", "level x", "level y", "level z",
    ] {
        assert!(lines[1].contains(level), "{}", lines[1]);
    }
    assert!(
        text.contains("white in hand: -") && text.contains("black in hand: -"),
        "{text}"
    );
    assert!(text.contains("white to move"));
    assert!(lines.contains(&moves_line(&legal)));
    assert_eq!(legal.len(), 207);
    assert!(lines.contains(&format!("white plays {first}")));
    assert!(text.contains("error: 'W@wc5'"), "{text}");
    let fens: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("w+wmm+ww/"))
        .collect();
    assert_eq!(fens, [&after, &after]);
    let engine = line_starting(&lines, "black plays ");
    let mv = engine.split_whitespace().nth(2).unwrap();
    assert!(legal_after.contains(&mv.to_string()), "{engine}");
    assert!(
        text.contains("set method paranoid|brs"),
        "help lists the commands"
    );
    assert!(lines.last().unwrap().starts_with("error: 'bogus'"));
}

#[test]
fn bad_start_options_fail_with_one_line() {
    let (ok, lines, err) = session(&["--variant", "aof5", "--fen", "iK c"], &["show"]);
    assert!(!ok);
    assert!(lines.is_empty());
    assert!(err.starts_with("panoply: bad position string:"), "{err}");
    assert_eq!(err.lines().count(), 1);
    let (ok, _, err) = session(&["--variant", "nochess"], &[]);
    assert!(!ok);
    assert!(err.contains("unknown variant 'nochess'"), "{err}");
    let (ok, _, err) = session(&["--method", "minimax"], &[]);
    assert!(!ok);
    assert!(err.contains("unknown search method 'minimax'"), "{err}");
}
