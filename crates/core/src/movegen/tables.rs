//! A variant compiled for one bitset width: ray masks, per-(player, kind, cell) leap tables,
//! reverse tables for attack detection, promotion zones, castling masks and Zobrist keys.
//! Built once when a variant is selected; read-only afterwards.

use super::planar::{self, LineGroup, LineMasks, PlanarLines};
use crate::bitboard::{BitSet, Wide};
use crate::geometry::{Cell, Shape, Vec3, DIRECTIONS};
use crate::moves::Move;
use crate::outcome::{Outcome, Verdict};
use crate::piece::{Atom, Kind, Mode, Player, MAX_KINDS};
use crate::position::error::PositionError;
use crate::position::Position;
use crate::variant::{RuleFunctions, Variant};
use std::sync::Arc;

/// Rule events after a move, before the next player's turn.
pub type AfterMove<B> = fn(&Tables<B>, &mut Position<B>);
/// Whether the game ended before the side to move moves.
pub type GameOver<B> = fn(&Tables<B>, &Position<B>) -> bool;
/// Calls the sink with each pseudo-legal move that no piece's move table makes.
pub type ExtraMoves<B> = fn(&Tables<B>, &Position<B>, &mut dyn FnMut(Move));
/// A verdict on the position before the side to move moves.
pub type VerdictOf<B> = fn(&Tables<B>, &Position<B>) -> Option<Verdict>;
/// How the game has ended, given the earlier positions and moves, oldest first.
pub type OutcomeOf<B> = fn(&Tables<B>, &Position<B>, &[(Position<B>, Move)]) -> Option<Outcome>;
/// Reads a position string.
pub type ParsePosition<B> = fn(&Tables<B>, &str) -> Result<Position<B>, PositionError>;
/// Writes a position string.
pub type FormatPosition<B> = fn(&Tables<B>, &Position<B>) -> String;

/// The rules of a family that are functions rather than data, for one bitset width. Each is
/// `None` where the family has no such rule, so that the shared code pays one test of a
/// field for it, as it would for a flag on the variant. A family fills these in when it
/// builds its variant ([`FamilyRules::for_both_widths`]).
pub struct FamilyRules<B: BitSet> {
    /// Armies of Faith's checkmates, eliminations and promotions by checkmate.
    pub after_move: Option<AfterMove<B>>,
    /// A game won by a checkmate, or with one army left, has no moves.
    pub game_over: Option<GameOver<B>>,
    /// Armies of Faith's mergers.
    pub extra_moves: Option<ExtraMoves<B>>,
    /// Cheap enough for every search node (Shatranj with Different Armies' bare King).
    pub verdict: Option<VerdictOf<B>>,
    /// The end of a game by the family's own rules.
    pub outcome: Option<OutcomeOf<B>>,
    /// A position-string format of the family's own.
    pub parse_position: Option<ParsePosition<B>>,
    pub format_position: Option<FormatPosition<B>>,
}

// By hand: a derive would ask `B: Clone`, which fn pointers do not need.
impl<B: BitSet> Clone for FamilyRules<B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: BitSet> Copy for FamilyRules<B> {}

impl<B: BitSet> Default for FamilyRules<B> {
    fn default() -> Self {
        FamilyRules {
            after_move: None,
            game_over: None,
            extra_moves: None,
            verdict: None,
            outcome: None,
            parse_position: None,
            format_position: None,
        }
    }
}

impl FamilyRules<u64> {
    /// The functions for both widths, as a variant carries them.
    pub fn for_both_widths(narrow: FamilyRules<u64>, wide: FamilyRules<Wide>) -> RuleFunctions {
        RuleFunctions::new(vec![Arc::new(narrow), Arc::new(wide)])
    }
}

/// A slide atom on the board: absolute direction, mode, and for limited ranges the cells in
/// reach from each cell.
#[derive(Clone, Debug)]
pub struct SlideAtom<B> {
    pub dir: u8,
    pub mode: Mode,
    pub max: u8,
    pub limit: Vec<B>,
}

/// A lame leap from a given cell: `via` must be empty.
#[derive(Clone, Copy, Debug)]
pub struct LameLeap {
    pub via: Cell,
    pub to: Cell,
    pub mode: Mode,
}

/// A bent move from a given cell: step to `first` (must be empty), then slide along `dir`.
#[derive(Clone, Copy, Debug)]
pub struct BentStart {
    pub first: Cell,
    pub dir: u8,
    pub mode: Mode,
}

