//! The position arguments the subcommands share, declared once: the variant, a position
//! string (`--fen`) and, where a subcommand plays a line first, `--moves`.

use super::Failure;
use clap::Args;
use panoply::bitboard::BitSet;
use panoply::game::{AnyTables, Game};
use panoply::games;
use panoply::movegen::tables::Tables;
use std::sync::Arc;

/// The game and the position to start from.
#[derive(Args, Debug)]
pub struct PositionArgs {
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// Position string (default: the variant's start position).
    #[arg(long)]
    pub fen: Option<String>,
    // Planned: an `--armies` file option (armies defined in a file, for the variant) belongs
    // here, declared once for every subcommand that takes a position.
}

impl PositionArgs {
    /// The variant's tables, or an error naming the unknown variant.
    pub fn tables(&self) -> Result<AnyTables, Failure> {
        Ok(games::tables(&self.variant)?)
    }

    /// A game at the given position string, or at the variant's start position.
    pub fn game<B: BitSet>(&self, t: &Arc<Tables<B>>) -> Result<Game<B>, Failure> {
        let text = self.fen.as_deref().unwrap_or(&t.variant.start_position);
        Game::from_position_string(t.clone(), text)
            .map_err(|e| Failure(format!("bad position string: {e}")))
    }
}

/// A position and the moves to play from it before the subcommand starts.
#[derive(Args, Debug)]
pub struct LineArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves to play first, separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
}

impl LineArgs {
    pub fn tables(&self) -> Result<AnyTables, Failure> {
        self.position.tables()
    }

    /// The game after the moves, or an error naming the first move that is not legal.
    pub fn game<B: BitSet>(&self, t: &Arc<Tables<B>>) -> Result<Game<B>, Failure> {
        let mut game = self.position.game(t)?;
        for mv in self.moves.split_whitespace() {
            game.play_str(mv)?;
        }
        Ok(game)
    }
}
