//! Differential tests: the fast generator against the simple reference (tests/reference) on
//! positions reached by random play in every CwDA variant (both promotion rules), every SwDA
//! pairing, plain shatranj and every Cyclical option. Every position compares the legal move sets, the bulk
//! count, check, the position after every move (types, castling rights, e.p., clock) and
//! the incremental Zobrist key. Random play prefers captures and promotions, so walks reach
//! Crown Princes, two royals, bare kings and many changed types; the test also asserts that
//! they did.

use crate::reference;

use panoply::bitboard::BitSet;
use panoply::game::AnyTables;
use panoply::movegen::tables::Tables;
use panoply::movegen::{count_legal, is_in_check, legal_moves};
use panoply::moves::{Move, MoveKind};
use panoply::piece::Player;
use panoply::position::{fen, Position};
use reference::{RefBoard, RefMove, Reference, Special};
use std::collections::BTreeSet;

/// The shared xorshift64* generator, so failures reproduce from their seed.
use crate::rng;
use rng::Rng;

fn board_of(pos: &Position<u64>) -> RefBoard {
    RefBoard {
        cells: (0..64u16)
            .map(|c| {
                pos.piece_at(panoply::geometry::Cell(c))
                    .map(|p| (p.player().0, p.kind().0))
            })
            .collect(),
        side: pos.side.0,
        castling: pos.castling,
        ep: pos
            .ep
            .iter()
            .flatten()
            .next()
            .map(|e| (e.skipped.0, e.victim.0)),
        halfmove: pos.halfmove,
    }
}

fn ref_move(m: Move) -> RefMove {
    RefMove {
        from: m.from().0,
        to: m.to().0,
        promotion: (m.kind() == MoveKind::Promotion).then(|| m.extra()),
        special: match m.kind() {
            MoveKind::DoubleStep => Special::DoubleStep,
            MoveKind::EnPassant => Special::EnPassant,
            MoveKind::Castle => Special::Castle(m.extra()),
            _ => Special::None,
        },
    }
}

/// What the random walks met, so the test can insist on the cases it exists for.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    two_royals: usize,
    crown_princes: usize,
    bare: usize,
    changed_types: usize,
    en_passant: usize,
    castles: usize,
    promotions: usize,
    checks: usize,
    checkmates: usize,
    /// Castlings that put the King on the b-file (the Clobberers' Bede castling).
    bede_castlings: usize,
    /// Pseudo-legal moves the reference refused because they leave a royal attacked.
    illegal_refused: usize,
}

/// Compares both generators on one position; panics with the position string on a mismatch.
fn compare(t: &Tables<u64>, r: &Reference, pos: &Position<u64>, cov: &mut Coverage) -> Vec<Move> {
    let fen_text = fen::format(t, pos);
    let b = board_of(pos);
    let fast = legal_moves(t, pos);
    let fast_set: BTreeSet<RefMove> = fast.iter().map(|&m| ref_move(m)).collect();
    let ref_set: BTreeSet<RefMove> = r.legal_moves(&b).into_iter().collect();
    cov.illegal_refused += r.pseudo_moves(&b).len() - ref_set.len();
    if fast_set != ref_set {
        let name = |m: &RefMove| format!("{m:?}");
        let only_fast: Vec<_> = fast_set.difference(&ref_set).map(name).collect();
        let only_ref: Vec<_> = ref_set.difference(&fast_set).map(name).collect();
        panic!(
            "{} '{fen_text}': only fast {only_fast:?}, only reference {only_ref:?}",
            t.variant.name
        );
    }
    assert_eq!(
        fast.len(),
        fast_set.len(),
        "duplicate moves at '{fen_text}'"
    );
    assert_eq!(
        count_legal(t, pos),
        fast.len() as u64,
        "bulk count at '{fen_text}'"
    );
    let check = is_in_check(t, pos, pos.side);
    assert_eq!(check, r.in_check(&b, b.side), "check at '{fen_text}'");
    for &m in &fast {
        let next = pos.play(t, m);
        assert_eq!(
            board_of(&next),
            r.make(&b, ref_move(m)),
            "{} '{fen_text}' after {}",
            t.variant.name,
            t.shape.cell_name(m.from())
        );
        assert_eq!(next.hash, next.compute_hash(t), "hash at '{fen_text}'");
        match m.kind() {
            MoveKind::EnPassant => cov.en_passant += 1,
            MoveKind::Castle => {
                cov.castles += 1;
                cov.bede_castlings += (t.shape.x(m.to()) == 1) as usize;
            }
            MoveKind::Promotion => cov.promotions += 1,
            _ => {}
        }
    }
    let reparsed = fen::parse(t, &fen_text).unwrap_or_else(|e| panic!("'{fen_text}': {e}"));
    assert_eq!(
        reparsed.hash, pos.hash,
        "position string round trip '{fen_text}'"
    );
    cov.positions += 1;
    cov.checks += check as usize;
    cov.checkmates += (check && fast.is_empty()) as usize;
    for p in [Player::WHITE, Player::BLACK] {
        let royals = r.royals(&b, p.0);
        cov.two_royals += (royals.len() >= 2) as usize;
        let others = b.cells.iter().flatten().filter(|(q, _)| *q == p.0).count() - royals.len();
        cov.bare += (others == 0) as usize;
    }
    let start_kinds = ["K", "P", "R", "N", "B", "Q"];
    cov.changed_types += b
        .cells
        .iter()
        .flatten()
        .filter(|(_, k)| !start_kinds.contains(&t.variant.pieces[*k as usize].token.as_str()))
        .count();
    fast.to_vec()
}

