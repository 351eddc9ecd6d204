//! The training loop: minibatches in a seeded order, each split into one fixed slice per
//! thread whose gradients are summed in slice order (so a run is deterministic for a given
//! thread count, and with `--threads 1` everywhere), AdamW, a learning-rate schedule, the
//! validation loss after every epoch, a checkpoint after every epoch, and the quantised
//! network at the end. A run starts from random weights, from a checkpoint (the same run
//! going on) or from a network file (a new run that refines a shipped network on more data).
//!
//! Target: `λ · sigmoid(score / K) + (1 − λ) · result`, both for the side to move; loss: the
//! mean squared error of `sigmoid(out · scale / K)` against it.

use super::checkpoint::{Checkpoint, CheckpointError, EpochLoss};
pub use super::data::Holdout;
use super::data::{fit_k, load, sigmoid, LoadError, Loaded};
use super::dataset::{Dataset, Entry};
use super::network::{FloatNetwork, Gradient, Scratch};
use super::optimizer::{AdamW, Schedule};
use super::quantise::{dequantise, quantise, QA, QB};
use crate::nnue::features::KindMap;
use crate::nnue::format::{self, FileError, Header};
use crate::random::{mix, Rng};
use rayon::prelude::*;
use serde_json::json;
use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct TrainSettings {
    pub files: Vec<PathBuf>,
    pub out: PathBuf,
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f64,
    pub schedule: Schedule,
    pub weight_decay: f32,
    pub lambda: f64,
    /// The sigmoid's scale in centipawns; fitted to the data when `None`.
    pub k: Option<f64>,
    /// Centipawns per unit of the float output.
    pub scale: i32,
    pub seed: u64,
    pub threads: usize,
    /// The games the validation loss is measured on.
    pub holdout: Holdout,
    pub checkpoint: PathBuf,
    pub start: Start,
    /// The network learns a correction added to the classical evaluation.
    pub on_classical: bool,
    /// Train on each position's file-wise mirror image as well.
    pub mirror: bool,
}

/// Where a run's weights come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// Random weights from the seed (a correction's output layer at zero).
    Fresh,
    /// A checkpoint of this same run (same data and settings): it goes on up to `epochs`.
    Resume(PathBuf),
    /// A network file for the same family, pieces, width and base: a new run (fresh
    /// optimiser, its own epochs and schedule) whose weights start as that network's.
    Network(PathBuf),
}

/// What a run produced.
pub struct Report {
    pub network: format::Network,
    pub k: f64,
    pub initial_validation: f64,
    pub history: Vec<EpochLoss>,
    /// Training positions per second over the epochs this run trained.
    pub samples_per_second: f64,
}

#[derive(Debug)]
pub enum TrainError {
    Load(LoadError),
    Checkpoint(CheckpointError),
    StartNetwork(FileError),
    Save(FileError),
    Threads(String),
    Mismatch(String),
    NetworkMismatch(String),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TrainError::Load(e) => write!(f, "{e}"),
            TrainError::Checkpoint(e) => write!(f, "{e}"),
            TrainError::StartNetwork(e) => write!(f, "the starting network: {e}"),
            TrainError::Save(e) => write!(f, "{e}"),
            TrainError::Threads(e) => write!(f, "cannot start the threads: {e}"),
            TrainError::Mismatch(why) => write!(f, "the checkpoint does not fit: {why}"),
            TrainError::NetworkMismatch(why) => {
                write!(f, "the starting network does not fit: {why}")
            }
        }
    }
}

impl std::error::Error for TrainError {}

/// A thread's share of a batch: its scratch space, gradient and summed loss.
struct Worker {
    scratch: Scratch,
    grad: Gradient,
    loss: f64,
}

/// What the loss needs besides the network.
#[derive(Clone, Copy)]
struct Labels {
    k: f64,
    lambda: f64,
    scale: f64,
    /// Whether the network's output is added to the classical evaluation.
    on_classical: bool,
}

impl Labels {
    /// The centipawns the network's output is added to.
    fn base(&self, e: &Entry) -> f64 {
        if self.on_classical {
            e.classical as f64
        } else {
            0.0
        }
    }

    fn target(&self, e: &Entry) -> f64 {
        self.lambda * sigmoid(e.score as f64 / self.k) + (1.0 - self.lambda) * e.result as f64
    }
}

