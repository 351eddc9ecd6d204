//! Score adjudication of two-player games, as cutechess-cli and fastchess offer it: a game
//! both engines agree is lost is given to the winner (`--resign movecount=3 score=600`), and a
//! game both agree is level late on is drawn (`--draw movenumber=40 movecount=8 score=10`).
//! Engine tests spend most of their time in lost positions played out to mate and in dead
//! draws shuffled to the move rule; adjudicating them makes a test run faster with little
//! effect on the result, since the engines themselves say how the game ends.

use crate::engines::client::Score;
use std::fmt;

/// Centipawns from the mover's view, with mates beyond any centipawn score.
fn centipawns(score: Score) -> i32 {
    match score {
        Score::Centipawns(cp) => cp,
        Score::Mate(m) if m > 0 => 100_000,
        Score::Mate(_) => -100_000,
    }
}

/// Resign: the loser's last `moves` scores are all at most `-score` and the winner's all at
/// least `score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resign {
    pub moves: usize,
    pub score: i32,
}

/// Draw: from move `from_move` on, both engines' last `moves` scores are all within `score`
/// of zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    pub from_move: usize,
    pub moves: usize,
    pub score: i32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdjudicationError(pub String);

impl fmt::Display for AdjudicationError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AdjudicationError {}

/// `key=value` words into their values; every key must be one of `keys`, each given once.
fn settings(words: &[String], keys: &[&str], example: &str) -> Result<Vec<i64>, AdjudicationError> {
    let mut values = vec![None; keys.len()];
    for word in words.iter().flat_map(|w| w.split_whitespace()) {
        let bad = || AdjudicationError(format!("bad setting '{word}' (expected e.g. {example})"));
        let (key, value) = word.split_once('=').ok_or_else(bad)?;
        let i = keys.iter().position(|&k| k == key).ok_or_else(bad)?;
        let v: i64 = value.parse().ok().filter(|&v| v >= 0).ok_or_else(bad)?;
        values[i] = Some(v);
    }
    keys.iter()
        .zip(values)
        .map(|(k, v)| v.ok_or_else(|| AdjudicationError(format!("'{k}=' is missing ({example})"))))
        .collect()
}

impl Resign {
    /// Reads `movecount=3 score=600`.
    pub fn parse(words: &[String]) -> Result<Resign, AdjudicationError> {
        let v = settings(words, &["movecount", "score"], "movecount=3 score=600")?;
        Ok(Resign {
            moves: v[0].clamp(1, 1000) as usize,
            score: v[1].min(100_000) as i32,
        })
    }
}

impl Draw {
    /// Reads `movenumber=40 movecount=8 score=10`.
    pub fn parse(words: &[String]) -> Result<Draw, AdjudicationError> {
        let v = settings(
            words,
            &["movenumber", "movecount", "score"],
            "movenumber=40 movecount=8 score=10",
        )?;
        Ok(Draw {
            from_move: v[0].min(100_000) as usize,
            moves: v[1].clamp(1, 1000) as usize,
            score: v[2].min(100_000) as i32,
        })
    }
}

/// Both kinds; either may be off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub resign: Option<Resign>,
    pub draw: Option<Draw>,
}

/// What the scores say about a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The seat that both engines agree is winning.
    Win(usize),
    Draw,
}

impl Adjudication {
    /// The verdict on a two-player game whose moves so far carried these scores (one per ply,
    /// `None` where the engine reported none, e.g. a book move), the first ply played by
    /// `first_seat`; `None` while the game must go on.
    pub fn verdict(&self, scores: &[Option<Score>], first_seat: usize) -> Option<Verdict> {
        let cp: Vec<Option<i32>> = scores.iter().map(|s| s.map(centipawns)).collect();
        if let Some(r) = self.resign {
            if let Some(recent) = last_plies(&cp, 2 * r.moves) {
                // The seat that made the last ply, then the other.
                let last_seat = (first_seat + cp.len() - 1) % 2;
                let (last, other): (Vec<i32>, Vec<i32>) = split_by_mover(&recent);
                for (seat, winning, losing) in
                    [(last_seat, &last, &other), (1 - last_seat, &other, &last)]
                {
                    if winning.iter().all(|&s| s >= r.score)
                        && losing.iter().all(|&s| s <= -r.score)
                    {
                        return Some(Verdict::Win(seat));
                    }
                }
            }
        }
        if let Some(d) = self.draw {
            let full_moves = cp.len() / 2;
            if full_moves >= d.from_move {
                if let Some(recent) = last_plies(&cp, 2 * d.moves) {
                    if recent.iter().all(|s| s.abs() <= d.score) {
                        return Some(Verdict::Draw);
                    }
                }
            }
        }
        None
    }
}

