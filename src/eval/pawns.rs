//! Pawn structure for any board and orientation: files run along each player's forward axis,
//! per level on 3D boards. Counts doubled, isolated and passed pawns (by how far they have
//! come), and knows the shield cells in front of a King.

use crate::bitboard::BitSet;
use crate::geometry::Cell;
use crate::movegen::tables::Tables;
use crate::piece::Player;

/// Pawn geometry of one player.
#[derive(Clone, Debug)]
pub struct PawnGeometry<B> {
    /// What a pawn's counts ask about its cell, per cell (one record, read together).
    cells: Vec<PawnCell<B>>,
    /// Cells directly in front of and beside the King's cell, one or two steps ahead, per cell.
    pub shield: Vec<B>,
}

/// The pawn geometry of one cell.
#[derive(Clone, Copy, Debug)]
struct PawnCell<B> {
    /// Cells ahead on the own file (an own pawn here makes this one doubled).
    ahead_on_file: B,
    /// Neighbouring files.
    adjacent_files: B,
    /// Cells ahead on the own and neighbouring files (an enemy pawn here stops a passer).
    front_span: B,
    /// Progress towards the far side in eighths (0 = own back rank, 8 = last rank).
    progress: u8,
}

/// The pawn counts of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnCounts {
    pub doubled: i32,
    pub isolated: i32,
    /// Passed pawns by progress in eighths (index 0 unused: a pawn on its back rank).
    pub passed: [i32; 9],
}

impl<B: BitSet> PawnGeometry<B> {
    pub fn new(t: &Tables<B>, p: Player) -> PawnGeometry<B> {
        let o = t.variant.orientations[p.index()];
        let forward = if o.flip_y { -1 } else { 1 };
        let shape = &t.shape;
        let n = t.cells;
        let mut g = PawnGeometry {
            cells: vec![
                PawnCell {
                    ahead_on_file: B::empty(),
                    adjacent_files: B::empty(),
                    front_span: B::empty(),
                    progress: 0,
                };
                n
            ],
            shield: vec![B::empty(); n],
        };
        for c in shape.all_cells() {
            let (x, y, z) = shape.coords(c);
            let i = c.index();
            let cell = &mut g.cells[i];
            cell.progress = own_progress(t, p, c);
            for d in shape.all_cells() {
                let (dx, dy, dz) = shape.coords(d);
                if dz != z {
                    continue;
                }
                let file_gap = (dx - x).abs();
                let ahead = (dy - y) * forward;
                if file_gap == 0 && ahead > 0 {
                    cell.ahead_on_file.set(d);
                }
                if file_gap == 1 {
                    cell.adjacent_files.set(d);
                }
                if file_gap <= 1 && ahead > 0 {
                    cell.front_span.set(d);
                }
                if file_gap <= 1 && (1..=2).contains(&ahead) {
                    g.shield[i].set(d);
                }
            }
        }
        g
    }

    /// Doubled, isolated and passed pawns among `own`, against the `enemy` pawns.
    pub fn counts(&self, own: B, enemy: B) -> PawnCounts {
        let mut out = PawnCounts::default();
        for c in own.cells() {
            let cell = &self.cells[c.index()];
            let behind_own = (cell.ahead_on_file & own).any();
            if behind_own {
                out.doubled += 1;
            }
            if (cell.adjacent_files & own).is_empty() {
                out.isolated += 1;
            }
            if !behind_own && (cell.front_span & enemy).is_empty() {
                out.passed[cell.progress as usize] += 1;
            }
        }
        out
    }
}

/// How far `c` is from player `p`'s own back edge along the forward axis, in eighths of the
/// board (0..=8).
pub fn own_progress<B: BitSet>(t: &Tables<B>, p: Player, c: Cell) -> u8 {
    let o = t.variant.orientations[p.index()];
    let ranks = t.shape.ranks as i32;
    let y = t.shape.y(c);
    let rank = if o.flip_y { ranks - 1 - y } else { y };
    ((rank * 8) / (ranks - 1).max(1)).clamp(0, 8) as u8
}
