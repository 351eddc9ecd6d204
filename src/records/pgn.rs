//! PGN output. Two-player games are standard PGN with `Variant`, `SetUp` and `FEN` tags; moves
//! are written in the game's coordinate notation (docs/rules.md move strings, e.g. `e7e8c`), which
//! is unambiguous for every army, where SAN is not. Each engine move carries a comment
//! `{score/depth time}`; book moves `{book}`; the last comment says how the game ended.
//!
//! Four-player record format (Armies of Faith), the same shape with these differences:
//! - Instead of `White`/`Black`: `[Players "4"]` and one tag per seat in turn order, named by
//!   its army (`[Catholic "Panoply"]`, `[Protestant "..."]`, `[Islamic "..."]`,
//!   `[Byzantine "..."]`).
//! - `Result` lists the points of each seat in turn order, separated by `-`: `1-0-0-0` (the
//!   Catholics won), `1/4-1/4-1/4-1/4` (draw), `0-1/3-1/3-1/3` (the Catholics forfeited).
//! - Every move is prefixed by its army's letter and a colon (`c:js3jt3`); a move number starts
//!   each round of turns (a turn that comes back to an earlier or the same army in the order
//!   c p i b). Passes are written `pass`. Checkmates, being automatic, are not moves: the
//!   comment of the move after which they happened names the eliminated armies
//!   (`{+0.35/6 0.20s; checkmated: Protestant}`).

use super::record::GameRecord;
use super::time_control::TimeControl;
use std::time::{SystemTime, UNIX_EPOCH};

/// Settings that are the same for every game of a match.
pub struct PgnContext {
    pub event: String,
    pub site: String,
    pub date: String,
    pub control: TimeControl,
}

/// Today's date as PGN writes it (`2026.11.21`), in UTC.
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A score as a small fraction: `1`, `0`, `1/2`, `1/3`.
fn fraction(x: f64) -> String {
    for den in 1..=12u32 {
        let num = x * den as f64;
        if (num - num.round()).abs() < 1e-6 {
            let num = num.round() as u32;
            return if den == 1 {
                num.to_string()
            } else {
                format!("{num}/{den}")
            };
        }
    }
    format!("{x:.3}")
}

/// The `Result` tag: `1-0`, `0-1`, `1/2-1/2`, or one score per seat for more players; `*`
/// when no seat has a point yet (the game is still in progress).
pub fn result_text(scores: &[f64]) -> String {
    if scores.iter().all(|&s| s == 0.0) {
        return "*".into();
    }
    scores
        .iter()
        .map(|&s| fraction(s))
        .collect::<Vec<_>>()
        .join("-")
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Comments may not contain `}`.
fn comment(s: &str) -> String {
    format!("{{{}}}", s.replace('}', ")"))
}

fn tag(out: &mut String, name: &str, value: &str) {
    out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
}

/// Movetext tokens for a two-player game.
fn two_player_tokens(record: &GameRecord) -> Vec<String> {
    let fullmove = record
        .start_position
        .split_whitespace()
        .last()
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(1);
    let mut tokens = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        let number = fullmove + (i + usize::from(record.moves[0].seat == 1)) / 2;
        if m.seat == 0 {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.mv.clone());
        if let Some(c) = &m.comment {
            tokens.push(comment(c));
        }
    }
    tokens
}

/// Movetext tokens for games of more than two players (see the module documentation).
fn multi_player_tokens(record: &GameRecord) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut round = 0;
    let mut last_seat = usize::MAX;
    for m in &record.moves {
        if last_seat == usize::MAX || m.seat <= last_seat {
            round += 1;
            tokens.push(format!("{round}."));
        }
        last_seat = m.seat;
        tokens.push(format!("{}:{}", record.seat_symbols[m.seat], m.mv));
        if let Some(c) = &m.comment {
            tokens.push(comment(c));
        }
    }
    tokens
}

/// Joins tokens into lines of at most 79 characters.
fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// One game as PGN text (ends with a blank line).
pub fn write_game(ctx: &PgnContext, record: &GameRecord) -> String {
    write_game_tagged(ctx, record, &[])
}

