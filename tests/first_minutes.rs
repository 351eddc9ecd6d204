//! A new user's first minutes (issue 64): a greeting on a terminal and none on a pipe, a
//! version that names its build, `match panoply` outside the checkout with an army from a
//! file, matches that refuse engines lacking a variant, and commands whose reader went away.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_panoply");

/// A fresh, empty folder of this test's own.
fn empty_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("panoply-first-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary folder");
    dir
}

/// `Panoply <version> (<commit>)`, the commit being hex digits.
fn is_build_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix(&format!("Panoply {} ", env!("CARGO_PKG_VERSION"))) else {
        return false;
    };
    let hash = rest.trim_start_matches('(').trim_end_matches(')');
    rest.starts_with('(') && hash.len() >= 7 && hash.chars().all(|c| c.is_ascii_hexdigit())
}

#[test]
fn version_and_protocol_names_carry_the_commit() {
    let out = Command::new(BIN).arg("--version").output().unwrap();
    let version = String::from_utf8(out.stdout).unwrap();
    assert!(is_build_name(version.trim_end()), "{version:?}");
    let mut engine = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    engine
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nquit\n")
        .unwrap();
    let out = engine.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    // Piped, as a GUI runs it: no greeting, the first line is the protocol's.
    let first = stdout.lines().next().unwrap_or("");
    assert_eq!(first, format!("id name {}", version.trim_end()), "{stdout}");
    assert!(
        out.stderr.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_terminal_gets_one_greeting_line() {
    // util-linux `script` runs the engine on a pseudo-terminal; without it there is no
    // terminal to test on.
    if Command::new("script").arg("--version").output().is_err() {
        return;
    }
    let mut script = Command::new("script")
        .args(["-qec", BIN, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    script.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    let out = script.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let greetings: Vec<&str> = text.lines().filter(|l| l.starts_with("Panoply ")).collect();
    assert_eq!(greetings.len(), 1, "{text:?}");
    let (name, rest) = greetings[0].split_once(", ").unwrap();
    assert!(is_build_name(name), "{name}");
    for hint in ["`uci`", "`xboard`", "`panoply --help`"] {
        assert!(rest.contains(hint), "{rest}");
    }
}

/// Runs `args` with a stdout nobody reads: the program must end quietly, as `panoply ... |
/// head -1` does once head has its line. The pipe's reading end is closed before the program
/// starts; closed after the spawn, a loaded machine could let a short command write all its
/// output into the pipe first and end normally.
fn run_with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn commands_whose_reader_went_away_end_quietly() {
    for args in [
        &["show", "--variant", "aof5"][..],
        &["perft", "3", "--divide"],
        &["variants"],
        &["variants", "--explain"],
    ] {
        let (code, err) = run_with_closed_stdout(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
    // Through a shell as a user types it.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("{BIN} show --variant aof5 | head -1 >/dev/null"))
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_engine_whose_gui_went_away_exits() {
    let mut engine = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(engine.stdout.take());
    // Input stays open: the closed output alone must end the engine.
    let mut input = engine.stdin.take().unwrap();
    input.write_all(b"uci\nisready\n").unwrap();
    let until = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = engine.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < until, "the engine is still running");
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(input);
    let mut err = String::new();
    std::io::Read::read_to_string(&mut engine.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// An army whose pieces all move otherwise than any built-in piece of their letter.
const MY_ARMY: &str = r#"[[army]]
name = "My Army"
code = "myarmy"
setup = "LTVXKVTL"
castling_partner = "L"
piece = [
  { name = "Lion", letter = "L", betza = "fsRbK" },
  { name = "Tiger", letter = "T", betza = "NC" },
  { name = "Vizier", letter = "V", betza = "WF" },
  { name = "Xebec", letter = "X", betza = "BW" },
]
"#;

/// `panoply args...` in `dir` with PATH alone in the environment.
fn in_empty_env(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn match_panoply_plays_an_army_from_a_file_anywhere() {
    let dir = empty_dir("match");
    std::fs::write(dir.join("myarmy.toml"), MY_ARMY).unwrap();
    let pgn = dir.join("games.pgn");
    let pgn_arg = pgn.to_str().unwrap();
    let (code, out, err) = in_empty_env(
        &dir,
        &[
            "--armies",
            "myarmy.toml",
            "match",
            "panoply",
            "panoply",
            "--variant",
            "cwda-myarmy-fide",
            "--games",
            "2",
            "--nodes",
            "2000",
            "--max-plies",
            "30",
            "--pgn",
            pgn_arg,
            "--quiet",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<&str> = text.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 2, "{text}");
    for g in games {
        assert!(g.contains("[Variant \"cwda-myarmy-fide\"]"), "{g}");
        // Played to the move limit or to the end by the rules: no forfeit, no illegal move.
        let termination = g.lines().find(|l| l.starts_with("[Termination ")).unwrap();
        assert!(
            termination.contains("normal") || termination.contains("adjudication"),
            "{g}"
        );
        let plies: usize = g
            .lines()
            .find_map(|l| l.strip_prefix("[PlyCount \""))
            .and_then(|n| n.trim_end_matches("\"]").parse().ok())
            .unwrap();
        assert!(plies >= 10, "{g}");
    }
    // White is the file army: its pieces (first rank, but the King on e1) moved.
    let piece_moves = text
        .split_whitespace()
        .filter(|w| w.len() >= 4 && w.as_bytes()[1] == b'1' && !w.starts_with("e1"))
        .filter(|w| (b'a'..=b'h').contains(&w.as_bytes()[0]))
        .count();
    assert!(piece_moves >= 2, "{text}");
    let forfeits = out
        .lines()
        .filter(|l| l.trim_start().starts_with(char::is_numeric));
    for row in forfeits {
        assert!(row.trim_end().ends_with(" 0"), "a forfeit: {row}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_engine_lists_where_it_was_looked_for() {
    let dir = empty_dir("missing");
    let (code, out, err) = in_empty_env(&dir, &["match", "nosuchengine", "panoply"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err,
        "panoply: nosuchengine: no engine definition found; looked for \
         engines/nosuchengine.engine (current folder)\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_name_is_found_in_the_engine_folders() {
    let dir = empty_dir("folders");
    let config = dir.join("config");
    let defs = config.join("panoply/engines");
    std::fs::create_dir_all(&defs).unwrap();
    std::fs::write(
        defs.join("me.engine"),
        format!("name = Me\ncommand = {BIN}\nprotocol = uci\n"),
    )
    .unwrap();
    let run = |env: (&str, &str)| {
        Command::new(BIN)
            .args(["match", "me", "panoply", "--games", "1", "--nodes", "500"])
            .args(["--max-plies", "4", "--quiet"])
            .current_dir(&dir)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env(env.0, env.1)
            .output()
            .unwrap()
    };
    for env in [
        ("XDG_CONFIG_HOME", config.to_str().unwrap()),
        ("PANOPLY_ENGINES", defs.to_str().unwrap()),
    ] {
        let out = run(env);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{env:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("Finished game 1 (Me vs Panoply)"),
            "{stdout}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
