//! How XBoard sees a variant's pieces: which of its internal piece types (the slots of its
//! piece-to-char table) and which letter each (player, kind) gets, the `setup` and `piece`
//! commands that tell XBoard about them, and the translation of position and move strings
//! between the GUI's letters and ours.
//!
//! Two letterings exist: `native` keeps our letters; `fairy_max` uses the letters and slots
//! Fairy-Max uses for Chess with Different Armies in its `fairy` variant (read from its
//! fmax.ini data), so both engines and the GUI agree on every piece and promotion.

use super::xbetza;
use crate::games::cwda::Army;
use crate::interop::fairymax;
use crate::piece::{Kind, Player};
use crate::variant::{Castling, Variant};
use std::fmt;

/// XBoard's piece types in table order; a letter's place here is its default slot.
const DEFAULT_TABLE: &str = "PNBRQFEACWMOHIJGDVLSUK";
const SLOTS: usize = 22;
const PAWN_SLOT: usize = 0;
const KING_SLOT: usize = SLOTS - 1;

/// Why XBoard cannot show a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShowError {
    Players(usize),
    ThreeD { levels: u8 },
    TooLarge { files: u8, ranks: u8 },
    Token(String),
    TooManyKinds,
    NotCwda,
}

impl fmt::Display for ShowError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ShowError::Players(n) => write!(
                f,
                "XBoard shows two-player games only, this one has {n} players"
            ),
            ShowError::ThreeD { levels } => write!(
                f,
                "XBoard shows flat boards only, this one has {levels} levels"
            ),
            ShowError::TooLarge { files, ranks } => {
                write!(
                    f,
                    "XBoard shows at most 16 files and 16 ranks, this board is {files}x{ranks}"
                )
            }
            ShowError::Token(t) => {
                write!(f, "piece '{t}' has no single-letter name XBoard can show")
            }
            ShowError::TooManyKinds => write!(f, "more piece kinds than XBoard has piece types"),
            ShowError::NotCwda => write!(
                f,
                "Fairy-Max letters exist only for Chess with Different Armies"
            ),
        }
    }
}

/// Whether XBoard can show the variant's board at all.
pub fn check_showable(v: &Variant) -> Result<(), ShowError> {
    if v.players() != 2 {
        return Err(ShowError::Players(v.players()));
    }
    if v.shape.levels != 1 {
        return Err(ShowError::ThreeD {
            levels: v.shape.levels,
        });
    }
    if v.shape.files > 16 || v.shape.ranks > 16 {
        return Err(ShowError::TooLarge {
            files: v.shape.files,
            ranks: v.shape.ranks,
        });
    }
    Ok(())
}

/// The letter and table slot of every (player, kind) that can appear in a game.
#[derive(Clone, Debug)]
pub struct XBoardPieces {
    /// Per player: (kind, slot, letter), the letter upper case for White, lower for Black.
    entries: [Vec<(Kind, usize, char)>; 2],
    /// `8x8+0_fairy`: board size, holdings and the parent variant.
    geometry: String,
}

impl XBoardPieces {
    /// Our own letters. `present` lists, per player, the kinds that can appear (start
    /// position and promotions).
    pub fn native(v: &Variant, present: [Vec<Kind>; 2]) -> Result<XBoardPieces, ShowError> {
        check_showable(v)?;
        let mut entries: [Vec<(Kind, usize, char)>; 2] = [Vec::new(), Vec::new()];
        for (p, kinds) in present.into_iter().enumerate() {
            let mut used = [false; SLOTS];
            let mut sorted = kinds;
            sorted.sort();
            sorted.dedup();
            // Pawns and royals first, so they take the slots XBoard treats specially.
            sorted.sort_by_key(|&k| (!v.kind(k).pawn, !v.kind(k).royal, k));
            for k in sorted {
                let def = v.kind(k);
                let mut chars = def.token.chars();
                let (Some(letter), None) = (chars.next(), chars.next()) else {
                    return Err(ShowError::Token(def.token.clone()));
                };
                if !letter.is_ascii_alphabetic() {
                    return Err(ShowError::Token(def.token.clone()));
                }
                let letter = letter.to_ascii_uppercase();
                let preferred = if def.pawn {
                    Some(PAWN_SLOT)
                } else if def.royal {
                    Some(KING_SLOT)
                } else {
                    DEFAULT_TABLE
                        .find(letter)
                        .filter(|&s| s != PAWN_SLOT && s != KING_SLOT)
                };
                let slot = preferred
                    .filter(|&s| !used[s])
                    .or_else(|| (1..KING_SLOT).find(|&s| !used[s]))
                    .ok_or(ShowError::TooManyKinds)?;
                used[slot] = true;
                let letter = if p == 0 {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                };
                entries[p].push((k, slot, letter));
            }
        }
        Ok(XBoardPieces {
            entries,
            geometry: geometry(v),
        })
    }

