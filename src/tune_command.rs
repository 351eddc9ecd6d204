//! `panoply tune` on the command line: Texel tuning of the evaluation from recorded positions.

use clap::Args;
use panoply::tune::texel::{header, tune, Settings};
use std::path::PathBuf;

#[derive(Args)]
pub struct TuneArgs {
    /// Training files written by `panoply selfplay --record` (one family per run).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Passes of gradient descent over all positions.
    #[arg(long, default_value_t = 1000)]
    pub epochs: usize,
    /// Step size of the optimiser, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Weight of the game result in the target (1 = results only, 0 = search scores only).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Tune only weights whose names start with this (repeatable), e.g. `value.` or `mobility.`.
    #[arg(long)]
    pub only: Vec<String>,
    /// Keep weights whose names start with this (repeatable).
    #[arg(long)]
    pub freeze: Vec<String>,
    /// Pull towards the starting weights (per centipawn squared).
    #[arg(long, default_value_t = 0.0)]
    pub regularisation: f64,
    /// Tune a weight only when at least this many positions count it.
    #[arg(long, default_value_t = 200)]
    pub min_positions: usize,
    /// Write the weight file here (default: stdout).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn run(a: TuneArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&a.lambda) {
        return Err(format!("--lambda {} is not between 0 and 1", a.lambda));
    }
    let settings = Settings {
        files: a.files,
        epochs: a.epochs,
        rate: a.rate,
        lambda: a.lambda,
        only: a.only,
        freeze: a.freeze,
        regularisation: a.regularisation,
        min_positions: a.min_positions,
    };
    let report = tune(&settings, &|line| eprintln!("{line}")).map_err(|e| e.to_string())?;
    let command: Vec<String> = std::env::args().collect();
    let text = report.to_text(&header(&settings, &report, &command.join(" ")));
    match a.out {
        Some(p) => std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display())),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}
