//! Cell sets. The move generator is monomorphised on the set width: `u64` for boards of up to
//! 64 cells, [`Wide`] (five words, 320 cells) for the 3D boards. The width is chosen once, when
//! a variant is selected (see `game::AnyGame`).

use crate::geometry::{Cell, MAX_CELLS};
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells with the operations the move generator needs.
pub trait BitSet:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many cells the set can hold.
    const CAPACITY: usize;
    /// One slot per cell, for the piece-on-cell array.
    type Mailbox: Copy + Send + Sync + Debug + AsRef<[u8]> + AsMut<[u8]>;

    fn empty_mailbox() -> Self::Mailbox;
    fn empty() -> Self {
        Self::default()
    }
    fn single(c: Cell) -> Self;
    fn is_empty(self) -> bool;
    fn count(self) -> u32;
    /// The set bit with the lowest index.
    fn lowest(self) -> Option<Cell>;
    /// The set bit with the highest index.
    fn highest(self) -> Option<Cell>;
    /// A well-mixed 64-bit digest of the set (equal sets, equal digests), for hash tables
    /// keyed by a part of the position.
    fn fingerprint(self) -> u64;
    /// The first 64 cells as one word (bit i for cell i), for lookups on boards that fit it.
    fn low_word(self) -> u64;
    /// The set of the first 64 cells given by `w` (bit i for cell i).
    fn from_low_word(w: u64) -> Self;

    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }
    #[inline]
    fn contains(self, c: Cell) -> bool {
        (self & Self::single(c)).any()
    }
    #[inline]
    fn set(&mut self, c: Cell) {
        *self |= Self::single(c);
    }
    #[inline]
    fn clear(&mut self, c: Cell) {
        *self &= !Self::single(c);
    }
    #[inline]
    fn toggle(&mut self, c: Cell) {
        *self ^= Self::single(c);
    }
    #[inline]
    fn without(self, other: Self) -> Self {
        self & !other
    }
    #[inline]
    fn cells(self) -> Cells<Self> {
        Cells(self)
    }
    /// Removes and returns the lowest cell.
    #[inline]
    fn pop_lowest(&mut self) -> Option<Cell> {
        let c = self.lowest()?;
        self.clear(c);
        Some(c)
    }
}

/// The splitmix64 finaliser: every input bit moves about half of the output bits.
#[inline]
pub fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Iterator over the cells of a set, lowest first.
pub struct Cells<B>(B);

impl<B: BitSet> Iterator for Cells<B> {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        self.0.pop_lowest()
    }
}

impl BitSet for u64 {
    const CAPACITY: usize = 64;
    type Mailbox = [u8; 64];

    fn empty_mailbox() -> Self::Mailbox {
        [0; 64]
    }
    #[inline]
    fn single(c: Cell) -> Self {
        1u64 << c.0
    }
    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn lowest(self) -> Option<Cell> {
        (self != 0).then(|| Cell(self.trailing_zeros() as u16))
    }
    #[inline]
    fn highest(self) -> Option<Cell> {
        (self != 0).then(|| Cell(63 - self.leading_zeros() as u16))
    }
    #[inline]
    fn fingerprint(self) -> u64 {
        mix(self)
    }
    #[inline]
    fn low_word(self) -> u64 {
        self
    }
    #[inline]
    fn from_low_word(w: u64) -> Self {
        w
    }
    #[inline]
    fn pop_lowest(&mut self) -> Option<Cell> {
        if *self == 0 {
            return None;
        }
        let c = Cell(self.trailing_zeros() as u16);
        *self &= *self - 1;
        Some(c)
    }
}

const WORDS: usize = MAX_CELLS.div_ceil(64);

/// A 320-cell set for the 3D boards.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Wide(pub [u64; WORDS]);

impl Debug for Wide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.cells().map(|c| c.0)).finish()
    }
}

macro_rules! wide_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Wide {
            type Output = Wide;
            #[inline]
            fn $fn(self, o: Wide) -> Wide {
                let mut r = self;
                r.$assign_fn(o);
                r
            }
        }
        impl $assign_trait for Wide {
            #[inline]
            fn $assign_fn(&mut self, o: Wide) {
                for i in 0..WORDS {
                    self.0[i] = self.0[i] $op o.0[i];
                }
            }
        }
    };
}
wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Wide {
    type Output = Wide;
    #[inline]
    fn not(self) -> Wide {
        Wide(self.0.map(|w| !w))
    }
}

/// A `Copy` array of cell slots long enough for the widest board.
#[derive(Clone, Copy, Debug)]
pub struct WideMailbox(pub [u8; MAX_CELLS]);

impl AsRef<[u8]> for WideMailbox {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}
impl AsMut<[u8]> for WideMailbox {
    fn as_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

impl BitSet for Wide {
    const CAPACITY: usize = MAX_CELLS;
    type Mailbox = WideMailbox;

    fn empty_mailbox() -> Self::Mailbox {
        WideMailbox([0; MAX_CELLS])
    }
    #[inline]
    fn single(c: Cell) -> Self {
        let mut w = [0u64; WORDS];
        w[c.index() / 64] = 1u64 << (c.0 % 64);
        Wide(w)
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> Option<Cell> {
        (0..WORDS)
            .find(|&i| self.0[i] != 0)
            .map(|i| Cell((i * 64) as u16 + self.0[i].trailing_zeros() as u16))
    }
    #[inline]
    fn highest(self) -> Option<Cell> {
        (0..WORDS)
            .rev()
            .find(|&i| self.0[i] != 0)
            .map(|i| Cell((i * 64 + 63) as u16 - self.0[i].leading_zeros() as u16))
    }
    #[inline]
    fn fingerprint(self) -> u64 {
        self.0
            .iter()
            .fold(0u64, |acc, &w| mix(acc.rotate_left(23) ^ w))
    }
    #[inline]
    fn low_word(self) -> u64 {
        self.0[0]
    }
    #[inline]
    fn from_low_word(w: u64) -> Self {
        let mut words = [0u64; WORDS];
        words[0] = w;
        Wide(words)
    }
    #[inline]
    fn contains(self, c: Cell) -> bool {
        self.0[c.index() / 64] >> (c.0 % 64) & 1 != 0
    }
    #[inline]
    fn set(&mut self, c: Cell) {
        self.0[c.index() / 64] |= 1u64 << (c.0 % 64);
    }
    #[inline]
    fn clear(&mut self, c: Cell) {
        self.0[c.index() / 64] &= !(1u64 << (c.0 % 64));
    }
    #[inline]
    fn toggle(&mut self, c: Cell) {
        self.0[c.index() / 64] ^= 1u64 << (c.0 % 64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: BitSet>(cells: &[u16]) {
        let mut s = B::empty();
        for &c in cells {
            s.set(Cell(c));
        }
        assert_eq!(s.count() as usize, cells.len());
        assert_eq!(s.lowest(), cells.iter().min().map(|&c| Cell(c)));
        assert_eq!(s.highest(), cells.iter().max().map(|&c| Cell(c)));
        let listed: Vec<u16> = s.cells().map(|c| c.0).collect();
        let mut sorted = cells.to_vec();
        sorted.sort();
        assert_eq!(listed, sorted);
        s.clear(Cell(cells[0]));
        assert!(!s.contains(Cell(cells[0])));
    }

    #[test]
    fn narrow_and_wide_sets_agree_on_basic_operations() {
        exercise::<u64>(&[0, 5, 63, 17]);
        exercise::<Wide>(&[0, 5, 63, 17]);
        exercise::<Wide>(&[64, 319, 128, 200, 3]);
    }
}