    /// Fairy-Max's letters for a CwDA variant (its `fairy` variant, option
    /// `Variant fairy selects`).
    pub fn fairy_max(v: &Variant) -> Result<XBoardPieces, ShowError> {
        check_showable(v)?;
        let mut entries: [Vec<(Kind, usize, char)>; 2] = [Vec::new(), Vec::new()];
        for (p, army_name) in v.armies.iter().enumerate().take(2) {
            let army = Army::from_name(army_name).ok_or(ShowError::NotCwda)?;
            let case = |c: char| if p == 0 { c.to_ascii_uppercase() } else { c };
            let pawn = v.kind_by_token("P").ok_or(ShowError::NotCwda)?;
            let king = v.kind_by_token("K").ok_or(ShowError::NotCwda)?;
            entries[p].push((pawn, PAWN_SLOT, case('p')));
            entries[p].push((king, KING_SLOT, case('k')));
            let theirs = fairymax::slots(army)
                .into_iter()
                .zip(fairymax::letters(army));
            for (ours, (slot, letter)) in army.letters().into_iter().zip(theirs) {
                let kind = v
                    .kind_by_token(&ours.to_string())
                    .ok_or(ShowError::NotCwda)?;
                entries[p].push((kind, slot, case(letter)));
            }
        }
        Ok(XBoardPieces {
            entries,
            geometry: geometry(v),
        })
    }

    pub fn letter(&self, p: Player, k: Kind) -> Option<char> {
        self.entries
            .get(p.index())?
            .iter()
            .find(|e| e.0 == k)
            .map(|e| e.2)
    }

    /// The kind a player's letter stands for (either case).
    pub fn kind(&self, p: Player, letter: char) -> Option<Kind> {
        self.entries
            .get(p.index())?
            .iter()
            .find(|e| e.2.eq_ignore_ascii_case(&letter))
            .map(|e| e.0)
    }

    /// The piece-to-char table: 22 White slots then 22 Black ones, `.` where unused.
    pub fn piece_to_char(&self) -> String {
        let mut out = String::new();
        for side in &self.entries {
            let mut row = ['.'; SLOTS];
            for &(_, slot, letter) in side {
                row[slot] = letter;
            }
            out.extend(row);
        }
        out
    }

    /// `setup (<table>) 8x8+0_fairy <FEN>`.
    pub fn setup_command(&self, xboard_fen: &str) -> String {
        format!(
            "setup ({}) {} {}",
            self.piece_to_char(),
            self.geometry,
            xboard_fen
        )
    }

    /// One `piece` command per piece kind (`X&` when both players' pieces of a letter move
    /// alike, else one per player).
    pub fn piece_commands(&self, v: &Variant) -> Vec<String> {
        let describe = |p: usize, k: Kind| {
            let castlings: Vec<&Castling> = if v.kind(k).royal {
                v.castlings
                    .iter()
                    .filter(|c| c.player.index() == p)
                    .collect()
            } else {
                Vec::new()
            };
            xbetza::describe(v.kind(k), &castlings, p == 1)
        };
        let mut out = Vec::new();
        for &(k, _, letter) in &self.entries[0] {
            let Some(white) = describe(0, k) else {
                continue;
            };
            let black_same = self.entries[1].iter().any(|&(bk, _, bl)| {
                bk == k
                    && bl.eq_ignore_ascii_case(&letter)
                    && describe(1, bk).as_deref() == Some(white.as_str())
            });
            let suffix = if black_same { "&" } else { "" };
            out.push(format!("piece {letter}{suffix} {white}"));
        }
        for &(k, _, letter) in &self.entries[1] {
            let Some(black) = describe(1, k) else {
                continue;
            };
            let covered = self.entries[0].iter().any(|&(wk, _, wl)| {
                wk == k
                    && wl.eq_ignore_ascii_case(&letter)
                    && describe(0, wk).as_deref() == Some(black.as_str())
            });
            if !covered {
                out.push(format!("piece {letter} {black}"));
            }
        }
        out
    }

    /// Our position string in XBoard's letters (board field translated, the rest kept).
    pub fn fen_to_xboard(&self, v: &Variant, fen: &str) -> Result<String, String> {
        self.translate_fen(fen, |c| {
            let p = if c.is_ascii_uppercase() {
                Player::WHITE
            } else {
                Player::BLACK
            };
            let k = v.kind_by_token(&c.to_string())?;
            self.letter(p, k)
        })
    }

