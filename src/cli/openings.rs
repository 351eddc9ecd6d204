//! `panoply openings`: a balanced opening suite for testing, from random lines that a
//! shallow search calls level.

use super::{write_text, Failure};
use clap::Args;
use panoply::tournament::suite_maker::{make_suite, SuiteSettings};
use std::path::PathBuf;

#[derive(Args)]
pub struct OpeningsArgs {
    /// Variant (repeatable: one suite per variant, in this order).
    #[arg(long = "variant", required = true)]
    variants: Vec<String>,
    /// Positions per variant.
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// Random plies per line: `N` or `MIN..MAX`.
    #[arg(long, default_value = "6..10")]
    plies: String,
    /// Keep positions scored within this many centipawns of level.
    #[arg(long, default_value_t = 60)]
    max_eval: i32,
    /// Search depth per position.
    #[arg(long, default_value_t = 5)]
    depth: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the suite here (default: stdout).
    #[arg(long)]
    out: Option<PathBuf>,
}

impl OpeningsArgs {
    pub fn run(self) -> Result<(), Failure> {
        let plies = ply_range(&self.plies)?;
        let mut text = self.header();
        for (i, variant) in self.variants.iter().enumerate() {
            for line in make_suite(&self.settings(variant, i, plies), &|line| {
                eprintln!("{line}")
            })? {
                text.push_str(&line);
                text.push('\n');
            }
        }
        write_text(self.out.as_deref(), &text)
    }

    /// The suite's first lines: the command that made it, and what its lines are.
    fn header(&self) -> String {
        format!(
            "# Made by `panoply openings --plies {} --max-eval {} --depth {} --seed {} --count {}`:\n\
             # random lines kept when Panoply's search calls them level (more than two players:\n\
             # every army's static utility). One position per line.\n",
            self.plies, self.max_eval, self.depth, self.seed, self.count
        )
    }

    /// The settings for the `index`th variant, whose seed differs from the others'.
    fn settings(&self, variant: &str, index: usize, plies: (usize, usize)) -> SuiteSettings {
        SuiteSettings {
            variant: variant.to_string(),
            count: self.count,
            plies,
            max_eval: self.max_eval,
            depth: self.depth,
            seed: self.seed.wrapping_add(index as u64 * 0x9E37_79B9),
            max_tries: self.count.saturating_mul(50).max(1000),
        }
    }
}

/// `N` or `MIN..MAX` plies.
fn ply_range(text: &str) -> Result<(usize, usize), Failure> {
    let bad = || Failure(format!("bad ply range '{text}' (expected N or MIN..MAX)"));
    let num = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
    match text.split_once("..") {
        Some((a, b)) => Ok((num(a)?, num(b)?)),
        None => num(text).map(|n| (n, n)),
    }
}
