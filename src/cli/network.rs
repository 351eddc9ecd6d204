//! `panoply network`: what a network file is (family, size, base, training notes) and the
//! sha256 of its weights — the digest networks/MANIFEST.toml records and a rebuild is
//! checked against.

use super::Failure;
use clap::Args;
use panoply::nnue::format::{Base, Network};
use panoply::outln;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct NetworkArgs {
    /// Network files (`.nnue`), described one after the other.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

impl NetworkArgs {
    pub fn run(self) -> Result<(), Failure> {
        for file in &self.files {
            let net = Network::load(file).map_err(|e| Failure(e.to_string()))?;
            describe(file, &net);
        }
        Ok(())
    }
}

/// The file's name, then one indented `key value` line each: scripts read `weights sha256`.
fn describe(file: &Path, net: &Network) {
    let h = &net.header;
    outln!("{}", file.display());
    outln!("  family {}", h.family);
    outln!("  cells {}", h.cells);
    outln!("  pieces {}", h.catalog.entries.len());
    outln!("  hidden {}", h.hidden);
    let base = match h.base {
        Base::Nothing => "nothing (the network is the evaluation)",
        Base::Classical => "the classical evaluation",
    };
    outln!("  adds to {base}");
    outln!("  quantisation QA {} QB {} scale {}", h.qa, h.qb, h.scale);
    outln!("  weights sha256 {}", net.weights_sha256());
    outln!("  notes {}", h.notes);
}
