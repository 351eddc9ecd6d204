//! The command line as a user meets it: bad position strings and variant names give one line
//! on stderr and exit code 2; `perft`, `show` and `variants` print what the README and docs/commands.md promise.

use std::process::{Command, Output};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const BOARD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

/// Runs the binary with `args` (no `RUST_LOG`, so stderr holds only what users see).
pub(crate) fn panoply(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_panoply"))
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("the panoply binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// Runs `args`, expects exit code 2, nothing on stdout and exactly one stderr line containing
/// every string of `mentions`.
fn expect_error(args: &[&str], mentions: &[&str]) {
    let o = panoply(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: stderr {err:?}");
    assert_eq!(stdout(&o), "", "{args:?} printed on stdout");
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err:?}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    for m in mentions {
        assert!(err.contains(m), "{args:?}: {err:?} does not mention {m:?}");
    }
}

fn expect_bad_fen(fen: &str, mentions: &[&str]) {
    expect_error(&["perft", "1", "--fen", fen], mentions);
    expect_error(&["show", "--fen", fen], mentions);
}

#[test]
fn bad_board_fields() {
    let cases: &[(&str, &[&str])] = &[
        ("", &["empty"]),
        ("   ", &["empty"]),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            &["7 ranks", "expected 8"],
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
            &["9 ranks"],
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
            &["RNBQKBNRR", "9 cells", "expected 8"],
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
            &["RNBQKBN", "7 cells"],
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["'9'", "9 cells"],
        ),
        (
            "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["44 cells"],
        ),
        (
            "rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["empty-cell count of 0"],
        ),
        (
            "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["unknown piece 'x'"],
        ),
        (
            "rnbqkbnr/ppp+pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["unknown piece '+p'"],
        ),
        (
            "rnbqkbnr/pppp\u{e9}ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["unknown piece '\u{e9}'"],
        ),
    ];
    for (fen, mentions) in cases {
        expect_bad_fen(fen, mentions);
    }
}

#[test]
fn bad_side_castling_and_en_passant_fields() {
    let cases: &[(String, &[&str])] = &[
        (BOARD.to_string(), &["side-to-move"]),
        (format!("{BOARD} x KQkq - 0 1"), &["side-to-move", "'x'"]),
        (format!("{BOARD} wb KQkq - 0 1"), &["side-to-move", "'wb'"]),
        (format!("{BOARD} w"), &["castling"]),
        (format!("{BOARD} w KQkx - 0 1"), &["castling", "KQkx"]),
        (format!("{BOARD} w KKQkq - 0 1"), &["castling", "'K' twice"]),
        (format!("{BOARD} w KQkq"), &["en-passant"]),
        (format!("{BOARD} w KQkq e9 0 1"), &["en-passant", "e9"]),
        (format!("{BOARD} w KQkq z3 0 1"), &["en-passant", "z3"]),
        (format!("{BOARD} w KQkq e3 0 1"), &["en-passant", "e3"]),
        (format!("{BOARD} w KQkq e4 0 1"), &["en-passant", "e4"]),
    ];
    for (fen, mentions) in cases {
        expect_bad_fen(fen, mentions);
    }
}

#[test]
fn bad_numbers_and_extra_fields() {
    let cases: &[(String, &[&str])] = &[
        (format!("{BOARD} w KQkq - -1 1"), &["halfmove", "'-1'"]),
        (format!("{BOARD} w KQkq - x 1"), &["halfmove", "'x'"]),
        (format!("{BOARD} w KQkq - 99999999 1"), &["halfmove"]),
        (format!("{BOARD} w KQkq - 0 one"), &["move number", "'one'"]),
        (format!("{BOARD} w KQkq - 0 1 extra"), &["'extra'"]),
    ];
    for (fen, mentions) in cases {
        expect_bad_fen(fen, mentions);
    }
}

#[test]
fn impossible_positions() {
    let cases: &[(&str, &[&str])] = &[
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["black has no king"],
        ),
        ("8/8/8/8/8/8/8/8 w - - 0 1", &["white has no king"]),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1",
            &["white has 2 kings"],
        ),
        (
            "Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["Pawn", "a8"],
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp w Qkq - 0 1",
            &["Pawn", "h1"],
        ),
        (
            "4k3/8/8/8/8/8/8/4K2r b - - 0 1",
            &["white is in check", "black's turn"],
        ),
        (
            "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
            &["black is in check", "white's turn"],
        ),
    ];
    for (fen, mentions) in cases {
        expect_bad_fen(fen, mentions);
    }
}

