//! `panoply variants`: every variant name this build knows, one a line.

use super::Failure;
use clap::Args;

#[derive(Args)]
pub struct VariantsArgs {}

impl VariantsArgs {
    pub fn run(self) -> Result<(), Failure> {
        panoply::games::names().iter().for_each(|n| println!("{n}"));
        Ok(())
    }
}
