//! Correction history: what the search has learnt about the static evaluation's error. Each
//! search thread keeps, per side to move, running averages of how far the search's result
//! lay from the static evaluation in positions of the same pawn structure and in positions of
//! the same material; the evaluation the pruning decisions use is corrected by their mean. A
//! hand-written evaluation misjudges whole families of positions the same way (a blocked
//! centre, a pawn storm the terms do not see, what one army's pieces are worth against
//! another's in this game), and pawns and material are cheap names for such families.

use crate::eval::keys::Keys;

/// Entries per side to move (a power of two).
const ENTRIES: usize = 1 << 14;
/// Entries hold centipawns times this, so that small corrections accumulate.
const GRAIN: i32 = 256;
/// The weight a new result gets, out of this.
const WEIGHT_SCALE: i32 = 256;
/// The largest correction, in centipawns.
const MAX_CORRECTION: i32 = 128;

pub struct CorrectionHistory {
    pawns: Vec<i32>,
    material: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawns: vec![0; 2 * ENTRIES],
            material: vec![0; 2 * ENTRIES],
        }
    }
}

impl CorrectionHistory {
    #[inline]
    fn index(side: usize, key: u64) -> usize {
        (side & 1) * ENTRIES + (key as usize & (ENTRIES - 1))
    }

    /// The correction, in centipawns, for the side to move `side` in positions of `keys`.
    #[inline]
    pub fn get(&self, side: usize, keys: Keys) -> i32 {
        let pawns = self.pawns[Self::index(side, keys.pawns)];
        let material = self.material[Self::index(side, keys.material)];
        (pawns + material) / (2 * GRAIN)
    }

    /// Moves the entries towards `error` (search result less static evaluation), the more
    /// so the deeper the search that found it.
    pub fn update(&mut self, side: usize, keys: Keys, error: i32, depth: i32) {
        let weight = (depth + 1).clamp(1, 16);
        let target = error.clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        for e in [
            &mut self.pawns[Self::index(side, keys.pawns)],
            &mut self.material[Self::index(side, keys.material)],
        ] {
            *e = (*e * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        }
    }

    pub fn clear(&mut self) {
        self.pawns.iter_mut().for_each(|e| *e = 0);
        self.material.iter_mut().for_each(|e| *e = 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(pawns: u64, material: u64) -> Keys {
        Keys { pawns, material }
    }

    #[test]
    fn entries_move_towards_the_error_and_stay_within_bounds() {
        let mut c = CorrectionHistory::default();
        let k = keys(42, 9);
        assert_eq!(c.get(0, k), 0);
        for _ in 0..200 {
            c.update(0, k, 60, 10);
        }
        assert!((55..=60).contains(&c.get(0, k)), "{}", c.get(0, k));
        // The other side and other families are untouched; a position that shares only its
        // pawns (or only its material) gets half the correction.
        assert_eq!(c.get(1, k), 0);
        assert_eq!(c.get(0, keys(43, 10)), 0);
        assert!((27..=30).contains(&c.get(0, keys(42, 10))));
        assert!((27..=30).contains(&c.get(0, keys(43, 9))));
        for _ in 0..400 {
            c.update(1, keys(7, 7), -5000, 30);
        }
        // A huge error counts as the largest correction, and no more.
        let capped = c.get(1, keys(7, 7));
        assert!(
            (-MAX_CORRECTION..=-MAX_CORRECTION + 2).contains(&capped),
            "{capped}"
        );
        // A shallow result moves the entries less than a deep one.
        let (mut shallow, mut deep) = (CorrectionHistory::default(), CorrectionHistory::default());
        shallow.update(0, keys(1, 1), 100, 1);
        deep.update(0, keys(1, 1), 100, 12);
        assert!(shallow.get(0, keys(1, 1)) < deep.get(0, keys(1, 1)));
        c.clear();
        assert_eq!(c.get(1, keys(7, 7)), 0);
    }
}
