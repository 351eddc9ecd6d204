//! Position strings (docs/rules.md): FEN for the 2D games. Each bad field gets its own error,
//! naming the field and what was expected.

pub use super::error::PositionError;
use super::{EnPassant, Position};
use crate::bitboard::BitSet;
use crate::geometry::Vec3;
use crate::movegen::tables::Tables;
use crate::piece::{Piece, Player};
use crate::variant::RoyalRule;

/// One entry of a grid row: a run of empty cells or a piece.
pub enum GridEntry {
    Empty(i32),
    Piece(Piece),
}

/// Reads a grid of `ranks` rows (top row first, `/` between) of `files` cells each onto level
/// `z`. `read_row` splits one row into its entries: formats differ only there (2D FEN runs
/// letters together, AoF5's multi-letter codes are separated by commas).
pub fn parse_rows<B: BitSet>(
    t: &Tables<B>,
    pos: &mut Position<B>,
    text: &str,
    z: i32,
    read_row: impl Fn(&str) -> Result<Vec<GridEntry>, PositionError>,
) -> Result<(), PositionError> {
    let shape = t.shape;
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != shape.ranks as usize {
        return Err(PositionError::RankCount {
            found: rows.len(),
            expected: shape.ranks as usize,
        });
    }
    for (i, row) in rows.iter().enumerate() {
        let y = shape.ranks as i32 - 1 - i as i32;
        let wrong_length = |found: i32| PositionError::RankLength {
            rank: row.to_string(),
            found: found as usize,
            expected: shape.files as usize,
        };
        let mut x = 0i32;
        for entry in read_row(row)? {
            match entry {
                GridEntry::Empty(n) => x += n,
                GridEntry::Piece(piece) => {
                    let cell = shape.cell(x, y, z).ok_or_else(|| wrong_length(x + 1))?;
                    pos.put(t, cell, piece);
                    x += 1;
                }
            }
            if x > shape.files as i32 {
                return Err(wrong_length(x));
            }
        }
        if x != shape.files as i32 {
            return Err(wrong_length(x));
        }
    }
    Ok(())
}

/// Reads a two-player grid: tokens are an optional `+` and a letter (upper case = first
/// player); digits are runs of empty cells.
pub fn parse_grid<B: BitSet>(
    t: &Tables<B>,
    pos: &mut Position<B>,
    text: &str,
    z: i32,
) -> Result<(), PositionError> {
    parse_rows(t, pos, text, z, |row| read_letter_row(t, row))
}

fn read_letter_row<B: BitSet>(t: &Tables<B>, row: &str) -> Result<Vec<GridEntry>, PositionError> {
    let unknown = |token: String| PositionError::UnknownPiece {
        token,
        variant: t.variant.name.clone(),
    };
    let mut entries = Vec::new();
    let mut chars = row.chars().peekable();
    while let Some(ch) = chars.next() {
        if let Some(first) = ch.to_digit(10) {
            let mut n = first as i32;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(d as i32);
                chars.next();
            }
            if n == 0 {
                return Err(PositionError::ZeroRun {
                    rank: row.to_string(),
                });
            }
            entries.push(GridEntry::Empty(n));
            continue;
        }
        let token = match ch {
            '+' => match chars.next_if(|c| c.is_ascii_alphabetic()) {
                Some(letter) => format!("+{letter}"),
                None => return Err(unknown("+".into())),
            },
            _ => ch.to_string(),
        };
        let kind = t
            .variant
            .kind_by_token(&token)
            .ok_or_else(|| unknown(token.clone()))?;
        let player = if token.ends_with(|c: char| c.is_ascii_uppercase()) {
            Player::WHITE
        } else {
            Player::BLACK
        };
        entries.push(GridEntry::Piece(Piece::new(player, kind)));
    }
    Ok(entries)
}

/// Writes level `z` as a grid (top row first), with `separator` between a row's entries.
pub fn format_rows<B: BitSet>(t: &Tables<B>, pos: &Position<B>, z: i32, separator: &str) -> String {
    let shape = t.shape;
    let rows: Vec<String> = (0..shape.ranks as i32)
        .rev()
        .map(|y| {
            let mut entries: Vec<String> = Vec::new();
            let mut empty = 0;
            for x in 0..shape.files as i32 {
                match pos.piece_at(shape.cell(x, y, z).unwrap()) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            entries.push(empty.to_string());
                            empty = 0;
                        }
                        entries.push(piece_token(t, p));
                    }
                }
            }
            if empty > 0 {
                entries.push(empty.to_string());
            }
            entries.join(separator)
        })
        .collect();
    rows.join("/")
}

