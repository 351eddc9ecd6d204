//! Static evaluation for every game family. The evaluation is a sum of weighted counts: each
//! term ([`params`]) asks the position how often something holds for a player — pieces of a
//! kind, cells a piece can move to, enemy pieces it threatens, cells around an enemy King it
//! attacks, checks it could give from cells the enemy does not cover, passed pawns by how far they have come — and multiplies by a (middlegame,
//! endgame) weight. The counts are written once, over a [`Sink`]: scoring adds the weights,
//! the tuner's [`trace`] records the counts. Weights are tuned per family (`weights/`, handed
//! over by the family's descriptor as a [`FamilyEval`]) or
//! derived from the pieces' moves ([`defaults`]). Scores are per player and combined
//! relative to the side to move, so nothing here assumes two players except the final "us
//! minus the best opponent".

pub mod attacks;
pub mod defaults;
pub mod family;
pub mod keys;
pub mod params;
pub mod pawns;
pub mod trace;
pub mod utility;
pub mod values;

use crate::bitboard::BitSet;
use crate::geometry::Cell;
use crate::movegen::tables::Tables;
use crate::piece::{Kind, Player};
use crate::position::Position;
use crate::variant::RoyalRule;
use arrayvec::ArrayVec;
use attacks::{captures_by_leaps_only, leap_attacks, reach};
pub use family::FamilyEval;
use keys::Keys;
use params::{family_weights, Global, Param, PerKind, Tapered, Weights};
use pawns::PawnGeometry;
use values::{cell_parity, mobility};

const MOP_UP_EDGE: i32 = 12;
const MOP_UP_CLOSE: i32 = 6;
/// Pieces attacking the cells around a King count up to this many times.
const MAX_KING_ATTACKERS: i32 = 4;

/// Where the evaluation's counts go.
pub trait Sink {
    /// Whether the sink keeps only each player's weighted sum. Such a sink gets a piece's own
    /// terms (value, square, centre, advance) as one pre-weighted table entry per piece through
    /// [`Sink::add_weighted`] instead of one count per weight: the same sum, fewer steps.
    const WEIGHTED: bool = false;

    /// `count` more of `param` for `player`.
    fn add(&mut self, player: Player, param: Param, count: i32);

    /// `sum` more for `player`, already weighted. Called only on sinks that are [`Sink::WEIGHTED`].
    fn add_weighted(&mut self, player: Player, sum: Tapered) {
        unreachable!("weighted sum {sum:?} for {player:?} sent to a counting sink");
    }
}

/// The scoring sink: weights times counts, per player.
struct Scorer<'a> {
    weights: &'a [Tapered],
    totals: [Tapered; 4],
}

impl Sink for Scorer<'_> {
    const WEIGHTED: bool = true;

    #[inline]
    fn add(&mut self, player: Player, param: Param, count: i32) {
        self.totals[player.index()] += self.weights[param.index()] * count;
    }

    #[inline]
    fn add_weighted(&mut self, player: Player, sum: Tapered) {
        self.totals[player.index()] += sum;
    }
}

/// Per-kind knowledge of one player.
#[derive(Clone, Debug)]
struct KindInfo {
    /// Middlegame material value (move ordering, exchanges, phase).
    value: i32,
    pawn: bool,
    royal: bool,
    colour_bound: bool,
    /// Captures only by plain leaps: its attacks are one table lookup.
    leap_captures: bool,
}

/// Whether a kind counts as material that can mate or build threats.
fn is_piece(info: &KindInfo) -> bool {
    !info.pawn && !info.royal
}

/// A set of kinds, one bit per kind index ([`crate::piece::MAX_KINDS`] is 32).
#[derive(Clone, Copy, Debug, Default)]
struct KindSet(u32);

impl Iterator for KindSet {
    type Item = Kind;

    /// The kinds in index order.
    fn next(&mut self) -> Option<Kind> {
        let k = (self.0 != 0).then(|| Kind(self.0.trailing_zeros() as u8));
        self.0 &= self.0.wrapping_sub(1);
        k
    }
}

/// What the final combination needs besides the weighted sums.
#[derive(Clone, Copy, Debug, Default)]
struct Material {
    /// Non-pawn, non-royal material per player.
    pieces: [i32; 4],
    pawns: [u32; 4],
}

