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
/// The table length every XBoard version reads. XBoard 4.9 reads longer tables, up to
/// `MAX_SLOTS` per player (checked with XBoard 4.9.1); the King is always the last slot.
const SLOTS: usize = 22;
const MAX_SLOTS: usize = 44;
const PAWN_SLOT: usize = 0;
const DEFAULT_KING_SLOT: usize = SLOTS - 1;

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
    /// Slots per player in the piece-to-char table; the last one is XBoard's King.
    slots: usize,
    /// `8x8+0_fairy`: board size, holdings and the parent variant.
    geometry: String,
}

impl XBoardPieces {
    /// Our own letters. `present` lists, per player, the kinds that can appear (start
    /// position, promotions, type changes).
    pub fn native(v: &Variant, present: [Vec<Kind>; 2]) -> Result<XBoardPieces, ShowError> {
        check_showable(v)?;
        let present = present.map(|mut kinds| {
            kinds.sort();
            kinds.dedup();
            kinds
        });
        let slots = present.iter().map(Vec::len).max().unwrap_or(0).max(SLOTS);
        if slots > MAX_SLOTS {
            return Err(ShowError::TooManyKinds);
        }
        let mut entries: [Vec<(Kind, usize, char)>; 2] = [Vec::new(), Vec::new()];
        for (p, kinds) in present.into_iter().enumerate() {
            let lettered = kinds
                .into_iter()
                .map(|k| Ok((k, single_letter(v, k)?)))
                .collect::<Result<Vec<_>, ShowError>>()?;
            let lettered = avoid_capture_mark(lettered)?;
            for (k, slot, letter) in assign_slots(v, lettered, slots)? {
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
            slots,
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
            entries[p].push((king, DEFAULT_KING_SLOT, case('k')));
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
            slots: SLOTS,
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

    /// The piece-to-char table: White's slots then Black's, `.` where unused.
    pub fn piece_to_char(&self) -> String {
        let mut out = String::new();
        for side in &self.entries {
            let mut row = vec!['.'; self.slots];
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
        // Only the royals that start the game can castle (castling needs an unmoved King;
        // in Cyclical Armies the King that moves becomes another royal kind).
        let start = start_kinds(v);
        let describe = |p: usize, k: Kind| {
            let castlings: Vec<&Castling> = if v.kind(k).royal && start[p].contains(&k) {
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

    /// A move string in XBoard's letters: the promotion letter (in 2D move strings only a
    /// promotion ends in a letter) translated, or, for a piece that arrives as another kind
    /// (`arrival`, Cyclical Armies), that kind's letter appended as if it were a promotion.
    /// With legality testing off XBoard applies such a suffix to any piece, so its board
    /// follows the type changes.
    pub fn move_to_xboard(
        &self,
        v: &Variant,
        mover: Player,
        mv: &str,
        arrival: Option<Kind>,
    ) -> String {
        if let Some((bare, token)) = split_suffix(mv) {
            let token = token.to_ascii_uppercase().to_string();
            if let Some(letter) = v.kind_by_token(&token).and_then(|k| self.letter(mover, k)) {
                return format!("{bare}{}", letter.to_ascii_lowercase());
            }
            return mv.to_string();
        }
        match arrival.and_then(|k| self.letter(mover, k)) {
            Some(letter) => format!("{mv}{}", letter.to_ascii_lowercase()),
            None => mv.to_string(),
        }
    }

    /// A move string from XBoard with the promotion letter (if any) in our letters; `None`
    /// when the letter names no piece of this player in XBoard's table.
    pub fn move_from_xboard(&self, v: &Variant, mover: Player, mv: &str) -> Option<String> {
        if split_suffix(mv).is_none() {
            return Some(mv.to_string());
        }
        let (bare, k) = self.split_arrival(mover, mv)?;
        let token = v.kind(k).token.chars().next()?.to_ascii_lowercase();
        Some(format!("{bare}{token}"))
    }

    /// A move from XBoard split into the bare move and the kind its suffix letter names (a
    /// promotion choice, or the kind a piece arrives as, see `move_to_xboard`).
    pub fn split_arrival<'a>(&self, mover: Player, mv: &'a str) -> Option<(&'a str, Kind)> {
        let (bare, letter) = split_suffix(mv)?;
        Some((bare, self.kind(mover, letter)?))
    }
}

/// A 2D move string split before its final letter, if it ends in one after a rank digit.
fn split_suffix(mv: &str) -> Option<(&str, char)> {
    let mut chars = mv.chars().rev();
    let (last, before) = (chars.next()?, chars.next()?);
    (mv.len() >= 5 && last.is_ascii_alphabetic() && before.is_ascii_digit())
        .then(|| (&mv[..mv.len() - 1], last))
}

/// Kinds each player has in the start position (only Black's letters are lower case).
fn start_kinds(v: &Variant) -> [Vec<Kind>; 2] {
    let mut out: [Vec<Kind>; 2] = [Vec::new(), Vec::new()];
    let board = v.start_position.split_whitespace().next().unwrap_or("");
    for c in board.chars().filter(|c| c.is_ascii_alphabetic()) {
        if let Some(k) = v.kind_by_token(&c.to_string()) {
            out[usize::from(c.is_ascii_lowercase())].push(k);
        }
    }
    out
}

/// Kinds each player can have: those on the board at the start and what they can become by
/// promotion or by moving (Cyclical Armies). A rule for a kind the player never has, such as
/// the Lance's in a SwDA game without the Jostlers, adds nothing.
pub fn present_kinds(v: &Variant) -> [Vec<Kind>; 2] {
    let mut out = start_kinds(v);
    for (p, kinds) in out.iter_mut().enumerate() {
        let player = Player(p as u8);
        // Every kind reached is followed in turn, so chains of changes are complete.
        let mut i = 0;
        while i < kinds.len() {
            let k = kinds[i];
            let promoted = v
                .promotions
                .iter()
                .filter(|r| r.player == player && r.kind == k)
                .flat_map(|r| r.choices.iter().copied());
            let next_kinds: Vec<Kind> = promoted.chain([v.morph_of(player, k)]).collect();
            for next in next_kinds {
                if !kinds.contains(&next) {
                    kinds.push(next);
                }
            }
            i += 1;
        }
    }
    out
}

/// A kind's letter (upper case); XBoard knows pieces by single letters only.
fn single_letter(v: &Variant, k: Kind) -> Result<char, ShowError> {
    let token = &v.kind(k).token;
    let mut chars = token.chars();
    match (chars.next(), chars.next()) {
        (Some(letter), None) if letter.is_ascii_alphabetic() => Ok(letter.to_ascii_uppercase()),
        _ => Err(ShowError::Token(token.clone())),
    }
}

/// XBoard reads an `x` after a move's squares as a capture mark, not as a promotion suffix
/// (checked with XBoard 4.9.1), so `X` cannot name a promotion choice or the type a piece
/// arrives as: a kind lettered `X` takes the first letter none of the player's kinds uses.
fn avoid_capture_mark(mut kinds: Vec<(Kind, char)>) -> Result<Vec<(Kind, char)>, ShowError> {
    if let Some(i) = kinds.iter().position(|&(_, letter)| letter == 'X') {
        let free = ('A'..='Z')
            .find(|&c| c != 'X' && kinds.iter().all(|&(_, letter)| letter != c))
            .ok_or(ShowError::TooManyKinds)?;
        kinds[i].1 = free;
    }
    Ok(kinds)
}

/// XBoard's pictures of standard pieces (slots of its default table), by the XBetza
/// description of their moves: a kind that moves like one is drawn as it, whatever its
/// letter (Cyclical's Archbishop `c` as XBoard's Archbishop, not its Chancellor `C`).
const PICTURES: [(&str, usize); 10] = [
    ("N", 1),
    ("B", 2),
    ("R", 3),
    ("Q", 4),
    ("F", 5),
    ("A", 6),
    ("BN", 7),
    ("RN", 8),
    ("W", 9),
    ("K", 10),
];

/// Gives each of a player's kinds a table slot. XBoard draws a slot with its own picture and
/// treats two specially (Pawn: e.p., promotion; King: castling). Kinds take, in turn of
/// preference: the Pawn's slot (the first pawn) or the King's (the first royal); the slot of
/// the standard piece they move like (not royals or pawns); the slot of their letter in
/// XBoard's default table, unless it pictures a standard piece; a free slot, preferring those
/// that picture no standard piece.
fn assign_slots(
    v: &Variant,
    mut kinds: Vec<(Kind, char)>,
    slots: usize,
) -> Result<Vec<(Kind, usize, char)>, ShowError> {
    let king_slot = slots - 1;
    kinds.sort_by_key(|&(k, _)| (!v.kind(k).pawn, !v.kind(k).royal, k));
    let special = |k: Kind| {
        let def = v.kind(k);
        if def.pawn {
            Some(PAWN_SLOT)
        } else if def.royal {
            Some(king_slot)
        } else {
            None
        }
    };
    let ordinary = |k: Kind| !v.kind(k).pawn && !v.kind(k).royal;
    let by_moves = |k: Kind| {
        let moves = xbetza::describe(v.kind(k), &[], false)?;
        PICTURES.iter().find(|(m, _)| *m == moves).map(|&(_, s)| s)
    };
    let standard = |slot: usize| PICTURES.iter().any(|&(_, s)| s == slot);
    // A standard piece's picture goes only to a kind that moves like it.
    let by_letter = |letter: char| {
        DEFAULT_TABLE
            .find(letter)
            .filter(|&s| s != PAWN_SLOT && s != DEFAULT_KING_SLOT && !standard(s))
    };
    // XBoard reads the castling field `KQkq` of a position string as "the outermost piece of
    // its Rook type on that side" and drops the right when there is none; so a castling
    // partner that moves otherwise (an army from a file, the Nutty Knights' Charging Rook)
    // takes the Rook's type unless a true Rook has it, or XBoard's position strings and
    // PGN lose the rights. Its own letter and `piece` line still say what it is.
    let partners = castling_partners(v);
    let by_castling = |k: Kind| partners.contains(&k).then_some(ROOK_SLOT);
    let mut used = vec![false; slots];
    let mut slot_of: Vec<Option<usize>> = vec![None; kinds.len()];
    let preferences: [&dyn Fn(Kind, char) -> Option<usize>; 4] = [
        &|k, _| special(k),
        &|k, _| by_moves(k).filter(|_| ordinary(k)),
        &|k, _| by_castling(k).filter(|_| ordinary(k)),
        &|_, letter| by_letter(letter),
    ];
    // Free slots for the rest, those that picture no standard piece first.
    let mut free_order: Vec<usize> = (1..king_slot).collect();
    free_order.sort_by_key(|&s| standard(s));
    for prefer in preferences {
        for (i, &(k, letter)) in kinds.iter().enumerate() {
            if slot_of[i].is_some() {
                continue;
            }
            if let Some(s) = prefer(k, letter).filter(|&s| !used[s]) {
                used[s] = true;
                slot_of[i] = Some(s);
            }
        }
    }
    let mut out = Vec::with_capacity(kinds.len());
    for (i, (k, letter)) in kinds.into_iter().enumerate() {
        let slot = match slot_of[i] {
            Some(s) => s,
            None => {
                let s = free_order
                    .iter()
                    .copied()
                    .find(|&s| !used[s])
                    .ok_or(ShowError::TooManyKinds)?;
                used[s] = true;
                s
            }
        };
        out.push((k, slot, letter));
    }
    Ok(out)
}

/// XBoard's Rook type, the one its castling field looks for.
const ROOK_SLOT: usize = 3;

/// The kinds that stand on a castling's partner cell in the start position.
fn castling_partners(v: &Variant) -> Vec<Kind> {
    let board = v.start_position.split_whitespace().next().unwrap_or("");
    let rows: Vec<&str> = board.split('/').collect();
    let token_at = |x: i32, y: i32| -> Option<char> {
        let row = rows.get((v.shape.ranks as i32 - 1 - y) as usize)?;
        let (mut file, mut skip) = (0, 0);
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                skip = skip * 10 + d as i32;
                continue;
            }
            file += skip;
            skip = 0;
            if file == x {
                return Some(c);
            }
            file += 1;
        }
        None
    };
    v.castlings
        .iter()
        .filter_map(|c| {
            let (x, y, _) = v.shape.coords(c.partner_from);
            v.kind_by_token(&token_at(x, y)?.to_ascii_uppercase().to_string())
        })
        .collect()
}

fn geometry(v: &Variant) -> String {
    format!("{}x{}+0_fairy", v.shape.files, v.shape.ranks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::by_name;

    #[test]
    fn castling_partners_take_xboards_rook_type() {
        // The Nutty Knights' Charging Rook castles; XBoard finds castlings by its Rook type.
        let v = by_name("cwda-nutty-fide").unwrap();
        let x = XBoardPieces::native(&v, present_kinds(&v)).unwrap();
        let table: Vec<char> = x.piece_to_char().chars().collect();
        assert_eq!(table[ROOK_SLOT], 'G');
        assert_eq!(table[x.slots + ROOK_SLOT], 'r');
    }

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
        assert_eq!(x.move_to_xboard(&v, Player::BLACK, "a2a1e", None), "a2a1m");
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
        // The Archbishop `C` is drawn as XBoard's Archbishop; the castling partners (Bede `D`,
        // Charging Rook `G`) take XBoard's Rook type, which its castling rights need; the
        // others, which move like no standard piece, get pictures of no standard piece (by
        // letter where XBoard's default table has one: Colonel `O`, Fibnif `I`).
        assert_eq!(
            x.piece_to_char(),
            "P..D...C...WA........Kp..g.......ohi.......k"
        );
    }

    #[test]
    fn cyclical_armies_get_a_longer_table_and_arrival_suffixes() {
        let v = by_name("cyclical").unwrap();
        let x = XBoardPieces::native(&v, present_kinds(&v)).unwrap();
        // 24 kinds per side: XBoard 4.9's longer table, the King in its last slot, and the
        // Chinese Pawn lettered `L` since XBoard reads a move's `x` as a capture mark.
        // Archbishop `C` and Chancellor `E` get XBoard's pictures of those pieces.
        assert_eq!(
            x.piece_to_char(),
            "PNBRQWACEMFOHIJGDVLSUYTKpnbrqwacemfohijgdvlsuytk"
        );
        let chinese_pawn = v.kind_by_token("X").unwrap();
        assert_eq!(x.letter(Player::BLACK, chinese_pawn), Some('l'));
        let centaur = v.kind_by_token("U").unwrap();
        assert_eq!(
            x.move_to_xboard(&v, Player::WHITE, "e1g1", Some(centaur)),
            "e1g1u"
        );
        assert_eq!(
            x.move_to_xboard(&v, Player::BLACK, "b2b1q", Some(chinese_pawn)),
            "b2b1q",
            "a promotion keeps its own letter"
        );
        assert_eq!(
            x.split_arrival(Player::BLACK, "c5c4l"),
            Some(("c5c4", chinese_pawn))
        );
        assert_eq!(x.split_arrival(Player::WHITE, "c5c4"), None);
        assert_eq!(x.split_arrival(Player::WHITE, "c5c4z"), None);
    }

    #[test]
    fn unshowable_variants_are_refused() {
        let mut v = by_name("chess").unwrap();
        v.orientations.push(v.orientations[0]);
        v.orientations.push(v.orientations[0]);
        assert_eq!(check_showable(&v), Err(ShowError::Players(4)));
    }
}
