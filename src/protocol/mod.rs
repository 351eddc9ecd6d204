//! The GUI protocols. `panoply` without a subcommand runs [`run`]: it waits for the first
//! command and then speaks UCI (after `uci`) or XBoard/CECP (after `xboard` or `protover`).
//!
//! Every protocol runs the same event loop: a reader thread turns stdin lines into
//! [`Event::Line`], a search worker reports [`Event::SearchDone`]; the loop owns all state, so
//! commands such as `stop`, `?`, `ping` and `isready` are answered while the engine thinks.
//! stdout carries protocol lines only ([`Output`]); logs go to stderr. Every line is
//! stamped with its arrival time, from which a search's clock runs.
//!
//! Input is bytes, not trusted text: a line that is not UTF-8 is read with replacement
//! characters (and then rejected as an unknown command), an overlong line is dropped with a
//! log message; neither ends the session.

pub mod lag;
pub mod options;
pub mod output;
pub mod own_book;

pub mod uci;
pub mod xbetza;
pub mod xboard;
pub mod xboard_castling;
pub mod xboard_pieces;
pub mod xboard_targets;

use crate::session::{Finished, WhenDone};
pub use output::Output;
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Instant;

/// Longer lines are dropped: no GUI command comes near this (a `position` of a thousand
/// moves is about 10 kB), and a runaway line must not exhaust memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What the protocol loop reacts to.
pub enum Event {
    /// A line of input and when it arrived.
    Line(String, Instant),
    /// stdin closed: behave as on `quit`.
    Eof,
    SearchDone(Finished),
}

/// The callback a search calls when it ends: its result joins the protocol loop's events.
pub fn search_done_to(tx: &Sender<Event>) -> WhenDone {
    let tx = tx.clone();
    Box::new(move |finished| {
        let _ = tx.send(Event::SearchDone(finished));
    })
}

/// The protocol loop's input: events from the reader thread and the search worker, plus the
/// lines that arrived while the loop was waiting for a search to stop (kept so that no command
/// is lost or reordered).
pub struct Inbox {
    rx: Receiver<Event>,
    queue: VecDeque<(String, Instant)>,
    /// When the line being handled arrived.
    arrived: Instant,
}

impl Inbox {
    /// `first` holds lines already read by the protocol detection, handled before any others.
    pub fn new(rx: Receiver<Event>, first: impl IntoIterator<Item = (String, Instant)>) -> Inbox {
        Inbox {
            rx,
            queue: first.into_iter().collect(),
            arrived: Instant::now(),
        }
    }

    /// The next event, kept lines first; `None` once every sender is gone.
    fn next(&mut self) -> Option<Event> {
        let event = match self.queue.pop_front() {
            Some((line, at)) => Some(Event::Line(line, at)),
            None => self.rx.recv().ok(),
        };
        if let Some(Event::Line(_, at)) = &event {
            self.arrived = *at;
        }
        event
    }

    /// When the line now being handled arrived: a search started by it counts its time
    /// from then.
    pub fn arrival(&self) -> Instant {
        self.arrived
    }

    /// Waits for the running search to report, keeping the lines that arrive meanwhile (the end
    /// of input is kept as `quit`). `None` if the worker vanished without reporting.
    pub fn wait_for_search(&mut self) -> Option<Finished> {
        loop {
            match self.rx.recv() {
                Ok(Event::Line(l, at)) => self.queue.push_back((l, at)),
                Ok(Event::Eof) => self.queue.push_back(("quit".into(), Instant::now())),
                Ok(Event::SearchDone(f)) => return Some(f),
                Err(_) => return None,
            }
        }
    }
}

/// A command's outcome: `Err` holds the one-line reason the protocol reports.
type Reply = Result<(), String>;

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
            Event::Line(line, _) => {
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

/// Reads lines on a thread of its own and sends them as events, then [`Event::Eof`].
fn spawn_reader(mut input: impl BufRead + Send + 'static, tx: Sender<Event>) {
    std::thread::spawn(move || {
        while let Some(line) = read_line(&mut input) {
            let at = Instant::now();
            let Some(line) = line else {
                log::warn!("input line longer than {MAX_LINE_BYTES} bytes dropped");
                continue;
            };
            log::debug!("< {line}");
            if tx.send(Event::Line(line, at)).is_err() {
                return;
            }
        }
        let _ = tx.send(Event::Eof);
    });
}

/// The next line without its end (`\n` or `\r\n`), invalid UTF-8 replaced; `Some(None)` for a
/// line longer than [`MAX_LINE_BYTES`] (read to its end and dropped); `None` at the end of the
/// input or on a read error.
pub fn read_line(input: &mut impl BufRead) -> Option<Option<String>> {
    let mut line = Vec::new();
    let mut overlong = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buf.is_empty() {
            if line.is_empty() && !overlong {
                return None;
            }
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        if line.len() + chunk.len() > MAX_LINE_BYTES {
            overlong = true;
            line.clear();
        } else if !overlong {
            line.extend_from_slice(chunk);
        }
        let newline = done > chunk.len();
        input.consume(done);
        if newline {
            break;
        }
    }
    if overlong {
        return Some(None);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Some(Some(String::from_utf8_lossy(&line).into_owned()))
}

/// Runs the protocol loop on stdin and stdout until `quit` or the end of input.
pub fn run() {
    run_with(std::io::BufReader::new(std::io::stdin()), Output::stdout());
}

/// Runs the protocol loop on any input, answering to `out`, until `quit` or the end of the
/// input; returns when every search has stopped.
pub fn run_with(input: impl BufRead + Send + 'static, out: Output) {
    let (tx, rx): (Sender<Event>, Receiver<Event>) = channel();
    spawn_reader(input, tx.clone());
    while let Ok(event) = rx.recv() {
        let Event::Line(line, at) = event else { return };
        let line = line.trim();
        match line.split_whitespace().next() {
            None => continue,
            Some("uci") => return event_loop(&mut uci::Uci::new(tx, rx, out, at)),
            Some("xboard") => return event_loop(&mut xboard::XBoard::new(tx, rx, None, out)),
            Some("protover") => {
                let first = Some((line.to_string(), at));
                return event_loop(&mut xboard::XBoard::new(tx, rx, first, out));
            }
            Some("quit") => return,
            Some(other) => log::warn!(
                "expected 'uci' or 'xboard' as the first command, got '{other}'; ignored"
            ),
        }
    }
}
