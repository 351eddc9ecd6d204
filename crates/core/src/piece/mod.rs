//! Pieces as data. A piece kind is a list of move atoms in the piece's own frame (forward =
//! +y); the move generator compiles them into per-(kind, player, cell) tables. 2D pieces are
//! written in Betza notation ([`betza`]); 3D pieces are built from the orthogonal / standard
//! diagonal / nonstandard diagonal vector classes by their games.

pub mod betza;

use crate::geometry::{Cell, Orientation, Shape, Vec3, DIRECTIONS};

/// Whether a move atom may move to an empty cell, capture, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Both,
    Move,
    Capture,
}

impl Mode {
    pub fn moves(self) -> bool {
        self != Mode::Capture
    }
    pub fn captures(self) -> bool {
        self != Mode::Move
    }
}

/// A condition on a leap that depends on where it starts and ends (Missionary's Stockbroker
/// captures only when it changes ring, for example). Evaluated once, when tables are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeapCondition {
    Always,
    /// The from- and to-columns lie on the same ring (Missionary, docs/rules.md 4.1).
    SameRing,
    /// The from- and to-columns lie on different rings.
    RingChange,
    /// The from-cell lies in the far half of the board as seen by the mover (Chess with
    /// Cyclical Armies' Chinese Pawn steps sideways only there).
    FarHalf,
}

impl LeapCondition {
    /// Whether the condition holds for a leap from `from` to `to` of a piece turned by
    /// `orient` (the far half depends on which way the mover faces; rings do not).
    pub fn holds(self, shape: &Shape, orient: Orientation, from: Cell, to: Cell) -> bool {
        let ring = |c| {
            let (x, _, z) = shape.coords(c);
            let centre = |v: i32, n: u8| (2 * v - (n as i32 - 1)).abs();
            // Twice the ring's Chebyshev distance from the board's central axis.
            centre(x, shape.files).max(centre(z, shape.levels))
        };
        match self {
            LeapCondition::Always => true,
            LeapCondition::SameRing => ring(from) == ring(to),
            LeapCondition::RingChange => ring(from) != ring(to),
            LeapCondition::FarHalf => {
                let y = shape.y(from);
                let own_y = if orient.flip_y {
                    shape.ranks as i32 - 1 - y
                } else {
                    y
                };
                2 * own_y >= shape.ranks as i32
            }
        }
    }
}

/// One way a piece moves, in its own frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atom {
    /// A jump to a fixed displacement.
    Leap {
        to: Vec3,
        mode: Mode,
        when: LeapCondition,
    },
    /// A slide along a unit direction, blocked by any piece; `max == 0` means unlimited.
    Slide { step: Vec3, max: u8, mode: Mode },
    /// A leap that needs the cell at `via` to be empty (Betza `n`, the Mao).
    Lame { via: Vec3, to: Vec3, mode: Mode },
    /// One step along `first` (that cell must be empty), then a slide of one or more cells
    /// along `then` (the Armies of Faith Gryphon and Anchorite).
    Bent { first: Vec3, then: Vec3, mode: Mode },
}

impl Atom {
    pub fn leap(to: Vec3) -> Atom {
        Atom::Leap {
            to,
            mode: Mode::Both,
            when: LeapCondition::Always,
        }
    }
    pub fn slide(step: Vec3) -> Atom {
        Atom::Slide {
            step,
            max: 0,
            mode: Mode::Both,
        }
    }
    pub fn mode(self) -> Mode {
        match self {
            Atom::Leap { mode, .. }
            | Atom::Slide { mode, .. }
            | Atom::Lame { mode, .. }
            | Atom::Bent { mode, .. } => mode,
        }
    }
    pub fn with_mode(self, m: Mode) -> Atom {
        match self {
            Atom::Leap { to, when, .. } => Atom::Leap { to, mode: m, when },
            Atom::Slide { step, max, .. } => Atom::Slide { step, max, mode: m },
            Atom::Lame { via, to, .. } => Atom::Lame { via, to, mode: m },
            Atom::Bent { first, then, .. } => Atom::Bent {
                first,
                then,
                mode: m,
            },
        }
    }
    /// An unlimited slide (what pins and skewers are made of).
    pub fn is_unlimited_slide(self) -> bool {
        matches!(self, Atom::Slide { max: 0, .. })
    }
}

