//! The Armies of Faith 5 piece kinds (docs/rules.md 5.3) in the Byzantine frame (forward
//! directions +x and +y), and the per-kind facts the checkmate rules need: delivery rank,
//! promotion on delivering checkmate, and Raj replacement.

use crate::geometry::Vec3;
use crate::piece::{unit_vectors, Atom, Kind, Mode, PieceDef};

pub const KING: Kind = Kind(0);
pub const PRINCE: Kind = Kind(1);
pub const EMPEROR: Kind = Kind(2);
pub const ROOK: Kind = Kind(3);
pub const BISHOP: Kind = Kind(4);
pub const KNIGHT: Kind = Kind(5);
pub const CAMEL: Kind = Kind(6);
pub const QUEEN: Kind = Kind(7);
pub const CALIPH: Kind = Kind(8);
pub const CARDINAL: Kind = Kind(9);
pub const METROPOLITAN: Kind = Kind(10);
pub const MODERATOR: Kind = Kind(11);
pub const POPE: Kind = Kind(12);
pub const PRIMATE: Kind = Kind(13);
pub const ANCRESS: Kind = Kind(14);
pub const BARONESS: Kind = Kind(15);
pub const CANVASSER: Kind = Kind(16);
pub const CHATELAINE: Kind = Kind(17);
pub const MARSHAL: Kind = Kind(18);
pub const VICEREINE: Kind = Kind(19);
pub const PAWN: Kind = Kind(20);
pub const YEOMAN: Kind = Kind(21);
pub const CAFILA: Kind = Kind(22);
pub const CAVALCADE: Kind = Kind(23);
pub const DUCHESS: Kind = Kind(24);
pub const GOVERNOR: Kind = Kind(25);
pub const EMPRESS: Kind = Kind(26);
pub const USURPER: Kind = Kind(27);
pub const MEMSAHIB: Kind = Kind(28);
pub const NABOB: Kind = Kind(29);
pub const SAHIB: Kind = Kind(30);
pub const KIND_COUNT: usize = 31;

/// Name, token and delivery rank (docs/rules.md 5.4) of every kind, in kind order.
const TABLE: [(&str, &str, u8); KIND_COUNT] = [
    ("King", "K", 100),
    ("Prince", "PC", 3),
    ("Emperor", "E", 100),
    ("Rook", "R", 5),
    ("Bishop", "B", 4),
    ("Knight", "N", 3),
    ("Camel", "CM", 3),
    ("Queen", "Q", 10),
    ("Caliph", "CL", 7),
    ("Cardinal", "CD", 7),
    ("Metropolitan", "MT", 7),
    ("Moderator", "MD", 6),
    ("Pope", "PO", 7),
    ("Primate", "PM", 6),
    ("Ancress", "A", 8),
    ("Baroness", "BS", 8),
    ("Canvasser", "CV", 8),
    ("Chatelaine", "CT", 8),
    ("Marshal", "MH", 8),
    ("Vicereine", "V", 8),
    ("Pawn", "PN", 1),
    ("Yeoman", "Y", 1),
    ("Cafila", "CF", 6),
    ("Cavalcade", "CC", 6),
    ("Duchess", "DU", 8),
    ("Governor", "GV", 7),
    ("Empress", "EM", 12),
    ("Usurper", "US", 6),
    ("Memsahib", "MS", 2),
    ("Nabob", "NB", 2),
    ("Sahib", "SH", 2),
];

/// The order in which a checkmater's checking pieces are preferred as the delivering piece.
pub fn delivery_rank(k: Kind) -> u8 {
    TABLE[k.index()].2
}

/// Kinds with a Rook component (the Ancress's Anchorite is not one).
pub fn has_rook_slide(k: Kind) -> bool {
    matches!(
        k,
        ROOK | QUEEN
            | ANCRESS
            | BARONESS
            | CANVASSER
            | CHATELAINE
            | MARSHAL
            | VICEREINE
            | DUCHESS
            | EMPRESS
    )
}

/// Kinds with a Bishop component (the Metropolitan's Gryphon is not one).
pub fn has_bishop_slide(k: Kind) -> bool {
    matches!(
        k,
        BISHOP
            | QUEEN
            | CALIPH
            | CARDINAL
            | METROPOLITAN
            | MODERATOR
            | POPE
            | PRIMATE
            | GOVERNOR
            | EMPRESS
    )
}

