//! The automatic events between moves (docs/rules.md 5.4): checkmates by rules (a) and (b),
//! removal or Raj replacement of the checkmated army, promotion by checkmate, and the end
//! of the game. They are not moves: `Position::apply` runs them after every move (and the
//! position-string parser after parsing), so perft, search and games all see them.

use super::is_raj;
use super::pieces::{
    delivery_rank, is_promoted_type, promoted_by_delivery, raj_replacement, EMPEROR, EMPRESS, KING,
    QUEEN,
};
use crate::bitboard::BitSet;
use crate::game::state::repetitions;
use crate::geometry::Cell;
use crate::movegen::tables::Tables;
use crate::movegen::{attacked_by, has_legal_move, is_in_check, piece_targets};
use crate::moves::{Move, MoveKind};
use crate::outcome::Outcome;
use crate::piece::{Piece, Player};
use crate::position::Position;

/// Whether the game is over: won by a checkmate, or only one army left.
#[inline]
pub fn is_over<B: BitSet>(pos: &Position<B>) -> bool {
    pos.winner.is_some() || pos.alive.count_ones() <= 1
}

/// The other three armies in turn order after `n` (eliminated ones included; callers check).
fn order_after(n: Player) -> [Player; 3] {
    [1, 2, 3].map(|i| Player((n.0 + i) % 4))
}

/// Whether `by` attacks the King (or Emperor) of `victim`.
pub fn attacks_king<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    by: Player,
    victim: Player,
) -> bool {
    pos.royals(t, victim)
        .cells()
        .any(|k| attacked_by(t, pos, k, by, pos.occupied, pos.occupied))
}

/// Runs the checkmate rules at the start of the turn of the side to move, until nothing
/// more happens.
pub fn start_of_turn<B: BitSet>(t: &Tables<B>, pos: &mut Position<B>) {
    loop {
        if is_over(pos) {
            return;
        }
        let n = pos.side;
        // Rule (a): N checkmates every King it attacks, scanning in turn order from N with
        // the board as it is at that moment, until a whole scan finds none.
        loop {
            let mut any = false;
            for v in order_after(n) {
                if pos.is_alive(v) && attacks_king(t, pos, n, v) {
                    checkmate(t, pos, n, v);
                    any = true;
                    if is_over(pos) {
                        return;
                    }
                }
            }
            if !any {
                break;
            }
        }
        // Rule (b): no legal move while in check: the first checking player after N in turn
        // order checkmates N and moves next.
        if !is_in_check(t, pos, n) || has_legal_move(t, pos) {
            return;
        }
        let Some(m) = order_after(n)
            .into_iter()
            .find(|&c| pos.is_alive(c) && attacks_king(t, pos, c, n))
        else {
            return;
        };
        checkmate(t, pos, m, n);
        if m.0 <= n.0 {
            // The turn passes to an army earlier in the order c p i b.
            pos.fullmove += 1;
        }
        pos.set_side(t, m);
    }
}

/// The delivering piece: the checking piece of lowest delivery rank, then lowest cell.
pub fn delivering_piece<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    by: Player,
    victim: Player,
) -> Option<Cell> {
    let kings = pos.royals(t, victim);
    pos.by_player[by.index()]
        .cells()
        .filter(|&c| {
            let kind = pos.piece_at(c).unwrap().kind();
            (piece_targets(t, pos, by, kind, c) & kings).any()
        })
        .min_by_key(|&c| (delivery_rank(pos.piece_at(c).unwrap().kind()), c.0))
}

/// `m` checkmates `v`: `v`'s army leaves (or, in Raj, turns into `m`'s Raj pieces), `m`'s
/// King and Queens and the delivering piece are promoted, and the game may be won.
pub fn checkmate<B: BitSet>(t: &Tables<B>, pos: &mut Position<B>, m: Player, v: Player) {
    let deliverer = delivering_piece(t, pos, m, v);
    let delivered_promoted =
        deliverer.is_some_and(|c| is_promoted_type(pos.piece_at(c).unwrap().kind()));
    let number = 4 - pos.alive.count_ones() + 1;
    let raj = is_raj(&t.variant);
    for c in pos.by_player[v.index()].cells() {
        let victim = pos.remove(t, c).unwrap();
        if let Some(r) = raj.then(|| raj_replacement(victim.kind())).flatten() {
            pos.put(t, c, Piece::new(m, r));
        }
    }
    pos.set_ep(t, v, None);
    pos.set_alive(t, v, false);
    let promote = |pos: &mut Position<B>, c: Cell, to| {
        pos.remove(t, c);
        pos.put(t, c, Piece::new(m, to));
    };
    if let Some(c) = deliverer {
        if let Some(to) = promoted_by_delivery(pos.piece_at(c).unwrap().kind()) {
            promote(pos, c, to);
        }
    }
    for c in pos.pieces(m, KING).cells() {
        promote(pos, c, EMPEROR);
    }
    for c in pos.pieces(m, QUEEN).cells() {
        promote(pos, c, EMPRESS);
    }
    if number >= 3 || (number == 2 && delivered_promoted) {
        pos.winner = Some(m);
    }
}

/// How a game of Armies of Faith has ended, if it has.
pub fn outcome<B: BitSet>(
    _: &Tables<B>,
    pos: &Position<B>,
    history: &[(Position<B>, Move)],
) -> Option<Outcome> {
    let playing = pos.alive.count_ones();
    if playing <= 1 {
        return Some(Outcome::Win {
            winner: Player(pos.alive.trailing_zeros() as u8),
            reason: "third checkmate".into(),
        });
    }
    if let Some(w) = pos.winner {
        return Some(Outcome::Win {
            winner: w,
            reason: "second checkmate by a promoted piece".into(),
        });
    }
    // Passes in a row since the last checkmate (a checkmate changes the armies playing).
    let passes = history
        .iter()
        .rev()
        .take_while(|(p, m)| m.kind() == MoveKind::Pass && p.alive == pos.alive)
        .count();
    if passes >= playing as usize {
        return Some(Outcome::Draw {
            reason: "every army passed".into(),
        });
    }
    if pos.halfmove >= 50 * playing as u16 {
        return Some(Outcome::Draw {
            reason: "50-move rule".into(),
        });
    }
    if repetitions(pos, history) >= 3 {
        return Some(Outcome::Draw {
            reason: "threefold repetition".into(),
        });
    }
    None
}