/// Everything about one kind of one player.
#[derive(Clone, Debug)]
pub struct KindTables<B> {
    pub quiet: Vec<B>,
    pub capture: Vec<B>,
    /// Cells from which this kind's capturing leaps reach the indexed cell.
    pub attacked_from: Vec<B>,
    pub slides: Vec<SlideAtom<B>>,
    /// Capture range along each direction: 0 none, 255 unlimited.
    pub slide_range: [u8; 26],
    pub lame: Vec<Vec<LameLeap>>,
    /// For each target cell: the lame capture leaps that reach it, as (from, via).
    pub lame_attackers: Vec<Vec<(Cell, Cell)>>,
    pub bent: Vec<Vec<BentStart>>,
    /// Double steps from each cell: (skipped cell, destination).
    pub double_steps: Vec<Vec<(Cell, Cell)>>,
    pub royal: bool,
    pub pawn: bool,
    pub en_passant: bool,
    /// Whether `lame` / `bent` hold anything, so generation can skip them cheaply.
    pub has_lame: bool,
    pub has_bent: bool,
    /// Per cell, the slides as masks over the flat board's line lookup (empty where the
    /// board takes none: see [`Tables::lines`]).
    pub lines: Vec<LineMasks>,
}

/// A promotion rule compiled to cell sets.
#[derive(Clone, Debug)]
pub struct Promotion<B> {
    pub may_to: B,
    pub may_from: B,
    pub must_to: B,
    pub choices: Vec<Kind>,
}

impl<B: BitSet> Promotion<B> {
    /// Number of moves a piece on `from` makes onto `targets` once promotion choices are
    /// counted (used by bulk counting).
    #[inline]
    pub fn count(&self, from: Cell, targets: B) -> u64 {
        let n = self.choices.len() as u64;
        let must = (targets & self.must_to).count() as u64;
        let may = if self.may_from.contains(from) {
            targets.without(self.must_to)
        } else {
            targets & self.may_to.without(self.must_to)
        }
        .count() as u64;
        let plain = targets.count() as u64 - must - may;
        plain + may * (n + 1) + must * n
    }
}

#[derive(Clone, Debug)]
pub struct Zobrist {
    pub piece: Vec<u64>,
    pub hand: Vec<u64>,
    pub side: [u64; 4],
    pub castling: [u64; 16],
    pub ep: Vec<u64>,
    pub alive: [u64; 4],
}

pub const MAX_HAND: usize = 80;

impl Zobrist {
    fn new(cells: usize) -> Zobrist {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            // splitmix64: deterministic keys, so hashes (and bench signatures) are reproducible.
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            crate::bitboard::mix(state)
        };
        Zobrist {
            piece: (0..4 * MAX_KINDS * cells).map(|_| next()).collect(),
            hand: (0..4 * MAX_KINDS * MAX_HAND).map(|_| next()).collect(),
            side: [next(), next(), next(), next()],
            castling: std::array::from_fn(|_| next()),
            ep: (0..cells).map(|_| next()).collect(),
            alive: [next(), next(), next(), next()],
        }
    }
    #[inline]
    pub fn piece_key(&self, code: usize, cell: Cell, cells: usize) -> u64 {
        self.piece[code * cells + cell.index()]
    }
    #[inline]
    pub fn hand_key(&self, player: Player, kind: Kind, count: u8) -> u64 {
        self.hand[(player.index() * MAX_KINDS + kind.index()) * MAX_HAND
            + (count as usize).min(MAX_HAND - 1)]
    }
}

/// A variant compiled for bitset width `B`.
pub struct Tables<B: BitSet> {
    pub variant: Variant,
    pub shape: Shape,
    pub cells: usize,
    pub board: B,
    /// Ray masks: `rays[dir * cells + cell]`, excluding the origin.
    pub rays: Vec<B>,
    pub positive: [bool; 26],
    pub opposite: [u8; 26],
    /// Chebyshev distance between cells, `dist[a * cells + b]`.
    pub dist: Vec<u8>,
    /// The direction from `a` toward `b` when they share a line, `line_dir[a * cells + b]`;
    /// [`NO_LINE`] otherwise. Lets an attack test go from the few pieces on a cell's lines
    /// to their direction instead of looking along every direction for them.
    pub line_dir: Vec<u8>,
    /// `kinds[player][kind]`.
    pub kinds: Vec<Vec<KindTables<B>>>,
    /// Per player, per cell: cells from which any kind of that player captures on the cell
    /// with a leap (the union of the kinds' `attacked_from`), a quick test for attacks.
    pub leap_attackers: Vec<Vec<B>>,
    /// Per player: directions along which some kind of that player capture-slides.
    pub slide_dirs: Vec<Vec<u8>>,
    /// Per player: `slide_dirs` as a bit set (bit d for direction d).
    pub slide_dir_mask: Vec<u32>,
    /// Per player: the kinds that slide in some direction.
    pub slider_kinds: Vec<Vec<Kind>>,
    /// Per player, per cell: the lines along which a slider of that player could reach the
    /// cell on an empty board (every `slide_dirs` ray, looking back from the cell), a quick
    /// test that no slider attacks it.
    pub slide_lines: Vec<Vec<B>>,
    /// Per player: kinds with lame leaps / bent moves (checked piece by piece).
    pub lame_kinds: Vec<Vec<Kind>>,
    pub bent_kinds: Vec<Vec<Kind>>,
    pub royal_kinds: Vec<Kind>,
    /// Per player: kinds that may promote to a royal kind (SwDA's Berolina Pawn becomes a
    /// Crown Prince), which can change the royal count and so the legality rule, with the
    /// cells from which one move of theirs may end in such a promotion.
    pub royal_promoters: Vec<Vec<(Kind, B)>>,
    /// `promotions[player][kind]`.
    pub promotions: Vec<Vec<Option<Promotion<B>>>>,
    /// Castling rights kept when a move touches a cell: `rights &= castle_keep[cell]`.
    pub castle_keep: Vec<u8>,
    /// Per player, per kind: cells where a drop is forbidden.
    pub drop_forbidden: Vec<Vec<B>>,
    pub zobrist: Zobrist,
    /// The family's rule functions for this width.
    pub rules: FamilyRules<B>,
    /// The slider lookup of a flat board of up to 64 cells (see [`super::planar`]); with it,
    /// every kind's `lines` are filled in. Read it through [`Tables::lines`].
    planar: Option<Arc<PlanarLines>>,
}