/// What a piece becomes when it delivers checkmate (Bishop and Rook compounds, promoted and
/// Raj pieces stay as they are).
pub fn promoted_by_delivery(k: Kind) -> Option<Kind> {
    match k {
        PAWN | YEOMAN | PRINCE => Some(USURPER),
        CAMEL => Some(CAFILA),
        KNIGHT => Some(CAVALCADE),
        ROOK => Some(DUCHESS),
        BISHOP => Some(GOVERNOR),
        QUEEN => Some(EMPRESS),
        KING => Some(EMPEROR),
        _ => None,
    }
}

/// The promoted types that make a second checkmate win at once.
pub fn is_promoted_type(k: Kind) -> bool {
    matches!(
        k,
        EMPEROR | EMPRESS | CAFILA | CAVALCADE | DUCHESS | GOVERNOR | USURPER
    )
}

/// Raj subvariant: the checkmater's piece that replaces a checkmated piece of kind `k`
/// (None: removed). Judged by the victim's own moves: a Rook slide gives a Memsahib, a
/// Bishop slide or a Camel leap a Sahib, anything else a Nabob; Kings and Queens vanish.
pub fn raj_replacement(k: Kind) -> Option<Kind> {
    match k {
        KING | EMPEROR | QUEEN | EMPRESS => None,
        CAFILA => Some(NABOB),
        _ if has_rook_slide(k) => Some(MEMSAHIB),
        _ if has_bishop_slide(k) || k == CAMEL || k == CALIPH => Some(SAHIB),
        _ => Some(NABOB),
    }
}

/// The two forward directions of the Byzantine frame.
pub const FORWARD: [Vec3; 2] = [Vec3::new(1, 0, 0), Vec3::new(0, 1, 0)];

/// The five forward SD directions of a Pawn's capture: one forward direction with dl = ±1,
/// or both forward directions on the level.
pub const FORWARD_SD: [Vec3; 5] = [
    Vec3::new(1, 0, 1),
    Vec3::new(1, 0, -1),
    Vec3::new(0, 1, 1),
    Vec3::new(0, 1, -1),
    Vec3::new(1, 1, 0),
];

fn steps(vs: impl IntoIterator<Item = Vec3>) -> Vec<Atom> {
    vs.into_iter().map(Atom::leap).collect()
}

fn slides(vs: impl IntoIterator<Item = Vec3>) -> Vec<Atom> {
    vs.into_iter().map(Atom::slide).collect()
}

/// Every displacement whose absolute coordinates are a permutation of `pattern`.
fn leaps(pattern: [i8; 3]) -> Vec<Atom> {
    let mut want = pattern;
    want.sort();
    let mut out = Vec::new();
    for x in -3i8..=3 {
        for y in -3i8..=3 {
            for z in -3i8..=3 {
                let mut have = [x.abs(), y.abs(), z.abs()];
                have.sort();
                if have == want {
                    out.push(Atom::leap(Vec3::new(x, y, z)));
                }
            }
        }
    }
    out
}

fn orth() -> Vec<Vec3> {
    unit_vectors(1).collect()
}
fn sd() -> Vec<Vec3> {
    unit_vectors(2).collect()
}
fn nd() -> Vec<Vec3> {
    unit_vectors(3).collect()
}

/// The orthogonal components of a diagonal direction.
fn components(v: Vec3) -> Vec<Vec3> {
    [
        Vec3::new(v.x, 0, 0),
        Vec3::new(0, v.y, 0),
        Vec3::new(0, 0, v.z),
    ]
    .into_iter()
    .filter(|c| c.nonzero_axes() == 1)
    .collect()
}

/// Gryphon: an SD step, then onward along one of that SD's orthogonal components.
fn gryphon() -> Vec<Atom> {
    sd().into_iter()
        .flat_map(|d| {
            components(d).into_iter().map(move |c| Atom::Bent {
                first: d,
                then: c,
                mode: Mode::Both,
            })
        })
        .collect()
}

/// Anchorite: an orthogonal step, then onward along one of the four SDs containing it.
fn anchorite() -> Vec<Atom> {
    sd().into_iter()
        .flat_map(|d| {
            components(d).into_iter().map(move |c| Atom::Bent {
                first: c,
                then: d,
                mode: Mode::Both,
            })
        })
        .collect()
}

fn with_modes(vs: &[Vec3], mode: Mode) -> Vec<Atom> {
    vs.iter().map(|&v| Atom::leap(v).with_mode(mode)).collect()
}

