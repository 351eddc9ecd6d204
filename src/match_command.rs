//! `panoply match` and `panoply book` on the command line.

use clap::Args;
use panoply::tournament::adjudication::{Adjudication, Draw, Resign};
use panoply::tournament::book::Book;
use panoply::tournament::book_maker::{make_book, BookMakerSettings};
use panoply::tournament::engine_config::{resolve, EngineConfig};
use panoply::tournament::openings::Suite;
use panoply::tournament::schedule::Mode;
use panoply::tournament::sprt::SprtSettings;
use panoply::tournament::standings::format_table;
use panoply::tournament::suite_maker::{make_suite, SuiteSettings};
use panoply::tournament::time_control::TimeControl;
use panoply::tournament::{run_match, MatchSettings};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
pub struct MatchArgs {
    /// Engine definition files (or names looked up as engines/<name>.engine); two or more.
    #[arg(required = true, num_args = 2..)]
    pub engines: Vec<String>,
    /// Variant to play (repeatable; every pair plays every variant).
    #[arg(long = "variant", default_value = "chess")]
    pub variants: Vec<String>,
    /// Games per pair of engines and variant (colours alternate).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Time control: 10+0.1, 40/60+0.5, st=0.2, nodes=20000.
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// A fixed number of nodes per move instead of a clock (same as `--tc nodes=N`): results
    /// that do not depend on the machine's load.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Opening suite: one position string per line, optionally preceded by its variant's
    /// name (repeatable). Each opening is played twice, colours swapped; replaces `--book`.
    #[arg(long)]
    pub openings: Vec<PathBuf>,
    /// Sequential probability ratio test on game pairs of the two engines, e.g.
    /// `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic`; the match stops when it
    /// decides. `model=logistic` (the default, the meaning of every earlier test's bounds) or
    /// `model=normalized` (fishtest's normalised Elo); see docs/sprt.md.
    #[arg(long, num_args = 1..=5, value_name = "SETTING")]
    pub sprt: Option<Vec<String>>,
    /// roundrobin or gauntlet (the first engine against each of the others).
    #[arg(long, default_value = "roundrobin")]
    pub mode: Mode,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Opening book file (see book/README.md); repeatable, the books are merged.
    #[arg(long)]
    pub book: Vec<PathBuf>,
    /// The longest opening line taken from the book, in plies.
    #[arg(long, default_value_t = 8)]
    pub book_plies: usize,
    /// Seed for the opening choice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Append the games to this PGN file.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Adjudicate a draw after this many plies.
    #[arg(long)]
    pub max_plies: Option<usize>,
    /// Give a two-player game to the winner when both engines agree: the last `movecount`
    /// scores of each are beyond `score` centipawns, e.g. `--resign movecount=3 score=600`.
    #[arg(long, num_args = 1..=2, value_name = "SETTING")]
    pub resign: Option<Vec<String>>,
    /// Draw a two-player game from move `movenumber` on when both engines' last `movecount`
    /// scores are within `score` centipawns, e.g. `--draw movenumber=40 movecount=8 score=10`.
    #[arg(long, num_args = 1..=3, value_name = "SETTING")]
    pub draw: Option<Vec<String>>,
    /// Grace in milliseconds on every deadline before a time forfeit.
    #[arg(long, default_value_t = 100)]
    pub margin_ms: u64,
    /// PGN `Event` tag.
    #[arg(long, default_value = "Panoply match")]
    pub event: String,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run_match_command(args: MatchArgs) -> Result<(), String> {
    let mut engines: Vec<EngineConfig> = args
        .engines
        .iter()
        .map(|e| EngineConfig::load(&resolve(e)).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    panoply::tournament::unique_names(&mut engines);
    let mut book: Option<Book> = None;
    for path in &args.book {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        book.get_or_insert_with(Book::default)
            .add_text(&text, &path.display().to_string())
            .map_err(|e| e.to_string())?;
    }
    if let Some(book) = &book {
        // A book for other games is no error, but the user should know the openings are lost.
        let known = book.variants();
        for v in args
            .variants
            .iter()
            .filter(|v| !known.contains(&v.to_ascii_lowercase()))
        {
            log::warn!(
                "the book has no entries for {v}: its games start from the initial position"
            );
        }
    }
    let openings = read_openings(&args.openings)?;
    let sprt = args
        .sprt
        .as_deref()
        .map(SprtSettings::parse)
        .transpose()
        .map_err(|e| format!("--sprt: {e}"))?;
    let adjudication = Adjudication {
        resign: args
            .resign
            .as_deref()
            .map(Resign::parse)
            .transpose()
            .map_err(|e| format!("--resign: {e}"))?,
        draw: args
            .draw
            .as_deref()
            .map(Draw::parse)
            .transpose()
            .map_err(|e| format!("--draw: {e}"))?,
    };
    let control = match args.nodes {
        Some(0) => return Err("--nodes must be at least 1".into()),
        Some(n) => TimeControl::Nodes(n),
        None => TimeControl::parse(&args.tc).map_err(|e| e.to_string())?,
    };
    let settings = MatchSettings {
        engines,
        variants: args.variants,
        mode: args.mode,
        games: args.games,
        control,
        margin: Duration::from_millis(args.margin_ms),
        concurrency: args.concurrency,
        book,
        openings,
        sprt,
        book_plies: args.book_plies,
        seed: args.seed,
        max_plies: args.max_plies,
        adjudication,
        pgn_out: args.pgn,
        event: args.event,
        progress: !args.quiet,
        verbose: true,
    };
    let report = run_match(&settings).map_err(|e| e.to_string())?;
    println!();
    print!("{}", format_table(&report.table));
    if let Some(pairs) = &report.pairs {
        print!("{}", pairs.summary());
    }
    Ok(())
}

/// The opening suites given with `--openings`, merged (None without any).
fn read_openings(paths: &[PathBuf]) -> Result<Option<Suite>, String> {
    if paths.is_empty() {
        return Ok(None);
    }
    let mut suite = Suite::default();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        suite
            .add_text(&text, &path.display().to_string())
            .map_err(|e| e.to_string())?;
    }
    if suite.is_empty() {
        return Err("the opening suites hold no position".into());
    }
    Ok(Some(suite))
}

#[derive(Args)]
pub struct BookArgs {
    /// Variant (repeatable).
    #[arg(long = "variant", required = true)]
    pub variants: Vec<String>,
    /// Depth of the book tree in plies.
    #[arg(long, default_value_t = 4)]
    pub plies: usize,
    /// Moves analysed per position (MultiPV).
    #[arg(long, default_value_t = 2)]
    pub multipv: usize,
    /// Search depth per position (reproducible books).
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Also stop each search after this many milliseconds.
    #[arg(long)]
    pub movetime_ms: Option<u64>,
    /// Keep moves within this many centipawns of the best.
    #[arg(long, default_value_t = 25)]
    pub margin: i32,
    /// Write the book here (default: stdout).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn run_book_command(args: BookArgs) -> Result<(), String> {
    let settings = BookMakerSettings {
        variants: args.variants,
        plies: args.plies,
        multipv: args.multipv,
        depth: Some(args.depth),
        movetime: args.movetime_ms.map(Duration::from_millis),
        margin: args.margin,
    };
    let book = make_book(&settings, &|line| eprintln!("{line}"))?;
    let header = format!(
        "# Generated by `panoply book --plies {} --multipv {} --depth {}{} --margin {}`\n\
         # (Panoply's own search). Format: book/README.md\n",
        settings.plies,
        settings.multipv,
        args.depth,
        args.movetime_ms
            .map_or(String::new(), |m| format!(" --movetime-ms {m}")),
        settings.margin
    );
    let text = header + &book.to_text();
    match args.out {
        Some(p) => std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display())),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

#[derive(Args)]
pub struct OpeningsArgs {
    /// Variant (repeatable: one suite per variant, in this order).
    #[arg(long = "variant", required = true)]
    pub variants: Vec<String>,
    /// Positions per variant.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// Random plies per line: `N` or `MIN..MAX`.
    #[arg(long, default_value = "6..10")]
    pub plies: String,
    /// Keep positions scored within this many centipawns of level.
    #[arg(long, default_value_t = 60)]
    pub max_eval: i32,
    /// Search depth per position.
    #[arg(long, default_value_t = 5)]
    pub depth: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the suite here (default: stdout).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

fn ply_range(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("bad ply range '{text}' (expected N or MIN..MAX)");
    let num = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
    match text.split_once("..") {
        Some((a, b)) => Ok((num(a)?, num(b)?)),
        None => num(text).map(|n| (n, n)),
    }
}

pub fn run_openings_command(args: OpeningsArgs) -> Result<(), String> {
    let plies = ply_range(&args.plies)?;
    let mut text = format!(
        "# Made by `panoply openings --plies {} --max-eval {} --depth {} --seed {} --count {}`:\n\
         # random lines kept when Panoply's search calls them level. One position per line.\n",
        args.plies, args.max_eval, args.depth, args.seed, args.count
    );
    for (i, variant) in args.variants.iter().enumerate() {
        let settings = SuiteSettings {
            variant: variant.clone(),
            count: args.count,
            plies,
            max_eval: args.max_eval,
            depth: args.depth,
            seed: args.seed.wrapping_add(i as u64 * 0x9E37_79B9),
            max_tries: args.count.saturating_mul(50).max(1000),
        };
        for line in make_suite(&settings, &|line| eprintln!("{line}"))? {
            text.push_str(&line);
            text.push('\n');
        }
    }
    match args.out {
        Some(p) => std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display())),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}
