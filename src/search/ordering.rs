//! Move ordering: what one search thread learns (history, continuation histories, killers,
//! counter-moves) and how it ranks moves — hash move, captures that do not lose material in
//! the exchange (by most valuable victim / least valuable attacker), killers, counter-move,
//! quiet moves by history and by how they did after the last two moves, losing captures last.

use super::correction::CorrectionHistory;
use super::see::see_at_least;
use super::MAX_PLY;
use crate::bitboard::BitSet;
use crate::eval::Evaluator;
use crate::geometry::Cell;
use crate::movegen::tables::{Promotion, Tables};
use crate::movegen::MoveSink;
use crate::moves::{Move, MoveKind};
use crate::nnue::accumulator::AccumulatorStack;
use crate::nnue::Nnue;
use crate::piece::Kind;
use crate::position::Position;

const HISTORY_MAX: i32 = 16_384;

/// A history entry `h` after `bonus`: the step shrinks as `h` nears the bound on its side,
/// so entries stay within ±[`HISTORY_MAX`] and recent results outweigh old ones.
#[inline]
fn saturating_update(h: i32, bonus: i32) -> i32 {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    h + bonus - h * bonus.abs() / HISTORY_MAX
}

/// Continuation histories are kept only where (kind, cell) pairs are few enough for a square
/// table (8x8 games: about a million entries); the 3D boards go without.
const MAX_CONTINUATION_SIDE: usize = 2048;

/// Per-thread memory of the search, kept across moves of a game.
pub struct ThreadData {
    /// `history[player * stride + kind * cells + to]` (see [`ThreadData::slot`]).
    history: Vec<i32>,
    /// Reply that refuted the previous move, by the previous move's (player, kind, to).
    countermoves: Vec<Move>,
    /// How well a quiet (kind, to) did after an earlier move's (kind, to): indexed by
    /// [`ThreadData::continuation_index`]; one table for the reply to the opponent's last
    /// move and one for the follow-up to our own move before it. Empty when too large.
    continuation: [Vec<i16>; 2],
    /// How well a capture did, by the capturing move's slot and the victim's kind:
    /// `capture_history[slot * kinds + victim]`. Ranks captures of equal material gain.
    capture_history: Vec<i16>,
    pub killers: Vec<[Move; 2]>,
    kinds: usize,
    cells: usize,
    /// The slots of one player: `kinds * cells` rounded up to a power of two, so that the
    /// continuations find a slot's (kind, cell) part with a mask rather than a division.
    stride: usize,
    /// Reusable move buffers, one per ply, so the search does not allocate.
    pub move_stack: Vec<Vec<(Move, i32)>>,
    /// Static evaluations by position key (cleared when the evaluation changes, see
    /// [`ThreadData::clear_eval_cache`]).
    eval_cache: Vec<(u64, i32)>,
    /// The network's accumulators along the search path (used when a network is active).
    pub accumulators: AccumulatorStack,
    /// How far searches found the static evaluation off, by pawn structure and material.
    pub correction: CorrectionHistory,
    /// The quiet and capture histories' old values, while a node's moves are to be ranked
    /// as these tables stood before its hash move was searched.
    journal: Journal,
}

/// Which ordering table a journal entry belongs to.
#[derive(Clone, Copy)]
enum Table {
    History,
    Continuation(usize),
    Capture,
}

/// Overwritten values of the ordering tables, in the order of writing, kept while at least
/// one node is open (see [`ThreadData::open_journal`]).
#[derive(Default)]
struct Journal {
    entries: Vec<(Table, u32, i32)>,
    open: usize,
}

const EVAL_CACHE_SIZE: usize = 1 << 16;

