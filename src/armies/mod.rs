//! Armies defined in a file (docs/armies.md): a TOML format for Chess-with-Different-Armies
//! armies, read with serde ([`schema`]), pieces in Fairy-Stockfish's Betza dialect
//! ([`betza`]), checked with errors that name file and line ([`army`], [`error`]), paired
//! into variants ([`pairing`]) and offered to the variant registry ([`source`]); strings
//! Betza's own notation reads otherwise are warned about ([`lopsided`]).

pub mod army;
pub mod betza;
pub mod error;
pub mod lopsided;
pub mod option;
pub mod pairing;
pub mod schema;
pub mod source;

pub use army::{parse_armies, Army};
pub use error::{ArmiesError, Problem};
pub use option::{set_armies_file, ARMIES_FILE};
pub use source::{
    builtin_armies, file_pairings, load_file, load_text, loaded_armies, loaded_files, BUILTIN_TOML,
};
