//! The registry of families and variant names: the list of the built-in families (the one
//! line a new family adds), and the one way in from a name to a variant, for those families
//! and for sources added at run time.

use super::describe;
use super::error::VariantError;
use crate::game::AnyTables;
use crate::variant::{Family, Variant};
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

/// The built-in families, in the registry's order (the list in `games/mod.rs`).
pub fn families() -> impl Iterator<Item = Family> {
    static LISTED: OnceLock<Vec<Family>> = OnceLock::new();
    LISTED.get_or_init(super::listed).iter().copied()
}

/// The family whose id (or one of its older names) is `name`, in any case.
pub fn family_named(name: &str) -> Option<Family> {
    let name = name.trim().to_ascii_lowercase();
    families().find(|&f| f.id() == name || describe(f).aliases.contains(&name.as_str()))
}

/// Variants that a source added at run time knows, besides the built-in ones.
static ADDED: RwLock<Vec<Arc<dyn VariantSource>>> = RwLock::new(Vec::new());

/// A source of variants beyond the built-in families (an armies file), added at run time.
pub trait VariantSource: Send + Sync {
    /// The variant called `name` (trimmed, lower case), or `None` when this source has none.
    fn build(&self, name: &str) -> Option<Result<Variant, VariantError>>;
    /// Every variant name this source knows.
    fn names(&self) -> Vec<String>;
}

/// Adds a source; its names are known from now on, after the built-in ones.
pub fn add_source(source: Arc<dyn VariantSource>) {
    ADDED
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .push(source);
}

fn added() -> Vec<Arc<dyn VariantSource>> {
    ADDED.read().unwrap_or_else(PoisonError::into_inner).clone()
}

/// Builds a variant from its name: the one way in from a name, for every command, protocol
/// and the browser board.
pub fn by_name(name: &str) -> Result<Variant, VariantError> {
    let name = name.trim().to_ascii_lowercase();
    // A name the built-in families refuse (`cwda-` with an army of a file, say) may be an
    // added source's; when none knows it, the built-in error says best what is wrong.
    built_in(&name).or_else(|refusal| {
        added()
            .iter()
            .find_map(|source| source.build(&name))
            .unwrap_or(Err(refusal))
    })
}

/// The variant's tables, of the width its board needs.
pub fn tables(name: &str) -> Result<AnyTables, VariantError> {
    by_name(name).map(AnyTables::new)
}

/// The variant of the first built-in family that knows the name.
fn built_in(name: &str) -> Result<Variant, VariantError> {
    families()
        .find_map(|f| (describe(f).parse)(name))
        .unwrap_or_else(|| Err(VariantError::Unknown(name.to_string())))
}

/// Every variant name known: the built-in families' in the registry's order, then those of
/// the added sources.
pub fn names() -> Vec<String> {
    let mut out: Vec<String> = families().flat_map(|f| (describe(f).names)()).collect();
    for source in added() {
        out.extend(source.names());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::FamilyDescriptor;

    /// A source that knows one name: chess under another name.
    struct Renamed;

    impl VariantSource for Renamed {
        fn build(&self, name: &str) -> Option<Result<Variant, VariantError>> {
            (name == "registry-test-chess").then(|| {
                built_in("chess").map(|mut v| {
                    v.name = name.to_string();
                    v
                })
            })
        }

        fn names(&self) -> Vec<String> {
            vec!["registry-test-chess".into()]
        }
    }

    #[test]
    fn every_family_has_a_descriptor_a_unique_id_and_builds_its_own_names() {
        let ids: Vec<&str> = families().map(|f| f.id()).collect();
        let shipped = ["cwda", "swda", "cyclical", "aof5", "missionary"];
        assert_eq!(ids[..shipped.len()], shipped);
        let unique: std::collections::BTreeSet<_> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len(), "{ids:?}");
        for family in families() {
            let descriptor = family.data::<FamilyDescriptor>();
            assert!(descriptor.is_some(), "{family} has no descriptor");
            let names = (describe(family).names)();
            assert!(!names.is_empty(), "{family} names no variant");
            for name in names {
                let v = by_name(&name).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!((v.name.as_str(), v.family), (name.as_str(), family));
            }
        }
        // The old name of Armies of Faith in network headers still finds it.
        assert_eq!(
            family_named(" ArmiesOfFaith "),
            Some(super::super::aof5::FAMILY)
        );
        assert_eq!(family_named("swda"), Some(super::super::swda::FAMILY));
        assert_eq!(family_named("nosuch"), None);
    }

    #[test]
    fn added_sources_are_asked_after_the_built_in_families() {
        assert!(matches!(
            by_name("cwda-fide-nosuch"),
            Err(VariantError::UnknownArmy { .. })
        ));
        add_source(Arc::new(Renamed));
        let v = by_name(" Registry-Test-Chess ").expect("the added source knows it");
        assert_eq!(v.name, "registry-test-chess");
        assert!(names().contains(&"registry-test-chess".to_string()));
        assert!(names().contains(&"chess".to_string()));
        // Names nobody knows keep the built-in families' error.
        assert_eq!(
            by_name("nosuch").unwrap_err(),
            VariantError::Unknown("nosuch".into())
        );
    }
}
