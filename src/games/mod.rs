//! The game families, and the registry that builds a variant from its name.

pub mod aof5;
pub mod cwda;
pub mod cyclical;
pub mod error;
pub mod missionary;
pub mod registry;
pub mod swda;
pub mod utility;

pub use error::VariantError;
pub use registry::{add_source, by_name, names, tables, VariantSource};
