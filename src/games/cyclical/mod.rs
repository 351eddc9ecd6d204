//! Chess with Cyclical Armies (docs/rules.md section 2): the FIDE start position, and every piece
//! that moves turns, on arrival, into the same slot's piece of the next CwDA army.
//! Options: `fixed` (Kings and Pawns never change), `reverse` (Black cycles the other way).

pub mod descriptor;

use super::cwda::{self, Army};
use super::VariantError;
use crate::geometry::Shape;
use crate::piece::{Kind, PieceDef};
use crate::variant::Variant;
pub use descriptor::FAMILY;

/// The slots of the cycle table: the five CwDA piece slots and the pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    King,
    Pawn,
    /// a/h, b/g, c/f, d (Rook, Knight, Bishop, Queen for FIDE).
    Piece(usize),
}

/// The default cycle (White's, and Black's unless `reverse`).
const CYCLE: [Army; 4] = [Army::Fide, Army::Nutty, Army::Clobberers, Army::Rookies];
const REVERSE_CYCLE: [Army; 4] = [Army::Fide, Army::Rookies, Army::Clobberers, Army::Nutty];

/// The royal pieces of the four armies (FIDE King is kind 0, from the CwDA table).
fn royal(army: Army) -> PieceDef {
    match army {
        Army::Fide => cwda::king(),
        Army::Nutty => PieceDef::from_betza("Centaur Royal", "U", "N").royal(),
        Army::Clobberers => PieceDef::from_betza("Color Khan", "Y", "FD").royal(),
        Army::Rookies => PieceDef::from_betza("Rookja", "T", "R2").royal(),
    }
}

/// The pawns of the four armies (FIDE Pawn is kind 1, from the CwDA table).
fn pawn(army: Army) -> PieceDef {
    match army {
        Army::Fide => cwda::fide_pawn(),
        // Mao-like: the orthogonally adjacent first cell must be empty, moves and captures.
        Army::Nutty => PieceDef::from_betza("Cavalier Pawn", "V", "nfN")
            .pawn()
            .valued(100),
        Army::Clobberers => PieceDef::from_betza("Berolina Pawn", "J", "mfFcfW")
            .pawn()
            .valued(100),
        Army::Rookies => {
            let mut x = PieceDef::from_betza("Chinese Pawn", "X", "fW")
                .pawn()
                .valued(100);
            x.betza = Some("fWsW".into());
            x.atoms.extend(chinese_pawn_sideways());
            x
        }
    }
}

/// The Chinese Pawn's sideways steps, allowed only from the opponent's half.
fn chinese_pawn_sideways() -> Vec<crate::piece::Atom> {
    use crate::geometry::Vec3;
    use crate::piece::{Atom, LeapCondition, Mode};
    [-1, 1]
        .map(|dx| Atom::Leap {
            to: Vec3::flat(dx, 0),
            mode: Mode::Both,
            when: LeapCondition::FarHalf,
        })
        .to_vec()
}

/// Kind indices: the CwDA table (King 0, Pawn 1, sixteen army pieces 2..18), then the three
/// other royals (18..21) and the three other pawns (21..24).
fn kind_of(army: Army, slot: Slot) -> Kind {
    let a = Army::ALL.iter().position(|&x| x == army).unwrap();
    let other =
        |base: u8| Kind(base + Army::ALL[1..].iter().position(|&x| x == army).unwrap() as u8);
    match (slot, army) {
        (Slot::King, Army::Fide) => cwda::KING,
        (Slot::Pawn, Army::Fide) => cwda::PAWN,
        (Slot::King, _) => other(18),
        (Slot::Pawn, _) => other(21),
        (Slot::Piece(s), _) => {
            debug_assert_eq!(cwda::army_kind(army, s).index(), 2 + 4 * a + s);
            cwda::army_kind(army, s)
        }
    }
}

fn piece_table() -> Vec<PieceDef> {
    let mut pieces = cwda::piece_table();
    pieces.extend(Army::ALL[1..].iter().map(|&a| royal(a)));
    pieces.extend(Army::ALL[1..].iter().map(|&a| pawn(a)));
    pieces
}

/// Every slot of the table, for walking the cycles.
fn slots() -> impl Iterator<Item = Slot> {
    [Slot::King, Slot::Pawn]
        .into_iter()
        .chain((0..4).map(Slot::Piece))
}

/// One player's morph table: kind -> kind after moving.
fn morph_table(cycle: [Army; 4], fixed: bool, kinds: usize) -> Vec<Kind> {
    let mut morph: Vec<Kind> = (0..kinds as u8).map(Kind).collect();
    for slot in slots() {
        if fixed && matches!(slot, Slot::King | Slot::Pawn) {
            continue;
        }
        for i in 0..4 {
            let from = kind_of(cycle[i], slot);
            morph[from.index()] = kind_of(cycle[(i + 1) % 4], slot);
        }
    }
    morph
}

