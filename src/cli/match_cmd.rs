//! `panoply match`: a tournament between engines (child processes), refereed by Panoply's
//! rules, with the standings and, for two engines, the game-pair statistics at the end.

use super::{parse_settings, read_text, Failure};
use clap::Args;
use panoply::engines::engine_lookup::find_engine;
use panoply::records::book::Book;
use panoply::records::openings::Suite;
use panoply::records::record::GameRecord;
use panoply::records::time_control::TimeControl;
use panoply::tournament::adjudication::{Adjudication, Draw, Resign};
use panoply::tournament::schedule::Mode;
use panoply::tournament::shard::Shard;
use panoply::tournament::sprt::SprtSettings;
use panoply::tournament::standings::forfeiting_seat;
use panoply::tournament::{run_match, unique_names, MatchSettings};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
pub struct MatchArgs {
    /// Engine definition files, or names looked up as <name>.engine in --engines DIR,
    /// $PANOPLY_ENGINES, ~/.config/panoply/engines and ./engines (`panoply` without a file
    /// is this program); two or more.
    #[arg(required = true, num_args = 2..)]
    engines: Vec<String>,
    /// A folder of engine definition files, searched first for engine names.
    #[arg(long = "engines", value_name = "DIR")]
    engines_dir: Option<PathBuf>,
    /// Variant to play (repeatable; every pair plays every variant).
    #[arg(long = "variant", default_value = "chess")]
    variants: Vec<String>,
    /// Games per pair of engines and variant (colours alternate).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Time control: 10+0.1, 40/60+0.5, st=0.2, nodes=20000.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// A fixed number of nodes per move instead of a clock (same as `--tc nodes=N`): results
    /// that do not depend on the machine's load.
    #[arg(long)]
    nodes: Option<u64>,
    /// Opening suite: one position string per line, optionally preceded by its variant's
    /// name (repeatable). Each opening is played twice, colours swapped; replaces `--book`.
    #[arg(long)]
    openings: Vec<PathBuf>,
    /// Sequential probability ratio test on game pairs of the two engines, e.g.
    /// `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic`; the match stops when it
    /// decides. `model=logistic` (the default, the meaning of every earlier test's bounds) or
    /// `model=normalized` (fishtest's normalised Elo); see docs/sprt.md.
    #[arg(long, num_args = 1..=5, value_name = "SETTING")]
    sprt: Option<Vec<String>>,
    /// roundrobin or gauntlet (the first engine against each of the others; in a game of
    /// more than two seats alone in one seat, rotated, against copies of the other).
    #[arg(long, default_value = "roundrobin")]
    mode: Mode,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Opening book file (see book/README.md); repeatable, the books are merged.
    #[arg(long)]
    book: Vec<PathBuf>,
    /// The longest opening line taken from the book, in plies.
    #[arg(long, default_value_t = 8)]
    book_plies: usize,
    /// Seed for the opening choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append the games to this PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Go on with a stopped match: the games already in the `--pgn` file (written by this
    /// match, same engines and settings) count, and only the rest are played.
    #[arg(long)]
    resume: bool,
    /// Adjudicate a draw after this many plies.
    #[arg(long)]
    max_plies: Option<usize>,
    /// Give a two-player game to the winner when both engines agree: the last `movecount`
    /// scores of each are beyond `score` centipawns, e.g. `--resign movecount=3 score=600`.
    #[arg(long, num_args = 1..=2, value_name = "SETTING")]
    resign: Option<Vec<String>>,
    /// Draw a two-player game from move `movenumber` on when both engines' last `movecount`
    /// scores are within `score` centipawns, e.g. `--draw movenumber=40 movecount=8 score=10`.
    #[arg(long, num_args = 1..=3, value_name = "SETTING")]
    draw: Option<Vec<String>>,
    /// Grace in milliseconds on every deadline before a time forfeit.
    #[arg(long, default_value_t = 100)]
    margin_ms: u64,
    /// PGN `Event` tag.
    #[arg(long, default_value = "Panoply match")]
    event: String,
    /// No progress line on stderr.
    #[arg(long)]
    quiet: bool,
    /// Play only part K/N of the schedule (K from 0 to N-1): unit u (a game pair, or a
    /// rotation of seats) goes to shard u mod N. Needs `--pgn`; merge the shards' PGN files
    /// with `panoply results`, which also runs the `--sprt` test (see docs/cluster.md).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
}

