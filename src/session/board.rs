//! One engine bundle per board size: a game and the searcher that plays it, for one bitset
//! width, and [`AnyBoard`], the choice between the widths that the session, the shell and
//! the board server hold.

use crate::bitboard::{BitSet, Wide};
use crate::game::{AnyTables, Game};
use crate::movegen::tables::Tables;
use crate::position::fen::PositionError;
use crate::search::{SearchOptions, Searcher};
use std::sync::Arc;

/// A game with its own searcher, for one bitset width.
pub struct Board<B: BitSet> {
    pub game: Game<B>,
    /// `None` while a search runs on a worker thread, which has taken the searcher along.
    pub searcher: Option<Searcher<B>>,
}

impl<B: BitSet> Board<B> {
    /// A game from `position` with a new searcher.
    pub fn new(
        tables: Arc<Tables<B>>,
        position: &str,
        options: SearchOptions,
    ) -> Result<Board<B>, PositionError> {
        Ok(Board {
            game: Game::from_position_string(tables.clone(), position.trim())?,
            searcher: Some(Searcher::new(tables, options)),
        })
    }

    /// A copy of the game alone (no searcher).
    pub fn game_only(&self) -> Board<B> {
        Board {
            game: self.game.clone(),
            searcher: None,
        }
    }
}

// One per session: the wide board's size costs nothing, a box would cost an indirection on
// every access.
#[allow(clippy::large_enum_variant)]
pub enum AnyBoard {
    Narrow(Board<u64>),
    Wide(Board<Wide>),
}

/// Runs `$body` with `$b` bound to the concrete `Board<B>` of an [`AnyBoard`].
macro_rules! with_board {
    ($any:expr, $b:ident => $body:expr) => {
        match $any {
            $crate::session::board::AnyBoard::Narrow($b) => $body,
            $crate::session::board::AnyBoard::Wide($b) => $body,
        }
    };
}
pub(crate) use with_board;

impl From<Board<u64>> for AnyBoard {
    fn from(b: Board<u64>) -> AnyBoard {
        AnyBoard::Narrow(b)
    }
}

impl From<Board<Wide>> for AnyBoard {
    fn from(b: Board<Wide>) -> AnyBoard {
        AnyBoard::Wide(b)
    }
}

impl AnyBoard {
    /// A board of the width the variant needs, from `position`, with a new searcher.
    pub fn new(
        tables: &AnyTables,
        position: &str,
        options: SearchOptions,
    ) -> Result<AnyBoard, PositionError> {
        Ok(match tables {
            AnyTables::Narrow(t) => AnyBoard::Narrow(Board::new(t.clone(), position, options)?),
            AnyTables::Wide(t) => AnyBoard::Wide(Board::new(t.clone(), position, options)?),
        })
    }

    /// A game from `position` without a searcher (see [`AnyBoard::add_searcher`]).
    pub fn game_at(tables: &AnyTables, position: &str) -> Result<AnyBoard, PositionError> {
        let s = position.trim();
        Ok(match tables {
            AnyTables::Narrow(t) => AnyBoard::Narrow(Board {
                game: Game::from_position_string(t.clone(), s)?,
                searcher: None,
            }),
            AnyTables::Wide(t) => AnyBoard::Wide(Board {
                game: Game::from_position_string(t.clone(), s)?,
                searcher: None,
            }),
        })
    }

    /// Gives the board a new searcher if it has none.
    pub fn add_searcher(&mut self, options: SearchOptions) {
        with_board!(self, b => {
            if b.searcher.is_none() {
                b.searcher = Some(Searcher::new(b.game.tables.clone(), options));
            }
        })
    }

    /// Whether [`AnyBoard::take_searcher`] would take `other`'s searcher.
    pub fn would_take_searcher(&self, other: &AnyBoard) -> bool {
        match (self, other) {
            (AnyBoard::Narrow(b), AnyBoard::Narrow(o)) => {
                b.searcher.is_none() && o.searcher.is_some()
            }
            (AnyBoard::Wide(b), AnyBoard::Wide(o)) => b.searcher.is_none() && o.searcher.is_some(),
            _ => false,
        }
    }

    pub fn tables(&self) -> AnyTables {
        match self {
            AnyBoard::Narrow(b) => AnyTables::Narrow(b.game.tables.clone()),
            AnyBoard::Wide(b) => AnyTables::Wide(b.game.tables.clone()),
        }
    }

    /// A copy of the game alone (no searcher).
    pub fn game_only(&self) -> AnyBoard {
        match self {
            AnyBoard::Narrow(b) => AnyBoard::Narrow(b.game_only()),
            AnyBoard::Wide(b) => AnyBoard::Wide(b.game_only()),
        }
    }

    /// Moves `other`'s game into this board when both have the same width; false otherwise.
    pub fn take_game(&mut self, other: AnyBoard) -> bool {
        match (self, other) {
            (AnyBoard::Narrow(b), AnyBoard::Narrow(o)) => b.game = o.game,
            (AnyBoard::Wide(b), AnyBoard::Wide(o)) => b.game = o.game,
            _ => return false,
        }
        true
    }

    /// Moves `other`'s searcher into this board when both have the same width and this
    /// board has none; otherwise `other` is dropped (its memory freed first). Says which.
    pub fn take_searcher(&mut self, other: AnyBoard) -> bool {
        if !self.would_take_searcher(&other) {
            return false;
        }
        match (self, other) {
            (AnyBoard::Narrow(b), AnyBoard::Narrow(o)) => b.searcher = o.searcher,
            (AnyBoard::Wide(b), AnyBoard::Wide(o)) => b.searcher = o.searcher,
            _ => unreachable!("would_take_searcher checked the widths"),
        }
        true
    }
}
