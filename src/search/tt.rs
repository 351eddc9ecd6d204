//! The transposition table, shared by all search threads without locks. Each entry is two
//! atomic words: the data and the key xor the data. A reader recomputes the key from both
//! words; a torn write (one word from each of two writers) then fails the check and reads as
//! a miss instead of as a wrong entry.

use super::memory;
use crate::moves::Move;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

const MB: u64 = 1 << 20;

/// Why a table of the asked size was not made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HashError {
    /// More than the machine can give now (a table it would have to swap, or be killed for).
    TooLarge { mb: usize, available_mb: u64 },
    /// The allocator refused.
    OutOfMemory { mb: usize },
}

impl fmt::Display for HashError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            HashError::TooLarge { mb, available_mb } => write!(
                f,
                "a hash table of {mb} MB does not fit: {available_mb} MB of memory available"
            ),
            HashError::OutOfMemory { mb } => {
                write!(f, "a hash table of {mb} MB could not be allocated")
            }
        }
    }
}

impl std::error::Error for HashError {}

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

    /// Whether a stored `score` with this bound settles a search of the window
    /// (`alpha`, `beta`): it is exact, or a bound on the side of the window that cuts.
    #[inline]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }

    /// Whether a `score` with this bound says the position is worth other than `guess`, and
    /// on which side: it is exact, or a bound beyond the guess.
    #[inline]
    pub fn corrects(self, score: i32, guess: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score > guess,
            Bound::Upper => score < guess,
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
    /// Whether anything was stored since the table was made or cleared: clearing an
    /// untouched table of gigabytes would write every page of it for nothing.
    written: AtomicBool,
}

/// `n` empty slots, or `None` if the allocator refuses. The memory comes zeroed from the
/// allocator (for a large table: fresh pages from the system, which cost nothing until they
/// are touched), so making a table is quick whatever its size.
fn zeroed_slots(n: usize) -> Option<Vec<Slot>> {
    let layout = std::alloc::Layout::array::<Slot>(n).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size; a slot is two `AtomicU64`, for which all-zero
    // bytes are a valid value (an empty slot); the pointer comes from the global allocator
    // with exactly the layout of a `Vec<Slot>` of capacity `n`, which then owns it.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout).cast::<Slot>();
        (!p.is_null()).then(|| Vec::from_raw_parts(p, n, n))
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes, or of the largest power-of-two size below it that
    /// the machine can give (at least 1 MB), for callers that must have a table.
    pub fn new(mb: usize) -> TranspositionTable {
        let mut size = mb.max(1);
        loop {
            match TranspositionTable::try_new(size) {
                Ok(t) => return t,
                Err(e) if size > 1 => {
                    log::warn!("{e}; trying {} MB", size / 2);
                    size /= 2;
                }
                Err(e) => panic!("{e}: not even the smallest table fits"),
            }
        }
    }

    /// A table of about `mb` megabytes (at least one bucket), refused when the machine
    /// does not have that much memory available.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, HashError> {
        TranspositionTable::try_new_within(mb, memory::available_bytes())
    }

    /// [`TranspositionTable::try_new`] with the available memory given (`None`: unknown).
    fn try_new_within(mb: usize, available: Option<u64>) -> Result<TranspositionTable, HashError> {
        let mb = mb.max(1);
        let bytes = (mb as u64).saturating_mul(MB);
        // Keep a tenth of what is available for everything else.
        if let Some(avail) = available.filter(|&a| bytes > a / 10 * 9) {
            return Err(HashError::TooLarge {
                mb,
                available_mb: avail / MB,
            });
        }
        let buckets = usize::try_from(bytes / (16 * BUCKET as u64))
            .map_err(|_| HashError::OutOfMemory { mb })?
            .max(1);
        let slots = buckets
            .checked_mul(BUCKET)
            .and_then(zeroed_slots)
            .ok_or(HashError::OutOfMemory { mb })?;
        Ok(TranspositionTable {
            slots,
            buckets,
            age: std::sync::atomic::AtomicU8::new(0),
            written: AtomicBool::new(false),
        })
    }

    /// The size in megabytes.
    pub fn megabytes(&self) -> usize {
        (self.slots.len() * std::mem::size_of::<Slot>()).div_ceil(MB as usize)
    }

    pub fn clear(&self) {
        if !self.written.swap(false, Ordering::Relaxed) {
            return;
        }
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
        // Read first: a store to the shared flag on every entry would bounce its cache line
        // between the search threads.
        if !self.written.load(Ordering::Relaxed) {
            self.written.store(true, Ordering::Relaxed);
        }
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
    fn a_table_larger_than_the_available_memory_is_refused() {
        let gb = 1024 * MB;
        assert_eq!(
            TranspositionTable::try_new_within(30_000, Some(24 * gb)).err(),
            Some(HashError::TooLarge {
                mb: 30_000,
                available_mb: 24 * 1024
            })
        );
        // 99999999999 MB overflows a byte count on the way: still refused, never an abort.
        assert!(TranspositionTable::try_new_within(99_999_999_999, Some(24 * gb)).is_err());
        assert!(TranspositionTable::try_new_within(usize::MAX, None).is_err());
        let t = TranspositionTable::try_new_within(2, Some(24 * gb)).unwrap();
        assert_eq!(t.megabytes(), 2);
    }

    #[test]
    fn more_than_this_machine_has_is_refused_for_real() {
        let Some(avail) = memory::available_bytes() else {
            return;
        };
        let mb = (avail / MB) as usize + 1;
        assert!(matches!(
            TranspositionTable::try_new(mb),
            Err(HashError::TooLarge { .. })
        ));
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
