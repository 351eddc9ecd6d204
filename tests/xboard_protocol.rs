//! XBoard (CECP v2) protocol, driven through the built binary.

use crate::protocol_common;
use protocol_common::{legal_moves, Engine, XB};
use std::time::Duration;

#[test]
fn protover_announces_features_variants_and_army_options() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let mut lines = e.expect("feature done=1");
    lines.retain(|l| l.starts_with("feature"));
    let all = lines.join(" ");
    for f in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "memory=1",
        "smp=1",
        "colors=0",
        "sigint=0",
        "sigterm=0",
        "san=0",
        "myname=\"Panoply",
    ] {
        assert!(all.contains(f), "missing feature {f} in {all}");
    }
    assert!(all.contains("variants=\"normal,fairy,cwda"), "{all}");
    assert!(all.contains(
        "option=\"White Army -combo *FIDE /// Clobberers /// Nutty Knights /// Rookies\""
    ));
    assert!(all.contains("option=\"Black Army -combo"));
    assert!(all.contains("option=\"Variant fairy selects -combo"));
    assert!(all.contains("Nutters-Rookies"));
}

#[test]
fn variant_fairy_sends_fairy_max_setup_and_pieces() {
    let mut x = XB::start();
    x.silent("option Variant fairy selects=Nutters-Rookies");
    x.silent("new");
    let out = x.say("variant fairy");
    assert_eq!(
        out[0],
        "setup (P...........H.T.C...UKp.............w.mh.s.k) 8x8+0_fairy \
         swhmkhws/pppppppp/8/8/8/8/PPPPPPPP/THUCKUHT w KQkq - 0 1"
    );
    for piece in [
        "piece P& fmWfceFifmnD",
        "piece K& KisO2",
        "piece H FvN",
        "piece T fsRbWbF",
        "piece s W4",
        "piece m RN",
    ] {
        assert!(
            out.iter().any(|l| l == piece),
            "missing '{piece}' in {out:?}"
        );
    }
    // One piece line per kind: King, Pawn (both colours) and four per army.
    assert_eq!(out.iter().filter(|l| l.starts_with("piece ")).count(), 10);
}

#[test]
fn variant_cwda_uses_our_letters_and_the_bede_castling() {
    let mut x = XB::start();
    x.silent("option White Army=Clobberers");
    x.silent("option Black Army=Nutty Knights");
    x.silent("new");
    let out = x.say("variant cwda");
    assert!(out[0].starts_with("setup ("), "{out:?}");
    assert!(
        out[0].ends_with(" 8x8+0_fairy gihokhig/pppppppp/8/8/8/8/PPPPPPPP/DWACKAWD w KQkq - 0 1")
    );
    assert!(out.contains(&"piece K KirO2ilO3".to_string()), "{out:?}");
    assert!(out.contains(&"piece k KisO2".to_string()), "{out:?}");
    // The Bede castling is accepted as the King's move e1b1.
    x.silent("force");
    for m in ["b1d3", "b7b6", "c1c3", "c7c6", "d1e3", "d7d6"] {
        x.silent(&format!("usermove {m}"));
    }
    x.silent("usermove e1b1");
    // XBoard's own position strings leave out rights that come from `piece` commands: the
    // Clobberers' castlings stay possible with King and Bede unmoved.
    x.silent("new");
    x.say("variant cwda");
    x.silent("force");
    x.silent("setboard gihokhig/pppppppp/8/8/8/3P4/PPP1PPPP/D3KAWD w kq - 0 1");
    x.silent("usermove e1b1");
}

#[test]
fn fairy_max_promotion_letters_are_understood_and_ours_refused() {
    let mut x = XB::start();
    x.silent("option Variant fairy selects=Nutters-Rookies");
    x.silent("new");
    x.say("variant fairy");
    x.silent("force");
    let fen = "4k3/P7/8/8/8/8/1p6/4K3 w - - 0 1";
    x.silent(&format!("setboard {fen}"));
    // White's Fibnif is 'h' for Fairy-Max, 'i' for us.
    assert_eq!(x.reply("usermove a7a8i"), "Illegal move: a7a8i");
    x.silent("usermove a7a8h");
    // Black's Half Duck is 'h' for Fairy-Max, 'f' for us.
    assert_eq!(x.reply("usermove b2b1f"), "Illegal move: b2b1f");
    x.silent("usermove b2b1h");
}

#[test]
fn engine_promotes_with_fairy_max_letters() {
    let mut x = XB::start();
    x.silent("option Variant fairy selects=Nutters-Rookies");
    x.silent("new");
    x.say("variant fairy");
    x.silent("force");
    // Two Short Rooks box the King in: only promotions are legal.
    x.silent("setboard 4k3/P7/8/6s1/8/8/4s3/7K w - - 0 1");
    x.silent("st 1");
    x.e.send("go");
    let mv = x.e.expect_prefix("move ");
    let suffix = mv.strip_prefix("move a7a8").expect("a promotion");
    assert!(["h", "t", "c", "u"].contains(&suffix), "{mv}");
}

