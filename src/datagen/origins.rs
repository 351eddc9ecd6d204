//! Where the games of many data files come from: the runs (seed and shard) that played them
//! and how many games each, and any game played twice — the same seed and shard run on two
//! machines, or a file counted twice — which would weigh its positions double in training.

use super::reader::read_records;
use super::record::Origin;
use super::DataError;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The games of one run (seed and shard) found in the files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stream {
    pub seed: u64,
    pub shard: u64,
    pub games: u64,
    /// Lowest and highest game index.
    pub first: u64,
    pub last: u64,
}

/// A game found more than once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    pub origin: Origin,
    pub times: u64,
}

/// The origins of the games of some files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origins {
    pub streams: Vec<Stream>,
    pub repeats: Vec<Repeat>,
    /// Games of version 1 records, which do not say where they come from.
    pub unknown: u64,
}

/// Reads the records of `paths` (not replaying their games) and sums up their origins.
pub fn origins(paths: &[PathBuf]) -> Result<Origins, DataError> {
    let mut by_run: BTreeMap<(u64, u64), Vec<u64>> = BTreeMap::new();
    let mut unknown = 0;
    read_records(paths, |_, record, _| {
        match record.origin {
            Some(o) => by_run.entry((o.seed, o.shard)).or_default().push(o.game),
            None => unknown += 1,
        }
        Ok(())
    })?;
    let mut out = Origins {
        unknown,
        ..Origins::default()
    };
    for ((seed, shard), mut games) in by_run {
        games.sort_unstable();
        out.streams.push(Stream {
            seed,
            shard,
            games: games.len() as u64,
            first: games[0],
            last: games[games.len() - 1],
        });
        for same in games.chunk_by(|a, b| a == b).filter(|c| c.len() > 1) {
            out.repeats.push(Repeat {
                origin: Origin {
                    seed,
                    shard,
                    game: same[0],
                },
                times: same.len() as u64,
            });
        }
    }
    Ok(out)
}
