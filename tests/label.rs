//! `panoply label` end to end: recorded positions searched by a real engine process (this
//! build of Panoply over UCI), scores turned to White's view, decided positions dropped.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A file name of its own for each call: the tests run side by side.
fn temp(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    std::env::temp_dir().join(format!("panoply-label-{}-{n}-{name}", std::process::id()))
}

/// A definition file for this test build of Panoply.
fn panoply_engine() -> PathBuf {
    let p = temp("panoply.engine");
    let text = format!(
        "name = Panoply\ncommand = \"{}\"\nprotocol = uci\noption.Hash = 16\n",
        env!("CARGO_BIN_EXE_panoply")
    );
    std::fs::write(&p, text).unwrap();
    p
}

fn label(data: &str, engine: &str, extra: &[&str]) -> (Output, String) {
    let input = temp("in.data");
    let output = temp("out.data");
    std::fs::write(&input, data).unwrap();
    let _ = std::fs::remove_file(&output);
    let out = Command::new(env!("CARGO_BIN_EXE_panoply"))
        .arg("label")
        .arg(&input)
        .args(["--engine", engine, "--nodes", "3000", "--out"])
        .arg(&output)
        .args(extra)
        .output()
        .expect("panoply runs");
    let text = std::fs::read_to_string(&output).unwrap_or_default();
    (out, text)
}

/// Labels `data` with this build of Panoply, expecting success: the output file and stderr.
fn label_with_panoply(data: &str, extra: &[&str]) -> (String, String) {
    let engine = panoply_engine();
    let (out, text) = label(data, engine.to_str().unwrap(), extra);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    (text, stderr)
}

/// Scores of the labelled lines, in order.
fn scores(text: &str) -> Vec<i32> {
    text.lines()
        .map(|l| l.rsplit('\t').next().unwrap().parse().unwrap())
        .collect()
}

/// White a Queen up with White to move, the same with Black to move, Black a Queen up with
/// White to move; the recorded score 0 everywhere.
const THREE: &str = "\
cwda-fide-fide\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t0.5\t0
cwda-fide-fide\trnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1\t1\t0
cwda-nutty-rookies\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1\t0\t0
";

#[test]
fn scores_come_from_the_engine_and_are_for_white() {
    let (text, _) = label_with_panoply(THREE, &["--concurrency", "2"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    // Variant, position and result are kept, in the input's order.
    for (got, want) in lines.iter().zip(THREE.lines()) {
        assert_eq!(
            got.rsplit_once('\t').unwrap().0,
            want.rsplit_once('\t').unwrap().0
        );
    }
    let s = scores(&text);
    assert!(s[0].abs() < 150, "start position: {s:?}");
    assert!(s[1] > 500, "White a Queen up, Black to move: {s:?}");
    assert!(s[2] < -300, "Black a Queen up, White to move: {s:?}");
}

#[test]
fn decided_positions_are_dropped() {
    let (text, stderr) = label_with_panoply(THREE, &["--max-score", "200"]);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("cwda-fide-fide\trnbqkbnr/pppppppp/8/8/"));
    assert!(
        stderr.contains("1 positions labelled, 2 dropped as decided"),
        "{stderr}"
    );
}

#[test]
fn bad_input_and_missing_engines_are_one_line_errors() {
    let engine = panoply_engine();
    let bad_position = "cwda-fide-fide\tnot a position\t1\t0\n";
    let (out, _) = label(bad_position, engine.to_str().unwrap(), &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("cwda-fide-fide: 'not a position'"),
        "{stderr}"
    );

    let (out, _) = label(THREE, "no-such-engine.engine", &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no-such-engine.engine"), "{stderr}");
}

#[test]
fn every_and_offset_label_one_part_of_the_file() {
    // Parts 1 and 0 of two: the second line alone, then the first and third.
    let (text, _) = label_with_panoply(THREE, &["--every", "2", "--offset", "1"]);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("rnb1kbnr/"), "{text}");
    let (text, _) = label_with_panoply(THREE, &["--every", "2"]);
    let positions: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(positions.len(), 2, "{text}");
    assert!(
        positions[0].starts_with("rnbqkbnr/") && positions[1].ends_with("RNB1KBNR w KQkq - 0 1")
    );

    let engine = panoply_engine();
    let (out, _) = label(
        THREE,
        engine.to_str().unwrap(),
        &["--every", "2", "--offset", "2"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim(),
        "panoply: --offset 2 must be below --every 2",
        "{stderr}"
    );
}
