//! A parser for the 2D Betza notation used by the rule pages.
//!
//! Supported: atoms `W F D N A H C Z G` (leapers) and `K R B Q` (compounds), doubled `WW`/`FF`
//! (riders), range limits after an atom (`R4`, `W2`), direction modifiers `f b s v l r` and the
//! oblique-atom pairs `ff bb fs bs fh bh lh rh ll rr lv rv fl fr bl br fb`, modality `m`/`c`,
//! and lame leaps `n` on `D A N`. White's frame: forward = +y, left = -x.
//!
//! For oblique atoms `fb` means the four narrow moves (the Fibnif's `fbN` = (±1,±2)), as the
//! rules decide; a single `f` means the four forward moves, `v` the narrow four and `s` the
//! wide four.

use super::{Atom, LeapCondition, Mode};
use crate::geometry::Vec3;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BetzaError {
    Empty,
    UnknownLetter {
        notation: String,
        letter: char,
    },
    ModifierWithoutAtom {
        notation: String,
    },
    UnsupportedModifier {
        notation: String,
        modifier: String,
        atom: char,
    },
    UnsupportedLame {
        notation: String,
        atom: char,
    },
    BadRange {
        notation: String,
    },
    UnsupportedRider {
        notation: String,
        atom: char,
    },
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BetzaError::Empty => write!(f, "empty Betza notation"),
            BetzaError::UnknownLetter { notation, letter } => {
                write!(f, "Betza notation '{notation}': unsupported letter '{letter}'")
            }
            BetzaError::ModifierWithoutAtom { notation } => {
                write!(f, "Betza notation '{notation}': modifiers at the end with no atom")
            }
            BetzaError::UnsupportedModifier { notation, modifier, atom } => write!(
                f,
                "Betza notation '{notation}': direction modifier '{modifier}' is not supported on atom '{atom}'"
            ),
            BetzaError::UnsupportedLame { notation, atom } => write!(
                f,
                "Betza notation '{notation}': lame 'n' is supported only on D, A and N, not on '{atom}'"
            ),
            BetzaError::UnsupportedRider { notation, atom } => write!(
                f,
                "Betza notation '{notation}': only W and F riders (R, B, Q, WW, FF) are supported, not '{atom}{atom}'"
            ),
            BetzaError::BadRange { notation } => {
                write!(f, "Betza notation '{notation}': a range must be 1 to 9 and follow a sliding atom")
            }
        }
    }
}

impl std::error::Error for BetzaError {}

/// The geometric family of a leap vector, which decides what direction modifiers mean.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Symmetry {
    Orthogonal,
    Diagonal,
    Oblique,
}

fn atom_vector(letter: char) -> Option<(i8, i8)> {
    Some(match letter {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (1, 2),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (1, 3),
        'Z' => (2, 3),
        'G' => (3, 3),
        _ => return None,
    })
}

