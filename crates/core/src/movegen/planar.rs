//! Slider attacks on flat boards of up to 64 cells by multiply-and-shift lookup ("magic"
//! bitboards): one load gives everything a piece reaches along its four orthogonal lines, one
//! along its four diagonals, where the general generator walks each direction to its first
//! blocker. A kind that slides along only some of the lines, or only so far, keeps its share
//! of the lookup through per-cell masks ([`LineMasks`]), so every 2D army uses it.

use crate::geometry::{Shape, DIRECTIONS};
use std::sync::{Arc, LazyLock, Mutex};

/// The two line groups of a flat board, for every cell.
pub struct PlanarLines {
    pub orthogonal: LineLookup,
    pub diagonal: LineLookup,
}

/// What a slider reaches along one group of lines, indexed by cell and the occupancy of
/// those lines.
pub struct LineLookup {
    entries: Vec<Entry>,
    attacks: Vec<u64>,
}

/// One cell's hashing of its lines' occupancy into its slice of the attack table.
#[derive(Clone, Copy)]
struct Entry {
    /// The cells of the lines whose occupancy matters: the lines without their edge cells.
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

impl LineLookup {
    /// The cells reached from `cell` along the group's lines with `occ` occupied: empty cells
    /// up to and including the first occupied one on each line.
    #[inline]
    pub fn attacks(&self, cell: usize, occ: u64) -> u64 {
        let e = self.entries[cell];
        let index = (occ & e.mask).wrapping_mul(e.magic) >> e.shift;
        self.attacks[e.offset as usize + index as usize]
    }
}

/// Per cell, the cells of a kind's slides in each group that it captures on and moves to
/// when nothing blocks (a limited range already cut), so that the group's attacks masked by
/// them are exactly the kind's slide reach.
#[derive(Clone, Copy, Debug, Default)]
pub struct LineMasks {
    pub orthogonal_captures: u64,
    pub orthogonal_moves: u64,
    pub diagonal_captures: u64,
    pub diagonal_moves: u64,
}

/// The line group of a direction of a flat board: orthogonal, diagonal, or neither (the
/// directions that leave the plane).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LineGroup {
    Orthogonal,
    Diagonal,
}

impl LineGroup {
    pub fn of(dir: usize) -> Option<LineGroup> {
        let v = DIRECTIONS[dir];
        match (v.x != 0, v.y != 0, v.z != 0) {
            (_, _, true) => None,
            (true, true, false) => Some(LineGroup::Diagonal),
            _ => Some(LineGroup::Orthogonal),
        }
    }
}

/// Whether a board takes the lookup: flat and within one 64-bit word.
pub fn fits(shape: &Shape) -> bool {
    shape.levels == 1 && shape.cells() <= 64
}

/// The lookup for a flat board, built once per board size and shared by every variant on it.
/// `rays` and `positive` are the board's ray masks as one word each, as [`super::tables`]
/// lays them out.
pub fn lines_for(shape: &Shape, rays: &[u64], positive: &[bool; 26]) -> Arc<PlanarLines> {
    /// The lookups built so far, by (files, ranks).
    type Built = Vec<((u8, u8), Arc<PlanarLines>)>;
    static BUILT: LazyLock<Mutex<Built>> = LazyLock::new(Default::default);
    let key = (shape.files, shape.ranks);
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, lines)) = built.iter().find(|(k, _)| *k == key) {
        return lines.clone();
    }
    let board = Board {
        cells: shape.cells(),
        rays,
        positive,
    };
    let known = |group| (key == (8, 8)).then_some(known_8x8(group));
    let lines = Arc::new(PlanarLines {
        orthogonal: board.lookup(LineGroup::Orthogonal, known(LineGroup::Orthogonal)),
        diagonal: board.lookup(LineGroup::Diagonal, known(LineGroup::Diagonal)),
    });
    built.push((key, lines.clone()));
    lines
}

/// The board's rays, from which the lookup is built and checked.
struct Board<'a> {
    cells: usize,
    rays: &'a [u64],
    positive: &'a [bool; 26],
}

