//! Fairy-Max's conventions for Chess with Different Armies.
//!
//! Fairy-Max (H.G. Muller) plays the CwDA pairings as XBoard variant `fairy`, the pairing being
//! chosen by its engine option `Variant fairy selects` (values such as `Nutters-Rookies`, White
//! army first); FIDE against FIDE is plain `normal`. It has no entry for a non-FIDE army
//! against itself. Its piece letters differ from docs/rules.md's, and clash with them (Fairy-Max
//! `c` is a Clobberers FAD or a Nutty Colonel, Panoply `c` is the Archbishop), so a letter is
//! only meaningful together with the army of the side that writes it: in CwDA a pawn promotes
//! to a piece of its own army, so the mover's army decides. The facts below come from
//! Fairy-Max's `fmax.ini` (section "Chess with Different Armies").

use crate::games::cwda::Army;

/// The XBoard variant name and the `Variant fairy selects` value (if any) for a pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FairyMaxVariant {
    pub variant: &'static str,
    pub selects: Option<String>,
}

/// The name of the engine option that picks the CwDA pairing.
pub const SELECT_OPTION: &str = "Variant fairy selects";

/// Fairy-Max's name for an army in `Variant fairy selects` values.
pub fn army_name(army: Army) -> &'static str {
    match army {
        Army::Fide => "FIDE",
        Army::Clobberers => "Clobberers",
        Army::Nutty => "Nutters",
        Army::Rookies => "Rookies",
    }
}

/// Parses a Fairy-Max army name (case-insensitive).
pub fn army_from_name(name: &str) -> Option<Army> {
    Army::ALL
        .into_iter()
        .find(|&a| army_name(a).eq_ignore_ascii_case(name))
}

/// How to select a pairing in Fairy-Max; `None` for the pairings it does not have.
pub fn variant_for(white: Army, black: Army) -> Option<FairyMaxVariant> {
    if white == Army::Fide && black == Army::Fide {
        return Some(FairyMaxVariant {
            variant: "normal",
            selects: None,
        });
    }
    if white == black {
        return None;
    }
    Some(FairyMaxVariant {
        variant: "fairy",
        selects: Some(format!("{}-{}", army_name(white), army_name(black))),
    })
}

/// Parses a `Variant fairy selects` value such as `Nutters-Rookies`.
pub fn pairing_from_selects(value: &str) -> Option<(Army, Army)> {
    let (w, b) = value.trim().split_once('-')?;
    Some((army_from_name(w)?, army_from_name(b)?))
}

/// Fairy-Max's lower-case letters for an army's a/h, b/g, c/f and d pieces, in the order of
/// [`Army::letters`] (Panoply's letters).
pub fn letters(army: Army) -> [char; 4] {
    match army {
        Army::Fide => ['r', 'n', 'b', 'q'],
        Army::Clobberers => ['l', 'e', 'c', 'a'],
        Army::Nutty => ['t', 'h', 'u', 'c'],
        Army::Rookies => ['s', 'w', 'h', 'm'],
    }
}

/// The slots of those pieces in XBoard's piece-to-character table (the string after `#` on
/// each `Game: fairy/...` line of fmax.ini: `PNBRQFEACWMOHIJGDVLSUK...`), in the same order.
pub fn slots(army: Army) -> [usize; 4] {
    match army {
        Army::Fide => [3, 1, 2, 4],
        Army::Clobberers => [13, 6, 8, 7],
        Army::Nutty => [14, 12, 20, 16],
        Army::Rookies => [19, 14, 17, 16],
    }
}

/// Panoply's letter for the piece Fairy-Max writes as `letter` in `army` (any case in, lower
/// case out).
pub fn letter_from_fairy_max(army: Army, letter: char) -> Option<char> {
    let i = letters(army)
        .iter()
        .position(|&c| c == letter.to_ascii_lowercase())?;
    Some(army.letters()[i])
}

/// Fairy-Max's letter for the piece Panoply writes as `letter` in `army`.
pub fn letter_to_fairy_max(army: Army, letter: char) -> Option<char> {
    let i = army
        .letters()
        .iter()
        .position(|&c| c == letter.to_ascii_lowercase())?;
    Some(letters(army)[i])
}

