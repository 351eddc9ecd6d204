//! The registry's source of the pairings that armies files add: every loaded army against
//! every built-in army and every other loaded army, both colours, as `cwda-<white>-<black>`.
//! Armies whose letters clash are refused at load, so every pair meets.

use super::army::{parse_armies, Army};
use super::error::{ArmiesError, Problem};
use super::pairing;
use crate::games::{self, VariantError, VariantSource};
use crate::variant::Variant;
use std::sync::{Arc, Once, PoisonError, RwLock};

/// The four built-in armies written as an armies file (also what the tests compare).
pub const BUILTIN_TOML: &str = include_str!("../../armies/builtin.toml");

/// Armies loaded from files so far, in load order.
static LOADED: RwLock<Vec<Army>> = RwLock::new(Vec::new());
/// The files they came from, as given, in load order.
static FILES: RwLock<Vec<String>> = RwLock::new(Vec::new());
static REGISTER: Once = Once::new();

/// The built-in armies as data (from [`BUILTIN_TOML`]).
pub fn builtin_armies() -> Vec<Army> {
    parse_armies("armies/builtin.toml", BUILTIN_TOML).expect("the shipped builtin.toml reads")
}

/// The armies loaded from files so far, in load order.
pub fn loaded_armies() -> Vec<Army> {
    LOADED
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

/// The armies files loaded so far, as they were given, in load order.
pub fn loaded_files() -> Vec<String> {
    FILES.read().unwrap_or_else(PoisonError::into_inner).clone()
}

/// Reads, checks and adds the armies of the file at `path`; on any error nothing is added
/// and the armies known before stay. Returns the codes added.
pub fn load_file(path: &str) -> Result<Vec<String>, ArmiesError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ArmiesError::new(path, 0, Problem::Unreadable(e.to_string())))?;
    let added = load_text(path, &text)?;
    let mut files = FILES.write().unwrap_or_else(PoisonError::into_inner);
    if !files.iter().any(|f| f == path) {
        files.push(path.to_string());
    }
    Ok(added)
}

/// As [`load_file`], from the file's text.
pub fn load_text(file: &str, text: &str) -> Result<Vec<String>, ArmiesError> {
    let armies = parse_armies(file, text)?;
    let builtin = builtin_armies();
    let mut known = loaded_armies();
    let mut added = Vec::new();
    for army in armies {
        if known.contains(&army) {
            continue; // the same army loaded again (the same file set twice)
        }
        check_against(&army, &builtin, &known)?;
        for warning in super::lopsided::warnings(&army) {
            log::warn!("{warning}");
        }
        added.push(army.code.clone());
        known.push(army);
    }
    *LOADED.write().unwrap_or_else(PoisonError::into_inner) = known;
    REGISTER.call_once(|| games::add_source(Arc::new(FileArmies)));
    Ok(added)
}

/// A new army's code must be new, and each of its letters must mean the same piece in every
/// army it may meet: a built-in one or one loaded before (of this file or another). The
/// error points at the line of the code or the clashing piece, and names the other army's.
fn check_against(army: &Army, builtin: &[Army], known: &[Army]) -> Result<(), ArmiesError> {
    let at = |line, problem| ArmiesError::new(army.origin.file.clone(), line, problem);
    if let Some(other) = builtin.iter().chain(known).find(|b| b.code == army.code) {
        let mut why = format!("'{}' is already an army's code", army.code);
        if !other.origin.file.is_empty() && !builtin.contains(other) {
            why += &format!(" ({}:{})", other.origin.file, other.origin.code_line);
        }
        return Err(at(army.origin.code_line, Problem::BadCode(why)));
    }
    if let Some((other, clash)) = builtin.iter().find_map(|b| army.clash(b).map(|c| (b, c))) {
        return Err(at(
            army.piece_line(clash.mine),
            Problem::LetterCollision {
                letter: clash.letter,
                army: army.code.clone(),
                other: other.code.clone(),
            },
        ));
    }
    if let Some((other, clash)) = known.iter().find_map(|b| army.clash(b).map(|c| (b, c))) {
        return Err(at(
            army.piece_line(clash.mine),
            Problem::LetterClash {
                letter: clash.letter,
                army: army.code.clone(),
                other: other.code.clone(),
                other_file: other.origin.file.clone(),
                other_line: other.piece_line(clash.theirs),
            },
        ));
    }
    Ok(())
}

/// The registry's view of the loaded armies.
struct FileArmies;

impl FileArmies {
    /// Every (white, black) pair with at least one loaded army.
    fn pairs() -> Vec<(Army, Army)> {
        let loaded = loaded_armies();
        let all: Vec<Army> = builtin_armies().into_iter().chain(loaded.clone()).collect();
        let mut out = Vec::new();
        for w in &all {
            for b in &all {
                if loaded.contains(w) || loaded.contains(b) {
                    out.push((w.clone(), b.clone()));
                }
            }
        }
        out
    }
}

impl VariantSource for FileArmies {
    fn build(&self, name: &str) -> Option<Result<Variant, VariantError>> {
        let rest = name.strip_prefix("cwda-")?;
        let (rest, any) = match rest.strip_suffix("-anypromo") {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let (w, b) = Self::pairs()
            .into_iter()
            .find(|(w, b)| format!("{}-{}", w.code, b.code) == rest)?;
        Some(
            pairing::variant(&w, &b, any).map_err(|c| VariantError::ArmiesClash {
                name: name.to_string(),
                letter: c.letter,
            }),
        )
    }

    fn names(&self) -> Vec<String> {
        let plain = file_pairings();
        let any: Vec<String> = plain.iter().map(|n| format!("{n}-anypromo")).collect();
        plain.into_iter().chain(any).collect()
    }
}

/// The pairings loaded armies add, without their `-anypromo` twins: every pair with a loaded
/// army (loading refuses armies whose letters collide, so the filter is a safeguard).
pub fn file_pairings() -> Vec<String> {
    FileArmies::pairs()
        .into_iter()
        .filter(|(w, b)| w.collision(b).is_none())
        .map(|(w, b)| format!("cwda-{}-{}", w.code, b.code))
        .collect()
}
