//! The protocols' `ArmiesFile` option (UCI, XBoard): loads armies files into a running
//! engine, as Fairy-Stockfish's `VariantPath` does; several paths are separated by `;`.

use super::source::load_file;

/// The option's name in both protocols.
pub const ARMIES_FILE: &str = "ArmiesFile";

/// Loads the files at `paths` (`a.toml;b.toml`; empty or `<empty>`: nothing to load), in
/// order, and says what they added, in one line for `info string` or a log. Each file is
/// loaded whole or not at all; on an error the files before it stay loaded, and the error
/// names file, line and problem.
pub fn set_armies_file(paths: &str) -> Result<String, String> {
    let paths: Vec<&str> = paths
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty() && *p != "<empty>")
        .collect();
    if paths.is_empty() {
        return Ok("no armies file given; the armies stay as they are".into());
    }
    let mut reports = Vec::new();
    for path in paths {
        let added = load_file(path).map_err(|e| e.to_string())?;
        reports.push(if added.is_empty() {
            format!("armies file {path}: no new armies")
        } else {
            format!("armies file {path}: added {}", added.join(", "))
        });
    }
    Ok(format!(
        "{}; a GUI lists the new variants after it restarts the engine with --armies",
        reports.join("; ")
    ))
}
