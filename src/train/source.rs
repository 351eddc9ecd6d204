//! Where training positions come from: the game records of `panoply datagen`
//! ([`crate::datagen`], read and filtered by its reader) and, for older data, the text files of
//! `panoply selfplay --record` (`variant  position  result  score`, White's view). A file is
//! told by its first bytes. [`TrainingPosition`] is the datagen reader's record.
//!
//! The text format does not number games, so they are recovered: positions of one game are
//! consecutive lines, and a new game starts where the variant or the result changes, the move
//! counter goes back (fullmove and side to move not after the previous line's), or the number
//! of pieces grows. Two games of the same pairing and result written one after the other are
//! told apart by the move counter, since every game starts again near move one.

use crate::datagen::filter::Filter;
use crate::datagen::reader::{is_game_record, read_positions as read_records, DataError};
use crate::game::AnyTables;
use crate::games;
use crate::movegen::tables::Tables;
use crate::piece::Player;
use crate::position::Position;
use crate::tune::data::Sample;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use crate::datagen::reader::TrainingPosition;

/// What reading the files found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    pub positions: usize,
    pub games: u64,
    /// Unterminated last lines left out (a file still being appended to).
    pub partial_lines: usize,
}

/// Why training data cannot be read.
#[derive(Debug)]
pub enum SourceError {
    Io(PathBuf, std::io::Error),
    Line {
        file: PathBuf,
        line: usize,
        reason: String,
    },
    /// A variant the trainer cannot learn from (not 8x8 two-player, unknown name).
    Variant(String, String),
    /// A game-record file the datagen reader refused.
    Records(DataError),
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SourceError::Io(path, e) => write!(f, "{}: cannot read: {e}", path.display()),
            SourceError::Line { file, line, reason } => {
                write!(f, "{}:{line}: {reason}", file.display())
            }
            SourceError::Variant(name, why) => write!(f, "variant '{name}': {why}"),
            SourceError::Records(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SourceError {}

/// The tables of an 8x8 variant, built once per name.
#[derive(Default)]
struct TableCache(HashMap<String, Arc<Tables<u64>>>);

impl TableCache {
    fn get(&mut self, name: &str) -> Result<Arc<Tables<u64>>, SourceError> {
        if let Some(t) = self.0.get(name) {
            return Ok(t.clone());
        }
        let t = match games::tables(name) {
            Ok(AnyTables::Narrow(t)) => t,
            Ok(AnyTables::Wide(_)) => {
                return Err(SourceError::Variant(
                    name.into(),
                    "networks are trained for boards of up to 64 cells".into(),
                ))
            }
            Err(e) => return Err(SourceError::Variant(name.into(), e.to_string())),
        };
        self.0.insert(name.to_string(), t.clone());
        Ok(t)
    }
}

/// Where the previous line's game stood, to tell where the next game begins.
struct GameTracker {
    game: u64,
    last: Option<(String, u32, u32, u32)>,
}

impl GameTracker {
    /// The game number of a position of `variant` with White's `result`.
    fn game_of(&mut self, variant: &str, result: f64, pos: &Position<u64>) -> u64 {
        let result = (result * 2.0) as u32;
        let ply = pos.fullmove as u32 * 2 + (pos.side != Player::WHITE) as u32;
        let pieces = pos.occupied.count_ones();
        let same_game = self
            .last
            .as_ref()
            .is_some_and(|(v, r, p, n)| v == variant && *r == result && ply > *p && pieces <= *n);
        if !same_game && self.last.is_some() {
            self.game += 1;
        }
        self.last = Some((variant.to_string(), result, ply, pieces));
        self.game
    }
}

/// Reads every position of the files in order and hands each to `sink`.
pub fn read_positions(
    paths: &[PathBuf],
    mut sink: impl FnMut(TrainingPosition),
) -> Result<ReadStats, SourceError> {
    let mut tables = TableCache::default();
    let mut tracker = GameTracker {
        game: 0,
        last: None,
    };
    let mut stats = ReadStats::default();
    let mut text_games = 0;
    for path in paths {
        if is_game_record(path).map_err(|e| SourceError::Io(path.into(), e))? {
            // Game numbers continue after those already read, so held-out splits stay by game.
            let first = stats.games + text_games;
            let summary = read_records(std::slice::from_ref(path), &Filter::default(), |mut p| {
                p.game += first;
                sink(p)
            })
            .map_err(SourceError::Records)?;
            stats.positions += summary.kept as usize;
            stats.games += summary.games;
        } else {
            let before = stats.positions;
            read_file(path, &mut tables, &mut tracker, &mut stats, &mut sink)?;
            if stats.positions > before {
                text_games = tracker.game + 1;
            }
        }
    }
    stats.games += text_games;
    Ok(stats)
}

fn read_file(
    path: &Path,
    tables: &mut TableCache,
    tracker: &mut GameTracker,
    stats: &mut ReadStats,
    sink: &mut impl FnMut(TrainingPosition),
) -> Result<(), SourceError> {
    let text = std::fs::read_to_string(path).map_err(|e| SourceError::Io(path.into(), e))?;
    let complete = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    if complete.len() < text.len() {
        stats.partial_lines += 1;
    }
    for (i, line) in complete.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |reason: String| SourceError::Line {
            file: path.into(),
            line: i + 1,
            reason,
        };
        let sample = Sample::parse(line).map_err(|e| bad(e.to_string()))?;
        let t = tables
            .get(&sample.variant)
            .map_err(|e| bad(e.to_string()))?;
        let position = crate::position::fen::parse(&*t, &sample.position)
            .map_err(|e| bad(format!("bad position string: {e}")))?;
        let game = tracker.game_of(&sample.variant, sample.result, &position);
        let white = position.side == Player::WHITE;
        let score = sample.score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16;
        sink(TrainingPosition {
            tables: t,
            score: if white { score } else { -score },
            result: if white {
                sample.result as f32
            } else {
                1.0 - sample.result as f32
            },
            game,
            position,
        });
        stats.positions += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("panoply-source-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn games_are_recovered_and_labels_turn_to_the_side_to_move() {
        let lines = [
            // Game 0: two positions, White wins.
            "cwda-fide-fide\trnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\t1\t30",
            "cwda-fide-fide\trnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\t1\t25",
            // Game 1: same pairing and result, but the move counter starts again.
            "cwda-fide-fide\trnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\t1\t20",
            // Game 2: another result.
            "cwda-fide-fide\trnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 3\t0.5\t0",
        ];
        let path = write("games", &(lines.join("\n") + "\n" + "cwda-fide"));
        let mut seen = Vec::new();
        let stats = read_positions(std::slice::from_ref(&path), |p| {
            seen.push((p.game, p.score, p.result))
        })
        .unwrap();
        std::fs::remove_file(path).unwrap();
        assert_eq!(
            stats,
            ReadStats {
                positions: 4,
                games: 3,
                partial_lines: 1
            }
        );
        assert_eq!(
            seen,
            vec![(0, -30, 0.0), (0, 25, 1.0), (1, -20, 0.0), (2, 0, 0.5)]
        );
    }

    #[test]
    fn a_bad_line_names_its_file_and_line() {
        let path = write("bad", "cwda-fide-fide\tnot a position\t1\t3\n");
        let err = read_positions(std::slice::from_ref(&path), |_| {})
            .unwrap_err()
            .to_string();
        std::fs::remove_file(path).unwrap();
        assert!(err.contains(":1: bad position string"), "{err}");
    }
}