/// Evaluation knowledge compiled for one variant.
pub struct Evaluator<B: BitSet> {
    players: usize,
    weights: Weights,
    kinds: Vec<Vec<KindInfo>>,
    /// Per player: the kinds that are pawns.
    pawn_kinds: Vec<Vec<Kind>>,
    /// Per player and kind: the kind a piece becomes when it moves (Cyclical Armies), if any.
    next_kind: Vec<Vec<Option<Kind>>>,
    kinds_per_player: usize,
    cells: usize,
    /// Empty-board targets of each (player, kind) from each cell, less the kind's average
    /// (so that the value weight is the worth on an average cell):
    /// `[(p * kinds + k) * cells + c]`.
    square: Vec<i8>,
    /// Steps from the edge towards the centre, per cell.
    centrality: Vec<u8>,
    /// Eighths of the board advanced, per player and cell.
    progress: Vec<Vec<u8>>,
    parity: Vec<u8>,
    /// What a piece's own terms add up to on each cell, weighted: its value and what it
    /// becomes (royals: neither), and its square, centre and advance counts times their
    /// weights, `[(p * kinds + k) * cells + c]`. Made from the weights by [`Self::compile_placement`].
    placement: Vec<Tapered>,
    pawns: Vec<PawnGeometry<B>>,
    /// Distance of each cell from the board centre (Chebyshev, in half-cells).
    centre_distance: Vec<u8>,
    /// The cells next to each cell (a King's surroundings).
    near: Vec<B>,
    /// Two players only: what each (player, kind) attacks from each cell on an empty board,
    /// `[(p * kinds + k) * cells + c]`. Blockers only take cells away, so a piece's real
    /// attacks lie inside these and most safe-check counts end without tracing a slide.
    empty_board_attacks: Vec<B>,
    /// Non-pawn, non-royal material of all players at the start: the phase scale.
    start_material: i32,
    /// Under the lone-royal rule (SwDA) every royal beyond the first is a spare that may be
    /// lost, worth the royal kind's value weight.
    lone_royal_rule: bool,
    /// Whether any mobility, threat or King-attack weight is set: without one, the pass over
    /// every piece's reach is skipped.
    activity: bool,
}

impl<B: BitSet> Evaluator<B> {
    /// The evaluator with the family's tuned weights over the derived defaults.
    pub fn new(t: &Tables<B>) -> Evaluator<B> {
        let mut weights = Weights::zero(&t.variant);
        defaults::apply(t, &mut weights);
        let tuned = weights
            .apply_text(family_weights(t.variant.family))
            .unwrap_or_else(|e| panic!("compiled-in weights of {:?}: {e}", t.variant.family));
        let values_tuned = tuned.iter().any(|&p| weights.name(p).starts_with("value."));
        let mut ev = Evaluator::with_weights(t, weights);
        if !values_tuned {
            ev.balance_armies(t);
        }
        ev
    }

    /// The evaluator with exactly these weights (the tuner's view).
    pub fn with_weights(t: &Tables<B>, weights: Weights) -> Evaluator<B> {
        let players = t.players();
        let nk = t.variant.pieces.len();
        let shape = &t.shape;
        let centre_distance: Vec<u8> = shape
            .all_cells()
            .map(|c| {
                let (x, y, z) = shape.coords(c);
                let d = |v: i32, n: u8| (2 * v - (n as i32 - 1)).unsigned_abs() as u8;
                d(x, shape.files)
                    .max(d(y, shape.ranks))
                    .max(d(z, shape.levels))
            })
            .collect();
        let far = centre_distance.iter().copied().max().unwrap_or(0);
        let (kinds, square) = kind_infos(t, &weights);
        let pawn_kinds = kinds
            .iter()
            .map(|infos: &Vec<KindInfo>| {
                (0..nk)
                    .filter(|&k| infos[k].pawn)
                    .map(|k| Kind(k as u8))
                    .collect()
            })
            .collect();
        let mut ev = Evaluator {
            players,
            weights,
            kinds,
            pawn_kinds,
            next_kind: (0..players)
                .map(|p| {
                    t.variant
                        .kinds()
                        .map(|k| {
                            let next = t.variant.morph_of(Player(p as u8), k);
                            (!t.variant.morph.is_empty() && !t.variant.kind(k).royal)
                                .then_some(next)
                        })
                        .collect()
                })
                .collect(),
            kinds_per_player: nk,
            cells: t.cells,
            square,
            centrality: centre_distance.iter().map(|&d| (far - d) / 2).collect(),
            progress: (0..players)
                .map(|p| {
                    shape
                        .all_cells()
                        .map(|c| pawns::own_progress(t, Player(p as u8), c))
                        .collect()
                })
                .collect(),
            parity: shape.all_cells().map(|c| cell_parity(t, c)).collect(),
            placement: Vec::new(),
            pawns: (0..players)
                .map(|p| PawnGeometry::new(t, Player(p as u8)))
                .collect(),
            near: near_sets(t),
            empty_board_attacks: if players == 2 {
                empty_board_attacks(t)
            } else {
                Vec::new()
            },
            centre_distance,
            start_material: 1,
            lone_royal_rule: t.variant.royal_rule == RoyalRule::LoneRoyalOnly,
            activity: false,
        };
        ev.activity = ev.has_activity_weights(t);
        ev.start_material = ev.start_piece_material(t).max(1);
        ev.compile_placement();
        ev
    }

