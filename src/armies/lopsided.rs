//! Warnings for Betza strings that Fairy-Stockfish's dialect (the one armies files use) reads
//! as another piece than Betza's own notation does, as a user who pastes a string from
//! Betza's pages would not expect.
//!
//! Betza's reading is the rule pages' (`piece::betza`, the dialect of the built-in armies):
//! a lone direction letter selects every move on that side (`fN` the four forward Knight
//! moves, `lN` the four to the left), and modifiers apply to each atom of a compound (`fsQ`
//! forward and sideways as a Queen). Fairy-Stockfish doubles a lone letter (`fN` = `ffN`,
//! the two narrow ones), pairs a vertical with a following horizontal letter (`rlbK` is `r`
//! and `lb`) and keeps a mixed pair on `K` and `Q` to the pair's images. Where the two
//! readings give different moves the user gets a warning naming both; a piece whose moves
//! differ between left and right is warned about too (armies are mirror images, so that is
//! almost never meant), also where Betza's reading cannot be made.

use super::army::Army;
use super::betza;
use crate::piece::{Atom, Mode};
use std::collections::BTreeSet;

/// One move of a piece, comparable across readers: target (or step), how, and whether it
/// moves and captures.
type Move = (i8, i8, u8, u8, bool, bool);

fn moves(atoms: &[Atom]) -> BTreeSet<Move> {
    let mut out: BTreeSet<Move> = BTreeSet::new();
    for atom in atoms {
        let (x, y, way, max) = match *atom {
            Atom::Leap { to, .. } => (to.x, to.y, 0, 0),
            Atom::Lame { to, .. } => (to.x, to.y, 1, 0),
            Atom::Slide { step, max, .. } => (step.x, step.y, 2, max),
            Atom::Bent { then, .. } => (then.x, then.y, 3, 0),
        };
        let mode = atom.mode();
        let (m, c) = (mode != Mode::Capture, mode != Mode::Move);
        // Merge what two atoms on one target allow, as one table entry does.
        let same = out
            .iter()
            .find(|e| (e.0, e.1, e.2, e.3) == (x, y, way, max))
            .copied();
        let (m0, c0) = same.map_or((false, false), |e| (e.4, e.5));
        if let Some(e) = same {
            out.remove(&e);
        }
        out.insert((x, y, way, max, m || m0, c || c0));
    }
    out
}

/// The square a move reaches from d4 (a slide: its first square), as a user reads it.
fn square(mv: &Move) -> String {
    let (file, rank) = (3 + mv.0 as i32, 3 + mv.1 as i32);
    if (0..26).contains(&file) && rank >= 0 {
        format!("{}{}", (b'a' + file as u8) as char, rank + 1)
    } else {
        format!("({:+},{:+})", mv.0, mv.1)
    }
}

fn squares(set: &BTreeSet<Move>) -> String {
    let mut all: Vec<String> = set.iter().map(square).collect();
    all.dedup();
    all.join(" ")
}

/// `notation` with each `K` and `Q` written as its two atoms, each with the compound's
/// modifiers and range (`fsQ` = `fsRfsB`): how Betza meant modifiers on a compound.
fn per_atom(notation: &str) -> String {
    let chars: Vec<char> = notation.chars().collect();
    let mut out = String::new();
    let mut prefix = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if "mcnfbvrlsh".contains(c) {
            prefix.push(c);
            continue;
        }
        let parts = match c {
            'K' => Some(('W', 'F')),
            'Q' => Some(('R', 'B')),
            _ => None,
        };
        let suffix: String = match chars.get(i) {
            Some(&d) if d.is_ascii_digit() => {
                i += 1;
                d.to_string()
            }
            _ => String::new(),
        };
        match parts {
            Some((a, b)) => out += &format!("{prefix}{a}{suffix}{prefix}{b}{suffix}"),
            None => out += &format!("{prefix}{c}{suffix}"),
        }
        prefix.clear();
    }
    out + &prefix
}

/// The moves only `a` has, as squares from d4.
fn only(a: &BTreeSet<Move>, b: &BTreeSet<Move>) -> String {
    squares(&a.difference(b).copied().collect())
}

/// "it misses c4 c5", "it also reaches b3", or both.
fn differences(ours: &BTreeSet<Move>, betzas: &BTreeSet<Move>) -> String {
    let (extra, missing) = (only(ours, betzas), only(betzas, ours));
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("it misses {missing}"));
    }
    if !extra.is_empty() {
        parts.push(format!("it also reaches {extra}"));
    }
    parts.join(" and ")
}

