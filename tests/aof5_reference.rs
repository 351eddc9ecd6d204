//! Differential test for Armies of Faith 5: a deliberately simple move generator (plain
//! loops over cells and the variant's piece data, legality by making the move on a mailbox
//! and looking for attacks) against the engine's generator, on positions reached by random
//! play and on random placements with Emperors, Empresses and Raj pieces.

use crate::common;

use common::*;
use panoply::bitboard::Wide;
use panoply::geometry::Cell;
use panoply::movegen::{legal_moves, tables::Tables};
use panoply::piece::{Atom, Kind, Piece, Player};
use panoply::position::{fen, Position};

type Board = Vec<Option<Piece>>;

fn mailbox(t: &Tables<Wide>, pos: &Position<Wide>) -> Board {
    t.shape.all_cells().map(|c| pos.piece_at(c)).collect()
}

/// The cells a piece on `from` reaches, as (target, is capture), on `board`.
fn reach(t: &Tables<Wide>, board: &Board, from: Cell, piece: Piece) -> Vec<(Cell, bool)> {
    let shape = t.shape;
    let us = piece.player();
    let o = t.variant.orientations[us.index()];
    let mut out = Vec::new();
    let land = |c: Cell, moves: bool, captures: bool, out: &mut Vec<(Cell, bool)>| match board
        [c.index()]
    {
        None if moves => out.push((c, false)),
        Some(p) if captures && p.player() != us => out.push((c, true)),
        _ => {}
    };
    for atom in &t.variant.kind(piece.kind()).atoms {
        match *atom {
            Atom::Leap { to, mode, .. } => {
                if let Some(c) = shape.offset(from, o.apply(to)) {
                    land(c, mode.moves(), mode.captures(), &mut out);
                }
            }
            Atom::Slide { step, max, mode } => {
                let mut cur = from;
                let mut n = 0;
                while let Some(c) = shape.offset(cur, o.apply(step)) {
                    land(c, mode.moves(), mode.captures(), &mut out);
                    n += 1;
                    if board[c.index()].is_some() || (max > 0 && n >= max) {
                        break;
                    }
                    cur = c;
                }
            }
            Atom::Bent { first, then, mode } => {
                let Some(f) = shape.offset(from, o.apply(first)) else {
                    continue;
                };
                if board[f.index()].is_some() {
                    continue;
                }
                let mut cur = f;
                while let Some(c) = shape.offset(cur, o.apply(then)) {
                    land(c, mode.moves(), mode.captures(), &mut out);
                    if board[c.index()].is_some() {
                        break;
                    }
                    cur = c;
                }
            }
            Atom::Lame { .. } => unreachable!("no lame pieces in Armies of Faith"),
        }
    }
    out
}

/// Whether any piece of a playing army other than `us` attacks a royal piece of `us`.
fn royal_attacked(t: &Tables<Wide>, board: &Board, alive: u8, us: Player) -> bool {
    let royals: Vec<Cell> = t
        .shape
        .all_cells()
        .filter(|c| {
            board[c.index()].is_some_and(|p| p.player() == us && t.variant.kind(p.kind()).royal)
        })
        .collect();
    t.shape.all_cells().any(|c| match board[c.index()] {
        Some(p) if p.player() != us && alive >> p.player().0 & 1 != 0 => reach(t, board, c, p)
            .iter()
            .any(|&(to, capture)| capture && royals.contains(&to)),
        _ => false,
    })
}

struct RefMove {
    from: Cell,
    to: Cell,
    victim: Option<Cell>,
    promotion: Option<Kind>,
    merge: bool,
}

fn name(t: &Tables<Wide>, m: &RefMove) -> String {
    let mut s = format!("{}{}", t.shape.cell_name(m.from), t.shape.cell_name(m.to));
    if let Some(k) = m.promotion {
        s += &format!("={}", t.variant.kind(k).token);
    }
    s
}