impl<B: BitSet> Tables<B> {
    /// Compiles `variant`: the board's geometry (rays, directions, distances), then each
    /// kind's move tables and the per-player summaries of them, then the rules' tables
    /// (promotions, castling rights, drops).
    pub fn new(variant: Variant) -> Tables<B> {
        let shape = variant.shape;
        let cells = shape.cells();
        assert!(
            cells <= B::CAPACITY,
            "{} cells do not fit this bitset",
            cells
        );
        let mut board = B::empty();
        for c in shape.all_cells() {
            board.set(c);
        }
        let rays = ray_table(&shape);
        let positive = std::array::from_fn(|d| shape.linear(DIRECTIONS[d]) > 0);
        let opposite = std::array::from_fn(|d| {
            DIRECTIONS
                .iter()
                .position(|&o| o == -DIRECTIONS[d])
                .unwrap() as u8
        });
        let players = variant.players();
        let mut kinds: Vec<Vec<KindTables<B>>> = (0..players)
            .map(|p| {
                variant
                    .kinds()
                    .map(|k| compile_kind(&variant, Player(p as u8), k))
                    .collect()
            })
            .collect();
        let planar = planar::fits(&shape).then(|| {
            let words: Vec<u64> = rays.iter().map(|r: &B| r.low_word()).collect();
            for kt in kinds.iter_mut().flatten() {
                kt.lines = line_masks(kt, &words, cells);
            }
            planar::lines_for(&shape, &words, &positive)
        });
        let slide_dirs = slide_directions(&kinds);
        let kinds_with = |pred: &dyn Fn(&Atom) -> bool| kinds_with(&variant, pred);
        let promotions = promotion_tables(&variant);
        let royal_promoters = royal_promoters(&variant, &kinds, &promotions, (&rays, cells, board));
        Tables {
            zobrist: Zobrist::new(cells),
            rules: variant.rules.get().unwrap_or_default(),
            dist: distance_table(&shape),
            line_dir: line_directions(&rays, cells),
            leap_attackers: leap_attackers(&kinds, cells),
            slider_kinds: slider_kinds(&kinds),
            slide_lines: slide_lines(&slide_dirs, &rays, &opposite, cells),
            slide_dir_mask: slide_dirs
                .iter()
                .map(|dirs| dirs.iter().fold(0, |acc, &d| acc | 1 << d))
                .collect(),
            lame_kinds: kinds_with(&|a| matches!(a, Atom::Lame { .. })),
            bent_kinds: kinds_with(&|a| matches!(a, Atom::Bent { .. })),
            royal_kinds: variant.kinds().filter(|&k| variant.kind(k).royal).collect(),
            castle_keep: castle_keep(&variant, cells),
            drop_forbidden: drop_forbidden(&variant),
            variant,
            shape,
            cells,
            board,
            rays,
            positive,
            opposite,
            kinds,
            slide_dirs,
            royal_promoters,
            promotions,
            planar,
        }
    }

    #[inline]
    pub fn kind(&self, p: Player, k: Kind) -> &KindTables<B> {
        &self.kinds[p.index()][k.index()]
    }

    #[inline]
    pub fn ray(&self, dir: usize, c: Cell) -> B {
        self.rays[dir * self.cells + c.index()]
    }

