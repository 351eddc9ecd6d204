//! The referee's view of a game: Panoply's own rules (`Game<B>`) behind an object-safe
//! interface, so the game loop does not care about the board width or the player count.

use crate::bitboard::BitSet;
use crate::game::{AnyTables, Game, Outcome};
use crate::movegen::notation::MoveError;
use crate::piece::Player;
use crate::position::fen::PositionError;
use crate::variant::Variant;

pub trait Board: Send {
    fn variant(&self) -> &Variant;
    fn players(&self) -> usize {
        self.variant().players()
    }
    /// The seat to move (a player index).
    fn side_to_move(&self) -> usize;
    /// Plays a move string; returns it in Panoply's canonical spelling.
    fn play(&mut self, mv: &str) -> Result<String, MoveError>;
    fn legal_moves(&self) -> Vec<String>;
    fn outcome(&self) -> Option<Outcome>;
    fn position_string(&self) -> String;
    /// Bit p set: player p is still playing (four-player games eliminate checkmated armies).
    fn alive_mask(&self) -> u8;
    /// Only royal pieces on the board and nothing in hand: no one can ever win.
    fn only_royals_left(&self) -> bool;
}

impl<B: BitSet> Board for Game<B> {
    fn variant(&self) -> &Variant {
        &self.tables.variant
    }

    fn side_to_move(&self) -> usize {
        self.pos.side.index()
    }

    fn play(&mut self, mv: &str) -> Result<String, MoveError> {
        let m = self.play_str(mv)?;
        Ok(self.format_move(m))
    }

    fn legal_moves(&self) -> Vec<String> {
        Game::legal_moves(self)
            .into_iter()
            .map(|m| self.format_move(m))
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn position_string(&self) -> String {
        Game::position_string(self)
    }

    fn alive_mask(&self) -> u8 {
        self.pos.alive
    }

    fn only_royals_left(&self) -> bool {
        let v = &self.tables.variant;
        let board_royal_only = self
            .tables
            .shape
            .all_cells()
            .all(|c| self.pos.piece_at(c).is_none_or(|p| v.kind(p.kind()).royal));
        let hands_empty = (0..v.players().min(2))
            .all(|p| v.kinds().all(|k| self.pos.hand(Player(p as u8), k) == 0));
        board_royal_only && hands_empty
    }
}

/// A board for `tables`, at `start` (a position string) or where engines start the variant
/// by themselves ([`Variant::session_start`]: `startpos`, XBoard's `new`).
pub fn new_board(tables: &AnyTables, start: Option<&str>) -> Result<Box<dyn Board>, PositionError> {
    crate::with_tables!(tables, t => {
        let start = start.unwrap_or(t.variant.session_start()).to_string();
        Ok(Box::new(Game::from_position_string(t.clone(), &start)?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_and_spells_moves_canonically() {
        let tables = crate::games::tables("cwda-fide-clobberers").unwrap();
        let mut b = new_board(&tables, None).unwrap();
        assert_eq!(b.players(), 2);
        assert_eq!(b.side_to_move(), 0);
        assert_eq!(b.play("E2E4").unwrap(), "e2e4");
        assert_eq!(b.side_to_move(), 1);
        assert!(b.play("e2e4").is_err());
        assert!(b.legal_moves().contains(&"e7e5".to_string()));
        assert!(!b.only_royals_left());
        let bare = new_board(&tables, Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1")).unwrap();
        assert!(bare.only_royals_left());
    }
}
