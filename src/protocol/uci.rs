//! UCI. Variants are chosen with the `UCI_Variant` option, whose choices are every name in
//! the registry (army pairings are variant names, e.g. `cwda-nutty-rookies`).

use super::lag::LagMeter;
use super::options::{self, Choices};
use super::{search_done_to, Event, Inbox, Output, Protocol, Reply};
use crate::games;
use crate::search::wdl::WdlModel;
use crate::search::{Clock, Info, Limits, Score};
use crate::session::{default_options, Finished, Session};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Running {
    stop: Arc<AtomicBool>,
    /// `go ponder`: on `ponderhit` the search restarts with these limits.
    ponder_limits: Option<Limits>,
}

/// The last `position` command that was set up, as its start and moves.
struct GivenPosition {
    setup: String,
    moves: Vec<String>,
}

pub struct Uci {
    tx: Sender<Event>,
    out: Output,
    inbox: Inbox,
    session: Session,
    search: Option<Running>,
    /// The options' settings the session does not keep (book, WDL output, strength).
    choices: Choices,
    /// What the session's game was set up from; `None` after anything else changed it.
    position: Option<GivenPosition>,
    lag: LagMeter,
}

/// The shared loop calls the inherent methods of the same names.
impl Protocol for Uci {
    fn inbox(&mut self) -> &mut Inbox {
        &mut self.inbox
    }

    fn command(&mut self, line: &str) -> bool {
        Uci::command(self, line)
    }

    fn search_done(&mut self, finished: Finished) {
        Uci::search_done(self, finished)
    }

    fn shutdown(&mut self) {
        self.stop_and_wait();
    }
}

impl Uci {
    /// `uci_arrived`: when the `uci` that chose this protocol arrived.
    pub fn new(tx: Sender<Event>, rx: Receiver<Event>, out: Output, uci_arrived: Instant) -> Uci {
        let session = Session::new(
            games::tables("chess").expect("chess is built in"),
            default_options(),
        );
        Uci {
            tx,
            out,
            inbox: Inbox::new(rx, [("uci".to_string(), uci_arrived)]),
            session,
            search: None,
            choices: Choices::default(),
            position: None,
            lag: LagMeter::default(),
        }
    }