    /// The first occupied cell from `c` along `dir`, if any.
    #[inline]
    pub fn first_blocker(&self, dir: usize, c: Cell, occ: B) -> Option<Cell> {
        let hits = self.ray(dir, c) & occ;
        if self.positive[dir] {
            hits.lowest()
        } else {
            hits.highest()
        }
    }

    /// Cells a slider on `c` reaches along `dir`: empty cells up to and including the first
    /// occupied one.
    #[inline]
    pub fn ray_attack(&self, dir: usize, c: Cell, occ: B) -> B {
        let ray = self.ray(dir, c);
        match self.first_blocker(dir, c, occ) {
            Some(b) => ray ^ self.ray(dir, b),
            None => ray,
        }
    }

    /// The slider lookup of a flat board, if this board has one. Known to be `None` at compile
    /// time for sets wider than a word, so that the wide boards' code carries no trace of it.
    #[inline(always)]
    pub fn lines(&self) -> Option<&PlanarLines> {
        if B::CAPACITY > 64 {
            None
        } else {
            self.planar.as_deref()
        }
    }

    /// What the slides of the kind `kt` reach from `from` with `occ` occupied: the cells they
    /// capture on and the cells they move to, each up to and including the first occupied
    /// cell of its line (whose owner the caller checks).
    #[inline(always)]
    pub fn slide_reach(&self, kt: &KindTables<B>, from: Cell, occ: B) -> (B, B) {
        let Some(lines) = self.lines() else {
            return self.walk_slides(kt, from, occ);
        };
        let i = from.index();
        let m = kt.lines[i];
        let occ = occ.low_word();
        let (mut captures, mut moves) = (0u64, 0u64);
        if m.orthogonal_captures | m.orthogonal_moves != 0 {
            let a = lines.orthogonal.attacks(i, occ);
            captures |= a & m.orthogonal_captures;
            moves |= a & m.orthogonal_moves;
        }
        if m.diagonal_captures | m.diagonal_moves != 0 {
            let a = lines.diagonal.attacks(i, occ);
            captures |= a & m.diagonal_captures;
            moves |= a & m.diagonal_moves;
        }
        (B::from_low_word(captures), B::from_low_word(moves))
    }

    /// On a flat board, the cells seen from `cell` along its lines with `occ` occupied: the
    /// empty cells up to and including the first occupied one on each line. `None` where the
    /// board has no line lookup.
    #[inline(always)]
    pub fn line_reach(&self, cell: Cell, occ: B) -> Option<B> {
        let lines = self.lines()?;
        let (i, occ) = (cell.index(), occ.low_word());
        Some(B::from_low_word(
            lines.orthogonal.attacks(i, occ) | lines.diagonal.attacks(i, occ),
        ))
    }

    /// [`Self::slide_reach`] direction by direction, for boards without the line lookup.
    #[inline(always)]
    fn walk_slides(&self, kt: &KindTables<B>, from: Cell, occ: B) -> (B, B) {
        let i = from.index();
        let (mut captures, mut moves) = (B::empty(), B::empty());
        for s in &kt.slides {
            let mut a = self.ray_attack(s.dir as usize, from, occ);
            if s.max > 0 {
                a &= s.limit[i];
            }
            if s.mode.captures() {
                captures |= a;
            }
            if s.mode.moves() {
                moves |= a;
            }
        }
        (captures, moves)
    }

    /// The direction from `a` toward `b`, if they share a line.
    #[inline]
    pub fn line_dir(&self, a: Cell, b: Cell) -> Option<usize> {
        let d = self.line_dir[a.index() * self.cells + b.index()];
        (d != NO_LINE).then_some(d as usize)
    }

    #[inline]
    pub fn distance(&self, a: Cell, b: Cell) -> u8 {
        self.dist[a.index() * self.cells + b.index()]
    }

    pub fn players(&self) -> usize {
        self.kinds.len()
    }

    pub fn promotion(&self, p: Player, k: Kind) -> Option<&Promotion<B>> {
        self.promotions[p.index()][k.index()].as_ref()
    }
}

/// The ray masks, `rays[dir * cells + cell]`: the cells from `cell` along `dir` to the
/// board's edge, the origin left out.
fn ray_table<B: BitSet>(shape: &Shape) -> Vec<B> {
    let cells = shape.cells();
    let mut rays = vec![B::empty(); 26 * cells];
    for (d, &v) in DIRECTIONS.iter().enumerate() {
        for c in shape.all_cells() {
            let mut r = B::empty();
            let mut cur = c;
            while let Some(n) = shape.offset(cur, v) {
                r.set(n);
                cur = n;
            }
            rays[d * cells + c.index()] = r;
        }
    }
    rays
}

