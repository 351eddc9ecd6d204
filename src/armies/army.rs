//! Checks an armies file and turns each `[[army]]` into an [`Army`]: pieces as the core's
//! `PieceDef`s, the back rank, castling and promotion, every error with its line.

use super::betza;
use super::error::{line_of, ArmiesError, Problem};
use super::schema::{ArmySchema, FileSchema};
use crate::piece::PieceDef;

/// Which pieces a pawn of the army may become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// The army's own pieces.
    Own,
    /// The pieces of both armies in the game.
    Either,
}

/// Where an army was read: what an error about it points at.
#[derive(Clone, Debug, Default)]
pub struct Origin {
    pub file: String,
    /// The line of its `code`.
    pub code_line: usize,
    /// The line of each piece's `letter`, in the order of [`Army::pieces`].
    pub piece_lines: Vec<usize>,
}

/// A checked army.
#[derive(Clone, Debug)]
pub struct Army {
    pub name: String,
    pub code: String,
    /// Its pieces besides King and Pawn, in file order; tokens are upper-case letters.
    pub pieces: Vec<PieceDef>,
    /// White's back rank, a to h, upper case (`K` the King).
    pub setup: [char; 8],
    /// Files (0 = a) the King and partner reach when castling long.
    pub long_castling: (i32, i32),
    pub promotion: Promotion,
    /// Where it was read; no part of what the army is (see `PartialEq`).
    pub origin: Origin,
}

/// Two armies are the same when their rules are: the same army read from two files (or one
/// file given twice) is one army.
impl PartialEq for Army {
    fn eq(&self, other: &Army) -> bool {
        (
            &self.name,
            &self.code,
            &self.pieces,
            self.setup,
            self.long_castling,
            self.promotion,
        ) == (
            &other.name,
            &other.code,
            &other.pieces,
            other.setup,
            other.long_castling,
            other.promotion,
        )
    }
}

impl Army {
    pub fn letter_of(&self, def: &PieceDef) -> char {
        def.token.chars().next().unwrap_or('?')
    }

    pub fn piece(&self, letter: char) -> Option<&PieceDef> {
        self.pieces
            .iter()
            .find(|p| p.token.starts_with(letter) && p.token.len() == 1)
    }

    /// The first letter this army and `other` both use for different moves, if any.
    pub fn collision(&self, other: &Army) -> Option<char> {
        self.clash(other).map(|c| c.letter)
    }

    /// The first letter this army and `other` both use for different moves, with the index
    /// of the piece in each army.
    pub fn clash(&self, other: &Army) -> Option<Clash> {
        self.pieces.iter().enumerate().find_map(|(mine, p)| {
            let letter = self.letter_of(p);
            let theirs = other
                .pieces
                .iter()
                .position(|q| q.token.len() == 1 && q.token.starts_with(letter))?;
            (other.pieces[theirs].atoms != p.atoms).then_some(Clash {
                letter,
                mine,
                theirs,
            })
        })
    }

    /// The line of the piece at `index`, else of the army's code.
    pub fn piece_line(&self, index: usize) -> usize {
        let line = self.origin.piece_lines.get(index).copied();
        line.unwrap_or(self.origin.code_line)
    }
}

/// One letter two armies use for different pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clash {
    pub letter: char,
    /// The index of the piece in the first army and in the second.
    pub mine: usize,
    pub theirs: usize,
}

/// Reads and checks the text of an armies file called `file`.
pub fn parse_armies(file: &str, text: &str) -> Result<Vec<Army>, ArmiesError> {
    let at = |offset: usize, problem| ArmiesError::new(file, line_of(text, offset), problem);
    let schema: FileSchema = toml::from_str(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        at(offset, Problem::Syntax(e.message().trim().to_string()))
    })?;
    let mut armies: Vec<Army> = Vec::new();
    for a in &schema.army {
        let mut army = check_army(a).map_err(|(offset, p)| at(offset, p))?;
        army.origin = Origin {
            file: file.to_string(),
            code_line: line_of(text, a.code.span().start),
            piece_lines: (a.piece.iter())
                .map(|p| line_of(text, p.letter.span().start))
                .collect(),
        };
        if armies.iter().any(|b| b.code == army.code) {
            let problem = Problem::BadCode(format!("'{}' is used twice", army.code));
            return Err(at(a.code.span().start, problem));
        }
        armies.push(army);
    }
    Ok(armies)
}

