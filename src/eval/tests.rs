//! Tests of the evaluation: symmetry, level starts, derived values, the trace.

use super::*;
use crate::games;
use crate::position::Position;
use values::value_from_mobility;

/// How far from level a start position may be judged: the armies are designed to be even.
const LEVEL_START_MARGIN: i32 = 100;
use crate::game::AnyTables;

fn tables(variant: &str) -> std::sync::Arc<Tables<u64>> {
    match games::tables(variant).unwrap() {
        AnyTables::Narrow(t) => t,
        AnyTables::Wide(_) => unreachable!(),
    }
}

/// The same position seen from the other side: ranks reversed, colours swapped.
fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        swap(f[2])
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    format!(
        "{} {side} {castling} {ep} {} {}",
        board.join("/"),
        f[4],
        f[5]
    )
}

fn white_view(variant: &str, fen: &str) -> i32 {
    let t = tables(variant);
    let pos = crate::position::fen::parse(&t, fen).unwrap();
    let s = Evaluator::new(&t).evaluate(&t, &pos);
    if pos.side == Player::WHITE {
        s
    } else {
        -s
    }
}

#[test]
fn a_mirrored_position_gets_the_negated_score() {
    let cases = [
        (
            "chess",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        ),
        (
            "cwda-clobberers-nutty",
            "gihokhig/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/DWACKAWD w KQkq c6 0 2",
        ),
        (
            "cwda-rookies-fide",
            "r2qkbnr/ppp2ppp/2n5/3pp3/3P4/2M2F2/PPP1PPPP/S1FEK1MS b KQkq - 1 4",
        ),
        (
            "cwda-nutty-clobberers",
            "4k3/3d4/8/2P5/8/8/5O2/4K3 w - - 0 1",
        ),
        ("cwda-fide-rookies", "8/8/4k3/8/8/8/3Q4/4K3 b - - 0 1"),
    ];
    for (variant, fen) in cases {
        let parts: Vec<&str> = variant.split('-').collect();
        let swapped = if parts.len() == 3 {
            format!("cwda-{}-{}", parts[2], parts[1])
        } else {
            variant.to_string()
        };
        let a = white_view(variant, fen);
        let b = white_view(&swapped, &mirror_fen(fen));
        assert_eq!(a, -b, "{variant} {fen}");
    }
}

#[test]
fn every_cwda_start_position_is_nearly_level() {
    for name in crate::games::names()
        .iter()
        .filter(|n| n.starts_with("cwda-"))
    {
        let t = tables(name);
        let pos = crate::position::fen::parse(&t, &t.variant.start_position).unwrap();
        let s = Evaluator::new(&t).evaluate(&t, &pos);
        assert!(s.abs() <= LEVEL_START_MARGIN, "{name}: {s}");
    }
}

#[test]
fn mobility_values_come_near_the_classic_fide_values() {
    let t = tables("chess");
    for (k, classic) in [(2, 500), (3, 325), (4, 325), (5, 950)] {
        let m = mobility(&t, Player::WHITE, Kind(k));
        let v = value_from_mobility(&m);
        assert!(
            (v - classic).abs() * 10 <= classic,
            "{} got {v}, classic {classic}",
            t.variant.pieces[k as usize].name
        );
    }
}

#[test]
fn colour_bound_pieces_are_recognised_from_their_moves() {
    let t = tables("chess");
    let bound = |name: &str| {
        let k = t
            .variant
            .pieces
            .iter()
            .position(|p| p.name == name)
            .unwrap();
        mobility(&t, Player::BLACK, Kind(k as u8)).colour_bound
    };
    for name in ["Bishop", "Bede", "FAD"] {
        assert!(bound(name), "{name}");
    }
    for name in [
        "Knight",
        "Waffle",
        "Fibnif",
        "Half Duck",
        "Rook",
        "Archbishop",
    ] {
        assert!(!bound(name), "{name}");
    }
}

