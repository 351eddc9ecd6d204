//! The armies file as it is written: TOML read through serde, with the byte span of every
//! value that a later check may have to point at.

use serde::Deserialize;
use toml::Spanned;

/// A whole armies file: a list of `[[army]]` tables.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileSchema {
    #[serde(default)]
    pub army: Vec<ArmySchema>,
}

/// One `[[army]]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmySchema {
    /// Full name, for people ("Forward FIDEs").
    pub name: String,
    /// Short code used in variant names (`cwda-<white>-<black>`).
    pub code: Spanned<String>,
    /// Where the army is described (a page, a book); shown nowhere, kept for readers.
    #[serde(default)]
    pub source: Option<String>,
    /// White's back rank from a to h in upper-case letters; `K` is the King.
    pub setup: Spanned<String>,
    /// The letter of the piece that castles with the King (it must stand in both corners).
    pub castling_partner: Spanned<String>,
    /// Where King and partner end on the long (a-side) castling; FIDE's is c and d.
    #[serde(default)]
    pub long_castling: Option<Spanned<LongCastling>>,
    /// `own` (default): pawns promote to the army's own pieces; `either`: to the pieces of
    /// both armies in the game.
    #[serde(default)]
    pub promotion: Option<Spanned<String>>,
    #[serde(default)]
    pub piece: Vec<PieceSchema>,
}

/// The files King and partner reach when castling long.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LongCastling {
    pub king: String,
    pub partner: String,
}

/// One `[[army.piece]]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSchema {
    pub name: String,
    /// One upper-case letter, unique in the army.
    pub letter: Spanned<String>,
    /// Moves in Betza notation, read as Fairy-Stockfish reads it (docs/armies.md).
    pub betza: Spanned<String>,
    /// Centipawns; derived from the moves when absent.
    #[serde(default)]
    pub value: Option<i32>,
}