    /// Handles one command; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        let reply = match cmd {
            "" => Ok(()),
            "quit" => return false,
            "uci" => {
                self.identify();
                Ok(())
            }
            "isready" => {
                self.out.send("readyok");
                Ok(())
            }
            "debug" | "register" => Ok(()),
            "ucinewgame" => {
                self.stop_and_wait();
                self.session.new_game();
                self.session.reset();
                self.position = None;
                self.lag.clear();
                Ok(())
            }
            "setoption" => {
                self.stop_and_wait();
                self.set_option(arg)
            }
            "position" => {
                self.stop_and_wait();
                self.position(arg)
            }
            "go" => {
                self.stop_and_wait();
                self.go(arg)
            }
            "stop" => {
                if let Some(run) = &self.search {
                    run.stop.store(true, Ordering::Relaxed);
                }
                Ok(())
            }
            "ponderhit" => {
                self.ponderhit();
                Ok(())
            }
            _ => Err(format!("unknown command '{cmd}'")),
        };
        if let Err(e) = reply {
            self.out.send(&format!("info string {e}"));
        }
        true
    }

    fn identify(&self) {
        self.out
            .send(&format!("id name {}", crate::version::engine_name()));
        self.out.send("id author the Panoply developers");
        let names = games::names();
        let vars: Vec<String> = names.iter().map(|n| format!("var {n}")).collect();
        self.out.send(&format!(
            "option name UCI_Variant type combo default chess {}",
            vars.join(" ")
        ));
        for line in options::uci_lines(&self.session, &self.choices) {
            self.out.send(&line);
        }
        self.out.send("uciok");
    }

    fn set_option(&mut self, arg: &str) -> Reply {
        let rest = arg
            .strip_prefix("name ")
            .ok_or("expected: setoption name <id> [value <x>]")?;
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        if name.eq_ignore_ascii_case("UCI_Variant") {
            let tables = games::tables(value).map_err(|e| e.to_string())?;
            self.session.set_tables(tables);
            self.position = None;
            // A network file loaded before the variant: say whether this variant uses it.
            if self.session.eval_settings().file.is_some() {
                let line = self.session.eval_description();
                self.out.send(&format!("info string {line}"));
            }
            return Ok(());
        }
        let note = options::set(&mut self.session, &mut self.choices, name, value)?;
        if let Some(line) = note {
            self.out.send(&format!("info string {line}"));
        }
        Ok(())
    }

    /// `position (startpos | fen <string>) [moves ...]`; nothing changes on error.
    fn position(&mut self, arg: &str) -> Reply {
        let (setup, moves) = match arg.split_once(" moves") {
            Some((s, m)) => (s.trim(), m.trim()),
            None => (arg.trim(), ""),
        };
        let moves: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
        let backup = self.session.snapshot();
        // GUIs resend the whole game before every move: when it continues the game already
        // set up, only the new moves are played. Replaying hundreds of moves of a 3D game
        // costs more than the increment of a fast game.
        let done = match &self.position {
            Some(p) if p.setup == setup && moves.starts_with(&p.moves) => p.moves.len(),
            _ => {
                self.position = None;
                set_up(&mut self.session, setup)?;
                0
            }
        };
        for m in &moves[done..] {
            if let Err(e) = self.session.play(m) {
                self.session.restore(backup);
                return Err(format!("bad move list: {e}"));
            }
        }
        self.position = Some(GivenPosition {
            setup: setup.to_string(),
            moves,
        });
        Ok(())
    }

    fn go(&mut self, arg: &str) -> Reply {
        let words: Vec<&str> = arg.split_whitespace().collect();
        if words.first() == Some(&"perft") {
            let depth = words
                .get(1)
                .and_then(|d| d.parse::<u32>().ok())
                .ok_or("expected: go perft <depth>")?;
            return self.perft(depth);
        }
        let (mut limits, ponder) = self.parse_limits(&words)?;
        limits.started = Some(self.inbox.arrival());
        // A book move answers at once; pondering and infinite analysis search as usual.
        if !ponder && !limits.infinite {
            self.measure_lag(&mut limits);
            if let Some(mv) = self.choices.book.choose(&self.session) {
                self.lag.answered();
                self.out.send(&format!("info string book move {mv}"));
                self.out.send(&format!("bestmove {mv}"));
                return Ok(());
            }
        }
        if ponder {
            let infinite = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.launch(infinite, Some(limits));
        } else {
            self.launch(limits, None);
        }
        Ok(())
    }

    fn parse_limits(&self, words: &[&str]) -> Result<(Limits, bool), String> {
        let mut limits = Limits::default();
        let white = self.session.side_to_move().0 == 0;
        let (mut own, mut opp, mut inc, mut mtg) = (None, None, Duration::ZERO, None);
        let mut ponder = false;
        let mut i = 0;
        while i < words.len() {
            let value = || -> Result<u64, String> {
                words
                    .get(i + 1)
                    .and_then(|v| v.parse::<i64>().ok())
                    .map(|v| v.max(0) as u64)
                    .ok_or_else(|| format!("go: '{}' needs a number", words[i]))
            };
            let ms = |v: u64| Duration::from_millis(v);
            match words[i] {
                "infinite" => limits.infinite = true,
                "ponder" => ponder = true,
                "depth" => limits.depth = Some(value()? as u32),
                "nodes" => limits.nodes = Some(value()?),
                "movetime" => limits.movetime = Some(ms(value()?)),
                "movestogo" => mtg = Some(value()? as u32),
                "wtime" | "btime" => {
                    let t = Some(ms(value()?));
                    if (words[i] == "wtime") == white {
                        own = t;
                    } else {
                        opp = t;
                    }
                }
                "winc" | "binc" => {
                    let t = ms(value()?);
                    if (words[i] == "winc") == white {
                        inc = t;
                    }
                }
                "mate" => limits.depth = Some(2 * value()? as u32),
                "searchmoves" => return Err("go: searchmoves is not supported".into()),
                other => return Err(format!("go: unknown parameter '{other}'")),
            }
            i += if matches!(words[i], "infinite" | "ponder") {
                1
            } else {
                2
            };
        }
        if let Some(time_left) = own {
            limits.clock = Some(Clock {
                time_left,
                increment: inc,
                moves_to_go: mtg,
                opponent_time: opp,
                lag: Duration::ZERO,
            });
        }
        Ok((limits, ponder))
    }

    fn perft(&mut self, depth: u32) -> Reply {
        let rows = self.session.divide(depth);
        let total: u64 = if depth == 0 {
            1
        } else {
            rows.iter().map(|r| r.1).sum()
        };
        for (m, n) in rows {
            self.out.send(&format!("{m}: {n}"));
        }
        self.out.send("");
        self.out.send(&format!("Nodes searched: {total}"));
        Ok(())
    }

    fn launch(&mut self, limits: Limits, ponder_limits: Option<Limits>) {
        let stop = Arc::new(AtomicBool::new(false));
        let out = self.out.clone();
        let wdl = self
            .choices
            .show_wdl
            .then(|| WdlModel::for_variant(self.session.variant()));
        let report = Box::new(move |r: &Info<String>| out.send(&info_line(r, wdl)));
        self.session
            .start_search(limits, stop.clone(), report, search_done_to(&self.tx));
        self.search = Some(Running {
            stop,
            ponder_limits,
        });
    }

    /// The opponent played the expected move: think on it with the real limits.
    fn ponderhit(&mut self) {
        let Some(mut limits) = self.search.as_mut().and_then(|r| r.ponder_limits.take()) else {
            return;
        };
        // The clock runs from the `ponderhit`, not from the `go ponder`.
        limits.started = Some(self.inbox.arrival());
        self.measure_lag(&mut limits);
        self.wait(false);
        self.launch(limits, None);
    }

    /// Stops any search; its `bestmove` is still sent, as UCI wants one per `go`.
    fn stop_and_wait(&mut self) {
        self.wait(true);
    }

    fn wait(&mut self, report_best: bool) {
        let Some(run) = &self.search else { return };
        run.stop.store(true, Ordering::Relaxed);
        let Some(finished) = self.inbox.wait_for_search() else {
            self.search = None;
            return;
        };
        if report_best {
            self.search_done(finished);
        } else {
            self.session.finish(finished);
            self.search = None;
        }
    }

    /// Compares the clock with what we expected after our last move, and hands the largest
    /// recent difference to the budget.
    fn measure_lag(&mut self, limits: &mut Limits) {
        let at = limits.started.unwrap_or_else(Instant::now);
        if let Some(c) = &mut limits.clock {
            c.lag = self.lag.asked(c.time_left, c.increment, at);
        }
    }

    fn search_done(&mut self, finished: Finished) {
        let found = self.session.finish(finished);
        self.search = None;
        self.lag.answered();
        let best = found.best.unwrap_or_else(|| "0000".into());
        match found.ponder {
            Some(p) => self.out.send(&format!("bestmove {best} ponder {p}")),
            None => self.out.send(&format!("bestmove {best}")),
        }
    }
}

