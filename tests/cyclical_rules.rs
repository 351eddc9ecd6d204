//! Hand-made positions for each special rule of Chess with Cyclical Armies (docs/rules.md
//! section 2): type change on arrival, castling changes both pieces (with and without
//! `fixed` / `reverse`), e.p. by FIDE Pawns only, promotion to each of the sixteen types,
//! and Zobrist keys / repetition that see types.

use panoply::game::{AnyTables, Game};
use panoply::movegen::is_in_check;
use panoply::piece::Player;

fn game(variant: &str, fen: &str) -> Game<u64> {
    match panoply::games::tables(variant).unwrap() {
        AnyTables::Narrow(t) => Game::from_position_string(t, fen).unwrap(),
        AnyTables::Wide(_) => unreachable!(),
    }
}

fn start(variant: &str) -> Game<u64> {
    match panoply::games::tables(variant).unwrap() {
        AnyTables::Narrow(t) => Game::new(t),
        AnyTables::Wide(_) => unreachable!(),
    }
}

fn board(g: &Game<u64>) -> String {
    g.position_string().split(' ').next().unwrap().to_string()
}

fn moves(g: &Game<u64>) -> Vec<String> {
    let mut v: Vec<String> = g.legal_moves().iter().map(|&m| g.format_move(m)).collect();
    v.sort();
    v
}

#[test]
fn every_piece_changes_on_arrival() {
    let mut g = start("cyclical");
    for m in ["e2e4", "g8f6", "e1e2", "b8c6"] {
        g.play_str(m).unwrap();
    }
    assert_eq!(
        board(&g),
        "r1bqkb1r/pppppppp/2i2i2/8/4V3/8/PPPPUPPP/RNBQ1BNR"
    );
    // The Centaur Royal moves as a Knight, and becomes a Color Khan.
    g.play_str("e2f4").unwrap();
    assert!(board(&g).contains("/4VY2/"));
}

#[test]
fn the_type_after_the_move_is_the_one_that_gives_check() {
    // Bishop b2 lands as a Charging Knight: from f6 it attacks e8, from d4 it does not.
    let fen = "4k3/8/8/8/8/8/1B6/4K3 w - - 0 1";
    let mut g = game("cyclical", fen);
    g.play_str("b2f6").unwrap();
    assert!(is_in_check(&g.tables, &g.pos, Player::BLACK));
    let mut g = game("cyclical", fen);
    g.play_str("b2d4").unwrap();
    assert!(!is_in_check(&g.tables, &g.pos, Player::BLACK));
    // The Bishop's lines never reach e8 from g7; the Charging Knight's (-2,+1) leap does.
    let mut g = game("cyclical", fen);
    g.play_str("b2g7").unwrap();
    assert!(is_in_check(&g.tables, &g.pos, Player::BLACK));
}

#[test]
fn castling_changes_king_and_rook_by_the_owners_cycle() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let cases = [
        // (variant, board after White's king-side and Black's queen-side castling)
        ("cyclical", "2ug3r/8/8/8/8/8/8/R4GU1"),
        ("cyclical-fixed", "2kg3r/8/8/8/8/8/8/R4GK1"),
        ("cyclical-reverse", "2ts3r/8/8/8/8/8/8/R4GU1"),
        ("cyclical-fixed-reverse", "2ks3r/8/8/8/8/8/8/R4GK1"),
    ];
    for (variant, expected) in cases {
        let mut g = game(variant, fen);
        g.play_str("e1g1").unwrap();
        // (The new Charging Rook on f1 now attacks f8: no king-side castling for Black.)
        assert!(g.play_str("e8g8").is_err(), "{variant}");
        g.play_str("e8c8").unwrap();
        assert_eq!(board(&g), expected, "{variant}");
    }
    // Queen side: King to c1, Rook to d1.
    let mut g = game("cyclical", fen);
    g.play_str("e1c1").unwrap();
    assert!(board(&g).ends_with("2UG3R"));
}

