//! The binary record of one self-play game (`.pgd` files): variant, start position, result,
//! and per ply the move played and the search's score. One record is self-contained, so files
//! concatenate with `cat`; the byte layout is in `docs/datagen.md`. Version 2 adds the
//! game's origin (seed, shard, game index), so that the files of many machines can be
//! checked for games played twice; version 1 records (no origin) are still read.
//!
//! Moves are stored as from cell, to cell, the core's move kind and a piece reference; the
//! piece (the promotion choice or dropped kind) is an index into the record's own token
//! table, which lists the variant's position-string tokens (`N`, `+W`, ...) in the kind order
//! of the engine that wrote it. A reader maps those tokens to the kinds of its own build, so a
//! record survives changes to move generation order and to the kind order of a variant; only
//! the cell numbering (the board's shape) and the castling order (the castling index of a
//! castling move) must stay as they are.

use crate::movegen::tables::Tables;
use crate::moves::{Move, MoveKind};
use crate::piece::Kind;
use crate::search::Score;
use std::fmt;

/// Every record starts with these bytes, then its version.
pub const MAGIC: [u8; 3] = *b"PGD";
/// The format version this build writes for a record with an origin, and the newest it reads.
pub const VERSION: u8 = 2;
/// The first version: no origin. Still read, and written for a record without an origin, so
/// that such a record keeps its bytes.
pub const VERSION_1: u8 = 1;
/// Bytes of the origin in a version 2 record.
const ORIGIN_BYTES: usize = 24;
/// Magic, version and the body length.
pub const HEADER_BYTES: usize = 8;
/// Bytes per ply: a `u32` move and an `i16` score.
pub const PLY_BYTES: usize = 6;
/// No record is this long (a game of 65535 plies and long names is far less): a length beyond
/// it is garbage.
pub const MAX_BODY: usize = 1 << 20;

/// A search score as stored: centipawns from the side to move's view, or a marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredScore(pub i16);

impl StoredScore {
    /// A ply without a search score (a book or random move).
    pub const NONE: StoredScore = StoredScore(i16::MIN);
    /// The side to move mates.
    pub const MATE_WIN: StoredScore = StoredScore(i16::MAX);
    /// The side to move is mated.
    pub const MATE_LOSS: StoredScore = StoredScore(-i16::MAX);
    /// Centipawn scores are clamped to this, below the mate markers.
    pub const MAX_CP: i16 = 32_000;

    pub fn from_search(score: Score) -> StoredScore {
        match score {
            Score::Cp(cp) => {
                let max = Self::MAX_CP as i32;
                StoredScore(cp.clamp(-max, max) as i16)
            }
            Score::Mate(n) if n > 0 => Self::MATE_WIN,
            Score::Mate(_) => Self::MATE_LOSS,
        }
    }

    pub fn is_none(self) -> bool {
        self == Self::NONE
    }
}

/// How a game ended, as stored in its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameResult {
    WhiteWin = 0,
    Draw = 1,
    BlackWin = 2,
    /// Stopped without a result; readers skip such games.
    Unfinished = 3,
}

impl GameResult {
    fn from_byte(b: u8) -> Option<GameResult> {
        Some(match b {
            0 => GameResult::WhiteWin,
            1 => GameResult::Draw,
            2 => GameResult::BlackWin,
            3 => GameResult::Unfinished,
            _ => return None,
        })
    }

    /// The result for White: 1, 0.5 or 0; `None` for an unfinished game.
    pub fn for_white(self) -> Option<f32> {
        match self {
            GameResult::WhiteWin => Some(1.0),
            GameResult::Draw => Some(0.5),
            GameResult::BlackWin => Some(0.0),
            GameResult::Unfinished => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            GameResult::WhiteWin => "white wins",
            GameResult::Draw => "draws",
            GameResult::BlackWin => "black wins",
            GameResult::Unfinished => "unfinished",
        }
    }
}

/// A move as stored: bits 0–8 from cell, 9–17 to cell, 18–20 the core's [`MoveKind`], 21–26
/// the piece (an index into the record's token table for promotions and drops, that index + 1
/// for an en-passant capture that promotes, the castling index for castling, else 0); bits
/// 27–31 are zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredMove(pub u32);

impl StoredMove {
    /// The stored form of a move of a variant whose token table is in its kind order (as
    /// [`tokens`] writes it).
    pub fn from_move(mv: Move) -> StoredMove {
        StoredMove(
            mv.from().0 as u32
                | (mv.to().0 as u32) << 9
                | (mv.kind() as u32) << 18
                | (mv.extra() as u32) << 21,
        )
    }

    fn reserved_bits(self) -> u32 {
        self.0 >> 27
    }

    fn piece(self) -> u8 {
        (self.0 >> 21 & 0x3f) as u8
    }