/// Writes level `z` of a two-player position (letters run together).
pub fn format_grid<B: BitSet>(t: &Tables<B>, pos: &Position<B>, z: i32) -> String {
    format_rows(t, pos, z, "")
}

/// A piece's token: upper case for the first player, lower case for the second; with four
/// players, the army's letter and the upper-case code (`bK`).
pub fn piece_token<B: BitSet>(t: &Tables<B>, p: Piece) -> String {
    let token = &t.variant.kind(p.kind()).token;
    if t.players() > 2 {
        format!(
            "{}{}",
            t.variant.player_symbols[p.player().index()],
            token.to_ascii_uppercase()
        )
    } else if p.player() == Player::WHITE {
        token.to_ascii_uppercase()
    } else {
        token.to_ascii_lowercase()
    }
}

pub fn parse_side<B: BitSet>(t: &Tables<B>, s: &str) -> Result<Player, PositionError> {
    let symbols = &t.variant.player_symbols;
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => symbols
            .iter()
            .position(|&p| p == c)
            .map(|i| Player(i as u8)),
        _ => None,
    }
    .ok_or_else(|| PositionError::BadSide {
        found: s.to_string(),
        expected: symbols
            .iter()
            .map(|c| format!("'{c}'"))
            .collect::<Vec<_>>()
            .join(", "),
    })
}

fn parse_number(field: &'static str, s: &str) -> Result<u16, PositionError> {
    s.parse().map_err(|_| PositionError::BadNumber {
        field,
        found: s.to_string(),
    })
}

/// The next field of a position string, which must be there.
pub fn field<'a>(
    fields: &mut impl Iterator<Item = &'a str>,
    name: &'static str,
) -> Result<&'a str, PositionError> {
    fields.next().ok_or(PositionError::MissingField(name))
}

/// Reads the optional last two fields every format shares, the halfmove clock and the move
/// number, and refuses anything after them. A move number of 0, which some programs write
/// for the start, counts as 1.
pub fn parse_counters<'a, B: BitSet>(
    pos: &mut Position<B>,
    mut fields: impl Iterator<Item = &'a str>,
) -> Result<(), PositionError> {
    if let Some(h) = fields.next() {
        pos.halfmove = parse_number("halfmove clock", h)?;
    }
    if let Some(m) = fields.next() {
        pos.fullmove = parse_number("move number", m)?.max(1);
    }
    match fields.next() {
        Some(extra) => Err(PositionError::ExtraField(extra.to_string())),
        None => Ok(()),
    }
}

/// A field that is `-` for "none": `None` then, else its text.
pub fn unless_dash(field: &str) -> Option<&str> {
    (field != "-").then_some(field)
}

fn parse_castling<B: BitSet>(
    t: &Tables<B>,
    pos: &mut Position<B>,
    s: &str,
) -> Result<(), PositionError> {
    let mut rights = 0u8;
    let mut seen = Vec::new();
    for ch in s.chars() {
        if seen.contains(&ch) {
            return Err(PositionError::RepeatedCastling {
                field: s.to_string(),
                right: ch,
            });
        }
        seen.push(ch);
        let i = t
            .variant
            .castlings
            .iter()
            .position(|c| c.symbol == ch)
            .ok_or_else(|| PositionError::BadCastling(s.to_string()))?;
        let c = &t.variant.castlings[i];
        // A right whose King or corner piece is not in place cannot be used: drop it, as
        // other programs do, rather than refuse the position.
        let king_home = pos
            .piece_at(c.king_from)
            .is_some_and(|p| p.player() == c.player && t.kind(c.player, p.kind()).royal);
        let partner_home = pos
            .piece_at(c.partner_from)
            .is_some_and(|p| p.player() == c.player && !t.kind(c.player, p.kind()).royal);
        if king_home && partner_home {
            rights |= 1 << i;
        }
    }
    pos.set_castling(t, rights);
    Ok(())
}

fn parse_en_passant<B: BitSet>(
    t: &Tables<B>,
    pos: &mut Position<B>,
    s: &str,
) -> Result<(), PositionError> {
    let bad = |reason: &str| PositionError::BadEnPassant {
        found: s.to_string(),
        reason: reason.to_string(),
    };
    let skipped = t
        .shape
        .parse_cell(s)
        .ok_or_else(|| bad("not a cell name or '-'"))?;
    // The double-stepper is the player who moved last.
    let players = t.players() as u8;
    let owner = Player((pos.side.0 + players - 1) % players);
    let forward = t.variant.orientations[owner.index()].apply(Vec3::flat(0, 1));
    let victim = t
        .shape
        .offset(skipped, forward)
        .ok_or_else(|| bad("no cell beyond it"))?;
    // Where pieces change type on moving (Cyclical Armies) the double-stepper is no longer
    // a pawn of the same kind, and e.p. removes whatever stands there.
    let changes_type = !t.variant.morph.is_empty();
    let has_pawn = pos
        .piece_at(victim)
        .is_some_and(|p| p.player() == owner && (changes_type || t.kind(owner, p.kind()).pawn));
    if !has_pawn || pos.piece_at(skipped).is_some() {
        return Err(bad(&format!(
            "expected an empty cell with a pawn of the side that just moved on {}",
            t.shape.cell_name(victim)
        )));
    }
    pos.set_ep(t, owner, Some(EnPassant { skipped, victim }));
    Ok(())
}