/// Black to mate with Qh4 in Clobberers-FIDE (Fairy-Max's letters: `L` Bede, `E` Waffle,
/// `C` FAD, `A` Archbishop): the Knight on e3 guards d1 and f1, the Queen f2.
fn mate_in_one_clobberers_fide(first_rank: &str) -> XB {
    let mut x = XB::start();
    x.silent("option Variant fairy selects=Clobberers-FIDE");
    x.silent("new");
    x.say("variant fairy");
    x.silent("force");
    x.silent(&format!(
        "setboard rnbqkb1r/pppp1ppp/8/4p3/A5P1/4nP2/PPPPP2P/{first_rank} b - - 0 1"
    ));
    x.silent("sd 2");
    x.silent("nopost");
    x
}

#[test]
fn a_mate_xboard_misreads_as_castling_is_left_to_the_loser_to_claim() {
    // b1-d1 are empty and the Bede stands on a1: XBoard's `O` castling lets the King "castle"
    // out of check to b1, so it would score a mate claim false and forfeit us.
    let mut x = mate_in_one_clobberers_fide("L3KCEL");
    assert_eq!(x.say("go"), ["move d8h4"]);
    // The game is over all the same: the loser's castling out of check stays illegal.
    assert_eq!(x.reply("usermove e1b1"), "Illegal move: e1b1");
}

#[test]
fn a_mate_xboard_reads_correctly_is_claimed() {
    // A Waffle on b1 blocks the phantom castling: the claim is safe and made.
    let mut x = mate_in_one_clobberers_fide("LE2KCEL");
    assert_eq!(x.say("go"), ["move d8h4", "0-1 {Black mates}"]);
}

#[test]
fn go_plays_a_legal_move_and_ping_waits_for_it() {
    let mut x = XB::start();
    x.silent("new");
    x.silent("force");
    x.silent("usermove e2e4");
    x.silent("st 1");
    x.e.send("go");
    x.e.send("ping 99");
    let (mv, _) =
        x.e.read_until("move", |l| l.starts_with("move ") || l == "pong 99");
    assert!(mv.starts_with("move "), "pong came before the move: {mv}");
    x.e.expect("pong 99");
    let mv = mv.strip_prefix("move ").unwrap();
    assert!(
        legal_moves("chess", None, &["e2e4"]).contains(&mv.to_string()),
        "{mv}"
    );
}

#[test]
fn question_mark_moves_now() {
    let mut x = XB::start();
    x.silent("new");
    x.silent("st 60");
    x.silent("force");
    x.e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    x.e.send("?");
    let mv = x.e.expect_prefix("move ");
    assert!(legal_moves("chess", None, &[]).contains(&mv[5..].to_string()));
}

#[test]
fn engine_answers_after_the_opponents_move_when_it_plays_black() {
    let mut x = XB::start();
    x.silent("new");
    x.silent("level 40 5 0");
    x.silent("time 30000");
    x.silent("otim 30000");
    x.e.send("usermove d2d4");
    let mv = x.e.expect_prefix("move ");
    assert!(legal_moves("chess", None, &["d2d4"]).contains(&mv[5..].to_string()));
}

#[test]
fn checkmate_and_stalemate_are_claimed() {
    let mut x = XB::start();
    x.silent("new");
    x.silent("force");
    for m in ["f2f3", "e7e5", "g2g4"] {
        x.silent(&format!("usermove {m}"));
    }
    assert_eq!(x.reply("usermove d8h4"), "0-1 {Black mates}");
    // Asked to move in a finished game, the engine repeats the result instead.
    assert_eq!(x.reply("go"), "0-1 {Black mates}");
}

#[test]
fn stalemate_is_claimed_as_a_draw() {
    let mut x = XB::start();
    x.silent("new");
    x.silent("force");
    x.silent("setboard k7/8/8/2Q5/8/8/8/7K w - - 0 1");
    assert_eq!(x.reply("usermove c5b6"), "1/2-1/2 {Stalemate}");
}

