//! The referee's side of UCI: handshake, `UCI_Variant`, `position ... moves`, `go` with the
//! clocks, `bestmove`. Panoply's four-player games use the same commands; as UCI's clock
//! fields name only White and Black, both carry the clock of the seat to move.

use super::client::{
    engine_variant_name, EngineClient, EngineReply, GameSetup, Score, SearchInfo, ThinkRequest,
    HANDSHAKE_TIMEOUT,
};
use super::engine_config::{Dialect, EngineConfig};
use super::process::{EngineError, EngineProcess};
use crate::interop::fairy_stockfish;
use crate::records::board::{new_board, Board};
use crate::records::time_control::TimeControl;
use std::time::{Duration, Instant};

pub struct UciClient {
    cfg: EngineConfig,
    process: EngineProcess,
    /// Option names the engine declared.
    options: Vec<String>,
    /// The choices of its `UCI_Variant` combo (None: no combo, any name may do).
    variants: Option<Vec<String>>,
    standard_start: bool,
    start_position: String,
    control: Option<TimeControl>,
    /// With the Fairy-Stockfish dialect: the game so far, and its moves in that engine's
    /// spelling (the spelling depends on the moved piece, so the client follows the game).
    fairy_stockfish: Option<FollowedGame>,
}

struct FollowedGame {
    board: Box<dyn Board>,
    spelled: Vec<String>,
}

impl FollowedGame {
    fn start(setup: &GameSetup) -> Result<FollowedGame, EngineError> {
        let unsupported = |e: String| EngineError::Unsupported(e);
        let tables =
            crate::games::tables(&setup.variant).map_err(|e| unsupported(e.to_string()))?;
        let board = new_board(&tables, Some(&setup.start_position))
            .map_err(|e| unsupported(e.to_string()))?;
        Ok(FollowedGame {
            board,
            spelled: Vec::new(),
        })
    }

    /// Plays the moves not seen yet and returns the whole game in the engine's spelling.
    fn catch_up(&mut self, moves: &[String]) -> &[String] {
        for mv in &moves[self.spelled.len().min(moves.len())..] {
            let mover = self.board.mover_name(mv).unwrap_or_default();
            self.spelled
                .push(fairy_stockfish::move_to_fairy_stockfish(mv, &mover));
            // The referee played it already, so it is legal here too.
            let _ = self.board.play(mv);
        }
        &self.spelled
    }

    fn read(&self, mv: String) -> String {
        fairy_stockfish::move_from_fairy_stockfish(&mv, &self.board.legal_moves())
    }
}

/// Reads `score cp N` / `score mate N` and `depth N` from an `info` line.
pub fn parse_info(line: &str, info: &mut SearchInfo) {
    let words: Vec<&str> = line.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1);
        let after = words.get(i + 2);
        match *w {
            "depth" => {
                if let Some(d) = next.and_then(|s| s.parse().ok()) {
                    info.depth = Some(d);
                }
            }
            "score" => match (next, after.and_then(|s| s.parse().ok())) {
                (Some(&"cp"), Some(v)) => info.score = Some(Score::Centipawns(v)),
                (Some(&"mate"), Some(v)) => info.score = Some(Score::Mate(v)),
                _ => {}
            },
            _ => {}
        }
    }
}

/// The `var` choices of `option name UCI_Variant type combo ... var a var b`.
fn variant_choices(line: &str) -> Option<Vec<String>> {
    if !declared_option(line)?.eq_ignore_ascii_case("UCI_Variant") || !line.contains(" type combo")
    {
        return None;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let vars = words
        .windows(2)
        .filter(|w| w[0] == "var")
        .map(|w| w[1].to_string());
    Some(vars.collect())
}

/// The option name in `option name <NAME> type ...`.
fn declared_option(line: &str) -> Option<String> {
    let rest = line.strip_prefix("option name ")?;
    let end = rest.find(" type ").unwrap_or(rest.len());
    Some(rest[..end].trim().to_string())
}

impl UciClient {
    pub fn start(cfg: &EngineConfig, label: &str) -> Result<UciClient, EngineError> {
        let mut process = EngineProcess::spawn(cfg, label)?;
        process.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut options = Vec::new();
        let mut variants = None;
        process.recv_until(deadline, "uciok", |line| {
            if let Some(name) = declared_option(line) {
                options.push(name);
            }
            if let Some(choices) = variant_choices(line) {
                variants = Some(choices);
            }
            (line == "uciok").then_some(())
        })?;
        let mut client = UciClient {
            cfg: cfg.clone(),
            process,
            options,
            variants,
            standard_start: true,
            start_position: String::new(),
            control: None,
            fairy_stockfish: None,
        };
        for (name, value) in cfg.options.clone() {
            if !client.has_option(&name) {
                log::warn!("{label}: the engine declares no option '{name}'; sending it anyway");
            }
            client
                .process
                .send(&format!("setoption name {name} value {value}"))?;
        }
        client.sync()?;
        Ok(client)
    }

    fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    fn sync(&mut self) -> Result<(), EngineError> {
        self.process.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        self.process
            .recv_until(deadline, "readyok", |l| (l == "readyok").then_some(()))
    }

    fn go_command(&self, r: &ThinkRequest) -> String {
        let ms = |d: Duration| d.as_millis();
        match self.control {
            Some(TimeControl::PerMove(d)) => return format!("go movetime {}", ms(d)),
            Some(TimeControl::Nodes(n)) => return format!("go nodes {n}"),
            _ => {}
        }
        let (white, black) = if r.clocks.len() == 2 {
            (r.clocks[0], r.clocks[1])
        } else {
            (r.clocks[r.seat], r.clocks[r.seat])
        };
        let inc = ms(r.increment);
        let mut go = format!(
            "go wtime {} btime {} winc {inc} binc {inc}",
            ms(white),
            ms(black)
        );
        if let Some(m) = r.moves_to_go {
            go.push_str(&format!(" movestogo {m}"));
        }
        go
    }

    /// Sends `position` for the game so far.
    pub fn send_position(&mut self, moves: &[String]) -> Result<(), EngineError> {
        let mut cmd = if self.standard_start {
            "position startpos".to_string()
        } else {
            format!("position fen {}", self.start_position)
        };
        if !moves.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&moves.join(" "));
        }
        self.process.send(&cmd)
    }

    /// Runs `go` with `go_args` and returns the best move with the info lines seen.
    pub fn search(
        &mut self,
        go_args: &str,
        deadline: Instant,
        mut on_info: impl FnMut(&str),
    ) -> Result<(String, SearchInfo), EngineError> {
        self.process.send(&format!("go {go_args}"))?;
        self.wait_bestmove(deadline, &mut on_info)
    }

    fn wait_bestmove(
        &mut self,
        deadline: Instant,
        on_info: &mut dyn FnMut(&str),
    ) -> Result<(String, SearchInfo), EngineError> {
        let mut info = SearchInfo::default();
        let mv = self.process.recv_until(deadline, "bestmove", |line| {
            if line.starts_with("info ") {
                parse_info(line, &mut info);
                on_info(line);
                return None;
            }
            let rest = line.strip_prefix("bestmove")?;
            Some(rest.split_whitespace().next().unwrap_or("").to_string())
        })?;
        Ok((mv, info))
    }

    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.process
            .send(&format!("setoption name {name} value {value}"))
    }
}

