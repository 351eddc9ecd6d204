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

/// How an exchange on a move's target cell starts.
struct ExchangeStart<B> {
    /// The board's occupancy once the mover stands on the cell.
    occupied: B,
    /// What the move wins at once (a victim, a promotion's gain).
    gain: i32,
    /// What the piece then on the cell is worth to the side that takes it next.
    on_cell: i32,
}

/// The start of the exchange `mv` opens; `None` for moves that take nothing and leave
/// nothing to take (castling, passing, merging), whose exchange value is 0.
fn exchange_start<B: BitSet>(
    ev: &Evaluator<B>,
    pos: &Position<B>,
    mv: Move,
) -> Option<ExchangeStart<B>> {
    let us = pos.side;
    let (mut occupied, gain, on_cell) = match mv.kind() {
        MoveKind::Castle | MoveKind::Pass | MoveKind::Merge => return None,
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
                .piece_at(mv.to())
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
    occupied.set(mv.to());
    Some(ExchangeStart {
        occupied,
        gain,
        on_cell,
    })
}

/// Whether the exchange value of `mv` for the side to move — what it wins or loses on the
/// target cell when both sides go on capturing there with their least valuable attacker,
/// each free to stop — is at least `threshold`. It follows the exchange only until the
/// answer is known (the threshold form of the swap list): `balance` is what the side to
/// capture next must win for the answer to turn, and the exchange is over once its cheapest
/// attacker is worth less than that, once it has none, or where [`stops_after`] ends it.
pub fn see_at_least<B: BitSet>(
    t: &Tables<B>,
    ev: &Evaluator<B>,
    pos: &Position<B>,
    mv: Move,
    threshold: i32,
) -> bool {
    let Some(ExchangeStart {
        mut occupied,
        gain,
        on_cell,
    }) = exchange_start(ev, pos, mv)
    else {
        return threshold <= 0;
    };
    // Even unanswered the move falls short.
    let mut balance = gain - threshold;
    if balance < 0 {
        return false;
    }
    // Even losing the mover it reaches the threshold.
    balance = on_cell - balance;
    if balance <= 0 {
        return true;
    }
    let to = mv.to();
    // Whether the mover reaches the threshold as the exchange stands.
    let mut ahead = true;
    let mut side = other(pos.side);
    // The swap list's last entry and what stands on the cell (see `stops_after`).
    let (mut last_gain, mut standing) = (gain, on_cell);
    for _ in 1..MAX_SWAPS {
        let attackers = attackers_to(t, pos, to, side, occupied);
        let Some((from, value)) = least_valuable(ev, pos, attackers) else {
            break;
        };
        ahead = !ahead;
        // What the side now capturing risks on the cell, against what it needs.
        balance = value - balance;
        let gain = standing - last_gain;
        if balance < ahead as i32 || stops_after(last_gain, gain) {
            break;
        }
        occupied.clear(from);
        side = other(side);
        (last_gain, standing) = (gain, value);
    }
    ahead
}

/// Whether the exchange ends with a capture that gains `gain` after one that gained
/// `last_gain` (each for the side making it, if the exchange stopped there): it does once
/// neither side would gain by going on. This cuts some exchanges shorter than a side's best
/// choice would, which keeps the sign of their value but not always the value; the search's
/// margins were tuned with it (an exact exchange did not play better).
#[inline]
fn stops_after(last_gain: i32, gain: i32) -> bool {
    (-last_gain).max(gain) < 0
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
    use crate::movegen::legal_moves;
    use crate::movegen::notation::parse_move;
    use crate::position::fen;

    /// The exchange value of `mv` by the whole swap list, the captures followed until
    /// [`stops_after`] ends them and then each side's choice to stop or go on taken from the
    /// back: what [`see_at_least`] compares with its threshold without working it out.
    fn see<B: BitSet>(t: &Tables<B>, ev: &Evaluator<B>, pos: &Position<B>, mv: Move) -> i32 {
        let Some(ExchangeStart {
            mut occupied,
            gain,
            mut on_cell,
        }) = exchange_start(ev, pos, mv)
        else {
            return 0;
        };
        let mut gains = [0i32; MAX_SWAPS];
        gains[0] = gain;
        let mut depth = 0;
        let mut side = other(pos.side);
        while depth + 1 < MAX_SWAPS {
            let attackers = attackers_to(t, pos, mv.to(), side, occupied);
            let Some((from, value)) = least_valuable(ev, pos, attackers) else {
                break;
            };
            depth += 1;
            // Taking what stands on the cell, then standing there to be taken.
            gains[depth] = on_cell - gains[depth - 1];
            if stops_after(gains[depth - 1], gains[depth]) {
                break;
            }
            occupied.clear(from);
            on_cell = value;
            side = other(side);
        }
        while depth > 0 {
            gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
            depth -= 1;
        }
        gains[0]
    }

    /// Plays random games of `variant` and compares, for every legal move of every position,
    /// [`see_at_least`] with the swap list's value at thresholds around it and at the margins
    /// the search uses. Returns how many moves had an exchange worth neither nothing nor its
    /// first capture (so that the answers to it counted).
    fn compare_with_the_swap_list(variant: &str, seed: u64) -> usize {
        let t = Tables::<u64>::new(crate::games::by_name(variant).expect("variant"));
        let ev = Evaluator::new(&t);
        let mut rng = crate::random::Rng::new(seed);
        let mut long = 0;
        for _ in 0..4 {
            let mut pos = fen::parse(&t, &t.variant.start_position).expect("start");
            for _ in 0..150 {
                let moves = legal_moves(&t, &pos);
                if moves.is_empty() {
                    break;
                }
                for &mv in moves.iter() {
                    let value = see(&t, &ev, &pos, mv);
                    let gain = exchange_start(&ev, &pos, mv).map_or(0, |o| o.gain);
                    long += (value != gain && value != 0) as usize;
                    for threshold in [value - 1, value, value + 1, -600, -300, -100, 0, 1, 100] {
                        assert_eq!(
                            see_at_least(&t, &ev, &pos, mv, threshold),
                            value >= threshold,
                            "{variant}: {mv:?} in {pos:?}, value {value}, threshold {threshold}"
                        );
                    }
                }
                pos = pos.play(&t, moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        long
    }

    #[test]
    fn the_threshold_test_agrees_with_the_whole_swap_list() {
        let variants = [
            "chess",
            "cwda-fide-nutty",
            "cwda-clobberers-rookies",
            "cwda-nutty-clobberers",
            "shatranj",
            "swda-originals-posh",
            "swda-jostlers-amphibians",
            "cyclical",
        ];
        for (i, variant) in variants.into_iter().enumerate() {
            let long = compare_with_the_swap_list(variant, i as u64);
            assert!(long > 100, "{variant}: only {long} exchanges were answered");
        }
    }

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