impl ThreadData {
    pub fn new<B: BitSet>(t: &Tables<B>) -> ThreadData {
        let kinds = t.variant.pieces.len();
        let stride = (kinds * t.cells).next_power_of_two();
        let n = t.players() * stride;
        ThreadData {
            history: vec![0; n],
            countermoves: vec![Move::NONE; n],
            continuation: {
                let side = kinds * t.cells;
                let size = if side <= MAX_CONTINUATION_SIDE {
                    side * side
                } else {
                    0
                };
                [vec![0; size], vec![0; size]]
            },
            capture_history: vec![0; n * kinds],
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
            kinds,
            cells: t.cells,
            stride,
            move_stack: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE],
            accumulators: AccumulatorStack::default(),
            correction: CorrectionHistory::default(),
            journal: Journal::default(),
        }
    }

    /// Starts recording what the quiet and capture histories were; returns the mark to pass
    /// to [`Self::ranked_as_at`] and [`Self::close_journal`].
    pub fn open_journal(&mut self) -> usize {
        self.journal.open += 1;
        self.journal.entries.len()
    }

    /// Ends the recording opened at `mark`; what nodes still open need is kept.
    pub fn close_journal(&mut self, mark: usize) {
        self.journal.open -= 1;
        if self.journal.open == 0 {
            debug_assert_eq!(mark, 0);
            self.journal.entries.clear();
        }
    }

    /// Runs `rank` with the quiet and capture histories as they stood at `mark`, so that a
    /// node ranks its moves as if it had done so before searching its hash move.
    pub fn ranked_as_at<R>(&mut self, mark: usize, rank: impl FnOnce(&ThreadData) -> R) -> R {
        // Swapping restores the old values going back and the new ones going forth again.
        let mut entries = std::mem::take(&mut self.journal.entries);
        for e in entries[mark..].iter_mut().rev() {
            self.swap_in(e);
        }
        let ranked = rank(self);
        for e in entries[mark..].iter_mut() {
            self.swap_in(e);
        }
        self.journal.entries = entries;
        ranked
    }

    fn swap_in(&mut self, (table, i, value): &mut (Table, u32, i32)) {
        let i = *i as usize;
        let old = match *table {
            Table::History => std::mem::replace(&mut self.history[i], *value),
            Table::Continuation(c) => {
                std::mem::replace(&mut self.continuation[c][i], *value as i16) as i32
            }
            Table::Capture => std::mem::replace(&mut self.capture_history[i], *value as i16) as i32,
        };
        *value = old;
    }

    #[inline]
    fn record(&mut self, table: Table, i: usize, old: i32) {
        if self.journal.open > 0 {
            self.journal.entries.push((table, i as u32, old));
        }
    }

    /// The static evaluation of `pos`, the position entered at `ply` of the search path
    /// (see [`AccumulatorStack::enter`]): the network's when one is given, else the classical
    /// one; from the cache when it was seen before.
    #[inline]
    pub fn evaluate<B: BitSet>(
        &mut self,
        t: &Tables<B>,
        ev: &Evaluator<B>,
        nnue: Option<&Nnue>,
        pos: &Position<B>,
        ply: usize,
    ) -> i32 {
        let slot = self.eval_cache[pos.hash as usize & (EVAL_CACHE_SIZE - 1)];
        if slot.0 == pos.hash && pos.hash != 0 {
            return slot.1;
        }
        let score = match nnue {
            Some(n) => n.combine(self.accumulators.evaluate(n, ply, pos.side), || {
                ev.evaluate(t, pos)
            }),
            None => ev.evaluate(t, pos),
        };
        self.eval_cache[pos.hash as usize & (EVAL_CACHE_SIZE - 1)] = (pos.hash, score);
        score
    }

    /// Forgets the cached evaluations (the evaluation changed: network on or off).
    pub fn clear_eval_cache(&mut self) {
        self.eval_cache.iter_mut().for_each(|e| *e = (0, 0));
    }

    pub fn clear(&mut self) {
        self.history.iter_mut().for_each(|h| *h = 0);
        self.countermoves.iter_mut().for_each(|m| *m = Move::NONE);
        for table in &mut self.continuation {
            table.iter_mut().for_each(|h| *h = 0);
        }
        self.capture_history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [Move::NONE; 2]);
        self.correction.clear();
        self.journal = Journal::default();
    }

    /// Index of a move by the piece that makes it and where it goes.
    #[inline]
    pub fn slot(&self, player: usize, kind: Kind, to: Cell) -> usize {
        player * self.stride + kind.index() * self.cells + to.index()
    }

    #[inline]
    pub fn history(&self, slot: usize) -> i32 {
        self.history[slot]
    }

    /// Rewards (or punishes, with a negative bonus) a quiet move; values saturate smoothly.
    pub fn update_history(&mut self, slot: usize, bonus: i32) {
        self.record(Table::History, slot, self.history[slot]);
        self.history[slot] = saturating_update(self.history[slot], bonus);
    }

    /// Where the continuation of move slot `earlier` by move slot `now` is kept (the player
    /// is left out: in two-player games it follows from the ply).
    #[inline]
    fn continuation_index(&self, earlier: usize, now: usize) -> Option<usize> {
        let side = self.kinds * self.cells;
        let piece_part = self.stride - 1;
        let i = (earlier & piece_part) * side + (now & piece_part);
        (i < self.continuation[0].len()).then_some(i)
    }

    /// The quiet-move score of slot `now`: its history plus how it did after the moves of
    /// `context` (the opponent's last move, our move before it).
    #[inline]
    pub fn quiet_score(&self, now: usize, context: [Option<usize>; 2]) -> i32 {
        // Written out for the two tables: the arrays' iterators cost as much as the lookups.
        let continued = |t: usize| {
            context[t]
                .and_then(|e| self.continuation_index(e, now))
                .map_or(0, |i| self.continuation[t][i] as i32)
        };
        self.history[now] + continued(0) + continued(1)
    }

    /// Rewards (or punishes) slot `now` in its history and in its continuations.
    pub fn update_quiet(&mut self, now: usize, context: [Option<usize>; 2], bonus: i32) {
        self.update_history(now, bonus);
        for (t, earlier) in context.into_iter().enumerate() {
            if let Some(i) = earlier.and_then(|e| self.continuation_index(e, now)) {
                self.record(Table::Continuation(t), i, self.continuation[t][i] as i32);
                let h = &mut self.continuation[t][i];
                *h = saturating_update(*h as i32, bonus) as i16;
            }
        }
    }

    /// Where a capture is kept in the capture history: the slot of the capturing move and
    /// the kind it takes (en passant: a pawn of the mover's kind).
    #[inline]
    pub fn capture_index<B: BitSet>(&self, pos: &Position<B>, mv: Move) -> usize {
        let mover = moving_kind(pos, mv);
        let victim = pos.piece_at(mv.to()).map_or(mover, |p| p.kind());
        self.slot(pos.side.index(), mover, mv.to()) * self.kinds + victim.index()
    }

    #[inline]
    pub fn capture_score(&self, index: usize) -> i32 {
        self.capture_history[index] as i32
    }

    /// Rewards (or punishes) a capture; values saturate smoothly as in the quiet history.
    pub fn update_capture(&mut self, index: usize, bonus: i32) {
        self.record(Table::Capture, index, self.capture_history[index] as i32);
        let h = &mut self.capture_history[index];
        *h = saturating_update(*h as i32, bonus) as i16;
    }

    pub fn countermove(&self, slot: Option<usize>) -> Move {
        slot.map_or(Move::NONE, |s| self.countermoves[s])
    }

    pub fn set_countermove(&mut self, slot: Option<usize>, mv: Move) {
        if let Some(s) = slot {
            self.countermoves[s] = mv;
        }
    }

    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
    }
}

