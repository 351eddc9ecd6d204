//! One game between engines, refereed by Panoply's own rules: the referee keeps the only
//! authoritative board, asks the engine of the seat to move, checks every answer and ends the
//! game by the rules (checkmate, stalemate, repetition, move rules, automatic events of
//! four-player games) or by adjudication (illegal move, time forfeit, crash, hang, resignation,
//! false claim). A failing engine never stops the match: it is killed and the game recorded.

use super::adjudication::{Adjudication, Verdict};
use crate::engines::client::{
    EngineClient, EngineReply, GameSetup, Score, SearchInfo, ThinkRequest,
};
use crate::engines::connect::connect;
use crate::engines::engine_config::EngineConfig;
use crate::engines::process::EngineError;
use crate::game::{AnyTables, Outcome};
use crate::records::board::{new_board, Board};
use crate::records::record::{GameRecord, GameSpec, RecordedMove, Termination};
use crate::records::time_control::{Clock, TimeControl};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct RefereeSettings {
    pub control: TimeControl,
    /// Grace added to every deadline (process start-up, pipes, scheduling).
    pub margin: Duration,
    /// Adjudicate a draw after this many plies (None: play on).
    pub max_plies: Option<usize>,
    /// Resignation and draw by both engines' scores (two-player games).
    pub adjudication: Adjudication,
}

/// Errors that stop the whole match (not one engine's failure).
#[derive(Debug)]
pub enum RefereeError {
    Variant(String),
    /// An engine cannot play the scheduled game at all.
    Unsupported {
        engine: String,
        reason: String,
    },
}

impl std::fmt::Display for RefereeError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            RefereeError::Variant(m) => write!(f, "{m}"),
            RefereeError::Unsupported { engine, reason } => write!(f, "{engine}: {reason}"),
        }
    }
}

/// The name of a seat: White/Black, or the army of a four-player game.
pub fn seat_names(tables: &AnyTables) -> Vec<String> {
    let v = tables.variant();
    if v.players() == 2 {
        return vec!["White".into(), "Black".into()];
    }
    v.armies
        .iter()
        .map(|a| {
            let mut c = a.chars();
            c.next().map_or(String::new(), |f| {
                f.to_uppercase().collect::<String>() + c.as_str()
            })
        })
        .collect()
}

struct GameInProgress {
    board: Box<dyn Board>,
    record: GameRecord,
    clients: Vec<Option<Box<dyn EngineClient>>>,
    clocks: Vec<Clock>,
    /// The score each engine reported with its move, per ply (`None` for book moves and
    /// moves without a score), for score adjudication.
    reported: Vec<Option<Score>>,
}

/// How a seat lost the game by adjudication.
struct Forfeit {
    seat: usize,
    termination: Termination,
    why: String,
}

fn forfeit_from_error(seat: usize, e: EngineError) -> Forfeit {
    let termination = match e {
        EngineError::Timeout(_) => Termination::TimeForfeit,
        EngineError::Protocol(_) => Termination::RulesInfraction,
        EngineError::Crashed(_) | EngineError::Spawn(_) | EngineError::Unsupported(_) => {
            Termination::Abandoned
        }
    };
    Forfeit {
        seat,
        termination,
        why: e.to_string(),
    }
}

fn format_comment(info: &SearchInfo, used: Duration) -> String {
    use crate::engines::client::Score;
    let mut s = String::new();
    match info.score {
        Some(Score::Centipawns(cp)) => s.push_str(&format!("{:+.2}", cp as f64 / 100.0)),
        Some(Score::Mate(m)) if m >= 0 => s.push_str(&format!("+M{m}")),
        Some(Score::Mate(m)) => s.push_str(&format!("-M{}", -m)),
        None => {}
    }
    if let Some(d) = info.depth {
        s.push_str(&format!("/{d}"));
    }
    if !s.is_empty() {
        s.push(' ');
    }
    s.push_str(&format!("{:.2}s", used.as_secs_f64()));
    s
}

/// Plays one game. `on_ply` is called after every move with the number of plies played.
pub fn play_game(
    spec: GameSpec,
    engines: &[EngineConfig],
    tables: &AnyTables,
    settings: &RefereeSettings,
    on_ply: &dyn Fn(usize),
) -> Result<GameRecord, RefereeError> {
    let board = new_board(tables, spec.start.as_deref())
        .map_err(|e| RefereeError::Variant(e.to_string()))?;
    let players = board.players();
    let record = GameRecord {
        engine_names: spec
            .seats
            .iter()
            .map(|&e| engines[e].name.clone())
            .collect(),
        seat_names: seat_names(tables),
        seat_symbols: tables.variant().player_symbols.clone(),
        start_position: board.position_string(),
        moves: Vec::new(),
        scores: vec![0.0; players],
        termination: Termination::Normal,
        reason: String::new(),
        spec,
    };
    let mut game = GameInProgress {
        board,
        record,
        clients: (0..players).map(|_| None).collect(),
        clocks: vec![Clock::new(settings.control); players],
        reported: Vec::new(),
    };
    if let Err(why) = game.play_opening() {
        return Err(RefereeError::Variant(why));
    }
    let result = game
        .start_engines(engines, tables, settings)
        .map(|forfeit| match forfeit {
            Some(forfeit) => game.adjudicate(forfeit),
            None => game.play_out(settings, on_ply),
        });
    game.close_engines();
    result.map(|()| game.record)
}

