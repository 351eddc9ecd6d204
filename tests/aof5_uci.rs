//! Armies of Faith through UCI, driven through the built binary: the multi-player search
//! option, moves of several armies, `pass`, bad input, the Raj subvariant, and `Skill Level`.

use crate::common;
use crate::protocol_common;

use common::{board, tables, BYZANTINE_BOXED_IN, KINGS};
use protocol_common::{legal_moves, start_uci as start, uci_say as say, Engine};

/// One move of each army from the start, then a second Catholic move.
const OPENING: [&str; 5] = ["gt1ft1", "gy1fy1", "dy1ey1", "dt1et1", "gs2fs2"];

/// Sends `go ...` and returns the move of its `bestmove` line.
fn best_move(e: &mut Engine, go: &str) -> String {
    e.send(go);
    let line = e.expect_prefix("bestmove ");
    line.split_whitespace().nth(1).unwrap().to_string()
}

/// The Byzantine King boxed in on as1 but not in check: its only move is `pass`.
fn boxed_byzantine_king() -> String {
    let t = tables("aof5");
    let mut pieces = BYZANTINE_BOXED_IN.to_vec();
    pieces.push(("is2", "cR"));
    format!("{} b cpib - 0 1", board(&t, &pieces))
}

#[test]
fn uci_offers_the_multi_player_search_methods() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect("uciok");
    let option = lines
        .iter()
        .find(|l| l.starts_with("option name MultiPlayerSearch type combo default "))
        .expect("MultiPlayerSearch option");
    let vars: Vec<&str> = option.split(" var ").skip(1).collect();
    assert_eq!(vars, ["paranoid", "brs"]);
}

#[test]
fn both_methods_answer_for_the_army_to_move() {
    let mut e = start();
    assert!(say(&mut e, "setoption name UCI_Variant value aof5").is_empty());
    let position = format!("position startpos moves {}", OPENING.join(" "));
    // After five moves the Protestant army moves.
    let legal = legal_moves("aof5", None, &OPENING);
    assert!(legal.contains(&"gz1fz1".to_string()));
    for method in ["paranoid", "brs"] {
        let set = format!("setoption name MultiPlayerSearch value {method}");
        assert!(say(&mut e, &set).is_empty(), "{method} accepted");
        assert!(say(&mut e, &position).is_empty());
        for go in ["go depth 2", "go nodes 4000"] {
            let mv = best_move(&mut e, go);
            assert!(legal.contains(&mv), "{method} {go}: {mv} is not legal");
        }
    }
}

#[test]
fn a_pass_is_played_and_answered() {
    let mut e = start();
    say(&mut e, "setoption name UCI_Variant value aof5");
    let fen = boxed_byzantine_king();
    assert!(say(&mut e, &format!("position fen {fen}")).is_empty());
    assert_eq!(best_move(&mut e, "go depth 2"), "pass");
    assert!(say(&mut e, &format!("position fen {fen} moves pass")).is_empty());
    let legal = legal_moves("aof5", Some(&fen), &["pass"]);
    for method in ["brs", "paranoid"] {
        say(
            &mut e,
            &format!("setoption name MultiPlayerSearch value {method}"),
        );
        let mv = best_move(&mut e, "go depth 2");
        assert!(legal.contains(&mv), "{method}: {mv} is not a Catholic move");
    }
}

#[test]
fn bad_values_and_illegal_moves_keep_the_state() {
    let mut e = start();
    say(&mut e, "setoption name UCI_Variant value aof5");
    say(&mut e, "position startpos moves gt1ft1");
    let legal = legal_moves("aof5", None, &["gt1ft1"]);
    let out = say(&mut e, "setoption name MultiPlayerSearch value minimax");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("info string") && out[0].contains("'minimax' is not a search method"),
        "{out:?}"
    );
    // An illegal Protestant move (a Catholic Pawn step) and a malformed one.
    for bad in ["gt1ft1 ft1et1", "gt1ft1 gy1", "gt1ft1 pass"] {
        let out = say(&mut e, &format!("position startpos moves {bad}"));
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with("info string bad move list"), "{out:?}");
    }
    let out = say(&mut e, "position fen iK,10 c cpib - 0 1");
    assert!(out[0].starts_with("info string bad position"), "{out:?}");
    // Still the position after gt1ft1, searched with the method set before.
    let mv = best_move(&mut e, "go depth 2");
    assert!(legal.contains(&mv), "{mv}");
}