/// A piece kind: name, position-string token, moves and the few flags rules need.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceDef {
    pub name: String,
    /// Upper-case (White / first player) position-string token, e.g. `N`, `+W`, `CV`.
    pub token: String,
    pub atoms: Vec<Atom>,
    /// Its capture ends the game / it must not be left attacked (subject to the variant's
    /// royal rule).
    pub royal: bool,
    /// Pawn-like: its moves reset the move-rule clock.
    pub pawn: bool,
    /// Unit steps along which it may make a double step from the variant's initial cells.
    pub double_steps: Vec<Vec3>,
    /// It may capture en passant (with its capture leaps onto the skipped cell).
    pub en_passant: bool,
    /// The Betza description, sent to GUIs that can show the piece (XBoard `piece` command).
    pub betza: Option<String>,
    /// A published value in centipawns, if any.
    pub value: Option<i32>,
}

impl PieceDef {
    pub fn new(name: &str, token: &str, atoms: Vec<Atom>) -> Self {
        PieceDef {
            name: name.to_string(),
            token: token.to_string(),
            atoms,
            royal: false,
            pawn: false,
            double_steps: Vec::new(),
            en_passant: false,
            betza: None,
            value: None,
        }
    }

    /// A 2D piece from Betza notation. Panics only on notation written in the program itself;
    /// user-supplied notation goes through [`betza::parse`] and its error.
    pub fn from_betza(name: &str, token: &str, notation: &str) -> Self {
        let atoms = betza::parse(notation).unwrap_or_else(|e| panic!("built-in piece {name}: {e}"));
        PieceDef {
            betza: Some(notation.to_string()),
            ..PieceDef::new(name, token, atoms)
        }
    }

    pub fn royal(mut self) -> Self {
        self.royal = true;
        self
    }
    pub fn valued(mut self, centipawns: i32) -> Self {
        self.value = Some(centipawns);
        self
    }
    /// A FIDE-style pawn: double step forward from the initial cells, captures en passant.
    pub fn with_double_step(mut self) -> Self {
        self.double_steps = vec![Vec3::flat(0, 1)];
        self.en_passant = true;
        self
    }
    pub fn pawn(mut self) -> Self {
        self.pawn = true;
        self
    }

    /// Whether any atom slides along a line (so the piece can pin and be blocked).
    pub fn has_slides(&self) -> bool {
        self.atoms.iter().any(|a| matches!(a, Atom::Slide { .. }))
    }
}

/// Unit vectors of one class: 1 = orthogonal, 2 = standard diagonal, 3 = nonstandard diagonal.
pub fn unit_vectors(class: u8) -> impl Iterator<Item = Vec3> {
    DIRECTIONS
        .into_iter()
        .filter(move |d| d.nonzero_axes() == class)
}

/// Upper bound on the piece kinds of one variant (Armies of Faith has 31).
pub const MAX_KINDS: usize = 32;

/// Index of a piece kind in its variant's piece table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Kind(pub u8);

impl Kind {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A player: 0 and 1 in two-player games (White, Black), 0..4 in Armies of Faith.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Player(pub u8);

impl Player {
    pub const WHITE: Player = Player(0);
    pub const BLACK: Player = Player(1);
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece on the board: owner and kind, packed in a non-zero byte so that
/// `Option<Piece>` is one byte in the mailbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(std::num::NonZeroU8);

impl Piece {
    #[inline]
    pub fn new(player: Player, kind: Kind) -> Piece {
        debug_assert!(kind.index() < MAX_KINDS && player.0 < 4);
        Piece(std::num::NonZeroU8::new(player.0 * MAX_KINDS as u8 + kind.0 + 1).unwrap())
    }
    #[inline]
    pub fn player(self) -> Player {
        Player((self.0.get() - 1) / MAX_KINDS as u8)
    }
    #[inline]
    pub fn kind(self) -> Kind {
        Kind((self.0.get() - 1) % MAX_KINDS as u8)
    }
    /// Dense code 0..4*MAX_KINDS, for tables such as Zobrist keys.
    #[inline]
    pub fn code(self) -> usize {
        self.0.get() as usize - 1
    }
    #[inline]
    pub fn to_byte(self) -> u8 {
        self.0.get()
    }
    #[inline]
    pub fn from_byte(b: u8) -> Option<Piece> {
        std::num::NonZeroU8::new(b).map(Piece)
    }
}
