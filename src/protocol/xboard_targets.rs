//! Move entry in variants XBoard does not know the rules of (`feature highlight=1`). When the
//! user lifts a piece, XBoard sends `lift` and we mark where it may go (`highlight`); when it
//! is put on a square where the move changes the piece (a promotion, or in Cyclical Armies the
//! type it arrives as), we name the new type (`choice`), so XBoard completes the move with that
//! suffix and its board follows the change, as it does for the engine's own moves.

use super::xboard_pieces::XBoardPieces;
use crate::session::Session;

/// A board square as (file, rank), counted from 0.
pub type Square = (u8, u8);

/// What a move to one square does to the piece, as XBoard must be told.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    /// The piece arrives unchanged.
    Plain,
    /// Every move there turns the piece into this kind (XBoard letter, upper case).
    Forced(char),
    /// The user chooses (promotion letters, upper case; the first is the default).
    Choice(Vec<char>),
}

impl Target {
    /// The `highlight` colour: yellow for a plain target, blue where XBoard must wait for
    /// our `choice`, magenta where it asks the user.
    fn colour(&self) -> char {
        match self {
            Target::Plain => 'Y',
            Target::Forced(_) => 'B',
            Target::Choice(_) => 'M',
        }
    }
}

/// The targets of the piece the user lifted.
#[derive(Clone, Debug)]
pub struct Targets {
    /// Each target and what a move there does.
    squares: Vec<(Square, Target)>,
}

impl Targets {
    /// The targets of the side to move's piece on `from`; `None` when no such piece stands
    /// there (XBoard then keeps its own move entry).
    pub fn of(session: &Session, pieces: &XBoardPieces, from: &str) -> Option<Targets> {
        let (fx, fy) = square(from)?;
        let mover = session.side_to_move();
        session
            .pieces()
            .into_iter()
            .find(|&(x, y, p, _)| (x, y) == (i32::from(fx), i32::from(fy)) && p == mover)?;
        let mut options: Vec<(Square, Vec<Option<char>>)> = Vec::new();
        for mv in session.legal_moves() {
            // The rest is the target square and perhaps a promotion letter; it starts with
            // a file letter (so `a1` is no prefix of `a10b10`).
            let Some(rest) = mv
                .strip_prefix(from)
                .filter(|r| r.starts_with(|c: char| c.is_ascii_lowercase()))
            else {
                continue;
            };
            let Some(to) = square(rest.trim_end_matches(|c: char| c.is_ascii_alphabetic())) else {
                continue;
            };
            // The suffix XBoard must add: the letter of a promotion or type change.
            let suffix = session
                .changed_kind(&mv)
                .and_then(|k| pieces.letter(mover, k))
                .map(|c| c.to_ascii_uppercase());
            match options.iter_mut().find(|(sq, _)| *sq == to) {
                Some((_, list)) => list.push(suffix),
                None => options.push((to, vec![suffix])),
            }
        }
        let squares = options
            .into_iter()
            .map(|(to, list)| (to, target(list)))
            .collect();
        Some(Targets { squares })
    }

    /// `highlight <colour FEN>` for a board of `files` x `ranks`.
    pub fn highlight_command(&self, files: u8, ranks: u8) -> String {
        let mut rows = Vec::new();
        for y in (0..ranks).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for x in 0..files {
                match self.squares.iter().find(|(sq, _)| *sq == (x, y)) {
                    Some((_, t)) => {
                        if empty > 0 {
                            row += &empty.to_string();
                            empty = 0;
                        }
                        row.push(t.colour());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        format!("highlight {}", rows.join("/"))
    }

    /// The `choice` to send with the highlight: the promotion choices XBoard offers on a
    /// magenta square (it may complete the move at once on `put`, so it must know them
    /// before). The first such square's: a piece's promotion squares offer the same.
    pub fn choice_on_lift(&self) -> Option<String> {
        self.squares.iter().find_map(|(_, t)| match t {
            Target::Choice(list) => Some(format!("choice {}", list.iter().collect::<String>())),
            _ => None,
        })
    }

    /// The `choice` for a piece put on a blue square: the one kind every move there makes
    /// it (XBoard waits for it to complete the move).
    pub fn choice_on_put(&self, to: &str) -> Option<String> {
        let to = square(to)?;
        match self.squares.iter().find(|(sq, _)| *sq == to)?.1 {
            Target::Forced(c) => Some(format!("choice {c}")),
            _ => None,
        }
    }
}

/// What the moves to one square do: none changes the piece, all make the same change, or
/// the user chooses among changes. A square where the piece may also arrive unchanged (an
/// optional promotion, the SwDA Lance on its 7th rank) is plain: XBoard 4.9 turns a declined
/// promotion on a magenta square into an empty square on its own board, so such a promotion
/// is typed (`a6a7g`) rather than picked.
fn target(mut options: Vec<Option<char>>) -> Target {
    options.sort_by_key(|o| (*o != Some('Q'), *o));
    options.dedup();
    match options.as_slice() {
        [Some(c)] => Target::Forced(*c),
        _ if options.contains(&None) => Target::Plain,
        _ => Target::Choice(options.into_iter().flatten().collect()),
    }
}

/// A square name such as `e4` as (file, rank) from 0; `None` unless exactly a square.
pub fn square(s: &str) -> Option<Square> {
    let mut chars = s.chars();
    let file = chars.next().filter(char::is_ascii_lowercase)?;
    let rank: u8 = chars.as_str().parse().ok().filter(|&r| r >= 1)?;
    Some((file as u8 - b'a', rank - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_group_the_moves_to_each_square() {
        assert_eq!(target(vec![None]), Target::Plain);
        assert_eq!(target(vec![Some('G')]), Target::Forced('G'));
        // A Lance on its 7th rank may promote to Gold or stay a Lance.
        assert_eq!(target(vec![None, Some('G')]), Target::Plain);
        assert_eq!(
            target(vec![Some('N'), Some('Q'), Some('B')]),
            Target::Choice(vec!['Q', 'B', 'N'])
        );
        assert_eq!(square("e4"), Some((4, 3)));
        assert_eq!(square("e4q"), None);
        assert_eq!(square("e0"), None);
    }
}
