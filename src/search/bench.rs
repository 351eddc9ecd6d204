//! The search half of `panoply bench`: a fixed-depth, single-thread search over a fixed list
//! of positions of every supported game. The total node count is a regression signature
//! (search is deterministic on one thread at a fixed depth); nodes per second is the speed.
//! The positions are the families' own ([`positions`]): a family's descriptor lists them.

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

/// A bench position: variant, position string or "" for the start position, moves played
/// from there.
pub type BenchPosition = (&'static str, &'static str, &'static str);

/// Every family's bench positions, in the registry's order.
pub fn positions() -> Vec<BenchPosition> {
    games::families()
        .flat_map(|f| games::describe(f).bench_positions.iter().copied())
        .collect()
}

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
    (0..positions().len())
        .map(|i| run_one_with(i, depth, eval))
        .collect()
}

/// Searches bench position `index` of [`positions`] to `depth` on one thread with a fresh
/// table (the criterion benchmark times these one by one).
pub fn run_one(index: usize, depth: u32) -> Result<BenchLine, String> {
    run_one_with(index, depth, &BenchEval::Default)
}

/// [`run_one`] with the given evaluation.
pub fn run_one_with(index: usize, depth: u32, eval: &BenchEval) -> Result<BenchLine, String> {
    let (variant, fen, moves) = *positions()
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
    for (variant, _, _) in positions() {
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