    /// The move in this build's encoding, with the piece reference translated through
    /// `kinds` (record token index -> this build's kind); `None` when the piece is unknown.
    pub fn to_move(self, kinds: &[Option<Kind>]) -> Option<Move> {
        use crate::geometry::Cell;
        let from = Cell((self.0 & 0x1ff) as u16);
        let to = Cell((self.0 >> 9 & 0x1ff) as u16);
        let kind = MoveKind::from_bits(self.0 >> 18 & 0x7);
        let piece = self.piece();
        let lookup = |i: u8| kinds.get(i as usize).copied().flatten().map(|k| k.0);
        let extra = match kind {
            MoveKind::Promotion | MoveKind::Drop => lookup(piece)?,
            MoveKind::EnPassant if piece > 0 => lookup(piece - 1)? + 1,
            _ => piece,
        };
        Some(Move::new(from, to, kind, extra))
    }
}

/// One ply of a game: the move played and the score of the search that chose it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    pub mv: StoredMove,
    pub score: StoredScore,
}

/// Where a generated game comes from: game `game` of the run with this seed and shard, which
/// alone decide its opening and random plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Origin {
    pub seed: u64,
    pub shard: u64,
    pub game: u64,
}

/// One game as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgdRecord {
    /// None in a version 1 record.
    pub origin: Option<Origin>,
    pub variant: String,
    /// The variant's position-string tokens in the writer's kind order.
    pub tokens: Vec<String>,
    /// The position string the moves start from.
    pub start: String,
    pub result: Option<GameResult>,
    pub plies: Vec<Ply>,
}

/// The token table of a variant: its pieces' position-string tokens in kind order.
pub fn tokens<B: crate::bitboard::BitSet>(t: &Tables<B>) -> Vec<String> {
    t.variant.pieces.iter().map(|p| p.token.clone()).collect()
}

/// Why a record's bytes cannot be read (without the file and offset, which the reader adds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    Magic,
    Version(u8),
    Length(usize),
    Body(&'static str),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            RecordError::Magic => write!(f, "not a game record (no 'PGD' magic)"),
            RecordError::Version(v) => write!(
                f,
                "record format version {v}, this build reads versions {VERSION_1} to {VERSION}"
            ),
            RecordError::Length(n) => write!(f, "record length {n} is not plausible"),
            RecordError::Body(why) => write!(f, "damaged record: {why}"),
        }
    }
}

impl PgdRecord {
    /// Appends the record's bytes to `out` (reused by the caller, so no allocation once it
    /// has grown).
    pub fn encode(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&MAGIC);
        out.push(if self.origin.is_some() {
            VERSION
        } else {
            VERSION_1
        });
        out.extend_from_slice(&[0; 4]);
        out.push(self.result.unwrap_or(GameResult::Unfinished) as u8);
        if let Some(o) = self.origin {
            for n in [o.seed, o.shard, o.game] {
                out.extend_from_slice(&n.to_le_bytes());
            }
        }
        put_short(out, self.variant.as_bytes());
        out.push(self.tokens.len() as u8);
        for t in &self.tokens {
            put_short(out, t.as_bytes());
        }
        out.extend_from_slice(&(self.start.len() as u16).to_le_bytes());
        out.extend_from_slice(self.start.as_bytes());
        out.extend_from_slice(&(self.plies.len() as u16).to_le_bytes());
        for p in &self.plies {
            out.extend_from_slice(&p.mv.0.to_le_bytes());
            out.extend_from_slice(&p.score.0.to_le_bytes());
        }
        let body = (out.len() - start - HEADER_BYTES) as u32;
        out[start + 4..start + 8].copy_from_slice(&body.to_le_bytes());
    }

    /// Reads the body (the bytes after the header) of a record of format `version` into
    /// `self`, reusing its buffers.
    pub fn decode_body(&mut self, version: u8, body: &[u8]) -> Result<(), RecordError> {
        let mut r = Cursor { bytes: body, at: 0 };
        let result = r.byte()?;
        self.result = match GameResult::from_byte(result) {
            Some(GameResult::Unfinished) => None,
            Some(res) => Some(res),
            None => return Err(RecordError::Body("unknown result")),
        };
        self.origin = if version >= VERSION {
            let b = r.take(ORIGIN_BYTES)?;
            let n = |i: usize| u64::from_le_bytes(b[i * 8..i * 8 + 8].try_into().unwrap());
            Some(Origin {
                seed: n(0),
                shard: n(1),
                game: n(2),
            })
        } else {
            None
        };
        read_text(&mut r, 1, &mut self.variant)?;
        let count = r.byte()? as usize;
        self.tokens.resize(count, String::new());
        for t in &mut self.tokens {
            read_text(&mut r, 1, t)?;
        }
        read_text(&mut r, 2, &mut self.start)?;
        let plies = u16::from_le_bytes(r.take(2)?.try_into().unwrap()) as usize;
        if r.rest() != plies * PLY_BYTES {
            return Err(RecordError::Body("ply count does not match the length"));
        }
        self.plies.clear();
        for _ in 0..plies {
            let b = r.take(PLY_BYTES)?;
            let mv = StoredMove(u32::from_le_bytes(b[..4].try_into().unwrap()));
            if mv.reserved_bits() != 0 {
                return Err(RecordError::Body("a move with reserved bits set"));
            }
            let score = StoredScore(i16::from_le_bytes(b[4..].try_into().unwrap()));
            self.plies.push(Ply { mv, score });
        }
        Ok(())
    }
}

