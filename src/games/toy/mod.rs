//! A toy family, built into the test binary only (docs/adding-a-family.md): it proves that a
//! family plugs in with its folder and one line in the list, and nothing else. King of the
//! hill on a 5x5 board: each side has a King and a Rook, the usual check and checkmate
//! rules apply, and a King that stands on the centre cell (c3) when a turn begins has won
//! for its side (the family's own rule, a verdict the search asks at every node).

pub mod descriptor;
#[cfg(test)]
mod tests;

pub use descriptor::FAMILY;
use crate::bitboard::{BitSet, Wide};
use crate::geometry::{Orientation, Shape};
use crate::movegen::tables::{FamilyRules, Tables};
use crate::outcome::{Outcome, Verdict};
use crate::piece::{PieceDef, Player};
use crate::position::Position;
use crate::variant::Variant;

/// The variant's one name.
pub const NAME: &str = "toy-hill";

/// The start position: Kings in opposite corners, each Rook beside its King.
pub const START: &str = "3rk/5/5/5/KR3 w - - 0 1";

/// `toy-hill`.
pub fn variant() -> Variant {
    Variant {
        armies: vec!["white".into(), "black".into()],
        start_position: START.to_string(),
        rules: FamilyRules::for_both_widths(rules::<u64>(), rules::<Wide>()),
        ..Variant::new(
            NAME,
            FAMILY,
            Shape::flat(5, 5),
            vec![Orientation::IDENTITY, Orientation::MIRROR_Y],
            vec!['w', 'b'],
            vec![
                PieceDef::from_betza("King", "K", "K").royal(),
                PieceDef::from_betza("Rook", "R", "R").valued(500),
            ],
        )
    }
}

fn rules<B: BitSet>() -> FamilyRules<B> {
    FamilyRules {
        verdict: Some(hill_verdict),
        outcome: Some(|t, pos, _| hill_outcome(t, pos)),
        ..FamilyRules::default()
    }
}

/// The player whose King stands on the centre cell has won.
pub fn hill_verdict<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Option<Verdict> {
    let centre = t.shape.cell(2, 2, 0)?;
    (0..2)
        .map(Player)
        .find(|&p| pos.royals(t, p).contains(centre))
        .map(Verdict::Win)
}

/// [`hill_verdict`] as a game result.
fn hill_outcome<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Option<Outcome> {
    hill_verdict(t, pos).map(|v| match v {
        Verdict::Win(winner) => Outcome::Win {
            winner,
            reason: "king of the hill".into(),
        },
        Verdict::Draw => Outcome::Draw {
            reason: "king of the hill".into(),
        },
    })
}

pub fn names() -> Vec<String> {
    vec![NAME.to_string()]
}
