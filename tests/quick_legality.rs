//! The search's legality test of a hash move without generating the other moves
//! (`quick_legality`) against the move generator, on positions of random games in several
//! families: every generated move, and moves of nearby positions of the same game (as a
//! table entry of another position would offer), must get the generator's answer.

use panoply::bitboard::BitSet;
use panoply::movegen::tables::Tables;
use panoply::movegen::{legal_moves, quick_legality};
use panoply::moves::{Move, MoveKind};
use panoply::piece::Kind;
use panoply::position::{fen, Position};
use panoply::with_tables;

/// The shared xorshift64* generator, so failures reproduce from their seed.
use crate::rng;
use rng::Rng;

/// How often the quick test answered, and how.
#[derive(Default, Debug)]
struct Tally {
    legal: usize,
    illegal: usize,
    undecided: usize,
}

/// A random game from the start, preferring captures and promotions (which reach checks,
/// pins and promotion ranks sooner): its positions and their legal moves.
fn random_game<B: BitSet>(
    t: &Tables<B>,
    plies: usize,
    rng: &mut Rng,
) -> Vec<(Position<B>, Vec<Move>)> {
    let mut pos = fen::parse(t, &t.variant.start_position).unwrap();
    let mut game = Vec::new();
    for _ in 0..plies {
        let moves = legal_moves(t, &pos).to_vec();
        if moves.is_empty() {
            break;
        }
        let forcing: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| m.kind() == MoveKind::Promotion || pos.piece_at(m.to()).is_some())
            .collect();
        let m = if !forcing.is_empty() && rng.chance(60) {
            *rng.pick(&forcing)
        } else {
            *rng.pick(&moves)
        };
        game.push((pos, moves));
        pos = pos.play(t, m);
    }
    game
}

/// A move with its from and to cells in every form the quick test answers for: plain,
/// double step, and promoting to each kind.
fn forms<B: BitSet>(t: &Tables<B>, m: Move) -> Vec<Move> {
    let mut out = vec![
        m,
        Move::normal(m.from(), m.to()),
        Move::new(m.from(), m.to(), MoveKind::DoubleStep, 0),
    ];
    out.extend(
        (0..t.variant.pieces.len()).map(|k| Move::promotion(m.from(), m.to(), Kind(k as u8))),
    );
    out
}

/// Checks the quick answer for `mv` in `pos` against the generated list `legal`.
fn check<B: BitSet>(t: &Tables<B>, pos: &Position<B>, legal: &[Move], mv: Move, tally: &mut Tally) {
    let expected = legal.contains(&mv);
    match quick_legality(t, pos, mv) {
        None => tally.undecided += 1,
        Some(answer) => {
            assert_eq!(
                answer,
                expected,
                "{} in {}: quick test says {answer}, generation {expected}",
                t.variant.name,
                fen::format(t, pos),
            );
            if answer {
                tally.legal += 1;
            } else {
                tally.illegal += 1;
            }
        }
    }
}

/// Random games of `variant`; every position is asked about its own moves and about those
/// of the positions up to `reach` plies before and after it.
fn compare<B: BitSet>(t: &Tables<B>, games: usize, plies: usize, seed: u64) -> Tally {
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    let reach = 3;
    for _ in 0..games {
        let game = random_game(t, plies, &mut rng);
        for (i, (pos, legal)) in game.iter().enumerate() {
            let near = i.saturating_sub(reach)..(i + reach + 1).min(game.len());
            for (_, others) in &game[near] {
                for &m in others {
                    for mv in forms(t, m) {
                        check(t, pos, legal, mv, &mut tally);
                    }
                }
            }
        }
    }
    tally
}

fn run(variant: &str, seed: u64) -> Tally {
    let any = panoply::games::tables(variant).unwrap();
    let tally = with_tables!(any, t => compare(&t, 4, 100, seed));
    eprintln!("{variant}: {tally:?}");
    tally
}

#[test]
fn quick_legality_agrees_with_generation_in_two_player_families() {
    let swda = panoply::games::swda::names()
        .into_iter()
        .filter(|n| n.starts_with("swda-"))
        .nth(5)
        .unwrap();
    let variants = [
        "chess",
        "cwda-fide-nutty",
        "cwda-clobberers-rookies",
        "cwda-rookies-fide",
        &swda,
        "shatranj",
        "cyclical",
        "cyclical-fixed-reverse",
        "missionary",
    ];
    for (i, v) in variants.iter().enumerate() {
        let tally = run(v, 0x9a5e_0000 + i as u64);
        // Both answers must occur often, or the test proves little.
        assert!(tally.legal > 500 && tally.illegal > 5000, "{v}: {tally:?}");
    }
}

#[test]
fn quick_legality_leaves_armies_of_faith_to_generation() {
    let tally = run("aof5", 0xa0f5);
    assert!(
        tally.legal == 0 && tally.illegal == 0 && tally.undecided > 1000,
        "{tally:?}"
    );
}
