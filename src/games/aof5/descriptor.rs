//! The Armies of Faith family's descriptor: what the engine knows about it beyond its rules.

use super::eval::Eval;
use crate::bitboard::{BitSet, Wide};
use crate::games::descriptor::{
    FamilyDescriptor, GameLength, MultiPlayerUtility, SharedUtility, WdlFit,
};
use crate::games::VariantError;
use crate::movegen::tables::Tables;
use crate::variant::{Family, Variant};
use std::sync::Arc;

/// The family, with its descriptor; every Armies of Faith variant carries it. It has no
/// tuned weights and no network: the four-player search evaluates with [`Eval`].
pub static FAMILY: Family = Family::new("aof5", &[&DESCRIPTOR]);

static DESCRIPTOR: FamilyDescriptor = FamilyDescriptor {
    // The trainer wrote this name into network headers before the ids were unified.
    aliases: &["armiesoffaith"],
    parse,
    names: super::names,
    // Games last 130–160 moves per army (issue 41): budgeting for 32 moves ran the clock
    // out at 2 s + 0.02 s long before the end.
    game_length: GameLength {
        expected: 160,
        floor: 40,
        cap: 160,
    },
    // No fit of its own yet.
    wdl: WdlFit::FROM_CWDA_GAMES,
    utility: Some(MultiPlayerUtility::new(utility::<u64>, utility::<Wide>)),
    bench_positions: &[],
    suite: Some("book/suites/aof5.epd"),
};

fn utility<B: BitSet>(t: &Tables<B>) -> SharedUtility<B> {
    Arc::new(Eval::new(t))
}

/// `aof5` and `aof5-raj`.
fn parse(name: &str) -> Option<Result<Variant, VariantError>> {
    match name {
        "aof5" => Some(Ok(super::variant(false))),
        "aof5-raj" => Some(Ok(super::variant(true))),
        _ => None,
    }
}
