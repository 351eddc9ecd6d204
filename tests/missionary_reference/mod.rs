//! A deliberately simple reference move generator for the Missionary variants, written from
//! the Missionary rules alone (section 4 of the specification, docs/rules.md): plain loops
//! over a cell array, pieces described by the words of the rules table, legality by making
//! the move and scanning every enemy piece. It shares nothing with the engine's tables,
//! legality or promotion data, so the two can be compared.

use std::collections::HashMap;

pub const FILES: i32 = 6;
pub const RANKS: i32 = 8;
pub const LEVELS: i32 = 6;

/// (level, filestack, rank) with u=0, a=0, rank 1 = 0.
pub type Coord = (i32, i32, i32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Man {
    pub white: bool,
    /// Upper-case token, e.g. `Q`, `+W`, `P`.
    pub token: &'static str,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub cells: HashMap<Coord, Man>,
    /// Per side (0 White, 1 Black): token -> count.
    pub hands: [HashMap<&'static str, u32>; 2],
    pub white_to_move: bool,
}

pub const TOKENS: [&str; 27] = [
    "Q", "+Q", "+I", "I", "D", "+D", "+C", "C", "R", "+R", "+W", "W", "G", "+G", "+S", "S", "B",
    "+B", "+M", "M", "U", "+U", "+H", "H", "K", "P", "+P",
];

pub fn token(s: &str) -> &'static str {
    TOKENS
        .iter()
        .find(|t| t.eq_ignore_ascii_case(s))
        .unwrap_or_else(|| panic!("unknown token {s}"))
}

/// The rules table of docs/rules.md 4.2 in words: (token, slides, single steps). Words: `orth`,
/// `SD`, `ND` for all directions of a class, `f` prefix for its forward ones.
const MOVES: [(&str, &str, &str); 24] = [
    ("Q", "orth SD", ""),
    ("+Q", "orth SD", "ND"),
    ("+I", "", "orth SD fND"),
    ("I", "forth fSD", ""),
    ("D", "orth ND", ""),
    ("+D", "orth ND", "SD"),
    ("+C", "", "orth ND fSD"),
    ("C", "forth fND", ""),
    ("R", "orth", ""),
    ("+R", "orth", "SD ND"),
    ("+W", "", "orth fSD fND"),
    ("W", "forth", ""),
    ("G", "SD ND", ""),
    ("+G", "SD ND", "orth"),
    ("+S", "", "SD ND forth"),
    ("S", "fSD fND", ""),
    ("B", "SD", ""),
    ("+B", "SD", "orth ND"),
    ("+M", "", "SD forth fND"),
    ("M", "fSD", ""),
    ("U", "ND", ""),
    ("+U", "ND", "orth SD"),
    ("+H", "", "ND forth fSD"),
    ("H", "fND", ""),
];

/// All 26 unit vectors as (dL, dF, dR).
fn units() -> Vec<Coord> {
    let mut v = Vec::new();
    for dl in -1..=1 {
        for df in -1..=1 {
            for dr in -1..=1 {
                if (dl, df, dr) != (0, 0, 0) {
                    v.push((dl, df, dr));
                }
            }
        }
    }
    v
}

fn class(d: Coord) -> usize {
    (d.0 != 0) as usize + (d.1 != 0) as usize + (d.2 != 0) as usize
}

/// Directions named by a words string, for a side (forward = +rank for White).
fn dirs(words: &str, white: bool) -> Vec<Coord> {
    let fwd = if white { 1 } else { -1 };
    let mut out = Vec::new();
    for w in words.split_whitespace() {
        let (forward_only, name) = match w.strip_prefix('f') {
            Some(n) => (true, n),
            None => (false, w),
        };
        let c = match name {
            "orth" => 1,
            "SD" => 2,
            "ND" => 3,
            _ => panic!("bad word {w}"),
        };
        for d in units() {
            if class(d) == c && (!forward_only || d.2 == fwd) && !out.contains(&d) {
                out.push(d);
            }
        }
    }
    out
}

pub fn ring(c: Coord) -> i32 {
    // max(|L - 2.5|, |F - 2.5|) - 0.5, in integers.
    ((2 * c.0 - 5).abs().max((2 * c.1 - 5).abs()) - 1) / 2
}

fn on_board(c: Coord) -> bool {
    (0..LEVELS).contains(&c.0) && (0..FILES).contains(&c.1) && (0..RANKS).contains(&c.2)
}

fn add(a: Coord, d: Coord) -> Coord {
    (a.0 + d.0, a.1 + d.1, a.2 + d.2)
}

pub fn name(c: Coord) -> String {
    format!(
        "{}{}{}",
        (b'u' + c.0 as u8) as char,
        (b'a' + c.1 as u8) as char,
        c.2 + 1
    )
}

/// A pseudo-legal move before promotion choices: from (None for drops), to, token.
#[derive(Clone, Debug)]
pub struct RefMove {
    pub from: Option<Coord>,
    pub to: Coord,
    pub token: &'static str,
    pub promote: bool,
}

impl RefMove {
    pub fn text(&self) -> String {
        match self.from {
            None => format!("{}@{}", self.token, name(self.to)),
            Some(f) => format!(
                "{}{}{}",
                name(f),
                name(self.to),
                if self.promote { "+" } else { "" }
            ),
        }
    }
}

/// The Stockbroker's single steps along `dr` (its forward rank direction, or the reverse
/// for the Stockbwaiter): (target, may move there, may capture there).
fn broker_steps(from: Coord, dr: i32) -> Vec<(Coord, bool, bool)> {
    let mut out = Vec::new();
    for d in units().into_iter().filter(|d| d.2 == dr) {
        let to = add(from, d);
        if !on_board(to) {
            continue;
        }
        let same_ring = ring(from) == ring(to);
        match class(d) {
            1 => out.push((to, true, false)),
            2 => out.push((to, same_ring, !same_ring)),
            _ => out.push((to, false, true)),
        }
    }
    out
}

/// Every cell `man` on `from` reaches: (target, may move there, may capture there).
pub fn reach(b: &Board, from: Coord, man: Man) -> Vec<(Coord, bool, bool)> {
    let fwd = if man.white { 1 } else { -1 };
    match man.token {
        "K" => units()
            .into_iter()
            .map(|d| add(from, d))
            .filter(|&t| on_board(t))
            .map(|t| (t, true, true))
            .collect(),
        "P" => broker_steps(from, fwd),
        "+P" => {
            let mut out = broker_steps(from, fwd);
            out.extend(broker_steps(from, -fwd));
            for d in units().into_iter().filter(|d| d.2 == 0) {
                let to = add(from, d);
                if on_board(to) && (class(d) == 2 || ring(to) != ring(from)) {
                    out.push((to, true, false));
                }
            }
            out
        }
        tok => {
            let (_, slides, steps) = MOVES.iter().find(|m| m.0 == tok).unwrap();
            let mut out = Vec::new();
            for d in dirs(slides, man.white) {
                let mut c = add(from, d);
                while on_board(c) {
                    out.push((c, true, true));
                    if b.cells.contains_key(&c) {
                        break;
                    }
                    c = add(c, d);
                }
            }
            for d in dirs(steps, man.white) {
                let c = add(from, d);
                if on_board(c) {
                    out.push((c, true, true));
                }
            }
            out
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sub {
    Missionary,
    Missiogi,
    Frontofhouse,
}

/// Family letters: (symmetric, forward-only).
const FAMILIES: [(&str, &str); 6] = [
    ("Q", "I"),
    ("D", "C"),
    ("R", "W"),
    ("G", "S"),
    ("B", "M"),
    ("U", "H"),
];

fn plus(t: &str) -> &'static str {
    token(&format!("+{t}"))
}

/// docs/rules.md 4.4: what the piece promotes to in the subvariant.
pub fn promotion(sub: Sub, t: &str) -> Option<&'static str> {
    if t == "P" {
        return Some("+P");
    }
    for (s, f) in FAMILIES {
        if t == s {
            return (sub == Sub::Missiogi).then(|| plus(s));
        }
        if t == f {
            return Some(if sub == Sub::Frontofhouse {
                token(s)
            } else {
                plus(f)
            });
        }
    }
    None
}

/// docs/rules.md 4.4: what a capture of `t` puts into the captor's hand.
pub fn to_hand(sub: Sub, t: &str) -> Option<&'static str> {
    if t == "P" || t == "+P" {
        return Some("P");
    }
    for (s, f) in FAMILIES {
        let (sym, crowned, general, fo) = (token(s), plus(s), plus(f), token(f));
        if t == fo {
            return Some(fo);
        }
        if t == sym || t == crowned || t == general {
            return match sub {
                Sub::Missionary => None,
                Sub::Missiogi if t == crowned => Some(sym),
                Sub::Missiogi => Some(token(t)),
                Sub::Frontofhouse => Some(fo),
            };
        }
    }
    None
}

fn stuck_on_last_rank(t: &str) -> bool {
    t == "P" || FAMILIES.iter().any(|&(_, f)| f == t)
}

fn last_rank(white: bool) -> i32 {
    if white {
        RANKS - 1
    } else {
        0
    }
}

fn in_zone(white: bool, rank: i32) -> bool {
    if white {
        rank >= RANKS - 3
    } else {
        rank < 3
    }
}

impl Board {
    fn side(&self) -> usize {
        if self.white_to_move {
            0
        } else {
            1
        }
    }

    /// Pseudo-legal moves of the side to move, promotion choices expanded.
    pub fn pseudo(&self, sub: Sub) -> Vec<RefMove> {
        let white = self.white_to_move;
        let mut out = Vec::new();
        for (&from, &man) in &self.cells {
            if man.white != white {
                continue;
            }
            for (to, moves, captures) in reach(self, from, man) {
                let ok = match self.cells.get(&to) {
                    None => moves,
                    Some(o) => captures && o.white != white,
                };
                if !ok {
                    continue;
                }
                let promo = promotion(sub, man.token);
                let zone = in_zone(white, from.2) || in_zone(white, to.2);
                let must = stuck_on_last_rank(man.token) && to.2 == last_rank(white);
                if !must {
                    out.push(RefMove {
                        from: Some(from),
                        to,
                        token: man.token,
                        promote: false,
                    });
                }
                if promo.is_some() && zone {
                    out.push(RefMove {
                        from: Some(from),
                        to,
                        token: man.token,
                        promote: true,
                    });
                }
            }
        }
        for (&t, &n) in &self.hands[self.side()] {
            if n == 0 {
                continue;
            }
            for l in 0..LEVELS {
                for f in 0..FILES {
                    for r in 0..RANKS {
                        let c = (l, f, r);
                        if self.cells.contains_key(&c)
                            || (stuck_on_last_rank(t) && r == last_rank(white))
                        {
                            continue;
                        }
                        out.push(RefMove {
                            from: None,
                            to: c,
                            token: t,
                            promote: false,
                        });
                    }
                }
            }
        }
        out
    }

    pub fn make(&self, sub: Sub, m: &RefMove) -> Board {
        let mut b = self.clone();
        let white = self.white_to_move;
        let side = self.side();
        match m.from {
            None => {
                *b.hands[side].get_mut(m.token).unwrap() -= 1;
                b.cells.insert(
                    m.to,
                    Man {
                        white,
                        token: m.token,
                    },
                );
            }
            Some(from) => {
                b.cells.remove(&from);
                if let Some(victim) = b.cells.remove(&m.to) {
                    if let Some(h) = to_hand(sub, victim.token) {
                        *b.hands[side].entry(h).or_insert(0) += 1;
                    }
                }
                let token = if m.promote {
                    promotion(sub, m.token).unwrap()
                } else {
                    m.token
                };
                b.cells.insert(m.to, Man { white, token });
            }
        }
        b.white_to_move = !white;
        b
    }

    /// Whether the Emperor of `white` is attacked by any enemy piece.
    pub fn in_check(&self, white: bool) -> bool {
        let Some((&king, _)) = self
            .cells
            .iter()
            .find(|(_, m)| m.white == white && m.token == "K")
        else {
            return false;
        };
        self.cells
            .iter()
            .filter(|(_, m)| m.white != white)
            .any(|(&c, &m)| self.attacks(c, m, king))
    }

    /// Whether `man` on `from` could capture on `target`.
    fn attacks(&self, from: Coord, man: Man, target: Coord) -> bool {
        let delta = (target.0 - from.0, target.1 - from.1, target.2 - from.2);
        let steps = delta.0.abs().max(delta.1.abs()).max(delta.2.abs());
        if steps == 0 {
            return false;
        }
        if matches!(man.token, "K" | "P" | "+P") {
            return steps == 1
                && reach(self, from, man)
                    .iter()
                    .any(|&(t, _, captures)| captures && t == target);
        }
        let (_, slides, step_words) = MOVES.iter().find(|m| m.0 == man.token).unwrap();
        if steps == 1 && dirs(step_words, man.white).contains(&delta) {
            return true;
        }
        // A slide needs the displacement to be a whole number of unit steps along one line.
        let along = [delta.0, delta.1, delta.2]
            .iter()
            .all(|&v| v == 0 || v.abs() == steps);
        if !along {
            return false;
        }
        let d = (delta.0 / steps, delta.1 / steps, delta.2 / steps);
        if !dirs(slides, man.white).contains(&d) {
            return false;
        }
        (1..steps).all(|i| {
            !self
                .cells
                .contains_key(&(from.0 + i * d.0, from.1 + i * d.1, from.2 + i * d.2))
        })
    }

    pub fn legal(&self, sub: Sub) -> Vec<RefMove> {
        let white = self.white_to_move;
        self.pseudo(sub)
            .into_iter()
            .filter(|m| !self.make(sub, m).in_check(white))
            .collect()
    }

    pub fn perft(&self, sub: Sub, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal(sub);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| self.make(sub, m).perft(sub, depth - 1))
            .sum()
    }
}

