//! Armies of Faith position strings (docs/rules.md 5.4): levels 1..4 separated by `|`, each 8
//! rows (z down to s, `/` between) of 10 comma-separated cells (army prefix + code, or a
//! number of empty cells); then the army to move, the armies still playing, en-passant
//! targets (`-` or `cell:army,...` in turn order), halfmove clock and move number.

use super::pieces::{PAWN, YEOMAN};
use crate::bitboard::BitSet;
use crate::movegen::tables::Tables;
use crate::piece::{Piece, Player};
use crate::position::fen::{
    field, format_rows, parse_counters, parse_rows, parse_side, unless_dash, GridEntry,
    PositionError,
};
use crate::position::{EnPassant, Position};

fn army_letter<B: BitSet>(t: &Tables<B>, p: Player) -> char {
    t.variant.player_symbols[p.index()]
}

fn army_of<B: BitSet>(t: &Tables<B>, c: char) -> Option<Player> {
    t.variant
        .player_symbols
        .iter()
        .position(|&s| s == c)
        .map(|i| Player(i as u8))
}

/// One cell token: army prefix and piece code (`bK`, `iPN`).
fn parse_token<B: BitSet>(t: &Tables<B>, token: &str) -> Result<Piece, PositionError> {
    let unknown = || PositionError::UnknownPiece {
        token: token.to_string(),
        variant: t.variant.name.clone(),
    };
    let mut chars = token.chars();
    let army = chars
        .next()
        .and_then(|c| army_of(t, c))
        .ok_or_else(unknown)?;
    let code = chars.as_str();
    // Codes are upper case; accept any case, but never an empty code.
    if code.is_empty() {
        return Err(unknown());
    }
    let kind = t.variant.kind_by_token(code).ok_or_else(unknown)?;
    Ok(Piece::new(army, kind))
}

/// One row of a level: comma-separated piece tokens and numbers of empty cells.
fn read_row<B: BitSet>(t: &Tables<B>, row: &str) -> Result<Vec<GridEntry>, PositionError> {
    row.split(',')
        .map(|token| {
            let token = token.trim();
            if token.starts_with(|c: char| c.is_ascii_digit()) {
                let n = token.parse().ok().filter(|&n| n > 0);
                n.map(GridEntry::Empty)
                    .ok_or_else(|| PositionError::UnknownPiece {
                        token: token.to_string(),
                        variant: t.variant.name.clone(),
                    })
            } else {
                parse_token(t, token).map(GridEntry::Piece)
            }
        })
        .collect()
}

fn parse_alive<B: BitSet>(
    t: &Tables<B>,
    pos: &mut Position<B>,
    s: &str,
) -> Result<(), PositionError> {
    let bad = |reason: String| PositionError::BadPlayers {
        found: s.to_string(),
        reason,
    };
    let mut mask = 0u8;
    for c in s.chars() {
        let p = army_of(t, c).ok_or_else(|| bad(format!("'{c}' is not one of c, p, i, b")))?;
        if mask >> p.0 & 1 != 0 {
            return Err(bad(format!("'{c}' is listed twice")));
        }
        mask |= 1 << p.0;
    }
    if mask == 0 {
        return Err(bad("no army is playing".into()));
    }
    for p in (0..4).map(Player) {
        pos.set_alive(t, p, mask >> p.0 & 1 != 0);
    }
    Ok(())
}

/// `cell:army,...` (the caller handles `-`). The victim is the army's Pawn one step beyond
/// the skipped cell along one of its forward directions, having come from one of its Pawn
/// starting cells.
fn parse_en_passant<B: BitSet>(
    t: &Tables<B>,
    pos: &mut Position<B>,
    s: &str,
) -> Result<(), PositionError> {
    for item in s.split(',') {
        let bad = |reason: String| PositionError::BadEnPassant {
            found: item.to_string(),
            reason,
        };
        let (cell, army) = item
            .split_once(':')
            .ok_or_else(|| bad("expected cell:army, e.g. dv2:b".into()))?;
        let skipped = t
            .shape
            .parse_cell(&cell.to_ascii_lowercase())
            .ok_or_else(|| bad(format!("'{cell}' is not a cell")))?;
        let mut letters = army.chars();
        let owner = match (letters.next(), letters.next()) {
            (Some(c), None) => army_of(t, c),
            _ => None,
        }
        .ok_or_else(|| bad(format!("'{army}' is not one of c, p, i, b")))?;
        if !pos.is_alive(owner) {
            return Err(bad(format!("army '{army}' is not playing")));
        }
        if pos.ep[owner.index()].is_some() {
            return Err(bad(format!("army '{army}' has two targets")));
        }
        if pos.occupied.contains(skipped) || pos.ep.iter().flatten().any(|e| e.skipped == skipped) {
            return Err(bad(format!("{cell} is not an empty cell")));
        }
        let pawn = t.kind(owner, PAWN);
        // A double step from `start` over `skipped` to `victim`.
        let victim = pawn
            .double_steps
            .iter()
            .enumerate()
            .flat_map(|(start, steps)| steps.iter().map(move |&(s, v)| (start, s, v)))
            .find(|&(start, s, v)| {
                s == skipped
                    && !pos.occupied.contains(crate::geometry::Cell(start as u16))
                    && pos.piece_at(v) == Some(Piece::new(owner, PAWN))
            })
            .map(|(_, _, v)| v)
            .ok_or_else(|| {
                bad(format!(
                    "no Pawn of army '{army}' can have double-stepped over {cell}"
                ))
            })?;
        pos.set_ep(t, owner, Some(EnPassant { skipped, victim }));
    }
    Ok(())
}

