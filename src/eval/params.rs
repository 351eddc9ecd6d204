//! Evaluation weights as data. Every term of the evaluation is a named (middlegame, endgame)
//! weight times a count the position supplies; the names index one flat vector per variant.
//! Per-kind terms (value, mobility, ...) get one weight per piece kind, keyed by the kind's
//! name, so that one weight file serves every variant of a family (all CwDA pairings share
//! their pieces). Tuned weights live in `weights/<family>.txt`, compiled into the binary by
//! the family's descriptor; what a file does not name keeps its default, derived from the
//! pieces' moves.

use crate::variant::{Family, Variant};
use std::fmt;
use std::ops::{Add, AddAssign, Mul, Sub};

/// A (middlegame, endgame) pair of centipawn values, blended by the game phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    pub mg: i32,
    pub eg: i32,
}

impl Tapered {
    pub const ZERO: Tapered = Tapered { mg: 0, eg: 0 };

    pub const fn new(mg: i32, eg: i32) -> Tapered {
        Tapered { mg, eg }
    }

    /// The blend at `phase` (256 = all pieces on, 0 = none).
    #[inline]
    pub fn taper(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (256 - phase)) / 256
    }
}

impl Add for Tapered {
    type Output = Tapered;
    #[inline]
    fn add(self, o: Tapered) -> Tapered {
        Tapered::new(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for Tapered {
    type Output = Tapered;
    #[inline]
    fn sub(self, o: Tapered) -> Tapered {
        Tapered::new(self.mg - o.mg, self.eg - o.eg)
    }
}

impl AddAssign for Tapered {
    #[inline]
    fn add_assign(&mut self, o: Tapered) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl Mul<i32> for Tapered {
    type Output = Tapered;
    #[inline]
    fn mul(self, n: i32) -> Tapered {
        Tapered::new(self.mg * n, self.eg * n)
    }
}

/// Terms with one weight for the whole variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Global {
    /// For the side to move.
    Tempo,
    /// Colour-bound pieces of one side on both cell colours.
    ColourPair,
    DoubledPawn,
    IsolatedPawn,
    /// Own pawns in front of a lone royal (up to three).
    PawnShield,
    /// An enemy piece (not a pawn or royal) attacked by one of our pawns.
    ThreatByPawn,
    /// An enemy piece attacked by one of our pieces worth less.
    ThreatByLesser,
    /// An enemy piece we attack that its side does not defend.
    Hanging,
    /// A passed pawn, by how far it has come in eighths of the board (1..=8).
    PassedPawn(u8),
}

impl Global {
    pub const ALL: [Global; 16] = [
        Global::Tempo,
        Global::ColourPair,
        Global::DoubledPawn,
        Global::IsolatedPawn,
        Global::PawnShield,
        Global::ThreatByPawn,
        Global::ThreatByLesser,
        Global::Hanging,
        Global::PassedPawn(1),
        Global::PassedPawn(2),
        Global::PassedPawn(3),
        Global::PassedPawn(4),
        Global::PassedPawn(5),
        Global::PassedPawn(6),
        Global::PassedPawn(7),
        Global::PassedPawn(8),
    ];

    fn index(self) -> usize {
        match self {
            Global::Tempo => 0,
            Global::ColourPair => 1,
            Global::DoubledPawn => 2,
            Global::IsolatedPawn => 3,
            Global::PawnShield => 4,
            Global::ThreatByPawn => 5,
            Global::ThreatByLesser => 6,
            Global::Hanging => 7,
            Global::PassedPawn(step) => 7 + step.clamp(1, 8) as usize,
        }
    }

    fn name(self) -> String {
        match self {
            Global::Tempo => "tempo".into(),
            Global::ColourPair => "colour_pair".into(),
            Global::DoubledPawn => "pawn.doubled".into(),
            Global::IsolatedPawn => "pawn.isolated".into(),
            Global::PawnShield => "king.shield".into(),
            Global::ThreatByPawn => "threat.by_pawn".into(),
            Global::ThreatByLesser => "threat.by_lesser".into(),
            Global::Hanging => "threat.hanging".into(),
            Global::PassedPawn(step) => format!("pawn.passed.{step}"),
        }
    }
}

/// Terms with one weight per piece kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerKind {
    /// Material: per piece on the board.
    Value,
    /// Per piece on the board that becomes this kind when it moves (Cyclical Armies): a
    /// piece is worth what it is and what it will be.
    Becomes,
    /// Per piece in hand (drop games).
    Hand,
    /// Per cell the piece can move to that no enemy pawn attacks.
    Mobility,
    /// Per target the kind has from its cell on an empty board (a piece-square term that
    /// says where the piece stands well, whatever the army).
    Square,
    /// Per step of centrality (Chebyshev, in half-cells from the edge).
    Centre,
    /// Per eighth of the board advanced from its own side.
    Advance,
    /// Per cell next to an enemy lone royal that the piece attacks, times the number of
    /// pieces attacking that royal's surroundings (up to four).
    KingAttack,
    /// Per cell a piece of the kind can move to from which it would check the enemy lone
    /// royal (two players), and which no enemy piece attacks: a check the defence cannot
    /// meet by taking the checker.
    SafeCheck,
}

impl PerKind {
    pub const ALL: [PerKind; 9] = [
        PerKind::Value,
        PerKind::Becomes,
        PerKind::Hand,
        PerKind::Mobility,
        PerKind::Square,
        PerKind::Centre,
        PerKind::Advance,
        PerKind::KingAttack,
        PerKind::SafeCheck,
    ];

    fn prefix(self) -> &'static str {
        match self {
            PerKind::Value => "value",
            PerKind::Becomes => "becomes",
            PerKind::Hand => "hand",
            PerKind::Mobility => "mobility",
            PerKind::Square => "square",
            PerKind::Centre => "centre",
            PerKind::Advance => "advance",
            PerKind::KingAttack => "king_attack",
            PerKind::SafeCheck => "safe_check",
        }
    }
}

/// Index of one weight in a variant's weight vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Param(pub u16);

impl Param {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The weight vector of one variant and how it is indexed.
#[derive(Clone, Debug)]
pub struct Weights {
    kinds: usize,
    names: Vec<String>,
    pub values: Vec<Tapered>,
}

const GLOBALS: usize = Global::ALL.len();

impl Weights {
    /// All weights zero, named for `variant`'s kinds.
    pub fn zero(variant: &Variant) -> Weights {
        let kinds = variant.pieces.len();
        let mut names: Vec<String> = Global::ALL.iter().map(|g| g.name()).collect();
        for term in PerKind::ALL {
            for def in &variant.pieces {
                names.push(format!("{}.{}", term.prefix(), def.name));
            }
        }
        Weights {
            kinds,
            values: vec![Tapered::ZERO; names.len()],
            names,
        }
    }

