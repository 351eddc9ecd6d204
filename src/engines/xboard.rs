//! The referee's side of XBoard (CECP v2): feature negotiation, `variant`, `level`/`st`,
//! `time`/`otim`, moves in force mode, then `go`. The engine is kept in force mode except while
//! it thinks, so it never moves on its own. `setup` and `piece` lines from engines that define
//! their own variants are not needed: the referee knows the rules itself.

use super::client::{
    engine_variant_name, EngineClient, EngineReply, GameSetup, SearchInfo, ThinkRequest,
    HANDSHAKE_TIMEOUT,
};
use super::engine_config::{Dialect, EngineConfig};
use super::process::{EngineError, EngineProcess};
use crate::games::cwda::Army;
use crate::interop::fairymax;
use crate::records::time_control::TimeControl;
use std::time::{Duration, Instant};

/// The features of protocol version 2 the referee understands (all others are rejected).
const KNOWN_FEATURES: &[&str] = &[
    "ping",
    "setboard",
    "playother",
    "san",
    "usermove",
    "time",
    "draw",
    "sigint",
    "sigterm",
    "reuse",
    "analyze",
    "myname",
    "variants",
    "colors",
    "ics",
    "name",
    "pause",
    "nps",
    "debug",
    "memory",
    "smp",
    "egt",
    "option",
    "exclude",
    "setscore",
    "highlight",
    "done",
    "xedit",
];

/// How long an engine that did not say `done=0` gets to finish its features (the spec's 2 s).
const FEATURE_GRACE: Duration = Duration::from_secs(2);

#[derive(Debug, Default)]
struct Features {
    usermove: bool,
    setboard: bool,
    ping: bool,
    san: bool,
    /// `nps` is understood (the protocol's default), so node budgets can be set.
    no_nps: bool,
    variants: Option<Vec<String>>,
}

pub struct XboardClient {
    cfg: EngineConfig,
    process: EngineProcess,
    features: Features,
    /// How many of the game's moves the engine knows.
    sent: usize,
    /// Per seat: the army whose letters the engine uses (Fairy-Max dialect only).
    dialect_armies: Option<Vec<Army>>,
    control: Option<TimeControl>,
    ping_counter: u32,
}

/// Splits `feature a=1 b="x y"` into pairs.
pub fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line.strip_prefix("feature").unwrap_or(line).trim_start();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(q) = after.strip_prefix('"') {
            match q.find('"') {
                Some(end) => (q[..end].to_string(), &q[end + 1..]),
                None => (q.to_string(), ""),
            }
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        out.push((key, value));
        rest = next.trim_start();
    }
    out
}

/// Reads an XBoard thinking line `ply score time nodes pv...`.
fn parse_thinking(line: &str, info: &mut SearchInfo) {
    let mut words = line.split_whitespace();
    let ply = words
        .next()
        .and_then(|w| w.trim_end_matches(['.', '&']).parse().ok());
    let score = words.next().and_then(|w| w.parse::<i32>().ok());
    if let (Some(ply), Some(score)) = (ply, score) {
        use super::client::Score;
        info.depth = Some(ply);
        // CECP writes "mate in N" as 100000 + N (negated when being mated).
        info.score = Some(if score.abs() >= 99_000 {
            Score::Mate(score.signum() * (score.abs() - 100_000).max(0))
        } else {
            Score::Centipawns(score)
        });
    }
}

/// `level` arguments: moves per period, base as `minutes[:seconds]`, increment in seconds.
fn level_command(control: TimeControl) -> String {
    match control {
        TimeControl::PerMove(d) => format!("st {}", d.as_secs_f64()),
        // With `nps N` an engine counts N nodes as one second: `st 1` is N nodes a move.
        TimeControl::Nodes(n) => format!("nps {n}\nst 1"),
        TimeControl::Clock {
            moves,
            base,
            increment,
        } => {
            let secs = base.as_secs_f64().ceil() as u64;
            format!(
                "level {} {}:{:02} {}",
                moves.unwrap_or(0),
                secs / 60,
                secs % 60,
                increment.as_secs_f64()
            )
        }
    }
}

impl XboardClient {
    pub fn start(cfg: &EngineConfig, label: &str) -> Result<XboardClient, EngineError> {
        let mut process = EngineProcess::spawn(cfg, label)?;
        process.send("xboard")?;
        process.send("protover 2")?;
        let mut client = XboardClient {
            cfg: cfg.clone(),
            process,
            features: Features::default(),
            sent: 0,
            dialect_armies: None,
            control: None,
            ping_counter: 0,
        };
        client.negotiate()?;
        for (name, value) in cfg.options.clone() {
            client.process.send(&format!("option {name}={value}"))?;
        }
        Ok(client)
    }

