//! Chess with Different Armies (docs/rules.md section 1): four armies on 8x8, any pairing.

pub mod descriptor;

use super::VariantError;
use crate::geometry::{Cell, Orientation, Shape};
use crate::piece::{Kind, PieceDef, Player};
use crate::variant::{Castling, PromotionRule, Variant};
pub use descriptor::FAMILY;

/// The four CwDA armies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Army {
    Fide,
    Clobberers,
    Nutty,
    Rookies,
}

impl Army {
    pub const ALL: [Army; 4] = [Army::Fide, Army::Clobberers, Army::Nutty, Army::Rookies];

    pub fn name(self) -> &'static str {
        match self {
            Army::Fide => "fide",
            Army::Clobberers => "clobberers",
            Army::Nutty => "nutty",
            Army::Rookies => "rookies",
        }
    }

    pub fn from_name(s: &str) -> Option<Army> {
        Army::ALL.into_iter().find(|a| a.name() == s)
    }

    /// Position-string letters of the a/h, b/g, c/f and d pieces.
    pub fn letters(self) -> [char; 4] {
        match self {
            Army::Fide => ['r', 'n', 'b', 'q'],
            Army::Clobberers => ['d', 'w', 'a', 'c'],
            Army::Nutty => ['g', 'i', 'h', 'o'],
            Army::Rookies => ['s', 'm', 'f', 'e'],
        }
    }

    /// The army's four piece kinds, in a/h, b/g, c/f, d order.
    pub fn pieces(self) -> [PieceDef; 4] {
        let p = |name: &str, letter: &str, betza: &str, value| {
            PieceDef::from_betza(name, letter, betza).valued(value)
        };
        match self {
            Army::Fide => [
                p("Rook", "R", "R", 500),
                p("Knight", "N", "N", 325),
                p("Bishop", "B", "B", 325),
                p("Queen", "Q", "Q", 950),
            ],
            Army::Clobberers => [
                p("Bede", "D", "BD", 500),
                p("Waffle", "W", "WA", 300),
                p("FAD", "A", "FAD", 450),
                p("Archbishop", "C", "BN", 875),
            ],
            Army::Nutty => [
                p("Charging Rook", "G", "fsRbK", 500),
                p("Fibnif", "I", "FfbN", 300),
                p("Charging Knight", "H", "fhNsWbK", 375),
                p("Colonel", "O", "KfsRfhN", 950),
            ],
            Army::Rookies => [
                p("Short Rook", "S", "R4", 450),
                p("Woody", "M", "WD", 300),
                p("Half Duck", "F", "HFD", 400),
                p("Chancellor", "E", "RN", 900),
            ],
        }
    }
}

pub const KING: Kind = Kind(0);
pub const PAWN: Kind = Kind(1);

/// Kind index of an army's piece in slot 0..4 (a/h, b/g, c/f, d).
pub fn army_kind(army: Army, slot: usize) -> Kind {
    let a = Army::ALL.iter().position(|&x| x == army).unwrap();
    Kind((2 + 4 * a + slot) as u8)
}

pub fn king() -> PieceDef {
    PieceDef::from_betza("King", "K", "K").royal()
}

pub fn fide_pawn() -> PieceDef {
    PieceDef::from_betza("Pawn", "P", "mfWcfF")
        .with_double_step()
        .pawn()
        .valued(100)
}

/// King, Pawn and all sixteen army pieces: every CwDA variant knows every letter, so any
/// position string with CwDA letters can be set up.
pub fn piece_table() -> Vec<PieceDef> {
    let mut pieces = vec![king(), fide_pawn()];
    for army in Army::ALL {
        pieces.extend(army.pieces());
    }
    pieces
}

fn sq(shape: &Shape, file: i32, rank: i32) -> Cell {
    shape.cell(file, rank, 0).expect("on board")
}

/// FIDE castling for both sides, with the Clobberers' queen-side Bede castling (King to b1,
/// Bede to c1) for a side whose army is Clobberers.
pub fn castlings(shape: &Shape, armies: [Army; 2]) -> Vec<Castling> {
    let mut out = Vec::new();
    for (p, army) in armies.into_iter().enumerate() {
        let rank = if p == 0 { 0 } else { 7 };
        let c = |f| sq(shape, f, rank);
        let (king_side, queen_side) = if p == 0 { ('K', 'Q') } else { ('k', 'q') };
        out.push(Castling {
            player: Player(p as u8),
            symbol: king_side,
            king_from: c(4),
            king_to: c(6),
            partner_from: c(7),
            partner_to: c(5),
            empty: vec![c(5), c(6)],
            safe: vec![c(4), c(5), c(6)],
        });
        let bede = army == Army::Clobberers;
        out.push(Castling {
            player: Player(p as u8),
            symbol: queen_side,
            king_from: c(4),
            king_to: if bede { c(1) } else { c(2) },
            partner_from: c(0),
            partner_to: if bede { c(2) } else { c(3) },
            empty: vec![c(1), c(2), c(3)],
            safe: if bede {
                vec![c(4), c(3), c(2), c(1)]
            } else {
                vec![c(4), c(3), c(2)]
            },
        });
    }
    out
}