#[test]
fn bad_variant_names() {
    let cases: &[(&str, &[&str])] = &[
        ("foo", &["unknown variant 'foo'", "panoply variants"]),
        ("", &["unknown variant ''"]),
        ("cwda-fide", &["malformed", "cwda-<white>-<black>"]),
        ("cwda-fide-xx", &["unknown army 'xx'", "clobberers"]),
        ("cwda-elves-fide", &["unknown army 'elves'"]),
        ("cwda-fide-fide-fide", &["malformed"]),
        ("cwda-fide-fide-anypromo-x", &["malformed"]),
        ("cwda--fide", &["unknown army ''"]),
    ];
    for (name, mentions) in cases {
        expect_error(&["perft", "1", "--variant", name], mentions);
        expect_error(&["show", "--variant", name], mentions);
    }
}

#[test]
fn perft_divide_prints_moves_then_the_total_last() {
    let o = panoply(&[
        "perft",
        "2",
        "--variant",
        "cwda-clobberers-nutty",
        "--divide",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"Nodes searched: 728"));
    let rows = &lines[..lines.len() - 1];
    // 28 root moves (see the `show` test), each answered by the Nutty Knights' 26.
    assert_eq!(rows.len(), 28);
    for row in rows {
        let (mv, n) = row.split_once(": ").expect("`<move>: <count>`");
        assert!(mv.len() == 4 && mv.is_ascii(), "{row}");
        assert_eq!(n, "26", "{row}");
    }
    assert!(rows.contains(&"b1d3: 26"), "the Waffle's A leap");
    let mut sorted = rows.to_vec();
    sorted.sort();
    assert_eq!(sorted, rows, "rows sorted by move");
    // Time and speed go to stderr, not stdout.
    assert!(stderr(&o).contains("Mnodes/s"));
}

#[test]
fn perft_without_divide_prints_only_the_total() {
    let o = panoply(&["perft", "3", "--fen", START]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "Nodes searched: 8902\n");
    let o = panoply(&["perft", "0"]);
    assert_eq!(stdout(&o), "Nodes searched: 1\n");
    let o = panoply(&["perft", "1", "--variant", "cwda-rookies-fide", "--divide"]);
    assert_eq!(stdout(&o).lines().last(), Some("Nodes searched: 24"));
}

#[test]
fn show_prints_diagram_position_and_moves() {
    let o = panoply(&["show", "--variant", "cwda-clobberers-nutty"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("D W A C K A W D"), "{out}");
    assert!(out.contains("g i h o k h i g"), "{out}");
    assert!(out.contains("gihokhig/pppppppp/8/8/8/8/PPPPPPPP/DWACKAWD w KQkq - 0 1"));
    let moves = out.lines().last().unwrap();
    assert!(moves.starts_with("28 legal moves: "), "{moves}");
    assert!(
        moves.contains(" b1d3 ") && moves.contains(" d1c3 "),
        "{moves}"
    );
    // Bede castling e1b1 once b1, c1, d1 are empty.
    let o = panoply(&[
        "show",
        "--variant",
        "cwda-clobberers-fide",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/D3KAWD w KQkq - 0 1",
    ]);
    assert!(stdout(&o).contains(" e1b1"), "{}", stdout(&o));
}

#[test]
fn variants_lists_every_pairing() {
    let o = panoply(&["variants"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let names: Vec<&str> = out.lines().collect();
    assert!(names.contains(&"chess"));
    for w in ["fide", "clobberers", "nutty", "rookies"] {
        for b in ["fide", "clobberers", "nutty", "rookies"] {
            assert!(names.contains(&format!("cwda-{w}-{b}").as_str()));
            assert!(names.contains(&format!("cwda-{w}-{b}-anypromo").as_str()));
        }
    }
    // Every listed name is accepted.
    for name in names {
        let o = panoply(&["perft", "1", "--variant", name]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
    }
}

#[test]
fn no_command_runs_the_protocol_loop_and_unknown_command_fails_cleanly() {
    // Without a subcommand panoply waits for `uci` or `xboard`; at the end of input it stops.
    let o = panoply(&[]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    assert!(!stderr(&o).contains("panicked"));
    let o = panoply(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains("panicked"));
}
