//! `panoply show`: a board diagram, the position string and the legal moves of a position.

use super::position::LineArgs;
use super::Failure;
use clap::Args;
use panoply::movegen::{legal_moves, notation::format_move};
use panoply::position::{display::diagram, fen};
use panoply::with_tables;

#[derive(Args)]
// Today's help gives `--fen` no text here; kept so that the help stays as it was.
#[command(mut_arg("fen", |a| a.help(None::<&str>)))]
pub struct ShowArgs {
    #[command(flatten)]
    line: LineArgs,
}

impl ShowArgs {
    pub fn run(self) -> Result<(), Failure> {
        with_tables!(&self.line.tables()?, t => {
            let pos = self.line.game(t)?.pos;
            panoply::out!("{}", diagram(t, &pos));
            panoply::outln!("{}", fen::format(t, &pos));
            let mut moves: Vec<String> =
                legal_moves(t, &pos).iter().map(|&m| format_move(t, m)).collect();
            moves.sort();
            panoply::outln!("{} legal moves: {}", moves.len(), moves.join(" "));
        });
        Ok(())
    }
}
