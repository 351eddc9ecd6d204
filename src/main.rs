//! The `panoply` binary: runs a subcommand (each in [`cli`]), or without one speaks UCI or
//! XBoard on stdin/stdout.

mod cli;

use clap::Parser;
use std::process::ExitCode;

/// Without a subcommand, panoply speaks UCI or XBoard on stdin/stdout (the first command,
/// `uci` or `xboard`, decides).
#[derive(Parser)]
#[command(
    name = "panoply",
    version,
    about = "A chess-variant engine for chess with different armies"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<cli::Command>,
    /// An armies file (docs/armies.md) whose armies join the built-in ones, for every command
    /// and for engine mode.
    #[arg(long, global = true, value_name = "FILE")]
    armies: Option<String>,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    if let Some(file) = &cli.armies {
        if let Err(e) = panoply::armies::load_file(file) {
            eprintln!("panoply: {e}");
            return ExitCode::from(2);
        }
    }
    let result = match cli.command {
        Some(command) => command.run(),
        None => {
            panoply::protocol::run();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(cli::Failure(msg)) => {
            eprintln!("panoply: {msg}");
            ExitCode::from(2)
        }
    }
}
