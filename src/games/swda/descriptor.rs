//! The Shatranj with Different Armies family's descriptor: what the engine knows about it
//! beyond its rules.

use crate::eval::FamilyEval;
use crate::games::descriptor::{FamilyDescriptor, GameLength, WdlFit};
use crate::games::VariantError;
use crate::nnue::{BuiltInNetwork, BuiltInNetworks};
use crate::variant::{Family, Variant};

/// The family, with everything below hung on it; every SwDA variant carries it.
pub static FAMILY: Family = Family::new("swda", &[&DESCRIPTOR, &EVAL, &NETWORKS]);

static DESCRIPTOR: FamilyDescriptor = FamilyDescriptor {
    aliases: &[],
    parse,
    names: super::names,
    // An 8x8 two-player game like CwDA, and no fit of its own yet.
    game_length: GameLength::TWO_PLAYER_2D,
    wdl: WdlFit::FROM_CWDA_GAMES,
    utility: None,
    bench_positions: &[],
    suite: Some("book/suites/swda.epd"),
};

static EVAL: FamilyEval = FamilyEval {
    weights: include_str!("../../eval/weights/swda.txt"),
    activity: true,
};

/// One network for every pairing, plain shatranj included.
static NETWORKS: BuiltInNetworks = BuiltInNetworks {
    all: &[BuiltInNetwork {
        file: "networks/swda.nnue",
        bytes: include_bytes!("../../../networks/swda.nnue"),
    }],
    pick: |_| Some(0),
};

/// `shatranj` and `swda-<white>-<black>`.
fn parse(name: &str) -> Option<Result<Variant, VariantError>> {
    if name == "shatranj" {
        return Some(Ok(super::shatranj()));
    }
    name.strip_prefix("swda-").map(super::parse_name)
}