/// Checks a record header and returns the record's version and body length.
pub fn read_header(header: &[u8; HEADER_BYTES]) -> Result<(u8, usize), RecordError> {
    if header[..3] != MAGIC {
        return Err(RecordError::Magic);
    }
    let version = header[3];
    if !(VERSION_1..=VERSION).contains(&version) {
        return Err(RecordError::Version(version));
    }
    let n = u32::from_le_bytes(header[4..].try_into().unwrap()) as usize;
    if n > MAX_BODY {
        return Err(RecordError::Length(n));
    }
    Ok((version, n))
}

/// Whether `prefix`, a header cut short, still begins like one.
pub fn plausible_header_prefix(prefix: &[u8]) -> bool {
    let n = prefix.len().min(MAGIC.len());
    prefix[..n] == MAGIC[..n]
        && prefix
            .get(MAGIC.len())
            .is_none_or(|v| (VERSION_1..=VERSION).contains(v))
}

fn put_short(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len().min(255);
    out.push(n as u8);
    out.extend_from_slice(&bytes[..n]);
}

/// A length-prefixed (1 or 2 bytes) UTF-8 text into `into`.
fn read_text(r: &mut Cursor, prefix: usize, into: &mut String) -> Result<(), RecordError> {
    let n = match prefix {
        1 => r.byte()? as usize,
        _ => u16::from_le_bytes(r.take(2)?.try_into().unwrap()) as usize,
    };
    let text = std::str::from_utf8(r.take(n)?).map_err(|_| RecordError::Body("text not UTF-8"))?;
    into.clear();
    into.push_str(text);
    Ok(())
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], RecordError> {
        let end = self.at + n;
        let out = self
            .bytes
            .get(self.at..end)
            .ok_or(RecordError::Body("ends inside a field"))?;
        self.at = end;
        Ok(out)
    }

    fn byte(&mut self) -> Result<u8, RecordError> {
        Ok(self.take(1)?[0])
    }

    fn rest(&self) -> usize {
        self.bytes.len() - self.at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Cell;

    #[test]
    fn a_record_reads_back() {
        let rec = PgdRecord {
            origin: None,
            variant: "cwda-fide-nutty".into(),
            tokens: vec!["P".into(), "N".into(), "+W".into()],
            start: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
            result: Some(GameResult::BlackWin),
            plies: vec![
                Ply {
                    mv: StoredMove::from_move(Move::promotion(Cell(50), Cell(58), Kind(2))),
                    score: StoredScore::NONE,
                },
                Ply {
                    mv: StoredMove::from_move(Move::normal(Cell(1), Cell(2))),
                    score: StoredScore(-35),
                },
            ],
        };
        let mut bytes = Vec::new();
        rec.encode(&mut bytes);
        assert_eq!(
            bytes.len(),
            HEADER_BYTES + 1 + 16 + 1 + 2 + 2 + 3 + 2 + 27 + 2 + 12
        );
        let (version, n) = read_header(bytes[..8].try_into().unwrap()).unwrap();
        assert_eq!(version, VERSION_1, "no origin: the first version's bytes");
        let mut back = PgdRecord::default();
        back.decode_body(version, &bytes[8..8 + n]).unwrap();
        assert_eq!(back, rec);
        // With its origin: version 2, 24 bytes more, read back whole.
        let with_origin = PgdRecord {
            origin: Some(Origin {
                seed: 7,
                shard: 3,
                game: u64::MAX - 1,
            }),
            ..rec.clone()
        };
        let mut v2 = Vec::new();
        with_origin.encode(&mut v2);
        assert_eq!(v2.len(), bytes.len() + 24);
        assert_eq!(v2[3], VERSION);
        let (version, n) = read_header(v2[..8].try_into().unwrap()).unwrap();
        back.decode_body(version, &v2[8..8 + n]).unwrap();
        assert_eq!(back, with_origin);
        // A version 1 body read as version 2 is short of its origin or misread: refused.
        assert!(back.decode_body(VERSION, &bytes[8..]).is_err());
        let mut v3 = v2.clone();
        v3[3] = 3;
        assert_eq!(
            read_header(v3[..8].try_into().unwrap()),
            Err(RecordError::Version(3))
        );
        assert!(plausible_header_prefix(b"PGD\x02"));
        assert!(plausible_header_prefix(b"PG"));
        assert!(!plausible_header_prefix(b"PGD\x03"));
        let kinds = [Some(Kind(0)), Some(Kind(1)), Some(Kind(2))];
        assert_eq!(
            back.plies[0].mv.to_move(&kinds),
            Some(Move::promotion(Cell(50), Cell(58), Kind(2)))
        );
    }

    #[test]
    fn scores_keep_their_markers_apart() {
        assert_eq!(StoredScore::from_search(Score::Cp(99_999)).0, 32_000);
        assert_eq!(
            StoredScore::from_search(Score::Mate(3)),
            StoredScore::MATE_WIN
        );
        assert_eq!(
            StoredScore::from_search(Score::Mate(-2)),
            StoredScore::MATE_LOSS
        );
        assert!(!StoredScore::from_search(Score::Cp(-40_000)).is_none());
    }
}
