//! `panoply label`: replaces the scores of recorded positions with another engine's (the
//! training data for `tune --lambda 0`, and for networks trained on its judgement).

use super::Failure;
use clap::Args;
use panoply::engines::engine_lookup::find_engine;
use panoply::tune::label::{label, LabelSettings};
use panoply::tune::texel::read_samples;
use std::path::PathBuf;
use std::time::Duration;

/// How long the engine may take over one position before the labelling gives up on it.
const POSITION_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Args)]
pub struct LabelArgs {
    /// A training file written by `panoply selfplay --record`.
    file: PathBuf,
    /// The engine whose scores replace the recorded ones: a definition file, or a name looked
    /// up as for `match` (e.g. `fairy-stockfish`).
    #[arg(long)]
    engine: String,
    /// A folder of engine definition files, searched first for the engine's name.
    #[arg(long = "engines", value_name = "DIR")]
    engines_dir: Option<PathBuf>,
    /// Nodes the engine searches per position.
    #[arg(long, default_value_t = 10_000)]
    nodes: u64,
    /// Engine processes running side by side.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Drop positions the engine scores beyond this many centipawns (or as a mate).
    #[arg(long, default_value_t = 1500)]
    max_score: i32,
    /// Label only every K-th position of the file (with `--offset`, to label a large file in
    /// parts that can be run one at a time and trained on together).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Which of each `--every` positions to label: 0 to K-1.
    #[arg(long, default_value_t = 0)]
    offset: u64,
    /// Write the labelled file here.
    #[arg(long)]
    out: PathBuf,
}

impl LabelArgs {
    pub fn run(self) -> Result<(), Failure> {
        let settings = LabelSettings {
            engine: find_engine(&self.engine, self.engines_dir.as_deref())?,
            nodes: self.nodes,
            concurrency: self.concurrency,
            max_score: self.max_score,
            timeout: POSITION_TIMEOUT,
        };
        if self.offset >= self.every {
            return Err(Failure(format!(
                "--offset {} must be below --every {}",
                self.offset, self.every
            )));
        }
        let samples: Vec<_> = read_samples(std::slice::from_ref(&self.file))?
            .into_iter()
            .map(|(sample, _, _)| sample)
            .enumerate()
            .filter(|(i, _)| *i as u64 % self.every == self.offset)
            .map(|(_, sample)| sample)
            .collect();
        let labelled = label(&samples, &settings, &|line| eprintln!("{line}"))?;
        let text: String = labelled
            .samples
            .iter()
            .map(|s| s.to_line() + "\n")
            .collect();
        std::fs::write(&self.out, text)
            .map_err(|e| Failure(format!("{}: {e}", self.out.display())))?;
        eprintln!(
            "{} positions labelled, {} dropped as decided",
            labelled.samples.len(),
            labelled.decided
        );
        Ok(())
    }
}
