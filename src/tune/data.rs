//! Training positions for the tuner: which positions of a self-play game are worth learning
//! from, and the file format. One position per line, tab-separated:
//! `variant  position-string  result  score`, where `result` is the game's result for White
//! (1, 0.5 or 0) and `score` the search's score in centipawns for White.

use crate::bitboard::BitSet;
use crate::game::{Game, Outcome};
use crate::movegen::is_in_check;
use crate::moves::MoveKind;
use crate::piece::Player;
use crate::search::ordering::is_capture;
use crate::search::{Score, SearchResult};
use std::fmt;

/// Scores beyond this are decided games: nothing left for the evaluation to learn.
const DECIDED: i32 = 2_000;

/// A position seen in a game, before the game's result is known.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    pub position: String,
    /// The search's score for White.
    pub score: i32,
}

/// A labelled training position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub variant: String,
    pub position: String,
    /// The game's result for White: 1, 0.5 or 0.
    pub result: f64,
    /// The search's score for White, in centipawns.
    pub score: i32,
}

/// The position `game` stands in, if it is quiet enough to learn from: not in check, the
/// search's best move neither captures nor promotes (so the static evaluation is about the
/// position and not an exchange in progress), and the game not already decided.
pub fn quiet_position<B: BitSet>(game: &Game<B>, result: &SearchResult) -> Option<Seen> {
    let pos = &game.pos;
    let t = &game.tables;
    let best = result.best?;
    let Score::Cp(cp) = result.score else {
        return None;
    };
    if cp.abs() >= DECIDED
        || is_in_check(t, pos, pos.side)
        || is_capture(pos, best)
        || matches!(best.kind(), MoveKind::Promotion | MoveKind::EnPassant)
    {
        return None;
    }
    let score = if pos.side == Player::WHITE { cp } else { -cp };
    Some(Seen {
        position: game.position_string(),
        score,
    })
}

/// The result of a finished two-player game for White; `None` for a game without one.
pub fn white_result(outcome: &Option<Outcome>) -> Option<f64> {
    match outcome {
        Some(Outcome::Win { winner, .. }) => Some(if *winner == Player::WHITE { 1.0 } else { 0.0 }),
        Some(Outcome::Draw { .. }) => Some(0.5),
        None => None,
    }
}

impl Sample {
    pub fn to_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}",
            self.variant, self.position, self.result, self.score
        )
    }

    pub fn parse(line: &str) -> Result<Sample, DataError> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [variant, position, result, score] = fields[..] else {
            return Err(DataError::Fields(fields.len()));
        };
        let result: f64 = match result.trim() {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => return Err(DataError::Result(other.to_string())),
        };
        let score = score
            .trim()
            .parse()
            .map_err(|_| DataError::Score(score.to_string()))?;
        Ok(Sample {
            variant: variant.trim().to_string(),
            position: position.trim().to_string(),
            result,
            score,
        })
    }
}

/// A line of a training file that cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub enum DataError {
    Fields(usize),
    Result(String),
    Score(String),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            DataError::Fields(n) => write!(
                f,
                "expected 4 tab-separated fields (variant, position, result, score), found {n}"
            ),
            DataError::Result(r) => write!(f, "result '{r}' is not 1, 0.5 or 0"),
            DataError::Score(s) => write!(f, "score '{s}' is not a whole number"),
        }
    }
}

impl std::error::Error for DataError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back() {
        let s = Sample {
            variant: "cwda-nutty-rookies".into(),
            position: "8/8/4k3/8/8/8/3Q4/4K3 b - - 0 1".into(),
            result: 0.5,
            score: -37,
        };
        assert_eq!(Sample::parse(&s.to_line()).unwrap(), s);
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        assert_eq!(Sample::parse("chess\tx\t1"), Err(DataError::Fields(3)));
        assert!(matches!(
            Sample::parse("chess\tx\t2\t5"),
            Err(DataError::Result(_))
        ));
        assert!(matches!(
            Sample::parse("chess\tx\t1\tfive"),
            Err(DataError::Score(_))
        ));
    }
}
