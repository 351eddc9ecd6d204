//! The game as a file to download: PGN for two players, the four-player record of
//! `panoply match` for Armies of Faith, both written by `records::pgn`.

use super::table::Room;
use super::view::RecordView;
use crate::game::Outcome;
use crate::records::pgn::{today, write_game, PgnContext};
use crate::records::record::{GameRecord, GameSpec, RecordedMove, Termination};
use crate::records::time_control::TimeControl;

/// The game so far, as PGN text.
pub fn game_text(room: &Room) -> String {
    let ctx = room.record_context();
    let (tables, names, outcome) = (ctx.tables, ctx.seat_names, ctx.outcome);
    let (start, plies) = room.visit(RecordView);
    let variant = tables.variant();
    let players = variant.players();
    let moves = plies
        .into_iter()
        .map(|p| RecordedMove {
            mv: p.mv,
            seat: p.seat,
            comment: (!p.checkmated.is_empty()).then(|| {
                let victims: Vec<&str> = p.checkmated.iter().map(|&v| names[v].as_str()).collect();
                format!("checkmated: {}", victims.join(", "))
            }),
        })
        .collect();
    let (scores, termination, reason) = match &outcome {
        Some(o @ Outcome::Win { winner, .. }) => (
            (0..players)
                .map(|s| if s == winner.index() { 1.0 } else { 0.0 })
                .collect(),
            Termination::Normal,
            super::view::outcome_text(&names, o),
        ),
        Some(o @ Outcome::Draw { .. }) => (
            vec![1.0 / players as f64; players],
            Termination::Normal,
            super::view::outcome_text(&names, o),
        ),
        None => (
            vec![0.0; players],
            Termination::Unterminated,
            "game in progress".into(),
        ),
    };
    let record = GameRecord {
        spec: GameSpec {
            number: 1,
            variant: variant.name.clone(),
            seats: (0..players).collect(),
            start: Some(start.clone()),
            opening: Vec::new(),
            pair: None,
        },
        engine_names: ctx.players,
        seat_names: names,
        seat_symbols: variant.player_symbols.clone(),
        start_position: start,
        moves,
        scores,
        termination,
        reason,
    };
    let pgn = PgnContext {
        event: "Panoply board".into(),
        site: "panoply serve".into(),
        date: today(),
        // No clock: the board's games have none, and "-" is PGN's "no time control".
        control: TimeControl::Nodes(0),
    };
    write_game(&pgn, &record)
}
