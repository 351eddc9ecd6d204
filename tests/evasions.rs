//! Moves out of check, against making each move and looking: in positions of random games
//! where the side to move is in check, the generator's plain moves, captures, promotions and
//! double steps are exactly the pseudo-legal ones after which no royal piece of the mover is
//! attacked, and `has_legal_move` (which stops at the first legal move) agrees with the
//! generated list. The generator narrows a checked side's non-royal moves to the cells that
//! end the check before it tests them; this is the test that it loses none.

use panoply::bitboard::BitSet;
use panoply::movegen::tables::Tables;
use panoply::movegen::MoveList;
use panoply::movegen::{attacked, generate_pseudo, has_legal_move, is_in_check, legal_moves};
use panoply::moves::{Move, MoveKind};
use panoply::position::{fen, Position};
use panoply::variant::RoyalRule;
use panoply::with_tables;

use crate::rng;
use rng::Rng;

/// The kinds of move the narrowing applies to.
fn narrowed(m: Move) -> bool {
    matches!(
        m.kind(),
        MoveKind::Normal | MoveKind::Promotion | MoveKind::DoubleStep
    )
}

/// Whether no royal piece of the mover is attacked after `m` (the make-and-look test).
fn safe_after<B: BitSet>(t: &Tables<B>, pos: &Position<B>, m: Move) -> bool {
    let us = pos.side;
    let next = pos.play_raw(t, m);
    let royals = next.royals(t, us);
    if t.variant.royal_rule == RoyalRule::LoneRoyalOnly && royals.count() != 1 {
        return true;
    }
    royals
        .cells()
        .all(|r| !attacked(t, &next, r, us, next.occupied, next.occupied))
}

/// Compares generation with the make-and-look test in one position in check.
fn compare_in<B: BitSet>(t: &Tables<B>, pos: &Position<B>) {
    let mut pseudo = MoveList::new();
    generate_pseudo(t, pos, &mut pseudo);
    let mut expected: Vec<Move> = pseudo
        .iter()
        .copied()
        .filter(|&m| narrowed(m) && safe_after(t, pos, m))
        .collect();
    let all = legal_moves(t, pos);
    let mut generated: Vec<Move> = all.iter().copied().filter(|&m| narrowed(m)).collect();
    expected.sort_by_key(|m| m.0);
    generated.sort_by_key(|m| m.0);
    let text = fen::format(t, pos);
    assert_eq!(generated, expected, "{} in {text}", t.variant.name);
    let real = all.iter().any(|&m| m.kind() != MoveKind::Pass);
    assert_eq!(has_legal_move(t, pos), real, "{} in {text}", t.variant.name);
}

/// Random games from the start, preferring checks and captures; returns how many positions
/// in check were compared.
fn run<B: BitSet>(t: &Tables<B>, games: usize, plies: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut compared = 0;
    for _ in 0..games {
        let mut pos = fen::parse(t, &t.variant.start_position).unwrap();
        for _ in 0..plies {
            let moves = legal_moves(t, &pos).to_vec();
            if moves.is_empty() {
                break;
            }
            if is_in_check(t, &pos, pos.side) {
                compare_in(t, &pos);
                compared += 1;
            }
            let forcing: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let next = pos.play(t, m);
                    pos.piece_at(m.to()).is_some() || is_in_check(t, &next, next.side)
                })
                .collect();
            let m = if !forcing.is_empty() && rng.chance(70) {
                *rng.pick(&forcing)
            } else {
                *rng.pick(&moves)
            };
            pos = pos.play(t, m);
        }
    }
    compared
}

#[test]
fn moves_out_of_check_are_the_ones_that_leave_no_royal_attacked() {
    for (i, (variant, games, plies)) in [
        ("chess", 30, 120),
        ("cwda-nutty-rookies", 30, 120),
        ("cwda-clobberers-fide", 30, 120),
        ("shatranj", 20, 120),
        ("aof5", 6, 160),
        ("aof5-raj", 4, 160),
    ]
    .into_iter()
    .enumerate()
    {
        let any = panoply::games::tables(variant).unwrap();
        let compared = with_tables!(any, t => run(&t, games, plies, 0xe7a5_0000 + i as u64));
        eprintln!("{variant}: {compared} positions in check");
        assert!(
            compared >= 20,
            "{variant}: only {compared} positions in check"
        );
    }
}
