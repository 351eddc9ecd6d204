//! Accumulators: the hidden layer of both perspectives for a position, and the per-ply stack
//! the search keeps of them. Positions are made by copy (`Position::play`), so a child's
//! accumulator is its parent's plus the rows of the pieces that appeared minus those of the
//! pieces that left, found by comparing the two mailboxes cell by cell. That one rule covers
//! every kind of move of every family alike — captures, promotions, castling, en passant,
//! drops, pieces that change type, mergers, removals — without knowing any of them.
//!
//! The stack is lazy: a node only records its mailbox ([`AccumulatorStack::enter`]); the
//! accumulators are computed when an evaluation is asked, from the nearest computed ancestor
//! on the path (or by a full refresh when there is none, or when a diff costs more).

use super::Nnue;
use crate::piece::{Piece, Player};
use arrayvec::ArrayVec;

/// Cells changed by one move beyond which the diff is not kept (a refresh follows).
const MAX_CHANGES: usize = 32;

/// Both perspectives' accumulators, `[player 0's view | player 1's view]`.
pub type Accumulators = Vec<i16>;

/// The accumulators of the position with this mailbox, from scratch.
pub fn refresh(nnue: &Nnue, mailbox: &[u8], acc: &mut [i16]) {
    let hidden = nnue.hidden();
    for view in 0..2 {
        let out = &mut acc[view * hidden..(view + 1) * hidden];
        out.copy_from_slice(&nnue.net.feature_bias);
        for (cell, &byte) in mailbox[..nnue.cells()].iter().enumerate() {
            if let Some(piece) = Piece::from_byte(byte) {
                nnue.path
                    .add(out, nnue.row(Player(view as u8), piece, cell));
            }
        }
    }
}

/// The child's accumulators from the parent's: incrementally, or by a refresh when the
/// mailboxes differ in more cells than the child has pieces.
pub fn update(nnue: &Nnue, parent: (&[u8], &[i16]), child: (&[u8], &mut [i16])) {
    let cells = nnue.cells();
    let (old_box, old_acc) = parent;
    let (new_box, new_acc) = child;
    let Some((changes, pieces)) = diff(&old_box[..cells], &new_box[..cells]) else {
        return refresh(nnue, new_box, new_acc);
    };
    let rows: usize = changes
        .iter()
        .map(|&(_, was, is)| (was != 0) as usize + (is != 0) as usize)
        .sum();
    if rows > pieces {
        return refresh(nnue, new_box, new_acc);
    }
    new_acc.copy_from_slice(old_acc);
    let hidden = nnue.hidden();
    for view in 0..2 {
        let player = Player(view as u8);
        let out = &mut new_acc[view * hidden..(view + 1) * hidden];
        for &(cell, was, is) in &changes {
            if let Some(piece) = Piece::from_byte(was) {
                nnue.path.sub(out, nnue.row(player, piece, cell));
            }
            if let Some(piece) = Piece::from_byte(is) {
                nnue.path.add(out, nnue.row(player, piece, cell));
            }
        }
    }
}

/// A cell that changed between two mailboxes: the cell, its byte before and after.
type Change = (usize, u8, u8);

/// The cells where `old` and `new` differ, and how many pieces `new` holds; `None` beyond
/// [`MAX_CHANGES`]. Compared eight cells at a time: a move changes a few cells, so most
/// words of the two mailboxes are equal.
fn diff(old: &[u8], new: &[u8]) -> Option<(ArrayVec<Change, MAX_CHANGES>, usize)> {
    const WORD: usize = 8;
    let mut changes = ArrayVec::new();
    let mut pieces = 0;
    let mut note = |cell: usize, was: u8, is: u8| {
        (was == is || changes.try_push((cell, was, is)).is_ok()).then_some(())
    };
    let words = old.chunks_exact(WORD).zip(new.chunks_exact(WORD));
    for (w, (a, b)) in words.enumerate() {
        let (x, y) = (word(a), word(b));
        pieces += occupied_bytes(y);
        if x != y {
            for (i, (&was, &is)) in a.iter().zip(b).enumerate() {
                note(w * WORD + i, was, is)?;
            }
        }
    }
    let tail = old.len() / WORD * WORD;
    for (i, (&was, &is)) in old[tail..].iter().zip(&new[tail..]).enumerate() {
        pieces += (is != 0) as usize;
        note(tail + i, was, is)?;
    }
    Some((changes, pieces))
}

