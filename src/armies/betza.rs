//! Betza notation as Fairy-Stockfish's `variants.ini` reads it (the dialect of armies
//! files), into the core's move atoms.
//!
//! It differs from the rule pages' dialect (`piece::betza`) in how direction letters group:
//! two letters pair when they are equal or one is vertical (`f b v h`) and the other
//! horizontal (`r l s h`); a lone letter counts as doubled. On oblique atoms (N, C, Z) `f`
//! is therefore `ff`, the two narrow forward moves (the rule pages' `f` is all four), and
//! `l` is `ll`; `fbN` is `ff` + `bb`, the narrow four, in both dialects. On orthogonal
//! single atoms (W, D, H, R) a mixed pair splits (`fsR` = forward and sideways), but not on
//! K and Q, whose `fs` keeps only the pair's images (`fsQ` slides sideways as a Rook and
//! forward as a Bishop). Write the four forward Knight moves as `fhN`.

use crate::geometry::Vec3;
use crate::piece::{Atom, LeapCondition, Mode};
use std::collections::BTreeMap;

const VERTICALS: &str = "fbvh";
const HORIZONTALS: &str = "rlsh";

/// Base steps of an atom letter as (forward, sideways), as Fairy-Stockfish lists them.
fn atom_steps(letter: char) -> Option<(bool, &'static [(i8, i8)])> {
    Some(match letter {
        'W' => (false, &[(1, 0)]),
        'F' => (false, &[(1, 1)]),
        'D' => (false, &[(2, 0)]),
        'N' => (false, &[(2, 1)]),
        'A' => (false, &[(2, 2)]),
        'H' => (false, &[(3, 0)]),
        'L' | 'C' => (false, &[(3, 1)]),
        'J' | 'Z' => (false, &[(3, 2)]),
        'G' => (false, &[(3, 3)]),
        'K' => (false, &[(1, 0), (1, 1)]),
        'R' => (true, &[(1, 0)]),
        'B' => (true, &[(1, 1)]),
        'Q' => (true, &[(1, 0), (1, 1)]),
        _ => return None,
    })
}

