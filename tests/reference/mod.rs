//! A deliberately simple reference move generator for the 2D two-player games (CwDA,
//! Cyclical Armies, SwDA), for differential tests against the fast generator.
//!
//! It reads only the variant's data (piece atoms, promotions, castlings, morphs, royal rule)
//! and works on its own mailbox with plain loops over cells: no bitsets, no compiled tables,
//! no pins. Legality is make-and-test: make the move on a copy and scan every enemy piece's
//! moves for an attack on the royals that the royal rule protects.

#![allow(dead_code)]

use panoply::geometry::{Cell, Vec3};
use panoply::piece::{Atom, Kind, LeapCondition, Player};
use panoply::variant::{RoyalRule, Variant};

/// What a reference move does beyond moving one piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Special {
    None,
    DoubleStep,
    EnPassant,
    Castle(u8),
}

/// A move as the reference sees it: from, to, promotion kind, special.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefMove {
    pub from: u16,
    pub to: u16,
    pub promotion: Option<u8>,
    pub special: Special,
}

/// The board: one entry per cell, (player, kind).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub cells: Vec<Option<(u8, u8)>>,
    pub side: u8,
    /// Bit i: `variant.castlings[i]` is still allowed.
    pub castling: u8,
    /// (skipped cell, cell of the piece to remove)
    pub ep: Option<(u16, u16)>,
    pub halfmove: u16,
}

pub struct Reference<'a> {
    pub v: &'a Variant,
    files: i32,
    ranks: i32,
}

impl<'a> Reference<'a> {
    pub fn new(v: &'a Variant) -> Self {
        assert_eq!(v.shape.levels, 1, "the reference is 2D only");
        assert_eq!(v.players(), 2, "the reference is for two players");
        Reference {
            v,
            files: v.shape.files as i32,
            ranks: v.shape.ranks as i32,
        }
    }

    fn xy(&self, c: u16) -> (i32, i32) {
        (c as i32 % self.files, c as i32 / self.files)
    }

    fn at(&self, x: i32, y: i32) -> Option<u16> {
        (0..self.files)
            .contains(&x)
            .then_some(())
            .filter(|_| (0..self.ranks).contains(&y))
            .map(|_| (x + y * self.files) as u16)
    }

    /// A vector of the piece's own frame turned for `player` (Black looks down the board).
    fn turn(&self, player: u8, v: Vec3) -> (i32, i32) {
        let o = self.v.orientations[player as usize];
        let x = if o.flip_x { -v.x } else { v.x };
        let y = if o.flip_y { -v.y } else { v.y };
        (x as i32, y as i32)
    }

    fn offset(&self, c: u16, d: (i32, i32)) -> Option<u16> {
        let (x, y) = self.xy(c);
        self.at(x + d.0, y + d.1)
    }

    /// The rank of `c` counted from `player`'s own side (0 = its first rank).
    fn own_rank(&self, player: u8, c: u16) -> i32 {
        let y = self.xy(c).1;
        if self.v.orientations[player as usize].flip_y {
            self.ranks - 1 - y
        } else {
            y
        }
    }

    fn condition_holds(&self, when: LeapCondition, player: u8, from: u16) -> bool {
        match when {
            LeapCondition::Always => true,
            LeapCondition::FarHalf => 2 * self.own_rank(player, from) >= self.ranks,
            other => panic!("the 2D reference does not know {other:?}"),
        }
    }

