//! Random games to the end in every SwDA pairing, plain shatranj and every Cyclical option:
//! each game must end, and by a rule of its family whose conditions hold in the final
//! position (checked here from the position itself, not from `Game::outcome`'s reasoning).

use panoply::bitboard::BitSet;
use panoply::game::{AnyTables, Game, Outcome};
use panoply::movegen::is_in_check;
use panoply::moves::MoveKind;
use panoply::piece::Player;
use panoply::variant::Family;
use std::collections::BTreeMap;

/// The shared xorshift64* generator, so failures reproduce from their seed.
use crate::rng;
use rng::Rng;

fn only_royals(g: &Game<u64>, p: Player) -> bool {
    g.pos.by_player[p.index()]
        .without(g.pos.royals(&g.tables, p))
        .is_empty()
}

/// Plays one random game (captures and promotions preferred) and checks how it ended.
fn play_out(g: &mut Game<u64>, rng: &mut Rng, max_plies: usize) -> String {
    let family = g.tables.variant.family;
    for _ in 0..max_plies {
        if let Some(outcome) = g.outcome() {
            return check_ending(g, family, outcome);
        }
        let moves = g.legal_moves();
        let forcing: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&m| m.kind() == MoveKind::Promotion || g.pos.piece_at(m.to()).is_some())
            .collect();
        let m = if !forcing.is_empty() && rng.below(2) == 0 {
            forcing[rng.below(forcing.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        g.play(m);
    }
    "unfinished".into()
}

fn check_ending(g: &Game<u64>, family: Family, outcome: Outcome) -> String {
    let us = g.pos.side;
    let them = Player(1 - us.0);
    let no_moves = g.legal_moves().is_empty();
    let fen = g.position_string();
    let swda = family == panoply::games::swda::FAMILY;
    match &outcome {
        Outcome::Win { winner, reason } => match reason.as_str() {
            "checkmate" => {
                assert!(no_moves && is_in_check(&g.tables, &g.pos, us), "{fen}");
                assert_eq!(*winner, them, "{fen}");
            }
            "stalemate" => {
                assert!(swda, "stalemate wins only in SwDA: {fen}");
                assert!(no_moves && *winner == them, "{fen}");
            }
            "bare king" => {
                assert!(swda, "{fen}");
                let loser = Player(1 - winner.0);
                assert!(only_royals(g, loser) && !only_royals(g, *winner), "{fen}");
            }
            other => panic!("unexpected reason {other} at {fen}"),
        },
        Outcome::Draw { reason } => match reason.as_str() {
            "stalemate" => {
                assert!(!swda && no_moves, "{fen}");
                assert!(!is_in_check(&g.tables, &g.pos, us), "{fen}");
            }
            "both kings bare" => {
                assert!(swda && only_royals(g, us) && only_royals(g, them), "{fen}")
            }
            "70-move rule" => assert!(swda && g.pos.halfmove >= 140, "{fen}"),
            "50-move rule" => assert!(!swda && g.pos.halfmove >= 100, "{fen}"),
            "threefold repetition" => assert!(g.repetitions() >= 3, "{fen}"),
            other => panic!("unexpected reason {other} at {fen}"),
        },
    }
    match outcome {
        Outcome::Win { reason, .. } | Outcome::Draw { reason } => reason,
    }
}

fn endings(names: &[String], games: usize, seed: u64) -> BTreeMap<String, usize> {
    let mut rng = Rng(seed);
    let mut out = BTreeMap::new();
    for name in names {
        let t = match panoply::games::tables(name).unwrap() {
            AnyTables::Narrow(t) => t,
            AnyTables::Wide(_) => unreachable!(),
        };
        for _ in 0..games {
            let mut g = Game::new(t.clone());
            let reason = play_out(&mut g, &mut rng, 1500);
            *out.entry(reason).or_insert(0) += 1;
        }
    }
    out
}

#[test]
fn random_swda_games_end_by_swda_rules() {
    let names = panoply::games::swda::names();
    let seen = endings(&names, 12, 0xba2e_0001);
    eprintln!("{seen:?}");
    assert!(!seen.contains_key("unfinished"), "{seen:?}");
    assert!(seen.get("bare king").is_some_and(|&n| n > 20), "{seen:?}");
}

#[test]
fn random_cyclical_games_end_by_chess_rules() {
    let names = panoply::games::cyclical::names();
    let seen = endings(&names, 12, 0xc7c1_0001);
    eprintln!("{seen:?}");
    assert!(!seen.contains_key("unfinished"), "{seen:?}");
    assert!(seen.get("checkmate").is_some_and(|&n| n > 0), "{seen:?}");
}