/// [`Tables::line_dir`]'s mark for two cells on no common line.
pub const NO_LINE: u8 = u8::MAX;

/// The direction of the ray from each cell through each other, `[a * cells + b]`.
fn line_directions<B: BitSet>(rays: &[B], cells: usize) -> Vec<u8> {
    let mut dirs = vec![NO_LINE; cells * cells];
    for d in 0..26 {
        for a in 0..cells {
            for b in rays[d * cells + a].cells() {
                dirs[a * cells + b.index()] = d as u8;
            }
        }
    }
    dirs
}

/// The Chebyshev distance between cells, `dist[a * cells + b]`.
fn distance_table(shape: &Shape) -> Vec<u8> {
    let cells = shape.cells();
    let mut dist = vec![0u8; cells * cells];
    for a in shape.all_cells() {
        for b in shape.all_cells() {
            let (p, q) = (shape.coords(a), shape.coords(b));
            let d = (p.0 - q.0)
                .abs()
                .max((p.1 - q.1).abs())
                .max((p.2 - q.2).abs());
            dist[a.index() * cells + b.index()] = d as u8;
        }
    }
    dist
}

/// Per player, per cell: the union of the kinds' `attacked_from`.
fn leap_attackers<B: BitSet>(kinds: &[Vec<KindTables<B>>], cells: usize) -> Vec<Vec<B>> {
    kinds
        .iter()
        .map(|ks| {
            (0..cells)
                .map(|c| {
                    ks.iter()
                        .fold(B::empty(), |acc, kt| acc | kt.attacked_from[c])
                })
                .collect()
        })
        .collect()
}

/// Per player: the directions along which some kind slides.
fn slide_directions<B: BitSet>(kinds: &[Vec<KindTables<B>>]) -> Vec<Vec<u8>> {
    kinds
        .iter()
        .map(|ks| {
            (0..26u8)
                .filter(|&d| ks.iter().any(|kt| kt.slide_range[d as usize] > 0))
                .collect()
        })
        .collect()
}

/// Per player: the kinds that slide in some direction.
fn slider_kinds<B: BitSet>(kinds: &[Vec<KindTables<B>>]) -> Vec<Vec<Kind>> {
    kinds
        .iter()
        .map(|ks| {
            (0..ks.len())
                .filter(|&k| ks[k].slide_range.iter().any(|&r| r > 0))
                .map(|k| Kind(k as u8))
                .collect()
        })
        .collect()
}

/// Per player, per cell: every ray of the player's slide directions, looking back from the
/// cell.
fn slide_lines<B: BitSet>(
    slide_dirs: &[Vec<u8>],
    rays: &[B],
    opposite: &[u8; 26],
    cells: usize,
) -> Vec<Vec<B>> {
    slide_dirs
        .iter()
        .map(|dirs: &Vec<u8>| {
            (0..cells)
                .map(|c| {
                    dirs.iter().fold(B::empty(), |acc, &d| {
                        acc | rays[opposite[d as usize] as usize * cells + c]
                    })
                })
                .collect()
        })
        .collect()
}

/// Per player: the kinds with a move atom that `pred` picks.
fn kinds_with(variant: &Variant, pred: &dyn Fn(&Atom) -> bool) -> Vec<Vec<Kind>> {
    (0..variant.players())
        .map(|_| {
            variant
                .kinds()
                .filter(|&k| variant.kind(k).atoms.iter().any(pred))
                .collect()
        })
        .collect()
}

fn cell_set<B: BitSet>(cs: &[Cell]) -> B {
    let mut b = B::empty();
    cs.iter().for_each(|&c| b.set(c));
    b
}

/// `promotions[player][kind]`, the variant's promotion rules as cell sets.
fn promotion_tables<B: BitSet>(variant: &Variant) -> Vec<Vec<Option<Promotion<B>>>> {
    (0..variant.players())
        .map(|p| {
            variant
                .kinds()
                .map(|k| {
                    variant
                        .promotion_for(Player(p as u8), k)
                        .map(|r| Promotion {
                            may_to: cell_set(&r.may_to),
                            may_from: cell_set(&r.may_from),
                            must_to: cell_set(&r.must_to),
                            choices: r.choices.clone(),
                        })
                })
                .collect()
        })
        .collect()
}

