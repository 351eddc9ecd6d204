//! Opening suites for testing: one start position per line, each played twice with colours
//! swapped (a game pair), so that an opening's bias cancels out. A line is a position string,
//! optionally preceded by the name of the variant it belongs to (`cwda-nutty-rookies
//! <position>`); CwDA pairings share their letters, so an untagged line would fit every
//! pairing, and the tag says which one it was made for. Untagged lines serve every variant of
//! the match whose rules accept them.

use crate::game::AnyTables;
use crate::games;
use crate::located::Located;
use crate::random::XorShiftStar;
use crate::with_tables;
use std::collections::HashMap;

/// The positions of one or more suite files, by variant.
#[derive(Clone, Debug, Default)]
pub struct Suite {
    tagged: HashMap<String, Vec<String>>,
    untagged: Vec<String>,
}

/// A line of a suite file that cannot be used.
pub type SuiteError = Located<String>;

impl Suite {
    /// Adds the lines of one file; a tagged line must name a known variant and be a legal
    /// position of it.
    pub fn add_text(&mut self, text: &str, file: &str) -> Result<(), SuiteError> {
        // Built once per variant: a suite has thousands of lines of a few variants.
        let mut known: HashMap<String, AnyTables> = HashMap::new();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |reason: String| SuiteError::new(file, n + 1, reason);
            match split_tag(line) {
                Some((variant, position)) => {
                    let tables = match known.get(variant) {
                        Some(t) => t.clone(),
                        None => {
                            let t = games::tables(variant).map_err(|e| err(e.to_string()))?;
                            known.insert(variant.to_string(), t.clone());
                            t
                        }
                    };
                    check_position(&tables, position)
                        .map_err(|e| err(format!("bad position string for {variant}: {e}")))?;
                    self.tagged
                        .entry(tables.variant().name.clone())
                        .or_default()
                        .push(position.to_string());
                }
                None => self.untagged.push(line.to_string()),
            }
        }
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.tagged.is_empty() && self.untagged.is_empty()
    }

    /// The positions for a variant: its tagged lines, then the untagged ones it accepts.
    pub fn positions(&self, tables: &AnyTables) -> Vec<String> {
        let name = &tables.variant().name;
        let mut out = self.tagged.get(name).cloned().unwrap_or_default();
        out.extend(
            self.untagged
                .iter()
                .filter(|p| check_position(tables, p).is_ok())
                .cloned(),
        );
        out
    }
}

/// `variant position` when the first word is a tag: position strings begin with the board,
/// whose rows are separated by `/` (levels by `|`), which no variant name contains.
fn split_tag(line: &str) -> Option<(&str, &str)> {
    let (first, rest) = line.split_once(char::is_whitespace)?;
    (!first.contains(['/', '|'])).then(|| (first, rest.trim()))
}

fn check_position(tables: &AnyTables, position: &str) -> Result<(), String> {
    with_tables!(tables, t => crate::position::fen::parse(t, position)
        .map(|_| ())
        .map_err(|e| e.to_string()))
}

/// The openings of a variant in a seeded order: opening round `k` plays `order[k % len]`,
/// so a long match goes through the whole suite before it repeats a position.
pub fn shuffled(mut positions: Vec<String>, seed: u64) -> Vec<String> {
    let mut rng = XorShiftStar::new(seed);
    for i in (1..positions.len()).rev() {
        let j = rng.below((i + 1) as u64) as usize;
        positions.swap(i, j);
    }
    positions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tagged_lines_go_to_their_variant_and_untagged_to_any_that_accepts_them() {
        let mut suite = Suite::default();
        suite
            .add_text(
                "# a comment\n\
                 cwda-nutty-rookies smfekfms/pppppppp/8/8/4P3/8/PPPP1PPP/GIHOKHIG b KQkq - 0 1\n\
                 \n\
                 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
                "suite.epd",
            )
            .unwrap();
        let nr = games::tables("cwda-nutty-rookies").unwrap();
        let chess = games::tables("chess").unwrap();
        let missionary = games::tables("missionary").unwrap();
        assert_eq!(suite.positions(&nr).len(), 2);
        assert_eq!(suite.positions(&chess).len(), 1);
        assert!(suite.positions(&missionary).is_empty());
    }

    #[test]
    fn a_bad_line_names_file_and_line() {
        let mut suite = Suite::default();
        let e = suite
            .add_text("\ncwda-nutty-rookies 8/8/8 w - - 0 1\n", "s.epd")
            .unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("s.epd", 2));
        let e = suite
            .add_text("cwda-nutty-nobody 8/8/8/8/8/8/8/8 w - - 0 1\n", "s.epd")
            .unwrap_err();
        assert!(e.what.contains("nobody"), "{e}");
    }

    #[test]
    fn shuffling_is_a_seeded_permutation() {
        let p: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        let a = shuffled(p.clone(), 7);
        assert_eq!(a, shuffled(p.clone(), 7));
        assert_ne!(a, p);
        let mut sorted = a.clone();
        sorted.sort_by_key(|s| s.parse::<u32>().unwrap());
        assert_eq!(sorted, p);
    }
}