    #[inline]
    pub fn global(&self, g: Global) -> Param {
        Param(g.index() as u16)
    }

    #[inline]
    pub fn per_kind(&self, term: PerKind, kind: crate::piece::Kind) -> Param {
        let block = PerKind::ALL.iter().position(|&t| t == term).unwrap_or(0);
        Param((GLOBALS + block * self.kinds + kind.index()) as u16)
    }

    #[inline]
    pub fn get(&self, p: Param) -> Tapered {
        self.values[p.index()]
    }

    pub fn set(&mut self, p: Param, v: Tapered) {
        self.values[p.index()] = v;
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    pub fn name(&self, p: Param) -> &str {
        &self.names[p.index()]
    }

    pub fn find(&self, name: &str) -> Option<Param> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| Param(i as u16))
    }

    /// Applies a weight file: `name: mg eg` per line, `#` comments. Names of kinds this
    /// variant does not have are skipped (a family file covers all its armies); returns the
    /// weights the file set.
    pub fn apply_text(&mut self, text: &str) -> Result<Vec<Param>, WeightError> {
        let mut set = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let Some(entry) = parse_line(line).map_err(|reason| WeightError {
                line: n + 1,
                reason,
            })?
            else {
                continue;
            };
            if let Some(p) = self.find(entry.0) {
                self.values[p.index()] = entry.1;
                set.push(p);
            }
        }
        Ok(set)
    }

