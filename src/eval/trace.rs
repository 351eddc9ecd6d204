//! The evaluation of a two-player position as counts per weight, for the tuner: the score is
//! `(Σ weight · count, blended by phase, + fixed) / divisor` from White's view, so a new set of
//! weights is scored without looking at the position again.

use super::params::{Param, Tapered};
use super::{Evaluator, Sink};
use crate::bitboard::BitSet;
use crate::movegen::tables::Tables;
use crate::piece::Player;
use crate::position::Position;

/// One position's counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// Weights with a non-zero count: White's count minus Black's.
    pub counts: Vec<(Param, i32)>,
    /// 256 = all pieces on, 0 = none (held fixed while tuning).
    pub phase: i32,
    /// What lies outside the weights (mop-up), White's view.
    pub fixed: i32,
    /// The drawish-ending divisor of the whole score (1 or more).
    pub divisor: i32,
}

impl Trace {
    /// The score from White's view under `weights`, in centipawns (not rounded).
    pub fn score(&self, weights: &[Tapered]) -> f64 {
        let mut sum = Tapered::ZERO;
        for &(p, n) in &self.counts {
            sum += weights[p.index()] * n;
        }
        let blended =
            (sum.mg as f64 * self.phase as f64 + sum.eg as f64 * (256 - self.phase) as f64) / 256.0;
        (blended + self.fixed as f64) / self.divisor as f64
    }
}

/// Counts per weight, White's minus Black's.
struct NetCounts(Vec<i32>);

impl Sink for NetCounts {
    #[inline]
    fn add(&mut self, player: Player, param: Param, count: i32) {
        let c = &mut self.0[param.index()];
        if player == Player::WHITE {
            *c += count;
        } else {
            *c -= count;
        }
    }
}

impl<B: BitSet> Evaluator<B> {
    /// The counts behind [`Evaluator::evaluate`] (two-player games only).
    pub fn trace(&self, t: &Tables<B>, pos: &Position<B>) -> Option<Trace> {
        if self.players != 2 {
            return None;
        }
        let mut net = NetCounts(vec![0; self.weights.len()]);
        let material = self.collect(t, pos, &mut net);
        let phase = self.phase(&material);
        let mut fixed = [0i32; 4];
        self.mop_up(t, pos, &material, &mut fixed);
        let white_view = self.evaluate_white(t, pos);
        let s = if pos.side == Player::WHITE {
            white_view
        } else {
            -white_view
        };
        // The divisor depends on who leads; take it as the current weights see it.
        let mut score = [0i32; 4];
        score[pos.side.index()] = s;
        let divisor = self.damping(pos, &material, s, &score);
        Some(Trace {
            counts: net
                .0
                .iter()
                .enumerate()
                .filter(|(_, &n)| n != 0)
                .map(|(i, &n)| (Param(i as u16), n))
                .collect(),
            phase,
            fixed: fixed[0] - fixed[1],
            divisor,
        })
    }

    /// The static score from White's view.
    pub fn evaluate_white(&self, t: &Tables<B>, pos: &Position<B>) -> i32 {
        let s = self.evaluate(t, pos);
        if pos.side == Player::WHITE {
            s
        } else {
            -s
        }
    }
}
