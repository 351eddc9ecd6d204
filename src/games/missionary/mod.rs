//! Missionary cubic variants (docs/rules.md section 4): `missionary`, `missiogi` and
//! `frontofhouse` on the 6x6x8 board. The three share pieces, board and start array; they
//! differ only in what promotes and in what a capture puts into the captor's hand.
//!
//! Board axes: x = filestack (a..f), y = rank (1..8, White moves toward +y), z = level
//! (u..z). docs/rules.md writes vectors as (dL, dF, dR) = (dz, dx, dy) here.

pub mod descriptor;
pub mod fen;

use super::VariantError;
use crate::bitboard::{BitSet, Wide};
use crate::geometry::{Cell, Orientation, Shape, Vec3, DIRECTIONS};
use crate::movegen::tables::FamilyRules;
use crate::piece::{Atom, Kind, LeapCondition, Mode, PieceDef, Player};
use crate::variant::{DropRules, PromotionRule, PromotionSuffix, Variant};
pub use descriptor::FAMILY;

/// The three subvariants (docs/rules.md 4.4 table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subvariant {
    Missionary,
    Missiogi,
    Frontofhouse,
}

impl Subvariant {
    pub const ALL: [Subvariant; 3] = [
        Subvariant::Missionary,
        Subvariant::Missiogi,
        Subvariant::Frontofhouse,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Subvariant::Missionary => "missionary",
            Subvariant::Missiogi => "missiogi",
            Subvariant::Frontofhouse => "frontofhouse",
        }
    }

    pub fn from_name(s: &str) -> Option<Subvariant> {
        Subvariant::ALL.into_iter().find(|v| v.name() == s)
    }
}

/// The six piece families, each named after its symmetric linepiece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family6 {
    Queen,
    Duchess,
    Rook,
    Governor,
    Bishop,
    Unicorn,
}

/// The four members of a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Member {
    Symmetric,
    Crowned,
    General,
    ForwardOnly,
}

impl Family6 {
    pub const ALL: [Family6; 6] = [
        Family6::Queen,
        Family6::Duchess,
        Family6::Rook,
        Family6::Governor,
        Family6::Bishop,
        Family6::Unicorn,
    ];

    /// Vector classes of the symmetric linepiece: 1 orthogonal, 2 SD, 3 ND.
    fn classes(self) -> &'static [u8] {
        match self {
            Family6::Queen => &[1, 2],
            Family6::Duchess => &[1, 3],
            Family6::Rook => &[1],
            Family6::Governor => &[2, 3],
            Family6::Bishop => &[2],
            Family6::Unicorn => &[3],
        }
    }

    /// Names of symmetric, crowned, general and forward-only members.
    fn names(self) -> [&'static str; 4] {
        match self {
            Family6::Queen => ["Queen", "Diarch", "Skygeneral", "Princess"],
            Family6::Duchess => ["Duchess", "Dowager", "Forestgeneral", "Countess"],
            Family6::Rook => ["Rook", "Baroness", "Sungeneral", "Wing"],
            Family6::Governor => ["Governor", "Regent", "Seageneral", "Missionary"],
            Family6::Bishop => ["Bishop", "Pope", "Moongeneral", "Mitre"],
            Family6::Unicorn => ["Unicorn", "Usurper", "Coastgeneral", "Horn"],
        }
    }

    /// Letters of the symmetric and the forward-only piece; crowned and general pieces are
    /// written `+` and one of them.
    fn letters(self) -> [char; 2] {
        match self {
            Family6::Queen => ['Q', 'I'],
            Family6::Duchess => ['D', 'C'],
            Family6::Rook => ['R', 'W'],
            Family6::Governor => ['G', 'S'],
            Family6::Bishop => ['B', 'M'],
            Family6::Unicorn => ['U', 'H'],
        }
    }
}

const MEMBERS: [Member; 4] = [
    Member::Symmetric,
    Member::Crowned,
    Member::General,
    Member::ForwardOnly,
];

/// Kind index of a family member: four per family in [`Family6::ALL`] order.
pub fn kind_of(family: Family6, member: Member) -> Kind {
    let f = Family6::ALL.iter().position(|&x| x == family).unwrap();
    let m = MEMBERS.iter().position(|&x| x == member).unwrap();
    Kind((4 * f + m) as u8)
}

pub const EMPEROR: Kind = Kind(24);
pub const STOCKBROKER: Kind = Kind(25);
pub const STOCKBWAITER: Kind = Kind(26);

/// Unit vectors of the given classes, all or only the forward ones (dy = +1).
fn vectors(classes: &[u8], forward_only: bool) -> Vec<Vec3> {
    DIRECTIONS
        .into_iter()
        .filter(|d| classes.contains(&d.nonzero_axes()) && (!forward_only || d.y == 1))
        .collect()
}

