//! `panoply datagen`: generates NNUE training data (self-play records, see
//! [`panoply::datagen`]) on every core with a progress line on stderr, or with `--stats`
//! summarises data files (games, positions, positions the default filter keeps, results).

use super::{read_text, Failure};
use clap::Args;
use panoply::datagen::generate::{self, Adjudication, DatagenSettings, Job, Progress};
use panoply::datagen::origins::{origins, Origins};
use panoply::datagen::{read_positions, Filter, ReadSummary};
use panoply::games;
use panoply::records::openings::Suite;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// Play every variant of a family that its suite has positions for: cwda, swda (with
    /// shatranj), cyclical.
    #[arg(long)]
    family: Option<String>,
    /// Play this variant (repeatable; with --family, only these of the family).
    #[arg(long)]
    variant: Vec<String>,
    /// The suite of start positions [default: book/suites/<family>.epd].
    #[arg(long)]
    suite: Option<PathBuf>,
    /// Append the games to this file (created if missing).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Stop after this many games.
    #[arg(long)]
    games: Option<u64>,
    /// Stop starting games once this many positions are written.
    #[arg(long)]
    positions: Option<u64>,
    /// Threads, one game each [default: the machine's cores].
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the games' openings and random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Shard number: runs with the same seed and different shards play different games.
    #[arg(long, default_value_t = 0)]
    shard: u64,
    /// Soft node limit per move: no new iteration once this many nodes are searched.
    #[arg(long, default_value_t = 1000)]
    soft_nodes: u64,
    /// Hard node limit per move.
    #[arg(long, default_value_t = 4000)]
    nodes: u64,
    /// Random plies after the suite position, before the recorded game starts.
    #[arg(long, default_value_t = 4)]
    random_plies: usize,
    /// Recorded plies after which a game is stored as unfinished.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Transposition table per thread in MB.
    #[arg(long, default_value_t = 8)]
    hash: usize,
    /// Adjudicate a win once both sides' scores are at least this for --win-plies plies.
    #[arg(long, default_value_t = 2500)]
    win_score: i32,
    /// Plies in a row for a win adjudication.
    #[arg(long, default_value_t = 4)]
    win_plies: usize,
    /// Adjudicate a draw once, after --draw-after plies, the score stays within this for
    /// --draw-plies plies (0 plies: never).
    #[arg(long, default_value_t = 10)]
    draw_score: i32,
    /// Plies in a row for a draw adjudication.
    #[arg(long, default_value_t = 12)]
    draw_plies: usize,
    /// Plies of a game before a draw is adjudicated.
    #[arg(long, default_value_t = 80)]
    draw_after: usize,
    /// Seconds between progress lines on stderr.
    #[arg(long, default_value_t = 10)]
    progress: u64,
    /// Instead of generating, summarise these data files (games, positions, filter, results).
    #[arg(long, num_args = 1..)]
    stats: Vec<PathBuf>,
}

impl DatagenArgs {
    pub fn run(self) -> Result<(), Failure> {
        if !self.stats.is_empty() {
            return print_stats(&self.stats);
        }
        let out = self
            .out
            .clone()
            .ok_or("give --out FILE (or --stats FILE to summarise data)")?;
        let suite = self.suite()?;
        let job = Job {
            openings: generate::openings(&suite, &self.variant_names(&suite)?)?,
            settings: self.settings(),
            seed: self.seed,
            shard: self.shard,
            threads: self
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            games: self.games,
            positions: self.positions,
            out,
        };
        eprintln!(
            "datagen: {} variants, {} threads, seed {} shard {}, nodes {} soft / {} hard, to {}",
            job.openings.len(),
            job.threads,
            job.seed,
            job.shard,
            job.settings.soft_nodes,
            job.settings.hard_nodes,
            job.out.display()
        );
        let every = Duration::from_secs(self.progress.max(1));
        let done = generate::run(&job, every, print_progress)?;
        let [w, d, b, u] = done.results;
        eprintln!("datagen: done; white wins {w}, draws {d}, black wins {b}, unfinished {u}");
        Ok(())
    }

    /// The family's id: `--family` (an older name of a family means it), or the family of
    /// the first `--variant`.
    fn family(&self) -> Result<String, Failure> {
        if let Some(f) = &self.family {
            return Ok(games::family_named(f)
                .map_or_else(|| f.trim().to_ascii_lowercase(), |f| f.id().to_string()));
        }
        let first = self
            .variant
            .first()
            .ok_or("give --family NAME or --variant NAME")?;
        let variant = games::by_name(first).map_err(|e| Failure(e.to_string()))?;
        Ok(variant.family.id().to_string())
    }

