//! Why a request was refused: each error is one line for the user and an HTTP 4xx status.
//! A refused request never changes the game.

use super::guard::Refusal;
use crate::games::VariantError;
use crate::movegen::notation::MoveError;
use crate::position::fen::PositionError;
use std::fmt;

#[derive(Debug)]
pub enum ApiError {
    /// No such page or endpoint.
    NotFound(String),
    /// The request body is not the JSON the endpoint expects.
    BadRequest(String),
    Variant(VariantError),
    Position(PositionError),
    /// Not a move string of this game.
    MalformedMove(MoveError),
    /// A well-formed move that is not legal here.
    IllegalMove(MoveError),
    /// A move sent for a seat that is not to move.
    WrongSeat {
        sent: String,
        to_move: String,
    },
    /// A move for a seat the engine plays.
    EngineSeat(String),
    GameOver(String),
    NothingToUndo,
    /// A move number outside the game.
    NoSuchPly(usize),
    /// Not from the board's own page: a foreign `Host` or `Origin`, or a POST not JSON; or
    /// without the run's token.
    Refused(Refusal),
    /// A body over the limit ([`super::limits::MAX_BODY`]), refused unread.
    TooLarge,
    /// The body did not arrive in time ([`super::limits::REQUEST_TIMEOUT`]).
    Timeout,
    /// The server failed answering (a call on the table panicked).
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> u16 {
        match self {
            ApiError::NotFound(_) | ApiError::NoSuchPly(_) => 404,
            ApiError::BadRequest(_)
            | ApiError::Variant(_)
            | ApiError::Position(_)
            | ApiError::MalformedMove(_) => 400,
            ApiError::WrongSeat { .. }
            | ApiError::EngineSeat(_)
            | ApiError::GameOver(_)
            | ApiError::NothingToUndo => 409,
            ApiError::IllegalMove(_) => 422,
            ApiError::Refused(_) => 403,
            ApiError::Timeout => 408,
            ApiError::TooLarge => 413,
            ApiError::Internal(_) => 500,
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ApiError::NotFound(path) => write!(f, "no such page: {path}"),
            ApiError::BadRequest(why) => write!(f, "bad request: {why}"),
            ApiError::Variant(e) => write!(f, "{e}"),
            ApiError::Position(e) => write!(f, "bad position string: {e}"),
            ApiError::MalformedMove(e) | ApiError::IllegalMove(e) => write!(f, "{e}"),
            ApiError::WrongSeat { sent, to_move } => {
                write!(f, "it is {to_move}'s turn, not {sent}'s")
            }
            ApiError::EngineSeat(seat) => write!(f, "{seat} is played by the engine"),
            ApiError::GameOver(result) => write!(f, "the game is over: {result}"),
            ApiError::NothingToUndo => write!(f, "there is no move to take back"),
            ApiError::NoSuchPly(n) => write!(f, "the game has no position after {n} moves"),
            ApiError::Refused(refusal) => write!(f, "{refusal}"),
            ApiError::TooLarge => write!(
                f,
                "the request body is larger than {} KiB",
                super::limits::MAX_BODY / 1024
            ),
            ApiError::Timeout => write!(
                f,
                "the request did not arrive within {} s",
                super::limits::REQUEST_TIMEOUT.as_secs()
            ),
            ApiError::Internal(why) => write!(f, "internal error: {why}"),
        }
    }
}

impl std::error::Error for ApiError {}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> ApiError {
        ApiError::Refused(refusal)
    }
}

impl From<MoveError> for ApiError {
    fn from(e: MoveError) -> ApiError {
        match e {
            MoveError::Malformed(_) => ApiError::MalformedMove(e),
            MoveError::Illegal(_) => ApiError::IllegalMove(e),
        }
    }
}
