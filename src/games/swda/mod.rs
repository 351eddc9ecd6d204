//! Shatranj with Different Armies (docs/rules.md section 3): four shatranj-strength armies on
//! 8x8, any pairing, plus plain `shatranj` with its traditional setup and letters. The rules
//! that differ from chess are data on the variant (the royal-set rule, stalemate loses, the
//! 70-move rule) and the bare-king rule, [`bare_king_verdict`], which reaches the game and the
//! search as one of the variant's rule functions.

pub mod descriptor;

use super::cwda::{last_rank_promotions, two_player_orientations};
use super::VariantError;
use crate::bitboard::{BitSet, Wide};
use crate::geometry::{Cell, Shape};
use crate::movegen::legal_moves;
use crate::movegen::tables::{FamilyRules, Tables};
use crate::outcome::{Outcome, Verdict};
use crate::piece::{Kind, PieceDef, Player};
use crate::position::Position;
use crate::variant::{PromotionRule, RoyalRule, StalemateRule, Variant};
pub use descriptor::FAMILY;

/// The four SwDA armies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Army {
    Originals,
    Jostlers,
    Posh,
    Amphibians,
}

/// Seed 004 gives values in quarter pawns (a FIDE pawn = 4); one quarter = 25 centipawns.
const fn quarters(q: i32) -> i32 {
    q * 25
}

impl Army {
    pub const ALL: [Army; 4] = [
        Army::Originals,
        Army::Jostlers,
        Army::Posh,
        Army::Amphibians,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Army::Originals => "originals",
            Army::Jostlers => "jostlers",
            Army::Posh => "posh",
            Army::Amphibians => "amphibians",
        }
    }

    pub fn from_name(s: &str) -> Option<Army> {
        Army::ALL.into_iter().find(|a| a.name() == s)
    }

    /// Position-string letters of the a/h, b/g, c/f and d pieces.
    pub fn letters(self) -> [char; 4] {
        match self {
            Army::Originals => ['r', 'n', 'a', 'f'],
            Army::Jostlers => ['l', 'd', 's', 'g'],
            Army::Posh => ['q', 'o', 'b', 'w'],
            Army::Amphibians => ['t', 'i', 'e', 'c'],
        }
    }

    /// The army's four piece kinds, in a/h, b/g, c/f, d order.
    pub fn pieces(self) -> [PieceDef; 4] {
        let p = |name: &str, letter: &str, betza: &str, q| {
            PieceDef::from_betza(name, letter, betza).valued(quarters(q))
        };
        match self {
            Army::Originals => [
                p("Rook", "R", "R", 20),
                p("Knight", "N", "N", 13),
                p("Alfil", "A", "A", 3),
                p("Ferz", "F", "F", 6),
            ],
            Army::Jostlers => [
                p("Lance", "L", "fR", 5),
                p("Dragon Horse", "D", "BW", 21),
                p("Silver", "S", "FfW", 8),
                p("Gold", "G", "WfF", 9),
            ],
            Army::Posh => [
                p("Berolina Pawn", "Q", "mfFcfW", 3).pawn(),
                p("Ring", "O", "ND", 20),
                p("Bishop", "B", "B", 13),
                p("Wazir", "W", "W", 5),
            ],
            Army::Amphibians => [
                p("Toad", "T", "FH", 14),
                p("Kirin", "I", "FD", 10),
                p("Drunk Elephant", "E", "FfsW", 11),
                p("Crab", "C", "ffNbsN", 6),
            ],
        }
    }
}

/// Kings and Crown Princes share one kind (`K`): they move alike and form the royal set.
pub const KING: Kind = Kind(0);
pub const PAWN: Kind = Kind(1);

/// Kind index of an army's piece in slot 0..4 (a/h, b/g, c/f, d).
pub fn army_kind(army: Army, slot: usize) -> Kind {
    let a = Army::ALL.iter().position(|&x| x == army).unwrap();
    Kind((2 + 4 * a + slot) as u8)
}

/// The Crown Prince's value (seed 004: 14 quarters).
pub const CROWN_PRINCE_VALUE: i32 = quarters(14);

