//! `panoply book`: builds an opening book from an engine's own analysis (Panoply's, through
//! UCI). From the start position, every position of the tree up to `plies` is searched with
//! `MultiPV`; the moves scoring within `margin` centipawns of the best become book moves
//! (weight falling with the score gap) and their positions are expanded in turn.

use super::board::{new_board, Board};
use super::book::Book;
use super::client::{EngineClient, GameSetup, Score};
use super::engine_config::{EngineConfig, Protocol};
use super::process::EngineError;
use super::time_control::TimeControl;
use super::uci::{parse_info, UciClient};
use crate::game::AnyTables;
use std::time::{Duration, Instant};

pub struct BookMakerSettings {
    pub engine: EngineConfig,
    pub variants: Vec<String>,
    /// Depth of the book tree in plies.
    pub plies: usize,
    /// Moves searched per position (the engine's `MultiPV`).
    pub multipv: usize,
    /// Search time per position.
    pub movetime: Duration,
    /// Keep moves within this many centipawns of the best one.
    pub margin: i32,
}

/// One analysed line: the first move and its score in centipawns (mates as ±100000).
#[derive(Clone, Debug, PartialEq)]
struct Candidate {
    mv: String,
    score: i32,
}

/// Reads `multipv N` and the first `pv` move of an info line.
fn multipv_line(line: &str) -> Option<(usize, String)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let pv = words.iter().position(|&w| w == "pv")?;
    let first = words.get(pv + 1)?.to_string();
    let index = words
        .iter()
        .position(|&w| w == "multipv")
        .and_then(|i| words.get(i + 1)?.parse().ok())
        .unwrap_or(1);
    Some((index, first))
}

fn score_value(s: Score) -> i32 {
    match s {
        Score::Centipawns(cp) => cp,
        Score::Mate(m) if m > 0 => 100_000 - m,
        Score::Mate(m) => -100_000 - m,
    }
}

/// Book weight for a move `gap` centipawns worse than the best: 100 for the best, at least 1.
fn weight(gap: i32, margin: i32) -> u32 {
    if margin <= 0 {
        return 100;
    }
    (100 - 99 * gap.clamp(0, margin) / margin) as u32
}

fn analyse(
    engine: &mut UciClient,
    moves: &[String],
    settings: &BookMakerSettings,
) -> Result<Vec<Candidate>, EngineError> {
    engine.send_position(moves)?;
    let mut lines: Vec<Option<Candidate>> = vec![None; settings.multipv.max(1)];
    let deadline = Instant::now() + settings.movetime * 4 + Duration::from_secs(5);
    let go = format!("movetime {}", settings.movetime.as_millis());
    let (best, _) = engine.search(&go, deadline, |line| {
        let mut info = Default::default();
        parse_info(line, &mut info);
        if let (Some((k, mv)), Some(score)) = (multipv_line(line), info.score) {
            if (1..=lines.len()).contains(&k) {
                lines[k - 1] = Some(Candidate {
                    mv,
                    score: score_value(score),
                });
            }
        }
    })?;
    let mut found: Vec<Candidate> = lines.into_iter().flatten().collect();
    if found.is_empty() {
        found.push(Candidate { mv: best, score: 0 });
    }
    Ok(found)
}

/// Builds the book; `report` receives one line per analysed position.
pub fn make_book(settings: &BookMakerSettings, report: &dyn Fn(&str)) -> Result<Book, String> {
    if settings.engine.protocol != Protocol::Uci {
        return Err("book making needs a UCI engine (for MultiPV analysis)".into());
    }
    let mut book = Book::default();
    for variant in &settings.variants {
        let tables = AnyTables::by_name(variant).map_err(|e| e.to_string())?;
        let mut engine =
            UciClient::start(&settings.engine, &settings.engine.name).map_err(|e| e.to_string())?;
        let v = tables.variant();
        let setup = GameSetup {
            variant: v.name.clone(),
            armies: v.armies.clone(),
            players: v.players(),
            start_position: v.start_position.clone(),
            standard_start: true,
            control: TimeControl::PerMove(settings.movetime),
        };
        engine.new_game(&setup).map_err(|e| e.to_string())?;
        if settings.multipv > 1 {
            engine
                .set_option("MultiPV", &settings.multipv.to_string())
                .map_err(|e| e.to_string())?;
        }
        let result = expand(&mut engine, &tables, settings, &mut book, report);
        engine.shut_down();
        result?;
    }
    Ok(book)
}

fn expand(
    engine: &mut UciClient,
    tables: &AnyTables,
    settings: &BookMakerSettings,
    book: &mut Book,
    report: &dyn Fn(&str),
) -> Result<(), String> {
    let variant = tables.variant().name.clone();
    let mut frontier: Vec<Vec<String>> = vec![Vec::new()];
    for _ply in 0..settings.plies {
        let mut next = Vec::new();
        for line in frontier {
            let mut board: Box<dyn Board> = new_board(tables, None).map_err(|e| e.to_string())?;
            for mv in &line {
                board.play(mv).map_err(|e| e.to_string())?;
            }
            if board.outcome().is_some() {
                continue;
            }
            let position = board.position_string();
            if !book.moves(&variant, &position).is_empty() {
                continue; // reached by transposition: already analysed
            }
            let found = analyse(engine, &line, settings).map_err(|e| e.to_string())?;
            let best = found.iter().map(|c| c.score).max().unwrap_or(0);
            let mut kept = Vec::new();
            for c in found.iter().filter(|c| best - c.score <= settings.margin) {
                // Verify the engine's move on our own board before it goes into the book.
                let mut check = new_board(tables, Some(&position)).map_err(|e| e.to_string())?;
                let Ok(mv) = check.play(&c.mv) else {
                    log::warn!("{variant}: engine suggested illegal move {}", c.mv);
                    continue;
                };
                book.add(
                    &variant,
                    &position,
                    &mv,
                    weight(best - c.score, settings.margin),
                );
                kept.push(format!("{mv} {:+}", c.score));
                let mut child = line.clone();
                child.push(mv);
                next.push(child);
            }
            report(&format!(
                "{variant} [{}] {}: {}",
                line.join(" "),
                position,
                kept.join(", ")
            ));
        }
        frontier = next;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_multipv_lines() {
        assert_eq!(
            multipv_line("info depth 8 multipv 2 score cp 13 nodes 100 pv d2d4 d7d5"),
            Some((2, "d2d4".into()))
        );
        assert_eq!(
            multipv_line("info depth 8 score cp 13 pv e2e4"),
            Some((1, "e2e4".into()))
        );
        assert_eq!(multipv_line("info string hi"), None);
    }

    #[test]
    fn weights_fall_with_the_gap() {
        assert_eq!(weight(0, 30), 100);
        assert_eq!(weight(30, 30), 1);
        assert_eq!(weight(15, 30), 51);
        assert_eq!(score_value(Score::Mate(2)), 99_998);
    }
}
