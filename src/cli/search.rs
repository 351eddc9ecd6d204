//! `panoply search`: searches a position, printing a line per finished depth and the best
//! move.

use super::eval_args::EvalArgs;
use super::position::LineArgs;
use super::Failure;
use clap::Args;
use panoply::search::{Info, Limits, Score, SearchOptions, Searcher};
use panoply::with_tables;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[derive(Args)]
// Today's help gives `--fen` no text here and words `--moves` its own way; kept so that the
// help stays as it was (clap drops a doc comment's closing period, not a help string's).
#[command(mut_arg("fen", |a| a.help(None::<&str>)))]
#[command(mut_arg("moves", |a| a.help("Moves to play from the position first")))]
pub struct SearchArgs {
    #[command(flatten)]
    line: LineArgs,
    #[arg(long)]
    depth: Option<u32>,
    /// Time for the move in milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    #[command(flatten)]
    eval: EvalArgs,
}

impl SearchArgs {
    pub fn run(self) -> Result<(), Failure> {
        let options = SearchOptions {
            threads: self.threads,
            hash_mb: self.hash,
            multi_pv: 1,
        };
        let limits = Limits {
            depth: self.depth,
            movetime: self.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        with_tables!(&self.line.tables()?, t => {
            let game = self.line.game(t)?;
            let mut searcher = Searcher::new(t.clone(), options);
            searcher.set_eval(self.eval.settings(t)?);
            let stop = AtomicBool::new(false);
            let result = searcher.search(&game, &limits, &stop, &mut |i: &Info| {
                let pv: Vec<String> = i.pv.iter().map(|&m| game.format_move(m)).collect();
                panoply::outln!(
                    "depth {} seldepth {} score {} nodes {} time {} pv {}",
                    i.depth, i.seldepth, show(i.score), i.nodes, i.time.as_millis(), pv.join(" ")
                );
            });
            match result.best {
                Some(m) => panoply::outln!("bestmove {} ({})", game.format_move(m), show(result.score)),
                None => panoply::outln!("no legal move ({})", show(result.score)),
            }
        });
        Ok(())
    }
}

/// A score as the progress lines print it.
fn show(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    }
}