const HAND_ORDER: [&str; 19] = [
    "Q", "D", "R", "G", "B", "U", "+I", "+C", "+W", "+S", "+M", "+H", "I", "C", "W", "S", "M", "H",
    "P",
];

/// The kinds that can be held, in the print order of docs/rules.md 4.4.
pub fn hand_tokens() -> [&'static str; 19] {
    HAND_ORDER
}

pub fn may_stand(man: Man, c: Coord) -> bool {
    !(stuck_on_last_rank(man.token) && c.2 == last_rank(man.white))
}

/// The position string of docs/rules.md 4.3, written independently of the engine.
pub fn position_string(b: &Board, halfmove: u32, fullmove: u32) -> String {
    let cased = |m: &Man| {
        if m.white {
            m.token.to_string()
        } else {
            m.token.to_ascii_lowercase()
        }
    };
    let mut levels = Vec::new();
    for l in 0..LEVELS {
        let mut ranks = Vec::new();
        for r in (0..RANKS).rev() {
            let mut s = String::new();
            let mut gap = 0;
            for f in 0..FILES {
                match b.cells.get(&(l, f, r)) {
                    None => gap += 1,
                    Some(m) => {
                        if gap > 0 {
                            s += &gap.to_string();
                            gap = 0;
                        }
                        s += &cased(m);
                    }
                }
            }
            if gap > 0 {
                s += &gap.to_string();
            }
            ranks.push(s);
        }
        levels.push(ranks.join("/"));
    }
    let mut held = String::new();
    for (side, white) in [(0, true), (1, false)] {
        for t in HAND_ORDER {
            for _ in 0..b.hands[side].get(t).copied().unwrap_or(0) {
                held += &cased(&Man { white, token: t });
            }
        }
    }
    format!(
        "{}[{}] {} - - {} {}",
        levels.join("|"),
        held,
        if b.white_to_move { 'w' } else { 'b' },
        halfmove,
        fullmove
    )
}
