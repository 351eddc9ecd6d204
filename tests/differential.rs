//! Differential test: a deliberately simple reference move generator, written here from the
//! variant's data alone (piece atoms, orientations, castling and promotion rules) with plain
//! loops over cells and make-and-test legality by scanning every enemy piece's attacks, is
//! compared with the fast generator on positions reached by random play in every CwDA pairing
//! (with and without `-anypromo`). Nothing from `movegen` is used on the reference side.

use panoply::geometry::{Cell, Shape, Vec3};
use panoply::movegen::notation::format_move;
use panoply::movegen::tables::Tables;
use panoply::movegen::{count_legal, is_in_check, legal_moves};
use panoply::moves::MoveKind;
use panoply::piece::{Atom, Kind, Mode, Player};
use panoply::position::{fen, Position};
use panoply::variant::Variant;
use std::collections::BTreeSet;

/// A small deterministic PRNG (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

type Square = Option<(Player, Kind)>;

/// The reference's view of a position: one slot per cell, nothing precomputed.
#[derive(Clone)]
struct Board<'a> {
    v: &'a Variant,
    cells: Vec<Square>,
    side: Player,
    castling: u8,
    /// (skipped cell, cell of the pawn that double-stepped)
    ep: Vec<(Cell, Cell)>,
}

/// A move of the reference generator with what it changes on the board.
#[derive(Clone)]
struct RefMove {
    from: Cell,
    to: Cell,
    promotion: Option<Kind>,
    /// Cell of a pawn taken en passant.
    ep_victim: Option<Cell>,
    /// Castling: where the partner goes from and to.
    partner: Option<(Cell, Cell)>,
}

/// What the reference saw, so the test can prove it covered the special rules.
#[derive(Default, Debug)]
struct Coverage {
    positions: u64,
    moves: u64,
    promotions: u64,
    castlings: u64,
    bede_castlings: u64,
    en_passant: u64,
    in_check: u64,
    pinned_rejections: u64,
    checkmates: u64,
}

impl<'a> Board<'a> {
    fn from_position<B: panoply::bitboard::BitSet>(v: &'a Variant, pos: &Position<B>) -> Self {
        let cells = v
            .shape
            .all_cells()
            .map(|c| pos.piece_at(c).map(|p| (p.player(), p.kind())))
            .collect();
        let ep = pos
            .ep
            .iter()
            .flatten()
            .map(|e| (e.skipped, e.victim))
            .collect();
        Board {
            v,
            cells,
            side: pos.side,
            castling: pos.castling,
            ep,
        }
    }

    fn shape(&self) -> &Shape {
        &self.v.shape
    }

    fn at(&self, c: Cell) -> Square {
        self.cells[c.index()]
    }

    fn is_enemy(&self, c: Cell, of: Player) -> bool {
        self.at(c).is_some_and(|(p, _)| p != of)
    }

    /// Cells a piece of `player` and `kind` on `from` may move to (`captures == false`) or
    /// capture on (`captures == true`), by walking its atoms.
    fn reach(&self, player: Player, kind: Kind, from: Cell, captures: bool) -> Vec<Cell> {
        self.reach_probing(player, kind, from, captures, None)
    }

