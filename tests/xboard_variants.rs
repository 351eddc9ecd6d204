//! XBoard (CECP) in Shatranj, SwDA and Cyclical Armies: `variant X` describes every piece
//! kind the game can have, and games are played both ways (our moves in, the engine's moves
//! out), each engine move checked legal with the library.

use crate::protocol_common;
use protocol_common::{legal_moves, position_after, XB};
use std::collections::BTreeSet;

/// A new game of `variant` in which the engine plays Black at depth 2; returns what
/// `variant` printed.
fn new_game(x: &mut XB, variant: &str) -> Vec<String> {
    x.silent("new");
    let out = x.say(&format!("variant {variant}"));
    x.silent("sd 2");
    out
}

/// Plays `rounds` moves for White (a legal move picked by the library, sent the way XBoard
/// relays a move of ours: with the arriving type as suffix when the piece changes type) and
/// checks each of the engine's answers is legal for Black and names a type change the same
/// way. Returns the moves of the game in our notation.
fn play_both_ways(x: &mut XB, variant: &str, rounds: usize) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for round in 0..rounds {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let mut ours = legal_moves(variant, None, &refs);
        ours.sort();
        let mv = ours[(round * 7) % ours.len()].clone();
        let suffix = arrival_letter(variant, &refs, &mv).map(String::from);
        let suffix = suffix.unwrap_or_default();
        x.e.send(&format!("usermove {mv}{suffix}"));
        moves.push(mv);
        let reply = x.e.expect_prefix("move ");
        let reply = reply.strip_prefix("move ").unwrap().to_string();
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let legal = legal_moves(variant, None, &refs);
        let played = if legal.contains(&reply) {
            reply.clone()
        } else {
            reply[..reply.len() - 1].to_string()
        };
        assert!(
            legal.contains(&played),
            "{variant} after {moves:?}: engine played {reply}"
        );
        let suffix = arrival_letter(variant, &refs, &played).map(String::from);
        assert_eq!(
            reply,
            played.clone() + suffix.as_deref().unwrap_or(""),
            "{variant} after {moves:?}: the suffix must name the type the piece arrives as"
        );
        moves.push(played);
    }
    moves
}

/// The letter (lower case) of the kind the piece of a legal, non-promotion move arrives as,
/// if it differs from the kind it left as; read from the position strings before and after.
fn arrival_letter(variant: &str, before: &[&str], mv: &str) -> Option<char> {
    if mv.len() != 4 {
        return None;
    }
    let mut after = before.to_vec();
    after.push(mv);
    let letter_at = |moves: &[&str], square: &str| {
        let fen = position_after(variant, moves);
        let board = fen.split_whitespace().next().unwrap().to_string();
        let (file, rank) = (square.as_bytes()[0] - b'a', square.as_bytes()[1] - b'1');
        let row = board.split('/').nth(7 - rank as usize).unwrap();
        let mut x = 0;
        for c in row.chars() {
            match c.to_digit(10) {
                Some(n) => x += n as u8,
                None if x == file => return Some(c.to_ascii_lowercase()),
                None => x += 1,
            }
        }
        None
    };
    let left = letter_at(before, &mv[..2])?;
    let arrived = letter_at(&after, &mv[2..])?;
    // XBoard's letter for our Chinese Pawn `x` is `l` (see the Cyclical test below).
    let xboard_letter = if arrived == 'x' { 'l' } else { arrived };
    (left != arrived).then_some(xboard_letter)
}

/// The `setup` line split into White's and Black's piece letters and the position string.
fn setup_letters(out: &[String]) -> (BTreeSet<char>, BTreeSet<char>, String) {
    let setup = out[0].strip_prefix("setup (").expect("a setup line first");
    let (table, rest) = setup.split_once(") ").unwrap();
    let fen = rest
        .strip_prefix("8x8+0_fairy ")
        .expect("8x8 board")
        .to_string();
    // At least XBoard's classic 22 piece types per side, the same number for both.
    assert!(
        table.len() >= 44 && table.len() % 2 == 0,
        "piece types per side: {table}"
    );
    let letters = |half: &str| {
        half.chars()
            .filter(|&c| c != '.')
            .collect::<BTreeSet<char>>()
    };
    let (white, black) = table.split_at(table.len() / 2);
    assert!(
        white.ends_with('K') && black.ends_with('k'),
        "the King takes XBoard's last slot: {table}"
    );
    (letters(white), letters(black), fen)
}

/// Checks the `setup` and `piece` lines: the table holds exactly the expected letters, every
/// letter of the start position is in it, and every letter but the `undescribed` ones (moves
/// XBetza cannot write) has a `piece` line (`X&` covers both colours).
fn check_description(out: &[String], white: &str, black: &str, undescribed: &str) {
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
        if undescribed.contains(*c) {
            continue;
        }
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
    check_description(&out, "PLDSGK", "ptieck", "");
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
    check_description(&out, "PQOBWK", "prnafk", "");
    assert!(out.iter().any(|l| l == "piece Q fcWfmF"), "{out:?}");
    play_both_ways(&mut x, "swda-posh-originals", 3);
}

