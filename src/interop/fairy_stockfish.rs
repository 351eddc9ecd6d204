//! Fairy-Stockfish's spelling of promotions, with `engines/fairy-stockfish-variants.ini`.
//!
//! Fairy-Stockfish promotes its own `pawn` type to a lettered piece (`a7a8f`, as Panoply), but
//! a custom piece that promotes to one `promotedPieceType` (in that file: the Berolina Pawn to
//! the Crown Prince, the Lance to the Gold) is written with `+` (`b7c8+`) and only read that
//! way. The referee translates both ways, or such a promotion forfeits the game.

/// The pieces the variants file makes promote by `promotedPieceType` (Panoply's names).
pub const PLUS_PROMOTERS: [&str; 2] = ["Berolina Pawn", "Lance"];

/// Panoply's move string `mv` in Fairy-Stockfish's spelling; `mover` names the moved piece.
pub fn move_to_fairy_stockfish(mv: &str, mover: &str) -> String {
    match promotion_letter_split(mv) {
        Some(squares) if PLUS_PROMOTERS.contains(&mover) => format!("{squares}+"),
        _ => mv.to_string(),
    }
}

/// Fairy-Stockfish's move string in Panoply's spelling: `b7c8+` becomes the one legal
/// promotion between those squares. Anything else, or an ambiguous `+`, is returned as it
/// came (the referee then judges it).
pub fn move_from_fairy_stockfish(mv: &str, legal: &[String]) -> String {
    let Some(squares) = mv.strip_suffix('+') else {
        return mv.to_string();
    };
    let mut promotions = legal
        .iter()
        .filter(|m| promotion_letter_split(m) == Some(squares));
    match (promotions.next(), promotions.next()) {
        (Some(only), None) => only.clone(),
        _ => mv.to_string(),
    }
}

/// The squares of a promotion written `<from><to><letter>` (`b7c8k` → `b7c8`).
fn promotion_letter_split(mv: &str) -> Option<&str> {
    let mut chars = mv.chars().rev();
    let (last, before) = (chars.next()?, chars.next()?);
    (last.is_ascii_alphabetic() && before.is_ascii_digit()).then(|| &mv[..mv.len() - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_berolina_promotion_is_written_with_a_plus_both_ways() {
        assert_eq!(move_to_fairy_stockfish("b7c8k", "Berolina Pawn"), "b7c8+");
        assert_eq!(move_to_fairy_stockfish("a7a8g", "Lance"), "a7a8+");
        // Pawns of Fairy-Stockfish's own type keep their letter; plain moves stay.
        assert_eq!(move_to_fairy_stockfish("a7a8g", "Pawn"), "a7a8g");
        assert_eq!(move_to_fairy_stockfish("b6c7", "Berolina Pawn"), "b6c7");
        let legal: Vec<String> = ["b7c8k", "b7b8", "a6a7", "a6a7g"]
            .map(String::from)
            .to_vec();
        assert_eq!(move_from_fairy_stockfish("b7c8+", &legal), "b7c8k");
        assert_eq!(move_from_fairy_stockfish("a6a7+", &legal), "a6a7g");
        assert_eq!(move_from_fairy_stockfish("b7b8", &legal), "b7b8");
        // No promotion between those squares: left for the referee to refuse.
        assert_eq!(move_from_fairy_stockfish("b7b8+", &legal), "b7b8+");
    }
}