/// Random play from `start`, preferring captures and promotions.
fn walk(t: &Tables<u64>, start: &str, plies: usize, rng: &mut Rng, cov: &mut Coverage) {
    let r = Reference::new(&t.variant);
    let mut pos = fen::parse(t, start).unwrap_or_else(|e| panic!("'{start}': {e}"));
    for _ in 0..plies {
        let royals_before = pos.royals(t, pos.side).count();
        let moves = compare(t, &r, &pos, cov);
        if moves.is_empty() {
            return;
        }
        let forcing: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| m.kind() == MoveKind::Promotion || pos.piece_at(m.to()).is_some())
            .collect();
        let m = if !forcing.is_empty() && rng.below(3) > 0 {
            forcing[rng.below(forcing.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        let mover = pos.side;
        pos = pos.play(t, m);
        if pos.royals(t, mover).count() > royals_before {
            cov.crown_princes += 1;
        }
    }
}

fn narrow(name: &str) -> std::sync::Arc<Tables<u64>> {
    match panoply::games::tables(name).unwrap() {
        AnyTables::Narrow(t) => t,
        AnyTables::Wide(_) => panic!("{name} is not 8x8"),
    }
}

fn run(names: &[String], extra_starts: &[&str], walks: usize, plies: usize, seed: u64) -> Coverage {
    let mut cov = Coverage::default();
    let mut rng = Rng(seed);
    for name in names {
        let t = narrow(name);
        for _ in 0..walks {
            walk(
                &t,
                &t.variant.start_position.clone(),
                plies,
                &mut rng,
                &mut cov,
            );
        }
        for start in extra_starts {
            walk(&t, start, plies, &mut rng, &mut cov);
        }
    }
    cov
}

#[test]
fn swda_fast_generator_matches_the_reference_in_every_pairing() {
    let mut names = panoply::games::swda::names();
    names.retain(|n| n.starts_with("swda-"));
    assert_eq!(names.len(), 16);
    let starts = [
        // Berolina Pawns about to crown: two royals, then captures of royals.
        "4k3/1Q3q2/8/3w4/3W4/8/1Q3q2/4K3 w - - 0 1",
        "k7/1QQ5/8/8/8/8/5qq1/7K b - - 0 1",
        // Already two royals each, one or two pieces left: bare kings close.
        "K3k3/8/3W4/8/8/3w4/8/K3k3 w - - 0 1",
        "4k3/8/8/8/8/8/3R4/K3K3 b - - 0 1",
        // Lances near their promotion ranks, Crabs and Toads about.
        "3gk3/L1L5/8/2c1t3/2C1T3/8/l1l5/3GK3 w - - 0 1",
    ];
    let cov = run(&names, &starts, 4, 160, 0x5eed_5d0a);
    eprintln!("{cov:?}");
    assert!(cov.positions > 10_000, "{cov:?}");
    assert!(cov.two_royals > 100 && cov.crown_princes > 10, "{cov:?}");
    assert!(
        cov.bare > 100 && cov.promotions > 100 && cov.checks > 100,
        "{cov:?}"
    );
}

#[test]
fn shatranj_fast_generator_matches_the_reference() {
    let cov = run(&["shatranj".to_string()], &[], 20, 200, 0x5ba7_0a11);
    assert!(cov.positions > 2_000 && cov.bare > 0, "{cov:?}");
}

#[test]
fn cyclical_fast_generator_matches_the_reference_with_every_option() {
    let names = panoply::games::cyclical::names();
    let starts = [
        // Every type about, castling still allowed for White.
        "r3t2r/pvjxpvjx/2o1c3/1h1a1f2/1H1A1F2/2E1O3/PVJXPVJX/R3K2R w KQ - 0 1",
        // Pawns of every type about to promote.
        "7k/PVJX4/8/8/8/8/4pvjx/K7 w - - 0 1",
        // E.p. chances for FIDE pawns, and Chinese Pawns on both halves.
        "4k3/pp1p1ppp/2x5/2P1X3/1p1p4/3x4/PPP1PPP1/4K3 w - - 0 1",
    ];
    let cov = run(&names, &starts, 6, 160, 0xc1c1_ca11);
    eprintln!("{cov:?}");
    assert!(cov.positions > 5_000, "{cov:?}");
    assert!(cov.changed_types > 10_000 && cov.en_passant > 4, "{cov:?}");
    assert!(
        cov.castles > 100 && cov.promotions > 100 && cov.checks > 100,
        "{cov:?}"
    );
}

/// The start position with the pieces between King and corners taken off, so both sides can
/// castle both ways soon (random play seldom clears three cells for the Bede castling).
fn castling_start(start: &str) -> String {
    let (board, rest) = start.split_once(' ').expect("fields");
    let clear = |rank: &str| {
        let corner = &rank[..1];
        format!("{corner}3{}2{corner}", &rank[4..5])
    };
    let mut ranks: Vec<String> = board.split('/').map(String::from).collect();
    ranks[0] = clear(&ranks[0]);
    ranks[7] = clear(&ranks[7]);
    format!("{} {rest}", ranks.join("/"))
}

/// The positions of the CwDA reference perft table for `variant` (castling, e.p. and
/// promotion tests, random middlegames).
fn table_positions(variant: &str) -> Vec<&'static str> {
    include_str!("perft/cwda-positions.tsv")
        .lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            (f.len() > 1 && f[0] == variant).then_some(f[1])
        })
        .collect()
}