impl Worker {
    /// Adds the loss of `items` and, when `grad_scale` is given, the gradient of the mean loss
    /// (each position's derivative times `grad_scale`, i.e. one over the batch size).
    fn run(
        &mut self,
        net: &FloatNetwork,
        data: &Dataset,
        items: &[u32],
        labels: Labels,
        grad_scale: Option<f64>,
    ) {
        for &i in items {
            let (own, other) = data.features(i as usize);
            let e = &data.entries[i as usize];
            let out = net.forward(own, other, &mut self.scratch) as f64;
            let p = sigmoid((out * labels.scale + labels.base(e)) / labels.k);
            let diff = p - labels.target(e);
            self.loss += diff * diff;
            if let Some(g) = grad_scale {
                let d_out = 2.0 * diff * p * (1.0 - p) * labels.scale / labels.k * g;
                net.backward(own, other, d_out as f32, &mut self.scratch, &mut self.grad);
            }
        }
    }
}

/// `items` in `parts` consecutive slices of near-equal length (some may be empty).
fn split(items: &[u32], parts: usize) -> Vec<&[u32]> {
    let size = items.len().div_ceil(parts).max(1);
    let mut out: Vec<&[u32]> = items.chunks(size).collect();
    out.resize(parts, &[]);
    out
}

/// The mean loss over `data`.
fn mean_loss(net: &FloatNetwork, data: &Dataset, workers: &mut [Worker], labels: Labels) -> f64 {
    let all: Vec<u32> = (0..data.len() as u32).collect();
    let slices = split(&all, workers.len());
    workers.par_iter_mut().zip(slices).for_each(|(w, items)| {
        w.loss = 0.0;
        w.run(net, data, items, labels, None);
    });
    workers.iter().map(|w| w.loss).sum::<f64>() / data.len().max(1) as f64
}

/// What a run starts from, read before the data so that a bad file is refused at once.
enum Origin {
    Fresh,
    Resumed(Checkpoint),
    Network(format::Network),
}

fn read_origin(start: &Start) -> Result<Origin, TrainError> {
    Ok(match start {
        Start::Fresh => Origin::Fresh,
        Start::Resume(path) => {
            Origin::Resumed(Checkpoint::load(path).map_err(TrainError::Checkpoint)?)
        }
        Start::Network(path) => {
            Origin::Network(format::Network::load(path).map_err(TrainError::StartNetwork)?)
        }
    })
}

/// The run's state at its first epoch.
fn start(
    s: &TrainSettings,
    origin: Origin,
    loaded: &Loaded,
    fitted_k: f64,
) -> Result<Checkpoint, TrainError> {
    let inputs = KindMap::inputs(loaded.catalog.entries.len(), loaded.cells);
    let net = match origin {
        Origin::Resumed(c) => return resumed(s, c, inputs),
        Origin::Network(n) => {
            network_fits(s, &n, loaded).map_err(TrainError::NetworkMismatch)?;
            dequantise(&n)
        }
        Origin::Fresh => {
            let mut net = FloatNetwork::new(inputs, s.hidden, s.seed);
            if s.on_classical {
                // A correction starts at nothing: the classical evaluation as it is.
                net.zero_output();
            }
            net
        }
    };
    let adam = AdamW::new(net.params.len(), s.weight_decay);
    Ok(Checkpoint {
        net,
        adam,
        seed: s.seed,
        k: s.k.unwrap_or(fitted_k),
        lambda: s.lambda,
        on_classical: s.on_classical,
        history: Vec::new(),
    })
}

/// Whether a starting network was made for what this run trains: the same family, the same
/// piece inputs in the same order, and the same width, base, output scale and quantisation.
fn network_fits(s: &TrainSettings, n: &format::Network, loaded: &Loaded) -> Result<(), String> {
    let h = &n.header;
    let family = loaded.family.id();
    let checks = [
        (
            h.family == family,
            format!("it is for {}, the data for {family}", h.family),
        ),
        (
            h.cells == loaded.cells && h.catalog == loaded.catalog,
            format!(
                "its inputs are {} pieces on {} cells, the data's {} on {} (or in another order)",
                h.catalog.entries.len(),
                h.cells,
                loaded.catalog.entries.len(),
                loaded.cells
            ),
        ),
        (
            h.hidden == s.hidden,
            format!(
                "its hidden layer has {} units, --hidden says {}",
                h.hidden, s.hidden
            ),
        ),
        (
            h.base == base(s.on_classical),
            "--on-classical must be given exactly when the network is a correction".into(),
        ),
        (
            h.scale == s.scale,
            format!("its scale is {}, --scale says {}", h.scale, s.scale),
        ),
        (
            h.qa == QA && h.qb == QB,
            format!(
                "it is quantised by {} and {}, this trainer by {QA} and {QB}",
                h.qa, h.qb
            ),
        ),
    ];
    match checks.into_iter().find(|(ok, _)| !ok) {
        Some((_, why)) => Err(why),
        None => Ok(()),
    }
}

