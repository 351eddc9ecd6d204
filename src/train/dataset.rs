//! Training positions held in memory as compact feature lists: per position the inputs it
//! switches on from the side to move's view and from the other side's (`u16` each, a few
//! dozen bytes a position), with its score, result and game. The split into training and
//! validation is by whole games, chosen by a seeded hash of the game number, so validation
//! positions never come from a game the network trained on.

use super::source::TrainingPosition;
use crate::eval::Evaluator;
use crate::nnue::features::{Catalog, KindMap, MapError};
use crate::piece::Player;
use crate::random::mix;
use crate::variant::Family;
use std::collections::HashMap;
use std::fmt;

/// One position's labels; its features are `Dataset::features[start..start + 2 * count]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    start: u32,
    count: u16,
    pub score: i16,
    /// The classical evaluation of the position (side to move's view), for comparison.
    pub classical: i16,
    pub result: f32,
    pub game: u64,
}

/// Positions as feature lists.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub entries: Vec<Entry>,
    /// The side to move's inputs, then the other side's, per entry.
    features: Vec<u16>,
}

impl Dataset {
    /// The inputs of entry `i`: (side to move's view, the other side's view).
    pub fn features(&self, i: usize) -> (&[u16], &[u16]) {
        let e = &self.entries[i];
        let (start, n) = (e.start as usize, e.count as usize);
        (
            &self.features[start..start + n],
            &self.features[start + n..start + 2 * n],
        )
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn push(&mut self, own: &[usize], other: &[usize], p: &TrainingPosition, classical: i16) {
        self.entries.push(Entry {
            start: self.features.len() as u32,
            count: own.len() as u16,
            score: p.score,
            classical,
            result: p.result,
            game: p.game,
        });
        self.features.extend(own.iter().map(|&i| i as u16));
        self.features.extend(other.iter().map(|&i| i as u16));
    }
}

/// Why a position cannot join the data set.
#[derive(Clone, Debug, PartialEq)]
pub enum DatasetError {
    MixedFamilies(Family, Family),
    Map(String, MapError),
    TooManyInputs(usize),
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            DatasetError::MixedFamilies(a, b) => write!(
                f,
                "positions of two families ({a} and {b}): train one family per network"
            ),
            DatasetError::Map(variant, e) => write!(f, "{variant}: {e}"),
            DatasetError::TooManyInputs(n) => {
                write!(f, "{n} inputs do not fit the 16-bit feature lists")
            }
        }
    }
}

impl std::error::Error for DatasetError {}

/// Turns training positions into the two data sets, one position at a time.
pub struct Builder {
    pub family: Family,
    pub catalog: Catalog,
    pub cells: usize,
    /// Per variant: its kinds in the catalog, and its classical evaluator.
    maps: HashMap<String, (KindMap, Evaluator<u64>)>,
    validation_share: f64,
    seed: u64,
    /// Each training position also joins in its file-wise mirror image.
    mirror: bool,
    pub train: Dataset,
    pub validation: Dataset,
    own: Vec<usize>,
    other: Vec<usize>,
}

impl Builder {
    /// A builder for `family`'s networks over `catalog`; `validation_share` of the games
    /// (by a hash of the game number and `seed`) go to validation. With `mirror`, each
    /// training position is added twice, as it is and mirrored file-wise: the pieces of the
    /// families with networks move alike to either side and the networks cannot see castling
    /// rights, so a position and its mirror image are worth the same to them. Validation
    /// positions are never mirrored, so losses stay comparable.
    pub fn new(
        family: Family,
        catalog: Catalog,
        cells: usize,
        validation_share: f64,
        seed: u64,
        mirror: bool,
    ) -> Result<Builder, DatasetError> {
        let inputs = KindMap::inputs(catalog.entries.len(), cells);
        if inputs > u16::MAX as usize {
            return Err(DatasetError::TooManyInputs(inputs));
        }
        Ok(Builder {
            family,
            catalog,
            cells,
            maps: HashMap::new(),
            validation_share,
            seed,
            mirror,
            train: Dataset::default(),
            validation: Dataset::default(),
            own: Vec::new(),
            other: Vec::new(),
        })
    }

    /// Whether game `game` is held out for validation.
    pub fn is_validation(&self, game: u64) -> bool {
        let u = (mix(game ^ mix(self.seed)) >> 11) as f64 / (1u64 << 53) as f64;
        u < self.validation_share
    }

    /// Adds `p` to the validation games when `held_out`, else to the training ones.
    pub fn add(&mut self, p: &TrainingPosition, held_out: bool) -> Result<(), DatasetError> {
        let variant = &p.tables.variant;
        if variant.family != self.family {
            return Err(DatasetError::MixedFamilies(self.family, variant.family));
        }
        if !self.maps.contains_key(&variant.name) {
            let map = KindMap::new(&*p.tables, &self.catalog, self.cells)
                .map_err(|e| DatasetError::Map(variant.name.clone(), e))?;
            let classical = Evaluator::new(&*p.tables);
            self.maps.insert(variant.name.clone(), (map, classical));
        }
        let (map, evaluator) = &self.maps[&variant.name];
        let classical = evaluator
            .evaluate(&p.tables, &p.position)
            .clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let side = p.position.side;
        let other = Player(1 - side.0);
        map.active(&p.position, side, &mut self.own);
        map.active(&p.position, other, &mut self.other);
        if held_out {
            self.validation.push(&self.own, &self.other, p, classical);
        } else {
            self.train.push(&self.own, &self.other, p, classical);
            if self.mirror {
                // The mirror image keeps the original's classical score too: the hand-made
                // terms are left-right symmetric and score no castling rights.
                for i in self.own.iter_mut().chain(self.other.iter_mut()) {
                    *i = map.file_mirrored(*i);
                }
                self.train.push(&self.own, &self.other, p, classical);
            }
        }
        Ok(())
    }
}