/// Whether a move takes an enemy piece.
#[inline]
pub fn is_capture<B: BitSet>(pos: &Position<B>, mv: Move) -> bool {
    match mv.kind() {
        MoveKind::EnPassant => true,
        MoveKind::Drop | MoveKind::Castle | MoveKind::Pass | MoveKind::Merge => false,
        _ => pos
            .piece_at(mv.to())
            .is_some_and(|p| p.player() != pos.side),
    }
}

/// Material a move wins at once: the victim and any promotion gain.
pub fn material_gain<B: BitSet>(ev: &Evaluator<B>, pos: &Position<B>, mv: Move) -> i32 {
    let us = pos.side;
    let mut gain = match mv.kind() {
        MoveKind::EnPassant => pos
            .piece_at(mv.from())
            .map_or(0, |p| ev.value(us, p.kind())),
        MoveKind::Drop | MoveKind::Castle | MoveKind::Pass | MoveKind::Merge => 0,
        _ => pos
            .piece_at(mv.to())
            .filter(|p| p.player() != us)
            .map_or(0, |p| ev.value(p.player(), p.kind())),
    };
    if mv.kind() == MoveKind::Promotion {
        if let Some(p) = pos.piece_at(mv.from()) {
            gain += ev.value(us, mv.piece_kind()) - ev.value(us, p.kind());
        }
    }
    gain
}