    fn negotiate(&mut self) -> Result<(), EngineError> {
        let started = Instant::now();
        let mut deadline = started + FEATURE_GRACE;
        let mut waiting_for_done = false;
        loop {
            let line = match self.process.recv(deadline) {
                Ok(line) => line,
                Err(EngineError::Timeout(_)) if !waiting_for_done => return Ok(()),
                Err(EngineError::Timeout(_)) => {
                    return Err(EngineError::Timeout("waiting for feature done=1".into()))
                }
                Err(e) => return Err(e),
            };
            if !line.starts_with("feature") {
                continue;
            }
            for (key, value) in parse_features(&line) {
                let reply = if KNOWN_FEATURES.contains(&key.as_str()) {
                    "accepted"
                } else {
                    "rejected"
                };
                self.process.send(&format!("{reply} {key}"))?;
                let on = value == "1";
                match key.as_str() {
                    "usermove" => self.features.usermove = on,
                    "setboard" => self.features.setboard = on,
                    "ping" => self.features.ping = on,
                    "san" => self.features.san = on,
                    "nps" => self.features.no_nps = !on,
                    "variants" => {
                        self.features.variants =
                            Some(value.split(',').map(|v| v.trim().to_string()).collect())
                    }
                    "done" if on => return Ok(()),
                    "done" => {
                        waiting_for_done = true;
                        deadline = started + HANDSHAKE_TIMEOUT;
                    }
                    _ => {}
                }
            }
        }
    }

    /// Waits until the engine has processed everything sent so far.
    fn sync(&mut self) -> Result<(), EngineError> {
        if !self.features.ping {
            return Ok(());
        }
        self.ping_counter += 1;
        let n = self.ping_counter;
        self.process.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        self.process
            .recv_until(Instant::now() + HANDSHAKE_TIMEOUT, "pong", |l| {
                (l == want).then_some(())
            })
    }

    /// The variant command's name, after the dialect's translation and a check against the
    /// engine's `variants` list.
    fn select_variant(&mut self, setup: &GameSetup) -> Result<String, EngineError> {
        if self.cfg.dialect == Dialect::FairyMax {
            return self.select_fairy_max_variant(setup);
        }
        self.variant_command_name(setup)
    }

    /// What `select_variant` chooses, without telling the engine anything.
    fn variant_command_name(&self, setup: &GameSetup) -> Result<String, EngineError> {
        if setup.players != 2 {
            return Err(EngineError::Unsupported(format!(
                "XBoard is a two-player protocol; {} has {} players",
                setup.variant, setup.players
            )));
        }
        if self.cfg.dialect == Dialect::FairyMax {
            return Ok(fairy_max_choice(setup)?.0.variant.to_string());
        }
        let name = match self.cfg.variant_name(&setup.variant) {
            Some(n) => n.to_string(),
            None if setup.variant == "chess" => "normal".to_string(),
            None => engine_variant_name(&self.cfg, &setup.variant),
        };
        self.check_advertised(&name)?;
        Ok(name)
    }

    fn check_advertised(&self, name: &str) -> Result<(), EngineError> {
        match &self.features.variants {
            Some(list) if name != "normal" && !list.iter().any(|v| v == name) => Err(
                EngineError::Unsupported(format!("variant {name} is not in the engine's list")),
            ),
            _ => Ok(()),
        }
    }

    fn select_fairy_max_variant(&mut self, setup: &GameSetup) -> Result<String, EngineError> {
        let (fm, armies) = fairy_max_choice(setup)?;
        self.check_advertised(fm.variant)?;
        if let Some(value) = &fm.selects {
            self.process
                .send(&format!("option {}={value}", fairymax::SELECT_OPTION))?;
        }
        self.dialect_armies = Some(armies);
        Ok(fm.variant.to_string())
    }

    fn to_engine(&self, mv: &str, mover: usize) -> String {
        match &self.dialect_armies {
            Some(armies) => fairymax::move_to_fairy_max(armies[mover], mv),
            None => mv.to_string(),
        }
    }

    fn move_from_engine(&self, mv: &str, seat: usize) -> String {
        match &self.dialect_armies {
            Some(armies) => fairymax::move_from_fairy_max(armies[seat], mv),
            None => mv.to_string(),
        }
    }

    fn send_move(&mut self, mv: &str) -> Result<(), EngineError> {
        let line = if self.features.usermove {
            format!("usermove {mv}")
        } else {
            mv.to_string()
        };
        self.process.send(&line)
    }
}

/// Fairy-Max's variant for a CwDA game of built-in armies, and the armies.
fn fairy_max_choice(
    setup: &GameSetup,
) -> Result<(fairymax::FairyMaxVariant, Vec<Army>), EngineError> {
    let unsupported =
        || EngineError::Unsupported(format!("Fairy-Max has no variant for {}", setup.variant));
    let armies: Vec<Army> = setup
        .armies
        .iter()
        .map(|a| Army::from_name(a))
        .collect::<Option<_>>()
        .ok_or_else(unsupported)?;
    if setup.variant.ends_with("-anypromo") || armies.len() != 2 {
        return Err(unsupported());
    }
    let fm = fairymax::variant_for(armies[0], armies[1]).ok_or_else(unsupported)?;
    Ok((fm, armies))
}

impl EngineClient for XboardClient {
    fn name(&self) -> &str {
        &self.cfg.name
    }

