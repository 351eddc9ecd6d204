//! Static evaluation for every game family. All knowledge is derived once per variant from
//! the compiled tables (see [`values`]): piece values, piece-square terms from per-cell
//! mobility, colour-boundness; then [`Evaluator::evaluate`] adds pawn structure, king safety
//! and a mop-up term. Scores are per player and combined relative to the side to move, so
//! nothing here assumes two players except the final "us minus the best opponent".

pub mod values;

use crate::bitboard::BitSet;
use crate::geometry::Cell;
use crate::movegen::tables::Tables;
use crate::piece::{Kind, Player};
use crate::position::Position;
use crate::variant::{RoyalRule, Variant};
use values::{cell_parity, mobility, value_from_mobility, PAWN_VALUE};

/// Bonus for colour-bound pieces of one side on both cell colours (RULES/seed 001: +0.5).
const COLOUR_PAIR_BONUS: i32 = 50;
const TEMPO: i32 = 10;
const DOUBLED_PAWN: (i32, i32) = (-10, -20);
const ISOLATED_PAWN: (i32, i32) = (-12, -15);
/// Passed pawn bonus by the fraction of the way to promotion covered, in eighths.
const PASSED_PAWN_EG: [i32; 9] = [0, 5, 10, 18, 30, 50, 80, 120, 120];
const PASSED_PAWN_MG: [i32; 9] = [0, 2, 4, 8, 14, 24, 40, 60, 60];
const PAWN_SHIELD: i32 = 12;
const MOP_UP_EDGE: i32 = 12;
const MOP_UP_CLOSE: i32 = 6;

/// Per-kind knowledge of one player.
#[derive(Clone, Debug)]
struct KindInfo {
    value: i32,
    pawn: bool,
    royal: bool,
    colour_bound: bool,
}

/// Pawn geometry of one player: files run along the player's forward axis.
#[derive(Clone, Debug)]
struct PawnGeometry<B> {
    /// Own file, per cell.
    file: Vec<B>,
    /// Neighbouring files, per cell.
    adjacent_files: Vec<B>,
    /// Cells ahead on the own and neighbouring files, per cell (an enemy pawn here stops a
    /// passer).
    front_span: Vec<B>,
    /// Progress towards the far side in eighths (0 = own back rank, 8 = last rank).
    progress: Vec<u8>,
    /// Cells directly in front of and beside the King's cell, one or two steps ahead, per cell.
    shield: Vec<B>,
}

/// Evaluation knowledge compiled for one variant.
pub struct Evaluator<B: BitSet> {
    players: usize,
    kinds: Vec<Vec<KindInfo>>,
    /// `pst[(player * kinds + kind) * cells + cell]` as (middlegame, endgame).
    pst: Vec<(i16, i16)>,
    kinds_per_player: usize,
    cells: usize,
    parity: Vec<u8>,
    pawns: Vec<PawnGeometry<B>>,
    /// Distance of each cell from the board centre (Chebyshev, in half-cells).
    centre_distance: Vec<u8>,
    /// Cells within three steps of each cell (where attackers threaten a King).
    near: Vec<B>,
    /// Non-pawn, non-royal material of all players at the start: the phase scale.
    start_material: i32,
    /// Under the lone-royal rule (SwDA) every royal beyond the first is a spare that may be
    /// lost: worth the royal kind's published value (the Crown Prince's).
    spare_royal_value: i32,
}

/// Where pieces change type when they move (Cyclical Armies), a piece is worth what it is and
/// what it becomes on its next move: the average of the two types' values.
fn blend_with_next_type(v: &Variant, p: Player, infos: &mut [KindInfo]) {
    if v.morph.is_empty() {
        return;
    }
    let now: Vec<i32> = infos.iter().map(|i| i.value).collect();
    for (k, info) in infos.iter_mut().enumerate() {
        let next = v.morph_of(p, Kind(k as u8)).index();
        if !info.royal {
            info.value = (now[k] + now[next]) / 2;
        }
    }
}