    /// Cells a piece on `from` reaches: (target, may move there, may capture there), walking
    /// every atom of its kind on board `b`.
    fn reach(&self, b: &RefBoard, from: u16) -> Vec<(u16, bool, bool)> {
        let (player, kind) = b.cells[from as usize].expect("a piece");
        let mut out = Vec::new();
        for atom in &self.v.pieces[kind as usize].atoms {
            match *atom {
                Atom::Leap { to, mode, when } => {
                    if let Some(t) = self.offset(from, self.turn(player, to)) {
                        if self.condition_holds(when, player, from) {
                            out.push((t, mode.moves(), mode.captures()));
                        }
                    }
                }
                Atom::Slide { step, max, mode } => {
                    let d = self.turn(player, step);
                    let mut cur = from;
                    let mut n = 0;
                    while let Some(t) = self.offset(cur, d) {
                        n += 1;
                        if max > 0 && n > max {
                            break;
                        }
                        out.push((t, mode.moves(), mode.captures()));
                        if b.cells[t as usize].is_some() {
                            break;
                        }
                        cur = t;
                    }
                }
                Atom::Lame { via, to, mode } => {
                    let via = self.offset(from, self.turn(player, via));
                    let t = self.offset(from, self.turn(player, to));
                    if let (Some(via), Some(t)) = (via, t) {
                        if b.cells[via as usize].is_none() {
                            out.push((t, mode.moves(), mode.captures()));
                        }
                    }
                }
                Atom::Bent { .. } => panic!("the 2D reference has no bent moves"),
            }
        }
        out
    }

    /// Whether any piece of `by` could capture on `cell` (brute force over the board).
    pub fn attacked(&self, b: &RefBoard, cell: u16, by: u8) -> bool {
        (0..b.cells.len() as u16).any(|c| {
            b.cells[c as usize].is_some_and(|(p, _)| p == by)
                && self
                    .reach(b, c)
                    .iter()
                    .any(|&(t, _, captures)| captures && t == cell)
        })
    }

    pub fn royals(&self, b: &RefBoard, player: u8) -> Vec<u16> {
        (0..b.cells.len() as u16)
            .filter(|&c| {
                b.cells[c as usize]
                    .is_some_and(|(p, k)| p == player && self.v.pieces[k as usize].royal)
            })
            .collect()
    }

    /// The royals the royal rule protects right now.
    fn protected_royals(&self, b: &RefBoard, player: u8) -> Vec<u16> {
        let royals = self.royals(b, player);
        match self.v.royal_rule {
            RoyalRule::Each => royals,
            RoyalRule::LoneRoyalOnly if royals.len() == 1 => royals,
            RoyalRule::LoneRoyalOnly => Vec::new(),
        }
    }

    pub fn in_check(&self, b: &RefBoard, player: u8) -> bool {
        self.protected_royals(b, player)
            .into_iter()
            .any(|r| self.attacked(b, r, 1 - player))
    }

    fn with_promotions(&self, b: &RefBoard, from: u16, to: u16, out: &mut Vec<RefMove>) {
        let (player, kind) = b.cells[from as usize].unwrap();
        let plain = RefMove {
            from,
            to,
            promotion: None,
            special: Special::None,
        };
        let rule = self.v.promotion_for(Player(player), Kind(kind)).map(|r| {
            let has = |cells: &[Cell]| cells.iter().any(|c| c.0 == to);
            let from_zone = r.may_from.iter().any(|c| c.0 == from);
            (r, has(&r.must_to), has(&r.may_to) || from_zone)
        });
        match rule {
            Some((r, must, may)) if must || may => {
                if !must {
                    out.push(plain);
                }
                for &k in &r.choices {
                    out.push(RefMove {
                        promotion: Some(k.0),
                        ..plain
                    });
                }
            }
            _ => out.push(plain),
        }
    }

