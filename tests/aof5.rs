//! Armies of Faith 5 (docs/rules.md section 5): hand-made positions for every rule and position
//! strings (the reference perft table is checked in `perft_reference.rs`).

use crate::common;

use common::*;
use panoply::game::{Game, Outcome};
use panoply::movegen::perft::perft;
use panoply::piece::Player;
use panoply::position::fen;

const REST_B: &str = "b cpib - 0 1";

#[test]
fn pawns_step_forward_and_capture_along_the_five_forward_diagonals() {
    let t = tables("aof5");
    let pos = parse(
        &t,
        &with_kings(&[("ev2", "bPN"), ("fv3", "cPN"), ("fw2", "iN"), ("ew1", "bN")]),
        REST_B,
    );
    assert_eq!(
        moves_from(&t, &pos, "ev2"),
        ["ev2ew2", "ev2fv2", "ev2fv3", "ev2fw2"]
    );
    // The Catholic Pawn's forward directions are -x and +y.
    let pos = parse(
        &t,
        &with_kings(&[("ev2", "cPN"), ("dv1", "iN"), ("dw2", "bN")]),
        "c cpib - 0 1",
    );
    assert_eq!(
        moves_from(&t, &pos, "ev2"),
        ["ev2dv1", "ev2dv2", "ev2dw2", "ev2ew2"]
    );
}

#[test]
fn yeomen_swap_the_pawn_moves() {
    let t = tables("aof5");
    let pos = parse(
        &t,
        &with_kings(&[("ev2", "bY"), ("fv2", "cPN"), ("ew3", "iN")]),
        REST_B,
    );
    assert_eq!(
        moves_from(&t, &pos, "ev2"),
        ["ev2ew1", "ev2fv1", "ev2fv2", "ev2fv3", "ev2fw2"]
    );
}

#[test]
fn double_steps_start_from_any_own_pawn_start_cell() {
    let t = tables("aof5");
    let pos = parse(
        &t,
        &with_kings(&[("cu1", "bPN"), ("du3", "bPN"), ("gt1", "bPN")]),
        REST_B,
    );
    // cu1 is a Byzantine Pawn start cell: two double steps, one per forward direction.
    assert_eq!(
        moves_from(&t, &pos, "cu1"),
        ["cu1cv1", "cu1cw1", "cu1du1", "cu1eu1"]
    );
    // du3 is not a start cell; gt1 is a Catholic one.
    assert_eq!(moves_from(&t, &pos, "du3"), ["du3dv3", "du3eu3"]);
    assert_eq!(moves_from(&t, &pos, "gt1"), ["gt1gu1", "gt1ht1"]);
    // A blocked first cell stops the double step.
    let pos = parse(&t, &with_kings(&[("cu1", "bPN"), ("cv1", "iN")]), REST_B);
    assert_eq!(moves_from(&t, &pos, "cu1"), ["cu1du1", "cu1eu1"]);
}

#[test]
fn en_passant_lasts_until_the_double_stepper_moves_again() {
    let t = tables("aof5");
    let pos = parse(
        &t,
        &with_kings(&[
            ("ds1", "bPN"),
            ("fs2", "cPN"),
            ("ft1", "pPN"),
            ("dt1", "iPN"),
        ]),
        REST_B,
    );
    let pos = play(&t, &pos, "ds1fs1");
    assert!(fen::format(&t, &pos).contains(" c cpib es1:b "));
    assert!(moves_from(&t, &pos, "fs2").contains(&"fs2es1".to_string()));
    let pos = play(&t, &pos, "js2is2");
    assert!(moves_from(&t, &pos, "ft1").contains(&"ft1es1".to_string()));
    let pos = play(&t, &pos, "jz2iz2");
    assert!(moves_from(&t, &pos, "dt1").contains(&"dt1es1".to_string()));
    // The Islamic capture removes the Byzantine Pawn from fs1.
    let taken = play(&t, &pos, "dt1es1");
    assert_eq!(token_at(&t, &taken, "fs1"), None);
    assert_eq!(token_at(&t, &taken, "es1").as_deref(), Some("iPN"));
    assert!(fen::format(&t, &taken).contains(" b cpib - "));
    // Otherwise the target vanishes when the Byzantine army moves again.
    let pos = play(&t, &pos, "az2bz2");
    let pos = play(&t, &pos, "as2bs2");
    assert!(fen::format(&t, &pos).contains(" c cpib - "));
    assert!(!moves_from(&t, &pos, "fs2").contains(&"fs2es1".to_string()));
}

