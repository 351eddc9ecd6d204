//! Opening books: a text format that any game of Panoply can use.
//!
//! ```text
//! # comment
//! variant cwda-fide-nutty
//! rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ; e2e4 ; 40
//! rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ; d2d4 ; 25
//! ```
//!
//! A `variant <name>` line starts the entries of that variant (a file may hold several). An
//! entry is `position string ; move ; weight`: the position in the game's position-string
//! format, a move in docs/rules.md notation, and a positive integer weight (how often to choose the
//! move, relative to the other moves of the position). Positions match without their last two
//! fields (the halfmove clock and the move number), so transpositions meet.

use super::board::Board;
use crate::located::Located;
use crate::random::XorShiftStar;
use std::collections::HashMap;
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: String,
    pub weight: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Book {
    /// (variant, position key) -> moves
    entries: HashMap<(String, String), Vec<BookMove>>,
}

/// A line of a book that cannot be used, or a book that cannot be read.
pub type BookError = Located<String>;

/// A position string without its halfmove clock and move number.
pub fn position_key(position: &str) -> String {
    let fields: Vec<&str> = position.split_whitespace().collect();
    let keep = fields.len().saturating_sub(2).max(1).min(fields.len());
    fields[..keep].join(" ")
}

impl Book {
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            BookError::new(path.display().to_string(), 0, format!("cannot read: {e}"))
        })?;
        Book::parse(&text, &path.display().to_string())
    }

    pub fn parse(text: &str, source: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        book.add_text(text, source)?;
        Ok(book)
    }

    /// Adds the entries of another book text.
    pub fn add_text(&mut self, text: &str, source: &str) -> Result<(), BookError> {
        let err = |line, message: String| BookError::new(source, line, message);
        let mut variant: Option<String> = None;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(name) = line.strip_prefix("variant ") {
                variant = Some(name.trim().to_ascii_lowercase());
                continue;
            }
            let parts: Vec<&str> = line.split(';').map(str::trim).collect();
            let [position, mv, weight] = parts[..] else {
                return Err(err(n, "expected `position ; move ; weight`".into()));
            };
            let Some(v) = &variant else {
                return Err(err(n, "an entry before any `variant <name>` line".into()));
            };
            let weight = weight
                .parse::<u32>()
                .ok()
                .filter(|&w| w > 0)
                .ok_or_else(|| err(n, format!("weight '{weight}' is not a positive integer")))?;
            if mv.is_empty() || mv.contains(char::is_whitespace) {
                return Err(err(n, format!("bad move '{mv}'")));
            }
            self.add(v, position, mv, weight);
        }
        Ok(())
    }

    pub fn add(&mut self, variant: &str, position: &str, mv: &str, weight: u32) {
        let moves = self
            .entries
            .entry((variant.to_ascii_lowercase(), position_key(position)))
            .or_default();
        match moves.iter_mut().find(|m| m.mv == mv) {
            Some(m) => m.weight += weight,
            None => moves.push(BookMove {
                mv: mv.to_string(),
                weight,
            }),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The variants this book has entries for.
    pub fn variants(&self) -> Vec<String> {
        let mut v: Vec<String> = self.entries.keys().map(|(v, _)| v.clone()).collect();
        v.sort();
        v.dedup();
        v
    }

    /// The book moves of a position.
    pub fn moves(&self, variant: &str, position: &str) -> &[BookMove] {
        self.entries
            .get(&(variant.to_ascii_lowercase(), position_key(position)))
            .map_or(&[], Vec::as_slice)
    }

    /// A weighted random choice among the book moves that are legal on `board`.
    pub fn pick(&self, variant: &str, board: &dyn Board, rng: &mut XorShiftStar) -> Option<String> {
        let legal = board.legal_moves();
        let candidates: Vec<&BookMove> = self
            .moves(variant, &board.position_string())
            .iter()
            .filter(|m| legal.iter().any(|l| l.eq_ignore_ascii_case(&m.mv)))
            .collect();
        let total: u64 = candidates.iter().map(|m| m.weight as u64).sum();
        if total == 0 {
            return None;
        }
        let mut r = rng.below(total);
        for m in candidates {
            if r < m.weight as u64 {
                return Some(m.mv.clone());
            }
            r -= m.weight as u64;
        }
        None
    }

    /// Follows the book from the board's position for at most `max_plies` moves, playing them
    /// on `board`; returns the moves played (Panoply's spelling).
    pub fn walk(
        &self,
        variant: &str,
        board: &mut dyn Board,
        max_plies: usize,
        rng: &mut XorShiftStar,
    ) -> Vec<String> {
        let mut line = Vec::new();
        while line.len() < max_plies && board.outcome().is_none() {
            let Some(mv) = self.pick(variant, board, rng) else {
                break;
            };
            match board.play(&mv) {
                Ok(canonical) => line.push(canonical),
                Err(_) => break,
            }
        }
        line
    }

    /// The book as text (variants and positions sorted, moves by falling weight).
    pub fn to_text(&self) -> String {
        let mut keys: Vec<&(String, String)> = self.entries.keys().collect();
        keys.sort();
        let mut out = String::new();
        let mut current: Option<&str> = None;
        for key in keys {
            if current != Some(key.0.as_str()) {
                out.push_str(&format!("variant {}\n", key.0));
                current = Some(&key.0);
            }
            let mut moves = self.entries[key].clone();
            moves.sort_by(|a, b| b.weight.cmp(&a.weight).then(a.mv.cmp(&b.mv)));
            for m in moves {
                out.push_str(&format!("{} 0 1 ; {} ; {}\n", key.1, m.mv, m.weight));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::board::new_board;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn book() -> Book {
        let text = format!(
            "# test\nvariant chess\n{START} ; e2e4 ; 3\n{START} ; d2d4 ; 1\n\
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 ; e7e5 ; 1\n\
             {START} ; e2e5 ; 100\n"
        );
        Book::parse(&text, "t").unwrap()
    }

    #[test]
    fn reads_entries_and_keys_ignore_the_clocks() {
        let b = book();
        assert_eq!(b.moves("chess", START).len(), 3);
        let later = START.replace(" 0 1", " 4 9");
        assert_eq!(b.moves("CHESS", &later).len(), 3);
        assert!(b.moves("cwda-fide-nutty", START).is_empty());
        assert_eq!(b.variants(), vec!["chess".to_string()]);
    }

    #[test]
    fn walks_only_legal_moves_and_is_reproducible() {
        let b = book();
        let tables = crate::games::tables("chess").unwrap();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..40 {
            let mut board = new_board(&tables, None).unwrap();
            let line = b.walk("chess", board.as_mut(), 8, &mut XorShiftStar::new(seed));
            assert!(line[0] == "e2e4" || line[0] == "d2d4", "{line:?}");
            if line[0] == "e2e4" {
                assert_eq!(line, vec!["e2e4", "e7e5"]);
            }
            let mut again = new_board(&tables, None).unwrap();
            assert_eq!(
                b.walk("chess", again.as_mut(), 8, &mut XorShiftStar::new(seed)),
                line
            );
            seen.insert(line[0].clone());
        }
        assert_eq!(seen.len(), 2);
    }

    #[test]
    fn bad_lines_are_reported() {
        for (text, msg) in [
            ("x ; e2e4 ; 1", "before any `variant"),
            (
                "variant chess\nx ; e2e4",
                "expected `position ; move ; weight`",
            ),
            ("variant chess\nx ; e2e4 ; 0", "positive integer"),
        ] {
            let e = Book::parse(text, "b").unwrap_err();
            assert!(e.to_string().contains(msg), "{e}");
        }
    }

    #[test]
    fn text_round_trips() {
        let b = book();
        let again = Book::parse(&b.to_text(), "t").unwrap();
        let sorted = |m: &[BookMove]| {
            let mut m = m.to_vec();
            m.sort_by(|a, b| a.mv.cmp(&b.mv));
            m
        };
        assert_eq!(
            sorted(again.moves("chess", START)),
            sorted(b.moves("chess", START))
        );
        assert_eq!(again.moves("chess", START)[0].mv, "e2e5", "heaviest first");
    }
}