/// Whether `kind` is worth counting as material that can mate or build threats.
fn is_piece(info: &KindInfo) -> bool {
    !info.pawn && !info.royal
}

impl<B: BitSet> Evaluator<B> {
    pub fn new(t: &Tables<B>) -> Evaluator<B> {
        let players = t.players();
        let nk = t.variant.pieces.len();
        let cells = t.cells;
        let centre_distance: Vec<u8> = t
            .shape
            .all_cells()
            .map(|c| {
                let (x, y, z) = t.shape.coords(c);
                let d = |v: i32, n: u8| (2 * v - (n as i32 - 1)).unsigned_abs() as u8;
                let s = &t.shape;
                d(x, s.files).max(d(y, s.ranks)).max(d(z, s.levels))
            })
            .collect();
        let mut kinds = Vec::new();
        let mut pst = vec![(0i16, 0i16); players * nk * cells];
        for p in 0..players {
            let player = Player(p as u8);
            let mut infos = Vec::new();
            for k in 0..nk {
                let kind = Kind(k as u8);
                let def = t.variant.kind(kind);
                let mob = mobility(t, player, kind);
                let value = def.value.unwrap_or_else(|| {
                    if def.pawn {
                        PAWN_VALUE
                    } else if def.royal {
                        0
                    } else {
                        value_from_mobility(&mob)
                    }
                });
                let info = KindInfo {
                    value: if def.royal { 0 } else { value },
                    pawn: def.pawn,
                    royal: def.royal,
                    colour_bound: mob.colour_bound && !def.royal && !def.pawn,
                };
                for c in t.shape.all_cells() {
                    pst[(p * nk + k) * cells + c.index()] =
                        square_bonus(t, &info, &mob, player, c, &centre_distance);
                }
                infos.push(info);
            }
            blend_with_next_type(&t.variant, player, &mut infos);
            kinds.push(infos);
        }
        let pawns = (0..players)
            .map(|p| pawn_geometry(t, Player(p as u8)))
            .collect();
        let start = crate::position::fen::parse(t, &t.variant.start_position).ok();
        let mut ev = Evaluator {
            players,
            kinds,
            pst,
            kinds_per_player: nk,
            cells,
            parity: t.shape.all_cells().map(|c| cell_parity(t, c)).collect(),
            pawns,
            near: t
                .shape
                .all_cells()
                .map(|a| {
                    t.shape
                        .all_cells()
                        .filter(|&b| b != a && t.distance(a, b) <= 3)
                        .fold(B::empty(), |mut acc, b| {
                            acc.set(b);
                            acc
                        })
                })
                .collect(),
            centre_distance,
            start_material: 1,
            spare_royal_value: match t.variant.royal_rule {
                RoyalRule::LoneRoyalOnly => t
                    .variant
                    .pieces
                    .iter()
                    .filter(|d| d.royal)
                    .filter_map(|d| d.value)
                    .max()
                    .unwrap_or(0),
                RoyalRule::Each => 0,
            },
        };
        if let Some(pos) = &start {
            ev.balance_armies(pos);
        }
        ev.start_material = start
            .map(|pos| {
                (0..players)
                    .map(|p| ev.piece_material(&pos, Player(p as u8)))
                    .sum::<i32>()
            })
            .unwrap_or(0)
            .max(1);
        ev
    }

    /// Scales each player's piece values so that every army's starting material is the same.
    /// The armies are designed to be equally strong, but the published values add up to
    /// different totals (CwDA: FIDE 32.5, Clobberers 33.75 pawns); taken literally, the engine
    /// would think one side better from the first move and misjudge draws and trades.
    fn balance_armies(&mut self, start: &Position<B>) {
        let totals: Vec<i32> = (0..self.players)
            .map(|p| self.piece_material(start, Player(p as u8)))
            .collect();
        if totals.iter().any(|&m| m <= 0) {
            return;
        }
        let mean = totals.iter().sum::<i32>() as f64 / self.players as f64;
        for (p, infos) in self.kinds.iter_mut().enumerate() {
            let factor = mean / totals[p] as f64;
            for info in infos.iter_mut().filter(|i| is_piece(i)) {
                info.value = (info.value as f64 * factor).round() as i32;
            }
        }
    }