    fn suite(&self) -> Result<Suite, Failure> {
        let path = match &self.suite {
            Some(p) => p.clone(),
            None => {
                let family = self.family()?;
                let own = games::family_named(&family).and_then(|f| games::describe(f).suite);
                PathBuf::from(own.unwrap_or(&format!("book/suites/{family}.epd")))
            }
        };
        if !path.exists() {
            return Err(Failure(format!(
                "{}: no such suite (run from the repository or give --suite FILE)",
                path.display()
            )));
        }
        let mut suite = Suite::default();
        suite.add_text(&read_text(&path)?, &path.display().to_string())?;
        Ok(suite)
    }

    /// The --variant names, or every variant of the family with positions in the suite.
    fn variant_names(&self, suite: &Suite) -> Result<Vec<String>, Failure> {
        if !self.variant.is_empty() {
            return Ok(self.variant.clone());
        }
        let family = self.family()?;
        let names: Vec<String> = games::names()
            .into_iter()
            .filter(|n| games::by_name(n).is_ok_and(|v| v.family.id() == family))
            .filter(|n| games::tables(n).is_ok_and(|t| !suite.positions(&t).is_empty()))
            .collect();
        if names.is_empty() {
            return Err(Failure(format!(
                "the suite has no positions for a variant of family '{family}'"
            )));
        }
        Ok(names)
    }

    fn settings(&self) -> DatagenSettings {
        DatagenSettings {
            soft_nodes: self.soft_nodes,
            hard_nodes: self.nodes.max(self.soft_nodes),
            random_plies: self.random_plies,
            max_plies: self.max_plies,
            hash_mb: self.hash,
            adjudication: Adjudication {
                win_score: self.win_score,
                win_plies: self.win_plies,
                draw_score: self.draw_score,
                draw_plies: self.draw_plies,
                draw_after: self.draw_after,
            },
        }
    }
}

fn print_progress(p: &Progress) {
    let secs = p.elapsed.as_secs_f64().max(1e-3);
    eprintln!(
        "datagen: {} games, {} positions, {:.0} positions/s, {:.2} games/s, {:.0} nodes/position, \
         {:.1} MB written ({} games were in the file), {:.0} s",
        p.games,
        p.positions,
        p.positions as f64 / secs,
        p.games as f64 / secs,
        p.nodes as f64 / p.positions.max(1) as f64,
        p.bytes as f64 / 1e6,
        p.resumed_from,
        secs
    );
}

fn print_stats(paths: &[PathBuf]) -> Result<(), Failure> {
    let s: ReadSummary = read_positions(paths, &Filter::default(), |_| {})?;
    let [w, d, b] = s.results;
    let finished = (w + d + b).max(1) as f64;
    panoply::outln!(
        "games: {} ({} unfinished, {} on boards beyond 64 cells skipped)",
        s.games,
        s.unfinished,
        s.wide
    );
    panoply::outln!(
        "results: white wins {w} ({:.1}%), draws {d} ({:.1}%), black wins {b} ({:.1}%)",
        100.0 * w as f64 / finished,
        100.0 * d as f64 / finished,
        100.0 * b as f64 / finished
    );
    panoply::outln!(
        "positions: {} in finished games, {} kept by the default filter ({:.1}%)",
        s.positions,
        s.kept,
        100.0 * s.kept as f64 / s.positions.max(1) as f64
    );
    panoply::outln!(
        "bytes: {} ({:.2} per position, {:.2} per kept position)",
        s.bytes,
        s.bytes as f64 / s.positions.max(1) as f64,
        s.bytes as f64 / s.kept.max(1) as f64
    );
    for t in &s.truncated {
        panoply::outln!(
            "truncated: {} at byte {} ({} bytes of a record; the rest is read)",
            t.file.display(),
            t.offset,
            t.bytes
        );
    }
    print_origins(&origins(paths)?)
}

/// One line per run (seed and shard), one per game found more than once; games found more
/// than once make the command fail after its report.
fn print_origins(o: &Origins) -> Result<(), Failure> {
    panoply::outln!(
        "runs: {} (seed and shard), {} games of format version 1 without an origin",
        o.streams.len(),
        o.unknown
    );
    for s in &o.streams {
        panoply::outln!(
            "run: seed {} shard {}: {} games (game {} to {})",
            s.seed,
            s.shard,
            s.games,
            s.first,
            s.last
        );
    }
    for r in o.repeats.iter().take(20) {
        panoply::outln!(
            "overlap: seed {} shard {} game {} is in the files {} times",
            r.origin.seed,
            r.origin.shard,
            r.origin.game,
            r.times
        );
    }
    if o.repeats.is_empty() {
        return Ok(());
    }
    Err(Failure(format!(
        "{} games are in the files more than once: the same --seed and --shard ran twice, or a file was given twice",
        o.repeats.len()
    )))
}
