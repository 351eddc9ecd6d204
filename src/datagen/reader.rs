//! Streams training positions out of `.pgd` files: every finished game is replayed from its
//! start position with the moves of its record (each checked to be legal in this build), and
//! the positions the [`Filter`] keeps are handed to the caller one by one. A truncated last
//! record (a run killed while writing) is reported in the summary and the other files are
//! still read; anything else that is not a record is an error naming the file and offset.

use super::filter::Filter;
use super::record::{
    plausible_header_prefix, read_header, PgdRecord, RecordError, HEADER_BYTES, MAGIC,
};
use crate::game::AnyTables;
use crate::games;
use crate::movegen::legal_moves;
use crate::movegen::tables::Tables;
use crate::piece::{Kind, Player};
use crate::position::{fen, Position};
use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One position for training.
pub struct TrainingPosition {
    /// Shared by every position of the variant in this read.
    pub tables: Arc<Tables<u64>>,
    pub position: Position<u64>,
    /// The search's score, centipawns, from the side to move's view.
    pub score: i16,
    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f32,
    /// The running number of the game within this read (held-out splits go by game).
    pub game: u64,
}

/// A record cut off at the end of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Truncation {
    pub file: PathBuf,
    pub offset: u64,
    /// The bytes of the record that are there.
    pub bytes: u64,
}

/// What a read went through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadSummary {
    /// Complete records, of every kind.
    pub games: u64,
    /// Games without a result (skipped).
    pub unfinished: u64,
    /// Games of variants with more than 64 cells (skipped: not supported yet).
    pub wide: u64,
    /// Finished games by result: White wins, draws, Black wins.
    pub results: [u64; 3],
    /// Positions of the finished games replayed.
    pub positions: u64,
    /// Positions the filter kept (handed to the caller).
    pub kept: u64,
    /// Bytes of the complete records.
    pub bytes: u64,
    pub truncated: Vec<Truncation>,
}

/// A file that cannot be read as training data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataError {
    Io {
        file: PathBuf,
        reason: String,
    },
    Record {
        file: PathBuf,
        offset: u64,
        error: RecordError,
    },
    Variant {
        file: PathBuf,
        offset: u64,
        reason: String,
    },
    Position {
        file: PathBuf,
        offset: u64,
        reason: String,
    },
    Move {
        file: PathBuf,
        offset: u64,
        ply: usize,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            DataError::Io { file, reason } => write!(f, "{}: {reason}", file.display()),
            DataError::Record {
                file,
                offset,
                error,
            } => write!(f, "{} at byte {offset}: {error}", file.display()),
            DataError::Variant {
                file,
                offset,
                reason,
            } => write!(f, "{} at byte {offset}: {reason}", file.display()),
            DataError::Position {
                file,
                offset,
                reason,
            } => write!(
                f,
                "{} at byte {offset}: bad start position: {reason}",
                file.display()
            ),
            DataError::Move { file, offset, ply } => write!(
                f,
                "{} at byte {offset}: the move of ply {ply} is not legal in this build",
                file.display()
            ),
        }
    }
}

impl std::error::Error for DataError {}

/// Whether the file starts like a `panoply datagen` game record (text training files do not).
pub fn is_game_record(path: &Path) -> std::io::Result<bool> {
    let mut head = [0u8; 3];
    let n = File::open(path)?.read(&mut head)?;
    Ok(n == head.len() && head == MAGIC)
}

/// Streams the positions of `paths` that `filter` keeps to `each`, file by file, game by
/// game. Games of variants beyond 64 cells and unfinished games are skipped and counted.
pub fn read_positions(
    paths: &[PathBuf],
    filter: &Filter,
    mut each: impl FnMut(TrainingPosition),
) -> Result<ReadSummary, DataError> {
    let mut cache = VariantCache::default();
    let mut kinds: Vec<Option<Kind>> = Vec::new();
    read_records(paths, |at, record, summary| {
        let Some(result) = record.result else {
            summary.unfinished += 1;
            return Ok(());
        };
        let Some(t) = cache.narrow(at, &record.variant)? else {
            summary.wide += 1;
            return Ok(());
        };
        summary.results[result as usize] += 1;
        let white = result.for_white().expect("a finished game");
        let game = summary.games - 1;
        kind_map(&t, &record.tokens, &mut kinds);
        let mut pos = fen::parse(&t, &record.start).map_err(|e| DataError::Position {
            file: at.file.to_path_buf(),
            offset: at.offset,
            reason: e.to_string(),
        })?;
        for (ply, p) in record.plies.iter().enumerate() {
            let mv =
                p.mv.to_move(&kinds)
                    .filter(|mv| legal_moves(&t, &pos).contains(mv))
                    .ok_or_else(|| DataError::Move {
                        file: at.file.to_path_buf(),
                        offset: at.offset,
                        ply,
                    })?;
            summary.positions += 1;
            if filter.keeps(&t, &pos, ply, mv, p.score) {
                summary.kept += 1;
                each(TrainingPosition {
                    tables: t.clone(),
                    position: pos,
                    score: p.score.0,
                    result: if pos.side == Player::WHITE {
                        white
                    } else {
                        1.0 - white
                    },
                    game,
                });
            }
            pos = pos.play(&t, mv);
        }
        Ok(())
    })
}

