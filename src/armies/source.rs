//! The registry's source of the pairings that armies files add: every loaded army against
//! every built-in army and every other loaded army, both colours, as `cwda-<white>-<black>`.

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

/// Reads, checks and adds the armies of the file at `path`; on any error nothing is added
/// and the armies known before stay. Returns the codes added.
pub fn load_file(path: &str) -> Result<Vec<String>, ArmiesError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ArmiesError::new(path, 0, Problem::Unreadable(e.to_string())))?;
    load_text(path, &text)
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
        let line = line_of_code(text, &army.code);
        let err = |problem| ArmiesError::new(file, line, problem);
        if builtin.iter().chain(&known).any(|b| b.code == army.code) {
            let why = format!("'{}' is already an army's code", army.code);
            return Err(err(Problem::BadCode(why)));
        }
        // Every loaded army meets every built-in one, so a clash there is an error; two
        // loaded armies that clash just do not meet (asking for that name says why).
        if let Some(other) = builtin.iter().find(|b| army.collision(b).is_some()) {
            return Err(err(Problem::LetterCollision {
                letter: army.collision(other).unwrap_or('?'),
                army: army.code.clone(),
                other: other.code.clone(),
            }));
        }
        added.push(army.code.clone());
        known.push(army);
    }
    *LOADED.write().unwrap_or_else(PoisonError::into_inner) = known;
    REGISTER.call_once(|| games::add_source(Arc::new(FileArmies)));
    Ok(added)
}

fn line_of_code(text: &str, code: &str) -> usize {
    text.lines()
        .position(|l| {
            let l = l.trim();
            l.starts_with("code") && l.contains(&format!("\"{code}\""))
        })
        .map_or(0, |i| i + 1)
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
/// army whose letters do not collide.
pub fn file_pairings() -> Vec<String> {
    FileArmies::pairs()
        .into_iter()
        .filter(|(w, b)| w.collision(b).is_none())
        .map(|(w, b)| format!("cwda-{}-{}", w.code, b.code))
        .collect()
}