/// The last `n` scores, if there are that many and every one was reported.
fn last_plies(cp: &[Option<i32>], n: usize) -> Option<Vec<i32>> {
    if cp.len() < n {
        return None;
    }
    cp[cp.len() - n..].iter().copied().collect()
}

/// Scores of the last ply's mover and of the other seat, from `recent` (oldest first).
fn split_by_mover(recent: &[i32]) -> (Vec<i32>, Vec<i32>) {
    let n = recent.len();
    let last = (0..n)
        .filter(|i| (n - 1 - i).is_multiple_of(2))
        .map(|i| recent[i])
        .collect();
    let other = (0..n)
        .filter(|i| (n - 1 - i) % 2 == 1)
        .map(|i| recent[i])
        .collect();
    (last, other)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        vec![s.to_string()]
    }

    fn cp(v: &[i32]) -> Vec<Option<Score>> {
        v.iter().map(|&c| Some(Score::Centipawns(c))).collect()
    }

    #[test]
    fn settings_parse_and_bad_ones_say_what_is_wrong() {
        assert_eq!(
            Resign::parse(&words("score=600 movecount=3")).unwrap(),
            Resign {
                moves: 3,
                score: 600
            }
        );
        assert_eq!(
            Draw::parse(&words("movenumber=40 movecount=8 score=10")).unwrap(),
            Draw {
                from_move: 40,
                moves: 8,
                score: 10
            }
        );
        let e = Resign::parse(&words("movecount=3")).unwrap_err();
        assert!(e.0.contains("score="), "{e}");
        let e = Resign::parse(&words("movecount=x score=1")).unwrap_err();
        assert!(e.0.contains("'movecount=x'"), "{e}");
        assert!(Draw::parse(&words("movenumber=40 moves=8 score=10")).is_err());
        assert!(Resign::parse(&words("movecount=-3 score=600")).is_err());
    }

    #[test]
    fn both_engines_must_agree_for_a_resignation() {
        let a = Adjudication {
            resign: Some(Resign {
                moves: 2,
                score: 500,
            }),
            draw: None,
        };
        // Seat 0 (moving first) says +600, +700; seat 1 says -550, -800: seat 0 wins.
        assert_eq!(
            a.verdict(&cp(&[10, -5, 600, -550, 700, -800]), 0),
            Some(Verdict::Win(0))
        );
        // Seat 1 disagrees once: play on.
        assert_eq!(a.verdict(&cp(&[10, -5, 600, -450, 700, -800]), 0), None);
        // The game started with seat 1 to move: the same scores make seat 1 the winner.
        assert_eq!(
            a.verdict(&cp(&[10, -5, 600, -550, 700, -800]), 1),
            Some(Verdict::Win(1))
        );
        // Seat 1 wins on its own last move (the loser's scores come first).
        assert_eq!(
            a.verdict(&cp(&[-600, 700, -900, 800]), 0),
            Some(Verdict::Win(1))
        );
        // A mate score counts as beyond any threshold.
        let mut s = cp(&[-600, 700, -900]);
        s.push(Some(Score::Mate(5)));
        assert_eq!(a.verdict(&s, 0), Some(Verdict::Win(1)));
        // Too few scored plies, or a ply without a score among them: play on.
        assert_eq!(a.verdict(&cp(&[700, -900, 800]), 0), None);
        let mut s = cp(&[-600, 700, -900, 800]);
        s[1] = None;
        assert_eq!(a.verdict(&s, 0), None);
    }

    #[test]
    fn a_level_game_is_drawn_only_from_the_move_number_on() {
        let a = Adjudication {
            resign: None,
            draw: Some(Draw {
                from_move: 3,
                moves: 2,
                score: 10,
            }),
        };
        assert_eq!(a.verdict(&cp(&[0, 0, 5, -5]), 0), None);
        assert_eq!(a.verdict(&cp(&[0, 0, 5, -5, 3, 0]), 0), Some(Verdict::Draw));
        assert_eq!(a.verdict(&cp(&[0, 0, 5, -50, 3, 0]), 0), None);
    }
}
