//! Inputs that once killed or confused the engine (issue 13): a hash table larger than the
//! machine, `quit` during an XBoard search with a `ping` pending, bytes that are not UTF-8
//! and overlong lines. Each test failed before its fix.

use crate::protocol_common;

use protocol_common::{Engine, WAIT};
use std::time::Duration;

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    e
}

fn xboard() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.expect("feature done=1");
    e
}

/// More megabytes than this machine has available now, within UCI's advertised range if
/// the machine has less than 64 GB.
fn too_many_megabytes() -> u64 {
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kb: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(64 << 20);
    kb / 1024 + 1
}

#[test]
fn uci_refuses_a_hash_larger_than_the_machine_and_keeps_playing() {
    let mut e = uci();
    let mb = too_many_megabytes();
    if mb > 65536 {
        eprintln!("this machine has more than 64 GB available: Hash cannot ask for too much");
    } else {
        let out = e.exchange(
            &format!("setoption name Hash value {mb}"),
            "isready",
            "readyok",
        );
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(
            out[0].starts_with("info string option Hash: a hash table of"),
            "{out:?}"
        );
        assert!(out[0].ends_with("the table stays at 64 MB"), "{out:?}");
    }
    // Outside the advertised range: refused by the range check.
    let out = e.exchange(
        "setoption name Hash value 99999999999",
        "isready",
        "readyok",
    );
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].contains("not a number from 1 to 65536"), "{out:?}");
    e.send("position startpos moves e2e4");
    e.send("go depth 2");
    e.expect_prefix("bestmove ");
    assert!(e.is_running());
}

#[test]
fn xboard_memory_and_cores_follow_the_uci_bounds() {
    let mut e = xboard();
    let mut n = 0;
    let mut say = |e: &mut Engine, line: &str| {
        n += 1;
        e.exchange(line, &format!("ping {n}"), &format!("pong {n}"))
    };
    let out = say(&mut e, "memory 99999999999");
    assert_eq!(
        out,
        ["Error (memory must be a number of MB from 1 to 65536): memory 99999999999"]
    );
    let mb = too_many_megabytes();
    if mb <= 65536 {
        let out = say(&mut e, &format!("memory {mb}"));
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].starts_with("Error (a hash table of"), "{out:?}");
    }
    assert_eq!(
        say(&mut e, "cores 257"),
        ["Error (cores must be a number from 1 to 256): cores 257"]
    );
    assert!(say(&mut e, "memory 16").is_empty());
    assert!(say(&mut e, "cores 2").is_empty());
    say(&mut e, "new");
    say(&mut e, "sd 2");
    e.send("usermove e2e4");
    e.expect_prefix("move ");
}

#[test]
fn quit_during_an_xboard_search_sends_the_move_before_the_pending_pong() {
    let mut e = xboard();
    e.exchange("new", "ping 1", "pong 1");
    e.exchange("st 30", "ping 2", "pong 2");
    e.send("usermove e2e4");
    // Give the search time to start before the ping, so that the ping waits for the move.
    std::thread::sleep(Duration::from_millis(200));
    e.send("ping 3");
    e.send("quit");
    let (pong, before) = e.read_until("'pong 3'", |l| l == "pong 3");
    assert_eq!(pong, "pong 3");
    assert!(
        before.iter().any(|l| l.starts_with("move ")),
        "the move must come before the pong: {before:?}"
    );
    assert!(e.exits_within(WAIT));
}

#[test]
fn bytes_that_are_not_utf8_are_an_unknown_command_not_the_end() {
    let mut e = uci();
    e.send_bytes(b"\xff\xfe go \xc3\x28 depth 1");
    let out = e.exchange("isready", "isready", "readyok");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string unknown command")),
        "{out:?}"
    );
    let mut x = xboard();
    x.send_bytes(b"usermove e2\xffe4");
    x.send("ping 1");
    x.expect("pong 1");
    assert!(x.is_running());
}

#[test]
fn an_overlong_line_is_dropped_and_the_session_goes_on() {
    let mut e = uci();
    let long = format!("position startpos moves {}", "e2e4 ".repeat(400_000));
    e.send(&long);
    e.send("position startpos moves e2e4");
    e.send("go depth 1");
    let best = e.expect_prefix("bestmove ");
    assert_ne!(best, "bestmove 0000");
    e.send("isready");
    e.expect("readyok");
}