    /// The value of a piece kind of player `p` (0 for royals).
    #[inline]
    pub fn value(&self, p: Player, k: Kind) -> i32 {
        self.kinds[p.index()][k.index()].value
    }

    pub fn is_pawn(&self, p: Player, k: Kind) -> bool {
        self.kinds[p.index()][k.index()].pawn
    }

    /// Non-pawn, non-royal material of `p`.
    pub fn piece_material(&self, pos: &Position<B>, p: Player) -> i32 {
        self.kinds[p.index()]
            .iter()
            .enumerate()
            .filter(|(_, i)| is_piece(i))
            .map(|(k, i)| i.value * pos.pieces(p, Kind(k as u8)).count() as i32)
            .sum()
    }

    /// Pieces in hand (drop games) at their board value plus a tenth: a drop can put them
    /// on any empty cell, so they are at least as useful as on the board.
    pub fn hand_material(&self, pos: &Position<B>, p: Player) -> i32 {
        let Some(hand) = pos.hands.get(p.index()) else {
            return 0;
        };
        hand.iter()
            .zip(&self.kinds[p.index()])
            .filter(|(&n, _)| n > 0)
            .map(|(&n, info)| info.value * 11 / 10 * n as i32)
            .sum()
    }

    /// Static score in centipawns from the side to move's point of view.
    pub fn evaluate(&self, t: &Tables<B>, pos: &Position<B>) -> i32 {
        let mut material = [0i32; 4];
        let mut pieces = [0i32; 4];
        let mut pawn_count = [0u32; 4];
        let mut mg = [0i32; 4];
        let mut eg = [0i32; 4];
        for p in 0..self.players {
            let player = Player(p as u8);
            if !pos.is_alive(player) {
                continue;
            }
            material[p] += self.hand_material(pos, player);
            let mut colours = [false; 2];
            if self.spare_royal_value > 0 {
                let spares = pos.royals(t, player).count().saturating_sub(1);
                material[p] += self.spare_royal_value * spares as i32;
            }
            for (k, info) in self.kinds[p].iter().enumerate() {
                let bb = pos.pieces(player, Kind(k as u8));
                if bb.is_empty() {
                    continue;
                }
                let n = bb.count() as i32;
                material[p] += info.value * n;
                if is_piece(info) {
                    pieces[p] += info.value * n;
                }
                if info.pawn {
                    pawn_count[p] += n as u32;
                }
                let base = (p * self.kinds_per_player + k) * self.cells;
                for c in bb.cells() {
                    let (m, e) = self.pst[base + c.index()];
                    mg[p] += m as i32;
                    eg[p] += e as i32;
                    if info.colour_bound {
                        colours[self.parity[c.index()] as usize] = true;
                    }
                }
            }
            if colours[0] && colours[1] {
                mg[p] += COLOUR_PAIR_BONUS;
                eg[p] += COLOUR_PAIR_BONUS;
            }
            let (pm, pe) = self.pawn_structure(pos, player);
            mg[p] += pm;
            eg[p] += pe;
            mg[p] += self.king_safety(t, pos, player);
        }
        let total_pieces: i32 = pieces.iter().sum();
        // Phase 256 = all pieces on, 0 = no pieces left.
        let phase = (total_pieces * 256 / self.start_material).clamp(0, 256);
        let mut score = [0i32; 4];
        for p in 0..self.players {
            score[p] = material[p] + (mg[p] * phase + eg[p] * (256 - phase)) / 256;
        }
        self.mop_up(t, pos, &pieces, &pawn_count, &mut score);
        let us = pos.side.index();
        let best_other = (0..self.players)
            .filter(|&p| p != us && pos.is_alive(Player(p as u8)))
            .map(|p| score[p])
            .max()
            .unwrap_or(0);
        let mut s = score[us] - best_other;
        // Without pawns, a lead of one minor piece or less rarely wins: damp it.
        let leader = if s > 0 {
            us
        } else {
            self.strongest_other(pos, &score)
        };
        if pawn_count[leader] == 0 && pieces[leader] <= 400 {
            s /= 8;
        }
        s + TEMPO
    }