/// Eight mailbox bytes as one word.
fn word(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes.try_into().expect("eight bytes"))
}

/// How many of the eight bytes of `w` are not zero.
fn occupied_bytes(w: u64) -> usize {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // A byte's top bit is set when the byte is not zero: its own top bit, or a carry out of
    // its low seven bits (which never crosses into the next byte).
    ((((w & LOW7) + LOW7) | w) & !LOW7).count_ones() as usize
}

/// One ply of the search path.
struct Entry {
    mailbox: Vec<u8>,
    acc: Accumulators,
    /// Whether `acc` belongs to `mailbox` (for the network `AccumulatorStack::network`).
    computed: bool,
}

/// The accumulators along the search path, one entry per ply.
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    /// The network the computed entries belong to ([`Nnue::id`]).
    network: u64,
}

impl Default for AccumulatorStack {
    fn default() -> Self {
        AccumulatorStack {
            entries: Vec::new(),
            network: u64::MAX,
        }
    }
}

impl AccumulatorStack {
    /// The position at `ply` of the current path is now the one with `mailbox`. Cheap (a
    /// comparison and a copy); nothing is computed here. An entry's accumulators always
    /// belong to its own mailbox, whatever path left them, so a stale entry below costs a
    /// larger diff, never a wrong score.
    #[inline]
    pub fn enter(&mut self, ply: usize, mailbox: &[u8]) {
        while self.entries.len() <= ply {
            self.entries.push(Entry {
                mailbox: Vec::new(),
                acc: Vec::new(),
                computed: false,
            });
        }
        let e = &mut self.entries[ply];
        if e.mailbox != mailbox {
            e.mailbox.clear();
            e.mailbox.extend_from_slice(mailbox);
            e.computed = false;
        }
    }

    /// The network's score for the position entered at `ply`, from `side`'s view.
    pub fn evaluate(&mut self, nnue: &Nnue, ply: usize, side: Player) -> i32 {
        self.compute(nnue, ply);
        let hidden = nnue.hidden();
        let acc = &self.entries[ply].acc;
        let (us, them) = acc.split_at(hidden);
        let (us, them) = if side == Player(0) {
            (us, them)
        } else {
            (them, us)
        };
        nnue.score(us, them)
    }

    /// The accumulators of the position entered at `ply` (for tests and diagnostics).
    pub fn accumulators(&mut self, nnue: &Nnue, ply: usize) -> &[i16] {
        self.compute(nnue, ply);
        &self.entries[ply].acc
    }

