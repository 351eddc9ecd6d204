//! `panoply variants`: every variant name this build knows, one a line; with `--explain`,
//! what the loaded armies files define and what in them deserves a second look.

use super::Failure;
use clap::Args;
use panoply::armies::{loaded_armies, lopsided};
use panoply::outln;

#[derive(Args)]
pub struct VariantsArgs {
    /// Instead of the names: each army of the `--armies` files with its pieces, the squares
    /// each reaches from d4, and warnings for Betza strings read otherwise than Betza meant.
    #[arg(long)]
    explain: bool,
}

impl VariantsArgs {
    pub fn run(self) -> Result<(), Failure> {
        if !self.explain {
            panoply::games::names().iter().for_each(|n| outln!("{n}"));
            return Ok(());
        }
        let armies = loaded_armies();
        if armies.is_empty() {
            outln!("no armies file loaded (give one with --armies FILE)");
        }
        for army in &armies {
            let o = &army.origin;
            outln!(
                "army {} ({}), {}:{}",
                army.code,
                army.name,
                o.file,
                o.code_line
            );
            for (i, p) in army.pieces.iter().enumerate() {
                let betza = p.betza.as_deref().unwrap_or("");
                let reach = lopsided::reach(betza).unwrap_or_default();
                outln!(
                    "  {} {} {betza} (line {}): from d4 {reach}",
                    p.token,
                    p.name,
                    army.piece_line(i)
                );
            }
            outln!("  setup {}", army.setup.iter().collect::<String>());
            for warning in lopsided::warnings(army) {
                outln!("  warning: {warning}");
            }
        }
        Ok(())
    }
}
