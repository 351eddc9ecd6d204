//! The subcommands of the `panoply` binary, one file each: every one an `Args` struct that
//! clap fills and a `run` that does the work through the library. The position arguments
//! they share are declared once, in [`position`].

mod bench;
mod book;
mod datagen;
mod eval_args;
mod label;
mod match_cmd;
mod network;
mod openings;
mod perft;
mod position;
mod results;
mod search;
mod selfplay;
mod serve;
mod shell;
mod show;
mod train;
mod tune;
mod variants;

use clap::Subcommand;
use std::fmt::Display;
use std::path::Path;

#[derive(Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree.
    Perft(perft::PerftArgs),
    /// Print a board diagram and the legal moves.
    Show(show::ShowArgs),
    /// List every variant name this build knows.
    Variants(variants::VariantsArgs),
    /// Play games between engine copies (any variant) and summarise how they ended.
    Selfplay(selfplay::SelfplayArgs),
    /// Measure perft and search speed on fixed positions of every supported game.
    Bench(bench::BenchArgs),
    /// Search a position and print the progress and the best move.
    Search(search::SearchArgs),
    /// A text shell for humans: moves, diagrams, engine moves (for 3D and four-player games).
    Shell(shell::ShellArgs),
    /// Run a tournament between engines, refereed by Panoply's rules.
    Match(match_cmd::MatchArgs),
    /// Build an opening book from an engine's analysis.
    Book(book::BookArgs),
    /// Generate a balanced opening suite for testing (positions a shallow search calls level).
    Openings(openings::OpeningsArgs),
    /// Fit the evaluation's weights to recorded positions (Texel tuning); prints a weight file.
    Tune(tune::TuneArgs),
    /// Fit an NNUE network to recorded self-play positions; writes a network file.
    Train(train::TrainArgs),
    /// Describe network files: family, size, base, notes and the sha256 of their weights.
    Network(network::NetworkArgs),
    /// Replace the scores of recorded positions with another engine's (for `tune --lambda 0`).
    Label(label::LabelArgs),
    /// A board in the browser for every game: serves a page on 127.0.0.1 and prints its address.
    Serve(serve::ServeArgs),
    /// Generate training data for the NNUE (self-play records), or summarise data files.
    Datagen(datagen::DatagenArgs),
    /// The end-of-match report from match PGN files: merges the shards of a sharded match.
    Results(results::ResultsArgs),
}

impl Command {
    pub fn run(self) -> Result<(), Failure> {
        match self {
            Command::Perft(args) => args.run(),
            Command::Show(args) => args.run(),
            Command::Variants(args) => args.run(),
            Command::Selfplay(args) => args.run(),
            Command::Bench(args) => args.run(),
            Command::Search(args) => args.run(),
            Command::Shell(args) => args.run(),
            Command::Match(args) => args.run(),
            Command::Book(args) => args.run(),
            Command::Openings(args) => args.run(),
            Command::Tune(args) => args.run(),
            Command::Train(args) => args.run(),
            Command::Network(args) => args.run(),
            Command::Label(args) => args.run(),
            Command::Serve(args) => args.run(),
            Command::Datagen(args) => args.run(),
            Command::Results(args) => args.run(),
        }
    }
}

/// A user-facing failure: printed as one line on stderr, exit code 2.
#[derive(Debug)]
pub struct Failure(pub String);

impl<E: Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(e.to_string())
    }
}

/// The `SETTING` words of an optional flag, read by `parse`; an error names the flag.
fn parse_settings<T, E: Display>(
    flag: &str,
    words: Option<&[String]>,
    parse: impl Fn(&[String]) -> Result<T, E>,
) -> Result<Option<T>, Failure> {
    words
        .map(parse)
        .transpose()
        .map_err(|e| Failure(format!("{flag}: {e}")))
}

/// A file's text, or an error naming the file.
fn read_text(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure(format!("{}: cannot read: {e}", path.display())))
}

/// Writes a subcommand's output to the `--out` file, or to stdout without one.
fn write_text(out: Option<&Path>, text: &str) -> Result<(), Failure> {
    match out {
        Some(p) => std::fs::write(p, text).map_err(|e| Failure(format!("{}: {e}", p.display()))),
        None => {
            panoply::out!("{text}");
            Ok(())
        }
    }
}
