//! What this build calls itself: name, version and the commit it was built from (built in by
//! `build.rs`), as `--version`, UCI's `id name` and XBoard's `myname` show it.

/// The commit's short hash, empty when the build had no git repository.
const COMMIT: &str = env!("PANOPLY_COMMIT");

/// `0.1.0 (abc1234)`, or `0.1.0` for a build without a commit.
pub fn version() -> String {
    let number = env!("CARGO_PKG_VERSION");
    if COMMIT.is_empty() {
        number.to_string()
    } else {
        format!("{number} ({COMMIT})")
    }
}

/// `Panoply 0.1.0 (abc1234)`: the engine's name for GUIs and tables.
pub fn engine_name() -> String {
    format!("Panoply {}", version())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_carries_the_version_and_the_commit_when_known() {
        let name = engine_name();
        assert!(name.starts_with(&format!("Panoply {}", env!("CARGO_PKG_VERSION"))));
        if !COMMIT.is_empty() {
            assert!(name.ends_with(&format!(" ({COMMIT})")), "{name}");
            assert!(COMMIT.chars().all(|c| c.is_ascii_hexdigit()), "{COMMIT}");
        }
    }
}
