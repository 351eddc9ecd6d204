//! The live progress line on stderr: games finished, games running with their ply counts, and
//! the points so far. Drawn only when stderr is a terminal (never in logs or pipes).

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;

pub struct Progress {
    enabled: bool,
    state: Mutex<State>,
}

struct State {
    total: usize,
    finished: usize,
    /// Game number -> plies played.
    running: BTreeMap<usize, usize>,
    names: Vec<String>,
    points: Vec<f64>,
}

impl Progress {
    /// `enabled` is further limited to a terminal on stderr.
    pub fn new(enabled: bool, total: usize, names: Vec<String>) -> Progress {
        Progress {
            enabled: enabled && std::io::stderr().is_terminal(),
            state: Mutex::new(State {
                total,
                finished: 0,
                running: BTreeMap::new(),
                points: vec![0.0; names.len()],
                names,
            }),
        }
    }

    pub fn game_started(&self, game: usize) {
        self.update(|s| {
            s.running.insert(game, 0);
        });
    }

    pub fn ply(&self, game: usize, plies: usize) {
        self.update(|s| {
            s.running.insert(game, plies);
        });
    }

    /// `points` per engine index earned in the game.
    pub fn game_finished(&self, game: usize, points: &[(usize, f64)]) {
        self.update(|s| {
            s.running.remove(&game);
            s.finished += 1;
            for &(e, p) in points {
                s.points[e] += p;
            }
        });
    }

    /// Removes the line before other output.
    pub fn clear(&self) {
        if self.enabled {
            eprint!("\r\x1b[K");
        }
    }

    fn update(&self, change: impl FnOnce(&mut State)) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut s);
        if !self.enabled {
            return;
        }
        let running: Vec<String> = s.running.iter().map(|(g, p)| format!("#{g}:{p}")).collect();
        let points: Vec<String> = s
            .names
            .iter()
            .zip(&s.points)
            .map(|(n, p)| format!("{n} {p}"))
            .collect();
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[K[{}/{} games] running {} | {}",
            s.finished,
            s.total,
            if running.is_empty() {
                "-".into()
            } else {
                running.join(" ")
            },
            points.join(", ")
        );
        let _ = err.flush();
    }
}