/// Splits a coordinate move string (`e7e8c`) into the from-to part and a trailing promotion
/// letter.
fn split_promotion(mv: &str) -> (&str, Option<char>) {
    match mv.chars().last() {
        Some(c) if c.is_ascii_alphabetic() && mv.len() == 5 => (&mv[..4], Some(c)),
        _ => (mv, None),
    }
}

/// Rewrites the promotion letter of a move by `army` from Panoply's letters to Fairy-Max's.
/// Moves without a promotion letter (and letters the army does not have) pass unchanged.
pub fn move_to_fairy_max(army: Army, mv: &str) -> String {
    translate(mv, |c| letter_to_fairy_max(army, c))
}

/// Rewrites the promotion letter of a move by `army` from Fairy-Max's letters to Panoply's.
pub fn move_from_fairy_max(army: Army, mv: &str) -> String {
    translate(mv, |c| letter_from_fairy_max(army, c))
}

fn translate(mv: &str, map: impl Fn(char) -> Option<char>) -> String {
    match split_promotion(mv) {
        (base, Some(c)) => match map(c) {
            Some(to) => format!("{base}{to}"),
            None => mv.to_string(),
        },
        (base, None) => base.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_map_to_fairy_with_the_selects_value() {
        let v = variant_for(Army::Nutty, Army::Rookies).unwrap();
        assert_eq!(v.variant, "fairy");
        assert_eq!(v.selects.as_deref(), Some("Nutters-Rookies"));
        assert_eq!(
            variant_for(Army::Fide, Army::Fide).unwrap().variant,
            "normal"
        );
        assert_eq!(variant_for(Army::Rookies, Army::Rookies), None);
        assert_eq!(
            pairing_from_selects("Clobberers-FIDE"),
            Some((Army::Clobberers, Army::Fide))
        );
    }

    #[test]
    fn clashing_letters_translate_by_army() {
        // Clobberers: Fairy-Max `a` is the Archbishop, Panoply's `c`; `c` is the FAD (`a`).
        assert_eq!(move_from_fairy_max(Army::Clobberers, "e7e8a"), "e7e8c");
        assert_eq!(move_from_fairy_max(Army::Clobberers, "e7e8c"), "e7e8a");
        // Nutty: Fairy-Max `c` is the Colonel (`o`), `h` the Fibnif (`i`).
        assert_eq!(move_from_fairy_max(Army::Nutty, "b2b1c"), "b2b1o");
        assert_eq!(move_from_fairy_max(Army::Nutty, "b2b1h"), "b2b1i");
        // Rookies: Fairy-Max `m` is the Chancellor (`e`), `w` the Woody (`m`).
        assert_eq!(move_to_fairy_max(Army::Rookies, "a7a8e"), "a7a8m");
        assert_eq!(move_to_fairy_max(Army::Rookies, "a7a8m"), "a7a8w");
        assert_eq!(move_to_fairy_max(Army::Fide, "a7a8q"), "a7a8q");
        assert_eq!(move_to_fairy_max(Army::Nutty, "e2e4"), "e2e4");
    }

    #[test]
    fn slots_match_fairy_maxs_setup_strings() {
        // White's half of the piece-to-char strings of `Game: fairy/Nutters-Rookies` and
        // `Game: fairy/Clobberers-FIDE` in fmax.ini.
        let nutters = "P...........H.T.C...UK";
        let rookies = "P.............W.MH.S.K";
        let clobberers = "P.....EAC....LK";
        for (army, table) in [
            (Army::Nutty, nutters),
            (Army::Rookies, rookies),
            (Army::Clobberers, clobberers),
            (Army::Fide, "PNBRQ"),
        ] {
            for (slot, letter) in slots(army).into_iter().zip(letters(army)) {
                let at = table.chars().nth(slot).unwrap();
                assert_eq!(at, letter.to_ascii_uppercase(), "{army:?} slot {slot}");
            }
        }
    }

    #[test]
    fn every_letter_round_trips() {
        for army in Army::ALL {
            for c in army.letters() {
                let fm = letter_to_fairy_max(army, c).unwrap();
                assert_eq!(letter_from_fairy_max(army, fm), Some(c));
            }
        }
    }
}
