//! How a position changes: an empty board, pieces put and removed, moves made and the rule
//! events after them, with the Zobrist key kept up to date. These need the compiled tables
//! (keys, rules), which build on the position type, so they live apart from it.

use super::{EnPassant, Position};
use crate::bitboard::BitSet;
use crate::geometry::Cell;
use crate::movegen::tables::Tables;
use crate::moves::{Move, MoveKind};
use crate::piece::{Kind, Piece, Player, MAX_KINDS};

impl<B: BitSet> Position<B> {
    /// An empty board with `players` players, first player to move.
    pub fn empty(t: &Tables<B>) -> Self {
        let mut p = Position {
            mailbox: B::empty_mailbox(),
            by_player: [B::empty(); 4],
            by_kind: [B::empty(); MAX_KINDS],
            occupied: B::empty(),
            hands: [[0; MAX_KINDS]; 2],
            side: Player(0),
            castling: 0,
            ep: [None; 4],
            halfmove: 0,
            fullmove: 1,
            alive: ((1u16 << t.players()) - 1) as u8,
            winner: None,
            hash: 0,
        };
        p.hash = p.compute_hash(t);
        p
    }

    pub fn put(&mut self, t: &Tables<B>, c: Cell, piece: Piece) {
        debug_assert!(self.piece_at(c).is_none());
        self.mailbox.as_mut()[c.index()] = piece.to_byte();
        self.by_player[piece.player().index()].set(c);
        self.by_kind[piece.kind().index()].set(c);
        self.occupied.set(c);
        self.hash ^= t.zobrist.piece_key(piece.code(), c, t.cells);
    }

    pub fn remove(&mut self, t: &Tables<B>, c: Cell) -> Option<Piece> {
        let piece = self.piece_at(c)?;
        self.mailbox.as_mut()[c.index()] = 0;
        self.by_player[piece.player().index()].clear(c);
        self.by_kind[piece.kind().index()].clear(c);
        self.occupied.clear(c);
        self.hash ^= t.zobrist.piece_key(piece.code(), c, t.cells);
        Some(piece)
    }

    pub fn add_to_hand(&mut self, t: &Tables<B>, p: Player, k: Kind, delta: i8) {
        let n = &mut self.hands[p.index()][k.index()];
        self.hash ^= t.zobrist.hand_key(p, k, *n);
        *n = (*n as i16 + delta as i16).clamp(0, u8::MAX as i16) as u8;
        self.hash ^= t.zobrist.hand_key(p, k, *n);
    }

    pub fn set_castling(&mut self, t: &Tables<B>, rights: u8) {
        for i in 0..8 {
            if (self.castling ^ rights) >> i & 1 != 0 {
                self.hash ^= t.zobrist.castling[i];
            }
        }
        self.castling = rights;
    }

    pub fn set_ep(&mut self, t: &Tables<B>, owner: Player, ep: Option<EnPassant>) {
        if let Some(old) = self.ep[owner.index()] {
            self.hash ^= t.zobrist.ep[old.skipped.index()];
        }
        if let Some(new) = ep {
            self.hash ^= t.zobrist.ep[new.skipped.index()];
        }
        self.ep[owner.index()] = ep;
    }

    pub fn set_side(&mut self, t: &Tables<B>, p: Player) {
        self.hash ^= t.zobrist.side[self.side.index()] ^ t.zobrist.side[p.index()];
        self.side = p;
    }

    /// Removes a player from play (Armies of Faith elimination).
    pub fn set_alive(&mut self, t: &Tables<B>, p: Player, alive: bool) {
        if self.is_alive(p) != alive {
            self.alive ^= 1 << p.0;
            self.hash ^= t.zobrist.alive[p.index()];
        }
    }

    /// The hash from scratch (for parsing and for checking the incremental one).
    pub fn compute_hash(&self, t: &Tables<B>) -> u64 {
        let mut h = t.zobrist.side[self.side.index()];
        for c in self.occupied.cells() {
            h ^= t
                .zobrist
                .piece_key(self.piece_at(c).unwrap().code(), c, t.cells);
        }
        for (p, hand) in self.hands.iter().enumerate() {
            for (k, &n) in hand.iter().enumerate() {
                h ^= t.zobrist.hand_key(Player(p as u8), Kind(k as u8), n);
            }
        }
        for i in 0..8 {
            if self.castling >> i & 1 != 0 {
                h ^= t.zobrist.castling[i];
            }
        }
        for ep in self.ep.iter().flatten() {
            h ^= t.zobrist.ep[ep.skipped.index()];
        }
        for p in 0..4 {
            if self.alive >> p & 1 == 0 {
                h ^= t.zobrist.alive[p];
            }
        }
        h
    }

    /// The player who moves after `p` (skipping eliminated players).
    pub fn next_player(&self, t: &Tables<B>, p: Player) -> Player {
        let n = t.players() as u8;
        (1..=n)
            .map(|i| Player((p.0 + i) % n))
            .find(|&q| self.is_alive(q))
            .unwrap_or(p)
    }

    /// The position after `mv`, which must be legal (or at least pseudo-legal) here.
    #[inline]
    pub fn play(&self, t: &Tables<B>, mv: Move) -> Self {
        let mut next = *self;
        next.apply(t, mv);
        next
    }

    /// The position after `mv` alone, without the rule events that may follow it (what
    /// legality tests look at).
    #[inline]
    pub fn play_raw(&self, t: &Tables<B>, mv: Move) -> Self {
        let mut next = *self;
        next.apply_move(t, mv);
        next
    }

