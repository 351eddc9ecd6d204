//! The GUI protocols. `panoply` without a subcommand runs [`run`]: it waits for the first
//! command and then speaks UCI (after `uci`) or XBoard/CECP (after `xboard` or `protover`).
//!
//! Every protocol runs the same event loop: a reader thread turns stdin lines into
//! [`Event::Line`], a search worker reports [`Event::SearchDone`]; the loop owns all state, so
//! commands such as `stop`, `?`, `ping` and `isready` are answered while the engine thinks.
//! stdout carries protocol lines only ([`send`]); logs go to stderr.

pub mod own_book;
pub mod session;
pub mod uci;
pub mod xbetza;
pub mod xboard;
pub mod xboard_pieces;
pub mod xboard_targets;

use session::Finished;
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc::{channel, Receiver, Sender};

/// What the protocol loop reacts to.
pub enum Event {
    Line(String),
    /// stdin closed: behave as on `quit`.
    Eof,
    SearchDone(Finished),
}

/// The protocol loop's input: events from the reader thread and the search worker, plus the
/// lines that arrived while the loop was waiting for a search to stop (kept so that no command
/// is lost or reordered).
pub struct Inbox {
    rx: Receiver<Event>,
    queue: VecDeque<String>,
}

impl Inbox {
    /// `first` holds lines already read by the protocol detection, handled before any others.
    pub fn new(rx: Receiver<Event>, first: impl IntoIterator<Item = String>) -> Inbox {
        Inbox {
            rx,
            queue: first.into_iter().collect(),
        }
    }

    /// The next event, kept lines first; `None` once every sender is gone.
    fn next(&mut self) -> Option<Event> {
        match self.queue.pop_front() {
            Some(line) => Some(Event::Line(line)),
            None => self.rx.recv().ok(),
        }
    }

    /// Waits for the running search to report, keeping the lines that arrive meanwhile (the end
    /// of input is kept as `quit`). `None` if the worker vanished without reporting.
    pub fn wait_for_search(&mut self) -> Option<Finished> {
        loop {
            match self.rx.recv() {
                Ok(Event::Line(l)) => self.queue.push_back(l),
                Ok(Event::Eof) => self.queue.push_back("quit".into()),
                Ok(Event::SearchDone(f)) => return Some(f),
                Err(_) => return None,
            }
        }
    }
}

/// What a protocol does with the events of the shared loop ([`event_loop`]).
pub trait Protocol {
    fn inbox(&mut self) -> &mut Inbox;
    /// Handles one trimmed command line; false on `quit`.
    fn command(&mut self, line: &str) -> bool;
    fn search_done(&mut self, finished: Finished);
    /// Called once when the loop ends (quit or end of input): stop any search.
    fn shutdown(&mut self);
}

/// Runs a protocol until `quit` or the end of input.
pub fn event_loop(protocol: &mut impl Protocol) {
    while let Some(event) = protocol.inbox().next() {
        match event {
            Event::Line(line) => {
                if !protocol.command(line.trim()) {
                    break;
                }
            }
            Event::Eof => break,
            Event::SearchDone(f) => protocol.search_done(f),
        }
    }
    protocol.shutdown();
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
            Some("uci") => return event_loop(&mut uci::Uci::new(tx, rx)),
            Some("xboard") => return event_loop(&mut xboard::XBoard::new(tx, rx, None)),
            Some("protover") => {
                let first = Some(line.to_string());
                return event_loop(&mut xboard::XBoard::new(tx, rx, first));
            }
            Some("quit") => return,
            Some(other) => log::warn!(
                "expected 'uci' or 'xboard' as the first command, got '{other}'; ignored"
            ),
        }
    }
}