/// Adds a move, with its promotion choices where the variant's rules allow or demand them.
fn with_promotions(t: &Tables<Wide>, us: Player, kind: Kind, m: RefMove, out: &mut Vec<RefMove>) {
    let rule = t.variant.promotion_for(us, kind);
    let (plain, choices) = match rule {
        Some(r) if r.must_to.contains(&m.to) => (false, r.choices.clone()),
        Some(r) if r.may_to.contains(&m.to) => (true, r.choices.clone()),
        _ => (true, Vec::new()),
    };
    for k in choices {
        out.push(RefMove {
            promotion: Some(k),
            ..m
        });
    }
    if plain {
        out.push(m);
    }
}

fn kind_named(t: &Tables<Wide>, token: &str) -> Kind {
    t.variant.kind_by_token(token).unwrap()
}

/// Every legal move, as strings, by brute force.
fn reference_moves(t: &Tables<Wide>, pos: &Position<Wide>) -> Vec<String> {
    if pos.winner.is_some() || pos.alive.count_ones() <= 1 {
        return Vec::new();
    }
    let shape = t.shape;
    let board = mailbox(t, pos);
    let us = pos.side;
    let (pawn, yeoman) = (kind_named(t, "PN"), kind_named(t, "Y"));
    let mut pseudo = Vec::new();
    for from in shape.all_cells() {
        let Some(piece) = board[from.index()].filter(|p| p.player() == us) else {
            continue;
        };
        let kind = piece.kind();
        let def = t.variant.kind(kind);
        for (to, _) in reach(t, &board, from, piece) {
            let m = RefMove {
                from,
                to,
                victim: None,
                promotion: None,
                merge: false,
            };
            with_promotions(t, us, kind, m, &mut pseudo);
        }
        let o = t.variant.orientations[us.index()];
        if t.variant.double_step_cells[us.index()].contains(&from) {
            for &step in &def.double_steps {
                let v = o.apply(step);
                if let Some(s) = shape.offset(from, v) {
                    if let Some(d) = shape.offset(s, v) {
                        if board[s.index()].is_none() && board[d.index()].is_none() {
                            pseudo.push(RefMove {
                                from,
                                to: d,
                                victim: None,
                                promotion: None,
                                merge: false,
                            });
                        }
                    }
                }
            }
        }
        if def.en_passant {
            for (owner, ep) in pos.ep.iter().enumerate() {
                let Some(ep) = ep else { continue };
                if owner == us.index() || board[ep.skipped.index()].is_some() {
                    continue;
                }
                for atom in &def.atoms {
                    if let Atom::Leap { to, mode, .. } = *atom {
                        if mode.captures() && shape.offset(from, o.apply(to)) == Some(ep.skipped) {
                            let m = RefMove {
                                from,
                                to: ep.skipped,
                                victim: Some(ep.victim),
                                promotion: None,
                                merge: false,
                            };
                            with_promotions(t, us, kind, m, &mut pseudo);
                        }
                    }
                }
            }
        }
        if kind == pawn || kind == yeoman {
            let other = if kind == pawn { yeoman } else { pawn };
            let zone = |k: Kind, c: Cell| {
                let r = t.variant.promotion_for(us, k).unwrap();
                r.may_to.contains(&c) && !r.must_to.contains(&c)
            };
            for atom in &def.atoms {
                if let Atom::Leap { to, .. } = *atom {
                    let Some(c) = shape.offset(from, o.apply(to)) else {
                        continue;
                    };
                    if board[c.index()] == Some(Piece::new(us, other))
                        && zone(pawn, c)
                        && zone(yeoman, c)
                    {
                        pseudo.push(RefMove {
                            from,
                            to: c,
                            victim: None,
                            promotion: None,
                            merge: true,
                        });
                    }
                }
            }
        }
    }
    let mut legal: Vec<String> = pseudo
        .iter()
        .filter(|m| {
            let mut b = board.clone();
            let piece = b[m.from.index()].take();
            if let Some(v) = m.victim {
                b[v.index()] = None;
            }
            b[m.to.index()] = if m.merge { b[m.to.index()] } else { piece };
            !royal_attacked(t, &b, pos.alive, us)
        })
        .map(|m| name(t, m))
        .collect();
    if legal.is_empty() {
        legal.push("pass".into());
    }
    legal.sort();
    legal
}