#[test]
fn bad_input_gets_errors_and_leaves_the_game_alone() {
    let mut x = XB::start();
    x.silent("new");
    x.silent("force");
    assert_eq!(x.reply("usermove e2e5"), "Illegal move: e2e5");
    assert_eq!(x.reply("usermove zz"), "Illegal move: zz");
    assert_eq!(x.reply("usermove"), "Error (expected one move): usermove");
    assert_eq!(
        x.reply("frobnicate now"),
        "Error (unknown command): frobnicate now"
    );
    assert_eq!(
        x.reply("undo"),
        "Error (cannot take back 1 plies, the game has 0): undo"
    );
    x.silent("usermove e2e4");
    assert_eq!(
        x.reply("remove"),
        "Error (cannot take back 2 plies, the game has 1): remove"
    );
    let bad_fen = x.reply("setboard 8/8/8 w - - 0 1");
    assert!(
        bad_fen.starts_with("Error (bad position: ")
            && bad_fen.ends_with("): setboard 8/8/8 w - - 0 1"),
        "{bad_fen}"
    );
    let bad_piece = x.reply("setboard xnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(bad_piece.starts_with("Error (bad position:"), "{bad_piece}");
    assert!(x.reply("level 40 x 0").starts_with("Error ("));
    assert!(x.reply("level 40").starts_with("Error ("));
    assert!(x.reply("st -1").starts_with("Error ("));
    assert!(x.reply("sd zero").starts_with("Error ("));
    assert!(x.reply("time soon").starts_with("Error ("));
    assert!(x.reply("otim later").starts_with("Error ("));
    assert!(x.reply("memory lots").starts_with("Error ("));
    assert!(x.reply("cores 0").starts_with("Error ("));
    assert_eq!(
        x.reply("option Colour=blue"),
        "Error (unknown option 'Colour'): option Colour=blue"
    );
    assert_eq!(
        x.reply("option White Army=Pirates"),
        "Error (unknown army 'Pirates'): option White Army=Pirates"
    );
    assert!(x
        .reply("option White Army")
        .starts_with("Error (expected option NAME=VALUE)"));
    assert_eq!(
        x.reply("option Variant fairy selects=Pirates-FIDE"),
        "Error (unknown army pairing 'Pirates-FIDE'): option Variant fairy selects=Pirates-FIDE"
    );
    let unknown = x.reply("variant atlantis");
    assert!(
        unknown.starts_with("Error (unknown variant") && unknown.ends_with("): variant atlantis"),
        "{unknown}"
    );
    // After all that the game is still 1. e4 with Black to move.
    assert_eq!(x.reply("usermove e2e4"), "Illegal move: e2e4");
    x.silent("usermove e7e5");
    x.silent("undo");
    x.silent("usermove c7c5");
    x.silent("remove");
    x.silent("usermove d2d4");
}

#[test]
fn setboard_and_undo_restore_positions() {
    let mut x = XB::start();
    x.silent("new");
    x.silent("force");
    x.silent("setboard 4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
    x.silent("usermove e8d7");
    x.silent("usermove e2e4");
    x.silent("remove");
    x.silent("usermove e8f7");
    assert_eq!(x.reply("usermove e8d8"), "Illegal move: e8d8");
}

#[test]
fn analyze_mode_reports_and_exits() {
    let mut x = XB::start();
    x.silent("new");
    x.silent("force");
    x.e.send("analyze");
    // Thinking output: depth score time nodes pv.
    let line = x.e.read_until("a thinking line", |l| {
        let w: Vec<&str> = l.split_whitespace().collect();
        w.len() >= 5 && w[..4].iter().all(|n| n.parse::<i64>().is_ok())
    });
    assert!(!line.0.is_empty());
    x.e.send(".");
    x.e.expect_prefix("stat01: ");
    x.e.send("usermove e2e4");
    x.e.send("exit");
    x.e.send("ping 5");
    x.e.expect("pong 5");
    // Out of analysis, in force mode: Black's move is taken without a reply move.
    x.silent("usermove e7e5");
}

#[test]
fn quit_ends_the_engine_even_while_thinking() {
    let mut x = XB::start();
    x.silent("new");
    x.silent("st 100");
    x.e.send("go");
    std::thread::sleep(Duration::from_millis(200));
    x.e.send("quit");
    assert!(x.e.exits_within(Duration::from_secs(5)));
}

#[test]
fn every_registry_variant_is_shown_or_refused() {
    // XBoard gets a board for every flat two-player variant and a reason for the others.
    let mut x = XB::start();
    for name in panoply::games::names() {
        let v = panoply::games::by_name(&name).unwrap();
        let out = x.say(&format!("variant {name}"));
        if v.players() != 2 || v.shape.levels != 1 || v.shape.files > 16 {
            assert!(
                out.len() == 1 && out[0].starts_with("Error (variant"),
                "{name}: {out:?}"
            );
        } else if name == "shatranj" {
            assert!(out.is_empty(), "XBoard knows shatranj itself: {out:?}");
        } else {
            assert!(out[0].starts_with("setup ("), "{name}: {out:?}");
        }
    }
    // A refused variant leaves the game as it was, and the next `variant` and `new` work.
    x.silent("new");
    x.silent("force");
    x.silent("usermove e2e4");
    let refused = x.say("variant missionary");
    assert!(
        refused.len() == 1
            && refused[0].starts_with("Error (variant missionary cannot be shown: ")
            && refused[0].contains("6 levels"),
        "{refused:?}"
    );
    assert_eq!(x.say("usermove e2e4"), ["Illegal move: e2e4"]);
    x.silent("usermove e7e5");
    x.silent("new");
    assert!(x.say("variant cwda")[0].starts_with("setup ("));
    x.silent("force");
    x.silent("usermove b1c3");
}
