//! Armies of Faith rules that `aof5.rs` does not cover: the draw when every army passes,
//! checkmates as events between played moves, the other promotions by checkmate, e.p.
//! targets of an eliminated army, the 50-move rule with three armies, and mergers by the
//! other move kind of Pawn and Yeoman.

use crate::common;

use common::*;
use panoply::game::{Game, Outcome};
use panoply::movegen::perft::perft;
use panoply::piece::Player;
use panoply::position::fen;

/// Level 1 packed with Protestant and Byzantine Pawns and the two Kings, levels 2-4 empty:
/// no Pawn can step (every forward cell is taken), none can capture (no enemy on its
/// capture cells), and each King's free cells on level 2 are attacked by enemy Pawns.
/// Found by a search over such boards; the engine's move generator confirms it below.
const STUCK_LEVEL: &str = "bPN,pPN,pPN,bPN,bPN,pPN,bPN,bPN,bPN,pPN/\
pPN,pPN,bPN,bPN,pPN,pPN,bPN,bPN,pPN,bPN/pPN,pPN,bPN,pPN,pPN,bPN,bPN,pPN,bPN,bPN/\
pPN,bPN,pPN,pK,bPN,bPN,pPN,bPN,bPN,bPN/pPN,pPN,pPN,bPN,bPN,pPN,bPN,bPN,pPN,bPN/\
pPN,pPN,bPN,bPN,pPN,bPN,bPN,pPN,bPN,bPN/pPN,bPN,bPN,pPN,bPN,bPN,pPN,bPN,pPN,bPN/\
bPN,bK,pPN,pPN,pPN,pPN,pPN,pPN,bPN,bPN";
const EMPTY_LEVEL: &str = "10/10/10/10/10/10/10/10";

#[test]
fn every_army_still_playing_passing_in_a_row_is_a_draw() {
    let t = tables("aof5");
    let text = format!("{STUCK_LEVEL}|{EMPTY_LEVEL}|{EMPTY_LEVEL}|{EMPTY_LEVEL} p pb - 0 1");
    let mut game = Game::from_position_string(t.clone(), &text).unwrap();
    assert_eq!(moves(&t, &game.pos), ["pass"]);
    assert_eq!(perft(&t, &game.pos, 3), 1, "pass, pass, pass");
    // Passes are counted from the parsed position: one pass is not yet a draw.
    assert_eq!(game.outcome(), None);
    game.play_str("pass").unwrap();
    assert_eq!(game.pos.side, Player(3));
    assert_eq!(moves(&t, &game.pos), ["pass"]);
    assert_eq!(game.outcome(), None);
    game.play_str("pass").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: "every army passed".into()
        })
    );
    // Passes are moves: the clock and the move number advance.
    assert!(game.position_string().ends_with(" p pb - 2 2"));
    // Taking one pass back ends the draw again.
    game.undo();
    assert_eq!(game.outcome(), None);
}

#[test]
fn rule_a_checkmates_at_the_start_of_the_turn_after_another_army_opens_a_line() {
    let t = tables("aof5");
    // The Catholic Rook on az4 looks down the az column at the Islamic King on az2; a
    // Byzantine Knight on az3 blocks until it moves away in the Byzantine turn.
    let pieces = with_kings(&[("az4", "cR"), ("az3", "bN"), ("dv1", "iN")]);
    let text = format!("{} c cpib - 0 1", board(&t, &pieces));
    let mut game = Game::from_position_string(t.clone(), &text).unwrap();
    for m in ["js2is2", "jz2iz2", "dv1fw1", "az3bx3"] {
        assert_eq!(game.pos.alive, 0b1111);
        game.play_str(m).unwrap();
    }
    let pos = game.pos;
    assert_eq!(pos.alive, 0b1011, "Islam is checkmated");
    assert_eq!(pos.side, Player(0), "the checkmater moves");
    assert_eq!(token_at(&t, &pos, "az4").as_deref(), Some("cDU"));
    assert_eq!(token_at(&t, &pos, "is2").as_deref(), Some("cE"));
    assert_eq!(token_at(&t, &pos, "fw1"), None, "Islamic pieces leave");
    assert_eq!(token_at(&t, &pos, "az2"), None);
    assert!(game.position_string().ends_with(" c cpb - 4 2"));
    assert_eq!(game.outcome(), None, "one checkmate does not end the game");
}