/// Parses a 2D FEN: board, side, castling, en passant, halfmove clock, move number (the
/// last two may be omitted).
pub fn parse_2d<B: BitSet>(t: &Tables<B>, s: &str) -> Result<Position<B>, PositionError> {
    let mut fields = s.split_whitespace();
    let board = fields.next().ok_or(PositionError::Empty)?;
    let mut pos = Position::empty(t);
    parse_grid(t, &mut pos, board, 0)?;
    let side = field(&mut fields, "side-to-move")?;
    let side = parse_side(t, side)?;
    pos.set_side(t, side);
    let castling = field(&mut fields, "castling")?;
    if let Some(castling) = unless_dash(castling) {
        parse_castling(t, &mut pos, castling)?;
    }
    let ep = field(&mut fields, "en-passant")?;
    if let Some(ep) = unless_dash(ep) {
        parse_en_passant(t, &mut pos, ep)?;
    }
    parse_counters(&mut pos, fields)?;
    validate(t, &pos)?;
    Ok(pos)
}

/// Rejects positions no game can reach: a missing King, pawns on their first or last rank,
/// the side not to move in check. Used by every two-player format.
pub fn validate<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> Result<(), PositionError> {
    let royal = t.royal_kinds.first().map_or("king".to_string(), |&k| {
        t.variant.kind(k).name.to_lowercase()
    });
    for (player, name) in [(Player::WHITE, "white"), (Player::BLACK, "black")] {
        let royals = pos.royals(t, player).count();
        if royals == 0 {
            return Err(PositionError::Invalid(format!("{name} has no {royal}")));
        }
        if t.variant.royal_rule == RoyalRule::Each && royals > 1 {
            return Err(PositionError::Invalid(format!(
                "{name} has {royals} {royal}s"
            )));
        }
    }
    for c in pos.occupied.cells() {
        let piece = pos.piece_at(c).unwrap();
        let promo = t.promotion(piece.player(), piece.kind());
        if let Some(promo) = promo {
            if promo.must_to.contains(c) {
                return Err(PositionError::Invalid(format!(
                    "a {} stands on {}, where it must already have promoted",
                    t.variant.kind(piece.kind()).name,
                    t.shape.cell_name(c)
                )));
            }
        }
    }
    let names = ["white", "black"];
    let opponent = Player(1 - pos.side.0);
    if t.variant.royal_rule == RoyalRule::Each && crate::movegen::is_in_check(t, pos, opponent) {
        return Err(PositionError::Invalid(format!(
            "{} is in check but it is {}'s turn",
            names[opponent.index()],
            names[pos.side.index()]
        )));
    }
    Ok(())
}

/// Writes a 2D FEN.
pub fn format_2d<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> String {
    let side = t.variant.player_symbols[pos.side.index()];
    let mut castling: String = t
        .variant
        .castlings
        .iter()
        .enumerate()
        .filter(|(i, _)| pos.castling >> i & 1 != 0)
        .map(|(_, c)| c.symbol)
        .collect();
    // Conventional order: KQkq.
    let order = |c: &char| "KQkq".find(*c).unwrap_or(4);
    let mut chars: Vec<char> = castling.chars().collect();
    chars.sort_by_key(order);
    castling = chars.into_iter().collect();
    if castling.is_empty() {
        castling = "-".into();
    }
    let ep = pos
        .ep
        .iter()
        .flatten()
        .next()
        .map_or("-".to_string(), |e| t.shape.cell_name(e.skipped));
    format!(
        "{} {} {} {} {} {}",
        format_grid(t, pos, 0),
        side,
        castling,
        ep,
        pos.halfmove,
        pos.fullmove
    )
}

/// Parses a position string of the variant's format.
pub fn parse<B: BitSet>(t: &Tables<B>, s: &str) -> Result<Position<B>, PositionError> {
    match t.rules.parse_position {
        Some(parse) => parse(t, s.trim()),
        None => parse_2d(t, s.trim()),
    }
}

/// Writes a position string of the variant's format.
pub fn format<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> String {
    match t.rules.format_position {
        Some(format) => format(t, pos),
        None => format_2d(t, pos),
    }
}
