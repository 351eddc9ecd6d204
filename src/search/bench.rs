//! The search half of `panoply bench`: a fixed-depth, single-thread search over a fixed list
//! of positions of every supported game. The total node count is a regression signature
//! (search is deterministic on one thread at a fixed depth); nodes per second is the speed.
//! Add a family's positions to [`POSITIONS`] when it becomes playable.

use super::{Info, Limits, SearchOptions, Searcher};
use crate::bitboard::BitSet;
use crate::game::Game;
use crate::games;
use crate::movegen::tables::Tables;
use crate::nnue::features::Catalog;
use crate::nnue::format::Network;
use crate::nnue::EvalSettings;
use crate::with_tables;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// (variant, position string or "" for the start position, moves played from there).
pub const POSITIONS: &[(&str, &str, &str)] = &[
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

/// One bench position's result.
pub struct BenchLine {
    pub variant: String,
    pub nodes: u64,
    pub time: Duration,
}

/// The evaluation a bench search uses.
#[derive(Clone, Debug)]
pub enum BenchEval {
    /// What the engine plays with by default (a built-in network where there is one).
    Default,
    Classical,
    /// This network, for every position (it must know every bench variant's pieces).
    Network(Arc<Network>),
}

impl BenchEval {
    fn settings(&self) -> EvalSettings {
        match self {
            BenchEval::Default => EvalSettings::default(),
            BenchEval::Classical => EvalSettings {
                use_nnue: false,
                file: None,
            },
            BenchEval::Network(net) => EvalSettings {
                use_nnue: true,
                file: Some(("bench".into(), net.clone())),
            },
        }
    }
}

/// Searches every bench position to `depth` on one thread with a fresh table.
pub fn run(depth: u32) -> Result<Vec<BenchLine>, String> {
    run_with(depth, &BenchEval::Default)
}

/// [`run`] with the given evaluation.
pub fn run_with(depth: u32, eval: &BenchEval) -> Result<Vec<BenchLine>, String> {
    (0..POSITIONS.len())
        .map(|i| run_one_with(i, depth, eval))
        .collect()
}

/// Searches bench position `index` of [`POSITIONS`] to `depth` on one thread with a fresh
/// table (the criterion benchmark times these one by one).
pub fn run_one(index: usize, depth: u32) -> Result<BenchLine, String> {
    run_one_with(index, depth, &BenchEval::Default)
}

/// [`run_one`] with the given evaluation.
pub fn run_one_with(index: usize, depth: u32, eval: &BenchEval) -> Result<BenchLine, String> {
    let &(variant, fen, moves) = POSITIONS
        .get(index)
        .ok_or_else(|| format!("no bench position {index}"))?;
    search_variant(variant, fen, moves, depth, eval)
}

/// Searches `variant` from `fen` ("" for its start position) after `moves`.
fn search_variant(
    variant: &str,
    fen: &str,
    moves: &str,
    depth: u32,
    eval: &BenchEval,
) -> Result<BenchLine, String> {
    let tables = games::tables(variant).map_err(|e| e.to_string())?;
    with_tables!(&tables, t => bench_one(t, variant, fen, moves, depth, eval))
}

/// Searches the start position of each of `variants` to `depth` with `eval`.
pub fn run_variants_with(
    variants: &[String],
    depth: u32,
    eval: &BenchEval,
) -> Result<Vec<BenchLine>, String> {
    variants
        .iter()
        .map(|v| search_variant(v, "", "", depth, eval))
        .collect()
}

/// The two-player 8x8 variants whose pieces `net` knows, in the registry's order: where a
/// network file of any family is timed (the bench positions are CwDA and chess only).
pub fn network_variants(net: &Arc<Network>) -> Vec<String> {
    games::names()
        .into_iter()
        .filter(|name| match games::tables(name) {
            Ok(crate::game::AnyTables::Narrow(t)) => {
                t.variant.players() == 2 && crate::nnue::Nnue::new(net.clone(), &t).is_ok()
            }
            _ => false,
        })
        .collect()
}

/// A random network (seeded) of `hidden` units knowing every bench variant's pieces: the
/// speed of a network does not depend on its weights.
pub fn random_network(hidden: usize) -> Result<Network, String> {
    let mut tables = Vec::new();
    for &(variant, _, _) in POSITIONS {
        match games::tables(variant).map_err(|e| e.to_string())? {
            crate::game::AnyTables::Narrow(t) => tables.push(t),
            crate::game::AnyTables::Wide(_) => return Err(format!("{variant} is not 8x8")),
        }
    }
    let catalog = Catalog::of(tables.iter().map(|t| &**t));
    Ok(crate::nnue::random::network("cwda", catalog, 64, hidden, 1))
}

fn bench_one<B: BitSet>(
    t: &Arc<Tables<B>>,
    variant: &str,
    fen: &str,
    moves: &str,
    depth: u32,
    eval: &BenchEval,
) -> Result<BenchLine, String> {
    let mut game = if fen.is_empty() {
        Game::new(t.clone())
    } else {
        Game::from_position_string(t.clone(), fen).map_err(|e| e.to_string())?
    };
    for m in moves.split_whitespace() {
        game.play_str(m)
            .map_err(|e| format!("bench line {variant}: {e}"))?;
    }
    let mut searcher = Searcher::new(
        t.clone(),
        SearchOptions {
            hash_mb: 16,
            threads: 1,
            multi_pv: 1,
        },
    );
    let settings = eval.settings();
    // The file itself must evaluate: a built-in network standing in would be timed instead.
    if let Some(Err(e)) = settings.file_network(t) {
        return Err(format!("the bench network cannot evaluate {variant}: {e}"));
    }
    searcher.set_eval(settings);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut nodes = 0;
    let start = Instant::now();
    searcher.search(&game, &limits, &stop, &mut |i: &Info| nodes = i.nodes);
    Ok(BenchLine {
        variant: variant.to_string(),
        nodes,
        time: start.elapsed(),
    })
}
