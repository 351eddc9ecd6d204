//! The game families and the registry of variant names.

pub mod aof5;
pub mod cwda;
pub mod cyclical;
pub mod hooks;
pub mod missionary;
pub mod swda;

use crate::variant::Variant;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    Unknown(String),
    UnknownArmy { army: String, known: String },
    Malformed(String),
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            VariantError::Unknown(n) => {
                write!(
                    f,
                    "unknown variant '{n}' (run `panoply variants` for the list)"
                )
            }
            VariantError::UnknownArmy { army, known } => {
                write!(f, "unknown army '{army}' (armies: {known})")
            }
            VariantError::Malformed(n) => write!(
                f,
                "malformed variant name '{n}' (expected cwda-<white>-<black>[-anypromo])"
            ),
        }
    }
}

impl std::error::Error for VariantError {}

/// Builds a variant from its name.
pub fn by_name(name: &str) -> Result<Variant, VariantError> {
    let name = name.trim().to_ascii_lowercase();
    if name == "chess" {
        let mut v = cwda::variant(cwda::Army::Fide, cwda::Army::Fide, false);
        v.name = "chess".into();
        return Ok(v);
    }
    match name.as_str() {
        "aof5" => return Ok(aof5::variant(false)),
        "aof5-raj" => return Ok(aof5::variant(true)),
        _ => {}
    }
    if let Some(rest) = name.strip_prefix("cwda-") {
        return cwda::parse_name(rest);
    }
    if name == "shatranj" {
        return Ok(swda::shatranj());
    }
    if let Some(rest) = name.strip_prefix("swda-") {
        return swda::parse_name(rest);
    }
    if name.starts_with("cyclical") {
        return cyclical::parse_name(&name);
    }
    if missionary::Subvariant::from_name(&name).is_some() {
        return missionary::by_name(&name);
    }
    Err(VariantError::Unknown(name))
}

/// Every variant name this build knows.
pub fn names() -> Vec<String> {
    let mut out = cwda::names();
    out.extend(swda::names());
    out.extend(cyclical::names());
    out.extend(aof5::names());
    out.extend(missionary::names());
    out
}