    fn strongest_other(&self, pos: &Position<B>, score: &[i32; 4]) -> usize {
        (0..self.players)
            .filter(|&p| p != pos.side.index() && pos.is_alive(Player(p as u8)))
            .max_by_key(|&p| score[p])
            .unwrap_or(0)
    }

    fn pawn_structure(&self, pos: &Position<B>, p: Player) -> (i32, i32) {
        let own = self.pawn_set(pos, p);
        if own.is_empty() {
            return (0, 0);
        }
        let enemy = (0..self.players)
            .filter(|&q| q != p.index())
            .fold(B::empty(), |acc, q| {
                acc | self.pawn_set(pos, Player(q as u8))
            });
        let g = &self.pawns[p.index()];
        let (mut mg, mut eg) = (0, 0);
        for c in own.cells() {
            let i = c.index();
            if (g.front_span[i] & g.file[i] & own).any() {
                mg += DOUBLED_PAWN.0;
                eg += DOUBLED_PAWN.1;
            }
            if (g.adjacent_files[i] & own).is_empty() {
                mg += ISOLATED_PAWN.0;
                eg += ISOLATED_PAWN.1;
            }
            if (g.front_span[i] & enemy).is_empty()
                && (g.front_span[i] & g.file[i] & own).is_empty()
            {
                let step = g.progress[i] as usize;
                mg += PASSED_PAWN_MG[step];
                eg += PASSED_PAWN_EG[step];
            }
        }
        (mg, eg)
    }

    fn pawn_set(&self, pos: &Position<B>, p: Player) -> B {
        self.kinds[p.index()]
            .iter()
            .enumerate()
            .filter(|(_, i)| i.pawn)
            .fold(B::empty(), |acc, (k, _)| acc | pos.pieces(p, Kind(k as u8)))
    }

    /// Middlegame King safety: pawns in front of the King, enemy pieces close to it.
    fn king_safety(&self, t: &Tables<B>, pos: &Position<B>, p: Player) -> i32 {
        let royals = pos.royals(t, p);
        let Some(king) = royals.lowest() else {
            return 0;
        };
        if royals.count() != 1 {
            return 0;
        }
        let shield = (self.pawns[p.index()].shield[king.index()] & self.pawn_set(pos, p)).count();
        let mut score = PAWN_SHIELD * shield.min(3) as i32;
        let near = self.near[king.index()] & pos.enemies(p);
        for c in near.cells() {
            let piece = pos.piece_at(c).expect("occupied");
            let info = &self.kinds[piece.player().index()][piece.kind().index()];
            if is_piece(info) {
                let d = t.distance(c, king) as i32;
                score -= info.value * (4 - d) / 64;
            }
        }
        score
    }

    /// Drives a bare King to the edge and brings the winner's King close, so that endings
    /// with a mating force are won rather than shuffled.
    fn mop_up(
        &self,
        t: &Tables<B>,
        pos: &Position<B>,
        pieces: &[i32; 4],
        pawns: &[u32; 4],
        score: &mut [i32; 4],
    ) {
        if self.players != 2 {
            return;
        }
        for loser in 0..2 {
            let winner = 1 - loser;
            if pieces[loser] != 0 || pawns[loser] != 0 || pieces[winner] < 300 {
                continue;
            }
            let lk = pos.royals(t, Player(loser as u8)).lowest();
            let wk = pos.royals(t, Player(winner as u8)).lowest();
            if let (Some(lk), Some(wk)) = (lk, wk) {
                let edge = self.centre_distance[lk.index()] as i32;
                let close = t.distance(lk, wk) as i32;
                score[winner] += MOP_UP_EDGE * edge + MOP_UP_CLOSE * (8 - close.min(8)) + 200;
            }
        }
    }
}

