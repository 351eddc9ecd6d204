//! What the page draws, as JSON read straight from the game: the board's cells and their
//! names, the piece kinds, pieces and hands, the legal moves with their cells, the move list
//! with the checkmates between moves, and the evaluation per army. Every name and move string
//! comes from the engine's own notation code, so the page never parses or names anything.

use crate::bitboard::BitSet;
use crate::game::{Game, Outcome};
use crate::games::utility::multi_player_utility;
use crate::geometry::Cell;
use crate::movegen::tables::Tables;
use crate::moves::{Move, MoveKind};
use crate::piece::{Atom, Player};
use crate::position::Position;
use crate::session::GameVisitor;
use serde_json::{json, Value};

/// The seat names: White/Black, or the armies of a four-player game.
pub fn seat_names<B: BitSet>(t: &Tables<B>) -> Vec<String> {
    if t.players() == 2 {
        return vec!["White".into(), "Black".into()];
    }
    t.variant.armies.iter().map(|a| capitalised(a)).collect()
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// "White wins by checkmate", "draw by threefold repetition".
pub fn outcome_text(names: &[String], o: &Outcome) -> String {
    match o {
        Outcome::Win { winner, reason } => format!("{} wins by {reason}", names[winner.index()]),
        Outcome::Draw { reason } => format!("draw by {reason}"),
    }
}

/// The whole state of the game, except what the server adds (seats, engine settings).
pub struct StateView;

impl GameVisitor for StateView {
    type Output = Value;
    fn visit<B: BitSet>(self, g: &Game<B>) -> Value {
        let t = &g.tables;
        let names = seat_names(t);
        let outcome = g.outcome();
        json!({
            "variant": t.variant.name,
            "family": t.variant.family.id(),
            "players": t.players(),
            "names": names,
            "symbols": t.variant.player_symbols.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "geometry": geometry(t),
            "kinds": kinds(t),
            "hand_order": t.variant.drops.as_ref().map(|d| d.hand_order.iter().map(|k| k.0).collect::<Vec<_>>()),
            "ply": g.history.len(),
            "board": board(t, &g.pos),
            "side": g.pos.side.0,
            "alive": alive(t, &g.pos),
            "in_check": in_check(t, &g.pos),
            "outcome": outcome.as_ref().map(|o| outcome_json(&names, o)),
            "position": g.position_string(),
            "start": start_position(g),
            "legal": if outcome.is_some() { Vec::new() } else { legal_moves(g) },
            "history": history(g),
            "army_scores": army_scores(t, &g.pos),
        })
    }
}

/// The board as it was before move `ply` (0 = the start; the number of moves = now), for
/// stepping through the move list.
pub struct PlyView {
    pub ply: usize,
}

impl GameVisitor for PlyView {
    type Output = Option<Value>;
    fn visit<B: BitSet>(self, g: &Game<B>) -> Option<Value> {
        let pos = match g.history.get(self.ply) {
            Some((p, _)) => p,
            None if self.ply == g.history.len() => &g.pos,
            None => return None,
        };
        let t = &g.tables;
        Some(json!({
            "ply": self.ply,
            "board": board(t, pos),
            "side": pos.side.0,
            "alive": alive(t, pos),
            "in_check": in_check(t, pos),
            "position": crate::position::fen::format(t, pos),
            "army_scores": army_scores(t, pos),
        }))
    }
}

/// The legal moves that start on one cell (or drop a piece there, for `"hand"`).
pub struct TargetsView {
    pub from: String,
}

impl GameVisitor for TargetsView {
    type Output = Option<Value>;
    fn visit<B: BitSet>(self, g: &Game<B>) -> Option<Value> {
        let t = &g.tables;
        let from = t.shape.parse_cell(&self.from.to_ascii_lowercase())?;
        let moves: Vec<Value> = legal_moves(g)
            .into_iter()
            .filter(|m| m["from"] == json!(from.0))
            .map(|m| {
                let to = Cell(m["to"].as_u64().unwrap_or(0) as u16);
                json!({ "move": m["move"], "to": t.shape.cell_name(to) })
            })
            .collect();
        Some(json!({ "from": t.shape.cell_name(from), "moves": moves }))
    }
}

/// The moves of the game as (seat, move string, checkmated seats), for the game record.
pub struct RecordView;

pub struct RecordedPly {
    pub seat: usize,
    pub mv: String,
    pub checkmated: Vec<usize>,
}

impl GameVisitor for RecordView {
    type Output = (String, Vec<RecordedPly>);
    fn visit<B: BitSet>(self, g: &Game<B>) -> (String, Vec<RecordedPly>) {
        let plies = (0..g.history.len())
            .map(|i| {
                let (before, mv) = &g.history[i];
                let after = after_ply(g, i);
                RecordedPly {
                    seat: before.side.index(),
                    mv: g.format_move(*mv),
                    checkmated: eliminated(before.alive, after.alive),
                }
            })
            .collect();
        (start_position(g), plies)
    }
}

pub(super) fn outcome_json(names: &[String], o: &Outcome) -> Value {
    match o {
        Outcome::Win { winner, reason } => json!({
            "winner": winner.0, "reason": reason, "text": outcome_text(names, o) }),
        Outcome::Draw { reason } => json!({
            "winner": null, "reason": reason, "text": outcome_text(names, o) }),
    }
}

pub(super) fn start_position<B: BitSet>(g: &Game<B>) -> String {
    match g.history.first() {
        Some((p, _)) => crate::position::fen::format(&g.tables, p),
        None => g.position_string(),
    }
}

/// Shape and the name of every cell, by cell index (x + files * (y + ranks * z)).
fn geometry<B: BitSet>(t: &Tables<B>) -> Value {
    let s = &t.shape;
    let names: Vec<String> = s.all_cells().map(|c| s.cell_name(c)).collect();
    json!({ "files": s.files, "ranks": s.ranks, "levels": s.levels, "cells": names })
}

/// The piece kinds by index: code, name, Betza description (for the legend) and a sketch of
/// the moves the glyph draws.
fn kinds<B: BitSet>(t: &Tables<B>) -> Vec<Value> {
    t.variant
        .pieces
        .iter()
        .map(|p| {
            json!({
                "token": p.token,
                "name": p.name,
                "royal": p.royal,
                "pawn": p.pawn,
                "betza": p.betza,
                "sketch": p.atoms.iter().map(sketch).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// One move atom in the piece's own frame (forward = +y): a leap, a slide or a bent line.
fn sketch(a: &Atom) -> Value {
    let v = |d: crate::geometry::Vec3| json!([d.x, d.y, d.z]);
    match *a {
        Atom::Leap { to, .. } | Atom::Lame { to, .. } => json!({ "leap": v(to) }),
        Atom::Slide { step, max, .. } => json!({ "slide": v(step), "max": max }),
        Atom::Bent { first, then, .. } => json!({ "bent": [v(first), v(then)] }),
    }
}

/// Pieces as `[cell, player, kind]`, hands as `[[kind, count], ...]` per player.
fn board<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Value {
    let pieces: Vec<[u16; 3]> = t
        .shape
        .all_cells()
        .filter_map(|c| {
            let p = pos.piece_at(c)?;
            Some([c.0, p.player().0 as u16, p.kind().0 as u16])
        })
        .collect();
    let hands: Vec<Vec<[u8; 2]>> = match &t.variant.drops {
        Some(d) => (0..2)
            .map(|p| {
                d.hand_order
                    .iter()
                    .map(|&k| [k.0, pos.hand(Player(p), k)])
                    .filter(|&[_, n]| n > 0)
                    .collect()
            })
            .collect(),
        None => Vec::new(),
    };
    json!({ "pieces": pieces, "hands": hands })
}

fn alive<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Vec<bool> {
    (0..t.players() as u8)
        .map(|p| pos.is_alive(Player(p)))
        .collect()
}

/// Which armies in play have their royal piece attacked (the page marks its cell).
fn in_check<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Vec<bool> {
    (0..t.players() as u8)
        .map(Player)
        .map(|p| pos.is_alive(p) && crate::movegen::is_in_check(t, pos, p))
        .collect()
}

/// The static evaluation of each army, where the family's multi-player evaluation gives one
/// (Armies of Faith: material, King safety and the pressure on the other Kings, as the
/// four-player search sees them).
fn army_scores<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Option<Vec<i32>> {
    multi_player_utility(t)?.army_scores(t, pos)
}

/// Every legal move with the cells the page marks: from (none for drops and passes), to,
/// the dropped or promoted kind, and the kind the piece arrives as.
fn legal_moves<B: BitSet>(g: &Game<B>) -> Vec<Value> {
    let t = &g.tables;
    g.legal_moves()
        .into_iter()
        .map(|mv| {
            let (from, to) = move_cells(t, mv);
            let arrives = to
                .and_then(|c| g.pos.play(t, mv).piece_at(c))
                .map(|p| p.kind().0);
            json!({
                "move": g.format_move(mv),
                "from": from.map(|c| c.0),
                "to": to.map(|c| c.0),
                "drop": (mv.kind() == MoveKind::Drop).then(|| mv.piece_kind().0),
                "promo": promotion(mv),
                "arrives": arrives,
            })
        })
        .collect()
}

fn promotion(mv: Move) -> Option<u8> {
    match mv.kind() {
        MoveKind::Promotion => Some(mv.piece_kind().0),
        MoveKind::EnPassant => mv.ep_promotion().map(|k| k.0),
        _ => None,
    }
}

/// The cells a move is drawn between: castling as the King's move, like its string.
fn move_cells<B: BitSet>(t: &Tables<B>, mv: Move) -> (Option<Cell>, Option<Cell>) {
    match mv.kind() {
        MoveKind::Pass => (None, None),
        MoveKind::Drop => (None, Some(mv.to())),
        MoveKind::Castle => {
            let c = &t.variant.castlings[mv.extra() as usize];
            (Some(c.king_from), Some(c.king_to))
        }
        _ => (Some(mv.from()), Some(mv.to())),
    }
}

/// The position after ply `i` of the history.
fn after_ply<B: BitSet>(g: &Game<B>, i: usize) -> &Position<B> {
    g.history.get(i + 1).map_or(&g.pos, |(p, _)| p)
}

fn eliminated(before: u8, after: u8) -> Vec<usize> {
    (0..4)
        .filter(|&v| before >> v & 1 != 0 && after >> v & 1 == 0)
        .collect()
}

/// The moves played, each with its cells and, in four-player games, the checkmates that
/// followed it and the pieces they promoted.
fn history<B: BitSet>(g: &Game<B>) -> Vec<Value> {
    let t = &g.tables;
    (0..g.history.len())
        .map(|i| {
            let (before, mv) = &g.history[i];
            let after = after_ply(g, i);
            let (from, to) = move_cells(t, *mv);
            let victims = eliminated(before.alive, after.alive);
            let checkmates = if victims.is_empty() {
                Value::Null
            } else {
                checkmate_event(t, before.play_raw(t, *mv), after, victims)
            };
            json!({
                "mover": before.side.0,
                "move": g.format_move(*mv),
                "from": from.map(|c| c.0),
                "to": to.map(|c| c.0),
                "checkmates": checkmates,
            })
        })
        .collect()
}

/// Who checkmated whom after a move, and which of the checkmater's pieces were promoted (the
/// kinds that differ between the board right after the move and after the events).
fn checkmate_event<B: BitSet>(
    t: &Tables<B>,
    raw: Position<B>,
    after: &Position<B>,
    victims: Vec<usize>,
) -> Value {
    // The checkmater moves next, under either checkmate rule (docs/rules.md 5.4).
    let by = after.side;
    let promotions: Vec<Value> = t
        .shape
        .all_cells()
        .filter_map(|c| {
            let now = after.piece_at(c).filter(|p| p.player() == by)?;
            let was = raw.piece_at(c).filter(|p| p.player() == by)?;
            (was.kind() != now.kind()).then(|| {
                json!({ "cell": t.shape.cell_name(c), "from": was.kind().0, "to": now.kind().0 })
            })
        })
        .collect();
    json!({ "by": by.0, "victims": victims, "promotions": promotions })
}
