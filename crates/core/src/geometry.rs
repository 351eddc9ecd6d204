//! Board shapes of one to three dimensions, cells, direction vectors and per-player
//! orientation. Every game's board is a box of `files x ranks x levels` cells; a 2D board is
//! the special case `levels == 1`.
//!
//! Axes: x = file, y = rank (or row), z = level. A cell's index is
//! `x + files * (y + ranks * z)`, so "increasing index" along a direction is decided by the
//! sign of its linear offset, which lets sliders find their first blocker with a single
//! lowest/highest-bit query in any number of dimensions.

use std::fmt;

/// The largest board any game uses (Armies of Faith: 10x8x4).
pub const MAX_CELLS: usize = 320;

/// A cell index on a board. Only meaningful together with the board's [`Shape`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Cell(pub u16);

impl Cell {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A displacement (dx, dy, dz) between two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vec3 {
    pub x: i8,
    pub y: i8,
    pub z: i8,
}

impl Vec3 {
    pub const fn new(x: i8, y: i8, z: i8) -> Self {
        Vec3 { x, y, z }
    }
    pub const fn flat(x: i8, y: i8) -> Self {
        Vec3 { x, y, z: 0 }
    }
    pub fn scaled(self, k: i8) -> Self {
        Vec3::new(self.x * k, self.y * k, self.z * k)
    }
    /// Number of non-zero coordinates: 1 = orthogonal, 2 = standard diagonal (SD),
    /// 3 = nonstandard diagonal (ND), for unit vectors.
    pub fn nonzero_axes(self) -> u8 {
        (self.x != 0) as u8 + (self.y != 0) as u8 + (self.z != 0) as u8
    }
    pub fn is_unit(self) -> bool {
        self != Vec3::new(0, 0, 0) && self.x.abs() <= 1 && self.y.abs() <= 1 && self.z.abs() <= 1
    }
}

impl std::ops::Neg for Vec3 {
    type Output = Vec3;
    fn neg(self) -> Vec3 {
        self.scaled(-1)
    }
}

impl std::ops::Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

/// The 26 unit directions of 3D space. 2D boards use the 8 with `z == 0`.
pub const DIRECTIONS: [Vec3; 26] = {
    let mut out = [Vec3::new(0, 0, 0); 26];
    let mut i = 0;
    let mut code = 0;
    while code < 27 {
        let (x, y, z) = (
            (code % 3) as i8 - 1,
            ((code / 3) % 3) as i8 - 1,
            (code / 9) as i8 - 1,
        );
        if x != 0 || y != 0 || z != 0 {
            out[i] = Vec3::new(x, y, z);
            i += 1;
        }
        code += 1;
    }
    out
};

/// Index of a unit vector in [`DIRECTIONS`].
pub fn direction_index(v: Vec3) -> Option<usize> {
    DIRECTIONS.iter().position(|&d| d == v)
}

/// How a player's pieces are turned on the board: pieces are described in their own frame
/// (forward = +y, and for Armies of Faith the second forward direction = +x); each player's
/// frame is the board frame with some axes mirrored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Orientation {
    pub flip_x: bool,
    pub flip_y: bool,
    pub flip_z: bool,
}

impl Orientation {
    pub const IDENTITY: Orientation = Orientation {
        flip_x: false,
        flip_y: false,
        flip_z: false,
    };
    /// Black in a 2-player game: forward is -y.
    pub const MIRROR_Y: Orientation = Orientation {
        flip_x: false,
        flip_y: true,
        flip_z: false,
    };

    pub fn apply(self, v: Vec3) -> Vec3 {
        let s = |flip: bool, c: i8| if flip { -c } else { c };
        Vec3::new(
            s(self.flip_x, v.x),
            s(self.flip_y, v.y),
            s(self.flip_z, v.z),
        )
    }
}

/// How cells are written in position and move strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellNaming {
    /// `e4`: file letter, rank number (2D boards).
    FileRank,
    /// `wd2`: level letter from `u`, file letter, rank number (Missionary, 6x6x8).
    LevelFileRank,
    /// `js3`: file letter, row letter from `s`, level number (Armies of Faith).
    FileRowLevel,
}

/// A board: a box of cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub files: u8,
    pub ranks: u8,
    pub levels: u8,
    pub naming: CellNaming,
}

impl Shape {
    pub const fn flat(files: u8, ranks: u8) -> Self {
        Shape {
            files,
            ranks,
            levels: 1,
            naming: CellNaming::FileRank,
        }
    }

    pub fn cells(&self) -> usize {
        self.files as usize * self.ranks as usize * self.levels as usize
    }

    pub fn all_cells(&self) -> impl Iterator<Item = Cell> {
        (0..self.cells() as u16).map(Cell)
    }

    pub fn cell(&self, x: i32, y: i32, z: i32) -> Option<Cell> {
        let inside = (0..self.files as i32).contains(&x)
            && (0..self.ranks as i32).contains(&y)
            && (0..self.levels as i32).contains(&z);
        inside.then(|| Cell((x + self.files as i32 * (y + self.ranks as i32 * z)) as u16))
    }

    pub fn coords(&self, c: Cell) -> (i32, i32, i32) {
        let i = c.0 as i32;
        let (f, r) = (self.files as i32, self.ranks as i32);
        (i % f, (i / f) % r, i / (f * r))
    }

    pub fn x(&self, c: Cell) -> i32 {
        self.coords(c).0
    }
    pub fn y(&self, c: Cell) -> i32 {
        self.coords(c).1
    }
    pub fn z(&self, c: Cell) -> i32 {
        self.coords(c).2
    }

