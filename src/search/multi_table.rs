//! The transposition table of one multi-player search. Scores are the searching army's
//! utility, so the table is valid for one search (one root army) only and is built afresh
//! for each: moves of different armies commute, so the same position is reached by many
//! orders of the same moves after one round.

use super::tt::Bound;
use crate::moves::Move;

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    value: i32,
    depth: u32,
    bound: Bound,
    best: Move,
}

const EMPTY: Entry = Entry {
    key: 0,
    value: 0,
    depth: 0,
    bound: Bound::Upper,
    best: Move::NONE,
};

/// A direct-mapped table; a new entry replaces an old one of no greater depth.
pub struct MultiTable {
    entries: Vec<Entry>,
    mask: usize,
}

/// A probe's answer: a value usable at this window, and the stored best move for ordering.
pub struct Probe {
    pub cutoff: Option<i32>,
    pub best: Move,
}

impl MultiTable {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> MultiTable {
        MultiTable {
            entries: vec![EMPTY; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    pub fn probe(&self, key: u64, depth: u32, alpha: i32, beta: i32) -> Probe {
        let e = &self.entries[key as usize & self.mask];
        if e.key != key || key == 0 {
            return Probe {
                cutoff: None,
                best: Move::NONE,
            };
        }
        let usable = e.depth >= depth && e.bound.settles(e.value, alpha, beta);
        Probe {
            cutoff: usable.then_some(e.value),
            best: e.best,
        }
    }

    /// Stores the result of a search of `depth` with window (`alpha`, `beta`).
    pub fn store(&mut self, key: u64, depth: u32, alpha: i32, beta: i32, value: i32, best: Move) {
        let bound = Bound::of(value, alpha, beta);
        let e = &mut self.entries[key as usize & self.mask];
        if e.key == key && e.depth > depth {
            return;
        }
        *e = Entry {
            key,
            value,
            depth,
            bound,
            best,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_answer_only_inside_their_window() {
        let mut t = MultiTable::new(4);
        t.store(42, 3, 0, 100, 50, Move(7));
        assert_eq!(t.probe(42, 3, -10, 10).cutoff, Some(50), "exact");
        assert_eq!(t.probe(42, 4, -10, 10).cutoff, None, "too shallow");
        assert_eq!(t.probe(42, 2, 0, 10).best, Move(7));
        t.store(42, 3, 0, 100, 120, Move(8));
        assert_eq!(t.probe(42, 3, 0, 110).cutoff, Some(120), "fails high");
        assert_eq!(t.probe(42, 3, 0, 130).cutoff, None);
        t.store(42, 3, 0, 100, -5, Move(9));
        assert_eq!(t.probe(42, 3, 0, 10).cutoff, Some(-5), "fails low");
        assert_eq!(t.probe(42, 3, -10, 10).cutoff, None);
        assert_eq!(t.probe(43, 0, -10, 10).best, Move::NONE, "other key");
    }
}
