//! Loading a family's training data: the positions of the files as feature lists split into
//! training and validation games, the catalog of the family's pieces, and the sigmoid scale
//! K fitted to the recorded scores.

use super::dataset::{Builder, Dataset, DatasetError};
use super::source::{read_positions, ReadStats, SourceError};
use crate::game::AnyTables;
use crate::games;
use crate::nnue::features::Catalog;
use crate::variant::Family;
use std::fmt;
use std::path::PathBuf;

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

/// Reads `files`; `validation_share` of the games (by a hash seeded with `seed`) are held out;
/// `mirror` adds each training position's mirror image ([`Builder::new`]).
pub fn load(
    files: &[PathBuf],
    validation_share: f64,
    seed: u64,
    mirror: bool,
) -> Result<Loaded, LoadError> {
    let mut builder: Option<Builder> = None;
    let mut failure: Option<DatasetError> = None;
    let stats = read_positions(files, |p| {
        if failure.is_some() {
            return;
        }
        if builder.is_none() {
            let (family, cells) = (p.tables.variant.family, p.tables.variant.shape.cells());
            let catalog = family_catalog(family, cells);
            match Builder::new(family, catalog, cells, validation_share, seed, mirror) {
                Ok(b) => builder = Some(b),
                Err(e) => {
                    failure = Some(e);
                    return;
                }
            }
        }
        let b = builder.as_mut().expect("made above");
        if let Err(e) = b.add(&p) {
            failure.get_or_insert(e);
        }
    })
    .map_err(LoadError::Source)?;
    if let Some(e) = failure {
        return Err(LoadError::Dataset(e));
    }
    let b = builder.ok_or(LoadError::NoPositions)?;
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