/// A checkpoint to go on from, if it fits the data and `--hidden`.
fn resumed(s: &TrainSettings, c: Checkpoint, inputs: usize) -> Result<Checkpoint, TrainError> {
    if c.net.inputs != inputs {
        return Err(TrainError::Mismatch(format!(
            "it has {} inputs, this data's family {inputs}",
            c.net.inputs
        )));
    }
    if c.net.hidden != s.hidden {
        return Err(TrainError::Mismatch(format!(
            "its hidden layer has {} units, --hidden says {}",
            c.net.hidden, s.hidden
        )));
    }
    Ok(c)
}

/// Trains as `s` says, writing checkpoints and the network; `progress` gets a line per step
/// of the run (for stderr).
pub fn train(s: &TrainSettings, progress: &(dyn Fn(&str) + Sync)) -> Result<Report, TrainError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(s.threads.max(1))
        .build()
        .map_err(|e| TrainError::Threads(e.to_string()))?;
    pool.install(|| train_in_pool(s, progress))
}

fn train_in_pool(
    s: &TrainSettings,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Report, TrainError> {
    // A bad checkpoint or network is refused before the data is read: one line, nothing else
    // printed.
    let origin = read_origin(&s.start)?;
    let loaded = load(&s.files, &s.holdout, s.seed, s.mirror).map_err(TrainError::Load)?;
    let Loaded {
        train, validation, ..
    } = &loaded;
    progress(&describe_split(&loaded));
    let inputs = KindMap::inputs(loaded.catalog.entries.len(), loaded.cells);
    let fitted = fit_k(train);
    progress(&format!(
        "K = {fitted:.1} centipawns (sigmoid(score / K) fitted to the results){}",
        if s.k.is_some() {
            "; --k overrides it"
        } else {
            ""
        }
    ));
    let mut state = start(s, origin, &loaded, fitted)?;
    match &s.start {
        Start::Resume(_) => progress(&describe_resume(&state)),
        Start::Network(path) => progress(&format!("starting from the network {}", path.display())),
        Start::Fresh => {}
    }
    let labels = Labels {
        k: state.k,
        lambda: state.lambda,
        scale: s.scale as f64,
        on_classical: state.on_classical,
    };
    progress(&format!(
        "the recorded scores themselves, sigmoid(score / K), reach a validation loss of {:.6}",
        baseline(validation, labels, |e| e.score)
    ));
    progress(&format!(
        "the classical evaluation, sigmoid(eval / K), reaches {:.6}",
        baseline(validation, labels, |e| e.classical)
    ));
    let threads = rayon::current_num_threads();
    let mut workers: Vec<Worker> = (0..threads)
        .map(|_| Worker {
            scratch: Scratch::new(state.net.hidden),
            grad: Gradient::new(&state.net),
            loss: 0.0,
        })
        .collect();
    let initial_validation = mean_loss(&state.net, validation, &mut workers, labels);
    progress(&format!(
        "{} inputs ({} pieces × 2 colours × {} cells), {} hidden per perspective, {} parameters; \
         validation loss before training {initial_validation:.6}",
        inputs,
        loaded.catalog.entries.len(),
        loaded.cells,
        state.net.hidden,
        state.net.params.len()
    ));
    let (mut trained, mut seconds) = (0usize, 0f64);
    for epoch in state.history.len()..s.epochs {
        let clock = Instant::now();
        let train_loss = run_epoch(s, &mut state, train, &mut workers, labels, epoch);
        let elapsed = clock.elapsed().as_secs_f64();
        trained += train.len();
        seconds += elapsed;
        let validation_loss = mean_loss(&state.net, validation, &mut workers, labels);
        state.history.push(EpochLoss {
            train: train_loss,
            validation: validation_loss,
        });
        state.save(&s.checkpoint).map_err(TrainError::Checkpoint)?;
        progress(&format!(
            "epoch {}/{}: train {train_loss:.6}  validation {validation_loss:.6}  lr {:.2e}  \
             {:.0} samples/s ({threads} threads)",
            epoch + 1,
            s.epochs,
            s.schedule.rate(s.lr, (epoch + 1) as f64, s.epochs),
            train.len() as f64 / elapsed.max(1e-9),
        ));
    }
    let network = quantise(&state.net, header(s, &loaded, &state));
    network.save(&s.out).map_err(TrainError::Save)?;
    progress(&format!(
        "network written to {}, weights sha256 {}",
        s.out.display(),
        network.weights_sha256()
    ));
    Ok(Report {
        network,
        k: state.k,
        initial_validation,
        history: state.history,
        samples_per_second: trained as f64 / seconds.max(1e-9),
    })
}

/// The progress line on the data read: positions, games and the validation split.
fn describe_split(loaded: &Loaded) -> String {
    let (train, validation) = (&loaded.train, &loaded.validation);
    format!(
        "{} positions from {} games: {} for training, {} for validation ({} games held out){}",
        loaded.stats.positions,
        loaded.stats.games,
        train.len(),
        validation.len(),
        count_games(validation),
        match loaded.stats.partial_lines {
            0 => String::new(),
            n => format!("; {n} unterminated last line(s) left out"),
        }
    )
}

/// The progress line of a resumed run: where it goes on from, with the checkpoint's choices.
fn describe_resume(state: &Checkpoint) -> String {
    format!(
        "resuming after epoch {} (K {:.1}, λ {}, seed {}{} from the checkpoint)",
        state.history.len(),
        state.k,
        state.lambda,
        state.seed,
        if state.on_classical {
            ", a correction to the classical evaluation"
        } else {
            ""
        }
    )
}

/// The loss of predicting each position by `score` of it: by its own search score, what a
/// network that reproduced the search exactly would reach (the rest of the target is the
/// result); by the classical evaluation, the mark a network has to beat.
fn baseline(data: &Dataset, labels: Labels, score: impl Fn(&Entry) -> i16) -> f64 {
    data.entries
        .iter()
        .map(|e| (sigmoid(score(e) as f64 / labels.k) - labels.target(e)).powi(2))
        .sum::<f64>()
        / data.len().max(1) as f64
}

fn count_games(data: &Dataset) -> usize {
    let mut games: Vec<u64> = data.entries.iter().map(|e| e.game).collect();
    games.dedup();
    games.len()
}

/// One pass over the training positions in the epoch's seeded order; the mean loss.
fn run_epoch(
    s: &TrainSettings,
    state: &mut Checkpoint,
    data: &Dataset,
    workers: &mut [Worker],
    labels: Labels,
    epoch: usize,
) -> f64 {
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    Rng::new(mix(mix(state.seed) ^ epoch as u64)).shuffle(&mut order);
    let hidden = state.net.hidden;
    let batches = order.len().div_ceil(s.batch.max(1));
    let mut loss = 0.0;
    for (b, batch) in order.chunks(s.batch.max(1)).enumerate() {
        let net = &state.net;
        let scale = 1.0 / batch.len() as f64;
        let slices = split(batch, workers.len());
        workers.par_iter_mut().zip(slices).for_each(|(w, items)| {
            w.loss = 0.0;
            w.run(net, data, items, labels, Some(scale));
        });
        let (first, rest) = workers.split_first_mut().expect("one worker at least");
        for w in rest.iter_mut() {
            first.grad.add(&w.grad, hidden);
            w.grad.clear(hidden);
        }
        loss += first.loss + rest.iter().map(|w| w.loss).sum::<f64>();
        let progress = epoch as f64 + b as f64 / batches as f64;
        let lr = s.schedule.rate(s.lr, progress, s.epochs) as f32;
        state
            .adam
            .step(&mut state.net.params, &first.grad.values, lr);
        state.net.clip();
        first.grad.clear(hidden);
    }
    loss / data.len().max(1) as f64
}

/// What a network's output is added to: the classical evaluation when it learns a correction.
fn base(on_classical: bool) -> format::Base {
    if on_classical {
        format::Base::Classical
    } else {
        format::Base::Nothing
    }
}

/// The network file's header: what the network is and how it was made.
fn header(s: &TrainSettings, loaded: &Loaded, state: &Checkpoint) -> Header {
    let files: Vec<String> = s.files.iter().map(|f| f.display().to_string()).collect();
    let losses: Vec<_> = state
        .history
        .iter()
        .enumerate()
        .map(|(i, l)| json!({"epoch": i + 1, "train": l.train, "validation": l.validation}))
        .collect();
    Header {
        family: loaded.family.id().to_string(),
        cells: loaded.cells,
        catalog: loaded.catalog.clone(),
        hidden: state.net.hidden,
        qa: 0,
        qb: 0,
        scale: s.scale,
        base: base(state.on_classical),
        notes: json!({
            "trainer": "panoply train",
            "data": files,
            "positions": {"train": loaded.train.len(), "validation": loaded.validation.len()},
            "mirror": s.mirror,
            "games": loaded.stats.games,
            "epochs": state.history.len(),
            "batch": s.batch,
            "lr": s.lr,
            "schedule": s.schedule.describe(),
            "weight_decay": state.adam.weight_decay,
            "seed": state.seed,
            "k": state.k,
            "lambda": state.lambda,
            "loss": "mean squared error of sigmoid(cp / K) \
                     against λ·sigmoid(score / K) + (1 − λ)·result",
            "losses": losses,
            "started_from": match &s.start {
                Start::Network(path) => json!(path.display().to_string()),
                _ => json!(null),
            },
        }),
    }
}