    /// Fills [`Self::placement`] from the weights; again whenever a weight changes.
    fn compile_placement(&mut self) {
        let w = &self.weights;
        let nk = self.kinds_per_player;
        let mut placement = Vec::with_capacity(self.players * nk * self.cells);
        for (pi, infos) in self.kinds.iter().enumerate() {
            for (k, info) in infos.iter().enumerate() {
                let kind = Kind(k as u8);
                let mut own = Tapered::ZERO;
                if !info.royal {
                    own += w.get(w.per_kind(PerKind::Value, kind));
                    if let Some(next) = self.next_kind[pi][k] {
                        own += w.get(w.per_kind(PerKind::Becomes, next));
                    }
                }
                let (square, centre, advance) = (
                    w.get(w.per_kind(PerKind::Square, kind)),
                    w.get(w.per_kind(PerKind::Centre, kind)),
                    w.get(w.per_kind(PerKind::Advance, kind)),
                );
                let base = (pi * nk + k) * self.cells;
                for c in 0..self.cells {
                    placement.push(
                        own + square * self.square[base + c] as i32
                            + centre * self.centrality[c] as i32
                            + advance * self.progress[pi][c] as i32,
                    );
                }
            }
        }
        self.placement = placement;
    }

    fn has_activity_weights(&self, t: &Tables<B>) -> bool {
        let w = &self.weights;
        let threats = [
            Global::ThreatByPawn,
            Global::ThreatByLesser,
            Global::Hanging,
        ]
        .iter()
        .any(|&g| w.get(w.global(g)) != Tapered::ZERO);
        threats
            || t.variant.kinds().any(|k| {
                w.get(w.per_kind(PerKind::Mobility, k)) != Tapered::ZERO
                    || w.get(w.per_kind(PerKind::KingAttack, k)) != Tapered::ZERO
                    || w.get(w.per_kind(PerKind::SafeCheck, k)) != Tapered::ZERO
            })
    }

    fn start_piece_material(&self, t: &Tables<B>) -> i32 {
        crate::position::fen::parse(t, &t.variant.start_position).map_or(0, |pos| {
            (0..self.players)
                .map(|p| self.piece_material(&pos, Player(p as u8)))
                .sum()
        })
    }

