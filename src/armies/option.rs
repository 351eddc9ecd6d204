//! The protocols' `ArmiesFile` option (UCI, XBoard): loads an armies file into a running
//! engine, as Fairy-Stockfish's `VariantPath` does.

use super::source::load_file;

/// The option's name in both protocols.
pub const ARMIES_FILE: &str = "ArmiesFile";

/// Loads the file at `path` (empty or `<empty>`: nothing to load) and says what it added, in
/// one line for `info string` or a log; on error the armies known before stay and the error
/// names file, line and problem.
pub fn set_armies_file(path: &str) -> Result<String, String> {
    let path = path.trim();
    if path.is_empty() || path == "<empty>" {
        return Ok("no armies file given; the armies stay as they are".into());
    }
    let added = load_file(path).map_err(|e| e.to_string())?;
    Ok(if added.is_empty() {
        format!("armies file {path}: no new armies")
    } else {
        format!(
            "armies file {path}: added {}; a GUI lists the new variants after it restarts the engine with --armies",
            added.join(", ")
        )
    })
}
