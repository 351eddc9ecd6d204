//! Loading a family's training data: the positions of the files as feature lists split into
//! training and validation games, the catalog of the family's pieces, and the sigmoid scale
//! K fitted to the recorded scores.

use super::dataset::{Builder, Dataset, DatasetError};
use super::source::{read_positions, ReadStats, SourceError, TrainingPosition};
use crate::game::AnyTables;
use crate::games;
use crate::nnue::features::Catalog;
use crate::variant::Family;
use std::fmt;
use std::path::{Path, PathBuf};

/// The games that measure the validation loss; the network never trains on them.
#[derive(Clone, Debug, PartialEq)]
pub enum Holdout {
    /// This share of the training files' games, picked by a hash of the game number and the
    /// seed.
    Share(f64),
    /// Every game of these files, and none of the training files': one yardstick for
    /// networks trained on different data, so their losses compare.
    Files(Vec<PathBuf>),
}

/// A family's positions, ready to train on.
pub struct Loaded {
    pub family: Family,
    pub catalog: Catalog,
    pub cells: usize,
    pub train: Dataset,
    pub validation: Dataset,
    pub stats: ReadStats,
}

#[derive(Debug)]
pub enum LoadError {
    Source(SourceError),
    Dataset(DatasetError),
    NoPositions,
    NoValidation,
    /// A file named both to train on and to validate with.
    TrainsAndValidates(PathBuf),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            LoadError::Source(e) => write!(f, "{e}"),
            LoadError::Dataset(e) => write!(f, "{e}"),
            LoadError::NoPositions => write!(f, "the training files hold no positions"),
            LoadError::NoValidation => write!(
                f,
                "no game fell into the validation share (more data or a larger --validation)"
            ),
            LoadError::TrainsAndValidates(path) => write!(
                f,
                "{} is both a training and a validation file: the validation loss would \
                 measure games the network trained on",
                path.display()
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// Every piece identity of the family's two-player variants on boards of `cells` cells, in
/// the registry's order: a network trained on some pairings can serve them all.
pub fn family_catalog(family: Family, cells: usize) -> Catalog {
    let tables: Vec<_> = games::names()
        .iter()
        .filter_map(|name| match games::tables(name) {
            Ok(AnyTables::Narrow(t)) => Some(t),
            _ => None,
        })
        .filter(|t| {
            t.variant.family == family
                && t.variant.players() == 2
                && t.variant.shape.cells() == cells
        })
        .collect();
    Catalog::of(tables.iter().map(|t| &**t))
}

/// Reads `files` for training and the games of `holdout` for validation (a share of the same
/// files' games, or other files); `mirror` adds each training position's mirror image
/// ([`Builder::new`]).
pub fn load(
    files: &[PathBuf],
    holdout: &Holdout,
    seed: u64,
    mirror: bool,
) -> Result<Loaded, LoadError> {
    let share = match holdout {
        Holdout::Share(share) => *share,
        Holdout::Files(held) => {
            if let Some(both) = held.iter().find(|h| files.iter().any(|f| same_file(f, h))) {
                return Err(LoadError::TrainsAndValidates(both.clone()));
            }
            0.0
        }
    };
    let mut reader = Reader {
        share,
        seed,
        mirror,
        builder: None,
        failure: None,
    };
    let mut stats = reader.read(files, Split::ByGame)?;
    if let Holdout::Files(held) = holdout {
        let held_stats = reader.read(held, Split::Validation)?;
        stats.positions += held_stats.positions;
        stats.games += held_stats.games;
        stats.partial_lines += held_stats.partial_lines;
    }
    let b = reader.builder.ok_or(LoadError::NoPositions)?;
    if b.validation.is_empty() {
        return Err(LoadError::NoValidation);
    }
    Ok(Loaded {
        family: b.family,
        catalog: b.catalog,
        cells: b.cells,
        train: b.train,
        validation: b.validation,
        stats,
    })
}

/// Where the positions of a file go.
#[derive(Clone, Copy)]
enum Split {
    /// Training or validation by the game's hash ([`Builder::is_validation`]).
    ByGame,
    /// All to validation.
    Validation,
}

/// The state of [`load`] across its files: the builder, made by the first position (which
/// names the family), and the first failure.
struct Reader {
    share: f64,
    seed: u64,
    mirror: bool,
    builder: Option<Builder>,
    failure: Option<DatasetError>,
}

impl Reader {
    fn read(&mut self, files: &[PathBuf], split: Split) -> Result<ReadStats, LoadError> {
        let stats = read_positions(files, |p| {
            if self.failure.is_none() {
                if let Err(e) = self.add(&p, split) {
                    self.failure = Some(e);
                }
            }
        })
        .map_err(LoadError::Source)?;
        match self.failure.take() {
            Some(e) => Err(LoadError::Dataset(e)),
            None => Ok(stats),
        }
    }

    fn add(&mut self, p: &TrainingPosition, split: Split) -> Result<(), DatasetError> {
        if self.builder.is_none() {
            let (family, cells) = (p.tables.variant.family, p.tables.variant.shape.cells());
            let catalog = family_catalog(family, cells);
            let b = Builder::new(family, catalog, cells, self.share, self.seed, self.mirror)?;
            self.builder = Some(b);
        }
        let b = self.builder.as_mut().expect("made above");
        let held_out = match split {
            Split::ByGame => b.is_validation(p.game),
            Split::Validation => true,
        };
        b.add(p, held_out)
    }
}

/// Whether two paths name one file (compared as given when either cannot be resolved).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The K (centipawns) for which `sigmoid(score / K)` best predicts the results (least mean
/// squared error), by golden-section search between 10 and 5000.
pub fn fit_k(data: &Dataset) -> f64 {
    let error = |k: f64| -> f64 {
        data.entries
            .iter()
            .map(|e| (sigmoid(e.score as f64 / k) - e.result as f64).powi(2))
            .sum::<f64>()
    };
    crate::tune::golden::minimise(error, (10.0, 5000.0), 80)
}