#[test]
fn en_passant_into_the_opposite_camp_may_promote() {
    let t = tables("aof5");
    let pos = parse(
        &t,
        &with_kings(&[("ix2", "pPN"), ("gw2", "bPN")]),
        "p cpib - 0 1",
    );
    let pos = play(&t, &pos, "ix2gx2");
    let pos = play(&t, &pos, "az2bz2");
    let ep: Vec<String> = moves_from(&t, &pos, "gw2")
        .into_iter()
        .filter(|m| m.starts_with("gw2hx2"))
        .collect();
    assert_eq!(
        ep,
        ["gw2hx2", "gw2hx2=B", "gw2hx2=MT", "gw2hx2=N", "gw2hx2=R"]
    );
    let after = play(&t, &pos, "gw2hx2=MT");
    assert_eq!(token_at(&t, &after, "hx2").as_deref(), Some("bMT"));
    assert_eq!(token_at(&t, &after, "gx2"), None);
}

#[test]
fn pawn_and_yeoman_promotion_zones_and_choices() {
    let t = tables("aof5");
    // On the Protestant corner column the Byzantine Pawn must promote; elsewhere in the
    // Protestant camp it may.
    let pos = parse(&t, &with_kings(&[("jy4", "bPN"), ("hy4", "bPN")]), REST_B);
    assert_eq!(
        moves_from(&t, &pos, "jy4"),
        ["jy4jz4=B", "jy4jz4=MT", "jy4jz4=N", "jy4jz4=R"]
    );
    assert_eq!(moves_from(&t, &pos, "hy4").len(), 10);
    // A Yeoman promotes only on the camp's non-Pawn columns, to pieces without a Bishop
    // slide (Bishop excepted).
    let pos = parse(&t, &with_kings(&[("gx4", "bY")]), REST_B);
    assert_eq!(
        moves_from(&t, &pos, "gx4"),
        [
            "gx4gy3",
            "gx4hx3",
            "gx4hy4",
            "gx4hy4=B",
            "gx4hy4=CT",
            "gx4hy4=N",
            "gx4hy4=R",
            "gx4hy4=V"
        ]
    );
    let promoted = play(&t, &pos, "gx4hy4=V");
    assert_eq!(token_at(&t, &promoted, "hy4").as_deref(), Some("bV"));
}

#[test]
fn pawn_and_yeoman_merge_into_a_queen() {
    let t = tables("aof5");
    let pos = parse(
        &t,
        &with_kings(&[
            ("hy2", "bPN"),
            ("iy2", "bY"),
            ("iy3", "bPN"),
            ("hx3", "bY"),
            ("gx1", "bPN"),
            ("hx1", "bY"),
        ]),
        REST_B,
    );
    let all = moves(&t, &pos);
    assert!(all.contains(&"hy2iy2".to_string()), "Pawn onto Yeoman");
    assert!(all.contains(&"hx3iy3".to_string()), "Yeoman onto Pawn");
    // hx is a Pawn column of the camp: not a promotion cell for the Yeoman, so no merger.
    assert!(!all.contains(&"gx1hx1".to_string()));
    let merged = play(&t, &pos, "hy2iy2");
    assert_eq!(token_at(&t, &merged, "iy2").as_deref(), Some("bQ"));
    assert_eq!(token_at(&t, &merged, "hy2"), None);
    assert_eq!(merged.halfmove, 0);
}

