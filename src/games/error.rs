//! What can be wrong with a variant name.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    Unknown(String),
    UnknownArmy {
        army: String,
        known: String,
    },
    Malformed(String),
    /// Two armies of an armies file that use one letter for different pieces.
    ArmiesClash {
        name: String,
        letter: char,
    },
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
            VariantError::ArmiesClash { name, letter } => write!(
                f,
                "{name}: the two armies use letter '{letter}' for different pieces"
            ),
            VariantError::Malformed(n) => write!(
                f,
                "malformed variant name '{n}' (expected cwda-<white>-<black>[-anypromo])"
            ),
        }
    }
}

impl std::error::Error for VariantError {}