/// The start of a `position` command: `startpos` or `fen <string>`; the session is unchanged
/// on error.
fn set_up(session: &mut Session, setup: &str) -> Reply {
    if setup == "startpos" {
        session.reset();
        Ok(())
    } else if let Some(fen) = setup.strip_prefix("fen ") {
        session
            .set_position(fen)
            .map_err(|e| format!("bad position: {e}"))
    } else {
        Err("expected: position startpos | fen <string> [moves ...]".into())
    }
}

/// `info depth .. seldepth .. multipv .. score cp|mate .. [wdl W D L] nodes .. nps .. time ..
/// hashfull .. pv ..`; the win/draw/loss per mille only with `UCI_ShowWDL`.
fn info_line(r: &Info<String>, wdl: Option<WdlModel>) -> String {
    let mut score = match r.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    if let Some(model) = wdl {
        let [w, d, l] = model.per_mille(r.score);
        score.push_str(&format!(" wdl {w} {d} {l}"));
    }
    let ms = r.time.as_millis() as u64;
    let nps = r.nodes * 1000 / ms.max(1);
    format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {nps} time {ms} hashfull {} pv {}",
        r.depth,
        r.seldepth,
        r.multipv,
        r.nodes,
        r.hashfull,
        r.pv.join(" ")
    )
}
