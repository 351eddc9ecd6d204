//! Hand-made positions for each special rule of Shatranj with Different Armies and plain
//! shatranj (docs/rules.md section 3).

use panoply::game::{AnyTables, Game, Outcome};
use panoply::movegen::is_in_check;
use panoply::piece::Player;

fn game(variant: &str, fen: &str) -> Game<u64> {
    match panoply::games::tables(variant).unwrap() {
        AnyTables::Narrow(t) => Game::from_position_string(t, fen).unwrap(),
        AnyTables::Wide(_) => unreachable!(),
    }
}

fn moves(g: &Game<u64>) -> Vec<String> {
    let mut v: Vec<String> = g.legal_moves().iter().map(|&m| g.format_move(m)).collect();
    v.sort();
    v
}

fn win(winner: Player, reason: &str) -> Option<Outcome> {
    Some(Outcome::Win {
        winner,
        reason: reason.into(),
    })
}

fn draw(reason: &str) -> Option<Outcome> {
    Some(Outcome::Draw {
        reason: reason.into(),
    })
}

#[test]
fn two_royals_may_be_left_attacked_and_the_last_one_is_royal() {
    // White has Kings on a1 and e1; the Rook attacks a1.
    let mut g = game(
        "swda-originals-originals",
        "7k/8/8/8/8/8/r6P/K3K3 w - - 0 1",
    );
    assert!(!is_in_check(&g.tables, &g.pos, Player::WHITE));
    g.play_str("h2h3").expect("a1 may be left attacked");
    g.play_str("a2a1").expect("a King may be captured");
    // One King left, attacked along the first rank: check, comes with the capture.
    assert!(is_in_check(&g.tables, &g.pos, Player::WHITE));
    assert_eq!(moves(&g), ["e1d2", "e1e2", "e1f2"]);
}

#[test]
fn a_crowning_that_makes_a_second_royal_is_legal_while_the_king_is_attacked() {
    // The Rook checks e1; the Berolina Pawn's crowning is legal although e1 stays attacked.
    let mut g = game("swda-posh-originals", "4r2k/1Q6/8/8/8/8/8/4K3 w - - 0 1");
    assert!(is_in_check(&g.tables, &g.pos, Player::WHITE));
    assert_eq!(
        moves(&g),
        ["b7a8k", "b7c8k", "e1d1", "e1d2", "e1f1", "e1f2"]
    );
    g.play_str("b7c8k").unwrap();
    assert!(g.position_string().starts_with("2K1r2k/"));
    assert!(!is_in_check(&g.tables, &g.pos, Player::WHITE));
    g.play_str("e8e1").expect("the old King is capturable now");
    // The Crown Prince is White's royal now, and bare against the Rook.
    assert_eq!(g.outcome(), win(Player::BLACK, "bare king"));
}

#[test]
fn stalemate_loses_for_the_side_to_move() {
    let g = game("shatranj", "k7/P7/1K6/8/8/7p/7P/8 b - - 0 1");
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.outcome(), win(Player::WHITE, "stalemate"));
}

#[test]
fn a_bare_king_loses() {
    let g = game("shatranj", "8/8/8/8/8/3k4/8/R6K b - - 0 1");
    assert!(!g.legal_moves().is_empty());
    assert_eq!(g.outcome(), win(Player::WHITE, "bare king"));
}

#[test]
fn the_bare_side_may_reply_by_baring_the_other_and_that_draws() {
    let mut g = game("shatranj", "8/8/8/8/2R5/3k4/8/7K b - - 0 1");
    assert_eq!(g.outcome(), None, "Black can take the last Rook");
    g.play_str("d3c4").unwrap();
    assert_eq!(g.outcome(), draw("both kings bare"));
}