#[test]
fn only_fide_pawns_capture_en_passant_and_it_removes_the_changed_pawn() {
    // After e2e4 the pawn on e4 is a Cavalier Pawn. The FIDE Pawn on f4 takes it e.p.; the
    // Cavalier Pawn on d5 may step to e3 (a Mao move) but that captures nothing.
    let mut g = game("cyclical", "4k3/8/8/3v4/5p2/8/4P3/4K3 w - - 0 1");
    g.play_str("e2e4").unwrap();
    assert_eq!(g.position_string(), "4k3/8/8/3v4/4Vp2/8/8/4K3 b - e3 0 1");
    let m = moves(&g);
    assert!(m.contains(&"f4e3".to_string()) && m.contains(&"d5e3".to_string()));
    let mut ep = g.clone();
    ep.play_str("f4e3").unwrap();
    assert_eq!(board(&ep), "4k3/8/8/3v4/8/4v3/8/4K3");
    g.play_str("d5e3").unwrap();
    assert_eq!(board(&g), "4k3/8/8/8/4Vp2/4j3/8/4K3");
    // A Berolina or Chinese Pawn beside the double-stepper gets no e.p. capture: the
    // Berolina Pawn may step to e3, but the Cavalier Pawn on e4 stays.
    let mut g = game("cyclical", "4k3/8/8/8/3j1x2/8/4P3/4K3 w - - 0 1");
    g.play_str("e2e4").unwrap();
    let to_e3: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.ends_with("e3"))
        .collect();
    assert_eq!(to_e3, ["d4e3"]);
    g.play_str("d4e3").unwrap();
    assert_eq!(board(&g), "4k3/8/8/8/4Vx2/4x3/8/4K3");
}

#[test]
fn a_pawn_promotes_to_each_of_the_sixteen_types_which_then_keeps_cycling() {
    let mut seen = std::collections::HashSet::new();
    for promo in [
        "q", "o", "c", "e", "r", "g", "d", "s", "b", "h", "a", "f", "n", "i", "w", "m",
    ] {
        let mut g = game("cyclical", "7k/P7/8/8/8/8/8/K7 w - - 0 1");
        g.play_str(&format!("a7a8{promo}")).unwrap();
        let after = board(&g);
        assert!(
            after.starts_with(&promo.to_uppercase()),
            "the promotion itself does not advance the type: {after}"
        );
        seen.insert(promo);
    }
    assert_eq!(seen.len(), 16);
    // The promoted Queen becomes a Colonel when it moves.
    let mut g = game("cyclical", "7k/P7/8/8/8/8/8/K7 w - - 0 1");
    g.play_str("a7a8q").unwrap();
    g.play_str("h8h7").unwrap();
    g.play_str("a8a2").unwrap();
    assert!(board(&g).ends_with("/O7/K7"));
    // Every pawn type promotes, and only by promoting: 16 moves per arrival.
    // From b7 only the wide leap to d8 (via c7) stays on the board, and it must promote.
    let g = game("cyclical", "7k/1V6/8/8/8/8/8/K7 w - - 0 1");
    let from_b7: Vec<_> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("b7"))
        .collect();
    assert_eq!(from_b7.len(), 16);
    assert!(from_b7.iter().all(|m| m.starts_with("b7d8")));
    let g = game("cyclical", "7k/8/1V6/8/8/8/8/K7 w - - 0 1");
    let cavalier: Vec<_> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("b6"))
        .collect();
    // b6 -> a8, c8 (narrow, via b7) promote; d7 (wide, via c6) does not.
    assert_eq!(cavalier.len(), 16 + 16 + 1, "{cavalier:?}");
}

#[test]
fn chinese_pawns_step_sideways_only_on_the_far_half() {
    let g = game("cyclical", "4k3/8/8/4X3/8/2X5/8/K7 w - - 0 1");
    let m = moves(&g);
    for ok in ["e5e6", "e5d5", "e5f5", "c3c4"] {
        assert!(m.contains(&ok.to_string()), "{ok}");
    }
    assert!(!m.contains(&"c3b3".to_string()) && !m.contains(&"c3d3".to_string()));
}

#[test]
fn zobrist_keys_and_repetition_see_types() {
    let mut g = start("cyclical");
    let start_key = g.pos.hash;
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        g.play_str(m).unwrap();
    }
    // Same occupancy as the start, but the Knights came back as Waffles.
    assert_eq!(board(&g), "rnbqkbwr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBWR");
    assert_ne!(g.pos.hash, start_key);
    assert_eq!(g.pos.hash, g.pos.compute_hash(&g.tables));
    assert_eq!(g.repetitions(), 1);
    // A real repetition of types is still found: a Rookja shuffling back and forth
    // changes every time, so repeat the same full position through a two-cycle of moves.
    let mut g = game("cyclical-fixed", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    for _ in 0..2 {
        for m in ["e1d1", "e8d8", "d1e1", "d8e8"] {
            g.play_str(m).unwrap();
        }
    }
    assert_eq!(g.repetitions(), 3);
}
