//! Board diagrams for the text interface: one grid per level, levels side by side.

use super::{fen::piece_token, Position};
use crate::bitboard::BitSet;
use crate::movegen::tables::Tables;
use crate::piece::{Kind, Player};

/// A diagram of the board with rank/row labels and file letters; 3D boards show their
/// levels side by side, each headed by its name.
pub fn diagram<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> String {
    let shape = t.shape;
    let width = pos
        .occupied
        .cells()
        .map(|c| piece_token(t, pos.piece_at(c).unwrap()).len())
        .max()
        .unwrap_or(1)
        .max(1);
    let level_name = |z: i32| match shape.naming {
        crate::geometry::CellNaming::LevelFileRank => format!("level {}", (b'u' + z as u8) as char),
        _ => format!("level {}", z + 1),
    };
    let row_label = |y: i32| match shape.naming {
        crate::geometry::CellNaming::FileRowLevel => format!("{}", (b's' + y as u8) as char),
        _ => format!("{:>2}", y + 1),
    };
    let grid_width = shape.files as usize * (width + 1);
    let mut out = String::new();
    if shape.levels > 1 {
        for z in 0..shape.levels as i32 {
            out += &format!("   {:<grid_width$}  ", level_name(z));
        }
        out.push('\n');
    }
    for y in (0..shape.ranks as i32).rev() {
        for z in 0..shape.levels as i32 {
            out += &format!("{} ", row_label(y));
            for x in 0..shape.files as i32 {
                let c = shape.cell(x, y, z).unwrap();
                let text = pos
                    .piece_at(c)
                    .map_or(".".to_string(), |p| piece_token(t, p));
                out += &format!("{text:<width$} ");
            }
            out += "  ";
        }
        out = out.trim_end().to_string();
        out.push('\n');
    }
    for _ in 0..shape.levels {
        out += "   ";
        for x in 0..shape.files {
            out += &format!("{:<width$} ", (b'a' + x) as char);
        }
        out += "  ";
    }
    out = out.trim_end().to_string() + "\n";
    if t.players() > 2 {
        out += &players_line(t, pos);
    }
    if let Some(drops) = &t.variant.drops {
        out += &holdings(t, pos, &drops.hand_order);
    }
    out
}

/// Which armies are still playing, which is to move, and the winner of a finished game.
fn players_line<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> String {
    let v = &t.variant;
    let name = |p: usize| format!("{} ({})", v.armies[p], v.player_symbols[p]);
    let playing: Vec<String> = (0..t.players())
        .filter(|&p| pos.alive >> p & 1 != 0)
        .map(name)
        .collect();
    let mut line = format!("playing: {}", playing.join(", "));
    match pos.winner {
        Some(w) => line += &format!("; won by {}", name(w.index())),
        None => line += &format!("; to move: {}", name(pos.side.index())),
    }
    line + "\n"
}

/// One line per two-player side listing its hand, in the variant's hand order.
fn holdings<B: BitSet>(t: &Tables<B>, pos: &Position<B>, order: &[Kind]) -> String {
    let mut out = String::new();
    for (p, name) in [(Player::WHITE, "white"), (Player::BLACK, "black")] {
        let held: Vec<String> = order
            .iter()
            .flat_map(|&k| {
                let n = pos.hand(p, k) as usize;
                std::iter::repeat_n(t.variant.kind(k).token.clone(), n)
            })
            .collect();
        let list = if held.is_empty() {
            "-".to_string()
        } else {
            held.join(" ")
        };
        out += &format!("{name} in hand: {list}\n");
    }
    out
}