impl MatchArgs {
    pub fn run(self) -> Result<(), Failure> {
        // Settings first: a typo in them is reported before any engine file is read.
        let sprt = parse_settings("--sprt", self.sprt.as_deref(), SprtSettings::parse)?;
        let shard = match &self.shard {
            Some(text) => Shard::parse(text).map_err(|e| Failure(format!("--shard: {e}")))?,
            None => Shard::WHOLE,
        };
        if self.resume && self.pgn.is_none() {
            return Err(Failure(
                "--resume needs --pgn: the games played so far are read from its PGN file".into(),
            ));
        }
        if shard != Shard::WHOLE && self.pgn.is_none() {
            return Err(Failure(
                "--shard needs --pgn: a shard's games are merged from its PGN file".into(),
            ));
        }
        let mut engines = self
            .engines
            .iter()
            .map(|e| find_engine(e, self.engines_dir.as_deref()))
            .collect::<Result<Vec<_>, _>>()?;
        unique_names(&mut engines);
        let settings = MatchSettings {
            engines,
            book: self.read_book()?,
            openings: read_openings(&self.openings)?,
            sprt,
            adjudication: self.adjudication()?,
            control: self.control()?,
            variants: self.variants,
            mode: self.mode,
            games: self.games,
            margin: Duration::from_millis(self.margin_ms),
            concurrency: self.concurrency,
            book_plies: self.book_plies,
            seed: self.seed,
            max_plies: self.max_plies,
            pgn_out: self.pgn,
            resume: self.resume,
            event: self.event,
            progress: !self.quiet,
            verbose: true,
            shard,
        };
        let report = run_match(&settings)?;
        panoply::outln!();
        panoply::out!("{}", report.summary());
        if shard != Shard::WHOLE {
            panoply::outln!(
                "Shard {shard}: {} games of the schedule; merge every shard's PGN with `panoply results`",
                report.games.len()
            );
        }
        every_game_forfeited(&report.games)
    }

    /// The books given with `--book`, merged (None without any).
    fn read_book(&self) -> Result<Option<Book>, Failure> {
        let mut book: Option<Book> = None;
        for path in &self.book {
            let text = read_text(path)?;
            book.get_or_insert_with(Book::default)
                .add_text(&text, &path.display().to_string())?;
        }
        if let Some(book) = &book {
            self.warn_of_missing_variants(book);
        }
        Ok(book)
    }

    /// A book for other games is no error, but the user should know the openings are lost.
    fn warn_of_missing_variants(&self, book: &Book) {
        let known = book.variants();
        for v in self
            .variants
            .iter()
            .filter(|v| !known.contains(&v.to_ascii_lowercase()))
        {
            log::warn!(
                "the book has no entries for {v}: its games start from the initial position"
            );
        }
    }

    fn adjudication(&self) -> Result<Adjudication, Failure> {
        Ok(Adjudication {
            resign: parse_settings("--resign", self.resign.as_deref(), Resign::parse)?,
            draw: parse_settings("--draw", self.draw.as_deref(), Draw::parse)?,
        })
    }

    /// `--nodes` when given, else `--tc`.
    fn control(&self) -> Result<TimeControl, Failure> {
        match self.nodes {
            Some(0) => Err(Failure("--nodes must be at least 1".into())),
            Some(n) => Ok(TimeControl::Nodes(n)),
            None => Ok(TimeControl::parse(&self.tc)?),
        }
    }
}

/// A match whose every game ended in a forfeit measured nothing (an engine that cannot play
/// the variant, a wrong engine file): an error, so scripts notice.
fn every_game_forfeited(games: &[GameRecord]) -> Result<(), Failure> {
    let first = games.first();
    match first.filter(|_| games.iter().all(|g| forfeiting_seat(g).is_some())) {
        Some(g) => Err(Failure(format!(
            "every game of the match ended in a forfeit (game {}: {})",
            g.spec.number, g.reason
        ))),
        None => Ok(()),
    }
}

/// The opening suites given with `--openings`, merged (None without any).
fn read_openings(paths: &[PathBuf]) -> Result<Option<Suite>, Failure> {
    if paths.is_empty() {
        return Ok(None);
    }
    let mut suite = Suite::default();
    for path in paths {
        suite.add_text(&read_text(path)?, &path.display().to_string())?;
    }
    if suite.is_empty() {
        return Err(Failure("the opening suites hold no position".into()));
    }
    Ok(Some(suite))
}
