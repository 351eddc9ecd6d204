//! The transposition table of the multi-player searches. Scores are the searching (root)
//! army's utility, so every entry belongs to one root army: the army is mixed into the key,
//! and an entry stored for one army is never found by another's search. That lets one table
//! live across the moves of a game and across the searches of every army an engine plays,
//! allocated once; moves of different armies commute, so the same position is reached by
//! many orders of the same moves after one round, and the next move's search meets much of
//! the last one's tree.

use super::tt::Bound;
use crate::moves::Move;
use crate::piece::Player;

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

/// 2^18 entries (6 MB): the size the engine, self-play and the tests' searches use.
pub const STANDARD_BITS: u32 = 18;

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

/// The position key as the table files it for `root`'s searches. Multiplying by an odd
/// constant spreads the army over all the bits, the slot index's low ones included, so that
/// the armies' entries for one position also sit in different slots.
fn root_key(key: u64, root: Player) -> u64 {
    key ^ (u64::from(root.0) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl MultiTable {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> MultiTable {
        MultiTable {
            entries: vec![EMPTY; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    /// A table of [`STANDARD_BITS`].
    pub fn standard() -> MultiTable {
        MultiTable::new(STANDARD_BITS)
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
    }

    /// What the table knows of the position with `key` in a search for `root`.
    pub fn probe(&self, root: Player, key: u64, depth: u32, alpha: i32, beta: i32) -> Probe {
        let key = root_key(key, root);
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

    /// Stores the result of a search for `root` of `depth` with window (`alpha`, `beta`).
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        root: Player,
        key: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        value: i32,
        best: Move,
    ) {
        let key = root_key(key, root);
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

    const ROOT: Player = Player(0);

    #[test]
    fn bounds_answer_only_inside_their_window() {
        let mut t = MultiTable::new(4);
        t.store(ROOT, 42, 3, 0, 100, 50, Move(7));
        assert_eq!(t.probe(ROOT, 42, 3, -10, 10).cutoff, Some(50), "exact");
        assert_eq!(t.probe(ROOT, 42, 4, -10, 10).cutoff, None, "too shallow");
        assert_eq!(t.probe(ROOT, 42, 2, 0, 10).best, Move(7));
        t.store(ROOT, 42, 3, 0, 100, 120, Move(8));
        assert_eq!(t.probe(ROOT, 42, 3, 0, 110).cutoff, Some(120), "fails high");
        assert_eq!(t.probe(ROOT, 42, 3, 0, 130).cutoff, None);
        t.store(ROOT, 42, 3, 0, 100, -5, Move(9));
        assert_eq!(t.probe(ROOT, 42, 3, 0, 10).cutoff, Some(-5), "fails low");
        assert_eq!(t.probe(ROOT, 42, 3, -10, 10).cutoff, None);
        assert_eq!(t.probe(ROOT, 43, 0, -10, 10).best, Move::NONE, "other key");
    }

    /// Entries of every army, stored in one small table where they crowd the same slots:
    /// each army's probe finds only its own entries (value and move), never another army's,
    /// whatever was stored last.
    #[test]
    fn an_entry_of_one_root_army_is_never_returned_to_another() {
        let mut t = MultiTable::new(6);
        let armies = [Player(0), Player(1), Player(2), Player(3)];
        // Values and moves tell the army and the key apart.
        let value = |army: Player, key: u64| 1_000 * i32::from(army.0) + key as i32;
        let mv = |army: Player, key: u64| Move(100 * u32::from(army.0) + key as u32 + 1);
        for key in 1..=200u64 {
            for &army in &armies {
                t.store(
                    army,
                    key,
                    2,
                    -30_000,
                    30_000,
                    value(army, key),
                    mv(army, key),
                );
                // Another army finds nothing, or its own entry for the key, never this one.
                for &other in armies.iter().filter(|&&o| o != army) {
                    let p = t.probe(other, key, 0, -30_000, 30_000);
                    if let Some(v) = p.cutoff {
                        assert_eq!(v, value(other, key), "{other:?} got {army:?}'s entry");
                        assert_eq!(p.best, mv(other, key), "{other:?} got {army:?}'s move");
                    } else {
                        assert_eq!(p.best, Move::NONE, "{other:?} got {army:?}'s move");
                    }
                }
                let own = t.probe(army, key, 2, -30_000, 30_000);
                assert_eq!(own.cutoff, Some(value(army, key)));
                assert_eq!(own.best, mv(army, key));
            }
        }
        // After all stores, whatever survived answers its own army only.
        for key in 1..=200u64 {
            for &army in &armies {
                let p = t.probe(army, key, 0, -30_000, 30_000);
                if let Some(v) = p.cutoff {
                    assert_eq!(v, value(army, key), "{army:?} key {key}");
                    assert_eq!(p.best, mv(army, key));
                }
            }
        }
    }

    #[test]
    fn a_cleared_table_knows_nothing() {
        let mut t = MultiTable::new(4);
        t.store(ROOT, 42, 3, 0, 100, 50, Move(7));
        t.clear();
        let p = t.probe(ROOT, 42, 0, -100, 100);
        assert_eq!((p.cutoff, p.best), (None, Move::NONE));
    }
}
