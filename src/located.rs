//! An error at a place in a text file the user gave (a book, an opening suite, an engine
//! definition, an armies file): written `file:line: what`, or `file: what` when it is about
//! the file as a whole (line 0: it cannot be read).

use std::fmt;

/// `what` went wrong at `line` (1-based; 0 for the whole file) of `file`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<E> {
    pub file: String,
    pub line: usize,
    pub what: E,
}

impl<E> Located<E> {
    pub fn new(file: impl Into<String>, line: usize, what: E) -> Located<E> {
        Located {
            file: file.into(),
            line,
            what,
        }
    }
}

impl<E: fmt::Display> fmt::Display for Located<E> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.what)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.what)
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for Located<E> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_named_unless_the_whole_file_is_meant() {
        let at_line = Located::new("a.book", 3, "no move");
        assert_eq!(at_line.to_string(), "a.book:3: no move");
        let whole = Located::new("a.book", 0, "cannot read: gone");
        assert_eq!(whole.to_string(), "a.book: cannot read: gone");
    }
}
