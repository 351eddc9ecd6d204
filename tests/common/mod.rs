//! Helpers shared by the integration tests: tables, position strings built from piece lists
//! (Armies of Faith) or a fixed corner (Missionary), move lists as strings.
#![allow(dead_code)]

use panoply::bitboard::Wide;
use panoply::game::AnyTables;
use panoply::geometry::Cell;
use panoply::movegen::notation::format_move;
use panoply::movegen::{legal_moves, tables::Tables};
use panoply::position::{fen, Position};
use std::sync::Arc;

pub fn tables(name: &str) -> Arc<Tables<Wide>> {
    match panoply::games::tables(name).unwrap() {
        AnyTables::Wide(t) => t,
        AnyTables::Narrow(_) => panic!("{name} should use the wide bitset"),
    }
}

/// A board field with the given pieces (`("as2", "bK")`), the rest empty.
pub fn board(t: &Tables<Wide>, pieces: &[(&str, &str)]) -> String {
    let shape = t.shape;
    let mut grid = vec![None; shape.cells()];
    for &(cell, token) in pieces {
        let c = shape
            .parse_cell(cell)
            .unwrap_or_else(|| panic!("cell {cell}"));
        assert!(grid[c.index()].is_none(), "{cell} twice");
        grid[c.index()] = Some(token);
    }
    let mut levels = Vec::new();
    for z in 0..shape.levels as i32 {
        let mut rows = Vec::new();
        for y in (0..shape.ranks as i32).rev() {
            let mut cells: Vec<String> = Vec::new();
            let mut empty = 0;
            for x in 0..shape.files as i32 {
                match grid[shape.cell(x, y, z).unwrap().index()] {
                    None => empty += 1,
                    Some(tok) => {
                        if empty > 0 {
                            cells.push(empty.to_string());
                            empty = 0;
                        }
                        cells.push(tok.to_string());
                    }
                }
            }
            if empty > 0 {
                cells.push(empty.to_string());
            }
            rows.push(cells.join(","));
        }
        levels.push(rows.join("/"));
    }
    levels.join("|")
}

/// The four Kings in their corners on level 2.
pub const KINGS: [(&str, &str); 4] = [("js2", "cK"), ("jz2", "pK"), ("az2", "iK"), ("as2", "bK")];

/// Four Kings, the Byzantine one on as1 boxed in by three Catholic Rooks (no step free);
/// tests add a checker, or a piece that takes away the last way out.
pub const BYZANTINE_BOXED_IN: [(&str, &str); 7] = [
    ("js2", "cK"),
    ("jz2", "pK"),
    ("az2", "iK"),
    ("as1", "bK"),
    ("at4", "cR"),
    ("bt4", "cR"),
    ("bs4", "cR"),
];

pub fn with_kings<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v: Vec<(&str, &str)> = KINGS.to_vec();
    v.extend_from_slice(extra);
    v
}

pub fn parse(t: &Tables<Wide>, pieces: &[(&str, &str)], rest: &str) -> Position<Wide> {
    let s = format!("{} {rest}", board(t, pieces));
    fen::parse(t, &s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

pub fn moves(t: &Tables<Wide>, pos: &Position<Wide>) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(t, pos)
        .iter()
        .map(|&m| format_move(t, m))
        .collect();
    v.sort();
    v
}

/// The legal moves starting on `from`.
pub fn moves_from(t: &Tables<Wide>, pos: &Position<Wide>, from: &str) -> Vec<String> {
    moves(t, pos)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

pub fn token_at(t: &Tables<Wide>, pos: &Position<Wide>, cell: &str) -> Option<String> {
    let c: Cell = t.shape.parse_cell(cell).unwrap();
    pos.piece_at(c).map(|p| fen::piece_token(t, p))
}

pub fn play(t: &Tables<Wide>, pos: &Position<Wide>, mv: &str) -> Position<Wide> {
    let m = panoply::movegen::notation::parse_move(t, pos, mv)
        .unwrap_or_else(|e| panic!("{e} in {}", fen::format(t, pos)));
    pos.play(t, m)
}

#[allow(unused_imports)]
pub use crate::rng::Rng;

/// A Missionary-family position: Black Emperor on ua8; White Emperor on vb6 and a Rook on
/// zb8; `holdings` in hand (e.g. `R`), `side` to move.
pub fn missionary_corner(holdings: &str, side: char) -> String {
    let empty = "6/6/6/6/6/6/6/6";
    let levels = [
        "k5/6/6/6/6/6/6/6",
        "6/6/1K4/6/6/6/6/6",
        empty,
        empty,
        empty,
        "1R4/6/6/6/6/6/6/6",
    ];
    format!("{}[{holdings}] {side} - - 0 1", levels.join("|"))
}
