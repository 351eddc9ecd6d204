//! Errors of an armies file: each names the file, the line and what is wrong.

use crate::located::Located;
use std::fmt;

/// Something wrong with an armies file, at a line of it (0 when the file cannot be read).
pub type ArmiesError = Located<Problem>;

/// What is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The file cannot be read.
    Unreadable(String),
    /// Not TOML, or not the schema (a missing or unknown key, a wrong type).
    Syntax(String),
    /// The Betza notation of a piece does not read.
    Betza { piece: String, reason: String },
    /// A letter that is not one upper-case letter A-Z (or is K or P, which are King and Pawn).
    BadLetter(String),
    /// Two pieces of one army share a letter.
    DuplicateLetter(char),
    /// Two armies share a code, or the code is a built-in army's or not lower-case letters.
    BadCode(String),
    /// The setup does not have eight squares.
    SetupLength(usize),
    /// The setup has no King (no royal piece) or more than one.
    Kings(usize),
    /// The King is not on the e-file (castling needs it there).
    KingNotOnE,
    /// The setup names a letter that is no piece of the army.
    UnknownSetupLetter(char),
    /// The castling partner is not the piece in both corners.
    CastlingPartner(String),
    /// Long castling files that do not work (King on b, c or d; partner next to it, inside).
    LongCastling(String),
    /// Promotion is neither `own` nor `either`.
    Promotion(String),
    /// A letter means another piece in a built-in army.
    LetterCollision {
        letter: char,
        army: String,
        other: String,
    },
    /// A letter means another piece in an army loaded before, at `other_file:other_line`.
    LetterClash {
        letter: char,
        army: String,
        other: String,
        other_file: String,
        other_line: usize,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Problem::Unreadable(e) => write!(f, "cannot read the file: {e}"),
            Problem::Syntax(e) => write!(f, "{e}"),
            Problem::Betza { piece, reason } => write!(f, "piece '{piece}': {reason}"),
            Problem::BadLetter(l) => write!(
                f,
                "letter '{l}' must be one upper-case letter A-Z other than K (King) and P (Pawn)"
            ),
            Problem::DuplicateLetter(c) => write!(f, "two pieces of the army have letter '{c}'"),
            Problem::BadCode(c) => write!(f, "army code {c}"),
            Problem::SetupLength(n) => {
                write!(f, "the setup has {n} squares; a back rank has 8")
            }
            Problem::Kings(0) => write!(f, "the setup has no King (no royal piece)"),
            Problem::Kings(n) => write!(f, "the setup has {n} Kings; it needs exactly one"),
            Problem::KingNotOnE => write!(f, "the King must start on the e-file"),
            Problem::UnknownSetupLetter(c) => {
                write!(f, "the setup names '{c}', which is no piece of the army")
            }
            Problem::CastlingPartner(p) => write!(
                f,
                "castling partner '{p}' must be the piece standing in both corners"
            ),
            Problem::LongCastling(why) => write!(f, "long castling: {why}"),
            Problem::Promotion(p) => {
                write!(f, "promotion '{p}' must be \"own\" or \"either\"")
            }
            Problem::LetterCollision {
                letter,
                army,
                other,
            } => write!(
                f,
                "letter '{letter}' of army '{army}' is another piece in army '{other}'"
            ),
            Problem::LetterClash {
                letter,
                army,
                other,
                other_file,
                other_line,
            } => write!(
                f,
                "letter '{letter}' of army '{army}' is another piece in army '{other}' \
                 ({other_file}:{other_line}); a letter names one piece in every game"
            ),
        }
    }
}

/// The 1-based line of a byte offset in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}