impl Board<'_> {
    fn ray(&self, dir: usize, cell: usize) -> u64 {
        self.rays[dir * self.cells + cell]
    }

    fn dirs(&self, group: LineGroup) -> impl Iterator<Item = usize> {
        (0..26).filter(move |&d| LineGroup::of(d) == Some(group))
    }

    /// What a slider on `cell` reaches along the group with `occ` occupied, direction by
    /// direction: the answer the lookup must give.
    fn walk(&self, group: LineGroup, cell: usize, occ: u64) -> u64 {
        self.dirs(group)
            .map(|d| {
                let ray = self.ray(d, cell);
                let hits = ray & occ;
                if hits == 0 {
                    return ray;
                }
                let blocker = if self.positive[d] {
                    hits.trailing_zeros()
                } else {
                    63 - hits.leading_zeros()
                };
                ray ^ self.ray(d, blocker as usize)
            })
            .fold(0, |acc, a| acc | a)
    }

    /// The cells whose occupancy changes what `cell` reaches: every line without its last
    /// cell, which is reached whether it is occupied or not.
    fn relevant(&self, group: LineGroup, cell: usize) -> u64 {
        self.dirs(group)
            .map(|d| {
                let ray = self.ray(d, cell);
                let edge = if ray == 0 {
                    0
                } else if self.positive[d] {
                    1u64 << (63 - ray.leading_zeros())
                } else {
                    1u64 << ray.trailing_zeros()
                };
                ray & !edge
            })
            .fold(0, |acc, m| acc | m)
    }

    /// What the lookup of `cell` must answer: the mask of the cells that matter, each of its
    /// occupancies, and the walked reach for each.
    fn cases(&self, group: LineGroup, cell: usize) -> (u64, Vec<u64>, Vec<u64>) {
        let mask = self.relevant(group, cell);
        let occupancies = subsets_of(mask);
        let answers = occupancies
            .iter()
            .map(|&o| self.walk(group, cell, o))
            .collect();
        (mask, occupancies, answers)
    }

    /// The group's lookup, trying each cell's `known` multiplier before searching for one.
    fn lookup(&self, group: LineGroup, known: Option<&[u64; 64]>) -> LineLookup {
        // A fixed seed: the same multipliers, and so the same tables, in every run.
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut entries = Vec::with_capacity(self.cells);
        let mut attacks = Vec::new();
        for cell in 0..self.cells {
            let (mask, occupancies, answers) = self.cases(group, cell);
            let mut slots = Slots::new(mask);
            let magic = known
                .map(|k| k[cell])
                .filter(|&m| slots.fill(m, &occupancies, &answers))
                .unwrap_or_else(|| slots.search(&occupancies, &answers, &mut rng));
            entries.push(Entry {
                mask,
                magic,
                shift: slots.shift,
                offset: attacks.len() as u32,
            });
            attacks.extend(slots.table);
        }
        LineLookup { entries, attacks }
    }
}

/// Every subset of `mask`, the empty one first.
fn subsets_of(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut s = 0u64;
    loop {
        out.push(s);
        s = s.wrapping_sub(mask) & mask;
        if s == 0 {
            return out;
        }
    }
}

/// One cell's slice of the attack table while its multiplier is sought.
struct Slots {
    mask: u64,
    shift: u32,
    table: Vec<u64>,
    /// Which attempt wrote each slot, so that a slot need not be cleared between attempts.
    written: Vec<u32>,
    attempt: u32,
}

impl Slots {
    /// A table of `2^popcount(mask)` slots (at least two).
    fn new(mask: u64) -> Slots {
        let bits = mask.count_ones().max(1);
        Slots {
            mask,
            shift: 64 - bits,
            table: vec![0; 1 << bits],
            written: vec![0; 1 << bits],
            attempt: 0,
        }
    }

    /// Fills the table through `magic`; false if two different answers meet in a slot.
    fn fill(&mut self, magic: u64, occupancies: &[u64], answers: &[u64]) -> bool {
        self.attempt += 1;
        occupancies.iter().zip(answers).all(|(&occ, &answer)| {
            let i = (occ.wrapping_mul(magic) >> self.shift) as usize;
            if self.written[i] != self.attempt {
                self.written[i] = self.attempt;
                self.table[i] = answer;
                true
            } else {
                self.table[i] == answer
            }
        })
    }

    /// Draws multipliers until one fills the table. Slow for the long lines of a large
    /// board (about half a second for 8x8), which is why 8x8 starts from known ones.
    fn search(&mut self, occupancies: &[u64], answers: &[u64], rng: &mut Rng) -> u64 {
        loop {
            // Sparse candidates whose top byte spreads the mask find a multiplier far sooner.
            let magic = rng.next() & rng.next() & rng.next();
            if self.mask.count_ones() >= 6 && (self.mask.wrapping_mul(magic) >> 56).count_ones() < 6
            {
                continue;
            }
            if self.fill(magic, occupancies, answers) {
                return magic;
            }
        }
    }
}

