//! Writes a piece's moves in XBetza, the Betza dialect XBoard reads in its `piece` command,
//! so that the GUI can test moves for legality and highlight them.
//!
//! The text is generated from the move atoms rather than copied from the rule pages: the
//! rules' own Betza strings use conventions XBoard reads differently (`fbN` is the narrow
//! Knight for us, all eight moves for XBoard). Directions are in the piece's own frame
//! (forward = +y, right = +x); XBoard turns Black's pieces by 180 degrees, so castling
//! sides are flipped for Black.

use crate::geometry::Vec3;
use crate::piece::{Atom, LeapCondition, Mode, PieceDef};
use crate::variant::Castling;
use std::collections::BTreeMap;

/// One group of moves that differ only in direction.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Family {
    /// Sorted absolute displacement of one step, e.g. (1, 2) for the Knight.
    base: (i8, i8),
    /// Number of steps for a slide (0 = unlimited), 1 for a leap.
    range: u8,
    slide: bool,
    lame: bool,
    mode: u8,
}

fn mode_code(m: Mode) -> u8 {
    match m {
        Mode::Both => 0,
        Mode::Move => 1,
        Mode::Capture => 2,
    }
}

fn atom_letter(base: (i8, i8)) -> Option<char> {
    Some(match base {
        (0, 1) => 'W',
        (1, 1) => 'F',
        (0, 2) => 'D',
        (1, 2) => 'N',
        (2, 2) => 'A',
        (0, 3) => 'H',
        (1, 3) => 'C',
        (2, 3) => 'Z',
        (3, 3) => 'G',
        _ => return None,
    })
}

fn base_of(v: Vec3) -> Option<(i8, i8)> {
    if v.z != 0 {
        return None;
    }
    let (a, b) = (v.x.abs(), v.y.abs());
    Some((a.min(b), a.max(b)))
}

/// The XBetza description of a piece, or `None` when XBetza cannot say it (3D moves, bent
/// moves, conditions on rings).
pub fn describe(def: &PieceDef, castlings: &[&Castling], black: bool) -> Option<String> {
    let mut groups: BTreeMap<Family, Vec<(i8, i8)>> = BTreeMap::new();
    for atom in &def.atoms {
        let (to, range, slide, lame, mode) = match *atom {
            Atom::Leap { to, mode, when } => {
                if when != LeapCondition::Always {
                    return None;
                }
                (to, 1, false, false, mode)
            }
            Atom::Slide { step, max, mode } => (step, max, max != 1, false, mode),
            Atom::Lame { to, .. } => (to, 1, false, true, atom.mode()),
            Atom::Bent { .. } => return None,
        };
        let base = base_of(to)?;
        atom_letter(base)?;
        let family = Family {
            base,
            range,
            slide,
            lame,
            mode: mode_code(mode),
        };
        groups.entry(family).or_default().push((to.x, to.y));
    }
    let mut out = String::new();
    let full_kw = compound_king_or_queen(&mut groups);
    out += &full_kw;
    for (family, dirs) in &groups {
        let letter = atom_letter(family.base).unwrap();
        let capture_ep = def.en_passant && family.mode == 2 && family.base == (1, 1);
        for dir in direction_terms(family.base, dirs) {
            out += &dir;
            if family.lame {
                out.push('n');
            }
            out += match family.mode {
                1 => "m",
                2 if capture_ep => "ce",
                2 => "c",
                _ => "",
            };
            match (letter, family.slide, family.range) {
                ('W', true, 0) => out.push('R'),
                ('F', true, 0) => out.push('B'),
                (l, true, 0) => {
                    out.push(l);
                    out.push(l)
                }
                (l, true, n) => out += &format!("{l}{n}"),
                (l, false, _) => out.push(l),
            }
        }
    }
    for step in &def.double_steps {
        let dir = direction_terms(base_of(*step)?, &[(step.x, step.y)]).pop()?;
        let letter = if step.x == 0 || step.y == 0 { 'D' } else { 'A' };
        out += &format!("i{dir}mn{letter}");
    }
    out += &castling_terms(castlings, black);
    (!out.is_empty()).then_some(out)
}

/// Pulls out a full King (all W and F steps) or Queen (all R and B slides) with the same
/// mode, which XBoard reads as `K` and `Q`.
fn compound_king_or_queen(groups: &mut BTreeMap<Family, Vec<(i8, i8)>>) -> String {
    let mut out = String::new();
    for (letter, slide, range) in [('K', false, 1u8), ('Q', true, 0u8)] {
        for mode in 0..3 {
            let fam = |base| Family {
                base,
                range,
                slide,
                lame: false,
                mode,
            };
            let (w, f) = (fam((0, 1)), fam((1, 1)));
            let full = |k: &Family| groups.get(k).is_some_and(|d| distinct(d) == 4);
            if full(&w) && full(&f) {
                groups.remove(&w);
                groups.remove(&f);
                out += match mode {
                    1 => "m",
                    2 => "c",
                    _ => "",
                };
                out.push(letter);
            }
        }
    }
    out
}

fn distinct(dirs: &[(i8, i8)]) -> usize {
    let mut d = dirs.to_vec();
    d.sort();
    d.dedup();
    d.len()
}

