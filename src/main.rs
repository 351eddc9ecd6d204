//! The `panoply` binary: runs a subcommand (each in [`cli`]), or without one speaks UCI or
//! XBoard on stdin/stdout.

mod cli;

use clap::Parser;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::LazyLock;

/// `0.1.0 (abc1234)`: what `--version` prints after the name.
static VERSION: LazyLock<String> = LazyLock::new(panoply::version::version);

/// Without a subcommand, panoply speaks UCI or XBoard on stdin/stdout (the first command,
/// `uci` or `xboard`, decides).
#[derive(Parser)]
#[command(
    name = "panoply",
    display_name = "Panoply",
    version = VERSION.as_str(),
    about = "A chess-variant engine for chess with different armies"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<cli::Command>,
    /// An armies file (docs/armies.md) whose armies join the built-in ones, for every command
    /// and for engine mode; repeatable, the files' armies must not clash.
    #[arg(long, global = true, value_name = "FILE")]
    armies: Vec<String>,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    for file in &cli.armies {
        if let Err(e) = panoply::armies::load_file(file) {
            eprintln!("panoply: {e}");
            return ExitCode::from(2);
        }
    }
    let result = match cli.command {
        Some(command) => command.run(),
        None => {
            greet();
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

/// One line for a person who started the engine in a terminal, where silence looks like a
/// hang. On stderr, so stdout stays protocol only even when a terminal user pipes it; never
/// when stdin is a pipe, as a GUI starts the engine.
fn greet() {
    if std::io::stdin().is_terminal() {
        eprintln!(
            "{}, a chess-variant engine: type `uci` or `xboard` to talk to it as a GUI does, \
             `quit` to leave; `panoply --help` lists the commands",
            panoply::version::engine_name()
        );
    }
}
