//! The CwDA family's descriptor: what the engine knows about it beyond its rules.

use super::{parse_name, variant, Army};
use crate::eval::FamilyEval;
use crate::games::descriptor::{FamilyDescriptor, GameLength, WdlFit};
use crate::games::VariantError;
use crate::nnue::{BuiltInNetwork, BuiltInNetworks};
use crate::variant::{Family, Variant};

/// The family, with everything below hung on it; every CwDA variant carries it.
pub static FAMILY: Family = Family::new("cwda", &[&DESCRIPTOR, &EVAL, &NETWORKS]);

static DESCRIPTOR: FamilyDescriptor = FamilyDescriptor {
    aliases: &[],
    parse,
    names: super::names,
    game_length: GameLength::TWO_PLAYER_2D,
    wdl: WdlFit::FROM_CWDA_GAMES,
    utility: None,
    bench_positions: BENCH_POSITIONS,
    suite: Some("book/suites/cwda.epd"),
};

static EVAL: FamilyEval = FamilyEval {
    weights: include_str!("../../eval/weights/cwda.txt"),
    activity: true,
};

/// One network for every pairing, orthodox chess included.
static NETWORKS: BuiltInNetworks = BuiltInNetworks {
    all: &[BuiltInNetwork {
        file: "networks/cwda.nnue",
        bytes: include_bytes!("../../../networks/cwda.nnue"),
    }],
    pick: |_| Some(0),
};

/// `chess` (FIDE against FIDE under its own name) and `cwda-<white>-<black>[-anypromo]`.
fn parse(name: &str) -> Option<Result<Variant, VariantError>> {
    if name == "chess" {
        let mut v = variant(Army::Fide, Army::Fide, false);
        v.name = "chess".into();
        return Some(Ok(v));
    }
    name.strip_prefix("cwda-").map(parse_name)
}

/// The search bench's positions (all of them CwDA and chess so far).
pub static BENCH_POSITIONS: &[(&str, &str, &str)] = &[
    ("chess", "", ""),
    (
        "chess",
        "",
        "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7",
    ),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "",
    ),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", ""),
    ("cwda-clobberers-nutty", "", ""),
    ("cwda-clobberers-nutty", "", "e2e4 e7e5 b1d3 b8c6 g1e3 g8f6"),
    ("cwda-nutty-rookies", "", ""),
    ("cwda-nutty-rookies", "", "d2d4 d7d5 c1d3 c8c6 b1c3 b8b6"),
    ("cwda-rookies-fide", "", ""),
    ("cwda-rookies-fide", "", "e2e4 e7e5 b1b3 g8f6 g1g3 b8c6"),
    ("cwda-fide-clobberers", "", "d2d4 d7d5 c2c4 e7e6 b1c3 b8d6"),
    ("cwda-clobberers-rookies", "", ""),
    ("cwda-nutty-fide", "", "e2e4 c7c5 g1f3 d7d6"),
];
