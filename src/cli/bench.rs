//! `panoply bench`: perft and search speed on fixed positions of every supported game. The
//! measuring is the library's ([`panoply::bench`]); this file reads the depths.

use super::eval_args::EvalArgs;
use super::Failure;
use clap::Args;
use panoply::bench::{self, Depths, SpeedNetwork};
use panoply::nnue::format::Network;
use std::sync::Arc;

#[derive(Args)]
pub struct BenchArgs {
    /// Perft depth for the 2D games.
    #[arg(long, default_value_t = 5)]
    depth: u32,
    /// Perft depth for Armies of Faith (four players, 10x8x4).
    #[arg(long, default_value_t = 3)]
    aof_depth: u32,
    /// Perft depth for the Missionary cubic variants (6x6x8, drops).
    #[arg(long, default_value_t = 3)]
    missionary_depth: u32,
    /// Fixed search depth for the search bench (0 skips it).
    #[arg(long, default_value_t = 8)]
    search_depth: u32,
    /// Depth of the evaluation-speed comparison: search with a network (a random one of 256
    /// hidden units, or --eval-file) against the classical evaluation (0 skips it).
    #[arg(long, default_value_t = 7)]
    nnue_depth: u32,
    #[command(flatten)]
    eval: EvalArgs,
}

impl BenchArgs {
    pub fn run(self) -> Result<(), Failure> {
        let depths = Depths {
            perft: self.depth,
            aof: self.aof_depth,
            missionary: self.missionary_depth,
            search: self.search_depth,
            nnue: self.nnue_depth,
        };
        let network = match (&self.eval.eval_file, self.eval.no_nnue) {
            (_, true) => SpeedNetwork::None,
            (Some(path), false) => SpeedNetwork::File(Arc::new(Network::load(path)?)),
            (None, false) => SpeedNetwork::Random(256),
        };
        bench::run(&depths, network, &|line| panoply::outln!("{line}"))?;
        Ok(())
    }
}
