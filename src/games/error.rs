//! What can be wrong with a variant name.

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
