//! The transposition table, shared by all search threads without locks. Each entry is two
//! atomic words: the data and the key xor the data. A reader recomputes the key from both
//! words; a torn write (one word from each of two writers) then fails the check and reads as
//! a miss instead of as a wrong entry.

use crate::moves::Move;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The score is a lower bound (the search failed high).
    Lower,
    /// The score is an upper bound (the search failed low).
    Upper,
}

impl Bound {
    /// What a search's `score` says about the position, given the window it searched.
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// What the table remembers about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Move,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl Entry {
    /// Layout: move 32 bits | score 16 | depth 8 | bound 2 | age 6.
    fn pack(self, age: u8) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        self.mv.0 as u64
            | (self.score as i16 as u16 as u64) << 32
            | ((self.depth.clamp(0, 255) as u8) as u64) << 48
            | bound << 56
            | ((age & 0x3f) as u64) << 58
    }

    fn unpack(data: u64) -> (Entry, u8) {
        let bound = match data >> 56 & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        (
            Entry {
                mv: Move(data as u32),
                score: (data >> 32) as u16 as i16 as i32,
                depth: (data >> 48 & 0xff) as i32,
                bound,
            },
            (data >> 58) as u8,
        )
    }
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Entries are grouped in buckets of two: one kept by depth, one always replaced.
const BUCKET: usize = 2;

pub struct TranspositionTable {
    slots: Vec<Slot>,
    buckets: usize,
    age: std::sync::atomic::AtomicU8,
}

impl TranspositionTable {
    /// A table using about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1) * 1024 * 1024;
        let buckets = (bytes / (16 * BUCKET)).max(1);
        let slots = (0..buckets * BUCKET)
            .map(|_| Slot {
                check: AtomicU64::new(0),
                data: AtomicU64::new(0),
            })
            .collect();
        TranspositionTable {
            slots,
            buckets,
            age: std::sync::atomic::AtomicU8::new(0),
        }
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so that old entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn age(&self) -> u8 {
        self.age.load(Ordering::Relaxed) & 0x3f
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the bucket range without a division.
        ((key as u128 * self.buckets as u128) >> 64) as usize * BUCKET
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for s in &self.slots[b..b + BUCKET] {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Some(Entry::unpack(data).0);
            }
        }
        None
    }

    pub fn store(&self, key: u64, entry: Entry) {
        let b = self.bucket(key);
        let age = self.age();
        let data = entry.pack(age);
        let slots = &self.slots[b..b + BUCKET];
        // Same position: overwrite, keeping the old move if the new entry has none.
        for s in slots {
            let old = s.data.load(Ordering::Relaxed);
            if old != 0 && s.check.load(Ordering::Relaxed) ^ old == key {
                let (prev, _) = Entry::unpack(old);
                let data = if entry.mv.is_none() {
                    Entry {
                        mv: prev.mv,
                        ..entry
                    }
                    .pack(age)
                } else {
                    data
                };
                if entry.bound == Bound::Exact || entry.depth + 2 >= prev.depth {
                    write(s, key, data);
                }
                return;
            }
        }
        // The depth slot takes deeper entries or replaces entries of older searches.
        let first = &slots[0];
        let old = first.data.load(Ordering::Relaxed);
        let (prev, prev_age) = Entry::unpack(old);
        if old == 0 || prev_age != age || entry.depth >= prev.depth {
            write(first, key, data);
        } else {
            write(&slots[1], key, data);
        }
    }

    /// Permille of the sampled slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && Entry::unpack(d).1 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

fn write(s: &Slot, key: u64, data: u64) {
    s.data.store(data, Ordering::Relaxed);
    s.check.store(key ^ data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Cell;

    fn entry(mv: Move, score: i32, depth: i32, bound: Bound) -> Entry {
        Entry {
            mv,
            score,
            depth,
            bound,
        }
    }

    #[test]
    fn store_then_probe_round_trips_every_field() {
        let tt = TranspositionTable::new(1);
        let mv = Move::promotion(Cell(52), Cell(60), crate::piece::Kind(17));
        let e = entry(mv, -31_234, 17, Bound::Lower);
        tt.store(0xdead_beef_1234_5678, e);
        assert_eq!(tt.probe(0xdead_beef_1234_5678), Some(e));
        assert_eq!(tt.probe(0xdead_beef_1234_5679), None);
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        let key = 0x0123_4567_89ab_cdef;
        tt.store(
            key,
            entry(Move::normal(Cell(1), Cell(2)), 5, 3, Bound::Exact),
        );
        let b = tt.bucket(key);
        // Another writer's data word lands without its check word.
        tt.slots[b].data.store(
            entry(Move::normal(Cell(3), Cell(4)), 9, 9, Bound::Upper).pack(0),
            Ordering::Relaxed,
        );
        assert_eq!(tt.probe(key), None);
    }

    #[test]
    fn clear_forgets_entries() {
        let tt = TranspositionTable::new(1);
        tt.store(42, entry(Move::NONE, 1, 1, Bound::Upper));
        assert!(tt.probe(42).is_some());
        tt.clear();
        assert!(tt.probe(42).is_none());
    }
}