#[test]
fn raj_positions_are_set_up_by_position_strings() {
    let mut e = start();
    say(&mut e, "setoption name UCI_Variant value aof5-raj");
    let start = panoply::games::aof5::START;
    let position = format!("position fen {start} moves gt1ft1 gy1fy1");
    assert!(say(&mut e, &position).is_empty());
    let legal = legal_moves("aof5-raj", Some(start), &["gt1ft1", "gy1fy1"]);
    let first = best_move(&mut e, "go nodes 3000");
    // A second search of the position may go deeper with what the table kept from the
    // first; a new game clears it.
    assert!(say(&mut e, "ucinewgame").is_empty());
    assert!(say(&mut e, &position).is_empty());
    assert_eq!(
        first,
        best_move(&mut e, "go nodes 3000"),
        "the same budget from a new game gives the same move"
    );
    let mv = best_move(&mut e, "go nodes 3000");
    assert!(legal.contains(&mv), "{mv}");
    // A position with Catholic Raj pieces: a Memsahib on hz2 attacks the Protestant King
    // on jz2, so the parsed position already has Protestant checkmated (docs/rules.md 5.4).
    let t = tables("aof5-raj");
    let mut pieces = KINGS.to_vec();
    pieces.extend([("hz2", "cMS"), ("ev2", "cNB"), ("au2", "pN")]);
    let fen = format!("{} c cpib - 0 1", board(&t, &pieces));
    assert!(say(&mut e, &format!("position fen {fen}")).is_empty());
    let legal = legal_moves("aof5-raj", Some(&fen), &[]);
    let mv = best_move(&mut e, "go depth 2");
    assert!(legal.contains(&mv), "{mv}");
    e.send("go perft 1");
    let total = e.expect_prefix("Nodes searched: ");
    assert_eq!(total, format!("Nodes searched: {}", legal.len()));
}

/// The first move of the principal variation of the last `info` line of a `go`, and the
/// `bestmove`.
fn searched_and_played(e: &mut Engine, go: &str) -> (String, String) {
    e.send(go);
    let (best, infos) = e.read_until("bestmove", |l| l.starts_with("bestmove "));
    let last = infos
        .iter()
        .rev()
        .find(|l| l.contains(" pv "))
        .expect("an info line");
    let searched = last
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    (
        searched.to_string(),
        best.split_whitespace().nth(1).unwrap().to_string(),
    )
}

/// `Skill Level` in a four-player game (as an engine file's `option.Skill Level` sets it):
/// the level chooses among root moves the same search scored, so at level 0 some moves are
/// not the search's best (70 % of them may be a mistake); at full strength none is.
#[test]
fn a_low_skill_level_plays_near_best_moves_in_four_player_games() {
    let mut e = start();
    say(&mut e, "setoption name UCI_Variant value aof5");
    let played_other = |e: &mut Engine, level: u32| -> usize {
        say(e, &format!("setoption name Skill Level value {level}"));
        (0..=OPENING.len())
            .filter(|&n| {
                let moves = &OPENING[..n];
                say(e, &format!("position startpos moves {}", moves.join(" ")));
                let (searched, played) = searched_and_played(e, "go nodes 3000");
                assert!(
                    legal_moves("aof5", None, moves).contains(&played),
                    "{played} after {moves:?}"
                );
                searched != played
            })
            .count()
    };
    assert!(
        played_other(&mut e, 0) > 0,
        "level 0 always played the best move"
    );
    assert_eq!(played_other(&mut e, 20), 0);
}
