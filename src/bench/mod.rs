//! `panoply bench`: perft and search speed on fixed positions of every supported game, one
//! section per engine part, each reporting its own lines as it measures them. The perft half
//! is in [`perft`], the CPU timing in [`timing`]; the search half's positions and runs are in
//! [`crate::search::bench`], whose results are reported here.

pub mod perft;
pub mod timing;

pub use timing::{process_cpu_seconds, Timed};

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
}

/// Runs every section, passing each output line to `report` as soon as it is measured.
pub fn run(depths: &Depths, report: &dyn Fn(&str)) -> Result<(), String> {
    perft::bench_2d(depths.perft, report)?;
    perft::bench_3d(depths.aof, depths.missionary, report)?;
    search(depths.search, report)
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
