//! UCI in the variants GUIs and tournament managers reach through `UCI_Variant`: plain
//! `shatranj` as cutechess sends it, and the Missionary cubic variants with their 3D position
//! and move strings (drops, promotions). Replies are checked against the library's rules.

use crate::protocol_common;
use protocol_common::{legal_moves, uci_say as say, Engine};

fn start(variant: &str) -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    assert!(say(
        &mut e,
        &format!("setoption name UCI_Variant value {variant}")
    )
    .is_empty());
    e
}

fn perft_total(e: &mut Engine, depth: u32) -> u64 {
    e.send(&format!("go perft {depth}"));
    let line = e.expect_prefix("Nodes searched: ");
    line["Nodes searched: ".len()..].parse().unwrap()
}

/// `go ARGS` and the move of its `bestmove` line.
fn best_move(e: &mut Engine, go: &str) -> String {
    e.send(go);
    let line = e.expect_prefix("bestmove ");
    line.split_whitespace().nth(1).unwrap().to_string()
}

/// A `position` command must be silent, and afterwards the engine's move count must be the
/// library's for the same position.
fn set_position(e: &mut Engine, variant: &str, fen: Option<&str>, moves: &[&str]) {
    let setup = fen.map_or("startpos".to_string(), |f| format!("fen {f}"));
    let out = say(e, &format!("position {setup} moves {}", moves.join(" ")));
    assert!(out.is_empty(), "{variant} {moves:?}: {out:?}");
    let legal = legal_moves(variant, fen, moves);
    assert_eq!(perft_total(e, 1), legal.len() as u64, "{variant} {moves:?}");
}

/// A bad command gets exactly one `info string` line and leaves the position as it was.
fn refused(e: &mut Engine, line: &str, reply: &str) {
    let before = perft_total(e, 2);
    let out = say(e, line);
    assert_eq!(out.len(), 1, "{line}: {out:?}");
    assert!(out[0].starts_with(reply), "{line}: got {}", out[0]);
    assert_eq!(perft_total(e, 2), before, "{line} changed the position");
}

#[test]
fn shatranj_plays_coordinate_moves_and_refuses_a_double_step() {
    let mut e = start("shatranj");
    let moves = ["e2e3", "e7e6", "b1c3", "g8f6", "c1a3"];
    assert!(
        legal_moves("shatranj", None, &moves[..4]).contains(&"c1a3".to_string()),
        "the Alfil's leap"
    );
    set_position(&mut e, "shatranj", None, &moves);
    let best = best_move(&mut e, "go depth 3");
    assert!(
        legal_moves("shatranj", None, &moves).contains(&best),
        "bestmove {best}"
    );
    // No double step in shatranj; the position stays after 1. e3 e6 Nc3 Nf6 Aa3.
    refused(
        &mut e,
        "position startpos moves e2e3 e7e5",
        "info string bad move list: ",
    );
    refused(
        &mut e,
        "position startpos moves e2e3 e7e6 d1d3",
        "info string bad move list: ",
    );
    assert_eq!(
        perft_total(&mut e, 1),
        legal_moves("shatranj", None, &moves).len() as u64
    );
}

#[test]
fn shatranj_startpos_is_the_guis_array() {
    // CuteChess sends `position startpos` for its own shatranj array, Kings on d1/d8: the
    // King steps d1d2 there (a Ferz on d1, as in the traditional array, could not).
    let mut e = start("shatranj");
    set_position(&mut e, "shatranj", None, &["d2d3", "d7d6", "d1d2", "d8d7"]);
}

