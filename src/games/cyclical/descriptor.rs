//! The Cyclical Armies family's descriptor: what the engine knows about it beyond its rules.

use crate::eval::FamilyEval;
use crate::games::descriptor::{FamilyDescriptor, GameLength, WdlFit};
use crate::games::VariantError;
use crate::variant::{Family, Variant};

/// The family, with everything below hung on it; every Cyclical variant carries it.
pub static FAMILY: Family = Family::new("cyclical", &[&DESCRIPTOR, &EVAL]);

static DESCRIPTOR: FamilyDescriptor = FamilyDescriptor {
    aliases: &[],
    parse,
    names: super::names,
    // An 8x8 two-player game like CwDA, and no fit of its own yet.
    game_length: GameLength::TWO_PLAYER_2D,
    wdl: WdlFit::FROM_CWDA_GAMES,
    utility: None,
    bench_positions: &[],
    suite: Some("book/suites/cyclical.epd"),
};

static EVAL: FamilyEval = FamilyEval {
    weights: include_str!("../../eval/weights/cyclical.txt"),
    activity: true,
};

/// Every name starting with `cyclical` is this family's (a wrong one is its error).
fn parse(name: &str) -> Option<Result<Variant, VariantError>> {
    name.starts_with("cyclical")
        .then(|| super::parse_name(name))
}