/// Piece-square bonus (middlegame, endgame) of one kind on one cell. Pieces gain what their
/// extra mobility there is worth; Kings hide in the middlegame and centralise in the endgame;
/// pawns gain as they advance.
fn square_bonus<B: BitSet>(
    t: &Tables<B>,
    info: &KindInfo,
    mob: &values::Mobility,
    p: Player,
    c: Cell,
    centre_distance: &[u8],
) -> (i16, i16) {
    let extra = mob.per_cell[c.index()] as f64 - mob.average;
    if info.royal {
        let size = centre_distance.iter().copied().max().unwrap_or(1).max(1) as i32;
        let central = size - centre_distance[c.index()] as i32;
        let advance = own_progress(t, p, c) as i32;
        let mg = -12 * advance - 4 * central;
        let eg = 40 * central / size;
        return (mg as i16, eg as i16);
    }
    if info.pawn {
        let step = own_progress(t, p, c) as i32;
        return ((3 * step) as i16, (6 * step) as i16);
    }
    // A target is worth more for a short-range piece, whose targets are few.
    let weight = 15.0 / mob.average.max(1.0).sqrt();
    let mg = (extra * weight).round() as i16;
    let eg = (extra * weight * 0.7).round() as i16;
    (mg, eg)
}

/// How far `c` is from player `p`'s own back edge along the forward axis, in eighths of the
/// board (0..=8).
fn own_progress<B: BitSet>(t: &Tables<B>, p: Player, c: Cell) -> u8 {
    let o = t.variant.orientations[p.index()];
    let ranks = t.shape.ranks as i32;
    let y = t.shape.y(c);
    let rank = if o.flip_y { ranks - 1 - y } else { y };
    ((rank * 8) / (ranks - 1).max(1)).clamp(0, 8) as u8
}

