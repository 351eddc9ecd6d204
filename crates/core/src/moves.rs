//! The fixed move encoding: one `u32` holds from, to, the move's kind and a piece kind
//! (promotion choice, dropped kind or castling index). It fits 512 cells.

use crate::geometry::Cell;
use crate::piece::Kind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveKind {
    Normal = 0,
    Promotion = 1,
    DoubleStep = 2,
    EnPassant = 3,
    Castle = 4,
    Drop = 5,
    Pass = 6,
    /// Armies of Faith: an unpromoted Pawn and Yeoman merge into a Queen.
    Merge = 7,
}

impl MoveKind {
    /// The kind stored in a move's kind bits (values above 7 read as the last kind).
    pub fn from_bits(b: u32) -> MoveKind {
        match b {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::DoubleStep,
            3 => MoveKind::EnPassant,
            4 => MoveKind::Castle,
            5 => MoveKind::Drop,
            6 => MoveKind::Pass,
            _ => MoveKind::Merge,
        }
    }
}

/// A move. `Move::NONE` is the null value used in tables.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

impl Move {
    pub const NONE: Move = Move(0);

    #[inline]
    pub fn new(from: Cell, to: Cell, kind: MoveKind, extra: u8) -> Move {
        Move(
            from.0 as u32
                | (to.0 as u32) << 9
                | (kind as u32) << 18
                | (extra as u32) << 22
                | 1 << 31,
        )
    }
    #[inline]
    pub fn normal(from: Cell, to: Cell) -> Move {
        Move::new(from, to, MoveKind::Normal, 0)
    }
    #[inline]
    pub fn promotion(from: Cell, to: Cell, to_kind: Kind) -> Move {
        Move::new(from, to, MoveKind::Promotion, to_kind.0)
    }
    #[inline]
    pub fn drop(kind: Kind, to: Cell) -> Move {
        Move::new(to, to, MoveKind::Drop, kind.0)
    }
    /// An en-passant capture, promoting to `promotion` if given (Armies of Faith).
    #[inline]
    pub fn en_passant(from: Cell, to: Cell, promotion: Option<Kind>) -> Move {
        // `extra` 0 means no promotion, so a promotion to kind k is stored as k + 1.
        Move::new(
            from,
            to,
            MoveKind::EnPassant,
            promotion.map_or(0, |k| k.0 + 1),
        )
    }
    /// The promotion of an en-passant capture, if any.
    #[inline]
    pub fn ep_promotion(self) -> Option<Kind> {
        (self.kind() == MoveKind::EnPassant && self.extra() > 0).then(|| Kind(self.extra() - 1))
    }
    pub fn pass() -> Move {
        Move::new(Cell(0), Cell(0), MoveKind::Pass, 0)
    }
    #[inline]
    pub fn from(self) -> Cell {
        Cell((self.0 & 0x1ff) as u16)
    }
    #[inline]
    pub fn to(self) -> Cell {
        Cell((self.0 >> 9 & 0x1ff) as u16)
    }
    #[inline]
    pub fn kind(self) -> MoveKind {
        MoveKind::from_bits(self.0 >> 18 & 0xf)
    }
    /// Promotion or dropped piece kind, or castling index.
    #[inline]
    pub fn extra(self) -> u8 {
        (self.0 >> 22 & 0x3f) as u8
    }
    #[inline]
    pub fn piece_kind(self) -> Kind {
        Kind(self.extra())
    }
    pub fn is_none(self) -> bool {
        self == Move::NONE
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Move({:?} {}->{} x{})",
            self.kind(),
            self.from().0,
            self.to().0,
            self.extra()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn fields_round_trip() {
        let m = Move::new(Cell(319), Cell(288), MoveKind::Merge, 31);
        assert_eq!(
            (m.from(), m.to(), m.kind(), m.extra()),
            (Cell(319), Cell(288), MoveKind::Merge, 31)
        );
        assert_ne!(Move::normal(Cell(0), Cell(0)), Move::NONE);
    }
}