    /// Scales each player's piece values so that every army's starting material is the same.
    /// Used only where no tuned values say otherwise: the armies are designed to be equally
    /// strong, but the published values add up to different totals (CwDA: FIDE 32.5,
    /// Clobberers 33.75 pawns); taken literally, the engine would think one side better from
    /// the first move.
    fn balance_armies(&mut self, t: &Tables<B>) {
        let Ok(start) = crate::position::fen::parse(t, &t.variant.start_position) else {
            return;
        };
        let totals: Vec<i32> = (0..self.players)
            .map(|p| self.piece_material(&start, Player(p as u8)))
            .collect();
        if totals.iter().any(|&m| m <= 0) || self.players != 2 {
            return;
        }
        // The two armies' kinds are scaled in the shared weight vector: only kinds that one
        // army alone has on the board at the start can be scaled for that army.
        let mean = totals.iter().sum::<i32>() as f64 / self.players as f64;
        for (p, &total) in totals.iter().enumerate() {
            let factor = mean / total as f64;
            let player = Player(p as u8);
            let other = Player(1 - p as u8);
            for k in t.variant.kinds() {
                let own = start.pieces(player, k).any();
                let theirs = start.pieces(other, k).any();
                if !own || theirs || !is_piece(&self.kinds[p][k.index()]) {
                    continue;
                }
                let param = self.weights.per_kind(PerKind::Value, k);
                let v = self.weights.get(param);
                let scale = |x: i32| (x as f64 * factor).round() as i32;
                self.weights
                    .set(param, Tapered::new(scale(v.mg), scale(v.eg)));
                for infos in &mut self.kinds {
                    infos[k.index()].value = scale(v.mg);
                }
            }
        }
        self.start_material = self.start_piece_material(t).max(1);
        self.compile_placement();
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The value of a piece kind of player `p` (0 for royals).
    #[inline]
    pub fn value(&self, p: Player, k: Kind) -> i32 {
        self.kinds[p.index()][k.index()].value
    }

    pub fn is_pawn(&self, p: Player, k: Kind) -> bool {
        self.kinds[p.index()][k.index()].pawn
    }

    /// Non-pawn, non-royal material of `p`.
    pub fn piece_material(&self, pos: &Position<B>, p: Player) -> i32 {
        self.kinds[p.index()]
            .iter()
            .enumerate()
            .filter(|(_, i)| is_piece(i))
            .map(|(k, i)| i.value * pos.pieces(p, Kind(k as u8)).count() as i32)
            .sum()
    }

    /// Static score in centipawns from the side to move's point of view.
    pub fn evaluate(&self, t: &Tables<B>, pos: &Position<B>) -> i32 {
        let mut scorer = Scorer {
            weights: &self.weights.values,
            totals: [Tapered::ZERO; 4],
        };
        let material = self.collect(t, pos, &mut scorer);
        let phase = self.phase(&material);
        let mut score = [0i32; 4];
        for (p, s) in score.iter_mut().enumerate().take(self.players) {
            *s = scorer.totals[p].taper(phase);
        }
        self.mop_up(t, pos, &material, &mut score);
        let us = pos.side.index();
        let s = score[us] - self.best_other(pos, &score).map_or(0, |p| score[p]);
        s / self.damping(pos, &material, s, &score)
    }

    /// Phase 256 = all pieces on, 0 = no pieces left.
    fn phase(&self, m: &Material) -> i32 {
        (m.pieces.iter().sum::<i32>() * 256 / self.start_material).clamp(0, 256)
    }

    fn best_other(&self, pos: &Position<B>, score: &[i32; 4]) -> Option<usize> {
        (0..self.players)
            .filter(|&p| p != pos.side.index() && pos.is_alive(Player(p as u8)))
            .max_by_key(|&p| score[p])
    }

    /// Without pawns, a lead of one minor piece or less rarely wins: the divisor that damps it.
    fn damping(&self, pos: &Position<B>, m: &Material, s: i32, score: &[i32; 4]) -> i32 {
        let leader = if s > 0 {
            pos.side.index()
        } else {
            self.best_other(pos, score).unwrap_or(0)
        };
        if m.pawns[leader] == 0 && m.pieces[leader] <= 400 {
            8
        } else {
            1
        }
    }

    /// Every count of the evaluation, into `sink`; returns the material the combination needs.
    fn collect<S: Sink>(&self, t: &Tables<B>, pos: &Position<B>, sink: &mut S) -> Material {
        let mut material = Material::default();
        let w = &self.weights;
        let mut valuable = [B::empty(); 4];
        let mut pawns = [B::empty(); 4];
        let mut held = [KindSet::default(); 4];
        for p in self.alive(pos) {
            pawns[p.index()] = self.pawn_set(pos, p);
            held[p.index()] = self.kinds_held(pos, p);
        }
        for p in self.alive(pos) {
            let (pi, kinds) = (p.index(), held[p.index()]);
            self.material_and_squares(pos, p, kinds, sink, &mut material, &mut valuable[pi]);
            self.pawn_terms(t, pos, p, &pawns, sink);
        }
        if self.activity {
            self.activity(t, pos, &held, &pawns, &valuable, sink);
        }
        sink.add(pos.side, w.global(Global::Tempo), 1);
        material
    }

    /// The kinds `p` has on the board or in hand, one bit per kind. Most of a variant's kinds
    /// are absent (a CwDA variant knows all four armies' pieces): the per-kind loops visit
    /// only these.
    fn kinds_held(&self, pos: &Position<B>, p: Player) -> KindSet {
        let mine = pos.by_player[p.index()];
        let hand = pos.hands.get(p.index());
        let mut held = 0u32;
        for (k, &on_board) in pos.by_kind[..self.kinds_per_player].iter().enumerate() {
            if (on_board & mine).any() || hand.is_some_and(|h| h[k] > 0) {
                held |= 1 << k;
            }
        }
        KindSet(held)
    }

    fn alive<'p>(&self, pos: &'p Position<B>) -> impl Iterator<Item = Player> + 'p {
        (0..self.players as u8)
            .map(Player)
            .filter(|&p| pos.is_alive(p))
    }

    /// Material, hands and the piece-square counts of player `p`.
    fn material_and_squares<S: Sink>(
        &self,
        pos: &Position<B>,
        p: Player,
        held: KindSet,
        sink: &mut S,
        material: &mut Material,
        valuable: &mut B,
    ) {
        let w = &self.weights;
        let mut colours = [false; 2];
        let pi = p.index();
        for kind in held {
            let (k, info) = (kind.index(), &self.kinds[pi][kind.index()]);
            let in_hand = pos.hand(p, kind);
            if in_hand > 0 {
                sink.add(p, w.per_kind(PerKind::Hand, kind), in_hand as i32);
            }
            let bb = pos.pieces(p, kind);
            if bb.is_empty() {
                continue;
            }
            let n = bb.count() as i32;
            if info.royal && self.lone_royal_rule && n > 1 {
                // Spare royals under the lone-royal rule are material that may be lost.
                sink.add(p, w.per_kind(PerKind::Value, kind), n - 1);
            }
            if S::WEIGHTED {
                let base = (pi * self.kinds_per_player + k) * self.cells;
                let placed = bb.cells().map(|c| self.placement[base + c.index()]);
                sink.add_weighted(p, placed.fold(Tapered::ZERO, |a, b| a + b));
            } else {
                self.count_placement(p, kind, bb, sink);
            }
            if info.colour_bound {
                for c in bb.cells() {
                    colours[self.parity[c.index()] as usize] = true;
                }
            }
            if is_piece(info) {
                material.pieces[pi] += info.value * n;
                *valuable |= bb;
            }
            if info.pawn {
                material.pawns[pi] += n as u32;
            }
        }
        if colours[0] && colours[1] {
            sink.add(p, w.global(Global::ColourPair), 1);
        }
    }

    /// The counts behind one entry of [`Self::placement`] for each of `p`'s pieces of `kind`
    /// on `bb`: its value (and what it becomes) and its square, centre and advance.
    fn count_placement<S: Sink>(&self, p: Player, kind: Kind, bb: B, sink: &mut S) {
        let (w, pi, k) = (&self.weights, p.index(), kind.index());
        let n = bb.count() as i32;
        if !self.kinds[pi][k].royal {
            sink.add(p, w.per_kind(PerKind::Value, kind), n);
            if let Some(next) = self.next_kind[pi][k] {
                sink.add(p, w.per_kind(PerKind::Becomes, next), n);
            }
        }
        let base = (pi * self.kinds_per_player + k) * self.cells;
        let (mut square, mut centre, mut advance) = (0, 0, 0);
        for c in bb.cells() {
            square += self.square[base + c.index()] as i32;
            centre += self.centrality[c.index()] as i32;
            advance += self.progress[pi][c.index()] as i32;
        }
        sink.add(p, w.per_kind(PerKind::Square, kind), square);
        sink.add(p, w.per_kind(PerKind::Centre, kind), centre);
        sink.add(p, w.per_kind(PerKind::Advance, kind), advance);
    }

    /// Doubled, isolated and passed pawns, and the pawn shield of a lone royal.
    fn pawn_terms<S: Sink>(
        &self,
        t: &Tables<B>,
        pos: &Position<B>,
        p: Player,
        pawns: &[B; 4],
        sink: &mut S,
    ) {
        let w = &self.weights;
        let own = pawns[p.index()];
        if own.any() {
            let enemy = others(pawns, p.index());
            let counts = self.pawns[p.index()].counts(own, enemy);
            sink.add(p, w.global(Global::DoubledPawn), counts.doubled);
            sink.add(p, w.global(Global::IsolatedPawn), counts.isolated);
            for (step, &n) in counts.passed.iter().enumerate().skip(1) {
                if n > 0 {
                    sink.add(p, w.global(Global::PassedPawn(step as u8)), n);
                }
            }
        }
        let royals = pos.royals(t, p);
        if let (1, Some(king)) = (royals.count(), royals.lowest()) {
            let shield = (self.pawns[p.index()].shield[king.index()] & own).count();
            sink.add(p, w.global(Global::PawnShield), shield.min(3) as i32);
        }
    }

    /// Keys of the pawn structure (every player's pawns) and of the material (every
    /// player's count of every kind, on the board and in hand), for the search's
    /// correction history.
    pub fn correction_keys(&self, pos: &Position<B>) -> Keys {
        let pawns = (0..self.players).fold(0u64, |acc, p| {
            acc.rotate_left(17) ^ self.pawn_set(pos, Player(p as u8)).fingerprint()
        });
        // Most of a variant's kinds are not on the board (the CwDA variants know every army's
        // pieces): their count is zero without counting, which is most of this key's cost.
        let kinds = &pos.by_kind[..self.kinds_per_player];
        let mut material = 0u64;
        for p in 0..self.players {
            let (mine, hands) = (pos.by_player[p], pos.hands.get(p));
            for (k, &on_board) in kinds.iter().enumerate() {
                let n = if on_board.is_empty() {
                    0
                } else {
                    (on_board & mine).count() as u64
                };
                let hand = hands.map_or(0, |h| h[k]) as u64;
                material = material.wrapping_mul(0x0100_0000_01b3) ^ (n | hand << 8);
            }
        }
        Keys {
            pawns,
            material: crate::bitboard::mix(material),
        }
    }

    fn pawn_set(&self, pos: &Position<B>, p: Player) -> B {
        self.pawn_kinds[p.index()]
            .iter()
            .fold(B::empty(), |acc, &k| acc | pos.pieces(p, k))
    }

    /// Mobility, threats and King attack: what every piece reaches on this board.
    fn activity<S: Sink>(
        &self,
        t: &Tables<B>,
        pos: &Position<B>,
        held: &[KindSet; 4],
        pawns: &[B; 4],
        valuable: &[B; 4],
        sink: &mut S,
    ) {
        let w = &self.weights;
        let occ = pos.occupied;
        let empty = t.board.without(occ);
        let mut pawn_attacks = [B::empty(); 4];
        for p in self.alive(pos) {
            let pi = p.index();
            if pawns[pi].is_empty() {
                continue;
            }
            for &k in &self.pawn_kinds[pi] {
                let leaps = self.kinds[pi][k.index()].leap_captures;
                for c in pos.pieces(p, k).cells() {
                    pawn_attacks[pi] |= if leaps {
                        leap_attacks(t, p, k, c)
                    } else {
                        reach(t, p, k, c, occ).attacks
                    };
                }
            }
        }
        let kings: [Option<Cell>; 4] = std::array::from_fn(|q| self.lone_king(t, pos, q));
        let zones: [B; 4] = kings.map(|k| k.map_or(B::empty(), |k| self.near[k.index()]));
        let mut attacked = pawn_attacks;
        let mut lesser_threats = [B::empty(); 4];
        let mut zone_attackers = [0i32; 4];
        let mut zone_hits: ArrayVec<(Player, Kind, usize, i32), 64> = ArrayVec::new();
        // Per player and kind: the cells its pieces of that kind can move to.
        let mut destinations: ArrayVec<(Player, Kind, B), 64> = ArrayVec::new();
        for p in self.alive(pos) {
            let pi = p.index();
            let enemies = pos.enemies(p);
            let enemy_pawn_attacks = others(&pawn_attacks, pi);
            let enemy_zones = others(&zones, pi);
            let victims = enemies & others(valuable, pi);
            for kind in held[pi] {
                let info = &self.kinds[pi][kind.index()];
                let on_board = pos.pieces(p, kind);
                if info.pawn || on_board.is_empty() {
                    continue;
                }
                let (mut kind_reach, mut mobility) = (B::empty(), 0);
                for c in on_board.cells() {
                    let r = reach(t, p, kind, c, occ);
                    attacked[pi] |= r.attacks;
                    if info.royal {
                        continue;
                    }
                    let reachable = (r.attacks & enemies) | (r.moves & empty);
                    kind_reach |= reachable;
                    mobility += reachable.without(enemy_pawn_attacks).count() as i32;
                    if (r.attacks & enemy_zones).any() {
                        for q in self.alive(pos).filter(|&q| q != p) {
                            let hits = (r.attacks & zones[q.index()]).count() as i32;
                            if hits > 0 {
                                zone_attackers[q.index()] += 1;
                                let _ = zone_hits.try_push((p, kind, q.index(), hits));
                            }
                        }
                    }
                    for v in (r.attacks & victims).cells() {
                        let victim = pos.piece_at(v).expect("attacked piece");
                        if self.value(victim.player(), victim.kind()) > info.value {
                            lesser_threats[pi].set(v);
                        }
                    }
                }
                if !info.royal {
                    sink.add(p, w.per_kind(PerKind::Mobility, kind), mobility);
                    let _ = destinations.try_push((p, kind, kind_reach));
                }
            }
        }
        for &(p, kind, q, hits) in &zone_hits {
            let attackers = zone_attackers[q].min(MAX_KING_ATTACKERS);
            sink.add(p, w.per_kind(PerKind::KingAttack, kind), hits * attackers);
        }
        if self.players == 2 {
            for &(p, kind, cells) in &destinations {
                let q = Player(1 - p.0);
                if let Some(king) = kings[q.index()] {
                    let covered = attacked[q.index()];
                    let safe = self.safe_checks(t, pos, p, kind, king, cells, covered);
                    sink.add(p, w.per_kind(PerKind::SafeCheck, kind), safe);
                }
            }
        }
        for p in self.alive(pos) {
            let pi = p.index();
            let targets = others(valuable, pi);
            let by_pawn = (pawn_attacks[pi] & targets).count() as i32;
            sink.add(p, w.global(Global::ThreatByPawn), by_pawn);
            sink.add(
                p,
                w.global(Global::ThreatByLesser),
                lesser_threats[pi].count() as i32,
            );
            let hanging: u32 = self
                .alive(pos)
                .filter(|&q| q != p)
                .map(|q| {
                    (attacked[pi] & valuable[q.index()])
                        .without(attacked[q.index()])
                        .count()
                })
                .sum();
            sink.add(p, w.global(Global::Hanging), hanging as i32);
        }
    }

    /// How many of `destinations` (cells `p`'s pieces of `kind` can move to) check the
    /// opponent's lone royal on `king` from a cell outside `covered` (what the opponent
    /// attacks). Two players only: the checking cells are the opponent's own reach of the kind
    /// from its King's cell (its mirror image), which holds for the left-right symmetric
    /// pieces of the 2D armies. In Cyclical Armies the piece checks as the kind it becomes.
    #[allow(clippy::too_many_arguments)]
    fn safe_checks(
        &self,
        t: &Tables<B>,
        pos: &Position<B>,
        p: Player,
        kind: Kind,
        king: Cell,
        destinations: B,
        covered: B,
    ) -> i32 {
        let q = Player(1 - p.0);
        let checker = self.next_kind[p.index()][kind.index()].unwrap_or(kind);
        let slot = (q.index() * self.kinds_per_player + checker.index()) * self.cells;
        let candidates =
            (destinations & self.empty_board_attacks[slot + king.index()]).without(covered);
        if candidates.is_empty() {
            return 0;
        }
        let checking_cells = reach(t, q, checker, king, pos.occupied).attacks;
        (candidates & checking_cells).count() as i32
    }

    /// The cell of player `q`'s King when it has exactly one royal.
    fn lone_king(&self, t: &Tables<B>, pos: &Position<B>, q: usize) -> Option<Cell> {
        if q >= self.players || !pos.is_alive(Player(q as u8)) {
            return None;
        }
        let royals = pos.royals(t, Player(q as u8));
        match (royals.count(), royals.lowest()) {
            (1, Some(king)) => Some(king),
            _ => None,
        }
    }

    /// Drives a bare King to the edge and brings the winner's King close, so that endings
    /// with a mating force are won rather than shuffled.
    fn mop_up(&self, t: &Tables<B>, pos: &Position<B>, m: &Material, score: &mut [i32; 4]) {
        if self.players != 2 {
            return;
        }
        for loser in 0..2 {
            let winner = 1 - loser;
            if m.pieces[loser] != 0 || m.pawns[loser] != 0 || m.pieces[winner] < 300 {
                continue;
            }
            let lk = pos.royals(t, Player(loser as u8)).lowest();
            let wk = pos.royals(t, Player(winner as u8)).lowest();
            if let (Some(lk), Some(wk)) = (lk, wk) {
                let edge = self.centre_distance[lk.index()] as i32;
                let close = t.distance(lk, wk) as i32;
                score[winner] += MOP_UP_EDGE * edge + MOP_UP_CLOSE * (8 - close.min(8)) + 200;
            }
        }
    }
}