#[test]
fn gryphon_and_anchorite_need_an_empty_first_step() {
    let t = tables("aof5");
    let pos = parse(&t, &with_kings(&[("cs4", "bMT"), ("cs3", "bA")]), REST_B);
    let all = moves(&t, &pos);
    for m in [
        "cs4jt4", "cs4dz4", "cs4ds1", "cs3gs3", "cs3is3", "cs3jy3", "cs3fs1",
    ] {
        assert!(all.contains(&m.to_string()), "{m} missing");
    }
    let blocked = parse(
        &t,
        &with_kings(&[("cs4", "bMT"), ("dt4", "bN"), ("cs3", "bA"), ("ds3", "bN")]),
        REST_B,
    );
    let all = moves(&t, &blocked);
    for m in ["cs4jt4", "cs4dz4", "cs4ds1", "cs3jy3", "cs3fs1"] {
        assert!(!all.contains(&m.to_string()), "{m} should be blocked");
    }
}

#[test]
fn rule_a_checkmates_every_attacked_king_and_promotes_the_checkmater() {
    let t = tables("aof5");
    let pieces = with_kings(&[
        ("ay2", "cR"),
        ("au2", "pN"),
        ("es1", "cQ"),
        ("bv1", "iN"),
        ("cv1", "iR"),
        ("dv1", "iB"),
        ("ev1", "iQ"),
    ]);
    let pos = parse(&t, &pieces, "c cpib - 0 1");
    assert_eq!(pos.alive, 0b1011);
    assert_eq!(token_at(&t, &pos, "ay2").as_deref(), Some("cDU"));
    assert_eq!(token_at(&t, &pos, "es1").as_deref(), Some("cEM"));
    assert_eq!(token_at(&t, &pos, "js2").as_deref(), Some("cE"));
    for c in ["az2", "bv1", "cv1", "dv1", "ev1"] {
        assert_eq!(token_at(&t, &pos, c), None);
    }
    assert!(fen::format(&t, &pos).contains(" c cpb - "));
    // Raj: the Islamic pieces become Catholic Raj pieces, King and Queen vanish.
    let t = tables("aof5-raj");
    let pos = parse(&t, &pieces, "c cpib - 0 1");
    assert_eq!(token_at(&t, &pos, "bv1").as_deref(), Some("cNB"));
    assert_eq!(token_at(&t, &pos, "cv1").as_deref(), Some("cMS"));
    assert_eq!(token_at(&t, &pos, "dv1").as_deref(), Some("cSH"));
    assert_eq!(token_at(&t, &pos, "ev1"), None);
    assert_eq!(token_at(&t, &pos, "az2"), None);
}

#[test]
fn rule_a_repeats_its_scan_after_a_raj_replacement() {
    let t = tables("aof5-raj");
    // Checkmating Islam turns its Rook on hz2 into a Catholic Memsahib, which leaps to the
    // Protestant King on jz2: a second checkmate in the same turn.
    let pieces = with_kings(&[("ay2", "cR"), ("au2", "pN"), ("hz2", "iR"), ("iz2", "pN")]);
    let pos = parse(&t, &pieces, "c cpib - 0 1");
    assert_eq!(pos.alive, 0b1001);
    assert_eq!(token_at(&t, &pos, "hz2").as_deref(), Some("cMS"));
    assert_eq!(token_at(&t, &pos, "iz2").as_deref(), Some("cNB"));
    assert_eq!(pos.winner, None, "a Memsahib is not of a promoted type");
    // Without Raj the Rook just leaves and Protestant survives.
    let t = tables("aof5");
    let pos = parse(&t, &pieces, "c cpib - 0 1");
    assert_eq!(pos.alive, 0b1011);
}

#[test]
fn delivering_piece_is_the_lowest_ranked_checker_then_lowest_cell() {
    let t = tables("aof5");
    let pieces = with_kings(&[("bx2", "cN"), ("cy2", "cN"), ("aw2", "cQ"), ("au2", "pN")]);
    let pos = parse(&t, &pieces, "c cpib - 0 1");
    assert_eq!(token_at(&t, &pos, "bx2").as_deref(), Some("cCC"));
    assert_eq!(token_at(&t, &pos, "cy2").as_deref(), Some("cN"));
    assert_eq!(token_at(&t, &pos, "aw2").as_deref(), Some("cEM"));
}

