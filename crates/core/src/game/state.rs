//! A game in progress: the position, the moves that led to it (for repetition and undo), and
//! how games end. Protocols and `panoply match` drive games through this type.

use crate::bitboard::BitSet;
use crate::movegen::notation::{format_move, parse_move, MoveError};
use crate::movegen::tables::Tables;
use crate::movegen::{is_in_check, legal_moves};
use crate::moves::Move;
use crate::piece::Player;
use crate::position::fen::{self, PositionError};
use crate::position::Position;
use crate::variant::StalemateRule;
use std::sync::Arc;

pub use crate::outcome::Outcome;

#[derive(Clone)]
pub struct Game<B: BitSet> {
    pub tables: Arc<Tables<B>>,
    pub pos: Position<B>,
    /// Earlier positions and the move played from each, oldest first.
    pub history: Vec<(Position<B>, Move)>,
}

impl<B: BitSet> Game<B> {
    /// A game from the variant's start position.
    pub fn new(tables: Arc<Tables<B>>) -> Game<B> {
        let start = tables.variant.start_position.clone();
        Game::from_position_string(tables, &start).expect("built-in start position parses")
    }

    pub fn from_position_string(tables: Arc<Tables<B>>, s: &str) -> Result<Game<B>, PositionError> {
        let pos = fen::parse(&tables, s)?;
        Ok(Game {
            tables,
            pos,
            history: Vec::new(),
        })
    }

    pub fn position_string(&self) -> String {
        fen::format(&self.tables, &self.pos)
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        legal_moves(&self.tables, &self.pos).to_vec()
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: Move) {
        let next = self.pos.play(&self.tables, mv);
        self.history.push((self.pos, mv));
        self.pos = next;
    }

    /// Parses and plays a move string; the game is unchanged on error.
    pub fn play_str(&mut self, s: &str) -> Result<Move, MoveError> {
        let mv = parse_move(&self.tables, &self.pos, s)?;
        self.play(mv);
        Ok(mv)
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((pos, _)) => {
                self.pos = pos;
                true
            }
            None => false,
        }
    }

    pub fn format_move(&self, mv: Move) -> String {
        format_move(&self.tables, mv)
    }

    /// Zobrist keys of the positions since the last irreversible move, oldest first,
    /// excluding the current one (what search needs for repetition detection).
    pub fn repetition_keys(&self) -> Vec<u64> {
        reversible_part(&self.pos, &self.history)
            .iter()
            .map(|(p, _)| p.hash)
            .collect()
    }

    /// How often the current position has occurred, counting this occurrence.
    pub fn repetitions(&self) -> usize {
        repetitions(&self.pos, &self.history)
    }

    /// The result if the game is over by the rules.
    pub fn outcome(&self) -> Option<Outcome> {
        let t = &self.tables;
        let own = t
            .rules
            .outcome
            .and_then(|outcome| outcome(t, &self.pos, &self.history));
        if own.is_some() || t.variant.own_game_end {
            return own;
        }
        let us = self.pos.side;
        if self.legal_moves().is_empty() {
            let them = Player(1 - us.0);
            return Some(if is_in_check(t, &self.pos, us) {
                Outcome::Win {
                    winner: them,
                    reason: "checkmate".into(),
                }
            } else {
                match t.variant.stalemate {
                    StalemateRule::Draw => Outcome::Draw {
                        reason: "stalemate".into(),
                    },
                    StalemateRule::Loss => Outcome::Win {
                        winner: them,
                        reason: "stalemate".into(),
                    },
                }
            });
        }
        let limit = t.variant.move_rule_plies;
        if limit > 0 && self.pos.halfmove >= limit {
            return Some(Outcome::Draw {
                reason: format!("{}-move rule", limit / 2),
            });
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::Draw {
                reason: "threefold repetition".into(),
            });
        }
        None
    }
}

/// The earlier positions since the last irreversible move, oldest first.
fn reversible_part<'h, B: BitSet>(
    pos: &Position<B>,
    history: &'h [(Position<B>, Move)],
) -> &'h [(Position<B>, Move)] {
    &history[history.len().saturating_sub(pos.halfmove as usize)..]
}

/// How often `pos` has occurred in a game with these earlier positions, counting this
/// occurrence.
pub fn repetitions<B: BitSet>(pos: &Position<B>, history: &[(Position<B>, Move)]) -> usize {
    1 + reversible_part(pos, history)
        .iter()
        .filter(|(p, _)| p.hash == pos.hash)
        .count()
}
