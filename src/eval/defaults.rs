//! Weights for what no tuned file names: derived from the pieces' moves, so that every game,
//! tuned or not, starts from sensible values. Published values win over mobility-derived
//! ones; Kings hide in the middlegame and centralise in the endgame; pawns gain as they
//! advance; a piece's mobility is worth more the fewer targets it usually has.

use super::params::{Global, PerKind, Tapered, Weights};
use super::values::{mobility, value_from_mobility, Mobility, PAWN_VALUE};
use crate::bitboard::BitSet;
use crate::movegen::tables::Tables;
use crate::piece::{Kind, Player};

/// A check the defence cannot answer by taking the checker: what armies of leapers mate
/// with, and what a count of attacked cells around the King does not see.
const SAFE_CHECK: (i32, i32) = (30, 10);

/// Passed pawn bonus by the eighths of the board covered (1..=8).
const PASSED_PAWN: [(i32, i32); 8] = [
    (2, 5),
    (4, 10),
    (8, 18),
    (14, 30),
    (24, 50),
    (40, 80),
    (60, 120),
    (60, 120),
];

/// Sets every weight to its default for `t`'s variant.
pub fn apply<B: BitSet>(t: &Tables<B>, w: &mut Weights) {
    globals(w);
    for k in t.variant.kinds() {
        let def = t.variant.kind(k);
        // Player 0's view: kinds move alike for every player, mirrored.
        let mob = mobility(t, Player(0), k);
        let value = def.value.unwrap_or_else(|| match () {
            _ if def.pawn => PAWN_VALUE,
            _ if def.royal => 0,
            _ => value_from_mobility(&mob),
        });
        let set = |w: &mut Weights, term, v| w.set(w.per_kind(term, k), v);
        set(w, PerKind::Value, Tapered::new(value, value));
        set(
            w,
            PerKind::Hand,
            Tapered::new(value * 11 / 10, value * 11 / 10),
        );
        if def.royal {
            set(w, PerKind::Centre, Tapered::new(-4, 40 / centre_steps(t)));
            set(w, PerKind::Advance, Tapered::new(-12, 0));
        } else if def.pawn {
            set(w, PerKind::Advance, Tapered::new(3, 6));
        } else {
            piece_defaults(w, k, value, &mob);
        }
    }
    blend_with_next_type(t, w);
    if !super::family::of(t.variant.family).activity {
        without_activity(t, w);
    }
}

/// Mobility, threats and King attack cost a pass over every piece's reach. On the 3D
/// Missionary board that halves the nodes per second (45k against 78k from the start) for
/// terms no measurement has backed there yet, so a family may start without them
/// ([`super::FamilyEval::activity`]); a tuned weight file can switch them on.
fn without_activity<B: BitSet>(t: &Tables<B>, w: &mut Weights) {
    for g in [
        Global::ThreatByPawn,
        Global::ThreatByLesser,
        Global::Hanging,
    ] {
        w.set(w.global(g), Tapered::ZERO);
    }
    for k in t.variant.kinds() {
        w.set(w.per_kind(PerKind::Mobility, k), Tapered::ZERO);
        w.set(w.per_kind(PerKind::KingAttack, k), Tapered::ZERO);
        w.set(w.per_kind(PerKind::SafeCheck, k), Tapered::ZERO);
    }
}

fn globals(w: &mut Weights) {
    let g = |w: &mut Weights, term, mg, eg| w.set(w.global(term), Tapered::new(mg, eg));
    g(w, Global::Tempo, 10, 10);
    g(w, Global::ColourPair, 50, 50);
    g(w, Global::DoubledPawn, -10, -20);
    g(w, Global::IsolatedPawn, -12, -15);
    g(w, Global::PawnShield, 12, 0);
    g(w, Global::ThreatByPawn, 40, 30);
    g(w, Global::ThreatByLesser, 30, 20);
    g(w, Global::Hanging, 20, 15);
    for (i, &(mg, eg)) in PASSED_PAWN.iter().enumerate() {
        g(w, Global::PassedPawn(i as u8 + 1), mg, eg);
    }
}

/// Mobility, square and King-attack weights of a non-royal, non-pawn kind. A target is worth
/// more to a short-range piece, whose targets are few.
fn piece_defaults(w: &mut Weights, k: Kind, value: i32, mob: &Mobility) {
    let square = (15.0 / mob.average.max(1.0).sqrt()).round() as i32;
    let mobility = (20.0 / mob.average.max(1.0)).round().max(1.0) as i32;
    w.set(
        w.per_kind(PerKind::Square, k),
        Tapered::new(square, square * 7 / 10),
    );
    w.set(
        w.per_kind(PerKind::Mobility, k),
        Tapered::new(mobility, mobility),
    );
    w.set(
        w.per_kind(PerKind::KingAttack, k),
        Tapered::new(value / 200, 0),
    );
    w.set(
        w.per_kind(PerKind::SafeCheck, k),
        Tapered::new(SAFE_CHECK.0, SAFE_CHECK.1),
    );
}

/// Steps of centrality from the edge to the centre (the Centre term's largest count).
pub fn centre_steps<B: BitSet>(t: &Tables<B>) -> i32 {
    let s = &t.shape;
    let half = |n: u8| (n as i32 - 1).max(1);
    half(s.files)
        .max(half(s.ranks))
        .max(if s.levels > 1 { half(s.levels) } else { 0 })
}

/// Where pieces change type when they move (Cyclical Armies), a piece is worth what it is and
/// what it becomes on its next move: half its own value and half that of the next type.
fn blend_with_next_type<B: BitSet>(t: &Tables<B>, w: &mut Weights) {
    let v = &t.variant;
    if v.morph.is_empty() {
        return;
    }
    for k in v.kinds().filter(|&k| !v.kind(k).royal) {
        let value = w.get(w.per_kind(PerKind::Value, k));
        let half = Tapered::new(value.mg / 2, value.eg / 2);
        w.set(w.per_kind(PerKind::Value, k), value - half);
        w.set(w.per_kind(PerKind::Becomes, k), half);
    }
}