#[test]
fn cyclical_variants_describe_their_pieces_and_play() {
    // The start position's types, the 16 promotion choices, and the types pieces change to
    // on moving: without `fixed` also the royals and pawns of the other armies. The Chinese
    // Pawn is `L` (XBoard reads an `x` ending a move as a capture mark) and its sideways
    // step on the far half has no XBetza form.
    let fixed = "PKRNBQGIHODWACSMFE";
    let cycling = "PKRNBQGIHODWACSMFEUYTVJL";
    for (variant, white) in [
        ("cyclical", cycling),
        ("cyclical-fixed", fixed),
        ("cyclical-reverse", cycling),
        ("cyclical-fixed-reverse", fixed),
    ] {
        let mut x = XB::start();
        let out = new_game(&mut x, variant);
        check_description(&out, white, &white.to_ascii_lowercase(), "Ll");
        // Only the King that starts the game castles.
        assert!(out.iter().any(|l| l == "piece K& KisO2"), "{out:?}");
        assert!(!out
            .iter()
            .any(|l| l.contains("O2") && !l.starts_with("piece K&")));
        play_both_ways(&mut x, variant, 6);
    }
}

#[test]
fn cyclical_moves_carry_the_type_the_piece_arrives_as() {
    let mut x = XB::start();
    new_game(&mut x, "cyclical");
    x.silent("force");
    // The Knight arrives as a Fibnif: a suffix naming another type is refused.
    assert_eq!(x.say("usermove g1f3n"), ["Illegal move: g1f3n"]);
    assert_eq!(x.say("usermove g1f3w"), ["Illegal move: g1f3w"]);
    x.silent("usermove g1f3i");
    // Without the suffix the move is as good (XBoard sends a user's move bare).
    x.silent("usermove g8f6");
    // Castling: the King arrives as a Centaur Royal; the Rook changes too (its type is
    // the one XBoard cannot be told).
    x.silent("setboard r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    x.silent("usermove e1g1u");
    x.silent("usermove e8c8");
    // A real promotion keeps its letter: a Pawn becomes the type chosen.
    x.silent("setboard 4k3/P7/8/8/8/8/8/4K3 b - - 0 1");
    x.silent("usermove e8d8u");
    assert_eq!(x.say("usermove a7a8u"), ["Illegal move: a7a8u"]);
    x.silent("usermove a7a8c");
    // The engine's own moves name the type too.
    x.silent("setboard 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    x.silent("sd 1");
    let reply = x.e.exchange("go", "ping 99", "pong 99");
    let mv = reply
        .iter()
        .find_map(|l| l.strip_prefix("move "))
        .unwrap_or_else(|| panic!("no move: {reply:?}"));
    assert!(
        mv.len() == 5 && "gu".contains(&mv[4..]) || mv == "e1c1u",
        "a Rook arrives as a Charging Rook (g), a King as a Centaur Royal (u): {mv}"
    );
}

#[test]
fn lifted_pieces_show_their_targets_and_changes() {
    let mut x = XB::start();
    // XBoard knows the rules of normal chess: it gets no help there.
    x.silent("new");
    x.silent("force");
    x.silent("lift e2");
    new_game(&mut x, "cyclical");
    x.silent("force");
    // A Pawn's steps both make it a Cavalier Pawn: blue, and on `put` XBoard is told the
    // type, so the user's move arrives with it and XBoard's board follows.
    assert_eq!(x.say("lift e2"), ["highlight 8/8/8/8/4B3/4B3/8/8"]);
    assert_eq!(x.say("put e4"), ["choice V"]);
    x.silent("hover e4");
    x.silent("usermove e2e4v");
    for bad in ["lift i2", "put e9", "hover", "lift e2e4"] {
        assert_eq!(
            x.say(bad),
            [format!("Error (not a square of this board): {bad}")]
        );
    }
    // Not the side to move's piece: XBoard's own move entry.
    x.silent("lift d2");
    // A blocked piece: nothing marked.
    assert_eq!(x.say("lift a8"), ["highlight 8/8/8/8/8/8/8/8"]);
    // Promotion: magenta, with the 16 choices (Queen first) known before the piece lands.
    x.silent("setboard 4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        x.say("lift a7"),
        ["highlight M7/8/8/8/8/8/8/8", "choice QABCDEFGHIMNORSW"]
    );
    x.silent("put a8");
    x.silent("usermove a7a8q");

    // SwDA: a Lance on its 6th rank may promote on the 7th (plain: XBoard would empty the
    // square if the user declined a magenta promotion; the promotion is typed) and must on
    // the 8th (blue: Gold).
    new_game(&mut x, "swda-jostlers-posh");
    x.silent("force");
    x.silent("setboard 4k3/7q/L7/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(x.say("lift a6"), ["highlight B7/Y7/8/8/8/8/8/8"]);
    assert_eq!(x.say("put a8"), ["choice G"]);
    x.silent("put a7");
    // XBoard's mark for a declined promotion is refused, so XBoard takes the move back.
    assert_eq!(x.say("usermove a6a7."), ["Illegal move: a6a7."]);
    x.silent("usermove a6a7");
    x.silent("usermove h7g6");
    assert_eq!(x.say("lift a7"), ["highlight B7/8/8/8/8/8/8/8"]);
    x.silent("usermove a7a8g");
}
