//! `panoply perft`: the leaf count of the legal move tree, with the count under each root
//! move on request. The count goes to stdout, the speed to stderr.

use super::position::PositionArgs;
use super::Failure;
use clap::Args;
use panoply::bitboard::BitSet;
use panoply::movegen::{notation::format_move, perft, tables::Tables};
use panoply::position::Position;
use panoply::with_tables;
use std::io::IsTerminal;
use std::time::Instant;

/// Depths from which a terminal shows the root moves' progress: shallower ones are instant.
const PROGRESS_DEPTH: u32 = 5;

#[derive(Args)]
pub struct PerftArgs {
    depth: u32,
    #[command(flatten)]
    position: PositionArgs,
    /// Print the count under each root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

impl PerftArgs {
    pub fn run(self) -> Result<(), Failure> {
        if let Some(n) = self.threads {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build_global()?;
        }
        with_tables!(&self.position.tables()?, t => {
            let pos = self.position.game(t)?.pos;
            let start = Instant::now();
            let total = self.count(t, &pos);
            report_speed(total, start);
            panoply::outln!("Nodes searched: {total}");
        });
        Ok(())
    }

    /// The leaf count, through the per-move count when it is printed or its progress shown.
    fn count<B: BitSet>(&self, t: &Tables<B>, pos: &Position<B>) -> u64 {
        let progress = std::io::stderr().is_terminal() && self.depth >= PROGRESS_DEPTH;
        if !self.divide && !progress {
            return perft::perft_parallel(t, pos, self.depth);
        }
        let rows = perft::divide_with_progress(t, pos, self.depth, progress);
        let mut rows: Vec<(String, u64)> = rows
            .into_iter()
            .map(|(m, n)| (format_move(t, m), n))
            .collect();
        rows.sort();
        if self.divide {
            rows.iter().for_each(|(m, n)| panoply::outln!("{m}: {n}"));
        }
        if self.depth == 0 {
            1
        } else {
            rows.iter().map(|(_, n)| n).sum()
        }
    }
}

fn report_speed(nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.1} Mnodes/s",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
}