/// Compulsory promotion on the last rank to the given kinds.
pub fn last_rank_promotions(
    shape: &Shape,
    pawn: Kind,
    choices: [Vec<Kind>; 2],
) -> Vec<PromotionRule> {
    choices
        .into_iter()
        .enumerate()
        .map(|(p, choices)| {
            let last = if p == 0 { shape.ranks as i32 - 1 } else { 0 };
            let cells: Vec<Cell> = (0..shape.files as i32)
                .map(|f| sq(shape, f, last))
                .collect();
            PromotionRule {
                player: Player(p as u8),
                kind: pawn,
                may_to: cells.clone(),
                may_from: Vec::new(),
                must_to: cells,
                choices,
            }
        })
        .collect()
}

/// The start position string for a pairing.
pub fn start_position(white: Army, black: Army) -> String {
    let back = |a: Army| {
        let [r, n, b, q] = a.letters();
        format!("{r}{n}{b}{q}k{b}{n}{r}")
    };
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1",
        back(black),
        back(white).to_uppercase()
    )
}

/// Two-player 8x8 board orientation: White forward +y, Black forward -y.
pub fn two_player_orientations() -> Vec<Orientation> {
    vec![Orientation::IDENTITY, Orientation::MIRROR_Y]
}

/// Pawn double-step cells: ranks 2 and 7.
pub fn double_step_ranks(shape: &Shape) -> Vec<Vec<Cell>> {
    [1, shape.ranks as i32 - 2]
        .into_iter()
        .map(|r| (0..shape.files as i32).map(|f| sq(shape, f, r)).collect())
        .collect()
}

/// Builds `cwda-<white>-<black>[-anypromo]`.
pub fn variant(white: Army, black: Army, any_promotion: bool) -> Variant {
    let shape = Shape::flat(8, 8);
    let army_kinds = |a: Army| (0..4).map(|s| army_kind(a, s)).collect::<Vec<_>>();
    let both: Vec<Kind> = {
        let mut v = army_kinds(white);
        v.extend(
            army_kinds(black)
                .into_iter()
                .filter(|k| !army_kinds(white).contains(k)),
        );
        v
    };
    let choices = if any_promotion {
        [both.clone(), both]
    } else {
        [army_kinds(white), army_kinds(black)]
    };
    let suffix = if any_promotion { "-anypromo" } else { "" };
    Variant {
        armies: vec![white.name().to_string(), black.name().to_string()],
        start_position: start_position(white, black),
        promotions: last_rank_promotions(&shape, PAWN, choices),
        double_step_cells: double_step_ranks(&shape),
        castlings: castlings(&shape, [white, black]),
        ..Variant::new(
            format!("cwda-{}-{}{}", white.name(), black.name(), suffix),
            FAMILY,
            shape,
            two_player_orientations(),
            vec!['w', 'b'],
            piece_table(),
        )
    }
}

/// Parses the part of a variant name after `cwda-`.
pub fn parse_name(rest: &str) -> Result<Variant, VariantError> {
    let (rest, any) = match rest.strip_suffix("-anypromo") {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let parts: Vec<&str> = rest.split('-').collect();
    let [w, b] = parts[..] else {
        return Err(VariantError::Malformed(format!("cwda-{rest}")));
    };
    let army = |s: &str| {
        Army::from_name(s).ok_or_else(|| VariantError::UnknownArmy {
            army: s.to_string(),
            known: Army::ALL
                .iter()
                .map(|a| a.name())
                .collect::<Vec<_>>()
                .join(", "),
        })
    };
    Ok(variant(army(w)?, army(b)?, any))
}

pub fn names() -> Vec<String> {
    let mut out = vec!["chess".to_string()];
    for w in Army::ALL {
        for b in Army::ALL {
            out.push(format!("cwda-{}-{}", w.name(), b.name()));
        }
    }
    for w in Army::ALL {
        for b in Army::ALL {
            out.push(format!("cwda-{}-{}-anypromo", w.name(), b.name()));
        }
    }
    out
}
