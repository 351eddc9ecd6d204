//! Where protocol lines go: stdout for a GUI, or a shared buffer for tests that drive a
//! protocol session inside their own process (see [`super::run_with`]).

use std::io::Write;
use std::sync::{Arc, Mutex};

/// A sink for protocol lines, cheap to clone into the search worker's progress reports.
#[derive(Clone)]
pub struct Output(Arc<dyn Fn(&str) + Send + Sync>);

/// The lines an [`Output::capture`] sink received, in order.
pub type Captured = Arc<Mutex<Vec<String>>>;

impl Output {
    /// Each line to stdout, flushed at once (GUIs read line by line from a pipe).
    pub fn stdout() -> Output {
        Output(Arc::new(|line: &str| {
            let mut out = std::io::stdout().lock();
            // A closed stdout means the GUI is gone: nobody reads what the engine says, so
            // it ends at once and quietly, as a GUI that quits expects.
            if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                crate::out::end_on_write_error(&e);
            }
        }))
    }

    /// Lines kept in memory, for tests.
    pub fn capture() -> (Output, Captured) {
        let lines: Captured = Arc::new(Mutex::new(Vec::new()));
        let keep = lines.clone();
        let out = Output(Arc::new(move |line: &str| {
            // A poisoned buffer only means another thread panicked while holding it; the
            // lines are still there for the test to show.
            let mut l = keep.lock().unwrap_or_else(|e| e.into_inner());
            l.push(line.to_string());
        }));
        (out, lines)
    }

    /// Sends one protocol line.
    pub fn send(&self, line: &str) {
        log::debug!("> {line}");
        (self.0)(line);
    }
}