/// Betza's reading of `notation`: the rule pages' where it reads, else the Fairy-Stockfish
/// reading of the compounds split into their atoms (the rule pages do not read every pair).
fn betzas_reading(notation: &str) -> Option<BTreeSet<Move>> {
    match crate::piece::betza::parse(notation) {
        Ok(atoms) => Some(moves(&atoms)),
        Err(_) => betza::parse(&per_atom(notation)).ok().map(|a| moves(&a)),
    }
}

/// What, if anything, is odd about `betza` for the piece `name` of `army`.
pub fn warning(army: &str, name: &str, notation: &str) -> Option<String> {
    let ours = moves(&betza::parse(notation).ok()?);
    let head = format!("army '{army}', piece '{name}': Betza '{notation}'");
    if let Some(betzas) = betzas_reading(notation).filter(|b| *b != ours) {
        return Some(format!(
            "{head} is read as Fairy-Stockfish reads it, not as Betza's pages do: from d4 \
             {} compared with Betza's reading (docs/armies.md, \"The Betza dialect\")",
            differences(&ours, &betzas)
        ));
    }
    let mirrored: BTreeSet<Move> = ours
        .iter()
        .map(|m| (-m.0, m.1, m.2, m.3, m.4, m.5))
        .collect();
    (mirrored != ours).then(|| {
        format!(
            "{head} moves differently to the left and to the right (from d4 only one side \
             reaches {}); an army's pieces are usually symmetric (docs/armies.md, \"The Betza \
             dialect\")",
            only(&ours, &mirrored)
        )
    })
}

/// The squares a piece written `notation` reaches from d4 on an empty board, a slide as its
/// first square and `+` ("d5+": on up the file), for `panoply variants --explain`.
pub fn reach(notation: &str) -> Option<String> {
    let all = moves(&betza::parse(notation).ok()?);
    let words: Vec<String> = all
        .iter()
        .map(|m| {
            let how = match (m.4, m.5) {
                (true, false) => " (move only)",
                (false, true) => " (capture only)",
                _ => "",
            };
            let slide = match (m.2, m.3) {
                (2, 0) => "+".to_string(),
                (2, n) => format!("+{n}"),
                _ => String::new(),
            };
            format!("{}{slide}{how}", square(m))
        })
        .collect();
    Some(words.join(" "))
}

/// The warnings for every piece of `army`, one line each.
pub fn warnings(army: &Army) -> Vec<String> {
    army.pieces
        .iter()
        .filter_map(|p| {
            let notation = p.betza.as_deref()?;
            let line = army.piece_line(army.pieces.iter().position(|q| q == p)?);
            let w = warning(&army.code, &p.name, notation)?;
            Some(format!("{}:{line}: {w}", army.origin.file))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn betzas_forward_fide_strings_are_warned_about() {
        for s in [
            "frlRrlbK", "fBbN", "fNbB", "fsQbhNbK", "fN", "bN", "lN", "rN", "fsQ", "bsK", "fsK",
        ] {
            assert!(warning("a", "p", s).is_some(), "{s}");
        }
    }

    #[test]
    fn strings_both_dialects_read_alike_are_not() {
        let unofficial = [
            "fsRbK",
            "fhNbB",
            "fBbhN",
            "fsRfBbhNbK",
            "FfbN",
            "RN",
            "R4",
            "QN",
        ];
        let builtin = [
            "fhNsWbK", "KfsRfhN", "mfWcfF", "BD", "WA", "FAD", "fbN", "nN",
        ];
        let alike = ["sN", "vN", "fsN", "fhN", "bB", "fR"];
        for s in unofficial.into_iter().chain(builtin).chain(alike) {
            assert_eq!(warning("a", "p", s), None, "{s}");
        }
    }

    #[test]
    fn the_warning_names_the_moves_that_differ() {
        let w = warning("forward", "Knishop", "fNbB").unwrap();
        // Betza's fN has the wide forward moves b5 and f5 too.
        assert!(w.contains("misses b5 f5"), "{w}");
        assert!(
            w.starts_with("army 'forward', piece 'Knishop': Betza 'fNbB'"),
            "{w}"
        );
        // fsQ: Fairy-Stockfish's has no forward Rook move.
        let w = warning("a", "Forequeen", "fsQ").unwrap();
        assert!(w.contains("misses d5"), "{w}");
        assert_eq!(per_atom("mfsQ4bK"), "mfsR4mfsB4bWbF");
    }
}
