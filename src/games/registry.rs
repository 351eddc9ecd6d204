//! The registry of variant names: the one way in from a name to a variant, for the built-in
//! families and for sources added at run time.

use super::error::VariantError;
use super::{aof5, cwda, cyclical, missionary, swda};
use crate::game::AnyTables;
use crate::variant::Variant;
use std::sync::{Arc, PoisonError, RwLock};

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

fn built_in(name: &str) -> Result<Variant, VariantError> {
    let name = name.to_string();
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

/// Every variant name known: the built-in ones, then those of the added sources.
pub fn names() -> Vec<String> {
    let mut out = cwda::names();
    out.extend(swda::names());
    out.extend(cyclical::names());
    out.extend(aof5::names());
    out.extend(missionary::names());
    for source in added() {
        out.extend(source.names());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