    /// Every move of the side to move, before the royal test.
    pub fn pseudo_moves(&self, b: &RefBoard) -> Vec<RefMove> {
        let us = b.side;
        let mut out = Vec::new();
        for from in 0..b.cells.len() as u16 {
            let Some((p, kind)) = b.cells[from as usize] else {
                continue;
            };
            if p != us {
                continue;
            }
            let def = &self.v.pieces[kind as usize];
            for (to, moves, captures) in self.reach(b, from) {
                let ok = match b.cells[to as usize] {
                    None => moves,
                    Some((q, _)) => captures && q != us,
                };
                if ok {
                    self.with_promotions(b, from, to, &mut out);
                }
            }
            let initial = self
                .v
                .double_step_cells
                .get(us as usize)
                .is_some_and(|cs| cs.iter().any(|c| c.0 == from));
            if initial {
                for &step in &def.double_steps {
                    let d = self.turn(us, step);
                    let skipped = self.offset(from, d);
                    let to = skipped.and_then(|s| self.offset(s, d));
                    if let (Some(s), Some(t)) = (skipped, to) {
                        if b.cells[s as usize].is_none() && b.cells[t as usize].is_none() {
                            out.push(RefMove {
                                from,
                                to: t,
                                promotion: None,
                                special: Special::DoubleStep,
                            });
                        }
                    }
                }
            }
            if let (true, Some((skipped, _))) = (def.en_passant, b.ep) {
                let reaches = def.atoms.iter().any(|a| match *a {
                    Atom::Leap { to, mode, .. } => {
                        mode.captures() && self.offset(from, self.turn(us, to)) == Some(skipped)
                    }
                    _ => false,
                });
                if reaches && b.cells[skipped as usize].is_none() {
                    out.push(RefMove {
                        from,
                        to: skipped,
                        promotion: None,
                        special: Special::EnPassant,
                    });
                }
            }
        }
        for (i, c) in self.v.castlings.iter().enumerate() {
            if c.player.0 != us || b.castling >> i & 1 == 0 {
                continue;
            }
            let own = |cell: Cell| b.cells[cell.index()].is_some_and(|(p, _)| p == us);
            if !own(c.king_from) || !own(c.partner_from) {
                continue;
            }
            let clear = c
                .empty
                .iter()
                .all(|&e| e == c.king_from || e == c.partner_from || b.cells[e.index()].is_none());
            let mut without_king = b.clone();
            without_king.cells[c.king_from.index()] = None;
            let safe = c
                .safe
                .iter()
                .all(|&s| !self.attacked(&without_king, s.0, 1 - us));
            if clear && safe {
                out.push(RefMove {
                    from: c.king_from.0,
                    to: c.king_to.0,
                    promotion: None,
                    special: Special::Castle(i as u8),
                });
            }
        }
        out
    }

    fn morph(&self, player: u8, kind: u8) -> u8 {
        self.v
            .morph
            .get(player as usize)
            .map_or(kind, |m| m[kind as usize].0)
    }

    fn drop_rights(&self, b: &mut RefBoard, touched: &[u16]) {
        for (i, c) in self.v.castlings.iter().enumerate() {
            if touched.contains(&c.king_from.0) || touched.contains(&c.partner_from.0) {
                b.castling &= !(1 << i);
            }
        }
    }

    pub fn make(&self, b: &RefBoard, m: RefMove) -> RefBoard {
        let mut n = b.clone();
        let us = b.side;
        n.ep = None;
        n.side = 1 - us;
        n.halfmove += 1;
        if let Special::Castle(i) = m.special {
            let c = &self.v.castlings[i as usize];
            let (_, king) = n.cells[c.king_from.index()].take().unwrap();
            let (_, partner) = n.cells[c.partner_from.index()].take().unwrap();
            n.cells[c.king_to.index()] = Some((us, self.morph(us, king)));
            n.cells[c.partner_to.index()] = Some((us, self.morph(us, partner)));
            for (j, other) in self.v.castlings.iter().enumerate() {
                if other.player.0 == us {
                    n.castling &= !(1 << j);
                }
            }
            return n;
        }
        let (_, kind) = n.cells[m.from as usize].take().unwrap();
        let victim = match m.special {
            Special::EnPassant => b.ep.unwrap().1,
            _ => m.to,
        };
        if n.cells[victim as usize].take().is_some() || self.v.pieces[kind as usize].pawn {
            n.halfmove = 0;
        }
        let new_kind = m.promotion.unwrap_or_else(|| self.morph(us, kind));
        n.cells[m.to as usize] = Some((us, new_kind));
        if m.special == Special::DoubleStep {
            let (fx, fy) = self.xy(m.from);
            let (tx, ty) = self.xy(m.to);
            let skipped = self.at((fx + tx) / 2, (fy + ty) / 2).unwrap();
            n.ep = Some((skipped, m.to));
        }
        self.drop_rights(&mut n, &[m.from, m.to]);
        n
    }

    /// Legal moves: those after which no protected royal of the mover is attacked, the
    /// royal set being judged after the move.
    pub fn legal_moves(&self, b: &RefBoard) -> Vec<RefMove> {
        self.pseudo_moves(b)
            .into_iter()
            .filter(|&m| !self.in_check(&self.make(b, m), b.side))
            .collect()
    }
}
