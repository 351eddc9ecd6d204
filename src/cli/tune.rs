//! `panoply tune`: Texel tuning of the evaluation's weights from recorded positions; prints
//! (or writes) a weight file headed by the command that made it.

use super::{write_text, Failure};
use clap::Args;
use panoply::tune::texel::{header, tune, TuneSettings};
use std::path::PathBuf;

#[derive(Args)]
pub struct TuneArgs {
    /// Training files: game records of `panoply datagen` (`.pgd`) or text files of `panoply selfplay --record` (one family per run).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Passes of gradient descent over all positions.
    #[arg(long, default_value_t = 1000)]
    epochs: usize,
    /// Step size of the optimiser, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Weight of the game result in the target (1 = results only, 0 = search scores only).
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// Tune only weights whose names start with this (repeatable), e.g. `value.` or `mobility.`.
    #[arg(long)]
    only: Vec<String>,
    /// Keep weights whose names start with this (repeatable).
    #[arg(long)]
    freeze: Vec<String>,
    /// Pull towards the starting weights (per centipawn squared).
    #[arg(long, default_value_t = 0.0)]
    regularisation: f64,
    /// Tune a weight only when at least this many positions count it.
    #[arg(long, default_value_t = 200)]
    min_positions: usize,
    /// Write the weight file here (default: stdout).
    #[arg(long)]
    out: Option<PathBuf>,
}

impl TuneArgs {
    pub fn run(self) -> Result<(), Failure> {
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(Failure(format!(
                "--lambda {} is not between 0 and 1",
                self.lambda
            )));
        }
        let out = self.out.clone();
        let settings = self.settings();
        let report = tune(&settings, &|line| eprintln!("{line}"))?;
        let command: Vec<String> = std::env::args().collect();
        let text = report.to_text(&header(&settings, &report, &command.join(" ")));
        write_text(out.as_deref(), &text)
    }

    fn settings(self) -> TuneSettings {
        TuneSettings {
            files: self.files,
            epochs: self.epochs,
            rate: self.rate,
            lambda: self.lambda,
            only: self.only,
            freeze: self.freeze,
            regularisation: self.regularisation,
            min_positions: self.min_positions,
        }
    }
}