/// The eight (or four) images of a base vector.
fn images(a: i8, b: i8) -> Vec<Vec3> {
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = Vec3::flat(x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

fn symmetry(a: i8, b: i8) -> Symmetry {
    if a == 0 || b == 0 {
        Symmetry::Orthogonal
    } else if a == b {
        Symmetry::Diagonal
    } else {
        Symmetry::Oblique
    }
}

/// Does vector `v` (of the given symmetry) belong to the direction set named by `m`?
fn selects(sym: Symmetry, m: &str, v: Vec3) -> Option<bool> {
    let (x, y) = (v.x as i32, v.y as i32);
    let narrow = y.abs() > x.abs();
    let wide = x.abs() > y.abs();
    Some(match (sym, m) {
        (_, "f") => y > 0,
        (_, "b") => y < 0,
        (_, "l") => x < 0,
        (_, "r") => x > 0,
        (Symmetry::Orthogonal, "s") => x != 0,
        (Symmetry::Orthogonal, "v") => y != 0,
        (Symmetry::Diagonal, "fl") => y > 0 && x < 0,
        (Symmetry::Diagonal, "fr") => y > 0 && x > 0,
        (Symmetry::Diagonal, "bl") => y < 0 && x < 0,
        (Symmetry::Diagonal, "br") => y < 0 && x > 0,
        (Symmetry::Oblique, "s") => wide,
        (Symmetry::Oblique, "v" | "fb") => narrow,
        (Symmetry::Oblique, "ff") => y > 0 && narrow,
        (Symmetry::Oblique, "bb") => y < 0 && narrow,
        (Symmetry::Oblique, "fs") => y > 0 && wide,
        (Symmetry::Oblique, "bs") => y < 0 && wide,
        (Symmetry::Oblique, "ll") => x < 0 && wide,
        (Symmetry::Oblique, "rr") => x > 0 && wide,
        (Symmetry::Oblique, "lv") => x < 0 && narrow,
        (Symmetry::Oblique, "rv") => x > 0 && narrow,
        (Symmetry::Oblique, "fh") => y > 0,
        (Symmetry::Oblique, "bh") => y < 0,
        (Symmetry::Oblique, "lh") => x < 0,
        (Symmetry::Oblique, "rh") => x > 0,
        (Symmetry::Oblique, "fl") => y > 0 && x < 0,
        (Symmetry::Oblique, "fr") => y > 0 && x > 0,
        (Symmetry::Oblique, "bl") => y < 0 && x < 0,
        (Symmetry::Oblique, "br") => y < 0 && x > 0,
        _ => return None,
    })
}

/// Splits a run of direction letters into modifier tokens, taking two-letter tokens where the
/// atom's symmetry gives them a meaning of their own.
fn tokenize(sym: Symmetry, dirs: &str) -> Vec<String> {
    let pairs: &[&str] = match sym {
        Symmetry::Orthogonal => &[],
        Symmetry::Diagonal => &["fl", "fr", "bl", "br"],
        Symmetry::Oblique => &[
            "ff", "bb", "fs", "bs", "fh", "bh", "lh", "rh", "ll", "rr", "lv", "rv", "fl", "fr",
            "bl", "br", "fb",
        ],
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < dirs.len() {
        if i + 2 <= dirs.len() && pairs.contains(&&dirs[i..i + 2]) {
            out.push(dirs[i..i + 2].to_string());
            i += 2;
        } else {
            out.push(dirs[i..i + 1].to_string());
            i += 1;
        }
    }
    out
}

/// The lame leg of a lame leap: the Mao's orthogonal first step for N, halfway for D and A.
fn lame_via(v: Vec3) -> Option<Vec3> {
    let (x, y) = (v.x, v.y);
    match (x.abs(), y.abs()) {
        (0, 2) | (2, 0) | (2, 2) => Some(Vec3::flat(x / 2, y / 2)),
        (1, 2) => Some(Vec3::flat(0, y / 2)),
        (2, 1) => Some(Vec3::flat(x / 2, 0)),
        _ => None,
    }
}

struct Group {
    mode: Mode,
    lame: bool,
    dirs: String,
}

/// Parses Betza notation into atoms (White's frame).
pub fn parse(notation: &str) -> Result<Vec<Atom>, BetzaError> {
    if notation.is_empty() {
        return Err(BetzaError::Empty);
    }
    let chars: Vec<char> = notation.chars().collect();
    let mut atoms = Vec::new();
    let mut group = Group {
        mode: Mode::Both,
        lame: false,
        dirs: String::new(),
    };
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        i += 1;
        match ch {
            'm' => group.mode = Mode::Move,
            'c' => group.mode = Mode::Capture,
            'n' => group.lame = true,
            'f' | 'b' | 's' | 'v' | 'l' | 'r' | 'h' => group.dirs.push(ch),
            'W' | 'F' | 'D' | 'N' | 'A' | 'H' | 'C' | 'Z' | 'G' | 'K' | 'R' | 'B' | 'Q' => {
                let mut rider = matches!(ch, 'R' | 'B' | 'Q');
                if chars.get(i) == Some(&ch) {
                    if !matches!(ch, 'W' | 'F') {
                        return Err(BetzaError::UnsupportedRider {
                            notation: notation.into(),
                            atom: ch,
                        });
                    }
                    rider = true;
                    i += 1;
                }
                let mut range = 0u8;
                if let Some(d) = chars.get(i).and_then(|c| c.to_digit(10)) {
                    if d == 0 || !(rider || matches!(ch, 'W' | 'F')) {
                        return Err(BetzaError::BadRange {
                            notation: notation.into(),
                        });
                    }
                    range = d as u8;
                    rider = true;
                    i += 1;
                    if chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
                        return Err(BetzaError::BadRange {
                            notation: notation.into(),
                        });
                    }
                }
                let bases = match ch {
                    'K' | 'Q' => vec!['W', 'F'],
                    'R' => vec!['W'],
                    'B' => vec!['F'],
                    other => vec![other],
                };
                for base in bases {
                    expand(notation, base, &group, rider, range, &mut atoms)?;
                }
                group = Group {
                    mode: Mode::Both,
                    lame: false,
                    dirs: String::new(),
                };
            }
            other => {
                return Err(BetzaError::UnknownLetter {
                    notation: notation.into(),
                    letter: other,
                })
            }
        }
    }
    if !group.dirs.is_empty() || group.lame || group.mode != Mode::Both {
        return Err(BetzaError::ModifierWithoutAtom {
            notation: notation.into(),
        });
    }
    Ok(atoms)
}

fn expand(
    notation: &str,
    base: char,
    group: &Group,
    rider: bool,
    range: u8,
    atoms: &mut Vec<Atom>,
) -> Result<(), BetzaError> {
    let (a, b) = atom_vector(base).expect("base atom");
    let sym = symmetry(a, b);
    let tokens = tokenize(sym, &group.dirs);
    let mut vectors = images(a, b);
    if !tokens.is_empty() {
        let mut keep = Vec::new();
        for v in &vectors {
            let mut any = false;
            for t in &tokens {
                let chosen =
                    selects(sym, t, *v).ok_or_else(|| BetzaError::UnsupportedModifier {
                        notation: notation.into(),
                        modifier: t.clone(),
                        atom: base,
                    })?;
                any |= chosen;
            }
            if any {
                keep.push(*v);
            }
        }
        vectors = keep;
    }
    for v in vectors {
        let atom = if rider {
            if !v.is_unit() {
                return Err(BetzaError::UnknownLetter {
                    notation: notation.into(),
                    letter: base,
                });
            }
            Atom::Slide {
                step: v,
                max: range,
                mode: group.mode,
            }
        } else if group.lame {
            let via = lame_via(v).ok_or(BetzaError::UnsupportedLame {
                notation: notation.into(),
                atom: base,
            })?;
            Atom::Lame {
                via,
                to: v,
                mode: group.mode,
            }
        } else {
            Atom::Leap {
                to: v,
                mode: group.mode,
                when: LeapCondition::Always,
            }
        };
        atoms.push(atom);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaps(n: &str) -> Vec<(i8, i8, Mode)> {
        let mut v: Vec<_> = parse(n)
            .unwrap()
            .into_iter()
            .map(|a| match a {
                Atom::Leap { to, mode, .. } => (to.x, to.y, mode),
                other => panic!("not a leap: {other:?}"),
            })
            .collect();
        v.sort_by_key(|&(x, y, _)| (x, y));
        v
    }

    fn slides(n: &str) -> Vec<(i8, i8, u8)> {
        let mut v: Vec<_> = parse(n)
            .unwrap()
            .into_iter()
            .map(|a| match a {
                Atom::Slide { step, max, .. } => (step.x, step.y, max),
                other => panic!("not a slide: {other:?}"),
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn knight_and_compounds() {
        assert_eq!(parse("N").unwrap().len(), 8);
        assert_eq!(parse("K").unwrap().len(), 8);
        assert_eq!(parse("Q").unwrap().len(), 8);
        assert_eq!(parse("RN").unwrap().len(), 12);
        assert_eq!(parse("HFD").unwrap().len(), 12);
        assert_eq!(parse("WA").unwrap().len(), 8);
    }

    #[test]
    fn pawn_modality() {
        let b = Mode::Both;
        let _ = b;
        assert_eq!(
            leaps("mfWcfF"),
            vec![
                (-1, 1, Mode::Capture),
                (0, 1, Mode::Move),
                (1, 1, Mode::Capture)
            ]
        );
        assert_eq!(
            leaps("mfFcfW"),
            vec![
                (-1, 1, Mode::Move),
                (0, 1, Mode::Capture),
                (1, 1, Mode::Move)
            ]
        );
    }

    #[test]
    fn nutty_knight_directions() {
        assert_eq!(slides("fsR"), vec![(-1, 0, 0), (0, 1, 0), (1, 0, 0)]);
        let back: Vec<_> = leaps("bK").into_iter().map(|(x, y, _)| (x, y)).collect();
        assert_eq!(back, vec![(-1, -1), (0, -1), (1, -1)]);
        let fh: Vec<_> = leaps("fhN").into_iter().map(|(x, y, _)| (x, y)).collect();
        assert_eq!(fh, vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        let narrow: Vec<_> = leaps("fbN").into_iter().map(|(x, y, _)| (x, y)).collect();
        assert_eq!(narrow, vec![(-1, -2), (-1, 2), (1, -2), (1, 2)]);
        let crab: Vec<_> = leaps("ffNbsN")
            .into_iter()
            .map(|(x, y, _)| (x, y))
            .collect();
        assert_eq!(crab, vec![(-2, -1), (-1, 2), (1, 2), (2, -1)]);
    }

    #[test]
    fn ranges_and_riders() {
        assert_eq!(
            slides("R4"),
            vec![(-1, 0, 4), (0, -1, 4), (0, 1, 4), (1, 0, 4)]
        );
        assert_eq!(slides("WW"), slides("R"));
        assert_eq!(slides("W2").len(), 4);
        assert_eq!(slides("fR"), vec![(0, 1, 0)]);
    }

    #[test]
    fn lame_leaps_have_their_leg() {
        let atoms = parse("nN").unwrap();
        assert!(atoms.contains(&Atom::Lame {
            via: Vec3::flat(0, 1),
            to: Vec3::flat(1, 2),
            mode: Mode::Both
        }));
        assert!(atoms.contains(&Atom::Lame {
            via: Vec3::flat(1, 0),
            to: Vec3::flat(2, 1),
            mode: Mode::Both
        }));
    }

    #[test]
    fn unsupported_notation_is_a_clear_error() {
        assert!(matches!(
            parse("aN"),
            Err(BetzaError::UnknownLetter { letter: 'a', .. })
        ));
        assert!(matches!(
            parse("NN"),
            Err(BetzaError::UnsupportedRider { atom: 'N', .. })
        ));
        assert!(matches!(
            parse("nW"),
            Err(BetzaError::UnsupportedLame { .. })
        ));
        assert!(matches!(
            parse("sF"),
            Err(BetzaError::UnsupportedModifier { .. })
        ));
        assert!(matches!(
            parse("fm"),
            Err(BetzaError::ModifierWithoutAtom { .. })
        ));
        assert!(matches!(parse("N3"), Err(BetzaError::BadRange { .. })));
        assert!(matches!(parse(""), Err(BetzaError::Empty)));
        assert!(parse("X").unwrap_err().to_string().contains("'X'"));
    }
}