fn cwda_every_pairing(suffix: &str, seed: u64) {
    let armies = ["fide", "clobberers", "nutty", "rookies"];
    let mut total = Coverage::default();
    for w in armies {
        for b in armies {
            let base = format!("cwda-{w}-{b}");
            let t = narrow(&format!("{base}{suffix}"));
            let castling = castling_start(&t.variant.start_position);
            let mut starts = vec![castling.as_str()];
            starts.extend(table_positions(&base));
            starts.dedup();
            let cov = run(
                std::slice::from_ref(&t.variant.name),
                &starts,
                14,
                160,
                seed,
            );
            let name = &t.variant.name;
            assert!(cov.positions >= 1000, "{name}: only {cov:?}");
            assert!(cov.promotions > 0 && cov.castles > 0, "{name}: {cov:?}");
            assert!(cov.checks > 0, "{name}: no check seen {cov:?}");
            if w == "clobberers" || b == "clobberers" {
                assert!(cov.bede_castlings > 0, "{name}: no Bede castling {cov:?}");
            }
            total.positions += cov.positions;
            total.en_passant += cov.en_passant;
            total.checkmates += cov.checkmates;
            total.illegal_refused += cov.illegal_refused;
        }
    }
    eprintln!("every CwDA pairing{suffix}: {total:?}");
    assert!(
        total.en_passant > 0 && total.checkmates > 0 && total.illegal_refused > 0,
        "{total:?}"
    );
}

#[test]
fn cwda_fast_generator_matches_the_reference_in_every_pairing() {
    cwda_every_pairing("", 0xcda0_0001);
}

#[test]
fn cwda_fast_generator_matches_the_reference_with_either_army_promotion() {
    cwda_every_pairing("-anypromo", 0xcda0_0002);
}

#[test]
fn the_reference_knows_bede_castling() {
    // The reference itself must produce e1b1 here, or agreeing with it would prove nothing.
    let t = narrow("cwda-clobberers-fide");
    let pos = fen::parse(&t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/D3KAWD w KQkq - 0 1").unwrap();
    let r = Reference::new(&t.variant);
    let king_to: Vec<String> = r
        .legal_moves(&board_of(&pos))
        .into_iter()
        .filter(|m| matches!(m.special, Special::Castle(_)))
        .map(|m| t.shape.cell_name(panoply::geometry::Cell(m.to)))
        .collect();
    assert!(king_to.contains(&"b1".to_string()), "{king_to:?}");
    assert!(!king_to.contains(&"c1".to_string()), "{king_to:?}");
}