impl GameInProgress {
    fn play_opening(&mut self) -> Result<(), String> {
        for mv in self.record.spec.opening.clone() {
            let seat = self.board.side_to_move();
            let mv = self
                .board
                .play(&mv)
                .map_err(|e| format!("book move rejected: {e}"))?;
            self.record.moves.push(RecordedMove {
                mv,
                seat,
                comment: Some("book".into()),
            });
        }
        Ok(())
    }

    /// Starts one process per seat; a seat whose engine cannot start forfeits.
    fn start_engines(
        &mut self,
        engines: &[EngineConfig],
        tables: &AnyTables,
        settings: &RefereeSettings,
    ) -> Result<Option<Forfeit>, RefereeError> {
        let v = tables.variant();
        let setup = GameSetup {
            variant: v.name.clone(),
            armies: v.armies.clone(),
            players: v.players(),
            start_position: self.record.start_position.clone(),
            standard_start: self.record.start_position == v.session_start(),
            control: settings.control,
        };
        for seat in 0..self.clients.len() {
            let cfg = &engines[self.record.spec.seats[seat]];
            let label = format!(
                "game {} {} {}",
                self.record.spec.number, self.record.seat_names[seat], cfg.name
            );
            let mut client = match connect(cfg, &label) {
                Ok(c) => c,
                Err(e) => return Ok(Some(forfeit_from_error(seat, e))),
            };
            match client.new_game(&setup) {
                Ok(()) => self.clients[seat] = Some(client),
                Err(EngineError::Unsupported(reason)) => {
                    client.kill();
                    return Err(RefereeError::Unsupported {
                        engine: cfg.name.clone(),
                        reason,
                    });
                }
                Err(e) => {
                    client.kill();
                    return Ok(Some(forfeit_from_error(seat, e)));
                }
            }
        }
        Ok(None)
    }

    fn play_out(&mut self, settings: &RefereeSettings, on_ply: &dyn Fn(usize)) {
        loop {
            if let Some(outcome) = self.board.outcome() {
                return self.finish_by_rules(outcome);
            }
            // Not a rule of any game here: the referee's judgement that no checkmate can follow.
            if self.board.only_royals_left() {
                return self.draw(
                    Termination::Adjudication,
                    "only royal pieces are left, no checkmate can follow".into(),
                );
            }
            if settings
                .max_plies
                .is_some_and(|m| self.record.moves.len() >= m)
            {
                return self.draw(
                    Termination::Adjudication,
                    format!("move limit of {} plies reached", self.record.moves.len()),
                );
            }
            let seat = self.board.side_to_move();
            let legal = self.board.legal_moves();
            if legal.len() == 1 && legal[0] == "pass" {
                // A player without a move passes; no engine is asked.
                self.push_move(seat, "pass", Some("forced pass".into()));
                on_ply(self.record.moves.len());
                continue;
            }
            if let Err(forfeit) = self.engine_move(seat, settings) {
                return self.adjudicate(forfeit);
            }
            on_ply(self.record.moves.len());
            if let Some(verdict) = self.score_verdict(&settings.adjudication) {
                return self.finish_by_scores(verdict);
            }
        }
    }

    fn push_move(&mut self, seat: usize, mv: &str, comment: Option<String>) {
        let before = self.board.alive_mask();
        let mv = self
            .board
            .play(mv)
            .expect("the referee plays only legal moves");
        let comment = self.with_events(comment, before);
        self.record.moves.push(RecordedMove { mv, seat, comment });
        self.reported.push(None);
    }

    /// Adds the armies eliminated by the automatic checkmates after a move to its comment.
    fn with_events(&self, comment: Option<String>, alive_before: u8) -> Option<String> {
        let gone = alive_before & !self.board.alive_mask();
        if gone == 0 {
            return comment;
        }
        let names: Vec<&str> = (0..self.record.seat_names.len())
            .filter(|s| gone >> s & 1 != 0)
            .map(|s| self.record.seat_names[s].as_str())
            .collect();
        let event = format!("checkmated: {}", names.join(", "));
        Some(match comment {
            Some(c) => format!("{c}; {event}"),
            None => event,
        })
    }

