//! What can be wrong with a position string: each bad field gets its own error, naming the
//! field and what was expected.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    Empty,
    MissingField(&'static str),
    ExtraField(String),
    RankCount {
        found: usize,
        expected: usize,
    },
    RankLength {
        rank: String,
        found: usize,
        expected: usize,
    },
    ZeroRun {
        rank: String,
    },
    UnknownPiece {
        token: String,
        variant: String,
    },
    BadSide {
        found: String,
        expected: String,
    },
    BadCastling(String),
    RepeatedCastling {
        field: String,
        right: char,
    },
    BadEnPassant {
        found: String,
        reason: String,
    },
    BadNumber {
        field: &'static str,
        found: String,
    },
    Invalid(String),
    /// A 3D board field with the wrong number of `|`-separated levels.
    LevelCount {
        found: usize,
        expected: usize,
    },
    BadPlayers {
        found: String,
        reason: String,
    },
    /// An error inside one level of a 3D board field.
    InLevel {
        level: char,
        error: Box<PositionError>,
    },
    BadHoldings {
        found: String,
        reason: String,
    },
    /// A field for a rule the game does not have (castling, en passant) that is not `-`.
    NotApplicable {
        field: &'static str,
        found: String,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        use PositionError::*;
        match self {
            Empty => write!(f, "empty position string"),
            MissingField(field) => write!(f, "position string ends before the {field} field"),
            ExtraField(s) => write!(f, "unexpected text after the position string: '{s}'"),
            RankCount { found, expected } => {
                write!(
                    f,
                    "board field has {found} ranks, expected {expected} separated by '/'"
                )
            }
            RankLength {
                rank,
                found,
                expected,
            } => {
                write!(f, "rank '{rank}' covers {found} cells, expected {expected}")
            }
            ZeroRun { rank } => {
                write!(f, "rank '{rank}' has an empty-cell count of 0")
            }
            UnknownPiece { token, variant } => write!(f, "unknown piece '{token}' for {variant}"),
            BadSide { found, expected } => {
                write!(
                    f,
                    "side-to-move field is '{found}', expected one of {expected}"
                )
            }
            BadCastling(s) => write!(
                f,
                "castling field '{s}' is not '-' or a combination of K, Q, k, q"
            ),
            RepeatedCastling { field, right } => {
                write!(f, "castling field '{field}' names '{right}' twice")
            }
            BadEnPassant { found, reason } => write!(f, "en-passant field '{found}': {reason}"),
            BadNumber { field, found } => {
                write!(
                    f,
                    "{field} field is '{found}', expected a non-negative number"
                )
            }
            Invalid(reason) => write!(f, "illegal position: {reason}"),
            LevelCount { found, expected } => write!(
                f,
                "board field has {found} levels, expected {expected} separated by '|'"
            ),
            BadPlayers { found, reason } => {
                write!(f, "armies-playing field '{found}': {reason}")
            }
            InLevel { level, error } => write!(f, "level {level}: {error}"),
            BadHoldings { found, reason } => write!(f, "holdings '{found}': {reason}"),
            NotApplicable { field, found } => write!(
                f,
                "{field} field is '{found}', but this game has no {field}: expected '-'"
            ),
        }
    }
}

impl std::error::Error for PositionError {}