/// Per player: the kinds that may promote to a royal kind, with the cells from which one
/// move of theirs may end in such a promotion. `geometry` is the rays, the cell count and
/// the board.
fn royal_promoters<B: BitSet>(
    variant: &Variant,
    kinds: &[Vec<KindTables<B>>],
    promotions: &[Vec<Option<Promotion<B>>>],
    (rays, cells, board): (&[B], usize, B),
) -> Vec<Vec<(Kind, B)>> {
    (0..variant.players())
        .map(|p| {
            variant
                .kinds()
                .filter(|&k| {
                    variant
                        .promotion_for(Player(p as u8), k)
                        .is_some_and(|r| r.choices.iter().any(|&c| variant.kind(c).royal))
                })
                .map(|k| {
                    let promo: &Promotion<B> = promotions[p][k.index()].as_ref().unwrap();
                    let kt = &kinds[p][k.index()];
                    let sources = promotion_sources(&variant.shape, kt, promo, rays, cells, board);
                    (k, sources)
                })
                .collect()
        })
        .collect()
}

/// Castling rights kept when a move touches a cell: `rights &= castle_keep[cell]`.
fn castle_keep(variant: &Variant, cells: usize) -> Vec<u8> {
    let mut castle_keep = vec![0xffu8; cells];
    for (i, c) in variant.castlings.iter().enumerate() {
        castle_keep[c.king_from.index()] &= !(1 << i);
        castle_keep[c.partner_from.index()] &= !(1 << i);
    }
    castle_keep
}

/// Per player, per kind: the cells where a drop is forbidden.
fn drop_forbidden<B: BitSet>(variant: &Variant) -> Vec<Vec<B>> {
    (0..variant.players())
        .map(|p| {
            variant
                .kinds()
                .map(|k| {
                    variant.drops.as_ref().map_or(B::empty(), |d| {
                        d.forbidden
                            .iter()
                            .filter(|(pl, kk, _)| pl.index() == p && *kk == k)
                            .fold(B::empty(), |acc, (_, _, cs)| acc | cell_set(cs))
                    })
                })
                .collect()
        })
        .collect()
}

/// Cells from which one move of a kind may end in a promotion: its reach ignoring blockers
/// meets the promotion zone (bent moves are not traced: every cell counts).
fn promotion_sources<B: BitSet>(
    shape: &Shape,
    kt: &KindTables<B>,
    promo: &Promotion<B>,
    rays: &[B],
    cells: usize,
    board: B,
) -> B {
    let zone = promo.may_to | promo.must_to;
    let mut out = promo.may_from;
    for c in shape.all_cells() {
        let i = c.index();
        let mut reach = kt.quiet[i] | kt.capture[i];
        kt.lame[i].iter().for_each(|l| reach.set(l.to));
        for s in &kt.slides {
            let ray = rays[s.dir as usize * cells + i];
            reach |= if s.max > 0 { ray & s.limit[i] } else { ray };
        }
        if !kt.bent[i].is_empty() {
            reach = board;
        }
        if (reach & zone).any() {
            out.set(c);
        }
    }
    out
}

fn compile_kind<B: BitSet>(variant: &Variant, player: Player, kind: Kind) -> KindTables<B> {
    let shape = variant.shape;
    let cells = shape.cells();
    let orient = variant.orientations[player.index()];
    let def = variant.kind(kind);
    let mut kt = KindTables {
        quiet: vec![B::empty(); cells],
        capture: vec![B::empty(); cells],
        attacked_from: vec![B::empty(); cells],
        slides: Vec::new(),
        slide_range: [0; 26],
        lame: vec![Vec::new(); cells],
        lame_attackers: vec![Vec::new(); cells],
        bent: vec![Vec::new(); cells],
        double_steps: vec![Vec::new(); cells],
        royal: def.royal,
        pawn: def.pawn,
        en_passant: def.en_passant,
        has_lame: false,
        has_bent: false,
        lines: Vec::new(),
    };
    for atom in &def.atoms {
        match *atom {
            Atom::Leap { to, mode, when } => {
                let v = orient.apply(to);
                for c in shape.all_cells() {
                    let Some(t) = shape.offset(c, v) else {
                        continue;
                    };
                    if !when.holds(&shape, orient, c, t) {
                        continue;
                    }
                    if mode.moves() {
                        kt.quiet[c.index()].set(t);
                    }
                    if mode.captures() {
                        kt.capture[c.index()].set(t);
                        kt.attacked_from[t.index()].set(c);
                    }
                }
            }
            Atom::Slide { step, max, mode } => {
                let v = orient.apply(step);
                if shape.supports(v) {
                    add_slide(&mut kt, &shape, v, max, mode);
                }
            }
            Atom::Lame { via, to, mode } => {
                let (via, to) = (orient.apply(via), orient.apply(to));
                for c in shape.all_cells() {
                    if let (Some(v), Some(t)) = (shape.offset(c, via), shape.offset(c, to)) {
                        kt.lame[c.index()].push(LameLeap {
                            via: v,
                            to: t,
                            mode,
                        });
                        if mode.captures() {
                            kt.lame_attackers[t.index()].push((c, v));
                        }
                    }
                }
            }
            Atom::Bent { first, then, mode } => {
                let (first, then) = (orient.apply(first), orient.apply(then));
                for c in shape.all_cells() {
                    if let Some(f) = shape.offset(c, first) {
                        kt.bent[c.index()].push(BentStart {
                            first: f,
                            dir: direction_of(then),
                            mode,
                        });
                    }
                }
            }
        }
    }
    kt.has_lame = kt.lame.iter().any(|l| !l.is_empty());
    kt.has_bent = kt.bent.iter().any(|b| !b.is_empty());
    if let Some(initial) = variant.double_step_cells.get(player.index()) {
        for &c in initial {
            for &step in &def.double_steps {
                let v = orient.apply(step);
                if let Some(s) = shape.offset(c, v) {
                    if let Some(t) = shape.offset(s, v) {
                        kt.double_steps[c.index()].push((s, t));
                    }
                }
            }
        }
    }
    kt
}

