//! `panoply match --resume`: the games a stopped match already wrote to its `--pgn` file, read
//! back and checked to be this match's, so that the match plays only the games still missing
//! and counts the others as if it had played them. A unit cut short keeps its finished games:
//! the games of a unit are independent (the same opening, the seats turned), so playing only
//! its missing ones gives the unit a whole run would.

use super::merge::{first_difference, with_engine_indices};
use super::shard::{MergeTags, Shard};
use super::MatchError;
use crate::records::pgn_reader::read_games;
use crate::records::record::GameRecord;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The games of this match (of its `shard`) in the file, in file order (the order the first
/// run counted them), as the match's own records. A missing file is a match not yet started.
pub fn played_games(
    path: &Path,
    merge_tags: &BTreeMap<usize, MergeTags>,
    engines: &[String],
    shard: Shard,
) -> Result<Vec<GameRecord>, MatchError> {
    let file = path.display();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(MatchError::Io(format!("{file}: {e}"))),
    };
    let games = read_games(&text).map_err(|e| MatchError::Setup(format!("{file}: {e}")))?;
    let mut seen = BTreeSet::new();
    let mut records = Vec::with_capacity(games.len());
    for game in games {
        let number = game.record.spec.number;
        let not_ours = |why: &str| {
            MatchError::Setup(format!(
                "{file}: game {number} {why}; --resume goes on with the match that wrote the file, \
                 given the same engines and settings"
            ))
        };
        let Some(expected) = merge_tags.get(&number) else {
            return Err(not_ours("is not in this match's schedule"));
        };
        let tags = MergeTags::from_tags(&game.tags).map_err(|e| not_ours(&e))?;
        if let Some((played, ours)) = first_difference(&tags, expected) {
            return Err(not_ours(&format!(
                "was played with {played}, but this match has {ours}"
            )));
        }
        if tags != *expected {
            return Err(not_ours("has another place in this match's schedule"));
        }
        if !shard.owns(tags.unit) {
            return Err(not_ours(&format!(
                "is of shard {}, not {shard}",
                tags.shard
            )));
        }
        if !seen.insert(number) {
            return Err(not_ours("is in the file twice"));
        }
        let record =
            with_engine_indices(game.record, engines, tags.unit).map_err(|e| not_ours(&e))?;
        records.push(record);
    }
    Ok(records)
}
