//! The engine's own opening book (options `OwnBook` and `BookFile`, for UCI and XBoard alike).
//!
//! The book is the text format of `panoply match` (book/README.md). When `OwnBook` is on and
//! the current position is in the book, the engine answers with a book move, chosen at random
//! in proportion to the weights, without searching. A book that cannot be read or parsed is
//! refused at once (with the file and line), so the GUI user sees the error when setting the
//! option rather than a silent fallback to searching.

use crate::random::XorShiftStar;
use crate::records::book::Book;
use crate::session::Session;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

pub const OWN_BOOK: &str = "OwnBook";
pub const BOOK_FILE: &str = "BookFile";

pub struct OwnBook {
    enabled: bool,
    book: Option<Book>,
    path: String,
    rng: XorShiftStar,
}

impl Default for OwnBook {
    fn default() -> Self {
        // Games should not all follow the same line: seed from the clock.
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        OwnBook {
            enabled: false,
            book: None,
            path: String::new(),
            rng: XorShiftStar::new(seed),
        }
    }
}

impl OwnBook {
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn set_enabled(&mut self, on: bool) {
        self.enabled = on;
        if on && self.book.is_none() {
            log::warn!("OwnBook is on but no BookFile is loaded: the engine will search");
        }
    }

    /// Loads a book file; an empty path unloads it. On error the previous book stays.
    pub fn load(&mut self, path: &str) -> Result<(), String> {
        if path.is_empty() {
            self.book = None;
            self.path.clear();
            return Ok(());
        }
        let book = Book::load(Path::new(path)).map_err(|e| format!("BookFile: {e}"))?;
        if book.is_empty() {
            return Err(format!("BookFile: {path} has no book entries"));
        }
        self.book = Some(book);
        self.path = path.to_string();
        Ok(())
    }

    /// The book's legal moves for the session's position with their weights, whether or
    /// not the book is on (XBoard's `bk` shows them).
    pub fn entries(&self, session: &Session) -> Vec<(String, u64)> {
        let Some(book) = self.book.as_ref() else {
            return Vec::new();
        };
        let legal = session.legal_moves();
        book.moves(&session.variant().name, &session.position_string())
            .iter()
            .filter_map(|m| {
                let mv = legal.iter().find(|l| l.eq_ignore_ascii_case(&m.mv))?;
                Some((mv.clone(), u64::from(m.weight)))
            })
            .collect()
    }

    /// A book move for the session's position (weighted random among the legal book moves),
    /// if the book is on and knows the position.
    pub fn choose(&mut self, session: &Session) -> Option<String> {
        if !self.enabled {
            return None;
        }
        let moves = self.entries(session);
        let total: u64 = moves.iter().map(|(_, w)| w).sum();
        if total == 0 {
            return None;
        }
        let mut r = self.rng.below(total);
        for (mv, w) in moves {
            if r < w {
                log::info!("book move {mv}");
                return Some(mv);
            }
            r -= w;
        }
        None
    }
}

/// Parses a boolean option value (`true`/`false`, also XBoard's `1`/`0`).
pub fn parse_check(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "on" => Some(true),
        "false" | "0" | "off" => Some(false),
        _ => None,
    }
}
