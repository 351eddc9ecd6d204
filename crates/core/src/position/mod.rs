//! The position: pieces by cell, player and kind, hands, side to move, rights and clocks,
//! with an incrementally updated Zobrist key. Moves are made by copy (`play`): positions are
//! small, and copying keeps multi-piece rule events (castling, checkmate removals) simple.

pub mod display;
pub mod error;
pub mod fen;
mod update;

use crate::bitboard::BitSet;
use crate::geometry::Cell;
use crate::piece::{Kind, Piece, Player, MAX_KINDS};

/// An en-passant target left by a double step: the skipped cell and the pawn to remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnPassant {
    pub skipped: Cell,
    pub victim: Cell,
}

#[derive(Clone, Copy, Debug)]
pub struct Position<B: BitSet> {
    mailbox: B::Mailbox,
    pub by_player: [B; 4],
    pub by_kind: [B; MAX_KINDS],
    pub occupied: B,
    pub hands: [[u8; MAX_KINDS]; 2],
    pub side: Player,
    /// Bit i: `variant.castlings[i]` is still allowed.
    pub castling: u8,
    /// Indexed by the player who double-stepped.
    pub ep: [Option<EnPassant>; 4],
    pub halfmove: u16,
    pub fullmove: u16,
    /// Bit p: player p is still playing.
    pub alive: u8,
    /// Set when a rule event has ended a multi-player game with a winner while other armies
    /// are still on the board (Armies of Faith: a second checkmate by a promoted piece).
    pub winner: Option<Player>,
    pub hash: u64,
}

impl<B: BitSet> PartialEq for Position<B> {
    fn eq(&self, o: &Self) -> bool {
        self.mailbox.as_ref() == o.mailbox.as_ref()
            && self.hands == o.hands
            && self.side == o.side
            && self.castling == o.castling
            && self.ep == o.ep
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
            && self.alive == o.alive
            && self.winner == o.winner
    }
}

impl<B: BitSet> Position<B> {
    #[inline]
    pub fn piece_at(&self, c: Cell) -> Option<Piece> {
        Piece::from_byte(self.mailbox.as_ref()[c.index()])
    }

    /// The piece byte of every cell ([`Piece::to_byte`], 0 for empty), for code that compares
    /// two positions cell by cell (the network's accumulator updates).
    #[inline]
    pub fn mailbox(&self) -> &[u8] {
        self.mailbox.as_ref()
    }

    #[inline]
    pub fn pieces(&self, p: Player, k: Kind) -> B {
        self.by_player[p.index()] & self.by_kind[k.index()]
    }

    #[inline]
    pub fn is_alive(&self, p: Player) -> bool {
        self.alive >> p.0 & 1 != 0
    }

    /// All pieces of the players other than `p` still on the board.
    #[inline]
    pub fn enemies(&self, p: Player) -> B {
        self.occupied.without(self.by_player[p.index()])
    }

    pub fn hand(&self, p: Player, k: Kind) -> u8 {
        self.hands.get(p.index()).map_or(0, |h| h[k.index()])
    }
}