/// Kings and Crown Princes: while two or more stand, each beyond the first is a piece that
/// may be lost, worth a Crown Prince (evaluation reads this value only under the lone-royal
/// rule).
fn king() -> PieceDef {
    PieceDef::from_betza("King", "K", "K")
        .royal()
        .valued(CROWN_PRINCE_VALUE)
}

fn pawn() -> PieceDef {
    PieceDef::from_betza("Pawn", "P", "mfWcfF")
        .pawn()
        .valued(quarters(2))
}

/// King, Pawn and all sixteen army pieces, so every SwDA variant reads every SwDA letter.
fn piece_table() -> Vec<PieceDef> {
    let mut pieces = vec![king(), pawn()];
    for army in Army::ALL {
        pieces.extend(army.pieces());
    }
    pieces
}

fn rank_cells(shape: &Shape, rank: i32) -> Vec<Cell> {
    (0..shape.files as i32)
        .map(|f| shape.cell(f, rank, 0).expect("on board"))
        .collect()
}

/// Pawns to the army's d-file piece, Berolina Pawns to a Crown Prince, and the Lance's
/// optional promotion to Gold on its 7th rank (compulsory on its last).
fn promotions(shape: &Shape, armies: [Army; 2]) -> Vec<PromotionRule> {
    let mut out = last_rank_promotions(shape, PAWN, armies.map(|a| vec![army_kind(a, 3)]));
    out.extend(last_rank_promotions(
        shape,
        army_kind(Army::Posh, 0),
        [vec![KING], vec![KING]],
    ));
    let gold = army_kind(Army::Jostlers, 3);
    for p in 0..2 {
        let (seventh, last) = if p == 0 {
            (shape.ranks as i32 - 2, shape.ranks as i32 - 1)
        } else {
            (1, 0)
        };
        let last = rank_cells(shape, last);
        out.push(PromotionRule {
            player: Player(p as u8),
            kind: army_kind(Army::Jostlers, 0),
            may_to: rank_cells(shape, seventh)
                .into_iter()
                .chain(last.clone())
                .collect(),
            may_from: Vec::new(),
            must_to: last,
            choices: vec![gold],
        });
    }
    out
}

/// The rules every SwDA game shares, around its pieces and setup.
fn shatranj_rules(name: String, pieces: Vec<PieceDef>, start: String) -> Variant {
    Variant {
        start_position: start,
        royal_rule: RoyalRule::LoneRoyalOnly,
        stalemate: StalemateRule::Loss,
        move_rule_plies: 140,
        rules: FamilyRules::for_both_widths(bare_king_rules::<u64>(), bare_king_rules::<Wide>()),
        ..Variant::new(
            name,
            FAMILY,
            Shape::flat(8, 8),
            two_player_orientations(),
            vec!['w', 'b'],
            pieces,
        )
    }
}

/// The bare-king rule as the variant's rule functions: a verdict the search asks at every
/// node, and the end of a game.
fn bare_king_rules<B: BitSet>() -> FamilyRules<B> {
    FamilyRules {
        verdict: Some(bare_king_verdict),
        outcome: Some(|t, pos, _| bare_king_outcome(t, pos)),
        ..FamilyRules::default()
    }
}

/// The start position string for a pairing (Kings on e1 and e8).
pub fn start_position(white: Army, black: Army) -> String {
    let back = |a: Army| {
        let [r, n, b, q] = a.letters();
        format!("{r}{n}{b}{q}k{b}{n}{r}")
    };
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w - - 0 1",
        back(black),
        back(white).to_uppercase()
    )
}

/// Builds `swda-<white>-<black>`.
pub fn variant(white: Army, black: Army) -> Variant {
    let shape = Shape::flat(8, 8);
    let mut v = shatranj_rules(
        format!("swda-{}-{}", white.name(), black.name()),
        piece_table(),
        start_position(white, black),
    );
    v.armies = vec![white.name().to_string(), black.name().to_string()];
    v.promotions = promotions(&shape, [white, black]);
    v
}