/// The Byzantine King on as1 in check, with no way out; Catholic Rooks and a Protestant
/// Rook give check.
fn boxed_byzantine_king(check: bool) -> Vec<(&'static str, &'static str)> {
    let mut v = BYZANTINE_BOXED_IN.to_vec();
    if check {
        v.extend([("as4", "cR"), ("hs1", "pR")]);
    } else {
        v.push(("is2", "cR"));
    }
    v
}

#[test]
fn rule_b_checkmates_a_stuck_player_in_check_by_the_first_checker_after_it() {
    let t = tables("aof5");
    let pos = parse(&t, &boxed_byzantine_king(true), REST_B);
    assert_eq!(pos.alive, 0b0111);
    assert_eq!(pos.side, Player(0), "the checkmater moves next");
    assert_eq!(pos.fullmove, 2);
    assert_eq!(token_at(&t, &pos, "as4").as_deref(), Some("cDU"));
    assert_eq!(token_at(&t, &pos, "js2").as_deref(), Some("cE"));
    assert_eq!(token_at(&t, &pos, "hs1").as_deref(), Some("pR"));
}

#[test]
fn a_stuck_player_not_in_check_passes() {
    let t = tables("aof5");
    let pos = parse(&t, &boxed_byzantine_king(false), REST_B);
    assert_eq!(moves(&t, &pos), ["pass"]);
    let after = play(&t, &pos, "pass");
    assert_eq!(after.side, Player(0));
    assert_eq!(after.fullmove, 2);
    assert_eq!(after.halfmove, 1);
    assert_eq!(perft(&t, &pos, 1), 1);
}

#[test]
fn second_checkmate_by_a_promoted_piece_wins_otherwise_the_third() {
    let t = tables("aof5");
    // Islam is out; a Catholic Duchess checkmates Protestant: game over.
    let pieces = [("js2", "cE"), ("jz2", "pK"), ("as2", "bK"), ("jw2", "cDU")];
    let won = parse(&t, &pieces, "c cpb - 0 1");
    assert_eq!(won.winner, Some(Player(0)));
    assert!(moves(&t, &won).is_empty());
    assert_eq!(perft(&t, &won, 2), 0);
    let text = format!("{} c cpb - 0 1", board(&t, &pieces));
    let game = Game::from_position_string(t.clone(), &text).unwrap();
    assert!(matches!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Player(0),
            ..
        })
    ));
    // A plain Rook does not win the second checkmate; it becomes a Duchess.
    let second = parse(
        &t,
        &[("js2", "cE"), ("jz2", "pK"), ("as2", "bK"), ("jw2", "cR")],
        "c cpb - 0 1",
    );
    assert_eq!(second.winner, None);
    assert_eq!(second.alive, 0b1001);
    assert_eq!(token_at(&t, &second, "jw2").as_deref(), Some("cDU"));
    // The third checkmate wins whatever delivers it.
    let third = parse(
        &t,
        &[("js2", "cE"), ("as2", "bK"), ("ds2", "cR")],
        "c cb - 0 1",
    );
    assert_eq!(third.alive, 0b0001);
    assert!(moves(&t, &third).is_empty());
}

#[test]
fn fifty_moves_by_each_player_and_repetition_draw() {
    let t = tables("aof5");
    let fen = format!("{} c cpib - 199 60", board(&t, &KINGS));
    let mut game = Game::from_position_string(t.clone(), &fen).unwrap();
    assert_eq!(game.outcome(), None);
    game.play_str("js2is2").unwrap();
    assert!(matches!(game.outcome(), Some(Outcome::Draw { .. })));

    let fen = format!("{} c cpib - 0 1", board(&t, &KINGS));
    let mut game = Game::from_position_string(t.clone(), &fen).unwrap();
    let cycle = [
        "js2is2", "jz2iz2", "az2bz2", "as2bs2", "is2js2", "iz2jz2", "bz2az2", "bs2as2",
    ];
    for _ in 0..2 {
        for m in cycle {
            assert_eq!(game.outcome(), None);
            game.play_str(m).unwrap();
        }
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: "threefold repetition".into()
        })
    );
}