fn compare(t: &Tables<Wide>, pos: &Position<Wide>) {
    let fast = moves(t, pos);
    let slow = reference_moves(t, pos);
    assert_eq!(fast, slow, "in {}", fen::format(t, pos));
}

/// Plays random games, preferring captures, comparing both generators at every ply.
/// Returns how many checkmates and en-passant targets were seen.
fn random_games(variant: &str, seed: u64, games: usize, plies: usize) -> (usize, usize) {
    let t = tables(variant);
    let mut rng = Rng(seed);
    let (mut mates, mut eps) = (0, 0);
    for _ in 0..games {
        let mut pos = fen::parse(&t, &t.variant.start_position).unwrap();
        for _ in 0..plies {
            compare(&t, &pos);
            eps += pos.ep.iter().flatten().count();
            let list = legal_moves(&t, &pos);
            if list.is_empty() {
                break;
            }
            let captures: Vec<_> = list
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to()).is_some())
                .collect();
            let mv = if !captures.is_empty() && rng.below(3) > 0 {
                captures[rng.below(captures.len())]
            } else {
                list[rng.below(list.len())]
            };
            let next = pos.play(&t, mv);
            mates += (pos.alive.count_ones() - next.alive.count_ones()) as usize;
            pos = next;
        }
    }
    (mates, eps)
}

#[test]
fn random_play_matches_the_reference_generator() {
    let (mates, eps) = random_games("aof5", 0x5eed_0001, 10, 200);
    assert!(mates > 0, "random play should reach checkmates");
    assert!(eps > 0, "random play should reach en-passant targets");
}

#[test]
fn random_raj_play_matches_the_reference_generator() {
    let (mates, _) = random_games("aof5-raj", 0x5eed_0002, 6, 160);
    assert!(mates > 0, "random play should reach checkmates");
}

/// Random placements: every kind (promoted and Raj pieces included), some armies out.
#[test]
fn random_placements_match_the_reference_generator() {
    let t = tables("aof5-raj");
    let mut rng = Rng(0x5eed_0003);
    let kinds: Vec<String> = t.variant.pieces.iter().map(|d| d.token.clone()).collect();
    let mut checked = 0;
    while checked < 300 {
        let alive: Vec<usize> = (0..4).filter(|_| rng.below(4) > 0).collect();
        if alive.len() < 2 {
            continue;
        }
        let mut cells: Vec<Cell> = t.shape.all_cells().collect();
        let mut pieces: Vec<(String, String)> = Vec::new();
        let mut take = |rng: &mut Rng| cells.swap_remove(rng.below(cells.len()));
        for &p in &alive {
            let army = t.variant.player_symbols[p];
            let royal = if rng.below(2) == 0 { "K" } else { "E" };
            pieces.push((t.shape.cell_name(take(&mut rng)), format!("{army}{royal}")));
            for _ in 0..rng.below(14) {
                let token = &kinds[rng.below(kinds.len())];
                if token == "K" || token == "E" {
                    continue;
                }
                pieces.push((t.shape.cell_name(take(&mut rng)), format!("{army}{token}")));
            }
        }
        let list: Vec<(&str, &str)> = pieces
            .iter()
            .map(|(c, p)| (c.as_str(), p.as_str()))
            .collect();
        let symbols: String = alive.iter().map(|&p| t.variant.player_symbols[p]).collect();
        let side = t.variant.player_symbols[alive[rng.below(alive.len())]];
        let text = format!("{} {side} {symbols} - 0 1", board(&t, &list));
        // Placements with a Pawn where it must already have promoted are refused; skip them.
        let Ok(pos) = fen::parse(&t, &text) else {
            continue;
        };
        compare(&t, &pos);
        // One ply further, to include positions after checkmate events.
        if let Some(&m) = legal_moves(&t, &pos).first() {
            compare(&t, &pos.play(&t, m));
        }
        checked += 1;
    }
}