/// Plain `shatranj`: the Orderly Originals in the traditional setup (Ferz on d1/e8, Kings on
/// e1/d8) with the letters GUIs use for it: `b` = Alfil, `q` = Ferz. XBoard and CuteChess
/// start the game with both Kings on the d-file and do not tell the engine, so engine
/// sessions start from their array (`gui_start_position`), or the boards would drift apart.
pub fn shatranj() -> Variant {
    let shape = Shape::flat(8, 8);
    let [rook, knight, alfil, ferz] = Army::Originals.pieces();
    let alfil = PieceDef {
        token: "B".into(),
        ..alfil
    };
    let ferz = PieceDef {
        token: "Q".into(),
        ..ferz
    };
    let mut v = shatranj_rules(
        "shatranj".into(),
        vec![king(), pawn(), rook, knight, alfil, ferz],
        "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1".into(),
    );
    v.gui_start_position = Some("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1".into());
    v.armies = vec!["originals".into(), "originals".into()];
    v.promotions = last_rank_promotions(&shape, PAWN, [vec![Kind(5)], vec![Kind(5)]]);
    v
}

/// Parses the part of a variant name after `swda-`.
pub fn parse_name(rest: &str) -> Result<Variant, VariantError> {
    let mut parts = rest.split('-');
    let (w, b) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    if parts.next().is_some() {
        return Err(VariantError::Malformed(format!("swda-{rest}")));
    }
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
    Ok(variant(army(w)?, army(b)?))
}

pub fn names() -> Vec<String> {
    let mut out = vec!["shatranj".to_string()];
    for w in Army::ALL {
        for b in Army::ALL {
            out.push(format!("swda-{}-{}", w.name(), b.name()));
        }
    }
    out
}

/// A side is bare when only royal-set pieces are left to it.
pub fn is_bare<B: BitSet>(t: &Tables<B>, pos: &Position<B>, p: Player) -> bool {
    pos.by_player[p.index()]
        .without(pos.royals(t, p))
        .is_empty()
}

/// The bare-king rule (docs/rules.md 3): both bare draws; one bare side loses, unless it is to
/// move and can capture the opponent's last non-royal piece. Cheap unless a side is bare,
/// so search can ask at every node.
pub fn bare_king_verdict<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Option<Verdict> {
    let (w, b) = (Player::WHITE, Player::BLACK);
    let loser = match [is_bare(t, pos, w), is_bare(t, pos, b)] {
        [true, true] => return Some(Verdict::Draw),
        [false, false] => return None,
        [true, false] => w,
        [false, true] => b,
    };
    let winner = Player(1 - loser.0);
    if pos.side == loser && can_bare_in_reply(t, pos, winner) {
        return None;
    }
    Some(Verdict::Win(winner))
}

/// [`bare_king_verdict`] as a game result.
pub fn bare_king_outcome<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Option<Outcome> {
    bare_king_verdict(t, pos).map(|v| match v {
        Verdict::Draw => Outcome::Draw {
            reason: "both kings bare".into(),
        },
        Verdict::Win(winner) => Outcome::Win {
            winner,
            reason: "bare king".into(),
        },
    })
}

/// Whether the side to move can capture the last non-royal piece of `opponent`.
pub fn can_bare_in_reply<B: BitSet>(t: &Tables<B>, pos: &Position<B>, opponent: Player) -> bool {
    let others = pos.by_player[opponent.index()].without(pos.royals(t, opponent));
    others.count() == 1
        && legal_moves(t, pos)
            .iter()
            .any(|&m| is_bare(t, &pos.play(t, m), opponent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bad_armies_are_errors() {
        for n in names() {
            let v = if n == "shatranj" {
                shatranj()
            } else {
                parse_name(n.strip_prefix("swda-").unwrap()).unwrap()
            };
            assert_eq!(v.name, n);
        }
        assert!(matches!(
            parse_name("originals-fide"),
            Err(VariantError::UnknownArmy { .. })
        ));
        assert!(matches!(
            parse_name("posh-posh-posh"),
            Err(VariantError::Malformed(_))
        ));
    }

    #[test]
    fn values_are_the_seed_quarter_pawns_in_centipawns() {
        let v = variant(Army::Jostlers, Army::Amphibians);
        let value = |t: &str| v.kind(v.kind_by_token(t).unwrap()).value;
        assert_eq!(value("D"), Some(525));
        assert_eq!(value("A"), Some(75));
        assert_eq!(value("P"), Some(50));
        assert_eq!(value("C"), Some(150));
    }
}
