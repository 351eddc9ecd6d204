//! A game in progress (`panoply::game::Game`) on chess: checkmate, repetition, and bad move
//! strings that leave the game as it was.

use panoply::game::{AnyTables, Game, Outcome};
use panoply::movegen::notation::MoveError;
use panoply::piece::Player;

fn chess() -> Game<u64> {
    match panoply::games::tables("chess").unwrap() {
        AnyTables::Narrow(t) => Game::new(t),
        _ => unreachable!(),
    }
}

#[test]
fn fools_mate_is_checkmate() {
    let mut g = chess();
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        g.play_str(m).unwrap();
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Player::BLACK,
            reason: "checkmate".into()
        })
    );
}

#[test]
fn knight_shuffle_repeats_three_times() {
    let mut g = chess();
    for _ in 0..2 {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            assert_eq!(g.outcome(), None);
            g.play_str(m).unwrap();
        }
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: "threefold repetition".into()
        })
    );
}

#[test]
fn bad_moves_leave_the_game_unchanged() {
    let mut g = chess();
    let before = g.position_string();
    assert!(matches!(g.play_str("e2e5"), Err(MoveError::Illegal(_))));
    assert!(matches!(g.play_str("zz"), Err(MoveError::Malformed(_))));
    assert_eq!(g.position_string(), before);
    g.play_str("e2e4").unwrap();
    assert!(g.undo());
    assert_eq!(g.position_string(), before);
}
