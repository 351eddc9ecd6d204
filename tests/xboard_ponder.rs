//! XBoard pondering (`hard` / `easy`), driven through the built binary: what the engine does
//! on the opponent's time, and that every command is still answered and leaves the game right.

use crate::protocol_common;
use protocol_common::{legal_moves, XB};
use std::time::Duration;

/// The moves of a thinking line (`depth score time nodes pv...`), if it is one.
fn thinking_pv(line: &str) -> Option<Vec<String>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let numbers = words.len() > 4 && words[..4].iter().all(|w| w.parse::<i64>().is_ok());
    numbers.then(|| words[4..].iter().map(|w| w.to_string()).collect())
}

fn is_thinking(line: &str) -> bool {
    thinking_pv(line).is_some()
}

/// A pondering engine (Black, a small depth per move) after 1. e2e4 and its reply: returns
/// the reply and the reply it expects from White (its `hint`).
fn after_first_move(x: &mut XB) -> (String, String) {
    x.silent("new");
    x.silent("hard");
    x.silent("post");
    x.silent("sd 4");
    x.e.send("usermove e2e4");
    let reply = x.e.expect_prefix("move ")["move ".len()..].to_string();
    x.e.send("hint");
    let hint = x.e.expect_prefix("Hint: ")["Hint: ".len()..].to_string();
    let white = legal_moves("chess", None, &["e2e4", &reply]);
    assert!(white.contains(&hint), "hint {hint} after e2e4 {reply}");
    (reply, hint)
}

/// Waits for a thinking line whose principal variation starts with a legal move of the
/// position after `moves`.
fn thinking_in(x: &mut XB, moves: &[&str]) -> String {
    let legal = legal_moves("chess", None, moves);
    x.e.read_until("a thinking line on the expected position", |l| {
        thinking_pv(l).is_some_and(|pv| legal.contains(&pv[0]))
    })
    .0
}

#[test]
fn a_pondering_engine_thinks_on_the_expected_reply_and_answers_a_hit() {
    let mut x = XB::start();
    let (reply, hint) = after_first_move(&mut x);
    // Thinking for Black after White's expected move, before White has moved.
    let line = thinking_in(&mut x, &["e2e4", &reply, &hint]);
    assert!(thinking_pv(&line).is_some(), "{line}");
    // Commands that come meanwhile are answered, and the pondering goes on after them.
    for command in ["time 30000", "otim 30000", ".", "?", "ping 41"] {
        x.e.send(command);
    }
    let (_, before) = x.e.read_until("pong 41", |l| l == "pong 41");
    assert!(
        before.iter().all(|l| is_thinking(l)),
        "only thinking before the pong: {before:?}"
    );
    thinking_in(&mut x, &["e2e4", &reply, &hint]);
    // The expected move: the engine answers it with a legal move.
    x.e.send(&format!("usermove {hint}"));
    let answer = x.e.expect_prefix("move ")["move ".len()..].to_string();
    let black = legal_moves("chess", None, &["e2e4", &reply, &hint]);
    assert!(
        black.contains(&answer),
        "{answer} after e2e4 {reply} {hint}"
    );
}

#[test]
fn another_move_than_the_expected_one_gets_a_reply_to_the_real_position() {
    let mut x = XB::start();
    let (reply, hint) = after_first_move(&mut x);
    thinking_in(&mut x, &["e2e4", &reply, &hint]);
    let white = legal_moves("chess", None, &["e2e4", &reply]);
    let other = white.iter().find(|m| **m != hint).unwrap().clone();
    // An illegal move is refused without ending the pondering.
    x.e.send("usermove e2e5");
    x.e.expect("Illegal move: e2e5");
    x.e.send(&format!("usermove {other}"));
    let answer = x.e.expect_prefix("move ")["move ".len()..].to_string();
    let black = legal_moves("chess", None, &["e2e4", &reply, &other]);
    assert!(
        black.contains(&answer),
        "{answer} after e2e4 {reply} {other}"
    );
}

#[test]
fn easy_stops_pondering_and_hard_starts_it_again() {
    let mut x = XB::start();
    let (reply, hint) = after_first_move(&mut x);
    thinking_in(&mut x, &["e2e4", &reply, &hint]);
    x.e.send("easy");
    x.e.send("ping 7");
    x.e.expect("pong 7");
    // The pondering search has ended before the pong: nothing more comes.
    assert_eq!(x.e.next_line(Duration::from_millis(1500)), None);
    // `hard` while the opponent is to move: a new search on the same expected position,
    // from its first iteration.
    x.e.send("hard");
    let line = thinking_in(&mut x, &["e2e4", &reply, &hint]);
    assert!(line.starts_with("1 "), "{line}");
}

#[test]
fn commands_that_change_the_game_stop_pondering_and_keep_the_game() {
    let mut x = XB::start();
    let (reply, hint) = after_first_move(&mut x);
    thinking_in(&mut x, &["e2e4", &reply, &hint]);
    // `force` while pondering: the game is still the one after Black's reply, so `go`
    // plays for White.
    x.e.send("force");
    x.e.send("ping 8");
    x.e.read_until("pong 8", |l| l == "pong 8");
    x.e.send("go");
    let white = x.e.expect_prefix("move ")["move ".len()..].to_string();
    let legal = legal_moves("chess", None, &["e2e4", &reply]);
    assert!(legal.contains(&white), "{white} after e2e4 {reply}");
    // The engine plays White now and ponders on Black's expected reply; `undo` takes its
    // move back, `hint` is then silent (the position changed) and `go` plays White again.
    x.e.send("undo");
    x.e.send("ping 9");
    x.e.read_until("pong 9", |l| l == "pong 9");
    x.silent("force");
    x.silent("hint");
    x.e.send("go");
    let again = x.e.expect_prefix("move ")["move ".len()..].to_string();
    assert!(legal.contains(&again), "{again} after e2e4 {reply}");
    // `new` while pondering: a fresh game in which the engine plays Black.
    x.e.send("new");
    x.e.send("ping 10");
    x.e.read_until("pong 10", |l| l == "pong 10");
    x.silent("nopost");
    x.e.send("usermove d2d4");
    let answer = x.e.expect_prefix("move ")["move ".len()..].to_string();
    assert!(legal_moves("chess", None, &["d2d4"]).contains(&answer));
}
