//! `panoply tune` and `panoply label` on the command line: Texel tuning of the evaluation from
//! recorded positions, and another engine's scores for them.

use clap::Args;
use panoply::tournament::engine_config::{resolve, EngineConfig};
use panoply::tune::label::{label, LabelSettings};
use panoply::tune::texel::{header, read_samples, tune, Settings};
use std::path::PathBuf;
use std::time::Duration;

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

#[derive(Args)]
pub struct LabelArgs {
    /// A training file written by `panoply selfplay --record`.
    pub file: PathBuf,
    /// The engine whose scores replace the recorded ones: a definition file, or a name in
    /// `engines/` (e.g. `fairy-stockfish`).
    #[arg(long)]
    pub engine: String,
    /// Nodes the engine searches per position.
    #[arg(long, default_value_t = 10_000)]
    pub nodes: u64,
    /// Engine processes running side by side.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Drop positions the engine scores beyond this many centipawns (or as a mate).
    #[arg(long, default_value_t = 1500)]
    pub max_score: i32,
    /// Write the labelled file here.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run_label(a: LabelArgs) -> Result<(), String> {
    let engine = EngineConfig::load(&resolve(&a.engine)).map_err(|e| e.to_string())?;
    let samples: Vec<_> = read_samples(std::slice::from_ref(&a.file))
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|(sample, _, _)| sample)
        .collect();
    let settings = LabelSettings {
        engine,
        nodes: a.nodes,
        concurrency: a.concurrency,
        max_score: a.max_score,
        timeout: Duration::from_secs(60),
    };
    let labelled =
        label(&samples, &settings, &|line| eprintln!("{line}")).map_err(|e| e.to_string())?;
    let text: String = labelled
        .samples
        .iter()
        .map(|s| s.to_line() + "\n")
        .collect();
    std::fs::write(&a.out, text).map_err(|e| format!("{}: {e}", a.out.display()))?;
    eprintln!(
        "{} positions labelled, {} dropped as decided",
        labelled.samples.len(),
        labelled.decided
    );
    Ok(())
}
