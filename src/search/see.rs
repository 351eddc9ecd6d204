//! Static exchange evaluation: what a move wins or loses on its target cell when both sides
//! go on capturing there with their least valuable attacker, each free to stop when going on
//! would cost it. Works for any army (leapers, lame leapers, bent riders, sliders of any
//! range) because it asks the move generator's attack tables who attacks the cell. Two-player
//! games only; pins, checks and type changes on moving (Cyclical Armies) are not looked at.

use crate::bitboard::BitSet;
use crate::eval::Evaluator;
use crate::geometry::Cell;
use crate::movegen::attackers_to;
use crate::movegen::tables::Tables;
use crate::moves::{Move, MoveKind};
use crate::piece::Player;
use crate::position::Position;

/// What a royal piece is worth in an exchange: more than anything it could win, so that it
/// captures last and only onto an undefended cell.
const ROYAL_VALUE: i32 = 20_000;
/// Longest exchange looked at (every attacker of both sides on one cell).
const MAX_SWAPS: usize = 48;

/// The exchange value of `mv` for the side to move, in the evaluator's centipawns.
pub fn see<B: BitSet>(t: &Tables<B>, ev: &Evaluator<B>, pos: &Position<B>, mv: Move) -> i32 {
    let us = pos.side;
    let to = mv.to();
    let (mut occ, first_gain, mut on_cell) = match mv.kind() {
        MoveKind::Castle | MoveKind::Pass | MoveKind::Merge => return 0,
        MoveKind::Drop => (pos.occupied, 0, ev.value(us, mv.piece_kind())),
        MoveKind::EnPassant => {
            // The victim, a pawn beside the target, is worth what the capturing pawn is.
            let mover = mover_value(ev, pos, mv.from());
            let mut occ = pos.occupied;
            occ.clear(mv.from());
            (occ, mover, mover)
        }
        _ => {
            let victim = pos
                .piece_at(to)
                .filter(|p| p.player() != us)
                .map_or(0, |p| ev.value(p.player(), p.kind()));
            let mut mover = mover_value(ev, pos, mv.from());
            let mut gain = victim;
            if mv.kind() == MoveKind::Promotion {
                let promoted = ev.value(us, mv.piece_kind());
                gain += promoted - mover;
                mover = promoted;
            }
            let mut occ = pos.occupied;
            occ.clear(mv.from());
            (occ, gain, mover)
        }
    };
    occ.set(to);
    let mut gains = [0i32; MAX_SWAPS];
    gains[0] = first_gain;
    let mut depth = 0;
    let mut side = other(us);
    while depth + 1 < MAX_SWAPS {
        let attackers = attackers_to(t, pos, to, side, occ);
        let Some((from, value)) = least_valuable(ev, pos, attackers) else {
            break;
        };
        depth += 1;
        // Taking what stands on the cell, then standing there to be taken.
        gains[depth] = on_cell - gains[depth - 1];
        if (-gains[depth - 1]).max(gains[depth]) < 0 {
            break;
        }
        occ.clear(from);
        on_cell = value;
        side = other(side);
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// Whether the exchange value of `mv` is at least `threshold`.
#[inline]
pub fn see_at_least<B: BitSet>(
    t: &Tables<B>,
    ev: &Evaluator<B>,
    pos: &Position<B>,
    mv: Move,
    threshold: i32,
) -> bool {
    see(t, ev, pos, mv) >= threshold
}

fn other(p: Player) -> Player {
    Player(1 - p.0)
}

fn mover_value<B: BitSet>(ev: &Evaluator<B>, pos: &Position<B>, from: Cell) -> i32 {
    pos.piece_at(from).map_or(0, |p| {
        let v = ev.value(p.player(), p.kind());
        if v == 0 && !ev.is_pawn(p.player(), p.kind()) {
            ROYAL_VALUE
        } else {
            v
        }
    })
}

/// The cheapest of `attackers` and its value.
fn least_valuable<B: BitSet>(
    ev: &Evaluator<B>,
    pos: &Position<B>,
    attackers: B,
) -> Option<(Cell, i32)> {
    attackers
        .cells()
        .map(|c| (c, mover_value(ev, pos, c)))
        .min_by_key(|&(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::notation::parse_move;
    use crate::position::fen;

    fn see_of(variant: &str, fen_str: &str, mv: &str) -> i32 {
        let v = crate::games::by_name(variant).expect("variant");
        let t = Tables::<u64>::new(v);
        let ev = Evaluator::new(&t);
        let pos = fen::parse(&t, fen_str).expect("position");
        let m = parse_move(&t, &pos, mv).expect("move");
        see(&t, &ev, &pos, m)
    }

    #[test]
    fn undefended_piece_is_won_whole() {
        let s = see_of("chess", "4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1", "d1d5");
        assert!(s > 300, "{s}");
    }

    #[test]
    fn defended_pawn_taken_by_the_queen_loses() {
        let s = see_of("chess", "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5");
        assert!(s < -500, "{s}");
    }

    #[test]
    fn battery_behind_wins_the_exchange() {
        // Two Rooks against one defender: R takes, R takes back, R takes: a pawn up.
        let s = see_of("chess", "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5");
        assert!(s > 50, "{s}");
    }

    #[test]
    fn leaper_defenders_count() {
        // A Knight defends d5: taking the pawn with the Rook loses the Rook for a pawn.
        let s = see_of("chess", "4k3/2n5/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5");
        assert!(s < -300, "{s}");
    }

    #[test]
    fn quiet_move_onto_an_attacked_cell_loses_the_piece() {
        let s = see_of("chess", "4k3/8/2p5/8/8/8/8/3RK3 w - - 0 1", "d1d5");
        assert!(s < -300, "{s}");
        let safe = see_of("chess", "4k3/8/8/8/8/8/8/3RK3 w - - 0 1", "d1d5");
        assert_eq!(safe, 0);
    }
}
