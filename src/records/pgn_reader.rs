//! Reads back the PGN files `panoply match` writes ([`super::pgn`] describes both formats:
//! two players, and four with army tags and army-prefixed moves) into game records, with all
//! their tags. It reads Panoply's own output, not PGN at large: moves are taken as written
//! (Panoply's notation, not SAN), and every game ends with the comment that says how it
//! ended, then its result.

use super::record::{GameRecord, GameSpec, RecordedMove, Termination};
use crate::games;
use std::fmt;

/// One game as read: its record and every tag in file order.
#[derive(Clone, Debug)]
pub struct PgnGame {
    pub record: GameRecord,
    pub tags: Vec<(String, String)>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }
}

/// A game that cannot be read: the game's place in the file (1-based), the line where its
/// tags start, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnReadError {
    pub game: usize,
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for PgnReadError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "game {} (line {}): {}",
            self.game, self.line, self.reason
        )
    }
}

impl std::error::Error for PgnReadError {}

fn find_tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// The games of a PGN text, in file order.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, PgnReadError> {
    let mut games = Vec::new();
    for (start, tag_lines, movetext) in split_games(text) {
        let err = |reason: String| PgnReadError {
            game: games.len() + 1,
            line: start,
            reason,
        };
        let tags = tag_lines
            .iter()
            .map(|l| parse_tag(l))
            .collect::<Result<Vec<_>, _>>()
            .map_err(err)?;
        let record = build_record(&tags, &movetext).map_err(err)?;
        games.push(PgnGame { record, tags });
    }
    Ok(games)
}

/// (first line number, tag lines, movetext joined by spaces) per game.
fn split_games(text: &str) -> Vec<(usize, Vec<&str>, String)> {
    let mut games: Vec<(usize, Vec<&str>, String)> = Vec::new();
    let mut in_movetext = false;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            if in_movetext || games.is_empty() {
                games.push((n + 1, Vec::new(), String::new()));
                in_movetext = false;
            }
            games.last_mut().expect("pushed").1.push(line);
        } else if let Some(game) = games.last_mut() {
            in_movetext = true;
            game.2.push_str(line);
            game.2.push(' ');
        }
    }
    games
}

/// `[Name "value"]` with `\"` and `\\` escapes.
fn parse_tag(line: &str) -> Result<(String, String), String> {
    let bad = || format!("bad tag line: {line}");
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(bad)?;
    let (name, quoted) = inner.split_once(' ').ok_or_else(bad)?;
    let quoted = quoted.trim();
    let body = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .ok_or_else(bad)?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' {
            chars.next().ok_or_else(bad)?
        } else {
            c
        });
    }
    Ok((name.to_string(), value))
}

fn build_record(tags: &[(String, String)], movetext: &str) -> Result<GameRecord, String> {
    let get = |name: &str| find_tag(tags, name).ok_or_else(|| format!("no {name} tag"));
    let number = get("Round")?
        .parse::<usize>()
        .map_err(|_| format!("bad Round tag \"{}\"", get("Round").unwrap_or_default()))?;
    let variant = get("Variant")?.to_string();
    let (seat_names, engine_names) = seats(tags)?;
    let players = seat_names.len();
    let result = get("Result")?;
    let scores = parse_result(result, players)?;
    let termination = parse_termination(get("Termination")?)?;
    let seat_symbols = symbols(&variant, players)?;
    let start_position = get("FEN")?.to_string();
    let (moves, reason) = parse_movetext(movetext, result, &seat_symbols, &start_position)?;
    let plies = get("PlyCount")?;
    if plies != moves.len().to_string() {
        return Err(format!(
            "PlyCount {plies} but {} moves (a cut-off game?)",
            moves.len()
        ));
    }
    Ok(GameRecord {
        spec: GameSpec {
            number,
            variant,
            seats: (0..players).collect(),
            start: Some(start_position.clone()),
            opening: Vec::new(),
            pair: None,
        },
        engine_names,
        seat_names,
        seat_symbols,
        start_position,
        moves,
        scores,
        termination,
        reason,
    })
}

/// Seat names and the engine in each: `White`/`Black`, or the seat tags between `Players`
/// and `Result` in turn order. The spec's seats are left to the caller, who knows the
/// engines' order.
fn seats(tags: &[(String, String)]) -> Result<(Vec<String>, Vec<String>), String> {
    let Some(at) = tags.iter().position(|(n, _)| n == "Players") else {
        let get = |name: &str| find_tag(tags, name).ok_or_else(|| format!("no {name} tag"));
        return Ok((
            vec!["White".into(), "Black".into()],
            vec![get("White")?.to_string(), get("Black")?.to_string()],
        ));
    };
    let players: usize = tags[at]
        .1
        .parse()
        .ok()
        .filter(|p| (2..=8).contains(p))
        .ok_or_else(|| format!("bad Players tag \"{}\"", tags[at].1))?;
    let seat_tags = tags.get(at + 1..at + 1 + players).unwrap_or_default();
    if seat_tags.len() != players || seat_tags.iter().any(|(n, _)| n == "Result") {
        return Err(format!("Players {players} but fewer seat tags"));
    }
    Ok(seat_tags.iter().cloned().unzip())
}

