//! `panoply bench`: perft and search speed on fixed positions of every supported game, one
//! section per engine part, each reporting its own lines as it measures them. The perft half
//! is in [`perft`], the CPU timing in [`timing`]; the search half's positions and runs are in
//! [`crate::search::bench`], whose results are reported here.

pub mod perft;
pub mod timing;

pub use timing::{process_cpu_seconds, Timed};

use crate::nnue::format::Network;
use crate::search::bench::{self as search_bench, BenchEval};
use std::sync::Arc;

/// The depths of a bench run.
#[derive(Clone, Copy, Debug)]
pub struct Depths {
    /// Perft depth for the 2D games.
    pub perft: u32,
    /// Perft depth for Armies of Faith.
    pub aof: u32,
    /// Perft depth for the Missionary cubic variants.
    pub missionary: u32,
    /// Fixed search depth for the search bench (0 skips it).
    pub search: u32,
    /// Depth of the network-against-classical search speed comparison (0 skips it).
    pub nnue: u32,
}

/// The network side of the evaluation-speed comparison ([`nnue_speed`]).
pub enum SpeedNetwork {
    /// No comparison.
    None,
    /// A seeded random network of this many hidden units.
    Random(usize),
    File(Arc<Network>),
}

/// Runs every section, passing each output line to `report` as soon as it is measured. The
/// search bench comes last: its closing lines are what benchmark workers read.
pub fn run(depths: &Depths, network: SpeedNetwork, report: &dyn Fn(&str)) -> Result<(), String> {
    perft::bench_2d(depths.perft, report)?;
    perft::bench_3d(depths.aof, depths.missionary, report)?;
    nnue_speed(depths.nnue, network, report)?;
    search(depths.search, report)
}

/// Search speed with a network against the classical evaluation, over the search bench's
/// positions at `depth`, in the same run: nodes per second of each and their ratio (the trees
/// differ, so nodes per second is what compares). Depth 0 skips it.
pub fn nnue_speed(depth: u32, network: SpeedNetwork, report: &dyn Fn(&str)) -> Result<(), String> {
    if depth == 0 {
        return Ok(());
    }
    // A random network knows the bench positions' pieces; a file is timed on the start
    // positions of the variants it can evaluate.
    let (net, label, variants) = match network {
        SpeedNetwork::None => return Ok(()),
        SpeedNetwork::Random(hidden) => (
            Arc::new(search_bench::random_network(hidden)?),
            format!("random network, {hidden} hidden"),
            None,
        ),
        SpeedNetwork::File(net) => {
            let variants = search_bench::network_variants(&net);
            if variants.is_empty() {
                return Err(format!(
                    "the network file ({} family) evaluates no two-player 8x8 variant",
                    net.header.family
                ));
            }
            let label = format!(
                "network file ({} family, {} hidden; start positions of {} variants)",
                net.header.family,
                net.header.hidden,
                variants.len()
            );
            (net, label, Some(variants))
        }
    };
    let nps = |eval: &BenchEval| -> Result<(u64, f64), String> {
        let lines = match &variants {
            Some(v) => search_bench::run_variants_with(v, depth, eval)?,
            None => search_bench::run_with(depth, eval)?,
        };
        let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
        let secs: f64 = lines.iter().map(|l| l.time.as_secs_f64()).sum();
        Ok((nodes, nodes as f64 / secs.max(1e-9)))
    };
    let (classical_nodes, classical) = nps(&BenchEval::Classical)?;
    let (network_nodes, network) = nps(&BenchEval::Network(net))?;
    report(&format!(
        "eval speed depth {depth}: classical {classical_nodes} nodes {classical:.0} nps, \
         {label} {network_nodes} nodes {network:.0} nps, ratio {:.2}",
        network / classical.max(1e-9)
    ));
    Ok(())
}

/// The search bench: a line per position, the total, and the two closing lines in the form
/// OpenBench and fishtest-style workers read. Depth 0 skips it.
pub fn search(depth: u32, report: &dyn Fn(&str)) -> Result<(), String> {
    if depth == 0 {
        return Ok(());
    }
    let lines = crate::search::bench::run(depth)?;
    let (mut nodes, mut secs) = (0u64, 0f64);
    for l in &lines {
        report(&format!(
            "{:<28} search depth {depth} {:>12} nodes {:>8.0} knps",
            l.variant,
            l.nodes,
            l.nodes as f64 / l.time.as_secs_f64().max(1e-9) / 1e3
        ));
        nodes += l.nodes;
        secs += l.time.as_secs_f64();
    }
    let nps = (nodes as f64 / secs.max(1e-9)) as u64;
    report(&format!("search total {nodes} nodes {nps} nps"));
    report(&format!("Nodes searched: {nodes}"));
    report(&format!("Nodes/second: {nps}"));
    Ok(())
}