    fn check_variant(&self, setup: &GameSetup) -> Result<(), String> {
        let name = self.variant_command_name(setup);
        match name.and_then(|n| self.check_advertised(&n)) {
            Ok(()) => Ok(()),
            Err(EngineError::Unsupported(why)) => Err(why),
            Err(e) => Err(e.to_string()),
        }
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), EngineError> {
        if self.features.san {
            return Err(EngineError::Unsupported(
                "the engine asks for SAN moves (feature san=1)".into(),
            ));
        }
        self.dialect_armies = None;
        let variant = self.select_variant(setup)?;
        self.process.send("new")?;
        if variant != "normal" {
            self.process.send(&format!("variant {variant}"))?;
        }
        self.process.send("force")?;
        if !setup.standard_start {
            if !self.features.setboard {
                return Err(EngineError::Unsupported(
                    "a set-up position needs feature setboard=1".into(),
                ));
            }
            self.process
                .send(&format!("setboard {}", setup.start_position))?;
        }
        if matches!(setup.control, TimeControl::Nodes(_)) && self.features.no_nps {
            return Err(EngineError::Unsupported(
                "fixed-node games need the nps command (the engine said feature nps=0)".into(),
            ));
        }
        for line in level_command(setup.control).lines() {
            self.process.send(line)?;
        }
        self.process.send("post")?;
        self.process.send("easy")?;
        self.control = Some(setup.control);
        self.sent = 0;
        self.sync()
    }

    fn think(&mut self, r: &ThinkRequest) -> Result<EngineReply, EngineError> {
        self.process.send("force")?;
        for i in self.sent..r.moves.len() {
            let mv = self.to_engine(&r.moves[i], r.movers[i]);
            self.send_move(&mv)?;
        }
        self.sent = r.moves.len();
        let cs = |d: Duration| d.as_millis() / 10;
        let opponent = 1 - r.seat;
        self.process
            .send(&format!("time {}", cs(r.clocks[r.seat])))?;
        self.process
            .send(&format!("otim {}", cs(r.clocks[opponent])))?;
        self.process.send("go")?;
        let mut info = SearchInfo::default();
        let mut rejected: Option<String> = None;
        let reply = self.process.recv_until(r.deadline, "a move", |line| {
            if let Some(mv) = line.strip_prefix("move ") {
                return Some(EngineReply::Move {
                    mv: mv.trim().to_string(),
                    info,
                });
            }
            if line == "resign" {
                return Some(EngineReply::Resign);
            }
            for result in ["1-0", "0-1", "1/2-1/2"] {
                if let Some(rest) = line.strip_prefix(result) {
                    let reason = rest.trim().trim_start_matches('{').trim_end_matches('}');
                    return Some(EngineReply::Claim {
                        result: result.to_string(),
                        reason: reason.trim().to_string(),
                    });
                }
            }
            if line.starts_with("Illegal move") {
                rejected = Some(line.to_string());
                return Some(EngineReply::Resign);
            }
            if line.starts_with(|c: char| c.is_ascii_digit()) {
                parse_thinking(line, &mut info);
            }
            None
        })?;
        if let Some(text) = rejected {
            return Err(EngineError::Protocol(format!(
                "the engine rejected a legal move ({text})"
            )));
        }
        if let EngineReply::Move { mv, info } = reply {
            self.sent += 1;
            return Ok(EngineReply::Move {
                mv: self.move_from_engine(&mv, r.seat),
                info,
            });
        }
        Ok(reply)
    }

    fn game_over(&mut self, result: &str, reason: &str) {
        let _ = self.process.send(&format!("result {result} {{{reason}}}"));
    }

    fn process(&mut self) -> &mut EngineProcess {
        &mut self.process
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_split_with_quotes() {
        let f = parse_features("feature myname=\"Fairy-Max 5.0b\" setboard=0 ping=1 done=0");
        assert_eq!(
            f,
            vec![
                ("myname".into(), "Fairy-Max 5.0b".into()),
                ("setboard".into(), "0".into()),
                ("ping".into(), "1".into()),
                ("done".into(), "0".into())
            ]
        );
    }

    #[test]
    fn level_commands() {
        let l = |s| level_command(TimeControl::parse(s).unwrap());
        assert_eq!(l("40/60+0.5"), "level 40 1:00 0.5");
        assert_eq!(l("10+0.1"), "level 0 0:10 0.1");
        assert_eq!(l("1+0.05"), "level 0 0:01 0.05");
        assert_eq!(l("st=2"), "st 2");
    }

    #[test]
    fn thinking_lines_give_depth_and_score() {
        let mut info = SearchInfo::default();
        parse_thinking("9 -27 112 30431 e7e5 g1f3", &mut info);
        assert_eq!(info.depth, Some(9));
        assert_eq!(
            info.score,
            Some(crate::engines::client::Score::Centipawns(-27))
        );
        parse_thinking("7 -100004 10 300 e7e5", &mut info);
        assert_eq!(info.score, Some(crate::engines::client::Score::Mate(-4)));
    }
}
