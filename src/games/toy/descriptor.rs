//! The toy family's descriptor: only what every family must say; the rest is the defaults a
//! new family starts from (no tuned weights, no network, the two-player game length).

use crate::games::descriptor::{FamilyDescriptor, GameLength, WdlFit};
use crate::games::VariantError;
use crate::variant::{Family, Variant};

/// The family, with its descriptor.
pub static FAMILY: Family = Family::new("toy", &[&DESCRIPTOR]);

static DESCRIPTOR: FamilyDescriptor = FamilyDescriptor {
    aliases: &[],
    parse,
    names: super::names,
    game_length: GameLength::TWO_PLAYER_2D,
    wdl: WdlFit::FROM_CWDA_GAMES,
    utility: None,
    bench_positions: &[],
    suite: None,
};

fn parse(name: &str) -> Option<Result<Variant, VariantError>> {
    (name == super::NAME).then(|| Ok(super::variant()))
}