/// The eight images of a base step (forward `a`, sideways `b`) as (x, y) with the direction
/// pairs that select each.
fn images(a: i8, b: i8) -> [((i8, i8), &'static [&'static str]); 8] {
    [
        ((b, a), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
        ((-b, -a), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
        ((a, -b), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
        ((-a, b), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
        ((a, b), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
        ((-a, -b), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
        ((b, -a), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
        ((-b, a), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
    ]
}

/// How a group of moves goes: leap, lame leap, or slide of at most `max` steps (0 = any).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Way {
    Leap,
    Lame,
    Slide(u8),
}

/// Reads `notation` into atoms in White's frame (forward = +y, right = +x), or says which
/// part does not read.
pub fn parse(notation: &str) -> Result<Vec<Atom>, String> {
    if notation.trim().is_empty() {
        return Err("empty Betza notation".into());
    }
    // (x, y, way) -> (moves, captures): one atom per target, as one table entry per
    // direction in Fairy-Stockfish.
    let mut moves: BTreeMap<(i8, i8, Way), (bool, bool)> = BTreeMap::new();
    let chars: Vec<char> = notation.chars().collect();
    let (mut quiet, mut capture, mut lame) = (false, false, false);
    let mut dirs: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            'm' => quiet = true,
            'c' => capture = true,
            'n' => lame = true,
            _ if VERTICALS.contains(c) || HORIZONTALS.contains(c) => {
                let pairs_with = |c2: char| {
                    c2 == c
                        || (VERTICALS.contains(c) && HORIZONTALS.contains(c2))
                        || (HORIZONTALS.contains(c) && VERTICALS.contains(c2))
                };
                match chars.get(i) {
                    Some(&c2) if pairs_with(c2) => {
                        dirs.push(format!("{c}{c2}"));
                        i += 1;
                    }
                    _ => dirs.push(format!("{c}{c}")),
                }
            }
            _ => {
                let Some((mut rider, steps)) = atom_steps(c) else {
                    return Err(unknown(notation, c));
                };
                let mut max = 0u8;
                if let Some(&next) = chars.get(i) {
                    if next == c {
                        rider = true;
                        i += 1;
                    } else if let Some(d) = next.to_digit(10) {
                        rider = true;
                        max = d as u8;
                        i += 1;
                    }
                }
                let way = match (rider, lame) {
                    (true, false) => Way::Slide(max),
                    (false, true) => Way::Lame,
                    (false, false) => Way::Leap,
                    (true, true) => {
                        return Err(format!("'{notation}': lame riders are not supported"))
                    }
                };
                let (m, cap) = if quiet || capture {
                    (quiet, capture)
                } else {
                    (true, true)
                };
                for &(a, b) in steps {
                    let split = steps.len() == 1 && b == 0;
                    let mut group: Vec<String> = Vec::new();
                    for d in &dirs {
                        let mut it = d.chars();
                        let (d0, d1) = (it.next().unwrap_or(' '), it.next().unwrap_or(' '));
                        if split && d0 != d1 {
                            group.push(format!("{d0}{d0}"));
                            group.push(format!("{d1}{d1}"));
                        } else {
                            group.push(d.clone());
                        }
                    }
                    for ((x, y), selectors) in images(a, b) {
                        let chosen = group.is_empty()
                            || group.iter().any(|d| selectors.contains(&d.as_str()));
                        if chosen {
                            let e = moves.entry((x, y, way)).or_insert((false, false));
                            e.0 |= m;
                            e.1 |= cap;
                        }
                    }
                }
                (quiet, capture, lame) = (false, false, false);
                dirs.clear();
            }
        }
    }
    if quiet || capture || lame || !dirs.is_empty() {
        return Err(format!("'{notation}': modifiers at the end with no atom"));
    }
    moves
        .into_iter()
        .map(|((x, y, way), (m, c))| atom(notation, x, y, way, mode(m, c)))
        .collect()
}

fn unknown(notation: &str, c: char) -> String {
    format!("'{notation}': unknown Betza atom or modifier '{c}' (supported: atoms W F D N A H C Z G L J K R B Q, modifiers f b v h r l s m c n, digits and doubled letters for riders)")
}

fn mode(moves: bool, captures: bool) -> Mode {
    match (moves, captures) {
        (true, false) => Mode::Move,
        (false, true) => Mode::Capture,
        _ => Mode::Both,
    }
}

fn atom(notation: &str, x: i8, y: i8, way: Way, mode: Mode) -> Result<Atom, String> {
    let to = Vec3::flat(x, y);
    Ok(match way {
        Way::Leap => Atom::Leap {
            to,
            mode,
            when: LeapCondition::Always,
        },
        Way::Slide(max) => {
            if x.abs() > 1 || y.abs() > 1 {
                return Err(format!(
                    "'{notation}': only W and F riders (R, B, Q, WW, FF, R4...) are supported"
                ));
            }
            Atom::Slide {
                step: to,
                max,
                mode,
            }
        }
        Way::Lame => {
            let via = match (x.abs(), y.abs()) {
                (0, 2) | (2, 0) | (2, 2) => Vec3::flat(x / 2, y / 2),
                (1, 2) => Vec3::flat(0, y / 2),
                (2, 1) => Vec3::flat(x / 2, 0),
                _ => {
                    return Err(format!(
                        "'{notation}': lame 'n' is supported on D, A and N only"
                    ))
                }
            };
            Atom::Lame { via, to, mode }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(n: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<_> = parse(n)
            .unwrap()
            .into_iter()
            .map(|a| match a {
                Atom::Leap { to, .. } | Atom::Lame { to, .. } => (to.x, to.y),
                Atom::Slide { step, .. } => (step.x, step.y),
                Atom::Bent { .. } => unreachable!(),
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn oblique_directions_read_as_fairy_stockfish_reads_them() {
        assert_eq!(targets("fN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(targets("fhN"), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(targets("fbN"), vec![(-1, -2), (-1, 2), (1, -2), (1, 2)]);
        assert_eq!(targets("bhN"), vec![(-2, -1), (-1, -2), (1, -2), (2, -1)]);
        assert_eq!(targets("lN"), vec![(-2, -1), (-2, 1)]);
    }

    #[test]
    fn orthogonal_pairs_split_but_not_on_compounds() {
        assert_eq!(targets("fsR"), vec![(-1, 0), (0, 1), (1, 0)]);
        // fsQ: sideways Rook and forward Bishop, no forward Rook.
        assert_eq!(targets("fsQ"), vec![(-1, 0), (-1, 1), (1, 0), (1, 1)]);
        assert_eq!(targets("bK"), vec![(-1, -1), (0, -1), (1, -1)]);
        assert_eq!(targets("K").len(), 8);
    }

    #[test]
    fn modality_ranges_and_lame_leaps() {
        let pawn = parse("mfWcfF").unwrap();
        assert!(pawn.contains(&Atom::Leap {
            to: Vec3::flat(0, 1),
            mode: Mode::Move,
            when: LeapCondition::Always
        }));
        assert_eq!(pawn.len(), 3);
        assert!(parse("R4")
            .unwrap()
            .iter()
            .all(|a| matches!(a, Atom::Slide { max: 4, .. })));
        assert!(parse("nN")
            .unwrap()
            .iter()
            .all(|a| matches!(a, Atom::Lame { .. })));
        // One atom per target: a King step and a Rook slide on one line stay two ways, a
        // repeated leap is one.
        assert_eq!(parse("WW").unwrap().len(), 4);
        assert_eq!(parse("NN").err().map(|e| e.contains("riders")), Some(true));
        assert_eq!(parse("FF").unwrap().len(), 4);
        assert_eq!(parse("WWmW").unwrap().len(), 8);
        assert_eq!(parse("NmN").unwrap().len(), 8);
    }

    #[test]
    fn unreadable_notation_says_what() {
        assert!(parse("X").unwrap_err().contains("'X'"));
        assert!(parse("pR").unwrap_err().contains("'p'"));
        assert!(parse("fm").unwrap_err().contains("no atom"));
        assert!(parse("nW").unwrap_err().contains("lame"));
        assert!(parse("").is_err());
    }
}