/// A kind's slides as masks over the line lookup, cell by cell: each slide's ray, cut to its
/// range, joins the captures or moves (or both) of its direction's group.
fn line_masks<B: BitSet>(kt: &KindTables<B>, rays: &[u64], cells: usize) -> Vec<LineMasks> {
    (0..cells)
        .map(|i| {
            let mut m = LineMasks::default();
            for s in &kt.slides {
                let ray = rays[s.dir as usize * cells + i];
                let reach = if s.max > 0 {
                    ray & s.limit[i].low_word()
                } else {
                    ray
                };
                let (captures, moves) = match LineGroup::of(s.dir as usize) {
                    Some(LineGroup::Orthogonal) => {
                        (&mut m.orthogonal_captures, &mut m.orthogonal_moves)
                    }
                    Some(LineGroup::Diagonal) => (&mut m.diagonal_captures, &mut m.diagonal_moves),
                    None => unreachable!("a flat board supports no slide out of its plane"),
                };
                if s.mode.captures() {
                    *captures |= reach;
                }
                if s.mode.moves() {
                    *moves |= reach;
                }
            }
            m
        })
        .collect()
}

/// The index of a unit direction vector in [`DIRECTIONS`].
fn direction_of(v: Vec3) -> u8 {
    crate::geometry::direction_index(v).expect("unit vector") as u8
}

