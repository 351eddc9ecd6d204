//! `panoply book`: builds an opening book from Panoply's own analysis. From the start
//! position, every position of the tree up to `plies` is searched (in process, with the
//! engine's `Searcher` and `MultiPV`); the moves scoring within `margin` centipawns of the
//! best become book moves (weight 100 for the best, falling to 1 at the margin) and their
//! positions are expanded in turn. With a fixed depth and one thread the book is
//! reproducible.

use crate::bitboard::BitSet;
use crate::game::Game;
use crate::games;
use crate::movegen::tables::Tables;
use crate::records::book::Book;
use crate::search::{Info, Limits, Score, SearchOptions, Searcher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

pub struct BookMakerSettings {
    pub variants: Vec<String>,
    /// Depth of the book tree in plies.
    pub plies: usize,
    /// Moves searched per position (the search's MultiPV).
    pub multipv: usize,
    /// Search depth per position (None: `movetime` only).
    pub depth: Option<u32>,
    pub movetime: Option<Duration>,
    /// Keep moves within this many centipawns of the best.
    pub margin: i32,
}

/// One analysed line: the first move and its score in centipawns (mates as ±100000).
#[derive(Clone, Debug, PartialEq)]
struct Candidate {
    mv: String,
    score: i32,
}

fn score_value(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(m) if m > 0 => 100_000 - m,
        Score::Mate(m) => -100_000 - m,
    }
}

/// Book weight for a move `gap` centipawns worse than the best: 100 for the best, at least 1.
fn weight(gap: i32, margin: i32) -> u32 {
    if margin <= 0 {
        return 100;
    }
    (100 - 99 * gap.clamp(0, margin) / margin) as u32
}

/// Builds the book; `report` receives one line per analysed position.
pub fn make_book(settings: &BookMakerSettings, report: &dyn Fn(&str)) -> Result<Book, String> {
    let mut book = Book::default();
    for variant in &settings.variants {
        let tables = games::tables(variant).map_err(|e| e.to_string())?;
        crate::with_tables!(&tables, t => expand(t, settings, &mut book, report))?;
    }
    Ok(book)
}

/// The best lines of a position, one per MultiPV slot, from the last completed iteration.
fn analyse<B: BitSet>(
    searcher: &mut Searcher<B>,
    game: &Game<B>,
    settings: &BookMakerSettings,
) -> Vec<Candidate> {
    let limits = Limits {
        depth: settings.depth,
        movetime: settings.movetime,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut lines: Vec<Option<(u32, Candidate)>> = vec![None; settings.multipv.max(1)];
    let result = searcher.search(game, &limits, &stop, &mut |i: &Info| {
        let slot = (i.multipv.max(1) - 1) as usize;
        if let (Some(line), Some(&first)) = (lines.get_mut(slot), i.pv.first()) {
            let c = Candidate {
                mv: game.format_move(first),
                score: score_value(i.score),
            };
            *line = Some((i.depth, c));
        }
    });
    // The last line of each slot (a timed search may leave slots one iteration apart).
    let mut found: Vec<Candidate> = lines.into_iter().flatten().map(|(_, c)| c).collect();
    if found.is_empty() {
        if let Some(best) = result.best {
            found.push(Candidate {
                mv: game.format_move(best),
                score: score_value(result.score),
            });
        }
    }
    found
}

fn expand<B: BitSet>(
    t: &Arc<Tables<B>>,
    settings: &BookMakerSettings,
    book: &mut Book,
    report: &dyn Fn(&str),
) -> Result<(), String> {
    let variant = t.variant.name.clone();
    let options = SearchOptions {
        multi_pv: settings.multipv.max(1),
        threads: 1,
        ..SearchOptions::default()
    };
    let mut searcher = Searcher::new(t.clone(), options);
    // The book serves engines and `panoply match`, which start where GUIs start the game.
    let start = Game::from_position_string(t.clone(), t.variant.session_start())
        .map_err(|e| format!("{variant}: {e}"))?;
    let mut frontier: Vec<Game<B>> = vec![start];
    for _ply in 0..settings.plies {
        let mut next = Vec::new();
        for game in frontier {
            if game.outcome().is_some() {
                continue;
            }
            let position = game.position_string();
            if !book.moves(&variant, &position).is_empty() {
                continue; // reached by transposition: already analysed
            }
            let found = analyse(&mut searcher, &game, settings);
            let best = found.iter().map(|c| c.score).max().unwrap_or(0);
            let mut kept = Vec::new();
            for c in found.iter().filter(|c| best - c.score <= settings.margin) {
                let mut child = game.clone();
                if child.play_str(&c.mv).is_err() {
                    return Err(format!(
                        "{variant}: the search returned an illegal move {}",
                        c.mv
                    ));
                }
                book.add(
                    &variant,
                    &position,
                    &c.mv,
                    weight(best - c.score, settings.margin),
                );
                kept.push(format!("{} {:+}", c.mv, c.score));
                next.push(child);
            }
            report(&format!("{variant} {position}: {}", kept.join(", ")));
        }
        frontier = next;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::XorShiftStar;
    use crate::records::board::new_board;

    #[test]
    fn weights_fall_with_the_gap() {
        assert_eq!(weight(0, 30), 100);
        assert_eq!(weight(30, 30), 1);
        assert_eq!(weight(15, 30), 51);
        assert_eq!(score_value(Score::Mate(2)), 99_998);
    }

    #[test]
    fn a_small_book_has_legal_moves_for_both_sides() {
        let settings = BookMakerSettings {
            variants: vec!["cwda-nutty-rookies".into()],
            plies: 2,
            multipv: 2,
            depth: Some(3),
            movetime: None,
            margin: 1000,
        };
        let book = make_book(&settings, &|_| {}).unwrap();
        let tables = games::tables("cwda-nutty-rookies").unwrap();
        let mut board = new_board(&tables, None).unwrap();
        let start = book.moves("cwda-nutty-rookies", &board.position_string());
        assert_eq!(start.len(), 2, "two moves within a wide margin");
        let line = book.walk(
            "cwda-nutty-rookies",
            board.as_mut(),
            10,
            &mut XorShiftStar::new(7),
        );
        assert_eq!(line.len(), 2, "{line:?}");
    }

    #[test]
    fn books_start_where_engines_start_the_game() {
        // Shatranj: GUIs set up Kings d1/d8, not the traditional array of `start_position`.
        let settings = BookMakerSettings {
            variants: vec!["shatranj".into()],
            plies: 1,
            multipv: 1,
            depth: Some(2),
            movetime: None,
            margin: 0,
        };
        let book = make_book(&settings, &|_| {}).unwrap();
        let tables = games::tables("shatranj").unwrap();
        let v = tables.variant();
        assert_ne!(v.session_start(), v.start_position);
        assert_eq!(book.moves("shatranj", v.session_start()).len(), 1);
        assert!(book.moves("shatranj", &v.start_position).is_empty());
    }
}
