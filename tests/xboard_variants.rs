//! XBoard (CECP) in Shatranj, SwDA and Cyclical Armies: `variant X` describes every piece
//! kind the game can have, and games are played both ways (our moves in, the engine's moves
//! out), each engine move checked legal with the library.

mod protocol_common;
use protocol_common::{legal_moves, XB};
use std::collections::BTreeSet;

/// A new game of `variant` in which the engine plays Black at depth 2; returns what
/// `variant` printed.
fn new_game(x: &mut XB, variant: &str) -> Vec<String> {
    x.silent("new");
    let out = x.say(&format!("variant {variant}"));
    x.silent("sd 2");
    out
}

/// Plays `rounds` moves for White (a legal move picked by the library) and checks each of the
/// engine's answers is legal for Black. Returns the moves of the game.
fn play_both_ways(x: &mut XB, variant: &str, rounds: usize) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for round in 0..rounds {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let mut ours = legal_moves(variant, None, &refs);
        ours.sort();
        let mv = ours[(round * 7) % ours.len()].clone();
        x.e.send(&format!("usermove {mv}"));
        moves.push(mv);
        let reply = x.e.expect_prefix("move ");
        let reply = reply.strip_prefix("move ").unwrap().to_string();
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        assert!(
            legal_moves(variant, None, &refs).contains(&reply),
            "{variant} after {moves:?}: engine played {reply}"
        );
        moves.push(reply);
    }
    moves
}

/// The `setup` line split into White's and Black's piece letters and the position string.
fn setup_letters(out: &[String]) -> (BTreeSet<char>, BTreeSet<char>, String) {
    let setup = out[0].strip_prefix("setup (").expect("a setup line first");
    let (table, rest) = setup.split_once(") ").unwrap();
    let fen = rest
        .strip_prefix("8x8+0_fairy ")
        .expect("8x8 board")
        .to_string();
    assert_eq!(table.len(), 44, "22 piece types per side: {table}");
    let letters = |half: &str| {
        half.chars()
            .filter(|&c| c != '.')
            .collect::<BTreeSet<char>>()
    };
    (letters(&table[..22]), letters(&table[22..]), fen)
}

/// Checks the `setup` and `piece` lines: the table holds exactly the expected letters, every
/// letter of the start position is in it, and every letter has a `piece` line (`X&` covers
/// both colours).
fn check_description(out: &[String], white: &str, black: &str) {
    let (w, b, fen) = setup_letters(out);
    assert_eq!(w, white.chars().collect(), "White's letters: {out:?}");
    assert_eq!(b, black.chars().collect(), "Black's letters: {out:?}");
    let board = fen.split_whitespace().next().unwrap();
    for c in board.chars().filter(char::is_ascii_alphabetic) {
        let side = if c.is_ascii_uppercase() { &w } else { &b };
        assert!(
            side.contains(&c),
            "'{c}' of the position is not in the table"
        );
    }
    for c in w.iter().chain(b.iter()) {
        let own = format!("piece {c} ");
        let both = format!("piece {}& ", c.to_ascii_uppercase());
        assert!(
            out.iter()
                .any(|l| l.starts_with(&own) || l.starts_with(&both)),
            "no piece line for '{c}': {out:?}"
        );
    }
}

#[test]
fn shatranj_is_xboards_own_and_plays_coordinate_moves() {
    let mut x = XB::start();
    let out = new_game(&mut x, "shatranj");
    assert!(out.is_empty(), "XBoard knows shatranj: {out:?}");
    // A double step is no shatranj move; the engine waits for a legal one.
    assert_eq!(x.say("usermove e2e4"), ["Illegal move: e2e4"]);
    play_both_ways(&mut x, "shatranj", 4);
}

#[test]
fn shatranj_starts_from_xboards_array() {
    // XBoard sets up shatranj with both Kings on the d-file and does not send the position:
    // the King's step d1d2 must be accepted (a Ferz on d1 could not make it).
    let mut x = XB::start();
    x.silent("new");
    x.silent("variant shatranj");
    x.silent("force");
    for mv in ["d2d3", "d7d6", "d1d2", "d8d7"] {
        x.silent(&format!("usermove {mv}"));
    }
}

#[test]
fn swda_pairings_describe_their_pieces_and_play() {
    let mut x = XB::start();
    let out = new_game(&mut x, "swda-jostlers-amphibians");
    // Jostlers: Lance, Dragon Horse, Silver, Gold (also the Pawns' and Lance's promotion);
    // Amphibians: Toad, Kirin, Drunk Elephant, Crab (also the Pawns' promotion).
    check_description(&out, "PLDSGK", "ptieck");
    for piece in [
        "piece L fR",
        "piece c ffNbsN",
        "piece e fsWF",
        "piece P& fmWfcF",
    ] {
        assert!(out.iter().any(|l| l == piece), "missing '{piece}': {out:?}");
    }
    play_both_ways(&mut x, "swda-jostlers-amphibians", 4);
    // Posh Protectors: the Berolina Pawn crowns to a Crown Prince, a second `K`.
    let out = new_game(&mut x, "swda-posh-originals");
    check_description(&out, "PQOBWK", "prnafk");
    assert!(out.iter().any(|l| l == "piece Q fcWfmF"), "{out:?}");
    play_both_ways(&mut x, "swda-posh-originals", 3);
}

#[test]
fn cyclical_variants_describe_their_pieces_and_play() {
    // The start position's kinds and the 16 promotion choices (the types pieces change to
    // on moving do not fit XBoard's table; legality testing must be off, see the README).
    let white = "PKRNBQGIHODWACSMFE";
    let black = white.to_ascii_lowercase();
    for variant in [
        "cyclical",
        "cyclical-fixed",
        "cyclical-reverse",
        "cyclical-fixed-reverse",
    ] {
        let mut x = XB::start();
        let out = new_game(&mut x, variant);
        check_description(&out, white, &black);
        play_both_ways(&mut x, variant, 4);
    }
}