/// Multipliers this module's search found for the 8x8 board; each is still checked on every
/// occupancy when its table is filled, and sought afresh if it fails.
fn known_8x8(group: LineGroup) -> &'static [u64; 64] {
    match group {
        LineGroup::Orthogonal => &ORTHOGONAL_8X8,
        LineGroup::Diagonal => &DIAGONAL_8X8,
    }
}

const ORTHOGONAL_8X8: [u64; 64] = [
    0x0080_0090_8064_c000,
    0x0040_2000_4000_1000,
    0x0180_1000_80a0_010a,
    0x8880_0410_0080_0800,
    0x1200_1002_0120_0804,
    0x0200_0200_0401_1008,
    0x2180_0100_0080_0600,
    0x0200_0050_8821_0204,
    0x0400_8000_4000_8021,
    0x0400_4000_2000_5000,
    0x8240_8010_0020_0080,
    0x8611_0010_0420_0900,
    0x0081_8080_0c00_1800,
    0x0100_8002_0080_0400,
    0x0a02_0001_0200_0408,
    0x8020_8023_0010_4280,
    0x0080_0040_0040_2000,
    0xe010_1040_0040_2000,
    0x0800_8080_1000_2000,
    0xa280_2100_0810_0100,
    0x0001_8180_1400_0800,
    0xa002_0101_0008_0400,
    0x0080_2400_0102_0870,
    0x0001_0200_0404_8845,
    0x0081_8262_8000_4004,
    0x2020_8109_0028_4000,
    0x0200_1000_8080_2000,
    0x0200_0800_8010_0080,
    0x8083_0801_0010_0500,
    0x4406_0009_0100_0400,
    0x0005_0200_8080_0100,
    0x0090_2042_0000_8114,
    0x0010_4000_9480_0420,
    0x0900_8040_0080_2002,
    0x0201_0018_4100_2000,
    0x4100_0800_8080_1000,
    0x4540_0400_8080_0800,
    0x0002_0010_0404_0020,
    0x0281_1958_1400_1002,
    0x1240_8000_4080_0100,
    0x0880_0420_0052_4004,
    0x02c0_8041_0206_002c,
    0x0801_2002_4105_0010,
    0x8400_0800_1000_8080,
    0x0008_0005_0009_0010,
    0x0082_0090_8402_0008,
    0x4012_0001_0802_0004,
    0x9000_104d_0886_0004,
    0x2004_2041_1480_0100,
    0x0148_8021_1240_0300,
    0x0202_8420_0010_0880,
    0x001b_0800_8090_0080,
    0x001a_0020_0810_0600,
    0x0004_0080_0402_0080,
    0x5181_0006_0004_0300,
    0x0000_0444_0112_8a00,
    0x8044_1104_8000_2441,
    0x2008_1100_8440_2202,
    0x9080_6005_0900_10c1,
    0x0004_2031_0a00_4a42,
    0x0023_0010_0402_0801,
    0x0882_0010_0804_0102,
    0x0002_3008_8118_020c,
    0x0000_0190_2504_0042,
];
const DIAGONAL_8X8: [u64; 64] = [
    0x0020_4284_0040_8200,
    0x2008_0101_0421_0004,
    0x0010_2902_0068_8800,
    0x020c_0c02_8020_0004,
    0x4024_0420_4000_1202,
    0x0002_0802_8900_1020,
    0x0000_8210_0222_0080,
    0x0201_0041_1018_2224,
    0x0080_4028_0549_0200,
    0x3001_4882_3084_0100,
    0x4024_1004_0581_2020,
    0x0000_0404_0080_4088,
    0x0540_0404_2110_0250,
    0x0405_0510_0805_3010,
    0x0180_0904_0120_1810,
    0x0204_2122_8404_2000,
    0x2405_0420_0890_0300,
    0x0008_2202_0808_0080,
    0x0482_0050_0820_4100,
    0x8008_0500_8200_4042,
    0x0801_0088_2008_4082,
    0x0003_0004_8041_4000,
    0x0080_4201_0848_0400,
    0x2820_2906_0202_0210,
    0x0020_0800_3408_0848,
    0xa0e1_1000_2404_2803,
    0x2804_0206_4040_8108,
    0x48c8_0800_0082_0500,
    0x0080_8480_0400_2000,
    0x0801_0040_1200_5044,
    0x0000_8090_2c04_0400,
    0x0004_0090_0500_4100,
    0x0081_2808_3041_1010,
    0x0001_0420_0403_0801,
    0x0800_1402_0010_0080,
    0x8401_0108_0091_0040,
    0x0840_0100_1129_0040,
    0x4010_0214_202e_1000,
    0x0842_0400_4001_0840,
    0x0208_0182_8010_2200,
    0x8218_2442_2800_2008,
    0x0034_1084_0c10_1002,
    0x0021_1201_1000_0d02,
    0x48c1_0042_0800_0084,
    0x0010_0881_0041_4400,
    0x0021_1010_0042_0580,
    0x0010_0405_5840_1410,
    0x0010_0502_0080_0060,
    0x0011_1088_2008_8000,
    0x4801_0100_9024_0008,
    0x8820_0ca3_0808_0080,
    0x0000_1100_8404_2802,
    0x0200_8110_0602_0240,
    0x0102_6084_0112_0200,
    0x2408_0244_0c04_0221,
    0x0810_1022_0086_2120,
    0x4001_0400_8208_0200,
    0x0822_00a4_9808_1808,
    0x1400_1602_0124_8808,
    0x2040_2400_2820_8812,
    0x8040_0080_100a_0200,
    0x51d0_000a_0208_0204,
    0xc000_1084_0800_8401,
    0x0608_8208_4800_2480,
];