    /// Makes `mv` in place, then the automatic events that happen before the next player
    /// moves (Armies of Faith checkmates). Perft, search and games all move through here.
    #[inline]
    pub fn apply(&mut self, t: &Tables<B>, mv: Move) {
        self.apply_move(t, mv);
        if let Some(after_move) = t.rules.after_move {
            after_move(t, self);
        }
    }

    /// Makes `mv` in place and passes the turn, with no rule events.
    pub fn apply_move(&mut self, t: &Tables<B>, mv: Move) {
        let us = self.side;
        let ep_before = self.ep;
        if t.players() == 2 {
            // In two-player games an e.p. target lives for exactly one reply.
            for p in 0..2 {
                self.set_ep(t, Player(p), None);
            }
        } else {
            self.set_ep(t, us, None);
        }
        let mut reset_clock = false;
        match mv.kind() {
            MoveKind::Pass => {}
            MoveKind::Drop => {
                let k = mv.piece_kind();
                self.add_to_hand(t, us, k, -1);
                self.put(t, mv.to(), Piece::new(us, k));
            }
            MoveKind::Castle => self.apply_castle(t, mv, us),
            _ => reset_clock = self.apply_board_move(t, mv, us, ep_before),
        }
        self.halfmove = if reset_clock { 0 } else { self.halfmove + 1 };
        let next = self.next_player(t, us);
        if next <= us {
            self.fullmove += 1;
        }
        self.set_side(t, next);
    }

    /// A castling move: the King and its partner move (taking their morphed kinds), and the
    /// castler's castling rights are gone.
    #[inline(always)]
    fn apply_castle(&mut self, t: &Tables<B>, mv: Move, us: Player) {
        let variant = &t.variant;
        let c = &variant.castlings[mv.extra() as usize];
        let king = self.remove(t, c.king_from).expect("castling king");
        let partner = self.remove(t, c.partner_from).expect("castling partner");
        self.put(
            t,
            c.king_to,
            Piece::new(us, variant.morph_of(us, king.kind())),
        );
        self.put(
            t,
            c.partner_to,
            Piece::new(us, variant.morph_of(us, partner.kind())),
        );
        let keep = variant
            .castlings
            .iter()
            .enumerate()
            .filter(|(_, c)| c.player == us)
            .fold(0xffu8, |acc, (i, _)| acc & !(1 << i));
        self.set_castling(t, self.castling & keep);
    }

    /// A move from one cell to another (plain, capture, en passant, double step, promotion,
    /// merger): the capture, the piece's new kind, the new e.p. target and the castling
    /// rights the two cells take away. Whether it resets the move-count clock.
    #[inline(always)]
    fn apply_board_move(
        &mut self,
        t: &Tables<B>,
        mv: Move,
        us: Player,
        ep_before: [Option<EnPassant>; 4],
    ) -> bool {
        let variant = &t.variant;
        let mut reset_clock = false;
        let (from, to) = (mv.from(), mv.to());
        let piece = self.remove(t, from).expect("a piece on the from-cell");
        let victim_cell = if mv.kind() == MoveKind::EnPassant {
            ep_before
                .iter()
                .enumerate()
                .filter(|&(owner, _)| owner != us.index())
                .filter_map(|(_, e)| *e)
                .find(|e| e.skipped == to)
                .map(|e| e.victim)
        } else {
            Some(to)
        };
        if let Some(captured) = victim_cell.and_then(|c| self.remove(t, c)) {
            reset_clock = true;
            self.capture_to_hand(t, us, captured);
            for p in 0..4 {
                if self.ep[p].is_some_and(|e| victim_cell == Some(e.victim)) {
                    self.set_ep(t, Player(p as u8), None);
                }
            }
        }
        let kind = match mv.kind() {
            MoveKind::Promotion | MoveKind::Merge => mv.piece_kind(),
            MoveKind::EnPassant if mv.ep_promotion().is_some() => mv.ep_promotion().unwrap(),
            _ => variant.morph_of(us, piece.kind()),
        };
        if mv.kind() == MoveKind::Merge {
            // The ally on the destination is absorbed into the new piece.
            self.remove(t, to);
        }
        self.put(t, to, Piece::new(us, kind));
        reset_clock |= t.kind(us, piece.kind()).pawn;
        if mv.kind() == MoveKind::DoubleStep {
            let skipped = t.kind(us, piece.kind()).double_steps[from.index()]
                .iter()
                .find(|&&(_, dest)| dest == to)
                .map(|&(s, _)| s)
                .expect("double step");
            self.set_ep(
                t,
                us,
                Some(EnPassant {
                    skipped,
                    victim: to,
                }),
            );
        }
        let keep = t.castle_keep[from.index()] & t.castle_keep[to.index()];
        if self.castling & !keep != 0 {
            self.set_castling(t, self.castling & keep);
        }
        reset_clock
    }

    fn capture_to_hand(&mut self, t: &Tables<B>, captor: Player, captured: Piece) {
        if let Some(drops) = &t.variant.drops {
            if let Some(k) = drops
                .to_hand
                .get(captured.kind().index())
                .copied()
                .flatten()
            {
                if captor.index() < self.hands.len() {
                    self.add_to_hand(t, captor, k, 1);
                }
            }
        }
    }

    /// The royal pieces of `p`.
    pub fn royals(&self, t: &Tables<B>, p: Player) -> B {
        t.royal_kinds
            .iter()
            .fold(B::empty(), |acc, &k| acc | self.pieces(p, k))
    }
}