    /// The cell reached from `c` by displacement `v`, if it is on the board.
    pub fn offset(&self, c: Cell, v: Vec3) -> Option<Cell> {
        let (x, y, z) = self.coords(c);
        self.cell(x + v.x as i32, y + v.y as i32, z + v.z as i32)
    }

    /// Linear index offset of a direction: positive means the ray goes toward higher indices.
    pub fn linear(&self, v: Vec3) -> i32 {
        v.x as i32 + self.files as i32 * (v.y as i32 + self.ranks as i32 * v.z as i32)
    }

    /// Whether the direction moves within the board's dimensions (2D boards have no z moves).
    pub fn supports(&self, v: Vec3) -> bool {
        (v.z == 0 || self.levels > 1)
            && (v.y == 0 || self.ranks > 1)
            && (v.x == 0 || self.files > 1)
    }

    pub fn cell_name(&self, c: Cell) -> String {
        let (x, y, z) = self.coords(c);
        let letter = |base: u8, i: i32| (base + i as u8) as char;
        match self.naming {
            CellNaming::FileRank => format!("{}{}", letter(b'a', x), y + 1),
            CellNaming::LevelFileRank => format!("{}{}{}", letter(b'u', z), letter(b'a', x), y + 1),
            CellNaming::FileRowLevel => format!("{}{}{}", letter(b'a', x), letter(b's', y), z + 1),
        }
    }

    /// Parses a cell name at the start of `s`; returns the cell and the number of bytes read.
    pub fn parse_cell_prefix(&self, s: &str) -> Option<(Cell, usize)> {
        let b = s.as_bytes();
        let letter = |i: usize, base: u8, n: u8| -> Option<i32> {
            let ch = *b.get(i)?;
            (ch >= base && ch < base + n).then(|| (ch - base) as i32)
        };
        let number = |i: usize, n: u8| -> Option<(i32, usize)> {
            let digits = b[i.min(b.len())..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            if digits == 0 || digits > 2 {
                return None;
            }
            let v: i32 = s[i..i + digits].parse().ok()?;
            (1..=n as i32).contains(&v).then_some((v - 1, digits))
        };
        match self.naming {
            CellNaming::FileRank => {
                let x = letter(0, b'a', self.files)?;
                let (y, len) = number(1, self.ranks)?;
                Some((self.cell(x, y, 0)?, 1 + len))
            }
            CellNaming::LevelFileRank => {
                let z = letter(0, b'u', self.levels)?;
                let x = letter(1, b'a', self.files)?;
                let (y, len) = number(2, self.ranks)?;
                Some((self.cell(x, y, z)?, 2 + len))
            }
            CellNaming::FileRowLevel => {
                // Files (a..) and rows (s..) use disjoint letters, so the row-first order
                // the Armies of Faith seed also uses (`sj3`) is unambiguous.
                let (x, y) = match (letter(0, b'a', self.files), letter(1, b's', self.ranks)) {
                    (Some(x), Some(y)) => (x, y),
                    _ => (letter(1, b'a', self.files)?, letter(0, b's', self.ranks)?),
                };
                let (z, len) = number(2, self.levels)?;
                Some((self.cell(x, y, z)?, 2 + len))
            }
        }
    }

    /// Parses a whole string as one cell name.
    pub fn parse_cell(&self, s: &str) -> Option<Cell> {
        match self.parse_cell_prefix(s) {
            Some((c, n)) if n == s.len() => Some(c),
            _ => None,
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.levels == 1 {
            write!(f, "{}x{}", self.files, self.ranks)
        } else {
            write!(f, "{}x{}x{}", self.files, self.ranks, self.levels)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_are_the_26_unit_vectors() {
        assert_eq!(
            DIRECTIONS.iter().filter(|d| d.nonzero_axes() == 1).count(),
            6
        );
        assert_eq!(
            DIRECTIONS.iter().filter(|d| d.nonzero_axes() == 2).count(),
            12
        );
        assert_eq!(
            DIRECTIONS.iter().filter(|d| d.nonzero_axes() == 3).count(),
            8
        );
        assert!(DIRECTIONS.iter().all(|d| d.is_unit()));
    }

    #[test]
    fn cell_names_round_trip_in_every_naming() {
        let shapes = [
            Shape::flat(8, 8),
            Shape {
                files: 6,
                ranks: 8,
                levels: 6,
                naming: CellNaming::LevelFileRank,
            },
            Shape {
                files: 10,
                ranks: 8,
                levels: 4,
                naming: CellNaming::FileRowLevel,
            },
        ];
        for shape in shapes {
            for c in shape.all_cells() {
                assert_eq!(shape.parse_cell(&shape.cell_name(c)), Some(c), "{shape}");
            }
        }
        let cube = shapes[1];
        assert_eq!(cube.cell_name(cube.cell(3, 1, 2).unwrap()), "wd2");
        let aof = shapes[2];
        assert_eq!(aof.cell_name(aof.cell(9, 0, 2).unwrap()), "js3");
        assert_eq!(aof.parse_cell("sj3"), aof.parse_cell("js3"));
        assert_eq!(aof.parse_cell("ss3"), None);
        assert_eq!(shapes[0].parse_cell("i1"), None);
        assert_eq!(shapes[0].parse_cell("a9"), None);
        assert_eq!(shapes[0].parse_cell("a10"), None);
    }

    #[test]
    fn orientation_mirrors_axes() {
        let v = Vec3::new(1, 2, 1);
        assert_eq!(Orientation::MIRROR_Y.apply(v), Vec3::new(1, -2, 1));
        let both = Orientation {
            flip_x: true,
            flip_y: true,
            flip_z: false,
        };
        assert_eq!(both.apply(v), Vec3::new(-1, -2, 1));
    }
}