/// The value of the piece making the move.
pub fn mover_value<B: BitSet>(ev: &Evaluator<B>, pos: &Position<B>, mv: Move) -> i32 {
    match mv.kind() {
        MoveKind::Drop => ev.value(pos.side, mv.piece_kind()),
        _ => pos
            .piece_at(mv.from())
            .map_or(0, |p| ev.value(p.player(), p.kind())),
    }
}

pub const HASH_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: [i32; 2] = [(1 << 27) + 1, 1 << 27];
const COUNTER: i32 = (1 << 27) - 1;
const BAD_CAPTURE: i32 = -(1 << 28);

/// Ordering keys for the moves of one node.
pub struct Ranker<'a, B: BitSet> {
    pub t: &'a Tables<B>,
    pub ev: &'a Evaluator<B>,
    pub hash_move: Move,
    pub killers: [Move; 2],
    pub counter: Move,
    /// The slots of the opponent's last move and of our move before it.
    pub context: [Option<usize>; 2],
}

impl<B: BitSet> Ranker<'_, B> {
    pub fn score(&self, data: &ThreadData, pos: &Position<B>, mv: Move) -> i32 {
        if mv == self.hash_move {
            return HASH_MOVE;
        }
        let us = pos.side.index();
        let capture = is_capture(pos, mv);
        if capture || mv.kind() == MoveKind::Promotion {
            let gain = material_gain(self.ev, pos, mv);
            let mut mvv_lva = gain * 16 - mover_value(self.ev, pos, mv) / 16;
            if capture {
                // Half the history's range is worth about five pawns of victim: it orders
                // captures of similar gain, and seldom a far smaller victim first.
                mvv_lva += data.capture_score(data.capture_index(pos, mv)) / 2;
            }
            return if see_at_least(self.t, self.ev, pos, mv, 0) {
                GOOD_CAPTURE + mvv_lva
            } else {
                BAD_CAPTURE + mvv_lva
            };
        }
        if mv == self.killers[0] {
            return KILLER[0];
        }
        if mv == self.killers[1] {
            return KILLER[1];
        }
        if mv == self.counter {
            return COUNTER;
        }
        data.quiet_score(data.slot(us, moving_kind(pos, mv), mv.to()), self.context)
    }
}

/// The kind that moves (or is dropped).
#[inline]
pub fn moving_kind<B: BitSet>(pos: &Position<B>, mv: Move) -> Kind {
    match mv.kind() {
        MoveKind::Drop => mv.piece_kind(),
        _ => pos.piece_at(mv.from()).map_or(Kind(0), |p| p.kind()),
    }
}