fn member_def(family: Family6, member: Member) -> PieceDef {
    let own = family.classes();
    let others: Vec<u8> = [1, 2, 3].into_iter().filter(|c| !own.contains(c)).collect();
    let slides = |fwd| vectors(own, fwd).into_iter().map(Atom::slide);
    let steps = |cls: &[u8], fwd| vectors(cls, fwd).into_iter().map(Atom::leap);
    let atoms: Vec<Atom> = match member {
        Member::Symmetric => slides(false).collect(),
        Member::Crowned => slides(false).chain(steps(&others, false)).collect(),
        Member::General => steps(own, false).chain(steps(&others, true)).collect(),
        Member::ForwardOnly => slides(true).collect(),
    };
    let [sym, fo] = family.letters();
    let token = match member {
        Member::Symmetric => sym.to_string(),
        Member::Crowned => format!("+{sym}"),
        Member::General => format!("+{fo}"),
        Member::ForwardOnly => fo.to_string(),
    };
    let m = MEMBERS.iter().position(|&x| x == member).unwrap();
    PieceDef::new(family.names()[m], &token, atoms)
}

/// A one-step leap with a mode and a ring condition.
fn step(to: Vec3, mode: Mode, when: LeapCondition) -> Atom {
    Atom::Leap { to, mode, when }
}

/// The Stockbroker's moves along `forward` (+1 for its own forward, -1 for the mirrored set
/// the Stockbwaiter also has): orthogonal non-capturing; SD non-capturing to the same ring and
/// capturing to another ring; ND capturing.
fn stockbroker_atoms(forward: i8) -> Vec<Atom> {
    let mut atoms = Vec::new();
    for d in DIRECTIONS.into_iter().filter(|d| d.y == forward) {
        match d.nonzero_axes() {
            1 => atoms.push(step(d, Mode::Move, LeapCondition::Always)),
            2 => {
                atoms.push(step(d, Mode::Move, LeapCondition::SameRing));
                atoms.push(step(d, Mode::Capture, LeapCondition::RingChange));
            }
            _ => atoms.push(step(d, Mode::Capture, LeapCondition::Always)),
        }
    }
    atoms
}

fn stockbroker() -> PieceDef {
    PieceDef::new("Stockbroker", "P", stockbroker_atoms(1)).pawn()
}

/// Moves as either side's Stockbroker, plus a non-capturing same-rank SD step and a
/// non-capturing same-rank orthogonal step that changes the ring.
fn stockbwaiter() -> PieceDef {
    let mut atoms = stockbroker_atoms(1);
    atoms.extend(stockbroker_atoms(-1));
    for d in DIRECTIONS.into_iter().filter(|d| d.y == 0) {
        match d.nonzero_axes() {
            1 => atoms.push(step(d, Mode::Move, LeapCondition::RingChange)),
            _ => atoms.push(step(d, Mode::Move, LeapCondition::Always)),
        }
    }
    PieceDef::new("Stockbwaiter", "+P", atoms)
}

fn emperor() -> PieceDef {
    PieceDef::new("Emperor", "K", DIRECTIONS.map(Atom::leap).to_vec()).royal()
}

/// All 27 kinds, indexed as [`kind_of`], then Emperor, Stockbroker, Stockbwaiter.
pub fn piece_table() -> Vec<PieceDef> {
    let mut pieces: Vec<PieceDef> = Family6::ALL
        .into_iter()
        .flat_map(|f| MEMBERS.map(|m| member_def(f, m)))
        .collect();
    pieces.extend([emperor(), stockbroker(), stockbwaiter()]);
    pieces
}

pub fn shape() -> Shape {
    Shape {
        files: 6,
        ranks: 8,
        levels: 6,
        naming: crate::geometry::CellNaming::LevelFileRank,
    }
}

/// docs/rules.md 4.3.
pub const START: &str = "w+wmm+ww/6/pppppp/6/6/PPPPPP/6/W+WMM+WW|\
+wi+m+m+w+w/1rbbr1/pppppp/6/6/PPPPPP/1RBBR1/+WI+M+M+W+W|\
h+h+i+i+hh/1uqku1/pppppp/6/6/PPPPPP/1UQKU1/H+H+I+I+HH|\
h+h+c+s+hh/1udgu1/pppppp/6/6/PPPPPP/1UDGU1/H+H+C+S+HH|\
+wc+m+ms+w/1rbbr1/pppppp/6/6/PPPPPP/1RBBR1/+WC+M+MS+W|\
w+wmm+ww/6/pppppp/6/6/PPPPPP/6/W+WMM+WW[] w - - 0 1";

/// What a capture of `kind` puts into the captor's hand.
fn to_hand(sub: Subvariant, kind: Kind) -> Option<Kind> {
    if kind == STOCKBROKER || kind == STOCKBWAITER {
        return Some(STOCKBROKER);
    }
    if kind == EMPEROR {
        return None;
    }
    let family = Family6::ALL[kind.index() / 4];
    let member = MEMBERS[kind.index() % 4];
    let of = |m| Some(kind_of(family, m));
    match (sub, member) {
        (_, Member::ForwardOnly) => of(Member::ForwardOnly),
        (Subvariant::Missionary, _) => None,
        (Subvariant::Missiogi, Member::Crowned) => of(Member::Symmetric),
        (Subvariant::Missiogi, m) => of(m),
        // Crowned pieces do not arise in Frontofhouse; one set up by a position string
        // returns as its uncrowned form would.
        (Subvariant::Frontofhouse, _) => of(Member::ForwardOnly),
    }
}

