//! Seeded fuzzing of both protocols (issue 13). Thousands of sessions of random and mutated
//! commands, junk moves and position strings, odd numbers, bytes that are not UTF-8 and very
//! long lines, over every variant family, run in this process through the library's protocol
//! loop ([`panoply::protocol::run_with`]); a smaller number through the `panoply` binary, which
//! also catches aborts (an abort cannot be caught in-process). After every session the engine
//! must still answer the barrier (`isready` / `ping`) and nothing may have panicked.
//!
//! `PANOPLY_FUZZ_SESSIONS` and `PANOPLY_FUZZ_SEED` set a longer run (see docs/reliability.md); a
//! failing session prints its seed and input.

use crate::fuzz_input;
use crate::protocol_common;

use fuzz_input::{uci_session, xboard_session, Rng};
use panoply::protocol::{run_with, Output};
use std::io::Cursor;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Once;
use std::time::Duration;

/// Long enough for any session on a loaded machine; a session that takes longer hangs.
const SESSION_TIMEOUT: Duration = Duration::from_secs(60);
const FINAL_PING: u32 = 987_654_321;

static PANICS: AtomicUsize = AtomicUsize::new(0);
static HOOK: Once = Once::new();

/// Counts panics on every thread (a panic on a search thread would otherwise only show as
/// a missing answer).
fn count_panics() {
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            default(info);
        }));
    });
}

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn show(input: &[Vec<u8>]) -> String {
    input
        .iter()
        .map(|l| {
            let text = String::from_utf8_lossy(l);
            if text.len() > 200 {
                format!(
                    "{}... ({} bytes)",
                    &text[..text.floor_char_boundary(200)],
                    l.len()
                )
            } else {
                text.into_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs one session in this process; returns its output lines.
fn run_in_process(input: &[Vec<u8>]) -> Result<Vec<String>, String> {
    let mut bytes = Vec::new();
    for l in input {
        bytes.extend_from_slice(l);
        bytes.push(b'\n');
    }
    let (out, lines) = Output::capture();
    let (done_tx, done_rx) = mpsc::channel();
    let before = PANICS.load(Ordering::SeqCst);
    std::thread::spawn(move || {
        run_with(Cursor::new(bytes), out);
        let _ = done_tx.send(());
    });
    match done_rx.recv_timeout(SESSION_TIMEOUT) {
        Ok(()) => {}
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            return Err("the protocol loop panicked".into())
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            return Err(format!("no end within {SESSION_TIMEOUT:?}"))
        }
    }
    if PANICS.load(Ordering::SeqCst) != before {
        return Err("a thread panicked".into());
    }
    let lines = lines.lock().unwrap_or_else(|e| e.into_inner()).clone();
    Ok(lines)
}

/// The first word of a line as the engine reads it.
fn first_word(line: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(line);
    text.split_whitespace().next().map(str::to_string)
}

/// The lines the engine reads: up to a `quit` (a mutation can make one).
fn until_quit(input: &[Vec<u8>]) -> &[Vec<u8>] {
    let end = input
        .iter()
        .position(|l| first_word(l).as_deref() == Some("quit"))
        .unwrap_or(input.len());
    &input[..end]
}

/// UCI answers every `isready` (a line whose first word it is) with `readyok`.
fn check_uci(input: &[Vec<u8>], output: &[String]) -> Result<(), String> {
    let asked = until_quit(input)
        .iter()
        .filter(|l| first_word(l).as_deref() == Some("isready"))
        .count();
    let answered = output.iter().filter(|l| *l == "readyok").count();
    if answered < asked {
        return Err(format!("{asked} isready, {answered} readyok"));
    }
    Ok(())
}

fn check_xboard(output: &[String]) -> Result<(), String> {
    let pong = format!("pong {FINAL_PING}");
    if !output.contains(&pong) {
        return Err(format!("no '{pong}'"));
    }
    Ok(())
}

fn session(rng: &mut Rng) -> (Vec<Vec<u8>>, bool) {
    if rng.chance(50) {
        (uci_session(rng), true)
    } else {
        (xboard_session(rng, FINAL_PING), false)
    }
}

fn check(input: &[Vec<u8>], uci: bool, output: Result<Vec<String>, String>) -> Result<(), String> {
    let output = output?;
    let verdict = if uci {
        check_uci(input, &output)
    } else if until_quit(input).len() < input.len() {
        // The session quit before its final `ping`: only a panic or a hang is an error.
        Ok(())
    } else {
        check_xboard(&output)
    };
    verdict.map_err(|e| format!("{e}; output:\n{}", output.join("\n")))
}

#[test]
fn thousands_of_hostile_sessions_in_process() {
    count_panics();
    let seed = setting("PANOPLY_FUZZ_SEED", 13);
    let sessions = setting("PANOPLY_FUZZ_SESSIONS", 2000);
    // Two lanes, one per core of a small machine; each session is decided by its number.
    let lanes: Vec<_> = (0..2)
        .map(|lane| {
            std::thread::spawn(move || {
                for i in (lane..sessions).step_by(2) {
                    let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(i));
                    let (input, uci) = session(&mut rng);
                    if let Err(e) = check(&input, uci, run_in_process(&input)) {
                        return Err(format!(
                            "session {i} (seed {seed}) failed: {e}\ninput:\n{}",
                            show(&input)
                        ));
                    }
                }
                Ok(())
            })
        })
        .collect();
    for lane in lanes {
        if let Err(e) = lane.join().expect("a fuzz lane") {
            panic!("{e}");
        }
    }
}

/// Sessions through the binary: an abort (a failed allocation, a stack overflow) kills the
/// process, which only a separate process shows.
#[test]
fn hostile_sessions_through_the_binary() {
    let seed = setting("PANOPLY_FUZZ_SEED", 13) + 7;
    let sessions = setting("PANOPLY_FUZZ_SESSIONS", 2000) / 40;
    for i in 0..sessions {
        let mut rng = Rng::new(seed.wrapping_mul(1_000_003).wrapping_add(i));
        let (input, uci) = session(&mut rng);
        if let Err(e) = check(&input, uci, run_binary(&input)) {
            panic!(
                "binary session {i} (seed {seed}) failed: {e}\ninput:\n{}",
                show(&input)
            );
        }
    }
}

/// Runs one session through the binary; the output up to the end of the process, which must
/// exit by itself at the end of its input, with status 0.
fn run_binary(input: &[Vec<u8>]) -> Result<Vec<String>, String> {
    let mut e = protocol_common::Engine::start();
    for l in input {
        e.send_bytes(l);
    }
    e.close_input();
    let mut lines = Vec::new();
    while let Some(l) = e.next_line(SESSION_TIMEOUT) {
        lines.push(l);
    }
    match e.exit_status(SESSION_TIMEOUT) {
        Some(s) if s.success() => Ok(lines),
        Some(s) => Err(format!("the process ended with {s}")),
        None => Err("the process did not end".into()),
    }
}

/// Inputs that once broke the engine, kept as fixed cases: each must leave it answering.
#[test]
fn inputs_that_once_broke_the_engine() {
    count_panics();
    let ping = format!("ping {FINAL_PING}");
    let cases: Vec<(&str, bool, Vec<&[u8]>)> = vec![
        // Aborted allocating 64 GB.
        (
            "xboard memory",
            false,
            vec![
                b"xboard",
                b"protover 2",
                b"memory 99999999999",
                ping.as_bytes(),
            ],
        ),
        // Aborted on a machine with less memory than this (inside UCI's range).
        (
            "uci hash",
            true,
            vec![b"uci", b"setoption name Hash value 65536", b"isready"],
        ),
        // A line that is not UTF-8 ended the session (read as the end of input).
        ("not utf-8", true, vec![b"uci", b"\xff\xfe go", b"isready"]),
        // Found by this fuzz test: an infinite base time panicked making a Duration.
        (
            "level 1e309",
            false,
            vec![
                b"xboard",
                b"protover 2",
                b"level +5 1e309 99999999999",
                b"time 99999999999999999",
                b"go",
                ping.as_bytes(),
            ],
        ),
        // `quit` during a search for a move: the pending `pong` came without the move.
        (
            "quit while thinking",
            false,
            vec![
                b"xboard",
                b"protover 2",
                b"new",
                b"st 30",
                b"usermove e2e4",
                ping.as_bytes(),
                b"quit",
            ],
        ),
    ];
    for (name, uci, lines) in cases {
        let input: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
        if let Err(e) = check(&input, uci, run_in_process(&input)) {
            panic!("in process, '{name}': {e}");
        }
        if let Err(e) = check(&input, uci, run_binary(&input)) {
            panic!("through the binary, '{name}': {e}");
        }
    }
}
