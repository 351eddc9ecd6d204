//! Evaluation per army for Armies of Faith: material from piece values fitted to self-play
//! results (starting from each kind's reach in played positions), King safety against all
//! three opponents, and the prospects of promotion by checkmate (pressure on enemy Kings,
//! promoted pieces once an Emperor makes a second checkmate by a promoted piece a win).

use super::pieces::{is_promoted_type, EMPEROR, KIND_COUNT, PAWN, YEOMAN};
use super::events::is_over;
use super::{opposite, BYZANTINE};
use crate::bitboard::BitSet;
use crate::eval::utility::Utility;
use crate::geometry::Cell;
use crate::movegen::attacked_by;
use crate::movegen::tables::Tables;
use crate::piece::{Kind, Player};
use crate::position::Position;

/// A won (or lost) game, in centipawns; far above any material sum.
pub const WIN: i32 = 30_000;

/// Piece values and the per-army evaluation.
#[derive(Clone, Debug)]
pub struct Eval<B: BitSet> {
    /// Centipawns per kind (Kings and Emperors: 0, they are never captured).
    pub values: [i32; KIND_COUNT],
    /// Per cell: the cells within Chebyshev distance 1 and 2 (a King's surroundings).
    near1: Vec<B>,
    near2: Vec<B>,
}

/// Each kind's mean reach (cells it would move to or capture on) from every cell of the
/// boards of 780 positions of self-play games, in kind order (King .. Sahib), measured by
/// `panoply selfplay --variant aof5 --games 8 --nodes 3000 --methods brs --max-plies 1500
/// --random-opening 8 --seed 300 --mobility` (docs/aof5-research.md, "Armies of Faith: piece values").
/// Pieces on the board cut the slides short; leaps keep their reach.
pub const REACH_IN_PLAY: [f64; KIND_COUNT] = [
    13.53, 13.53, 18.25, 15.73, 17.57, 13.70, 10.45, 33.30, 28.02, 31.27, 52.89, 22.29, 27.34,
    22.62, 39.76, 28.93, 26.18, 24.21, 29.43, 20.46, 5.22, 5.22, 17.99, 21.24, 23.27, 25.11, 40.84,
    21.06, 5.88, 3.58, 8.95,
];

/// A kind's value from its reach in play: what the fit starts from and is held near. A
/// reach of one cell is worth about a tenth of a Pawn more than a Pawn's own few steps.
pub fn prior_value(k: Kind) -> f64 {
    40.0 + 22.0 * REACH_IN_PLAY[k.index()]
}

/// Centipawns per kind (King .. Sahib), fitted to self-play results from the priors above
/// with the start arrays held level ([`super::fit`]): `panoply selfplay --variant aof5
/// --games 20 --nodes 2000 --army-nodes 2000,6000,6000,6000 --methods brs --max-plies 1500
/// --random-opening 8 --seed 700 --fit-values` (docs/aof5-research.md, "Armies of Faith: piece values").
/// Royal kinds are never captured and Pawns and Yeomen are the unit; their entries are unused.
pub const FITTED_VALUES: [i32; KIND_COUNT] = [
    0, 397, 0, 394, 354, 325, 340, 846, 729, 706, 1116, 523, 623, 543, 947, 658, 689, 489, 666,
    408, 155, 155, 436, 507, 538, 593, 938, 503, 169, 119, 237,
];

/// Mean number of cells a kind would reach from each cell of boards with these occupancies
/// (the pieces there block its slides; a target counts whoever stands on it): the reach it
/// has in play, where the empty board overrates long slides against leaps.
pub fn mean_mobility_among<B: BitSet>(t: &Tables<B>, k: Kind, occupancies: &[B]) -> f64 {
    let kt = t.kind(BYZANTINE, k);
    let mut total = 0u64;
    for &occ in occupancies {
        for from in t.shape.all_cells() {
            let i = from.index();
            let mut targets = kt.quiet[i] | kt.capture[i];
            for s in &kt.slides {
                let mut a = t.ray_attack(s.dir as usize, from, occ);
                if s.max > 0 {
                    a &= s.limit[i];
                }
                targets |= a;
            }
            for b in kt.bent[i].iter().filter(|b| !occ.contains(b.first)) {
                targets |= t.ray_attack(b.dir as usize, b.first, occ);
            }
            total += targets.count() as u64;
        }
    }
    total as f64 / (t.cells * occupancies.len().max(1)) as f64
}

impl<B: BitSet> Eval<B> {
    pub fn new(t: &Tables<B>) -> Eval<B> {
        let mut values = [0; KIND_COUNT];
        for k in t.variant.kinds() {
            values[k.index()] = match k {
                _ if t.variant.kind(k).royal => 0,
                PAWN | YEOMAN => 100,
                _ => FITTED_VALUES[k.index()],
            };
        }
        let within = |d: u8| -> Vec<B> {
            t.shape
                .all_cells()
                .map(|c| {
                    let mut m = B::empty();
                    t.shape
                        .all_cells()
                        .filter(|&o| o != c && t.distance(o, c) <= d)
                        .for_each(|o| m.set(o));
                    m
                })
                .collect()
        };
        Eval {
            values,
            near1: within(1),
            near2: within(2),
        }
    }