    /// Computes the entry at `ply` from the nearest computed one below it on the path.
    fn compute(&mut self, nnue: &Nnue, ply: usize) {
        assert!(
            ply < self.entries.len() && !self.entries[ply].mailbox.is_empty(),
            "ply {ply} evaluated before it was entered"
        );
        if self.network != nnue.id {
            self.network = nnue.id;
            self.entries.iter_mut().for_each(|e| e.computed = false);
        }
        // Down to a computed entry, or to the lowest one that holds a position at all.
        let cells = self.entries[ply].mailbox.len();
        let mut base = ply;
        while !self.entries[base].computed
            && base > 0
            && self.entries[base - 1].mailbox.len() == cells
        {
            base -= 1;
        }
        if !self.entries[base].computed {
            let e = &mut self.entries[base];
            e.acc.resize(2 * nnue.hidden(), 0);
            refresh(nnue, &e.mailbox, &mut e.acc);
            e.computed = true;
        }
        for p in base + 1..=ply {
            let (below, above) = self.entries.split_at_mut(p);
            let (parent, child) = (&below[p - 1], &mut above[0]);
            child.acc.resize(2 * nnue.hidden(), 0);
            update(
                nnue,
                (&parent.mailbox, &parent.acc),
                (&child.mailbox, &mut child.acc),
            );
            child.computed = true;
        }
        #[cfg(test)]
        if tests::VERIFY.load(std::sync::atomic::Ordering::Relaxed) {
            let e = &self.entries[ply];
            let mut fresh = vec![0; e.acc.len()];
            refresh(nnue, &e.mailbox, &mut fresh);
            assert_eq!(
                e.acc, fresh,
                "incremental accumulators differ from a refresh"
            );
            tests::VERIFIED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::AnyTables;
    use crate::games;
    use crate::movegen::legal_moves;
    use crate::movegen::tables::Tables;
    use crate::nnue::features::Catalog;
    use crate::nnue::random;
    use crate::position::Position;
    use crate::random::Rng;
    use std::sync::atomic::{AtomicBool, AtomicU64};
    use std::sync::Arc;

    /// When set, every accumulator the stack computes is compared with a full refresh.
    pub static VERIFY: AtomicBool = AtomicBool::new(false);
    /// How many such comparisons were made.
    pub static VERIFIED: AtomicU64 = AtomicU64::new(0);

    pub fn narrow(name: &str) -> Arc<Tables<u64>> {
        match games::tables(name).unwrap() {
            AnyTables::Narrow(t) => t,
            AnyTables::Wide(_) => panic!("{name} is not 8x8"),
        }
    }

    /// A random network knowing every piece of `variants`, ready for the first.
    pub fn random_nnue(variants: &[&str], hidden: usize, seed: u64) -> (Nnue, Arc<Tables<u64>>) {
        let tables: Vec<_> = variants.iter().map(|v| narrow(v)).collect();
        let catalog = Catalog::of(tables.iter().map(|t| &**t));
        let net = random::network("test", catalog, 64, hidden, seed);
        let nnue = Nnue::new(Arc::new(net), &tables[0]).unwrap();
        (nnue, tables[0].clone())
    }

    /// Plays a long random game, checking after every move that the child's accumulators
    /// from the parent's equal a refresh, and that the stack (entered ply by ply, with
    /// jumps back as a search makes them) agrees too. Returns the kinds of move seen.
    fn random_game(variant: &str, seed: u64) -> usize {
        let (nnue, t) = random_nnue(&[variant], 64, seed);
        let mut pos: Position<u64> =
            crate::position::fen::parse(&t, &t.variant.start_position).unwrap();
        let mut rng = Rng::new(seed);
        let hidden = nnue.hidden();
        let mut stack = AccumulatorStack::default();
        let mut path: Vec<Position<u64>> = vec![pos];
        stack.enter(0, pos.mailbox());
        let mut changed = 0;
        for _ in 0..400 {
            let moves = legal_moves(&t, &pos);
            if moves.is_empty() || t.rules.verdict.and_then(|v| v(&t, &pos)).is_some() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let child = pos.play(&t, mv);
            let (mut parent_acc, mut child_acc, mut fresh) = (
                vec![0; 2 * hidden],
                vec![0; 2 * hidden],
                vec![0; 2 * hidden],
            );
            refresh(&nnue, pos.mailbox(), &mut parent_acc);
            update(
                &nnue,
                (pos.mailbox(), &parent_acc),
                (child.mailbox(), &mut child_acc),
            );
            refresh(&nnue, child.mailbox(), &mut fresh);
            assert_eq!(child_acc, fresh, "{variant}: after {mv:?}");
            changed += pos
                .mailbox()
                .iter()
                .zip(child.mailbox())
                .filter(|(a, b)| a != b)
                .count();
            // The stack: sometimes back to an earlier ply, as a search returns.
            if path.len() > 3 && rng.below(4) == 0 {
                let back = 1 + rng.below(3) as usize;
                path.truncate(path.len() - back);
                let _ = stack.accumulators(&nnue, path.len() - 1);
            }
            path.push(child);
            stack.enter(path.len() - 1, child.mailbox());
            assert_eq!(stack.accumulators(&nnue, path.len() - 1), &fresh[..]);
            let score = stack.evaluate(&nnue, path.len() - 1, child.side);
            assert_eq!(score, nnue.evaluate_full(&child), "{variant}");
            pos = child;
        }
        changed
    }

    /// `diff` against a cell-by-cell comparison, on boards whose size is and is not a
    /// multiple of its eight-cell words, with few changes and with too many.
    #[test]
    fn the_word_diff_finds_what_a_cell_by_cell_comparison_finds() {
        let mut rng = Rng::new(5);
        for cells in [64, 288, 320, 13, 7] {
            for changed in [0, 1, 2, 4, 31, 32, 33, 60] {
                let old: Vec<u8> = (0..cells)
                    .map(|_| {
                        if rng.below(3) == 0 {
                            0
                        } else {
                            rng.below(256) as u8
                        }
                    })
                    .collect();
                let mut new = old.clone();
                for _ in 0..changed {
                    let c = rng.index(cells);
                    new[c] = if rng.below(4) == 0 {
                        0
                    } else {
                        rng.below(256) as u8
                    };
                }
                let expected: Vec<Change> = (0..cells)
                    .filter(|&c| old[c] != new[c])
                    .map(|c| (c, old[c], new[c]))
                    .collect();
                let pieces = new.iter().filter(|&&b| b != 0).count();
                match diff(&old, &new) {
                    Some((found, n)) => {
                        assert_eq!(found.as_slice(), expected.as_slice(), "{cells} cells");
                        assert_eq!(n, pieces, "{cells} cells");
                    }
                    None => assert!(expected.len() > MAX_CHANGES, "{cells} cells"),
                }
            }
        }
    }

    #[test]
    fn a_ply_entered_without_the_plies_below_is_computed_from_scratch() {
        let (nnue, t) = random_nnue(&["cwda-fide-nutty"], 32, 4);
        let pos: Position<u64> =
            crate::position::fen::parse(&t, &t.variant.start_position).unwrap();
        let mut stack = AccumulatorStack::default();
        stack.enter(5, pos.mailbox());
        assert_eq!(stack.evaluate(&nnue, 5, pos.side), nnue.evaluate_full(&pos));
        // A position two plies on, entered at 7 with 6 never entered: a diff from 5.
        let moves = legal_moves(&t, &pos);
        let child = pos.play(&t, moves[0]);
        let grandchild = child.play(&t, legal_moves(&t, &child)[0]);
        stack.enter(7, grandchild.mailbox());
        assert_eq!(
            stack.evaluate(&nnue, 7, grandchild.side),
            nnue.evaluate_full(&grandchild)
        );
    }

    #[test]
    fn incremental_updates_equal_a_refresh_in_every_two_player_8x8_family() {
        let variants = [
            "cwda-fide-nutty",
            "cwda-clobberers-rookies",
            "cwda-nutty-rookies-anypromo",
            "cwda-fide-clobberers-anypromo",
            "shatranj",
            "swda-originals-posh",
            "swda-jostlers-amphibians",
            "cyclical",
        ];
        for (i, v) in variants.iter().enumerate() {
            if games::tables(v).is_err() {
                panic!("no variant {v}: {:?}", games::names());
            }
            for seed in 0..6 {
                let changed = random_game(v, 100 * i as u64 + seed);
                assert!(changed > 50, "{v}: only {changed} cells changed");
            }
        }
    }
}