/// Direction modifiers covering exactly `dirs` (all displacements of one atom), one string
/// per term; an empty string means every direction.
fn direction_terms(base: (i8, i8), dirs: &[(i8, i8)]) -> Vec<String> {
    let mut left: Vec<(i8, i8)> = dirs.to_vec();
    left.sort();
    left.dedup();
    let (a, b) = base;
    // Named subsets, largest first; each is taken when all its moves are present.
    let named: Vec<(&str, Vec<(i8, i8)>)> = if a == 0 {
        // Orthogonal: forward, backward, left, right.
        vec![
            ("", vec![(0, b), (0, -b), (-b, 0), (b, 0)]),
            ("fs", vec![(0, b), (-b, 0), (b, 0)]),
            ("bs", vec![(0, -b), (-b, 0), (b, 0)]),
            ("v", vec![(0, b), (0, -b)]),
            ("s", vec![(-b, 0), (b, 0)]),
            ("f", vec![(0, b)]),
            ("b", vec![(0, -b)]),
            ("l", vec![(-b, 0)]),
            ("r", vec![(b, 0)]),
        ]
    } else if a == b {
        // Diagonal.
        vec![
            ("", vec![(a, a), (-a, a), (a, -a), (-a, -a)]),
            ("f", vec![(-a, a), (a, a)]),
            ("b", vec![(-a, -a), (a, -a)]),
            ("l", vec![(-a, a), (-a, -a)]),
            ("r", vec![(a, a), (a, -a)]),
            ("fl", vec![(-a, a)]),
            ("fr", vec![(a, a)]),
            ("bl", vec![(-a, -a)]),
            ("br", vec![(a, -a)]),
        ]
    } else {
        // Oblique: narrow moves go b forward or back, wide ones b sideways.
        let all: Vec<(i8, i8)> = [
            (a, b),
            (-a, b),
            (a, -b),
            (-a, -b),
            (b, a),
            (-b, a),
            (b, -a),
            (-b, -a),
        ]
        .to_vec();
        let pick = |f: &dyn Fn(i8, i8) -> bool| {
            all.iter()
                .copied()
                .filter(|&(x, y)| f(x, y))
                .collect::<Vec<_>>()
        };
        vec![
            ("", all.clone()),
            ("fh", pick(&|_, y| y > 0)),
            ("bh", pick(&|_, y| y < 0)),
            ("v", pick(&|_, y| y.abs() == b)),
            ("s", pick(&|x, _| x.abs() == b)),
            ("ff", pick(&|_, y| y == b)),
            ("fs", pick(&|x, y| x.abs() == b && y > 0)),
            ("bb", pick(&|_, y| y == -b)),
            ("bs", pick(&|x, y| x.abs() == b && y < 0)),
            ("ffl", vec![(-a, b)]),
            ("ffr", vec![(a, b)]),
            ("fsl", vec![(-b, a)]),
            ("fsr", vec![(b, a)]),
            ("bbl", vec![(-a, -b)]),
            ("bbr", vec![(a, -b)]),
            ("bsl", vec![(-b, -a)]),
            ("bsr", vec![(b, -a)]),
        ]
    };
    let mut out = Vec::new();
    for (name, set) in named {
        if !left.is_empty() && set.iter().all(|d| left.contains(d)) {
            left.retain(|d| !set.contains(d));
            out.push(name.to_string());
        }
    }
    out
}

/// Castling as XBetza `O` moves: `isO2` when both sides castle two cells, else one term per
/// side (`irO2ilO3` for the Clobberers' Bede castling).
fn castling_terms(castlings: &[&Castling], black: bool) -> String {
    let moves: Vec<(bool, i32)> = castlings
        .iter()
        .map(|c| {
            let dx = c.king_to.0 as i32 - c.king_from.0 as i32;
            // Cells of one rank are consecutive, so the index difference is the file change.
            (dx > 0, dx.abs())
        })
        .collect();
    match moves.as_slice() {
        [] => String::new(),
        [(r1, n1), (r2, n2)] if r1 != r2 && n1 == n2 => format!("isO{n1}"),
        _ => moves
            .iter()
            .map(|&(toward_h, n)| {
                let right = toward_h != black;
                format!("i{}O{n}", if right { 'r' } else { 'l' })
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::by_name;
    use crate::piece::Player;

    fn xbetza(variant: &str, token: &str, player: u8) -> String {
        let v = by_name(variant).unwrap();
        let k = v.kind_by_token(token).unwrap();
        let def = v.kind(k);
        let castlings: Vec<&Castling> = if def.royal {
            v.castlings
                .iter()
                .filter(|c| c.player == Player(player))
                .collect()
        } else {
            Vec::new()
        };
        describe(def, &castlings, player == 1).unwrap()
    }

    #[test]
    fn cwda_pieces_in_xbetza() {
        let v = "cwda-clobberers-fide";
        let expected = [
            ("P", "fmWfceFifmnD"),
            ("N", "N"),
            ("Q", "Q"),
            ("R", "R"),
            ("B", "B"),
            ("D", "DB"),
            ("W", "WA"),
            ("A", "DFA"),
            ("C", "BN"),
            ("G", "fsRbWbF"),
            ("I", "FvN"),
            ("H", "bsWbFfhN"),
            ("O", "KfsRfhN"),
            ("S", "W4"),
            ("M", "WD"),
            ("F", "DHF"),
            ("E", "RN"),
        ];
        for (token, xb) in expected {
            assert_eq!(xbetza(v, token, 0), xb, "{token}");
        }
    }

    #[test]
    fn castling_sides_turn_with_black() {
        assert_eq!(xbetza("cwda-clobberers-fide", "K", 0), "KirO2ilO3");
        assert_eq!(xbetza("cwda-clobberers-fide", "K", 1), "KisO2");
        assert_eq!(xbetza("cwda-fide-clobberers", "K", 1), "KilO2irO3");
    }
}