#[test]
fn the_reply_exception_needs_the_last_piece() {
    // Black can take one Rook, but White keeps the other: White wins at once.
    let g = game("shatranj", "8/8/8/8/2R5/3k4/8/R6K b - - 0 1");
    assert_eq!(g.outcome(), win(Player::WHITE, "bare king"));
    // With White to move, the exception is Black's only: White wins.
    let g = game("shatranj", "8/8/8/8/2R5/3k4/8/7K w - - 0 1");
    assert_eq!(g.outcome(), win(Player::WHITE, "bare king"));
}

#[test]
fn two_kings_and_nothing_else_are_bare() {
    let g = game("swda-posh-posh", "4k3/8/8/8/3r4/8/8/K3K3 w - - 0 1");
    assert_eq!(g.outcome(), win(Player::BLACK, "bare king"));
}

#[test]
fn lance_may_promote_on_its_seventh_rank_and_must_on_its_last() {
    let g = game("swda-jostlers-originals", "4k3/8/8/L7/8/8/8/4K3 w - - 0 1");
    let lance: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("a5"))
        .collect();
    assert_eq!(lance, ["a5a6", "a5a7", "a5a7g", "a5a8g"]);
    // Black's Lance: its 7th rank is rank 2.
    let g = game("swda-originals-jostlers", "4k3/8/8/8/l7/8/8/4K3 b - - 0 1");
    let lance: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("a4"))
        .collect();
    assert_eq!(lance, ["a4a1g", "a4a2", "a4a2g", "a4a3"]);
}

#[test]
fn pawns_promote_to_their_armys_d_piece_and_berolina_pawns_crown() {
    let g = game("swda-amphibians-posh", "4k3/P7/8/8/8/8/7p/1K6 w - - 0 1");
    assert_eq!(
        moves(&g)
            .into_iter()
            .filter(|m| m.starts_with("a7"))
            .collect::<Vec<_>>(),
        ["a7a8c"]
    );
    let g = game("swda-amphibians-posh", "4k3/P7/8/8/8/8/7p/1K6 b - - 0 1");
    assert_eq!(
        moves(&g)
            .into_iter()
            .filter(|m| m.starts_with("h2"))
            .collect::<Vec<_>>(),
        ["h2h1w"]
    );
    // A Berolina Pawn moves diagonally, captures straight ahead, and crowns.
    let g = game("swda-posh-jostlers", "1s2k3/1Q6/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        moves(&g)
            .into_iter()
            .filter(|m| m.starts_with("b7"))
            .collect::<Vec<_>>(),
        ["b7a8k", "b7b8k", "b7c8k"]
    );
}

#[test]
fn the_seventy_move_rule_draws() {
    let mut g = game("shatranj", "4k2r/8/8/8/8/8/4P3/R3K3 w - - 139 80");
    assert_eq!(g.outcome(), None);
    g.play_str("a1a2").unwrap();
    assert_eq!(g.outcome(), draw("70-move rule"));
    let mut g = game("shatranj", "4k2r/8/8/8/8/8/4P3/R3K3 w - - 139 80");
    g.play_str("e2e3").unwrap();
    assert_eq!(g.outcome(), None, "a pawn move resets the count");
}

#[test]
fn plain_shatranj_uses_the_traditional_letters_and_setup() {
    let g = match panoply::games::tables("shatranj").unwrap() {
        AnyTables::Narrow(t) => Game::new(t),
        AnyTables::Wide(_) => unreachable!(),
    };
    assert_eq!(
        g.position_string(),
        "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    );
    let m = moves(&g);
    assert_eq!(m.len(), 16);
    for alfil_or_knight in ["c1a3", "c1e3", "f1d3", "f1h3", "b1a3", "b1c3"] {
        assert!(
            m.contains(&alfil_or_knight.to_string()),
            "{alfil_or_knight}"
        );
    }
    // The Ferz (q) steps diagonally only; pawns promote to it.
    let g = game("shatranj", "4k3/P7/8/8/8/8/8/3QK3 w - - 0 1");
    let m = moves(&g);
    assert!(m.contains(&"a7a8q".to_string()) && m.contains(&"d1c2".to_string()));
    assert!(!m.contains(&"d1d2".to_string()));
}