    /// Like [`Board::reach`], with `probe` counted as holding an enemy piece.
    fn reach_probing(
        &self,
        player: Player,
        kind: Kind,
        from: Cell,
        captures: bool,
        probe: Option<Cell>,
    ) -> Vec<Cell> {
        let orient = self.v.orientations[player.index()];
        let shape = self.shape();
        let wanted = |mode: Mode| {
            if captures {
                mode.captures()
            } else {
                mode.moves()
            }
        };
        let fits = |c: Cell| {
            if captures {
                self.is_enemy(c, player) || probe == Some(c)
            } else {
                self.at(c).is_none()
            }
        };
        let mut out = Vec::new();
        for atom in &self.v.kind(kind).atoms {
            if !wanted(atom.mode()) {
                continue;
            }
            match *atom {
                Atom::Leap { to, when, .. } => {
                    if let Some(c) = shape.offset(from, orient.apply(to)) {
                        if when.holds(shape, orient, from, c) && fits(c) {
                            out.push(c);
                        }
                    }
                }
                Atom::Slide { step, max, .. } => {
                    let limit = if max == 0 { usize::MAX } else { max as usize };
                    self.walk(from, orient.apply(step), limit, &fits, &mut out);
                }
                Atom::Lame { via, to, .. } => {
                    let via = shape.offset(from, orient.apply(via));
                    let to = shape.offset(from, orient.apply(to));
                    if let (Some(via), Some(to)) = (via, to) {
                        if self.at(via).is_none() && fits(to) {
                            out.push(to);
                        }
                    }
                }
                Atom::Bent { first, then, .. } => {
                    if let Some(corner) = shape.offset(from, orient.apply(first)) {
                        if self.at(corner).is_none() {
                            self.walk(corner, orient.apply(then), usize::MAX, &fits, &mut out);
                        }
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Steps along `step` from `from` up to `limit` times, collecting cells that `fits`, and
    /// stops at the first occupied cell.
    fn walk(
        &self,
        from: Cell,
        step: Vec3,
        limit: usize,
        fits: &dyn Fn(Cell) -> bool,
        out: &mut Vec<Cell>,
    ) {
        let mut cur = from;
        for _ in 0..limit {
            let Some(next) = self.shape().offset(cur, step) else {
                break;
            };
            if fits(next) {
                out.push(next);
            }
            if self.at(next).is_some() {
                break;
            }
            cur = next;
        }
    }

    /// Whether any piece of a player other than `us` could capture on `target`.
    fn attacked(&self, target: Cell, us: Player) -> bool {
        self.shape().all_cells().any(|c| match self.at(c) {
            // The target counts as holding a piece of ours even when it is empty (castling
            // paths), so capture atoms see it.
            Some((p, k)) if p != us => self
                .reach_probing(p, k, c, true, Some(target))
                .contains(&target),
            _ => false,
        })
    }

    fn royals(&self, p: Player) -> Vec<Cell> {
        self.shape()
            .all_cells()
            .filter(|&c| matches!(self.at(c), Some((q, k)) if q == p && self.v.kind(k).royal))
            .collect()
    }

    fn in_check(&self, p: Player) -> bool {
        self.royals(p).into_iter().any(|r| self.attacked(r, p))
    }

    fn after(&self, m: &RefMove) -> Board<'a> {
        let mut b = self.clone();
        let piece = b.cells[m.from.index()].take();
        if let Some(v) = m.ep_victim {
            b.cells[v.index()] = None;
        }
        if let Some((pf, pt)) = m.partner {
            let partner = b.cells[pf.index()].take();
            b.cells[pt.index()] = partner;
        }
        b.cells[m.to.index()] = match (piece, m.promotion) {
            (Some((p, _)), Some(k)) => Some((p, k)),
            _ => piece,
        };
        b
    }

    /// Pseudo-legal moves: every atom of every piece, double steps, en passant, castling.
    fn pseudo_moves(&self, cov: &mut Coverage) -> Vec<RefMove> {
        let us = self.side;
        let shape = self.shape();
        let mut out = Vec::new();
        let mut add = |from: Cell, to: Cell, kind: Kind, ep_victim: Option<Cell>| {
            let plain = RefMove {
                from,
                to,
                promotion: None,
                ep_victim,
                partner: None,
            };
            match self.v.promotion_for(us, kind) {
                Some(rule) if rule.must_to.contains(&to) => {
                    for &k in &rule.choices {
                        out.push(RefMove {
                            promotion: Some(k),
                            ..plain.clone()
                        });
                    }
                }
                Some(rule) if rule.may_to.contains(&to) || rule.may_from.contains(&from) => {
                    out.push(plain.clone());
                    for &k in &rule.choices {
                        out.push(RefMove {
                            promotion: Some(k),
                            ..plain.clone()
                        });
                    }
                }
                _ => out.push(plain),
            }
        };
        for from in shape.all_cells() {
            let Some((p, kind)) = self.at(from) else {
                continue;
            };
            if p != us {
                continue;
            }
            let def = self.v.kind(kind);
            let mut targets = self.reach(us, kind, from, false);
            targets.extend(self.reach(us, kind, from, true));
            for to in targets {
                add(from, to, kind, None);
            }
            let initial = self
                .v
                .double_step_cells
                .get(us.index())
                .is_some_and(|cs| cs.contains(&from));
            for &step in def.double_steps.iter().filter(|_| initial) {
                let step = self.v.orientations[us.index()].apply(step);
                let skipped = shape.offset(from, step);
                let to = skipped.and_then(|s| shape.offset(s, step));
                if let (Some(s), Some(to)) = (skipped, to) {
                    if self.at(s).is_none() && self.at(to).is_none() {
                        add(from, to, kind, None);
                    }
                }
            }
            if def.en_passant {
                for &(skipped, victim) in &self.ep {
                    if self.at(victim).is_some_and(|(q, _)| q != us) && self.at(skipped).is_none() {
                        // The e.p. capture uses the piece's capture moves as if the
                        // double-stepped pawn stood on the skipped cell.
                        if self
                            .reach_probing(us, kind, from, true, Some(skipped))
                            .contains(&skipped)
                        {
                            cov.en_passant += 1;
                            add(from, skipped, kind, Some(victim));
                        }
                    }
                }
            }
        }
        out.extend(self.castlings(cov));
        out
    }

    fn castlings(&self, cov: &mut Coverage) -> Vec<RefMove> {
        let us = self.side;
        let mut out = Vec::new();
        for (i, c) in self.v.castlings.iter().enumerate() {
            if c.player != us || self.castling >> i & 1 == 0 {
                continue;
            }
            let king_there =
                matches!(self.at(c.king_from), Some((p, k)) if p == us && self.v.kind(k).royal);
            let partner_there = matches!(self.at(c.partner_from), Some((p, _)) if p == us);
            let path_empty = c
                .empty
                .iter()
                .all(|&e| e == c.king_from || e == c.partner_from || self.at(e).is_none());
            let safe = c.safe.iter().all(|&s| !self.attacked(s, us));
            if king_there && partner_there && path_empty && safe {
                cov.castlings += 1;
                if c.partner_to.index() == c.king_to.index() + 1
                    && c.king_from.index() == c.king_to.index() + 3
                {
                    cov.bede_castlings += 1;
                }
                out.push(RefMove {
                    from: c.king_from,
                    to: c.king_to,
                    promotion: None,
                    ep_victim: None,
                    partner: Some((c.partner_from, c.partner_to)),
                });
            }
        }
        out
    }

    /// Legal moves as move strings: pseudo-legal moves that leave no royal of ours attacked.
    fn legal_move_strings(&self, cov: &mut Coverage) -> BTreeSet<String> {
        let us = self.side;
        let mut out = BTreeSet::new();
        for m in self.pseudo_moves(cov) {
            if self.after(&m).in_check(us) {
                let mover_royal = self.at(m.from).is_some_and(|(_, k)| self.v.kind(k).royal);
                if !mover_royal && !self.in_check(us) {
                    cov.pinned_rejections += 1;
                }
                continue;
            }
            let name = |c| self.shape().cell_name(c);
            let mut s = format!("{}{}", name(m.from), name(m.to));
            if let Some(k) = m.promotion {
                cov.promotions += 1;
                s += &self.v.kind(k).token.to_ascii_lowercase();
            }
            out.insert(s);
        }
        out
    }
}

/// Compares both generators on one position; returns the fast generator's moves.
fn compare<B: panoply::bitboard::BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    cov: &mut Coverage,
) -> Vec<panoply::moves::Move> {
    let board = Board::from_position(&t.variant, pos);
    let expected = board.legal_move_strings(cov);
    let fast = legal_moves(t, pos);
    let fast_strings: BTreeSet<String> = fast.iter().map(|&m| format_move(t, m)).collect();
    let here = || format!("{} in {}", t.variant.name, fen::format(t, pos));
    assert_eq!(fast_strings.len(), fast.len(), "duplicate moves {}", here());
    if fast_strings != expected {
        let missing: Vec<_> = expected.difference(&fast_strings).collect();
        let extra: Vec<_> = fast_strings.difference(&expected).collect();
        panic!(
            "generators differ {}: fast misses {missing:?}, fast adds {extra:?}",
            here()
        );
    }
    assert_eq!(
        count_legal(t, pos),
        fast.len() as u64,
        "bulk count {}",
        here()
    );
    let check = board.in_check(pos.side);
    assert_eq!(is_in_check(t, pos, pos.side), check, "check {}", here());
    assert_eq!(pos.hash, pos.compute_hash(t), "incremental hash {}", here());
    cov.positions += 1;
    cov.moves += fast.len() as u64;
    cov.in_check += check as u64;
    cov.checkmates += (check && fast.is_empty()) as u64;
    fast.to_vec()
}

/// Plays `games` random games of up to `plies` plies from `start`, comparing at every ply.
/// Pawn moves are favoured so that promotions happen often.
fn random_games<B: panoply::bitboard::BitSet>(
    t: &Tables<B>,
    start: &Position<B>,
    games: usize,
    plies: usize,
    rng: &mut Rng,
    cov: &mut Coverage,
) {
    for _ in 0..games {
        let mut pos = *start;
        for _ in 0..plies {
            let moves = compare(t, &pos, cov);
            if moves.is_empty() {
                break;
            }
            let pawn_moves: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| {
                    m.kind() != MoveKind::Castle
                        && pos
                            .piece_at(m.from())
                            .is_some_and(|p| t.variant.kind(p.kind()).pawn)
                })
                .collect();
            let mv = if !pawn_moves.is_empty() && rng.below(3) == 0 {
                pawn_moves[rng.below(pawn_moves.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos = pos.play(t, mv);
        }
        // The final position too.
        compare(t, &pos, cov);
    }
}

/// The start position with the pieces between King and corners taken off, so both sides can
/// castle both ways soon (random play seldom clears three cells for the Bede castling).
fn castling_seed(start: &str) -> String {
    let (board, rest) = start.split_once(' ').expect("fields");
    let ranks: Vec<&str> = board.split('/').collect();
    let clear = |rank: &str| {
        let corner = &rank[..1];
        format!("{corner}3{}2{corner}", &rank[4..5])
    };
    let mut ranks: Vec<String> = ranks.iter().map(|r| r.to_string()).collect();
    ranks[0] = clear(&ranks[0]);
    ranks[7] = clear(&ranks[7]);
    format!("{} {rest}", ranks.join("/"))
}

/// Start positions: the variant's own, one made for castling, and those of the reference
/// tables for `variant` (castling, e.p. and promotion tests and random middlegames).
fn seeds(variant: &str, start: &str) -> Vec<String> {
    let table = include_str!("perft/cwda-positions.tsv");
    let mut out = vec![start.to_string(), castling_seed(start)];
    for line in table.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() > 1 && f[0] == variant && !out.iter().any(|s| s == f[1]) {
            out.push(f[1].to_string());
        }
    }
    out
}

fn run_pairing(name: &str, seed: u64) -> Coverage {
    let tables: Tables<u64> = Tables::new(panoply::games::by_name(name).expect("variant"));
    let base = name.trim_end_matches("-anypromo");
    let mut rng = Rng(seed | 1);
    let mut cov = Coverage::default();
    for (i, s) in seeds(base, &tables.variant.start_position)
        .iter()
        .enumerate()
    {
        let pos = fen::parse(&tables, s).unwrap_or_else(|e| panic!("{name} {s}: {e}"));
        // Long games from the start position reach endgames and promotions; short ones from
        // the other seeds stay near their castling and e.p. situations.
        let (games, plies) = match i {
            0 => (24, 160),
            1 => (6, 30),
            _ => (3, 24),
        };
        random_games(&tables, &pos, games, plies, &mut rng, &mut cov);
    }
    cov
}

const ARMIES: [&str; 4] = ["fide", "clobberers", "nutty", "rookies"];

fn run_all(suffix: &str, seed: u64) {
    let mut total = Coverage::default();
    for (i, w) in ARMIES.iter().enumerate() {
        for (j, b) in ARMIES.iter().enumerate() {
            let name = format!("cwda-{w}-{b}{suffix}");
            let cov = run_pairing(&name, seed + (4 * i + j) as u64 * 7919);
            eprintln!("{name}: {cov:?}");
            assert!(cov.positions >= 2000, "{name}: only {cov:?}");
            assert!(cov.promotions > 0, "{name}: no promotion seen {cov:?}");
            assert!(cov.castlings > 0, "{name}: no castling seen {cov:?}");
            assert!(cov.in_check > 0, "{name}: no check seen {cov:?}");
            if *w == "clobberers" || *b == "clobberers" {
                assert!(cov.bede_castlings > 0, "{name}: no Bede castling {cov:?}");
            }
            total.positions += cov.positions;
            total.moves += cov.moves;
            total.promotions += cov.promotions;
            total.castlings += cov.castlings;
            total.bede_castlings += cov.bede_castlings;
            total.en_passant += cov.en_passant;
            total.in_check += cov.in_check;
            total.pinned_rejections += cov.pinned_rejections;
            total.checkmates += cov.checkmates;
        }
    }
    eprintln!("all pairings{suffix}: {total:?}");
    assert!(total.en_passant > 0 && total.pinned_rejections > 0 && total.checkmates > 0);
}

#[test]
fn reference_generator_agrees_in_every_pairing() {
    run_all("", 0x5EED_0001);
}

#[test]
fn reference_generator_agrees_with_either_army_promotion() {
    run_all("-anypromo", 0x5EED_0002);
}

#[test]
fn reference_generator_knows_bede_castling() {
    // The reference itself must produce e1b1 here, or agreeing with it would prove nothing.
    let v = panoply::games::by_name("cwda-clobberers-fide").unwrap();
    let t: Tables<u64> = Tables::new(v.clone());
    let pos = fen::parse(&t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/D3KAWD w KQkq - 0 1").unwrap();
    let moves = Board::from_position(&v, &pos).legal_move_strings(&mut Coverage::default());
    assert!(moves.contains("e1b1"), "{moves:?}");
    assert!(!moves.contains("e1c1"), "{moves:?}");
}