#[test]
fn start_position_string_round_trips() {
    let t = tables("aof5");
    let pos = fen::parse(&t, &t.variant.start_position).unwrap();
    assert_eq!(fen::format(&t, &pos), t.variant.start_position);
    assert_eq!(panoply::bitboard::BitSet::count(pos.occupied), 176);
}

#[test]
fn bad_position_strings_get_precise_errors() {
    let t = tables("aof5");
    let kings = board(&t, &KINGS);
    let err = |s: &str| fen::parse(&t, s).unwrap_err().to_string();
    assert!(err("").contains("empty"));
    assert!(err(&kings.to_string()).contains("army-to-move"));
    assert!(err(&kings.replacen('|', "/", 1)).contains("levels"));
    assert!(
        err(&format!("{} c cpib - 0 1", kings.replacen("10", "9", 1))).contains("covers 9 cells")
    );
    assert!(err(&format!("{} x cpib - 0 1", kings)).contains("side-to-move"));
    assert!(err(&format!("{} c cpcb - 0 1", kings)).contains("listed twice"));
    assert!(err(&format!("{} c cpi - 0 1", kings)).contains("not playing but has pieces"));
    assert!(err(&format!("{} c cpib es1:b 0 1", kings)).contains("double-stepped"));
    assert!(err(&format!("{} c cpib es1 0 1", kings)).contains("cell:army"));
    assert!(err(&format!("{} c cpib - x 1", kings)).contains("halfmove"));
    let two_kings = board(&t, &with_kings(&[("ev2", "cK")]));
    assert!(err(&format!("{two_kings} c cpib - 0 1")).contains("2 Kings"));
    let bad_token = board(&t, &with_kings(&[("ev2", "xQ")]));
    assert!(err(&format!("{bad_token} c cpib - 0 1")).contains("unknown piece 'xQ'"));
    let corner_pawn = board(&t, &with_kings(&[("jz3", "bPN")]));
    assert!(err(&format!("{corner_pawn} c cpib - 0 1")).contains("must already have promoted"));
}

#[test]
fn only_royals_are_adjudicated_a_draw_only_when_no_checkmate_can_follow() {
    use panoply::movegen::is_in_check;
    use panoply::records::board::new_board;
    let t = tables("aof5");
    let any = panoply::games::tables("aof5").unwrap();
    let adjudicated = |pieces: &[(&str, &str)], rest: &str| {
        let text = format!("{} {rest}", board(&t, pieces));
        new_board(&any, Some(&text)).unwrap().only_royals_left()
    };
    // Kings only, or Emperors only: each attacks every cell it is attacked from.
    assert!(adjudicated(
        &[("js2", "cK"), ("jz2", "pK"), ("as2", "bK")],
        "c cpb - 0 1"
    ));
    assert!(adjudicated(&[("ds2", "cE"), ("jz2", "pE")], "c cp - 0 1"));
    // An Emperor and a King: the Emperor's triagonal step checks a King that cannot answer it.
    let mixed = [("ds2", "cE"), ("ft4", "pK"), ("as2", "bK")];
    assert!(!adjudicated(&mixed, "c cpb - 0 1"));
    // A pawn left on the board is no adjudication either.
    assert!(!adjudicated(
        &[("js2", "cK"), ("jz2", "pK"), ("ew2", "bPN"), ("as2", "bK")],
        "c cpb - 0 1"
    ));
    let checked = play(&t, &parse(&t, &mixed, "c cpb - 0 1"), "ds2es3");
    assert!(is_in_check(&t, &checked, Player(1)));
}