/// What a piece of kind `k` is worth for the kind `next` it becomes when it moves (zero
/// where pieces keep their type).
fn becomes(v: &crate::variant::Variant, w: &Weights, k: Kind, next: Kind) -> Tapered {
    if v.morph.is_empty() || v.kind(k).royal {
        return Tapered::ZERO;
    }
    w.get(w.per_kind(PerKind::Becomes, next))
}

/// The union of the sets of every player but `us` (players out of the game have empty sets).
#[inline]
fn others<B: BitSet>(sets: &[B; 4], us: usize) -> B {
    let mut out = B::empty();
    for (p, &v) in sets.iter().enumerate() {
        if p != us {
            out |= v;
        }
    }
    out
}

/// What the evaluation keeps of each kind for each player (`kinds[player][kind]`), and the
/// mobility square table (`square[(player * kinds + kind) * cells + cell]`, the moves from
/// the cell less the kind's average).
fn kind_infos<B: BitSet>(t: &Tables<B>, weights: &Weights) -> (Vec<Vec<KindInfo>>, Vec<i8>) {
    let nk = t.variant.pieces.len();
    let mut square = vec![0i8; t.players() * nk * t.cells];
    let mut kinds = Vec::new();
    for p in 0..t.players() {
        let player = Player(p as u8);
        let mut infos = Vec::new();
        for k in t.variant.kinds() {
            let def = t.variant.kind(k);
            let mob = mobility(t, player, k);
            let average = mob.average.round() as i32;
            for (c, &n) in mob.per_cell.iter().enumerate() {
                square[(p * nk + k.index()) * t.cells + c] =
                    (n as i32 - average).clamp(-128, 127) as i8;
            }
            let next = t.variant.morph_of(player, k);
            infos.push(KindInfo {
                value: if def.royal {
                    0
                } else {
                    weights.get(weights.per_kind(PerKind::Value, k)).mg
                        + becomes(&t.variant, weights, k, next).mg
                },
                pawn: def.pawn,
                royal: def.royal,
                colour_bound: mob.colour_bound && !def.royal && !def.pawn,
                leap_captures: captures_by_leaps_only(t, player, k),
            });
        }
        kinds.push(infos);
    }
    (kinds, square)
}

/// Per cell: the cells next to it.
fn near_sets<B: BitSet>(t: &Tables<B>) -> Vec<B> {
    let shape = &t.shape;
    shape
        .all_cells()
        .map(|a| {
            shape
                .all_cells()
                .filter(|&b| b != a && t.distance(a, b) <= 1)
                .fold(B::empty(), |mut acc, b| {
                    acc.set(b);
                    acc
                })
        })
        .collect()
}

/// Per player, kind and cell (in that order): the cells the piece attacks on an empty board.
fn empty_board_attacks<B: BitSet>(t: &Tables<B>) -> Vec<B> {
    let shape = &t.shape;
    (0..t.players())
        .flat_map(|p| t.variant.kinds().map(move |k| (Player(p as u8), k)))
        .flat_map(|(p, k)| {
            shape
                .all_cells()
                .map(move |c| reach(t, p, k, c, B::empty()).attacks)
        })
        .collect()
}

#[cfg(test)]
mod tests;
