//! Drives the built `panoply` binary through stdin/stdout, line by line.
#![allow(dead_code)]

use panoply::game::Game;
use panoply::with_tables;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub const WAIT: Duration = Duration::from_secs(20);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// The engine started with these command-line arguments (`--armies FILE`).
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_panoply"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("panoply starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
            transcript: Vec::new(),
        }
    }

    fn stdin(&mut self) -> &mut ChildStdin {
        self.stdin
            .as_mut()
            .expect("the engine's input is still open")
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin(), "{line}").expect("engine reads stdin");
        self.stdin().flush().unwrap();
    }

    /// Closes the engine's input: it sees the end of its input.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// How the process ended, if it does within `timeout`.
    pub fn exit_status(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }

    /// Sends raw bytes (which need not be UTF-8) and a line end.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin();
        stdin.write_all(bytes).expect("engine reads stdin");
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns it and the lines before it.
    pub fn read_until(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> (String, Vec<String>) {
        let deadline = Instant::now() + WAIT;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) if pred(&l) => return (l, before),
                Some(l) => before.push(l),
                None => panic!(
                    "no {what} within {WAIT:?}; engine said:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    pub fn expect(&mut self, exact: &str) -> Vec<String> {
        self.read_until(&format!("'{exact}'"), |l| l == exact).1
    }

    pub fn expect_prefix(&mut self, prefix: &str) -> String {
        self.read_until(&format!("a line starting '{prefix}'"), |l| {
            l.starts_with(prefix)
        })
        .0
    }

    /// Sends `line` and returns everything the engine says before answering the barrier
    /// (`ping` / `isready`) sent right after it.
    pub fn exchange(&mut self, line: &str, barrier: &str, answer: &str) -> Vec<String> {
        self.send(line);
        self.send(barrier);
        self.expect(answer)
    }

    /// Whether the process ends within `timeout`.
    pub fn exits_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The legal moves (our notation) of a variant's position after some moves.
pub fn legal_moves(variant: &str, fen: Option<&str>, moves: &[&str]) -> Vec<String> {
    let tables = panoply::games::tables(variant).unwrap();
    with_tables!(&tables, t => {
        let mut g = match fen {
            Some(f) => Game::from_position_string(t.clone(), f).unwrap(),
            // `startpos` / `new`: where an engine session starts (a GUI's own array).
            None => Game::from_position_string(t.clone(), t.variant.session_start()).unwrap(),
        };
        for m in moves {
            g.play_str(m).unwrap();
        }
        g.legal_moves().into_iter().map(|m| g.format_move(m)).collect()
    })
}

/// The position string of a variant's session start after some moves (our notation).
#[allow(dead_code)]
pub fn position_after(variant: &str, moves: &[&str]) -> String {
    let tables = panoply::games::tables(variant).unwrap();
    with_tables!(&tables, t => {
        let mut g = Game::from_position_string(t.clone(), t.variant.session_start()).unwrap();
        for m in moves {
            g.play_str(m).unwrap();
        }
        g.position_string()
    })
}

/// An engine after the UCI handshake.
pub fn start_uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    e
}

/// UCI: the output of a command up to the `readyok` of an `isready` sent after it.
pub fn uci_say(e: &mut Engine, line: &str) -> Vec<String> {
    e.exchange(line, "isready", "readyok")
}

/// An engine after the XBoard handshake; every command is followed by a `ping`, so the
/// replies to one command are known to be complete.
pub struct XB {
    pub e: Engine,
    pings: u32,
}

impl XB {
    pub fn start() -> XB {
        let mut e = Engine::start();
        e.send("xboard");
        e.send("protover 2");
        e.expect("feature done=1");
        XB { e, pings: 0 }
    }

    /// An engine whose handshake the caller has read.
    pub fn after_handshake(e: Engine) -> XB {
        XB { e, pings: 0 }
    }

    /// Sends a command and returns all output up to the matching `pong`.
    pub fn say(&mut self, line: &str) -> Vec<String> {
        self.pings += 1;
        let n = self.pings;
        self.e
            .exchange(line, &format!("ping {n}"), &format!("pong {n}"))
    }

    /// A command that must get exactly one reply line.
    pub fn reply(&mut self, line: &str) -> String {
        let out = self.say(line);
        assert_eq!(out.len(), 1, "'{line}' should get one line, got {out:?}");
        out[0].clone()
    }

    pub fn silent(&mut self, line: &str) {
        let out = self.say(line);
        assert!(out.is_empty(), "'{line}' should be silent, got {out:?}");
    }
}