#[test]
fn bishops_on_both_colours_earn_the_pair_bonus() {
    let t = tables("chess");
    let ev = Evaluator::new(&t);
    let score = |fen: &str| ev.evaluate(&t, &crate::position::fen::parse(&t, fen).unwrap());
    // d4, e4 and e5 give a Bishop the same mobility; e4 is dark, d4 and e5 are light.
    let pair = score("4k3/8/8/8/3BB3/8/8/4K3 w - - 0 1");
    let same = score("4k3/8/8/4B3/3B4/8/8/4K3 w - - 0 1");
    assert!(pair > same, "pair {pair} same colour {same}");
}

#[test]
fn a_bare_king_is_driven_to_the_edge() {
    let t = tables("cwda-rookies-fide");
    let ev = Evaluator::new(&t);
    let score = |fen: &str| ev.evaluate(&t, &crate::position::fen::parse(&t, fen).unwrap());
    let centre = score("8/8/8/3k4/8/8/8/E3K3 w - - 0 1");
    let edge = score("3k4/8/8/8/8/8/8/E3K3 w - - 0 1");
    assert!(edge > centre + 30, "edge {edge} centre {centre}");
}

#[test]
fn the_trace_reproduces_the_evaluation() {
    let cases = [
        (
            "chess",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        ),
        (
            "cwda-clobberers-nutty",
            "gihokhig/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/DWACKAWD w KQkq c6 0 2",
        ),
        (
            "cwda-rookies-fide",
            "r2qkbnr/ppp2ppp/2n5/3pp3/3P4/2M2F2/PPP1PPPP/S1FEK1MS b KQkq - 1 4",
        ),
        ("cwda-fide-rookies", "8/8/4k3/8/8/8/3Q4/4K3 b - - 0 1"),
        (
            "cwda-nutty-clobberers",
            "4k3/3d4/8/2P5/8/8/5O2/4K3 w - - 0 1",
        ),
        // Pieces worth what they become (Cyclical Armies).
        (
            "cyclical",
            "r1bqkb1r/pppp1ppp/5n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
        ),
        // A spare royal under the lone-royal rule (a Crown Prince beside the King).
        (
            "swda-posh-amphibians",
            "tieckeit/pppp1ppp/8/4p3/8/3P4/PPP1PPPP/QOBKKBOQ w - - 0 2",
        ),
    ];
    for (variant, fen) in cases {
        let t = tables(variant);
        let ev = Evaluator::new(&t);
        let pos: Position<u64> = crate::position::fen::parse(&t, fen).unwrap();
        let trace = ev.trace(&t, &pos).unwrap();
        let traced = trace.score(&ev.weights().values);
        let direct = ev.evaluate_white(&t, &pos) as f64;
        assert!(
            (traced - direct).abs() <= 3.0,
            "{variant} {fen}: trace {traced} eval {direct}"
        );
    }
}

/// The count of safe checks a kind has, White's minus Black's, in `fen`.
fn safe_checks(variant: &str, fen: &str, kind_name: &str) -> i32 {
    let t = tables(variant);
    let pos = crate::position::fen::parse(&t, fen).unwrap();
    let ev = Evaluator::new(&t);
    let kind = t
        .variant
        .kinds()
        .find(|&k| t.variant.kind(k).name == kind_name)
        .unwrap();
    let param = ev.weights().per_kind(PerKind::SafeCheck, kind);
    let trace = ev.trace(&t, &pos).unwrap();
    trace
        .counts
        .iter()
        .find(|(p, _)| *p == param)
        .map_or(0, |&(_, n)| n)
}

#[test]
fn safe_checks_are_checking_moves_onto_cells_the_defence_does_not_cover() {
    // The Knight on e4 checks from d6 and f6; nothing of Black's covers them.
    assert_eq!(
        safe_checks("chess", "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", "Knight"),
        2
    );
    // A pawn on e7 covers both: the checks are no longer safe.
    assert_eq!(
        safe_checks("chess", "4k3/4p3/8/8/4N3/8/8/4K3 w - - 0 1", "Knight"),
        0
    );
    // The Rook on a1 checks from a8 only; on d1 it also reaches d8, next to the King.
    assert_eq!(
        safe_checks("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Rook"),
        1
    );
    assert_eq!(
        safe_checks("chess", "4k3/8/8/8/8/8/8/3RK3 w - - 0 1", "Rook"),
        0
    );
}