    /// A position string in XBoard's letters translated to ours.
    pub fn fen_from_xboard(&self, v: &Variant, fen: &str) -> Result<String, String> {
        self.translate_fen(fen, |c| {
            let p = if c.is_ascii_uppercase() {
                Player::WHITE
            } else {
                Player::BLACK
            };
            let token = v.kind(self.kind(p, c)?).token.chars().next()?;
            Some(if p == Player::WHITE {
                token.to_ascii_uppercase()
            } else {
                token.to_ascii_lowercase()
            })
        })
    }

    fn translate_fen(
        &self,
        fen: &str,
        map: impl Fn(char) -> Option<char>,
    ) -> Result<String, String> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or("empty position string")?;
        let mut out = String::new();
        for c in board.chars() {
            if c.is_ascii_alphabetic() {
                out.push(map(c).ok_or_else(|| format!("unknown piece letter '{c}'"))?);
            } else {
                out.push(c);
            }
        }
        for f in fields {
            out.push(' ');
            out += f;
        }
        Ok(out)
    }

    /// A move string with the promotion letter (if any) in XBoard's letters. In 2D move
    /// strings only a promotion ends in a letter.
    pub fn move_to_xboard(&self, v: &Variant, mover: Player, mv: &str) -> String {
        let mut chars: Vec<char> = mv.chars().collect();
        let n = chars.len();
        if n >= 5 && chars[n - 1].is_ascii_alphabetic() && chars[n - 2].is_ascii_digit() {
            let token = chars[n - 1].to_ascii_uppercase().to_string();
            if let Some(letter) = v.kind_by_token(&token).and_then(|k| self.letter(mover, k)) {
                chars[n - 1] = letter.to_ascii_lowercase();
            }
        }
        chars.into_iter().collect()
    }

    /// A move string from XBoard with the promotion letter (if any) in our letters; `None`
    /// when the letter names no piece of this player in XBoard's table.
    pub fn move_from_xboard(&self, v: &Variant, mover: Player, mv: &str) -> Option<String> {
        let mut chars: Vec<char> = mv.chars().collect();
        let n = chars.len();
        if n >= 5 && chars[n - 1].is_ascii_alphabetic() && chars[n - 2].is_ascii_digit() {
            let k = self.kind(mover, chars[n - 1])?;
            chars[n - 1] = v.kind(k).token.chars().next()?.to_ascii_lowercase();
        }
        Some(chars.into_iter().collect())
    }
}

fn geometry(v: &Variant) -> String {
    format!("{}x{}+0_fairy", v.shape.files, v.shape.ranks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::by_name;

    #[test]
    fn fairy_max_table_matches_its_setup_string() {
        let v = by_name("cwda-nutty-rookies").unwrap();
        let x = XBoardPieces::fairy_max(&v).unwrap();
        assert_eq!(
            x.piece_to_char(),
            "P...........H.T.C...UKp.............w.mh.s.k"
        );
        let fen = x.fen_to_xboard(&v, &v.start_position).unwrap();
        assert_eq!(
            fen,
            "swhmkhws/pppppppp/8/8/8/8/PPPPPPPP/THUCKUHT w KQkq - 0 1"
        );
        assert_eq!(x.fen_from_xboard(&v, &fen).unwrap(), v.start_position);
        // White's Fibnif is 'h', Black's Half Duck is 'h' too: the mover decides.
        assert_eq!(
            x.move_from_xboard(&v, Player::WHITE, "a7a8h").unwrap(),
            "a7a8i"
        );
        assert_eq!(
            x.move_from_xboard(&v, Player::BLACK, "a2a1h").unwrap(),
            "a2a1f"
        );
        assert_eq!(x.move_from_xboard(&v, Player::WHITE, "a7a8i"), None);
        assert_eq!(x.move_to_xboard(&v, Player::BLACK, "a2a1e"), "a2a1m");
    }

    #[test]
    fn native_letters_keep_ours() {
        let v = by_name("cwda-clobberers-nutty").unwrap();
        let present = |p: usize| {
            let army = Army::from_name(&v.armies[p]).unwrap();
            let mut ks: Vec<Kind> = army
                .letters()
                .iter()
                .map(|c| v.kind_by_token(&c.to_string()).unwrap())
                .collect();
            ks.extend([v.kind_by_token("K").unwrap(), v.kind_by_token("P").unwrap()]);
            ks
        };
        let x = XBoardPieces::native(&v, [present(0), present(1)]).unwrap();
        // Our letters sit in the slots XBoard's default table gives them.
        assert_eq!(
            x.piece_to_char(),
            "P......ACW......D....Kp..........ohi.g.....k"
        );
    }

    #[test]
    fn unshowable_variants_are_refused() {
        let mut v = by_name("chess").unwrap();
        v.orientations.push(v.orientations[0]);
        v.orientations.push(v.orientations[0]);
        assert_eq!(check_showable(&v), Err(ShowError::Players(4)));
    }
}
