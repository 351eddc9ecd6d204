//! `panoply results`: the end-of-match report from PGN files that `panoply match --pgn`
//! wrote — the shards of a sharded match merged into one, a single run read back, or the
//! sittings of one test (played again with other seeds) summed.

use super::{parse_settings, read_text, Failure};
use clap::Args;
use panoply::records::pgn_reader::read_games;
use panoply::tournament::merge::{merge, merge_sittings, SourcedGame};
use panoply::tournament::sprt::SprtSettings;
use std::path::PathBuf;

#[derive(Args)]
pub struct ResultsArgs {
    /// PGN files of one match: every shard's (`panoply match --shard K/N --pgn FILE`), in any
    /// order, or a single run's.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The sequential test to run on the games, as `panoply match --sprt` takes it; by default
    /// the one the match was started with.
    #[arg(long, num_args = 1..=5, value_name = "SETTING")]
    sprt: Option<Vec<String>>,
    /// The files are sittings of one test: the same match started again with other seeds
    /// (each sitting one run or its shards). Each is counted as its own run would be, and
    /// their pairs are summed into one report and one test.
    #[arg(long)]
    sittings: bool,
}

impl ResultsArgs {
    pub fn run(self) -> Result<(), Failure> {
        let sprt = parse_settings("--sprt", self.sprt.as_deref(), SprtSettings::parse)?;
        let mut games = Vec::new();
        for path in &self.files {
            let file = path.display().to_string();
            let read =
                read_games(&read_text(path)?).map_err(|e| Failure(format!("{file}: {e}")))?;
            games.extend(read.into_iter().map(|game| SourcedGame {
                game,
                file: file.clone(),
            }));
        }
        let merged = if self.sittings {
            merge_sittings(games, sprt)?
        } else {
            merge(games, sprt)?
        };
        if merged.left_out > 0 {
            log::warn!(
                "the test decided before the end of the shards: their last {} games are left out, as a single run would not have played them",
                merged.left_out
            );
        }
        let unfinished = merged.unfinished;
        if unfinished.units > 0 || unfinished.not_started > 0 {
            log::warn!(
                "the run stopped before its end with no decision: {} {} of {} unfinished {} left out, {} {} not started",
                unfinished.games,
                plural(unfinished.games, "game", "games"),
                unfinished.units,
                plural(unfinished.units, "unit", "units"),
                unfinished.not_started,
                plural(unfinished.not_started, "unit", "units"),
            );
        }
        if merged.seeds.len() > 1 {
            panoply::out!(
                "Sittings: {} (seeds {}), their pairs summed\n",
                merged.seeds.len(),
                merged.seeds.join(", ")
            );
        }
        panoply::out!("{}", merged.report.summary());
        Ok(())
    }
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}
