//! The Missionary family's descriptor: what the engine knows about it beyond its rules.

use super::Subvariant;
use crate::eval::FamilyEval;
use crate::games::descriptor::{FamilyDescriptor, GameLength, WdlFit};
use crate::games::VariantError;
use crate::variant::{Family, Variant};

/// The family, with everything below hung on it; every Missionary variant carries it.
pub static FAMILY: Family = Family::new("missionary", &[&DESCRIPTOR, &EVAL]);

static DESCRIPTOR: FamilyDescriptor = FamilyDescriptor {
    aliases: &[],
    parse,
    names: super::names,
    // The 3D games run longer than the 2D ones.
    game_length: GameLength {
        expected: 80,
        floor: 25,
        cap: 40,
    },
    // No fit of its own yet.
    wdl: WdlFit::FROM_CWDA_GAMES,
    utility: None,
    bench_positions: &[],
    suite: Some("book/suites/missionary.epd"),
};

/// Mobility, threats and King attack halve the nodes per second on the 3D board (45k
/// against 78k from the start) for terms no measurement has backed there yet: off until a
/// tuned weight file switches them on.
static EVAL: FamilyEval = FamilyEval {
    weights: include_str!("../../eval/weights/missionary.txt"),
    activity: false,
};

/// The subvariants' names (`missionary`, `missiogi`, ...).
fn parse(name: &str) -> Option<Result<Variant, VariantError>> {
    Subvariant::from_name(name).map(|_| super::by_name(name))
}
