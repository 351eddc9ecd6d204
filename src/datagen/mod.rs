//! Training data for the NNUE: self-play games generated fast on every core
//! ([`generate`]), stored compactly one binary record per game ([`record`], `.pgd` files that
//! concatenate), and streamed back as positions ([`reader`]) through a [`filter`] decided at
//! read time; [`origins`] checks the files of many runs for games played twice. The format
//! and the commands are described in `docs/datagen.md`.

pub mod filter;
pub mod generate;
pub mod origins;
pub mod reader;
pub mod record;

pub use filter::Filter;
pub use reader::{read_positions, DataError, ReadSummary, TrainingPosition};