/// The token on `cell` after parsing `extra` plus the four Kings with `side` to move
/// (the parser applies the checkmate rules).
fn after_checkmate(extra: (&str, &str), side: &str, cell: &str) -> (Option<String>, u8) {
    let t = tables("aof5");
    let pos = parse(&t, &with_kings(&[extra]), &format!("{side} cpib - 0 1"));
    (token_at(&t, &pos, cell), pos.alive)
}

#[test]
fn promotion_by_checkmate_of_each_delivering_piece_kind() {
    // Catholic pieces checkmating the Islamic King on az2; Islamic ones the Byzantine on as2.
    let cases = [
        (("by2", "cPN"), "c", "cUS"),
        (("bz2", "cY"), "c", "cUS"),
        (("by2", "cB"), "c", "cGV"),
        (("at2", "iPC"), "i", "iUS"),
        (("dt2", "iCM"), "i", "iCF"),
        // Bishop and Rook compounds stay as they are.
        (("az3", "cMH"), "c", "cMH"),
        (("dv2", "iCL"), "i", "iCL"),
    ];
    for ((cell, token), side, promoted) in cases {
        let (after, alive) = after_checkmate((cell, token), side, cell);
        assert_eq!(after.as_deref(), Some(promoted), "{token} on {cell}");
        let victim = if side == "c" { 2 } else { 3 };
        assert_eq!(alive, 0b1111 & !(1 << victim), "{token} on {cell}");
    }
}

#[test]
fn en_passant_target_vanishes_with_the_eliminated_army() {
    let t = tables("aof5");
    // A Protestant Rook on as4 behind a Catholic Knight on as3 looks at the Byzantine King.
    let pieces = with_kings(&[("ds1", "bPN"), ("as4", "pR"), ("as3", "cN"), ("fs2", "cPN")]);
    let pos = parse(&t, &pieces, "b cpib - 0 1");
    let pos = play(&t, &pos, "ds1fs1");
    assert!(fen::format(&t, &pos).contains(" c cpib es1:b "));
    assert!(moves_from(&t, &pos, "fs2").contains(&"fs2es1".to_string()));
    // The Knight steps aside: at the Protestant turn Byzantium is checkmated, and its
    // double step can no longer be taken en passant.
    let pos = play(&t, &pos, "as3ct3");
    assert_eq!(pos.alive, 0b0111);
    assert!(fen::format(&t, &pos).contains(" p cpi - "));
    assert_eq!(token_at(&t, &pos, "as4").as_deref(), Some("pDU"));
    assert_eq!(token_at(&t, &pos, "fs1"), None);
}

#[test]
fn fifty_moves_count_per_army_still_playing() {
    let t = tables("aof5");
    let three = [KINGS[0], KINGS[1], KINGS[3]];
    // Three armies: 150 plies without capture or Pawn move.
    let at = |clock: u32| {
        let text = format!("{} c cpb - {clock} 40", board(&t, &three));
        let mut g = Game::from_position_string(t.clone(), &text).unwrap();
        g.play_str("js2is2").unwrap();
        g.outcome()
    };
    assert_eq!(at(148), None);
    assert_eq!(
        at(149),
        Some(Outcome::Draw {
            reason: "50-move rule".into()
        })
    );
}

#[test]
fn pawn_and_yeoman_merge_by_their_capturing_move_kinds_too() {
    let t = tables("aof5");
    let pos = parse(
        &t,
        &with_kings(&[("hx2", "bPN"), ("iy2", "bY"), ("gy3", "bY"), ("hy3", "bPN")]),
        "b cpib - 7 1",
    );
    let all = moves(&t, &pos);
    // The Pawn's capture diagonal onto the Yeoman; the Yeoman's capture step onto the Pawn.
    for (m, cell) in [("hx2iy2", "iy2"), ("gy3hy3", "hy3")] {
        assert!(all.contains(&m.to_string()), "{m} missing");
        let merged = play(&t, &pos, m);
        assert_eq!(token_at(&t, &merged, cell).as_deref(), Some("bQ"), "{m}");
        assert_eq!(merged.halfmove, 0, "{m}");
    }
}
