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
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let result = match Cli::parse().command {
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