/// One game as PGN text with more tags after the standard ones (a match's merge tags).
pub fn write_game_tagged(
    ctx: &PgnContext,
    record: &GameRecord,
    extra_tags: &[(String, String)],
) -> String {
    let mut out = String::new();
    let result = result_text(&record.scores);
    tag(&mut out, "Event", &ctx.event);
    tag(&mut out, "Site", &ctx.site);
    tag(&mut out, "Date", &ctx.date);
    tag(&mut out, "Round", &record.spec.number.to_string());
    let players = record.scores.len();
    if players == 2 {
        tag(&mut out, "White", &record.engine_names[0]);
        tag(&mut out, "Black", &record.engine_names[1]);
    } else {
        tag(&mut out, "Players", &players.to_string());
        for (seat, name) in record.seat_names.iter().enumerate() {
            tag(&mut out, name, &record.engine_names[seat]);
        }
    }
    tag(&mut out, "Result", &result);
    tag(&mut out, "Variant", &record.spec.variant);
    tag(&mut out, "SetUp", "1");
    tag(&mut out, "FEN", &record.start_position);
    tag(&mut out, "TimeControl", &ctx.control.pgn_tag());
    tag(&mut out, "Termination", record.termination.pgn());
    tag(&mut out, "PlyCount", &record.moves.len().to_string());
    for (name, value) in extra_tags {
        tag(&mut out, name, value);
    }
    out.push('\n');
    let mut tokens = if players == 2 {
        two_player_tokens(record)
    } else {
        multi_player_tokens(record)
    };
    tokens.push(comment(&record.reason));
    tokens.push(result);
    out.push_str(&wrap(&tokens));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::record::{GameSpec, RecordedMove, Termination};

    fn record(players: usize, moves: &[(&str, usize)], scores: Vec<f64>) -> GameRecord {
        GameRecord {
            spec: GameSpec {
                number: 3,
                variant: if players == 2 {
                    "cwda-fide-nutty".into()
                } else {
                    "aof5".into()
                },
                seats: (0..players).collect(),
                start: None,
                opening: Vec::new(),
                pair: None,
            },
            engine_names: (0..players).map(|i| format!("E{i}")).collect(),
            seat_names: if players == 2 {
                vec!["White".into(), "Black".into()]
            } else {
                vec![
                    "Catholic".into(),
                    "Protestant".into(),
                    "Islamic".into(),
                    "Byzantine".into(),
                ]
            },
            seat_symbols: if players == 2 {
                vec!['w', 'b']
            } else {
                vec!['c', 'p', 'i', 'b']
            },
            start_position: "start w - - 0 1".into(),
            moves: moves
                .iter()
                .map(|&(mv, seat)| RecordedMove {
                    mv: mv.into(),
                    seat,
                    comment: None,
                })
                .collect(),
            scores,
            termination: Termination::Normal,
            reason: "White wins by checkmate".into(),
        }
    }

    fn ctx() -> PgnContext {
        PgnContext {
            event: "T".into(),
            site: "S".into(),
            date: "2026.11.21".into(),
            control: TimeControl::parse("10+0.1").unwrap(),
        }
    }

    #[test]
    fn two_player_game() {
        let r = record(
            2,
            &[("f2f3", 0), ("e7e5", 1), ("g2g4", 0), ("d8h4", 1)],
            vec![0.0, 1.0],
        );
        let pgn = write_game(&ctx(), &r);
        assert!(pgn.contains("[White \"E0\"]\n[Black \"E1\"]\n[Result \"0-1\"]\n"));
        assert!(pgn.contains("[Variant \"cwda-fide-nutty\"]"));
        assert!(pgn.contains("[TimeControl \"10+0.1\"]"));
        assert!(pgn.contains("[Termination \"normal\"]\n[PlyCount \"4\"]"));
        assert!(pgn.contains("1. f2f3 e7e5 2. g2g4 d8h4 {White wins by checkmate} 0-1\n"));
    }

    #[test]
    fn four_player_record() {
        let moves = [
            ("a", 0),
            ("b", 1),
            ("c", 2),
            ("d", 3),
            ("e", 0),
            ("pass", 2),
        ];
        let r = record(4, &moves, vec![0.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]);
        let pgn = write_game(&ctx(), &r);
        assert!(pgn.contains("[Players \"4\"]\n[Catholic \"E0\"]\n"));
        assert!(pgn.contains("[Result \"0-1/3-1/3-1/3\"]"));
        assert!(pgn.contains("1. c:a p:b i:c b:d 2. c:e i:pass {"));
    }

    #[test]
    fn results_and_dates() {
        assert_eq!(result_text(&[1.0, 0.0]), "1-0");
        assert_eq!(result_text(&[0.5, 0.5]), "1/2-1/2");
        assert_eq!(result_text(&[0.25; 4]), "1/4-1/4-1/4-1/4");
        assert_eq!(result_text(&[0.0; 4]), "*");
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_413), (2025, 11, 21));
    }
}