#[test]
fn shatranj_promotion_to_ferz() {
    let mut e = start("shatranj");
    // The Pawn on b7 promotes to a Ferz (`q` in shatranj), straight on or by capture.
    let fen = "r3k3/1P6/8/8/8/8/8/4K2R w - - 0 1";
    set_position(&mut e, "shatranj", Some(fen), &["b7b8q"]);
    set_position(&mut e, "shatranj", Some(fen), &["b7a8q"]);
    refused(
        &mut e,
        &format!("position fen {fen} moves b7b8r"),
        "info string bad move list: ",
    );
    // White's King is boxed in by the Rooks: the promotion is the only move, and the
    // engine writes it with the Ferz's letter.
    let boxed = "6r1/1P6/3k4/8/8/8/r7/7K w - - 0 1";
    assert_eq!(legal_moves("shatranj", Some(boxed), &[]), ["b7b8q"]);
    set_position(&mut e, "shatranj", Some(boxed), &[]);
    assert_eq!(best_move(&mut e, "go depth 2"), "b7b8q");
}

/// Emperors on uc1 and zc8, a White Stockbroker on wc5; `hand` as the holdings.
fn cubic(hand: &str) -> String {
    let empty = "6/6/6/6/6/6/6/6";
    let levels = [
        "6/6/6/6/6/6/6/2K3",
        empty,
        "6/6/6/2P3/6/6/6/6",
        empty,
        empty,
        "2k3/6/6/6/6/6/6/6",
    ];
    format!("{}[{hand}] w - - 0 1", levels.join("|"))
}

/// A move in docs/rules.md's 3D notation: `wd2wd3`, `wd7wd8+`, `W@wc5`, `+I@wc5`.
fn is_3d_move(m: &str) -> bool {
    let cell = |c: &[u8]| {
        c.len() == 3
            && (b'u'..=b'z').contains(&c[0])
            && (b'a'..=b'f').contains(&c[1])
            && (b'1'..=b'8').contains(&c[2])
    };
    match m.split_once('@') {
        Some((piece, to)) => {
            let token = piece.strip_prefix('+').unwrap_or(piece);
            token.len() == 1 && token.as_bytes()[0].is_ascii_uppercase() && cell(to.as_bytes())
        }
        None => {
            let b = m.strip_suffix('+').unwrap_or(m).as_bytes();
            b.len() == 6 && cell(&b[..3]) && cell(&b[3..])
        }
    }
}

#[test]
fn missionary_variants_take_3d_positions_drops_and_promotions() {
    let cases = [
        ("missionary", "Wp", "W@ua3"),
        ("missiogi", "+Ip", "+I@ua3"),
        ("frontofhouse", "Wp", "W@ua3"),
    ];
    for (variant, hand, white_drop) in cases {
        let mut e = start(variant);
        let fen = cubic(hand);
        // A promotion (the Stockbroker enters the zone), a drop by each side, and Black's
        // Stockbroker promoting as it reaches its zone.
        let moves = ["wc5wc6+", "P@xd4", white_drop, "xd4xd3+"];
        set_position(&mut e, variant, Some(&fen), &moves);
        let best = best_move(&mut e, "go depth 2");
        assert!(is_3d_move(&best), "{variant}: bestmove {best}");
        assert!(
            legal_moves(variant, Some(&fen), &moves).contains(&best),
            "{variant}: bestmove {best}"
        );
        // From the start position too.
        set_position(&mut e, variant, None, &["wd3wd4", "wd6wd5"]);
        let best = best_move(&mut e, "go depth 2");
        assert!(is_3d_move(&best), "{variant}: bestmove {best}");
        assert!(legal_moves(variant, None, &["wd3wd4", "wd6wd5"]).contains(&best));
        // Bad input: one line each, the position unchanged.
        for (line, reply) in [
            ("position fen 6/6|6 w - - 0 1", "info string bad position: "),
            (
                &format!("position fen {}", cubic("X")),
                "info string bad position: ",
            ),
            (
                &format!("position fen {} moves wc5wc6 P@xd1", cubic("Wp")),
                "info string bad move list: ",
            ),
            (
                "position startpos moves wd3wd5",
                "info string bad move list: ",
            ),
            (
                "position startpos moves e2e4",
                "info string bad move list: ",
            ),
        ] {
            refused(&mut e, line, reply);
        }
        let best = best_move(&mut e, "go depth 1");
        assert!(legal_moves(variant, None, &["wd3wd4", "wd6wd5"]).contains(&best));
    }
}
