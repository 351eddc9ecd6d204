//! The evaluation flags of `search`, `selfplay` and `bench`: `--eval-file PATH` (a network
//! file) and `--no-nnue` (the classical evaluation even where a network exists).

use super::Failure;
use clap::Args;
use panoply::bitboard::BitSet;
use panoply::movegen::tables::Tables;
use panoply::nnue::EvalSettings;
use std::path::PathBuf;

#[derive(Args, Clone, Debug, Default)]
pub struct EvalArgs {
    /// Evaluate with this network file (refused if it cannot evaluate the variant).
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// Use the classical evaluation even where a network exists.
    #[arg(long)]
    pub no_nnue: bool,
}

impl EvalArgs {
    /// The evaluation settings for the variant of `t`; a bad or unfitting file is an error.
    pub fn settings<B: BitSet>(&self, t: &Tables<B>) -> Result<EvalSettings, Failure> {
        let mut settings = EvalSettings {
            use_nnue: !self.no_nnue,
            file: None,
        };
        if let Some(path) = &self.eval_file {
            let refused = |e| Failure(format!("{}: {e}", path.display()));
            settings
                .load_file(&path.to_string_lossy())
                .map_err(refused)?;
            // Here the variant is known: a file that cannot evaluate it is a mistake.
            if let Some(Err(e)) = settings.file_network(t) {
                return Err(refused(e));
            }
        }
        eprintln!("{}", settings.describe(t));
        Ok(settings)
    }
}
