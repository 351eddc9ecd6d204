//! A quick test that a move cannot give check, without making it: lets a search drop moves it
//! would prune unless they check, before paying for the move.

use super::tables::Tables;
use crate::bitboard::BitSet;
use crate::moves::{Move, MoveKind};
use crate::piece::{Kind, Player};
use crate::position::Position;

/// Whether `mv` may attack an enemy royal piece. `false` is a promise: the position after the
/// move has no enemy royal attacked that the position before had not. `true` only means the
/// move must be made to know. Every kind of attack the move generator knows is covered:
/// leaps and slides of the moved piece from its new cell (as the kind it becomes, `morph`),
/// slides uncovered on its old cell, lame leaps and bent moves (any move of an army with such
/// a piece on the board answers `true`); moves other than plain ones and double steps always
/// answer `true`.
pub fn may_give_check<B: BitSet>(t: &Tables<B>, pos: &Position<B>, mv: Move) -> bool {
    if !matches!(mv.kind(), MoveKind::Normal | MoveKind::DoubleStep) || t.rules.after_move.is_some()
    {
        return true;
    }
    let us = pos.side;
    let Some(piece) = pos.piece_at(mv.from()) else {
        return true;
    };
    // Lame leaps and bent moves are blocked and uncovered cell by cell: not judged here.
    let ours = pos.by_player[us.index()];
    let on_board = |kinds: &[Kind]| kinds.iter().any(|k| (pos.by_kind[k.index()] & ours).any());
    if on_board(&t.lame_kinds[us.index()]) || on_board(&t.bent_kinds[us.index()]) {
        return true;
    }
    let kind = match t.variant.morph.get(us.index()) {
        Some(morph) if !morph.is_empty() => morph[piece.kind().index()],
        _ => piece.kind(),
    };
    let moved = t.kind(us, kind);
    if moved.has_lame || moved.has_bent {
        return true;
    }
    let slides = moved.slide_range.iter().any(|&r| r > 0);
    let lines = &t.slide_lines[us.index()];
    let royals = (0..t.players() as u8)
        .map(Player)
        .filter(|&p| p != us && pos.is_alive(p))
        .fold(B::empty(), |acc, p| acc | pos.royals(t, p));
    royals.cells().any(|royal| {
        let r = royal.index();
        lines[r].contains(mv.from())
            || moved.attacked_from[r].contains(mv.to())
            || slides && lines[r].contains(mv.to())
    })
}