    /// Asks the seat's engine for a move and plays it.
    fn engine_move(&mut self, seat: usize, settings: &RefereeSettings) -> Result<(), Forfeit> {
        let moves: Vec<String> = self.record.moves.iter().map(|m| m.mv.clone()).collect();
        let movers: Vec<usize> = self.record.moves.iter().map(|m| m.seat).collect();
        let clocks: Vec<Duration> = self.clocks.iter().map(|c| c.remaining).collect();
        let started = Instant::now();
        let request = ThinkRequest {
            moves: &moves,
            movers: &movers,
            seat,
            clocks: &clocks,
            increment: self.clocks[seat].increment(),
            moves_to_go: self.clocks[seat].moves_to_go(),
            deadline: started + self.clocks[seat].budget() + settings.margin,
        };
        let client = self.clients[seat].as_mut().expect("engine running");
        let reply = client.think(&request);
        let used = started.elapsed();
        let name = self.record.seat_names[seat].clone();
        let forfeit = |termination, why: String| Forfeit {
            seat,
            termination,
            why,
        };
        match reply.map_err(|e| forfeit_from_error(seat, e))? {
            EngineReply::Move { mv, info } => {
                if !self.clocks[seat].charge(used, settings.margin) {
                    return Err(forfeit(
                        Termination::TimeForfeit,
                        format!("lost on time ({:.3} s used)", used.as_secs_f64()),
                    ));
                }
                let before = self.board.alive_mask();
                match self.board.play(&mv) {
                    Ok(canonical) => {
                        let comment = self.with_events(Some(format_comment(&info, used)), before);
                        self.record.moves.push(RecordedMove {
                            mv: canonical,
                            seat,
                            comment,
                        });
                        self.reported.push(info.score);
                        Ok(())
                    }
                    Err(e) => Err(forfeit(
                        Termination::RulesInfraction,
                        format!("illegal move: {e}"),
                    )),
                }
            }
            EngineReply::Resign => Err(forfeit(Termination::Normal, format!("{name} resigns"))),
            EngineReply::Claim { result, reason } => Err(forfeit(
                Termination::RulesInfraction,
                format!("false claim {result} {{{reason}}}"),
            )),
        }
    }

    fn finish_by_rules(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win { winner, reason } => {
                let w = winner.index();
                self.record.scores = (0..self.clients.len())
                    .map(|s| if s == w { 1.0 } else { 0.0 })
                    .collect();
                self.record.reason = format!("{} wins by {reason}", self.record.seat_names[w]);
            }
            Outcome::Draw { reason } => {
                self.record.scores = self.shares(|_| true);
                self.record.reason = format!("draw by {reason}");
            }
        }
        self.record.termination = Termination::Normal;
    }

    /// What both engines' scores say, in a two-player game that has not ended by the rules.
    fn score_verdict(&self, adjudication: &Adjudication) -> Option<Verdict> {
        if self.clients.len() != 2 || self.board.outcome().is_some() {
            return None;
        }
        // Book moves were pushed before any score: they sit at the front, unscored.
        let book = self.record.moves.len() - self.reported.len();
        let first_seat = self.record.moves.get(book)?.seat;
        adjudication.verdict(&self.reported, first_seat)
    }

    fn finish_by_scores(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Win(w) => {
                self.record.scores = (0..2).map(|s| if s == w { 1.0 } else { 0.0 }).collect();
                self.record.termination = Termination::Adjudication;
                self.record.reason = format!(
                    "{} wins by adjudication: both engines' scores",
                    self.record.seat_names[w]
                );
            }
            Verdict::Draw => self.draw(
                Termination::Adjudication,
                "both engines' scores are level".into(),
            ),
        }
    }

    /// The point shared equally among the seats `share` names that are still playing (a
    /// checkmated army of a four-player game has no part in a draw); among all the seats
    /// `share` names if none of them is.
    fn shares(&self, share: impl Fn(usize) -> bool) -> Vec<f64> {
        let n = self.clients.len();
        let alive = self.board.alive_mask();
        let named: Vec<bool> = (0..n).map(&share).collect();
        let playing: Vec<bool> = (0..n).map(|s| named[s] && alive >> s & 1 != 0).collect();
        let takers = if playing.contains(&true) {
            playing
        } else {
            named
        };
        let count = takers.iter().filter(|&&t| t).count().max(1) as f64;
        takers
            .iter()
            .map(|&t| if t { 1.0 / count } else { 0.0 })
            .collect()
    }

    fn draw(&mut self, termination: Termination, why: String) {
        self.record.scores = self.shares(|_| true);
        self.record.termination = termination;
        self.record.reason = format!("draw: {why}");
    }

    /// The forfeiting seat scores 0, the others still playing share the point.
    fn adjudicate(&mut self, f: Forfeit) {
        self.record.scores = self.shares(|s| s != f.seat);
        self.record.termination = f.termination;
        let who = &self.record.seat_names[f.seat];
        self.record.reason = match f.termination {
            Termination::Normal => f.why,
            _ => format!("{who} forfeits: {}", f.why),
        };
        // A hung or confused engine is not asked anything more.
        if f.termination != Termination::Normal {
            if let Some(c) = self.clients[f.seat].as_mut() {
                c.kill();
            }
            self.clients[f.seat] = None;
        }
    }

    fn close_engines(&mut self) {
        let result = crate::records::pgn::result_text(&self.record.scores);
        for client in self.clients.iter_mut().flatten() {
            client.game_over(&result, &self.record.reason);
            client.shut_down();
        }
    }
}