/// The position-string letter of each seat, which prefixes the moves of games of more than
/// two players.
fn symbols(variant: &str, players: usize) -> Result<Vec<char>, String> {
    if players == 2 {
        return Ok(vec!['w', 'b']);
    }
    let tables = games::tables(variant).map_err(|e| e.to_string())?;
    let symbols = tables.variant().player_symbols.clone();
    if symbols.len() != players {
        return Err(format!(
            "{variant} has {} seats, not {players}",
            symbols.len()
        ));
    }
    Ok(symbols)
}

/// `1-0`, `1/2-1/2`, `0-1/3-1/3-1/3`, or `*` (no points yet).
pub fn parse_result(result: &str, players: usize) -> Result<Vec<f64>, String> {
    if result == "*" {
        return Ok(vec![0.0; players]);
    }
    let bad = || format!("bad Result \"{result}\" for {players} seats");
    let scores = result
        .split('-')
        .map(|p| match p.split_once('/') {
            Some((a, b)) => {
                let (a, b) = (a.parse::<f64>().ok()?, b.parse::<f64>().ok()?);
                (b > 0.0).then(|| a / b)
            }
            None => p.parse::<f64>().ok(),
        })
        .collect::<Option<Vec<f64>>>()
        .ok_or_else(bad)?;
    if scores.len() != players {
        return Err(bad());
    }
    Ok(scores)
}

fn parse_termination(text: &str) -> Result<Termination, String> {
    [
        Termination::Normal,
        Termination::RulesInfraction,
        Termination::TimeForfeit,
        Termination::Abandoned,
        Termination::Adjudication,
        Termination::Unterminated,
    ]
    .into_iter()
    .find(|t| t.pgn() == text)
    .ok_or_else(|| format!("unknown Termination \"{text}\""))
}

/// The moves with their comments, and the game's last comment (how it ended). Two-player
/// moves alternate from the side the start position gives; others carry their seat's letter.
fn parse_movetext(
    movetext: &str,
    result: &str,
    symbols: &[char],
    start: &str,
) -> Result<(Vec<RecordedMove>, String), String> {
    let tokens = tokenize(movetext)?;
    let Some((Token::Word(last), body)) = tokens.split_last() else {
        return Err("the movetext does not end with the result".into());
    };
    if last != result {
        return Err(format!(
            "the movetext ends with {last}, the Result tag says {result}"
        ));
    }
    let Some((Token::Comment(reason), body)) = body.split_last() else {
        return Err("no comment before the result saying how the game ended".into());
    };
    let first_seat = usize::from(start.split_whitespace().nth(1) == Some("b"));
    let mut moves: Vec<RecordedMove> = Vec::new();
    for token in body {
        match token {
            Token::Comment(c) => match moves.last_mut() {
                Some(m) if m.comment.is_none() => m.comment = Some(c.clone()),
                _ => return Err(format!("a comment without its move: {{{c}}}")),
            },
            Token::Word(w) if is_move_number(w) => {}
            Token::Word(w) => moves.push(read_move(w, moves.len(), first_seat, symbols)?),
        }
    }
    Ok((moves, reason.clone()))
}

fn read_move(
    word: &str,
    ply: usize,
    first_seat: usize,
    symbols: &[char],
) -> Result<RecordedMove, String> {
    if symbols.len() == 2 {
        return Ok(RecordedMove {
            mv: word.to_string(),
            seat: (first_seat + ply) % 2,
            comment: None,
        });
    }
    let (letter, mv) = word
        .split_once(':')
        .ok_or_else(|| format!("move {word} has no army letter"))?;
    let mut letters = letter.chars();
    let seat = match (letters.next(), letters.next()) {
        (Some(l), None) => symbols.iter().position(|&s| s == l),
        _ => None,
    }
    .ok_or_else(|| format!("move {word}: unknown army letter"))?;
    Ok(RecordedMove {
        mv: mv.to_string(),
        seat,
        comment: None,
    })
}