/// Adds a slide along `v` (already turned to the player's orientation): its direction, its
/// reach when it is limited to `max` steps (0: unlimited), and the range at which it
/// captures.
fn add_slide<B: BitSet>(kt: &mut KindTables<B>, shape: &Shape, v: Vec3, max: u8, mode: Mode) {
    let dir = direction_of(v);
    let limit = if max == 0 {
        Vec::new()
    } else {
        shape
            .all_cells()
            .map(|c| {
                let mut m = B::empty();
                let mut cur = c;
                for _ in 0..max {
                    match shape.offset(cur, v) {
                        Some(n) => {
                            m.set(n);
                            cur = n;
                        }
                        None => break,
                    }
                }
                m
            })
            .collect()
    };
    if mode.captures() {
        let r = &mut kt.slide_range[dir as usize];
        *r = (*r).max(if max == 0 { 255 } else { max });
    }
    kt.slides.push(SlideAtom {
        dir,
        mode,
        max,
        limit,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{CellNaming, Orientation};
    use crate::piece::{unit_vectors, PieceDef};

    /// A bare variant on an arbitrary shape, for geometry tests.
    fn test_variant(
        shape: Shape,
        orientations: Vec<Orientation>,
        pieces: Vec<PieceDef>,
    ) -> Variant {
        let symbols = (0..orientations.len())
            .map(|i| (b'a' + i as u8) as char)
            .collect();
        Variant::new(
            "test",
            Default::default(),
            shape,
            orientations,
            symbols,
            pieces,
        )
    }

    /// On flat boards the line lookup gives what walking the slides gives, for slides limited
    /// in range, in mode, to some directions, and two slides along one direction.
    #[test]
    fn the_line_lookup_agrees_with_the_walk_for_odd_slides() {
        let (n, e, ne, nw) = (
            Vec3::flat(0, 1),
            Vec3::flat(1, 0),
            Vec3::flat(1, 1),
            Vec3::flat(-1, 1),
        );
        let limited = |step, max, mode| Atom::Slide { step, max, mode };
        let odd = PieceDef::new(
            "Odd",
            "O",
            vec![
                limited(n, 0, Mode::Move),
                limited(n, 2, Mode::Capture),
                limited(e, 0, Mode::Capture),
                limited(ne, 3, Mode::Both),
                limited(nw, 0, Mode::Move),
                Atom::leap(Vec3::flat(1, 2)),
            ],
        );
        let king = PieceDef::new("King", "K", unit_vectors(2).map(Atom::leap).collect());
        for (files, ranks) in [(8, 8), (6, 7)] {
            let shape = Shape::flat(files, ranks);
            let v = test_variant(
                shape,
                vec![Orientation::IDENTITY, Orientation::MIRROR_Y],
                vec![odd.clone(), king.clone()],
            );
            let t: Tables<u64> = Tables::new(v);
            assert!(t.lines().is_some());
            let mut seed = 0x1234_5678_9abc_def0u64;
            for _ in 0..300 {
                seed = crate::bitboard::mix(seed);
                let occ = seed & crate::bitboard::mix(seed ^ 1) & t.board;
                for p in [Player(0), Player(1)] {
                    let kt = t.kind(p, Kind(0));
                    for c in shape.all_cells() {
                        assert_eq!(
                            t.slide_reach(kt, c, occ),
                            t.walk_slides(kt, c, occ),
                            "{files}x{ranks} {p:?} {c:?} {occ:#x}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn three_d_slider_rays_and_leaper_tables() {
        let shape = Shape {
            files: 6,
            ranks: 8,
            levels: 6,
            naming: CellNaming::LevelFileRank,
        };
        let unicorn = PieceDef::new("Unicorn", "U", unit_vectors(3).map(Atom::slide).collect());
        let emperor = PieceDef::new(
            "Emperor",
            "K",
            crate::geometry::DIRECTIONS.map(Atom::leap).to_vec(),
        );
        let v = test_variant(
            shape,
            vec![Orientation::IDENTITY, Orientation::MIRROR_Y],
            vec![unicorn, emperor],
        );
        let t: Tables<crate::bitboard::Wide> = Tables::new(v);
        // A corner cell: the Emperor reaches 7 cells, a central one 26.
        let corner = shape.parse_cell("ua1").unwrap();
        let centre = shape.parse_cell("wc4").unwrap();
        assert_eq!(t.kind(Player(0), Kind(1)).quiet[corner.index()].count(), 7);
        assert_eq!(
            t.kind(Player(0), Kind(1)).capture[centre.index()].count(),
            26
        );
        // The Unicorn from ua1 slides along the one triagonal (1,1,1) to zf6.
        let all: u32 = t
            .kind(Player(0), Kind(0))
            .slides
            .iter()
            .map(|s| {
                t.ray_attack(s.dir as usize, corner, Default::default())
                    .count()
            })
            .sum();
        assert_eq!(all, 5);
        // A blocker on the diagonal stops the slide at it.
        let mut occ = crate::bitboard::Wide::default();
        occ.set(shape.parse_cell("wc3").unwrap());
        let d = crate::geometry::direction_index(Vec3::new(1, 1, 1)).unwrap();
        assert_eq!(t.ray_attack(d, corner, occ).count(), 2);
        assert!(t.positive[d]);
        // Cells on a common line know its direction, both ways; a Knight's leap apart, none.
        let far = shape.parse_cell("zf6").unwrap();
        assert_eq!(t.line_dir(corner, far), Some(d));
        assert_eq!(t.line_dir(far, corner), Some(t.opposite[d] as usize));
        assert_eq!(t.line_dir(corner, shape.parse_cell("ub3").unwrap()), None);
        assert_eq!(t.line_dir(corner, corner), None);
    }

    #[test]
    fn four_player_orientation_turns_forward_moves() {
        let shape = Shape {
            files: 10,
            ranks: 8,
            levels: 4,
            naming: CellNaming::FileRowLevel,
        };
        // A piece that steps forward along both of its army's forward directions (+x and +y).
        let stepper = PieceDef::new(
            "Step",
            "S",
            vec![
                Atom::leap(Vec3::new(1, 0, 0)),
                Atom::leap(Vec3::new(0, 1, 0)),
            ],
        );
        let flip = |x, y| Orientation {
            flip_x: x,
            flip_y: y,
            flip_z: false,
        };
        let orients = vec![
            flip(true, false),
            flip(true, true),
            flip(false, true),
            flip(false, false),
        ];
        let t: Tables<crate::bitboard::Wide> =
            Tables::new(test_variant(shape, orients, vec![stepper]));
        let e = shape.parse_cell("et2").unwrap();
        let names = |p: u8| -> Vec<String> {
            t.kind(Player(p), Kind(0)).quiet[e.index()]
                .cells()
                .map(|c| shape.cell_name(c))
                .collect()
        };
        assert_eq!(names(0), vec!["dt2", "eu2"]); // Catholic: -x, +y
        assert_eq!(names(1), vec!["es2", "dt2"]); // Protestant: -x, -y
        assert_eq!(names(2), vec!["es2", "ft2"]); // Islamic: +x, -y
        assert_eq!(names(3), vec!["ft2", "eu2"]); // Byzantine: +x, +y
    }
}