fn pawn_geometry<B: BitSet>(t: &Tables<B>, p: Player) -> PawnGeometry<B> {
    let o = t.variant.orientations[p.index()];
    let forward = if o.flip_y { -1 } else { 1 };
    let shape = &t.shape;
    let n = t.cells;
    let mut g = PawnGeometry {
        file: vec![B::empty(); n],
        adjacent_files: vec![B::empty(); n],
        front_span: vec![B::empty(); n],
        progress: vec![0; n],
        shield: vec![B::empty(); n],
    };
    for c in shape.all_cells() {
        let (x, y, z) = shape.coords(c);
        let i = c.index();
        g.progress[i] = own_progress(t, p, c);
        for d in shape.all_cells() {
            let (dx, dy, dz) = shape.coords(d);
            let same_level = dz == z;
            let file_gap = (dx - x).abs();
            let ahead = (dy - y) * forward;
            if same_level && file_gap == 0 {
                g.file[i].set(d);
            }
            if same_level && file_gap == 1 {
                g.adjacent_files[i].set(d);
            }
            if same_level && file_gap <= 1 && ahead > 0 {
                g.front_span[i].set(d);
            }
            if same_level && file_gap <= 1 && (1..=2).contains(&ahead) {
                g.shield[i].set(d);
            }
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyTables;

    fn tables(variant: &str) -> std::sync::Arc<Tables<u64>> {
        match AnyTables::by_name(variant).unwrap() {
            AnyTables::Narrow(t) => t,
            AnyTables::Wide(_) => unreachable!(),
        }
    }

    /// The same position seen from the other side: ranks reversed, colours swapped.
    fn mirror_fen(fen: &str) -> String {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let swap = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let board: Vec<String> = f[0].split('/').rev().map(swap).collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        let castling = if f[2] == "-" {
            "-".to_string()
        } else {
            swap(f[2])
        };
        let ep = if f[3] == "-" {
            "-".to_string()
        } else {
            let b = f[3].as_bytes();
            format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
        };
        format!(
            "{} {side} {castling} {ep} {} {}",
            board.join("/"),
            f[4],
            f[5]
        )
    }

    fn white_view(variant: &str, fen: &str) -> i32 {
        let t = tables(variant);
        let pos = crate::position::fen::parse(&t, fen).unwrap();
        let s = Evaluator::new(&t).evaluate(&t, &pos);
        if pos.side == Player::WHITE {
            s
        } else {
            -s
        }
    }

    #[test]
    fn a_mirrored_position_gets_the_negated_score() {
        let cases = [
            (
                "chess",
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            ),
            (
                "cwda-clobberers-nutty",
                "gihokhig/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/DWACKAWD w KQkq c6 0 2",
            ),
            (
                "cwda-rookies-fide",
                "r2qkbnr/ppp2ppp/2n5/3pp3/3P4/2M2F2/PPP1PPPP/S1FEK1MS b KQkq - 1 4",
            ),
            (
                "cwda-nutty-clobberers",
                "4k3/3d4/8/2P5/8/8/5O2/4K3 w - - 0 1",
            ),
            ("cwda-fide-rookies", "8/8/4k3/8/8/8/3Q4/4K3 b - - 0 1"),
        ];
        for (variant, fen) in cases {
            let parts: Vec<&str> = variant.split('-').collect();
            let swapped = if parts.len() == 3 {
                format!("cwda-{}-{}", parts[2], parts[1])
            } else {
                variant.to_string()
            };
            let a = white_view(variant, fen);
            let b = white_view(&swapped, &mirror_fen(fen));
            assert_eq!(a, -b, "{variant} {fen}");
        }
    }

    #[test]
    fn every_cwda_start_position_is_nearly_level() {
        for name in crate::games::names()
            .iter()
            .filter(|n| n.starts_with("cwda-"))
        {
            let t = tables(name);
            let pos = crate::position::fen::parse(&t, &t.variant.start_position).unwrap();
            let s = Evaluator::new(&t).evaluate(&t, &pos);
            assert!(s.abs() <= TEMPO + COLOUR_PAIR_BONUS + 20, "{name}: {s}");
        }
    }

    #[test]
    fn mobility_values_come_near_the_classic_fide_values() {
        let t = tables("chess");
        for (k, classic) in [(2, 500), (3, 325), (4, 325), (5, 950)] {
            let m = mobility(&t, Player::WHITE, Kind(k));
            let v = value_from_mobility(&m);
            assert!(
                (v - classic).abs() * 10 <= classic,
                "{} got {v}, classic {classic}",
                t.variant.pieces[k as usize].name
            );
        }
    }

    #[test]
    fn colour_bound_pieces_are_recognised_from_their_moves() {
        let t = tables("chess");
        let bound = |name: &str| {
            let k = t
                .variant
                .pieces
                .iter()
                .position(|p| p.name == name)
                .unwrap();
            mobility(&t, Player::BLACK, Kind(k as u8)).colour_bound
        };
        for name in ["Bishop", "Bede", "FAD"] {
            assert!(bound(name), "{name}");
        }
        for name in [
            "Knight",
            "Waffle",
            "Fibnif",
            "Half Duck",
            "Rook",
            "Archbishop",
        ] {
            assert!(!bound(name), "{name}");
        }
    }

    #[test]
    fn bishops_on_both_colours_earn_the_pair_bonus() {
        let t = tables("chess");
        let ev = Evaluator::new(&t);
        let score = |fen: &str| ev.evaluate(&t, &crate::position::fen::parse(&t, fen).unwrap());
        // d4, e4 and e5 give a Bishop the same mobility; e4 is dark, d4 and e5 are light.
        let pair = score("4k3/8/8/8/3BB3/8/8/4K3 w - - 0 1");
        let same = score("4k3/8/8/4B3/3B4/8/8/4K3 w - - 0 1");
        assert!(pair > same, "pair {pair} same colour {same}");
    }

    #[test]
    fn a_bare_king_is_driven_to_the_edge() {
        let t = tables("cwda-rookies-fide");
        let ev = Evaluator::new(&t);
        let score = |fen: &str| ev.evaluate(&t, &crate::position::fen::parse(&t, fen).unwrap());
        let centre = score("8/8/8/3k4/8/8/8/E3K3 w - - 0 1");
        let edge = score("3k4/8/8/8/8/8/8/E3K3 w - - 0 1");
        assert!(edge > centre + 30, "edge {edge} centre {centre}");
    }
}
