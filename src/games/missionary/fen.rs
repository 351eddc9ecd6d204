//! Position strings of the Missionary cubic variants (docs/rules.md 4.3): six levels `u`..`z`
//! separated by `|`, each a 2D FEN of 8 ranks of 6 filestacks, then the holdings in `[]`
//! (White's upper case, Black's lower case), side to move, `-`, `-`, halfmove clock, move
//! number.

use crate::bitboard::BitSet;
use crate::movegen::tables::Tables;
use crate::piece::{Kind, Player};
use crate::position::fen::{
    field, format_grid, parse_counters, parse_grid, parse_side, piece_token, validate,
};
use crate::position::{fen::PositionError, Position};

/// At most this many pieces of one kind in one hand: more cannot arise in a game (36
/// Stockbrokers a side), and the Zobrist hand keys are distinct up to it.
const MAX_HELD: u8 = 72;

fn level_letter(z: usize) -> char {
    (b'u' + z as u8) as char
}

/// Splits `board[holdings]` into the board and the text between the brackets, if present.
fn split_holdings(field: &str) -> Result<(&str, Option<&str>), PositionError> {
    let Some(open) = field.find('[') else {
        return Ok((field, None));
    };
    let rest = &field[open + 1..];
    let close = rest.find(']').ok_or_else(|| PositionError::BadHoldings {
        found: field[open..].to_string(),
        reason: "no closing ']'".into(),
    })?;
    if close + 1 != rest.len() {
        return Err(PositionError::ExtraField(rest[close + 1..].to_string()));
    }
    Ok((&field[..open], Some(&rest[..close])))
}

fn parse_holdings<B: BitSet>(
    t: &Tables<B>,
    pos: &mut Position<B>,
    text: &str,
) -> Result<(), PositionError> {
    let order = t
        .variant
        .drops
        .as_ref()
        .map_or(&[][..], |d| &d.hand_order[..]);
    let bad = |reason: String| PositionError::BadHoldings {
        found: text.to_string(),
        reason,
    };
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let (token, len) = match (chars[i], chars.get(i + 1)) {
            ('+', Some(c)) if c.is_ascii_alphabetic() => (format!("+{c}"), 2),
            (c, _) if c.is_ascii_alphabetic() => (c.to_string(), 1),
            (c, _) => return Err(bad(format!("'{c}' is not a piece letter"))),
        };
        i += len;
        let kind = t
            .variant
            .kind_by_token(&token)
            .filter(|k| order.contains(k))
            .ok_or_else(|| bad(format!("'{token}' cannot be held in hand")))?;
        let letter = token.chars().last().unwrap();
        let player = if letter.is_ascii_uppercase() {
            Player::WHITE
        } else {
            Player::BLACK
        };
        if pos.hand(player, kind) >= MAX_HELD {
            return Err(bad(format!("more than {MAX_HELD} '{token}' in hand")));
        }
        pos.add_to_hand(t, player, kind, 1);
    }
    Ok(())
}

/// Parses a Missionary position string. The holdings may be omitted (empty hands); the
/// castling and en-passant fields must be `-`; the last two numbers may be omitted.
pub fn parse<B: BitSet>(t: &Tables<B>, s: &str) -> Result<Position<B>, PositionError> {
    let mut fields = s.split_whitespace().peekable();
    let first = fields.next().ok_or(PositionError::Empty)?;
    let (board, mut holdings) = split_holdings(first)?;
    if holdings.is_none() {
        if let Some(next) = fields.peek().filter(|f| f.starts_with('[')) {
            let (_, h) = split_holdings(next)?;
            holdings = h;
            fields.next();
        }
    }
    let mut pos = Position::empty(t);
    let levels: Vec<&str> = board.split('|').collect();
    let expected = t.shape.levels as usize;
    if levels.len() != expected {
        return Err(PositionError::LevelCount {
            found: levels.len(),
            expected,
        });
    }
    for (z, level) in levels.iter().enumerate() {
        parse_grid(t, &mut pos, level, z as i32).map_err(|e| PositionError::InLevel {
            level: level_letter(z),
            error: Box::new(e),
        })?;
    }
    if let Some(h) = holdings {
        parse_holdings(t, &mut pos, h)?;
    }
    let side = field(&mut fields, "side-to-move")?;
    let side = parse_side(t, side)?;
    pos.set_side(t, side);
    for field in ["castling", "en-passant"] {
        match fields.next() {
            Some("-") => {}
            Some(other) => {
                return Err(PositionError::NotApplicable {
                    field,
                    found: other.to_string(),
                })
            }
            None => return Err(PositionError::MissingField(field)),
        }
    }
    parse_counters(&mut pos, fields)?;
    validate(t, &pos)?;
    Ok(pos)
}

/// The holdings, White's then Black's, each in the variant's hand order.
pub fn format_holdings<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> String {
    let order: &[Kind] = t
        .variant
        .drops
        .as_ref()
        .map_or(&[][..], |d| &d.hand_order[..]);
    let mut out = String::new();
    for p in [Player::WHITE, Player::BLACK] {
        for &k in order {
            let token = piece_token(t, crate::piece::Piece::new(p, k));
            for _ in 0..pos.hand(p, k) {
                out += &token;
            }
        }
    }
    out
}

/// Writes a Missionary position string.
pub fn format<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> String {
    let levels: Vec<String> = (0..t.shape.levels as i32)
        .map(|z| format_grid(t, pos, z))
        .collect();
    format!(
        "{}[{}] {} - - {} {}",
        levels.join("|"),
        format_holdings(t, pos),
        t.variant.player_symbols[pos.side.index()],
        pos.halfmove,
        pos.fullmove
    )
}