    pub fn value(&self, k: Kind) -> i32 {
        self.values[k.index()]
    }

    /// The score of each army (0 for armies out of play).
    pub fn army_scores(&self, t: &Tables<B>, pos: &Position<B>) -> [i32; 4] {
        let kings = [0, 1, 2, 3].map(|p| pos.royals(t, Player(p)).lowest());
        // Between moves the army to move has checkmated every King it attacked (rule (a)),
        // so while the game goes on it attacks none: no need to ask.
        let attacks_none = (!is_over(pos)).then_some(pos.side);
        let mut scores = [0; 4];
        for p in (0..4).map(Player).filter(|&p| pos.is_alive(p)) {
            scores[p.index()] = self.army(t, pos, p, &kings, attacks_none);
        }
        scores
    }

    fn army(
        &self,
        t: &Tables<B>,
        pos: &Position<B>,
        p: Player,
        kings: &[Option<Cell>; 4],
        attacks_none: Option<Player>,
    ) -> i32 {
        let own = pos.by_player[p.index()];
        let mut score = 0;
        let mut promoted = 0;
        let target_camp = opposite(p);
        for c in own.cells() {
            let k = pos.piece_at(c).unwrap().kind();
            score += self.values[k.index()];
            promoted += is_promoted_type(k) as i32;
            if k == PAWN || k == YEOMAN {
                score += 3 * advance(t, c, target_camp);
            }
        }
        let Some(king) = kings[p.index()] else {
            return score;
        };
        let emperor = pos.pieces(p, EMPEROR).any();
        // Promotion by checkmate: after a first checkmate, any checkmate by a promoted piece
        // wins, so promoted pieces are worth more.
        if emperor {
            score += 60 * promoted.min(4);
        }
        for q in (0..4).map(Player).filter(|&q| q != p && pos.is_alive(q)) {
            let theirs = pos.by_player[q.index()];
            // King safety against each opponent: an attacked King may be checkmated before
            // it moves, and enemy pieces close to it are the attackers of tomorrow.
            let attacked = || attacked_by(t, pos, king, q, pos.occupied, pos.occupied);
            if attacks_none == Some(q) {
                debug_assert!(!attacked(), "the army to move attacks a King between moves");
            } else if attacked() {
                score -= 250;
            }
            score -= 12 * (theirs & self.near2[king.index()]).count() as i32;
            // Pressure on that opponent's King: the prospect of checkmating it.
            if let Some(their_king) = kings[q.index()] {
                score += 8 * (own & self.near2[their_king.index()]).count() as i32;
            }
        }
        score += 6 * ((own & self.near1[king.index()]).count() as i32).min(6);
        score
    }

    /// Army `p`'s view: its score against the mean of the others still playing; a won game
    /// is `WIN`, an army out of play `-WIN`.
    pub fn utility(&self, t: &Tables<B>, pos: &Position<B>, p: Player) -> i32 {
        if let Some(w) = terminal_winner(pos) {
            return if w == p { WIN } else { -WIN };
        }
        if !pos.is_alive(p) {
            return -WIN;
        }
        let s = self.army_scores(t, pos);
        let others: i32 = (0..4).filter(|&q| q != p.index()).map(|q| s[q]).sum();
        s[p.index()] - others / 3
    }
}

/// The winner of a finished game, if it is finished.
pub fn terminal_winner<B: BitSet>(pos: &Position<B>) -> Option<Player> {
    pos.winner
        .or_else(|| (pos.alive.count_ones() == 1).then(|| Player(pos.alive.trailing_zeros() as u8)))
}

/// Progress of a Pawn or Yeoman toward the camp of army `camp` (0 far away .. 9 there).
fn advance<B: BitSet>(t: &Tables<B>, c: Cell, camp: Player) -> i32 {
    // The corner columns: Catholic js, Protestant jz, Islamic az, Byzantine as.
    let (cx, cy) = [(9, 0), (9, 7), (0, 7), (0, 0)][camp.index()];
    let (x, y, _) = t.shape.coords(c);
    16 - ((x - cx).abs() + (y - cy).abs()) - 7
}

impl<B: BitSet> Utility<B> for Eval<B> {
    fn utility(&self, t: &Tables<B>, pos: &Position<B>, p: Player) -> i32 {
        Eval::utility(self, t, pos, p)
    }
    fn piece_value(&self, k: Kind) -> i32 {
        self.value(k)
    }
    fn win(&self) -> i32 {
        WIN
    }
    fn army_scores(&self, t: &Tables<B>, pos: &Position<B>) -> Option<Vec<i32>> {
        Some(Eval::army_scores(self, t, pos).to_vec())
    }
}