impl EngineClient for UciClient {
    fn name(&self) -> &str {
        &self.cfg.name
    }

    fn check_variant(&self, setup: &GameSetup) -> Result<(), String> {
        let variant = engine_variant_name(&self.cfg, &setup.variant);
        match &self.variants {
            _ if !self.has_option("UCI_Variant") && variant != "chess" => {
                Err(format!("no UCI_Variant option, cannot play {variant}"))
            }
            Some(list) if !list.contains(&variant) => Err(format!(
                "it does not offer {variant} in its UCI_Variant list"
            )),
            _ => Ok(()),
        }
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), EngineError> {
        // An engine told a variant it does not know may play another game (often chess).
        self.check_variant(setup)
            .map_err(EngineError::Unsupported)?;
        let variant = engine_variant_name(&self.cfg, &setup.variant);
        if self.has_option("UCI_Variant") {
            self.set_option("UCI_Variant", &variant)?;
        }
        self.standard_start = setup.standard_start;
        self.start_position = setup.start_position.clone();
        self.control = Some(setup.control);
        self.fairy_stockfish = match self.cfg.dialect {
            Dialect::FairyStockfish => Some(FollowedGame::start(setup)?),
            _ => None,
        };
        self.process.send("ucinewgame")?;
        self.sync()
    }

    fn think(&mut self, r: &ThinkRequest) -> Result<EngineReply, EngineError> {
        match self.fairy_stockfish.as_mut() {
            Some(game) => {
                let spelled = game.catch_up(r.moves).to_vec();
                self.send_position(&spelled)?
            }
            None => self.send_position(r.moves)?,
        }
        let go = self.go_command(r);
        self.process.send(&go)?;
        let (mv, info) = self.wait_bestmove(r.deadline, &mut |_| {})?;
        let mv = match &self.fairy_stockfish {
            Some(game) => game.read(mv),
            None => mv,
        };
        Ok(EngineReply::Move { mv, info })
    }

    fn game_over(&mut self, _result: &str, _reason: &str) {
        // UCI has no result command; the next `ucinewgame` starts afresh.
    }

    fn process(&mut self) -> &mut EngineProcess {
        &mut self.process
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_score_and_depth() {
        let mut info = SearchInfo::default();
        parse_info(
            "info depth 12 seldepth 20 score cp -35 nodes 1000 pv e2e4",
            &mut info,
        );
        assert_eq!(info.depth, Some(12));
        assert_eq!(info.score, Some(Score::Centipawns(-35)));
        parse_info("info depth 13 score mate 3 pv e2e4", &mut info);
        assert_eq!(info.score, Some(Score::Mate(3)));
        parse_info("info string hello", &mut info);
        assert_eq!(info.depth, Some(13));
    }

    #[test]
    fn variant_choices_are_read_from_the_combo() {
        let line = "option name UCI_Variant type combo default chess var chess var cwda-a-b";
        assert_eq!(
            variant_choices(line),
            Some(vec!["chess".to_string(), "cwda-a-b".to_string()])
        );
        assert_eq!(
            variant_choices("option name UCI_Variant type string default chess"),
            None
        );
        assert_eq!(
            variant_choices("option name Hash type spin default 16"),
            None
        );
    }

    #[test]
    fn option_names_may_have_spaces() {
        assert_eq!(
            declared_option("option name White Army type combo default fide var fide"),
            Some("White Army".into())
        );
        assert_eq!(declared_option("id name X"), None);
    }
}