/// The moves of every kind, in kind order.
fn atoms(k: Kind) -> Vec<Atom> {
    let rook = || slides(orth());
    let bishop = || slides(sd());
    let unicorn = || slides(nd());
    let king = || steps(orth().into_iter().chain(sd()));
    let cat = |parts: Vec<Vec<Atom>>| parts.concat();
    match k {
        KING | PRINCE => king(),
        EMPEROR => steps(crate::geometry::DIRECTIONS),
        ROOK => rook(),
        BISHOP => bishop(),
        KNIGHT => leaps([2, 1, 0]),
        CAMEL => leaps([3, 1, 0]),
        QUEEN => cat(vec![rook(), bishop()]),
        CALIPH => cat(vec![bishop(), leaps([3, 1, 0])]),
        CARDINAL => cat(vec![bishop(), leaps([2, 1, 0])]),
        METROPOLITAN => cat(vec![bishop(), gryphon()]),
        MODERATOR => cat(vec![bishop(), steps(nd())]),
        POPE => cat(vec![bishop(), steps(orth()), steps(nd())]),
        PRIMATE => cat(vec![bishop(), steps(orth())]),
        ANCRESS => cat(vec![rook(), anchorite()]),
        BARONESS => cat(vec![rook(), steps(sd()), steps(nd())]),
        CANVASSER => cat(vec![rook(), leaps([3, 1, 0])]),
        CHATELAINE => cat(vec![rook(), steps(sd())]),
        MARSHAL => cat(vec![rook(), leaps([2, 1, 0])]),
        VICEREINE => cat(vec![rook(), steps(nd())]),
        PAWN => cat(vec![
            with_modes(&FORWARD, Mode::Move),
            with_modes(&FORWARD_SD, Mode::Capture),
        ]),
        YEOMAN => cat(vec![
            with_modes(&FORWARD, Mode::Capture),
            with_modes(&FORWARD_SD, Mode::Move),
        ]),
        CAFILA => cat(vec![leaps([3, 1, 0]), unicorn()]),
        CAVALCADE => cat(vec![leaps([2, 1, 0]), unicorn()]),
        DUCHESS => cat(vec![rook(), unicorn()]),
        GOVERNOR => cat(vec![bishop(), unicorn()]),
        EMPRESS => cat(vec![rook(), bishop(), unicorn()]),
        USURPER => cat(vec![king(), unicorn()]),
        MEMSAHIB => cat(vec![leaps([2, 0, 0]), steps(FORWARD)]),
        NABOB => cat(vec![
            leaps([2, 2, 2]),
            steps([Vec3::new(1, 1, 1), Vec3::new(1, 1, -1)]),
        ]),
        SAHIB => cat(vec![leaps([2, 2, 0]), steps(FORWARD_SD)]),
        _ => unreachable!("kind {k:?} is not an Armies of Faith kind"),
    }
}

/// The piece table of both subvariants.
pub fn piece_table() -> Vec<PieceDef> {
    (0..KIND_COUNT as u8)
        .map(Kind)
        .map(|k| {
            let (name, token, _) = TABLE[k.index()];
            let mut def = PieceDef::new(name, token, atoms(k));
            def.royal = matches!(k, KING | EMPEROR);
            if matches!(k, PAWN | YEOMAN) {
                def = def.pawn();
            }
            if k == PAWN {
                def.double_steps = FORWARD.to_vec();
                def.en_passant = true;
            }
            def
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_classes_have_the_expected_sizes() {
        assert_eq!(leaps([2, 1, 0]).len(), 24);
        assert_eq!(leaps([3, 1, 0]).len(), 24);
        assert_eq!(leaps([2, 2, 2]).len(), 8);
        assert_eq!(leaps([2, 2, 0]).len(), 12);
        assert_eq!(leaps([2, 0, 0]).len(), 6);
        assert_eq!(gryphon().len(), 24);
        assert_eq!(anchorite().len(), 24);
    }

    #[test]
    fn raj_replacement_follows_the_victims_moves() {
        assert_eq!(raj_replacement(CANVASSER), Some(MEMSAHIB));
        assert_eq!(raj_replacement(CALIPH), Some(SAHIB));
        assert_eq!(raj_replacement(CAMEL), Some(SAHIB));
        assert_eq!(raj_replacement(METROPOLITAN), Some(SAHIB));
        assert_eq!(raj_replacement(ANCRESS), Some(MEMSAHIB));
        assert_eq!(raj_replacement(CAFILA), Some(NABOB));
        assert_eq!(raj_replacement(DUCHESS), Some(MEMSAHIB));
        assert_eq!(raj_replacement(GOVERNOR), Some(SAHIB));
        assert_eq!(raj_replacement(PRINCE), Some(NABOB));
        assert_eq!(raj_replacement(SAHIB), Some(NABOB));
        assert_eq!(raj_replacement(QUEEN), None);
        assert_eq!(raj_replacement(EMPEROR), None);
    }
}