type Located<T> = Result<T, (usize, Problem)>;

fn check_army(a: &ArmySchema) -> Located<Army> {
    let code = a.code.get_ref().trim().to_string();
    if code.is_empty()
        || !code
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    {
        let why =
            format!("'{code}' must be lower-case letters and digits (it is part of variant names)");
        return Err((a.code.span().start, Problem::BadCode(why)));
    }
    let mut pieces: Vec<PieceDef> = Vec::new();
    for p in &a.piece {
        let letter = p.letter.get_ref().trim();
        let ok = letter.len() == 1
            && letter
                .chars()
                .all(|c| c.is_ascii_uppercase() && c != 'K' && c != 'P');
        if !ok {
            return Err((p.letter.span().start, Problem::BadLetter(letter.into())));
        }
        if pieces.iter().any(|q| q.token == letter) {
            let c = letter.chars().next().unwrap_or('?');
            return Err((p.letter.span().start, Problem::DuplicateLetter(c)));
        }
        let atoms = betza::parse(p.betza.get_ref()).map_err(|reason| {
            let piece = p.name.clone();
            (p.betza.span().start, Problem::Betza { piece, reason })
        })?;
        let mut def = PieceDef::new(&p.name, letter, atoms);
        def.betza = Some(p.betza.get_ref().clone());
        def.value = p.value;
        pieces.push(def);
    }
    let setup = check_setup(a, &pieces)?;
    let partner = a.castling_partner.get_ref().trim();
    let corner = setup[0].to_string();
    if partner != corner || setup[7] != setup[0] {
        return Err((
            a.castling_partner.span().start,
            Problem::CastlingPartner(partner.into()),
        ));
    }
    Ok(Army {
        name: a.name.clone(),
        code,
        pieces,
        setup,
        long_castling: check_long_castling(a)?,
        promotion: check_promotion(a)?,
        origin: Origin::default(),
    })
}

fn check_setup(a: &ArmySchema, pieces: &[PieceDef]) -> Located<[char; 8]> {
    let span = a.setup.span().start;
    let letters: Vec<char> = a.setup.get_ref().trim().chars().collect();
    let setup: [char; 8] = letters
        .clone()
        .try_into()
        .map_err(|_| (span, Problem::SetupLength(letters.len())))?;
    let kings = setup.iter().filter(|&&c| c == 'K').count();
    if kings != 1 {
        return Err((span, Problem::Kings(kings)));
    }
    if setup[4] != 'K' {
        return Err((span, Problem::KingNotOnE));
    }
    if let Some(&c) = setup
        .iter()
        .find(|&&c| c != 'K' && !pieces.iter().any(|p| p.token == c.to_string()))
    {
        return Err((span, Problem::UnknownSetupLetter(c)));
    }
    Ok(setup)
}

fn check_long_castling(a: &ArmySchema) -> Located<(i32, i32)> {
    let Some(lc) = &a.long_castling else {
        return Ok((2, 3));
    };
    let file = |s: &str| match s.trim().as_bytes() {
        [c @ b'a'..=b'h'] => Some((c - b'a') as i32),
        _ => None,
    };
    let (k, p) = (file(&lc.get_ref().king), file(&lc.get_ref().partner));
    match (k, p) {
        (Some(k @ 1..=3), Some(p)) if p == k + 1 => Ok((k, p)),
        _ => Err((
            lc.span().start,
            Problem::LongCastling(
                "the King goes to b, c or d and the partner to the file right of it".into(),
            ),
        )),
    }
}

fn check_promotion(a: &ArmySchema) -> Located<Promotion> {
    match &a.promotion {
        None => Ok(Promotion::Own),
        Some(p) => match p.get_ref().as_str() {
            "own" => Ok(Promotion::Own),
            "either" => Ok(Promotion::Either),
            other => Err((p.span().start, Problem::Promotion(other.into()))),
        },
    }
}