/// Rejects positions no game can reach.
fn validate<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Result<(), PositionError> {
    let name = |p: Player| t.variant.armies[p.index()].clone();
    if !pos.is_alive(pos.side) {
        return Err(PositionError::Invalid(format!(
            "the army to move ({}) is not playing",
            name(pos.side)
        )));
    }
    for p in (0..4).map(Player) {
        let pieces = pos.by_player[p.index()];
        if !pos.is_alive(p) {
            if pieces.any() {
                return Err(PositionError::Invalid(format!(
                    "the {} army is not playing but has pieces on the board",
                    name(p)
                )));
            }
            continue;
        }
        let royals = pos.royals(t, p).count();
        if royals != 1 {
            return Err(PositionError::Invalid(format!(
                "the {} army has {royals} Kings/Emperors, expected 1",
                name(p)
            )));
        }
        for kind in [PAWN, YEOMAN] {
            if let Some(promo) = t.promotion(p, kind) {
                if let Some(c) = (pos.pieces(p, kind) & promo.must_to).lowest() {
                    return Err(PositionError::Invalid(format!(
                        "a {} {} stands on {}, where it must already have promoted",
                        name(p),
                        t.variant.kind(kind).name,
                        t.shape.cell_name(c)
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Parses a position string and applies the automatic events.
pub fn parse<B: BitSet>(t: &Tables<B>, s: &str) -> Result<Position<B>, PositionError> {
    let mut fields = s.split_whitespace();
    let board = fields.next().ok_or(PositionError::Empty)?;
    let mut pos = Position::empty(t);
    let levels: Vec<&str> = board.split('|').collect();
    if levels.len() != t.shape.levels as usize {
        return Err(PositionError::LevelCount {
            found: levels.len(),
            expected: t.shape.levels as usize,
        });
    }
    for (z, level) in levels.iter().enumerate() {
        parse_rows(t, &mut pos, level, z as i32, |row| read_row(t, row))?;
    }
    let side = field(&mut fields, "army-to-move")?;
    let side = parse_side(t, side)?;
    pos.set_side(t, side);
    let alive = field(&mut fields, "armies-playing")?;
    parse_alive(t, &mut pos, alive)?;
    let ep = field(&mut fields, "en-passant")?;
    if let Some(ep) = unless_dash(ep) {
        parse_en_passant(t, &mut pos, ep)?;
    }
    parse_counters(&mut pos, fields)?;
    validate(t, &pos)?;
    super::events::start_of_turn(t, &mut pos);
    Ok(pos)
}

/// Writes a position string.
pub fn format<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> String {
    let board: Vec<String> = (0..t.shape.levels as i32)
        .map(|z| format_rows(t, pos, z, ","))
        .collect();
    let alive: String = (0..4)
        .map(Player)
        .filter(|&p| pos.is_alive(p))
        .map(|p| army_letter(t, p))
        .collect();
    let eps: Vec<String> = (0..4)
        .filter_map(|p| {
            pos.ep[p].map(|e| {
                format!(
                    "{}:{}",
                    t.shape.cell_name(e.skipped),
                    army_letter(t, Player(p as u8))
                )
            })
        })
        .collect();
    format!(
        "{} {} {} {} {} {}",
        board.join("|"),
        army_letter(t, pos.side),
        alive,
        if eps.is_empty() {
            "-".to_string()
        } else {
            eps.join(",")
        },
        pos.halfmove,
        pos.fullmove
    )
}