/// Where a record starts.
pub struct At<'a> {
    pub file: &'a Path,
    pub offset: u64,
}

/// Calls `each` with every complete record of `paths` in order; counts them (and their bytes)
/// in the summary it returns and reports a truncated last record of a file there.
pub fn read_records(
    paths: &[PathBuf],
    mut each: impl FnMut(&At, &PgdRecord, &mut ReadSummary) -> Result<(), DataError>,
) -> Result<ReadSummary, DataError> {
    let mut summary = ReadSummary::default();
    let mut record = PgdRecord::default();
    let mut body = Vec::new();
    for path in paths {
        let io = |e: std::io::Error| DataError::Io {
            file: path.clone(),
            reason: e.to_string(),
        };
        let mut input = BufReader::with_capacity(1 << 20, File::open(path).map_err(io)?);
        let mut offset = 0u64;
        loop {
            let mut header = [0u8; HEADER_BYTES];
            let got = read_full(&mut input, &mut header).map_err(io)?;
            if got == 0 {
                break;
            }
            let at = At { file: path, offset };
            let record_error = |error| DataError::Record {
                file: path.clone(),
                offset,
                error,
            };
            if got < HEADER_BYTES {
                if !plausible_header_prefix(&header[..got]) {
                    return Err(record_error(RecordError::Magic));
                }
                summary.truncated.push(truncation(path, offset, got));
                break;
            }
            let (version, n) = read_header(&header).map_err(record_error)?;
            body.resize(n, 0);
            let got_body = read_full(&mut input, &mut body).map_err(io)?;
            if got_body < n {
                summary
                    .truncated
                    .push(truncation(path, offset, HEADER_BYTES + got_body));
                break;
            }
            record.decode_body(version, &body).map_err(record_error)?;
            summary.games += 1;
            summary.bytes += (HEADER_BYTES + n) as u64;
            each(&at, &record, &mut summary)?;
            offset += (HEADER_BYTES + n) as u64;
        }
    }
    Ok(summary)
}

/// The complete records at the start of a file, by their headers only: how many, and where
/// the last one ends (a writer resuming a killed run cuts the file there).
pub fn complete_prefix(path: &Path) -> Result<(u64, u64), DataError> {
    let io = |e: std::io::Error| DataError::Io {
        file: path.to_path_buf(),
        reason: e.to_string(),
    };
    let mut input = BufReader::new(File::open(path).map_err(io)?);
    let size = input.get_ref().metadata().map_err(io)?.len();
    let (mut count, mut offset) = (0, 0u64);
    loop {
        let mut header = [0u8; HEADER_BYTES];
        if read_full(&mut input, &mut header).map_err(io)? < HEADER_BYTES {
            return Ok((count, offset));
        }
        let (_, n) = read_header(&header).map_err(|error| DataError::Record {
            file: path.to_path_buf(),
            offset,
            error,
        })?;
        let n = n as u64;
        if offset + HEADER_BYTES as u64 + n > size {
            return Ok((count, offset));
        }
        input.seek(SeekFrom::Current(n as i64)).map_err(io)?;
        offset += HEADER_BYTES as u64 + n;
        count += 1;
    }
}

fn truncation(path: &Path, offset: u64, bytes: usize) -> Truncation {
    Truncation {
        file: path.to_path_buf(),
        offset,
        bytes: bytes as u64,
    }
}

/// Reads until `buf` is full or the input ends; the bytes read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// For each token of the record's table, this build's kind with that token.
fn kind_map(t: &Tables<u64>, tokens: &[String], kinds: &mut Vec<Option<Kind>>) {
    kinds.clear();
    kinds.extend(tokens.iter().map(|token| {
        t.variant
            .pieces
            .iter()
            .position(|p| &p.token == token)
            .map(|k| Kind(k as u8))
    }));
}

/// The tables of each variant name met, built once per read (`None`: a board too big).
#[derive(Default)]
struct VariantCache {
    tables: HashMap<String, Option<Arc<Tables<u64>>>>,
}

impl VariantCache {
    fn narrow(&mut self, at: &At, name: &str) -> Result<Option<Arc<Tables<u64>>>, DataError> {
        if let Some(t) = self.tables.get(name) {
            return Ok(t.clone());
        }
        let tables = games::tables(name).map_err(|e| DataError::Variant {
            file: at.file.to_path_buf(),
            offset: at.offset,
            reason: e.to_string(),
        })?;
        let narrow = match tables {
            AnyTables::Narrow(t) => Some(t),
            AnyTables::Wide(_) => None,
        };
        self.tables.insert(name.to_string(), narrow.clone());
        Ok(narrow)
    }
}