/// The kind `kind` promotes to, if it promotes in this subvariant.
fn promotes_to(sub: Subvariant, kind: Kind) -> Option<Kind> {
    if kind == STOCKBROKER {
        return Some(STOCKBWAITER);
    }
    if kind.index() >= 24 {
        return None;
    }
    let family = Family6::ALL[kind.index() / 4];
    match (sub, MEMBERS[kind.index() % 4]) {
        (Subvariant::Missiogi, Member::Symmetric) => Some(kind_of(family, Member::Crowned)),
        (Subvariant::Frontofhouse, Member::ForwardOnly) => Some(kind_of(family, Member::Symmetric)),
        (_, Member::ForwardOnly) => Some(kind_of(family, Member::General)),
        _ => None,
    }
}

/// Stockbrokers and forward-only pieces cannot move from their last rank.
fn stuck_on_last_rank(kind: Kind) -> bool {
    kind == STOCKBROKER || (kind.index() < 24 && kind.index() % 4 == 3)
}

fn ranks_of(shape: &Shape, ranks: impl Iterator<Item = i32> + Clone) -> Vec<Cell> {
    shape
        .all_cells()
        .filter(|&c| ranks.clone().any(|r| r == shape.y(c)))
        .collect()
}

/// Per player: the promotion zone (three far ranks) and the last rank.
fn zones(shape: &Shape, p: Player) -> (Vec<Cell>, Vec<Cell>) {
    let n = shape.ranks as i32;
    if p == Player::WHITE {
        (ranks_of(shape, n - 3..n), ranks_of(shape, n - 1..n))
    } else {
        (ranks_of(shape, 0..3), ranks_of(shape, 0..1))
    }
}

fn promotions(sub: Subvariant, shape: &Shape, kinds: usize) -> Vec<PromotionRule> {
    let mut out = Vec::new();
    for p in [Player::WHITE, Player::BLACK] {
        let (zone, last) = zones(shape, p);
        for k in (0..kinds as u8).map(Kind) {
            let Some(target) = promotes_to(sub, k) else {
                continue;
            };
            out.push(PromotionRule {
                player: p,
                kind: k,
                may_to: zone.clone(),
                may_from: zone.clone(),
                must_to: if stuck_on_last_rank(k) {
                    last.clone()
                } else {
                    Vec::new()
                },
                choices: vec![target],
            });
        }
    }
    out
}

/// Holdings print order: `Q D R G B U +I +C +W +S +M +H I C W S M H P`.
pub fn hand_order() -> Vec<Kind> {
    let mut order: Vec<Kind> = Family6::ALL
        .iter()
        .map(|&f| kind_of(f, Member::Symmetric))
        .collect();
    order.extend(Family6::ALL.iter().map(|&f| kind_of(f, Member::General)));
    order.extend(
        Family6::ALL
            .iter()
            .map(|&f| kind_of(f, Member::ForwardOnly)),
    );
    order.push(STOCKBROKER);
    order
}

fn drop_rules(sub: Subvariant, shape: &Shape, kinds: usize) -> DropRules {
    let mut forbidden = Vec::new();
    for p in [Player::WHITE, Player::BLACK] {
        let (_, last) = zones(shape, p);
        for k in (0..kinds as u8)
            .map(Kind)
            .filter(|&k| stuck_on_last_rank(k))
        {
            forbidden.push((p, k, last.clone()));
        }
    }
    DropRules {
        to_hand: (0..kinds as u8).map(|k| to_hand(sub, Kind(k))).collect(),
        forbidden,
        hand_order: hand_order(),
    }
}

pub fn variant(sub: Subvariant) -> Variant {
    let shape = shape();
    let pieces = piece_table();
    let kinds = pieces.len();
    Variant {
        armies: vec!["missionary".into(), "missionary".into()],
        start_position: START.to_string(),
        promotions: promotions(sub, &shape, kinds),
        drops: Some(drop_rules(sub, &shape, kinds)),
        move_rule_plies: 0,
        promotion_suffix: PromotionSuffix::Plus,
        rules: FamilyRules::for_both_widths(position_strings::<u64>(), position_strings::<Wide>()),
        ..Variant::new(
            sub.name(),
            FAMILY,
            shape,
            vec![Orientation::IDENTITY, Orientation::MIRROR_Y],
            vec!['w', 'b'],
            pieces,
        )
    }
}

/// Missionary's own position strings (levels, holdings), as the variant's rule functions.
fn position_strings<B: BitSet>() -> FamilyRules<B> {
    FamilyRules {
        parse_position: Some(fen::parse),
        format_position: Some(fen::format),
        ..FamilyRules::default()
    }
}

pub fn by_name(name: &str) -> Result<Variant, VariantError> {
    Subvariant::from_name(name)
        .map(variant)
        .ok_or_else(|| VariantError::Unknown(name.to_string()))
}

pub fn names() -> Vec<String> {
    Subvariant::ALL
        .iter()
        .map(|s| s.name().to_string())
        .collect()
}
