//! The GUI protocols. `panoply` without a subcommand runs [`run`]: it waits for the first
//! command and then speaks UCI (after `uci`) or XBoard/CECP (after `xboard` or `protover`).
//!
//! Every protocol runs the same event loop: a reader thread turns stdin lines into
//! [`Event::Line`], a search worker reports [`Event::SearchDone`]; the loop owns all state, so
//! commands such as `stop`, `?`, `ping` and `isready` are answered while the engine thinks.
//! stdout carries protocol lines only ([`send`]); logs go to stderr.

pub mod session;
pub mod uci;
pub mod xbetza;
pub mod xboard;
pub mod xboard_pieces;

use session::Finished;
use std::io::{BufRead, Write};
use std::sync::mpsc::{channel, Receiver, Sender};

/// What the protocol loop reacts to.
pub enum Event {
    Line(String),
    /// stdin closed: behave as on `quit`.
    Eof,
    SearchDone(Finished),
}

/// Writes one protocol line to stdout and flushes it (GUIs read line by line from a pipe).
pub fn send(line: &str) {
    log::debug!("> {line}");
    let mut out = std::io::stdout().lock();
    // A closed stdout means the GUI is gone; the next read of stdin ends the loop.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn spawn_reader(tx: Sender<Event>) {
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            log::debug!("< {line}");
            if tx.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = tx.send(Event::Eof);
    });
}

/// Runs the protocol loop until `quit` or the end of input.
pub fn run() {
    let (tx, rx): (Sender<Event>, Receiver<Event>) = channel();
    spawn_reader(tx.clone());
    while let Ok(event) = rx.recv() {
        let Event::Line(line) = event else { return };
        let line = line.trim();
        match line.split_whitespace().next() {
            None => continue,
            Some("uci") => return uci::Uci::new(tx, rx).run(),
            Some("xboard") => return xboard::XBoard::new(tx, rx, None).run(),
            Some("protover") => return xboard::XBoard::new(tx, rx, Some(line.to_string())).run(),
            Some("quit") => return,
            Some(other) => log::warn!(
                "expected 'uci' or 'xboard' as the first command, got '{other}'; ignored"
            ),
        }
    }
}