/// xorshift64*: enough to draw candidate multipliers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Shape;

    fn board_of(shape: &Shape) -> (Vec<u64>, [bool; 26]) {
        let cells = shape.cells();
        let mut rays = vec![0u64; 26 * cells];
        for (d, &v) in DIRECTIONS.iter().enumerate() {
            for c in shape.all_cells() {
                let mut cur = c;
                while let Some(n) = shape.offset(cur, v) {
                    rays[d * cells + c.index()] |= 1u64 << n.index();
                    cur = n;
                }
            }
        }
        let positive = std::array::from_fn(|d| shape.linear(DIRECTIONS[d]) > 0);
        (rays, positive)
    }

    /// The lookup gives the walked answer for random occupancies on several board sizes
    /// (the subsets of each mask are checked when the multiplier is found; these test the
    /// cells outside the mask too).
    #[test]
    fn lookup_matches_the_walk_on_random_occupancies() {
        for (files, ranks) in [(8, 8), (6, 6), (5, 7), (8, 4), (1, 8)] {
            let shape = Shape::flat(files, ranks);
            let (rays, positive) = board_of(&shape);
            let lines = lines_for(&shape, &rays, &positive);
            let board = Board {
                cells: shape.cells(),
                rays: &rays,
                positive: &positive,
            };
            let all = if shape.cells() == 64 {
                !0
            } else {
                (1u64 << shape.cells()) - 1
            };
            let mut rng = Rng(7);
            for _ in 0..2000 {
                let occ = rng.next() & rng.next() & all;
                for cell in 0..shape.cells() {
                    for (group, lookup) in [
                        (LineGroup::Orthogonal, &lines.orthogonal),
                        (LineGroup::Diagonal, &lines.diagonal),
                    ] {
                        assert_eq!(
                            lookup.attacks(cell, occ),
                            board.walk(group, cell, occ),
                            "{files}x{ranks} cell {cell} occ {occ:#x} {group:?}"
                        );
                    }
                }
            }
        }
    }

    /// Every known 8x8 multiplier fills its table: none falls back to the slow search.
    #[test]
    fn the_known_8x8_multipliers_all_hold() {
        let shape = Shape::flat(8, 8);
        let (rays, positive) = board_of(&shape);
        let board = Board {
            cells: 64,
            rays: &rays,
            positive: &positive,
        };
        for group in [LineGroup::Orthogonal, LineGroup::Diagonal] {
            for (cell, &magic) in known_8x8(group).iter().enumerate() {
                let (mask, occupancies, answers) = board.cases(group, cell);
                assert!(
                    Slots::new(mask).fill(magic, &occupancies, &answers),
                    "{group:?} cell {cell}"
                );
            }
        }
    }

    #[test]
    fn a_rook_in_the_corner_of_an_empty_8x8_board_reaches_fourteen_cells() {
        let shape = Shape::flat(8, 8);
        let (rays, positive) = board_of(&shape);
        let lines = lines_for(&shape, &rays, &positive);
        assert_eq!(lines.orthogonal.attacks(0, 0).count_ones(), 14);
        assert_eq!(lines.diagonal.attacks(0, 0).count_ones(), 7);
        // b1 and a2 occupied: the rook reaches exactly those two.
        assert_eq!(lines.orthogonal.attacks(0, 0b1_0000_0010), 0b1_0000_0010);
    }
}