/// Picks the best-ranked remaining move to the front (selection sort, one step): cheap when
/// a cut-off comes early, as it usually does.
#[inline]
pub fn pick_next(moves: &mut [(Move, i32)], i: usize) -> Move {
    // The first of the highest, as an index loop would find it, but with the best score in
    // hand and no bounds checks in the loop.
    let (mut best, mut best_score) = (i, moves[i].1);
    for (j, &(_, score)) in moves.iter().enumerate().skip(i + 1) {
        if score > best_score {
            (best, best_score) = (j, score);
        }
    }
    moves.swap(i, best);
    moves[i].0
}

/// Collects only captures and promotions (quiescence search) from the legal generator.
pub struct TacticalSink<'a, B: BitSet> {
    pub enemies: B,
    pub out: &'a mut Vec<(Move, i32)>,
}

impl<B: BitSet> MoveSink<B> for TacticalSink<'_, B> {
    fn targets(&mut self, from: Cell, targets: B, promo: Option<&Promotion<B>>) {
        let captures = targets & self.enemies;
        match promo {
            None => {
                for to in captures.cells() {
                    self.out.push((Move::normal(from, to), 0));
                }
            }
            Some(p) => {
                // Every move onto a promotion cell is tactical; a plain capture elsewhere too.
                let promoting = if p.may_from.contains(from) {
                    targets
                } else {
                    targets & (p.must_to | p.may_to)
                };
                for to in (captures | promoting).cells() {
                    let can_promote = promoting.contains(to);
                    if !p.must_to.contains(to) {
                        self.out.push((Move::normal(from, to), 0));
                    }
                    if can_promote {
                        for &k in &p.choices {
                            self.out.push((Move::promotion(from, to, k), 0));
                        }
                    }
                }
            }
        }
    }
    fn drops(&mut self, _: Kind, _: B) {}
    fn push(&mut self, m: Move) {
        let tactical = match m.kind() {
            MoveKind::EnPassant | MoveKind::Promotion => true,
            MoveKind::Castle | MoveKind::Merge | MoveKind::Drop | MoveKind::Pass => false,
            _ => self.enemies.contains(m.to()),
        };
        if tactical {
            self.out.push((m, 0));
        }
    }
}

/// Every legal move into a reusable buffer.
pub struct AllSink<'a> {
    pub out: &'a mut Vec<(Move, i32)>,
}

impl<B: BitSet> MoveSink<B> for AllSink<'_> {
    fn targets(&mut self, from: Cell, targets: B, promo: Option<&Promotion<B>>) {
        for to in targets.cells() {
            match promo {
                Some(p) if p.must_to.contains(to) => {
                    for &k in &p.choices {
                        self.out.push((Move::promotion(from, to, k), 0));
                    }
                }
                Some(p) if p.may_to.contains(to) || p.may_from.contains(from) => {
                    self.out.push((Move::normal(from, to), 0));
                    for &k in &p.choices {
                        self.out.push((Move::promotion(from, to, k), 0));
                    }
                }
                _ => self.out.push((Move::normal(from, to), 0)),
            }
        }
    }
    fn drops(&mut self, kind: Kind, targets: B) {
        for to in targets.cells() {
            self.out.push((Move::drop(kind, to), 0));
        }
    }
    fn push(&mut self, m: Move) {
        self.out.push((m, 0));
    }
}

#[cfg(test)]
mod tests {
    use super::{saturating_update, HISTORY_MAX};

    #[test]
    fn history_entries_saturate_within_their_bound_and_fit_i16() {
        let mut h = 0;
        for _ in 0..200 {
            h = saturating_update(h, 3 * HISTORY_MAX);
            assert!((0..=HISTORY_MAX).contains(&h) && h <= i16::MAX as i32);
        }
        assert_eq!(h, HISTORY_MAX);
        let lowered = saturating_update(h, -1000);
        assert!(lowered < h && lowered > 0);
        let mut low = 0;
        for _ in 0..200 {
            low = saturating_update(low, -5000);
        }
        assert!((-HISTORY_MAX..-HISTORY_MAX * 9 / 10).contains(&low));
    }
}
