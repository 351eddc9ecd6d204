//! The game families, each in a folder of its own with a descriptor
//! (`<family>/descriptor.rs`: names, game length, win/draw/loss fit, utility, bench
//! positions, suite, weights and networks), and the registry that lists them and builds a
//! variant from its name.

pub mod descriptor;
pub mod error;
pub mod registry;
pub mod utility;

/// Declares each family's module and lists the families in order, one line per family.
macro_rules! families {
    ($($(#[$attr:meta])* $family:ident,)*) => {
        $($(#[$attr])* pub mod $family;)*

        /// The built-in families, in the order variant lists and the bench show them.
        // One push per family, so that a family's line may carry an attribute (`#[cfg]`).
        #[allow(clippy::vec_init_then_push)]
        fn listed() -> Vec<crate::variant::Family> {
            let mut list = Vec::new();
            $($(#[$attr])* list.push($family::FAMILY);)*
            list
        }
    };
}

// The list: a new family adds its line here (docs/adding-a-family.md).
families! {
    cwda,
    swda,
    cyclical,
    aof5,
    missionary,
    #[cfg(test)]
    toy,
}

pub use descriptor::{of as describe, FamilyDescriptor, GameLength, WdlFit};
pub use error::VariantError;
pub use registry::{add_source, by_name, families, family_named, names, tables, VariantSource};