    /// The weights as a weight file, in index order.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (name, v) in self.names.iter().zip(&self.values) {
            out.push_str(&format!("{name}: {} {}\n", v.mg, v.eg));
        }
        out
    }
}

/// The names a weight file sets (lines that do not read are left out).
pub fn names_in(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter_map(|line| parse_line(line).ok().flatten().map(|(name, _)| name))
}

/// One line of a weight file: `None` for blank and comment lines.
fn parse_line(line: &str) -> Result<Option<(&str, Tapered)>, String> {
    let line = line.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(None);
    }
    let (name, rest) = line
        .rsplit_once(':')
        .ok_or_else(|| format!("expected 'name: mg eg', got '{line}'"))?;
    let numbers: Vec<&str> = rest.split_whitespace().collect();
    let [mg, eg] = numbers[..] else {
        return Err(format!("expected two numbers after '{name}:'"));
    };
    let num = |s: &str| {
        s.parse::<i32>()
            .map_err(|_| format!("'{s}' is not a whole number"))
    };
    Ok(Some((name.trim(), Tapered::new(num(mg)?, num(eg)?))))
}

/// A malformed line in a weight file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightError {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for WeightError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for WeightError {}

/// The tuned weights compiled in for a family (may be empty: defaults apply).
pub fn family_weights(family: Family) -> &'static str {
    super::family::of(family).weights
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games;

    #[test]
    fn every_name_in_a_family_file_is_a_weight_of_some_variant_of_that_family() {
        for name in games::names() {
            let variant = games::by_name(&name).unwrap();
            let mut known = Weights::zero(&variant);
            known.apply_text(family_weights(variant.family)).unwrap();
        }
        // Names are checked against the union of the family's variants: a file line must
        // name a weight that at least one variant of the family has.
        for family in games::families() {
            let variants: Vec<Variant> = games::names()
                .iter()
                .filter_map(|n| games::by_name(n).ok())
                .filter(|v| v.family == family)
                .collect();
            for line in family_weights(family).lines() {
                let Some((name, _)) = parse_line(line).unwrap() else {
                    continue;
                };
                assert!(
                    variants
                        .iter()
                        .any(|v| Weights::zero(v).find(name).is_some()),
                    "{family:?}: unknown weight '{name}'"
                );
            }
        }
    }

    #[test]
    fn malformed_lines_name_their_line() {
        let v = games::by_name("chess").unwrap();
        let mut w = Weights::zero(&v);
        let e = w
            .apply_text("tempo: 10 10\nvalue.Knight 300 300\n")
            .unwrap_err();
        assert_eq!(e.line, 2);
        let e = w.apply_text("tempo: 10 x\n").unwrap_err();
        assert!(e.reason.contains("'x'"), "{e}");
        let set = w
            .apply_text("# c\n\nvalue.Knight: 310 290 # tuned\n")
            .unwrap();
        assert_eq!(set.len(), 1);
        assert_eq!(w.get(set[0]), Tapered::new(310, 290));
    }

    #[test]
    fn a_written_file_reads_back_the_same() {
        let v = games::by_name("cwda-nutty-rookies").unwrap();
        let mut w = Weights::zero(&v);
        for (i, x) in w.values.iter_mut().enumerate() {
            *x = Tapered::new(i as i32, -(i as i32));
        }
        let mut back = Weights::zero(&v);
        back.apply_text(&w.to_text()).unwrap();
        assert_eq!(back.values, w.values);
    }
}
