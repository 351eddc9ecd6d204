//! Which recorded positions are worth training on, decided when the data is read (so the
//! rules can change without generating again). The default drops, as strong engines' data
//! pipelines do: plies without a search score (random and book moves), positions whose score
//! is decided (|score| at or beyond 2000 centipawns, mates included), positions whose played
//! (best) move captures, promotes or takes en passant (the static evaluation should judge the
//! position, not an exchange in progress), positions with the side to move in check, and the
//! first `skip_plies` plies of each record (none by default: the record starts after the
//! random plies).

use super::record::StoredScore;
use crate::bitboard::BitSet;
use crate::movegen::is_in_check;
use crate::movegen::tables::Tables;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::search::ordering::is_capture;

/// The filter's settings; [`Filter::default`] is the training default, [`Filter::none`]
/// keeps every scored and unscored ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    pub skip_unscored: bool,
    /// Positions with |score| at or beyond this are dropped (`None`: no bound).
    pub score_bound: Option<i16>,
    pub skip_tactical_moves: bool,
    pub skip_in_check: bool,
    /// The first plies of every record dropped.
    pub skip_plies: usize,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            skip_unscored: true,
            score_bound: Some(2000),
            skip_tactical_moves: true,
            skip_in_check: true,
            skip_plies: 0,
        }
    }
}

impl Filter {
    /// Keeps every position.
    pub fn none() -> Filter {
        Filter {
            skip_unscored: false,
            score_bound: None,
            skip_tactical_moves: false,
            skip_in_check: false,
            skip_plies: 0,
        }
    }

    /// Whether the position before ply `ply` (counted from the record's start), with the move
    /// `mv` played from it and the search's `score`, is kept. Cheap tests first: the check
    /// test costs an attack computation.
    pub fn keeps<B: BitSet>(
        &self,
        t: &Tables<B>,
        pos: &Position<B>,
        ply: usize,
        mv: Move,
        score: StoredScore,
    ) -> bool {
        if ply < self.skip_plies || (self.skip_unscored && score.is_none()) {
            return false;
        }
        if !score.is_none()
            && self
                .score_bound
                .is_some_and(|b| score.0.unsigned_abs() >= b as u16)
        {
            return false;
        }
        if self.skip_tactical_moves
            && (matches!(mv.kind(), MoveKind::Promotion | MoveKind::EnPassant)
                || is_capture(pos, mv))
        {
            return false;
        }
        !(self.skip_in_check && is_in_check(t, pos, pos.side))
    }
}
