//! `panoply train`: fits an NNUE network to recorded self-play positions and writes the
//! network file; progress (K, losses per epoch, samples/s) goes to stderr.

use super::Failure;
use clap::{Args, ValueEnum};
use panoply::train::optimizer::Schedule;
use panoply::train::trainer::{train, Holdout, Start, TrainSettings};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
enum ScheduleKind {
    Cosine,
    Step,
}

#[derive(Args)]
pub struct TrainArgs {
    /// Training files: game records of `panoply datagen` or text files of `panoply selfplay --record` (one family per network).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long)]
    out: PathBuf,
    /// Hidden units per perspective (the accumulator's width).
    #[arg(long, default_value_t = 256)]
    hidden: usize,
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// AdamW's step size at the start.
    #[arg(long, default_value_t = 0.001)]
    lr: f64,
    /// How the step size falls: along a cosine to --lr-final times --lr, or times --gamma
    /// every --step-epochs epochs.
    #[arg(long, value_enum, default_value = "cosine")]
    schedule: ScheduleKind,
    #[arg(long, default_value_t = 0.05)]
    lr_final: f64,
    #[arg(long, default_value_t = 0.3)]
    gamma: f64,
    #[arg(long, default_value_t = 8)]
    step_epochs: usize,
    /// AdamW's decoupled weight decay.
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// Weight of the search score in the target (the rest is the game result).
    #[arg(long, default_value_t = 0.7)]
    lambda: f64,
    /// The sigmoid's scale in centipawns (default: fitted to the data's scores and results).
    #[arg(long)]
    k: Option<f64>,
    /// Centipawns per unit of the network's float output.
    #[arg(long, default_value_t = 400)]
    scale: i32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: every core). One thread gives the same bytes every run.
    #[arg(long)]
    threads: Option<usize>,
    /// Share of the games held out for the validation loss.
    #[arg(long, default_value_t = 0.05)]
    validation: f64,
    /// Measure the validation loss on every game of this file instead (repeatable); the
    /// training files then all train. One held-out file makes the losses of networks
    /// trained on different data comparable.
    #[arg(long, value_name = "FILE", conflicts_with = "validation")]
    validation_file: Vec<PathBuf>,
    /// Where to write the checkpoint after each epoch (default: the --out file with `.ckpt`).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Continue from this checkpoint (same data and settings) up to --epochs.
    #[arg(long, conflicts_with = "init")]
    resume: Option<PathBuf>,
    /// Start from this network's weights instead of random ones (same family, pieces,
    /// --hidden, --scale and --on-classical): refines a shipped network on more data.
    #[arg(long, value_name = "NETWORK")]
    init: Option<PathBuf>,
    /// Train a correction to the classical evaluation: the engine scores positions as the
    /// classical evaluation plus the network (for data too scarce to learn everything).
    #[arg(long)]
    on_classical: bool,
    /// Also train on each training position mirrored left to right (doubles the training
    /// positions; the pieces of CwDA and SwDA move alike to either side).
    #[arg(long)]
    mirror: bool,
}

impl TrainArgs {
    pub fn run(self) -> Result<(), Failure> {
        let settings = self.settings()?;
        train(&settings, &|line| eprintln!("{line}"))?;
        Ok(())
    }

    fn settings(self) -> Result<TrainSettings, Failure> {
        let check = |ok: bool, what: String| if ok { Ok(()) } else { Err(Failure(what)) };
        check(
            (0.0..=1.0).contains(&self.lambda),
            format!("--lambda {} is not between 0 and 1", self.lambda),
        )?;
        check(
            self.validation > 0.0 && self.validation < 1.0,
            format!("--validation {} is not between 0 and 1", self.validation),
        )?;
        check(
            self.hidden > 0 && self.hidden <= 4096,
            format!("--hidden {} is not between 1 and 4096", self.hidden),
        )?;
        check(self.batch > 0, "--batch must be at least 1".into())?;
        check(
            self.lr > 0.0 && self.lr.is_finite(),
            format!("--lr {} must be positive", self.lr),
        )?;
        check(
            self.scale > 0,
            format!("--scale {} must be positive", self.scale),
        )?;
        if let Some(k) = self.k {
            check(
                k > 0.0 && k.is_finite(),
                format!("--k {k} must be positive"),
            )?;
        }
        let schedule = match self.schedule {
            ScheduleKind::Cosine => Schedule::Cosine {
                final_ratio: self.lr_final,
            },
            ScheduleKind::Step => Schedule::Step {
                every: self.step_epochs.max(1),
                gamma: self.gamma,
            },
        };
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(TrainSettings {
            checkpoint: self
                .checkpoint
                .unwrap_or_else(|| self.out.with_extension("ckpt")),
            files: self.files,
            out: self.out,
            hidden: self.hidden,
            epochs: self.epochs,
            batch: self.batch,
            lr: self.lr,
            schedule,
            weight_decay: self.weight_decay,
            lambda: self.lambda,
            k: self.k,
            scale: self.scale,
            seed: self.seed,
            threads: threads.max(1),
            holdout: if self.validation_file.is_empty() {
                Holdout::Share(self.validation)
            } else {
                Holdout::Files(self.validation_file)
            },
            start: match (self.resume, self.init) {
                (Some(checkpoint), _) => Start::Resume(checkpoint),
                (None, Some(network)) => Start::Network(network),
                (None, None) => Start::Fresh,
            },
            on_classical: self.on_classical,
            mirror: self.mirror,
        })
    }
}
