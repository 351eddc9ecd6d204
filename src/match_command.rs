//! `panoply match` and `panoply book` on the command line.

use clap::Args;
use panoply::tournament::book::Book;
use panoply::tournament::book_maker::{make_book, BookMakerSettings};
use panoply::tournament::engine_config::{resolve, EngineConfig};
use panoply::tournament::schedule::Mode;
use panoply::tournament::standings::format_table;
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
    /// Time control: 10+0.1, 40/60+0.5, st=0.2.
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
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
    let settings = MatchSettings {
        engines,
        variants: args.variants,
        mode: args.mode,
        games: args.games,
        control: TimeControl::parse(&args.tc).map_err(|e| e.to_string())?,
        margin: Duration::from_millis(args.margin_ms),
        concurrency: args.concurrency,
        book,
        book_plies: args.book_plies,
        seed: args.seed,
        max_plies: args.max_plies,
        pgn_out: args.pgn,
        event: args.event,
        progress: !args.quiet,
        verbose: true,
    };
    let report = run_match(&settings).map_err(|e| e.to_string())?;
    println!();
    print!("{}", format_table(&report.table));
    Ok(())
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