/// Builds `cyclical[-fixed][-reverse]`.
pub fn variant(fixed: bool, reverse: bool) -> Variant {
    let shape = Shape::flat(8, 8);
    let pieces = piece_table();
    let black_cycle = if reverse { REVERSE_CYCLE } else { CYCLE };
    let morph = vec![
        morph_table(CYCLE, fixed, pieces.len()),
        morph_table(black_cycle, fixed, pieces.len()),
    ];
    // Every pawn type promotes to any of the sixteen army pieces.
    let choices: Vec<Kind> = Army::ALL
        .iter()
        .flat_map(|&a| (0..4).map(move |s| cwda::army_kind(a, s)))
        .collect();
    let promotions = Army::ALL
        .iter()
        .flat_map(|&a| {
            cwda::last_rank_promotions(
                &shape,
                kind_of(a, Slot::Pawn),
                [choices.clone(), choices.clone()],
            )
        })
        .collect();
    let name = format!(
        "cyclical{}{}",
        if fixed { "-fixed" } else { "" },
        if reverse { "-reverse" } else { "" }
    );
    Variant {
        armies: vec!["cyclical".into(), "cyclical".into()],
        start_position: cwda::start_position(Army::Fide, Army::Fide),
        promotions,
        double_step_cells: cwda::double_step_ranks(&shape),
        castlings: cwda::castlings(&shape, [Army::Fide, Army::Fide]),
        morph,
        ..Variant::new(
            name,
            FAMILY,
            shape,
            cwda::two_player_orientations(),
            vec!['w', 'b'],
            pieces,
        )
    }
}

/// Parses a name starting with `cyclical`.
pub fn parse_name(name: &str) -> Result<Variant, VariantError> {
    match name {
        "cyclical" => Ok(variant(false, false)),
        "cyclical-fixed" => Ok(variant(true, false)),
        "cyclical-reverse" => Ok(variant(false, true)),
        "cyclical-fixed-reverse" => Ok(variant(true, true)),
        _ => Err(VariantError::Unknown(name.to_string())),
    }
}

pub fn names() -> Vec<String> {
    [
        "cyclical",
        "cyclical-fixed",
        "cyclical-reverse",
        "cyclical-fixed-reverse",
    ]
    .map(String::from)
    .to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(v: &Variant, token: &str) -> Kind {
        v.kind_by_token(token).unwrap()
    }

    #[test]
    fn default_cycle_walks_the_armies_in_order() {
        let v = variant(false, false);
        let white = crate::piece::Player::WHITE;
        let walk = |start: &str| {
            let mut k = kind(&v, start);
            let mut out = String::new();
            for _ in 0..4 {
                k = v.morph_of(white, k);
                out += &v.kind(k).token;
            }
            out
        };
        assert_eq!(walk("K"), "UYTK");
        assert_eq!(walk("Q"), "OCEQ");
        assert_eq!(walk("R"), "GDSR");
        assert_eq!(walk("B"), "HAFB");
        assert_eq!(walk("N"), "IWMN");
        assert_eq!(walk("P"), "VJXP");
    }

    #[test]
    fn options_fix_kings_and_pawns_and_reverse_black() {
        let v = variant(true, true);
        let (w, b) = (crate::piece::Player::WHITE, crate::piece::Player::BLACK);
        assert_eq!(v.morph_of(w, kind(&v, "K")), kind(&v, "K"));
        assert_eq!(v.morph_of(b, kind(&v, "P")), kind(&v, "P"));
        assert_eq!(v.morph_of(w, kind(&v, "R")), kind(&v, "G"));
        assert_eq!(v.morph_of(b, kind(&v, "R")), kind(&v, "S"));
        assert_eq!(v.morph_of(b, kind(&v, "S")), kind(&v, "D"));
        let r = variant(false, true);
        assert_eq!(r.morph_of(b, kind(&r, "K")), kind(&r, "T"));
        assert_eq!(r.morph_of(w, kind(&r, "K")), kind(&r, "U"));
    }

    #[test]
    fn every_pawn_promotes_to_the_sixteen_pieces() {
        let v = variant(false, false);
        for token in ["P", "V", "J", "X"] {
            for p in [crate::piece::Player::WHITE, crate::piece::Player::BLACK] {
                let rule = v.promotion_for(p, kind(&v, token)).unwrap();
                assert_eq!(rule.choices.len(), 16);
                assert!(rule
                    .choices
                    .iter()
                    .all(|&c| !v.kind(c).royal && !v.kind(c).pawn));
            }
        }
    }
}