/// `12.` or `12...`.
fn is_move_number(word: &str) -> bool {
    let digits = word.trim_end_matches('.');
    digits.len() < word.len() && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

enum Token {
    Word(String),
    Comment(String),
}

fn tokenize(movetext: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut rest = movetext.trim_start();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('{') {
            let end = after
                .find('}')
                .ok_or_else(|| "a comment is not closed".to_string())?;
            tokens.push(Token::Comment(after[..end].to_string()));
            rest = &after[end + 1..];
        } else {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            tokens.push(Token::Word(rest[..end].to_string()));
            rest = &rest[end..];
        }
        rest = rest.trim_start();
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::pgn::{write_game_tagged, PgnContext};
    use crate::records::time_control::TimeControl;

    fn record(
        players: usize,
        moves: &[(&str, usize, Option<&str>)],
        scores: Vec<f64>,
    ) -> GameRecord {
        let four = ["Catholic", "Protestant", "Islamic", "Byzantine"];
        GameRecord {
            spec: GameSpec {
                number: 12,
                variant: if players == 2 { "chess" } else { "aof5" }.into(),
                seats: (0..players).collect(),
                start: None,
                opening: Vec::new(),
                pair: Some(5),
            },
            engine_names: (0..players).map(|i| format!("Engine \"{i}\"")).collect(),
            seat_names: if players == 2 {
                vec!["White".into(), "Black".into()]
            } else {
                four.map(String::from).to_vec()
            },
            seat_symbols: if players == 2 {
                vec!['w', 'b']
            } else {
                vec!['c', 'p', 'i', 'b']
            },
            start_position: if players == 2 {
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into()
            } else {
                "start".into()
            },
            moves: moves
                .iter()
                .map(|&(mv, seat, c)| RecordedMove {
                    mv: mv.into(),
                    seat,
                    comment: c.map(String::from),
                })
                .collect(),
            scores,
            termination: Termination::Adjudication,
            reason: "draw by adjudication: a long {reason}".into(),
        }
    }

    fn write(r: &GameRecord) -> String {
        let ctx = PgnContext {
            event: "E".into(),
            site: "S".into(),
            date: "2026.12.01".into(),
            control: TimeControl::Nodes(50),
        };
        write_game_tagged(&ctx, r, &[("PanoplyShard".into(), "1/4".into())])
    }

    #[track_caller]
    fn assert_same(a: &GameRecord, b: &GameRecord) {
        assert_eq!(a.spec.number, b.spec.number);
        assert_eq!(a.spec.variant, b.spec.variant);
        assert_eq!(a.engine_names, b.engine_names);
        assert_eq!(a.seat_names, b.seat_names);
        assert_eq!(a.seat_symbols, b.seat_symbols);
        assert_eq!(a.start_position, b.start_position);
        let moves = |r: &GameRecord| {
            r.moves
                .iter()
                .map(|m| (m.mv.clone(), m.seat, m.comment.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(a), moves(b));
        assert_eq!(a.scores, b.scores);
        assert_eq!(a.termination, b.termination);
    }

    #[test]
    fn two_player_games_read_back_as_written() {
        let moves = [
            ("e7e5", 1, Some("book")),
            ("g1f3", 0, Some("+0.35/6 0.20s")),
            ("b8c6", 1, None),
            ("f1b5", 0, Some("-0.10/7 0.31s")),
        ];
        let r = record(2, &moves, vec![0.5, 0.5]);
        let text = write(&r) + &write(&record(2, &[], vec![1.0, 0.0]));
        let games = read_games(&text).unwrap();
        assert_eq!(games.len(), 2);
        assert_same(&games[0].record, &r);
        // The reason's `}` was written as `)`.
        assert_eq!(
            games[0].record.reason,
            "draw by adjudication: a long {reason)"
        );
        assert_eq!(games[0].tag("PanoplyShard"), Some("1/4"));
        assert_eq!(games[0].tag("White"), Some("Engine \"0\""));
        assert_eq!(games[1].record.scores, vec![1.0, 0.0]);
        assert!(games[1].record.moves.is_empty());
    }

    #[test]
    fn four_player_games_read_back_as_written() {
        let third = 1.0 / 3.0;
        let moves = [
            ("a1a2", 0, Some("+0.10/3 0.01s")),
            ("b1b2", 1, Some("x; checkmated: Islamic")),
            ("pass", 3, Some("forced pass")),
            ("a2a3", 0, None),
        ];
        let r = record(4, &moves, vec![0.0, third, third, third]);
        let games = read_games(&write(&r)).unwrap();
        assert_same(&games[0].record, &r);
    }

    #[test]
    fn damaged_games_are_clear_errors() {
        let r = record(2, &[("e7e5", 1, Some("book"))], vec![0.0, 1.0]);
        let good = write(&r);
        let err = |text: &str| read_games(text).unwrap_err().to_string();
        assert_eq!(
            err(&good.replace("[PlyCount \"1\"]", "[PlyCount \"2\"]")),
            "game 1 (line 1): PlyCount 2 but 1 moves (a cut-off game?)"
        );
        let cut = &good[..good.find("e7e5").unwrap() + 4];
        assert_eq!(
            err(&(good.clone() + cut)),
            "game 2 (line 18): the movetext ends with e7e5, the Result tag says 0-1"
        );
        assert_eq!(
            err(&good.replace("[Round \"12\"]", "[Round \"x\"]")),
            "game 1 (line 1): bad Round tag \"x\""
        );
        assert_eq!(
            err(&good.replace("[Result \"0-1\"]", "[Result \"0-1-0\"]")),
            "game 1 (line 1): bad Result \"0-1-0\" for 2 seats"
        );
        assert!(read_games("").unwrap().is_empty());
    }
}
