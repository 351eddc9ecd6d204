//! Legal move generation for every game: pseudo-legal targets from the compiled tables, then
//! legality. With one royal piece, only King moves, moves out of check (first narrowed to the
//! cells that end the check), moves of pieces that shield the King from a slider or lame
//! leaper, and en passant need a test; all others are legal as generated, which lets perft
//! count whole target sets with one popcount.

mod check;
pub mod cost;
pub mod notation;
pub mod perft;
pub mod planar;
pub mod tables;

use crate::bitboard::BitSet;
use crate::geometry::Cell;
use crate::moves::{Move, MoveKind};
use crate::piece::{Kind, Player};
use crate::position::Position;
use crate::variant::RoyalRule;
use arrayvec::ArrayVec;
pub use check::may_give_check;
use tables::{Promotion, Tables};

/// Enough for a Missiogi position with every kind in hand.
pub const MAX_MOVES: usize = 8192;
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Where generated moves go: a list, or a counter that takes whole target sets at once.
pub trait MoveSink<B: BitSet> {
    fn targets(&mut self, from: Cell, targets: B, promo: Option<&Promotion<B>>);
    fn drops(&mut self, kind: Kind, targets: B);
    fn push(&mut self, m: Move);
}

impl<B: BitSet> MoveSink<B> for MoveList {
    fn targets(&mut self, from: Cell, targets: B, promo: Option<&Promotion<B>>) {
        for to in targets.cells() {
            push_with_promotions(self, from, to, promo);
        }
    }
    fn drops(&mut self, kind: Kind, targets: B) {
        for to in targets.cells() {
            self.push(Move::drop(kind, to));
        }
    }
    fn push(&mut self, m: Move) {
        ArrayVec::push(self, m)
    }
}

fn push_with_promotions<B: BitSet>(
    list: &mut MoveList,
    from: Cell,
    to: Cell,
    promo: Option<&Promotion<B>>,
) {
    match promo {
        Some(p) if p.must_to.contains(to) => {
            p.choices
                .iter()
                .for_each(|&k| list.push(Move::promotion(from, to, k)));
        }
        Some(p) if p.may_to.contains(to) || p.may_from.contains(from) => {
            list.push(Move::normal(from, to));
            p.choices
                .iter()
                .for_each(|&k| list.push(Move::promotion(from, to, k)));
        }
        _ => list.push(Move::normal(from, to)),
    }
}

/// Counts moves without listing them (perft's bulk counting).
#[derive(Default)]
pub struct Counter(pub u64);

impl<B: BitSet> MoveSink<B> for Counter {
    #[inline]
    fn targets(&mut self, from: Cell, targets: B, promo: Option<&Promotion<B>>) {
        self.0 += match promo {
            Some(p) => p.count(from, targets),
            None => targets.count() as u64,
        };
    }
    #[inline]
    fn drops(&mut self, _: Kind, targets: B) {
        self.0 += targets.count() as u64;
    }
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Whether `cell` is attacked by any player other than `us`, on occupancy `occ`, counting only
/// attackers inside `attackers` (so a piece about to be captured can be left out).
pub fn attacked<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    cell: Cell,
    us: Player,
    occ: B,
    attackers: B,
) -> bool {
    (0..t.players() as u8)
        .map(Player)
        .filter(|&p| p != us && pos.is_alive(p))
        .any(|p| attacked_by(t, pos, cell, p, occ, attackers))
}

/// Whether player `p` attacks `cell`.
pub fn attacked_by<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    cell: Cell,
    p: Player,
    occ: B,
    attackers: B,
) -> bool {
    let theirs = pos.by_player[p.index()] & attackers;
    if theirs.is_empty() {
        return false;
    }
    let on_lines = t.slide_lines[p.index()][cell.index()] & theirs;
    let first = on_lines.any().then(|| t.line_reach(cell, occ)).flatten();
    let slides = match first {
        // A flat board's line lookup gives the first piece on every line at once.
        Some(first) => (first & on_lines & occ)
            .cells()
            .any(|b| slides_from_line(t, pos, cell, p, b, theirs)),
        // Elsewhere the pieces on the cell's lines are few: each is looked at along its own
        // line.
        None => on_lines
            .cells()
            .any(|b| slides_along_line(t, pos, cell, p, b, occ)),
    };
    slides || jumps_onto(t, pos, cell, p, occ, theirs)
}

/// Whether the piece of player `p` on `b`, a cell on one of `cell`'s lines, slides onto
/// `cell` when only the cells of `occ` are occupied.
// Always: since the core is a crate of its own, Armies of Faith's checkmate events (in the
// engine crate) call `attacked_by` from another module, where LLVM stopped inlining the
// slide test and the aof5 perft cost 6% more instructions.
#[inline(always)]
fn slides_along_line<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    cell: Cell,
    p: Player,
    b: Cell,
    occ: B,
) -> bool {
    let Some(back) = t.line_dir(cell, b) else {
        return false;
    };
    pos.piece_at(b).is_some_and(|piece| {
        t.kind(p, piece.kind()).slide_range[t.opposite[back] as usize] >= t.distance(cell, b)
    }) && t.first_blocker(back, cell, occ) == Some(b)
}

/// The pieces of `theirs` (player `p`'s) of a kind that slides: only they can attack along a
/// line, and most lines through a cell hold none of them.
#[inline]
fn sliders_of<B: BitSet>(t: &Tables<B>, pos: &Position<B>, p: Player, theirs: B) -> B {
    t.slider_kinds[p.index()]
        .iter()
        .fold(B::empty(), |acc, k| acc | pos.by_kind[k.index()])
        & theirs
}

/// The leaping and lame pieces of player `p` (among `theirs`) that attack `cell` when only
/// the cells of `occ` are occupied; with `with_middle`, also the middle cell each lame leap
/// passes (the cells where a piece would block the attack).
#[inline]
fn leap_and_lame_attackers<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    cell: Cell,
    p: Player,
    occ: B,
    theirs: B,
    with_middle: bool,
) -> B {
    let mut out = B::empty();
    for from in (t.leap_attackers[p.index()][cell.index()] & theirs).cells() {
        let kind = pos.piece_at(from).expect("attacker on board").kind();
        if t.kind(p, kind).attacked_from[cell.index()].contains(from) {
            out.set(from);
        }
    }
    for &k in &t.lame_kinds[p.index()] {
        let bb = pos.by_kind[k.index()] & theirs;
        if bb.is_empty() {
            continue;
        }
        for &(from, via) in &t.kind(p, k).lame_attackers[cell.index()] {
            if bb.contains(from) && !occ.contains(via) {
                out.set(from);
                if with_middle {
                    out.set(via);
                }
            }
        }
    }
    out
}

/// Every piece of player `p` that attacks `cell` when only the cells of `occ` are occupied:
/// a static exchange takes the pieces off one by one and asks again, so that sliders behind
/// them join in.
pub fn attackers_to<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    cell: Cell,
    p: Player,
    occ: B,
) -> B {
    let theirs = pos.by_player[p.index()] & occ;
    let mut out = B::empty();
    if theirs.is_empty() {
        return out;
    }
    let sliders = sliders_of(t, pos, p, theirs);
    let on_lines = t.slide_lines[p.index()][cell.index()] & sliders;
    if on_lines.any() {
        match t.line_reach(cell, occ) {
            // A flat board's line lookup gives the first piece on every line at once.
            Some(first) => {
                for b in (first & on_lines).cells() {
                    if slides_from_line(t, pos, cell, p, b, sliders) {
                        out.set(b);
                    }
                }
            }
            None => {
                for &d in &t.slide_dirs[p.index()] {
                    if let Some(b) = slides_onto(t, pos, cell, p, d as usize, occ, sliders) {
                        out.set(b);
                    }
                }
            }
        }
    }
    out |= leap_and_lame_attackers(t, pos, cell, p, occ, theirs, false);
    for &k in &t.bent_kinds[p.index()] {
        for from in (pos.by_kind[k.index()] & theirs).cells() {
            if bent_targets(t, p, k, from, occ, true).contains(cell) {
                out.set(from);
            }
        }
    }
    out
}

/// The piece of `theirs` (player `p`) that slides onto `cell` along direction `d`, if any.
#[inline(always)]
fn slides_onto<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    cell: Cell,
    p: Player,
    d: usize,
    occ: B,
    theirs: B,
) -> Option<Cell> {
    let back = t.opposite[d] as usize;
    if (t.ray(back, cell) & theirs).is_empty() {
        return None;
    }
    let b = t.first_blocker(back, cell, occ)?;
    slides_from(t, pos, cell, p, d, b, theirs).then_some(b)
}

/// Whether the piece on `b`, the first one seen from `cell` against direction `d`, is one of
/// `theirs` that slides along `d` as far as `cell`.
#[inline]
fn slides_from<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    cell: Cell,
    p: Player,
    d: usize,
    b: Cell,
    theirs: B,
) -> bool {
    theirs.contains(b)
        && pos
            .piece_at(b)
            .is_some_and(|piece| t.kind(p, piece.kind()).slide_range[d] >= t.distance(cell, b))
}

/// Whether the piece on `b`, the first one on its line from `cell`, is one of `theirs` that
/// slides along the line as far as `cell`.
#[inline(always)]
fn slides_from_line<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    cell: Cell,
    p: Player,
    b: Cell,
    theirs: B,
) -> bool {
    t.line_dir(b, cell)
        .is_some_and(|d| slides_from(t, pos, cell, p, d, b, theirs))
}

/// Whether a piece of `theirs` (player `p`) reaches `cell` by a leap, a lame leap or a bent
/// move: every attack but the slides.
#[inline]
fn jumps_onto<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    cell: Cell,
    p: Player,
    occ: B,
    theirs: B,
) -> bool {
    // Leapers: the union table finds the few candidates, their own kind's table decides.
    let candidates = t.leap_attackers[p.index()][cell.index()] & theirs;
    for from in candidates.cells() {
        let kind = pos.piece_at(from).expect("attacker on board").kind();
        if t.kind(p, kind).attacked_from[cell.index()].contains(from) {
            return true;
        }
    }
    for &k in &t.lame_kinds[p.index()] {
        let bb = pos.by_kind[k.index()] & theirs;
        if bb.any()
            && t.kind(p, k).lame_attackers[cell.index()]
                .iter()
                .any(|&(from, via)| bb.contains(from) && !occ.contains(via))
        {
            return true;
        }
    }
    for &k in &t.bent_kinds[p.index()] {
        let bb = pos.by_kind[k.index()] & theirs;
        for from in bb.cells() {
            if bent_targets(t, p, k, from, occ, true).contains(cell) {
                return true;
            }
        }
    }
    false
}

/// Whether any royal piece of `p` that the royal rule protects is attacked.
pub fn is_in_check<B: BitSet>(t: &Tables<B>, pos: &Position<B>, p: Player) -> bool {
    let royals = pos.royals(t, p);
    if t.variant.royal_rule == RoyalRule::LoneRoyalOnly && royals.count() != 1 {
        return false;
    }
    royals
        .cells()
        .any(|r| attacked(t, pos, r, p, pos.occupied, pos.occupied))
}

/// Cells reached by the bent moves (step, then slide) of `p`'s `k` on `from` among `occ`:
/// those that capture, or with `captures` false those that move.
pub fn bent_targets<B: BitSet>(
    t: &Tables<B>,
    p: Player,
    k: Kind,
    from: Cell,
    occ: B,
    captures: bool,
) -> B {
    let mut out = B::empty();
    for b in &t.kind(p, k).bent[from.index()] {
        if occ.contains(b.first)
            || (captures && !b.mode.captures())
            || (!captures && !b.mode.moves())
        {
            continue;
        }
        out |= t.ray_attack(b.dir as usize, b.first, occ);
    }
    out
}

/// How moves must be tested before they count as legal.
#[derive(Clone, Copy)]
enum Guard<B> {
    /// No royal piece to protect: every pseudo-legal move is legal.
    None,
    /// One royal on `king`: test King moves, evasions and moves of `blockers`. In check,
    /// a move of another piece can only be legal if it lands on `evasions`: a checking
    /// piece's cell or a cell its attack passes (all cells when that is not worked out).
    Single {
        king: Cell,
        in_check: bool,
        blockers: B,
        evasions: B,
    },
    /// Make every move and look (several royals, the lone-royal rule).
    Play,
}

fn guard<B: BitSet>(t: &Tables<B>, pos: &Position<B>, us: Player) -> Guard<B> {
    let royals = pos.royals(t, us);
    let n = royals.count();
    match (t.variant.royal_rule, n) {
        (_, 0) | (RoyalRule::LoneRoyalOnly, 2..) => return Guard::None,
        // A lone royal is guarded like a King, unless a promotion this move could add a
        // second royal (which makes any position of the first one legal).
        (RoyalRule::LoneRoyalOnly, _)
            if t.royal_promoters[us.index()]
                .iter()
                .any(|&(k, sources)| (pos.pieces(us, k) & sources).any()) =>
        {
            return Guard::Play
        }
        (RoyalRule::Each, 2..) => return Guard::Play,
        _ => {}
    }
    let king = royals.lowest().unwrap();
    let occ = pos.occupied;
    let own = pos.by_player[us.index()];
    let mut blockers = B::empty();
    let mut in_check = false;
    let mut evasions = B::empty();
    let opponents = (0..t.players() as u8)
        .map(Player)
        .filter(|&p| p != us && pos.is_alive(p));
    // One look along each line from the King finds both slider checks and pins, whichever
    // opponent's slider stands there (with several opponents, a line is looked along once).
    let mut directions = opponents
        .clone()
        .fold(0u32, |acc, p| acc | t.slide_dir_mask[p.index()]);
    while directions != 0 {
        let d = directions.trailing_zeros() as usize;
        directions &= directions - 1;
        let back = t.opposite[d] as usize;
        let Some(b1) = t.first_blocker(back, king, occ) else {
            continue;
        };
        if !own.contains(b1) {
            if opposing_slider(t, pos, us, king, d, b1) {
                in_check = true;
                // The checker and the empty cells between it and the King.
                evasions |= t.ray(back, king).without(t.ray(back, b1));
            }
            continue;
        }
        let Some(b2) = t.first_blocker(back, b1, occ) else {
            continue;
        };
        if !own.contains(b2) && opposing_slider(t, pos, us, king, d, b2) {
            blockers.set(b1);
        }
    }
    for p in opponents {
        let theirs = pos.by_player[p.index()];
        for &k in &t.bent_kinds[p.index()] {
            for from in pos.pieces(p, k).cells() {
                blockers |= bent_blockers(t, p, k, from, king, occ, own);
            }
        }
        let jumpers = jump_checks(t, pos, king, p, occ, theirs);
        if jumpers.any() {
            in_check = true;
            evasions |= jumpers;
        }
        for &k in &t.lame_kinds[p.index()] {
            let bb = pos.pieces(p, k);
            for &(from, via) in &t.kind(p, k).lame_attackers[king.index()] {
                if bb.contains(from) && own.contains(via) {
                    blockers.set(via);
                }
            }
        }
    }
    Guard::Single {
        king,
        in_check,
        blockers,
        evasions,
    }
}

/// Whether the piece on `b` belongs to an opponent of `us` still playing and slides along
/// `d` as far as `target`.
#[inline(always)]
fn opposing_slider<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    us: Player,
    target: Cell,
    d: usize,
    b: Cell,
) -> bool {
    pos.piece_at(b).is_some_and(|piece| {
        let p = piece.player();
        p != us
            && pos.is_alive(p)
            && t.kind(p, piece.kind()).slide_range[d] >= t.distance(target, b)
    })
}

/// The cells that end the attacks of player `p`'s leaping, lame and bent pieces on `king`
/// ([`jumps_onto`]'s attacks, all of them): the attackers' cells and the cells a lame leap
/// passes; all cells when a bent move attacks, whose path is not worked out here. Empty
/// when none attacks.
fn jump_checks<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    king: Cell,
    p: Player,
    occ: B,
    theirs: B,
) -> B {
    let out = leap_and_lame_attackers(t, pos, king, p, occ, theirs, true);
    for &k in &t.bent_kinds[p.index()] {
        for from in (pos.by_kind[k.index()] & theirs).cells() {
            if bent_targets(t, p, k, from, occ, true).contains(king) {
                return t.board;
            }
        }
    }
    out
}

/// Own pieces that alone block a bent capture (step, then slide) from `from` to `king`.
fn bent_blockers<B: BitSet>(
    t: &Tables<B>,
    p: Player,
    k: Kind,
    from: Cell,
    king: Cell,
    occ: B,
    own: B,
) -> B {
    let mut out = B::empty();
    for b in &t.kind(p, k).bent[from.index()] {
        let line = t.ray(b.dir as usize, b.first);
        if !b.mode.captures() || !line.contains(king) {
            continue;
        }
        // The cells the move passes: the first step, then the line up to the King.
        let mut path = line ^ t.ray(b.dir as usize, king);
        path.clear(king);
        path.set(b.first);
        let on_path = path & occ;
        if on_path.count() == 1 && (on_path & own).any() {
            out |= on_path;
        }
    }
    out
}

/// The targets of a piece's move that the King-safety test must decide, with the King's
/// cell; `None` when the guard lets all of them stand. In check, the targets of a piece
/// other than the King are first narrowed to the evasions: a move elsewhere leaves the
/// checking piece on its cell and every cell of its attack as it was (the piece that
/// moves away was not on them, or there would be no check), so the test would refuse it.
#[inline]
fn to_test<B: BitSet>(g: &Guard<B>, royal: bool, from: Cell, targets: B) -> Option<(Cell, B)> {
    let Guard::Single {
        king,
        in_check,
        blockers,
        evasions,
    } = *g
    else {
        return None;
    };
    if royal || blockers.contains(from) {
        return Some((king, targets));
    }
    in_check.then_some((king, targets & evasions))
}

/// Legality of one move under a `Single` guard: is the King safe afterwards?
#[inline]
fn king_safe_after<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    king: Cell,
    from: Cell,
    to: Cell,
    victim: Option<Cell>,
) -> bool {
    let us = pos.side;
    let mut occ = pos.occupied;
    occ.clear(from);
    occ.set(to);
    let mut attackers = pos.occupied;
    attackers.clear(to);
    if let Some(v) = victim {
        occ.clear(v);
        attackers.clear(v);
    }
    let king = if from == king { to } else { king };
    !attacked(t, pos, king, us, occ, attackers)
}

/// Legality by making the move and looking at every royal.
fn legal_by_play<B: BitSet>(t: &Tables<B>, pos: &Position<B>, mv: Move) -> bool {
    let us = pos.side;
    let next = pos.play_raw(t, mv);
    let royals = next.royals(t, us);
    if t.variant.royal_rule == RoyalRule::LoneRoyalOnly && royals.count() != 1 {
        return true;
    }
    royals
        .cells()
        .all(|r| !attacked(t, &next, r, us, next.occupied, next.occupied))
}

/// The occupancy sets move generation needs, computed once per position.
#[derive(Clone, Copy)]
struct Occupancy<B> {
    occ: B,
    empty: B,
    own: B,
    enemies: B,
}

impl<B: BitSet> Occupancy<B> {
    #[inline]
    fn of(t: &Tables<B>, pos: &Position<B>, us: Player) -> Self {
        let occ = pos.occupied;
        Occupancy {
            occ,
            empty: t.board.without(occ),
            own: pos.by_player[us.index()],
            enemies: pos.enemies(us),
        }
    }
}

/// Pseudo-legal targets of one piece (excluding special moves).
#[inline]
pub fn piece_targets<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    us: Player,
    k: Kind,
    from: Cell,
) -> B {
    targets_of(t, &Occupancy::of(t, pos, us), t.kind(us, k), from)
}

/// [`piece_targets`] with the per-position sets and the kind's tables already at hand.
#[inline]
fn targets_of<B: BitSet>(
    t: &Tables<B>,
    o: &Occupancy<B>,
    kt: &tables::KindTables<B>,
    from: Cell,
) -> B {
    let i = from.index();
    let mut targets = (kt.quiet[i] & o.empty) | (kt.capture[i] & o.enemies);
    if t.lines().is_some() {
        let (captures, moves) = t.slide_reach(kt, from, o.occ);
        targets |= (captures & o.enemies) | (moves & o.empty);
    } else {
        // Direction by direction, each slide's cells go to the targets by its mode: on the
        // wide boards this costs fewer set operations than gathering captures and moves
        // apart first.
        for s in &kt.slides {
            let mut a = t.ray_attack(s.dir as usize, from, o.occ);
            if s.max > 0 {
                a &= s.limit[i];
            }
            match s.mode {
                crate::piece::Mode::Both => targets |= a.without(o.own),
                crate::piece::Mode::Move => targets |= a & o.empty,
                crate::piece::Mode::Capture => targets |= a & o.enemies,
            }
        }
    }
    if kt.has_lame {
        for l in &kt.lame[i] {
            if o.occ.contains(l.via) {
                continue;
            }
            if (l.mode.moves() && o.empty.contains(l.to))
                || (l.mode.captures() && o.enemies.contains(l.to))
            {
                targets.set(l.to);
            }
        }
    }
    if kt.has_bent {
        // One walk per bent path serves both its moves and its captures.
        for b in &kt.bent[i] {
            if o.occ.contains(b.first) {
                continue;
            }
            let reach = t.ray_attack(b.dir as usize, b.first, o.occ);
            if b.mode.moves() {
                targets |= reach & o.empty;
            }
            if b.mode.captures() {
                targets |= reach & o.enemies;
            }
        }
    }
    targets
}

/// Passes on moves and remembers whether there were any.
struct Tally<'a, S> {
    sink: &'a mut S,
    any: bool,
}

impl<B: BitSet, S: MoveSink<B>> MoveSink<B> for Tally<'_, S> {
    #[inline]
    fn targets(&mut self, from: Cell, targets: B, promo: Option<&Promotion<B>>) {
        self.any |= targets.any();
        self.sink.targets(from, targets, promo);
    }
    #[inline]
    fn drops(&mut self, kind: Kind, targets: B) {
        self.any |= targets.any();
        self.sink.drops(kind, targets);
    }
    #[inline]
    fn push(&mut self, m: Move) {
        self.any = true;
        self.sink.push(m);
    }
}

/// Generates the legal moves of the side to move into `sink`. In Armies of Faith a player
/// with no other legal move has exactly one, `pass`, and a finished game has none.
pub fn generate<B: BitSet, S: MoveSink<B>>(t: &Tables<B>, pos: &Position<B>, sink: &mut S) {
    if t.rules.game_over.is_some_and(|over| over(t, pos)) {
        return;
    }
    if !t.variant.stuck_player_passes {
        return generate_moves(t, pos, sink);
    }
    let mut tally = Tally { sink, any: false };
    generate_moves(t, pos, &mut tally);
    if !tally.any {
        tally.sink.push(Move::pass());
    }
}

/// Whether the side to move has a legal move other than `pass`. The events of Armies of
/// Faith ask this of every army in check at the start of its turn: the first move of a
/// piece found legal answers, and only a position without one generates the rest.
pub fn has_legal_move<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> bool {
    if has_legal_piece_move(t, pos) {
        return true;
    }
    let mut tally = Tally {
        sink: &mut Counter::default(),
        any: false,
    };
    generate_moves(t, pos, &mut tally);
    tally.any
}

/// Whether a piece of the side to move has a legal move to one of its targets (plain moves,
/// captures and promotions; not double steps and the other special moves), stopping at the
/// first. `false` also when the guard makes and tests every move: the caller then generates.
fn has_legal_piece_move<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> bool {
    let us = pos.side;
    let g = guard(t, pos, us);
    if let Guard::Play = g {
        return false;
    }
    let o = Occupancy::of(t, pos, us);
    for (k, kt) in t.kinds[us.index()].iter().enumerate() {
        for from in (o.own & pos.by_kind[k]).cells() {
            let targets = targets_of(t, &o, kt, from);
            let legal = match to_test(&g, kt.royal, from, targets) {
                Some((king, candidates)) => candidates
                    .cells()
                    .any(|to| king_safe_after(t, pos, king, from, to, None)),
                None => targets.any(),
            };
            if legal {
                return true;
            }
        }
    }
    false
}

/// The legal moves of the side to move, without the `pass` rule.
fn generate_moves<B: BitSet, S: MoveSink<B>>(t: &Tables<B>, pos: &Position<B>, sink: &mut S) {
    let us = pos.side;
    let g = guard(t, pos, us);
    if let Guard::Play = g {
        let mut all = MoveList::new();
        generate_pseudo(t, pos, &mut all);
        all.into_iter()
            .filter(|&m| legal_by_play(t, pos, m))
            .for_each(|m| sink.push(m));
        return;
    }
    let o = Occupancy::of(t, pos, us);
    let empty = o.empty;
    for (k, kt) in t.kinds[us.index()].iter().enumerate() {
        let kind = Kind(k as u8);
        let pieces = o.own & pos.by_kind[k];
        if pieces.is_empty() {
            continue;
        }
        let promo = t.promotion(us, kind);
        for from in pieces.cells() {
            let mut targets = targets_of(t, &o, kt, from);
            if let Some((king, candidates)) = to_test(&g, kt.royal, from, targets) {
                targets = candidates;
                for to in candidates.cells() {
                    if !king_safe_after(t, pos, king, from, to, None) {
                        targets.clear(to);
                    }
                }
            }
            sink.targets(from, targets, promo);
            for &(skipped, to) in &kt.double_steps[from.index()] {
                if empty.contains(skipped) && empty.contains(to) {
                    let mut only = B::empty();
                    only.set(to);
                    let ok = match to_test(&g, kt.royal, from, only) {
                        Some((king, candidates)) => {
                            candidates.any() && king_safe_after(t, pos, king, from, to, None)
                        }
                        None => true,
                    };
                    if ok {
                        sink.push(Move::new(from, to, MoveKind::DoubleStep, 0));
                    }
                }
            }
        }
    }
    let ok = |m: Move, victim: Option<Cell>| match g {
        Guard::Single { king, .. } => king_safe_after(t, pos, king, m.from(), m.to(), victim),
        _ => true,
    };
    for_each_en_passant(t, pos, |m, victim| {
        if ok(m, Some(victim)) {
            sink.push(m)
        }
    });
    for_each_extra_move(t, pos, |m| {
        let tested = match g {
            Guard::Single {
                in_check, blockers, ..
            } => in_check || blockers.contains(m.from()),
            _ => false,
        };
        if !tested || ok(m, None) {
            sink.push(m)
        }
    });
    for_each_castling(t, pos, |m| sink.push(m));
    let in_check = matches!(g, Guard::Single { in_check: true, .. });
    for_each_drop_set(t, pos, |kind, mut targets| {
        if in_check {
            if let Guard::Single { king, .. } = g {
                for to in targets.cells() {
                    let mut occ = pos.occupied;
                    occ.set(to);
                    if attacked(t, pos, king, us, occ, pos.occupied) {
                        targets.clear(to);
                    }
                }
            }
        }
        sink.drops(kind, targets);
    });
}

/// Whether `mv` is among the moves [`generate`] lists, decided without listing them: the
/// search tries its hash move (perhaps from another position, by a key collision) before
/// generating the rest. Answers for plain moves, double steps and promotions, by the same
/// tests generation applies to them; `None` for other kinds and for variants whose end of
/// game or `pass` rule depends on every move (Armies of Faith).
pub fn quick_legality<B: BitSet>(t: &Tables<B>, pos: &Position<B>, mv: Move) -> Option<bool> {
    let kind = mv.kind();
    let simple = matches!(
        kind,
        MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Promotion
    );
    if !simple || t.variant.stuck_player_passes || t.rules.game_over.is_some() {
        return None;
    }
    let us = pos.side;
    let (from, to) = (mv.from(), mv.to());
    let Some(piece) = pos.piece_at(from).filter(|p| p.player() == us) else {
        return Some(false);
    };
    let k = piece.kind();
    let kt = t.kind(us, k);
    let generated = match kind {
        MoveKind::DoubleStep => {
            let empty = t.board.without(pos.occupied);
            mv == Move::new(from, to, MoveKind::DoubleStep, 0)
                && kt.double_steps[from.index()]
                    .iter()
                    .any(|&(s, d)| d == to && empty.contains(s) && empty.contains(d))
        }
        _ => {
            piece_targets(t, pos, us, k, from).contains(to)
                && promotes_as_generated(t.promotion(us, k), mv)
        }
    };
    Some(generated && passes_guard(t, pos, kt.royal, mv))
}

/// Whether a move onto one of its piece's targets is listed in this form (plain, or promoting
/// to its kind), as [`push_with_promotions`] lists them.
fn promotes_as_generated<B: BitSet>(promo: Option<&Promotion<B>>, mv: Move) -> bool {
    let (from, to) = (mv.from(), mv.to());
    let must = promo.is_some_and(|p| p.must_to.contains(to));
    let may = promo.is_some_and(|p| must || p.may_to.contains(to) || p.may_from.contains(from));
    match mv.kind() {
        MoveKind::Promotion => {
            may && promo.is_some_and(|p| {
                p.choices
                    .iter()
                    .any(|&c| mv == Move::promotion(from, to, c))
            })
        }
        _ => !must && mv == Move::normal(from, to),
    }
}

/// The royal-safety test generation applies to a pseudo-legal move of a piece (not en
/// passant, not a drop): by the same [`Guard`], so that the answer is the generator's.
fn passes_guard<B: BitSet>(t: &Tables<B>, pos: &Position<B>, royal: bool, mv: Move) -> bool {
    match guard(t, pos, pos.side) {
        Guard::None => true,
        Guard::Play => legal_by_play(t, pos, mv),
        Guard::Single {
            king,
            in_check,
            blockers,
            ..
        } => {
            let tested = royal || in_check || blockers.contains(mv.from());
            !tested || king_safe_after(t, pos, king, mv.from(), mv.to(), None)
        }
    }
}

/// All pseudo-legal moves (no royal-safety test), into a list.
pub fn generate_pseudo<B: BitSet>(t: &Tables<B>, pos: &Position<B>, list: &mut MoveList) {
    let us = pos.side;
    let empty = t.board.without(pos.occupied);
    for (k, kt) in t.kinds[us.index()].iter().enumerate() {
        let kind = Kind(k as u8);
        for from in pos.pieces(us, kind).cells() {
            let targets = piece_targets(t, pos, us, kind, from);
            MoveSink::targets(list, from, targets, t.promotion(us, kind));
            for &(skipped, to) in &kt.double_steps[from.index()] {
                if empty.contains(skipped) && empty.contains(to) {
                    list.push(Move::new(from, to, MoveKind::DoubleStep, 0));
                }
            }
        }
    }
    for_each_en_passant(t, pos, |m, _| list.push(m));
    for_each_extra_move(t, pos, |m| list.push(m));
    for_each_castling(t, pos, |m| list.push(m));
    for_each_drop_set(t, pos, |kind, targets| {
        MoveSink::<B>::drops(list, kind, targets)
    });
}

/// Calls `f` with the family's moves that no piece's move table makes, if it has any.
#[inline]
fn for_each_extra_move<B: BitSet>(t: &Tables<B>, pos: &Position<B>, mut f: impl FnMut(Move)) {
    if let Some(extra) = t.rules.extra_moves {
        extra(t, pos, &mut f);
    }
}

fn for_each_en_passant<B: BitSet>(t: &Tables<B>, pos: &Position<B>, mut f: impl FnMut(Move, Cell)) {
    let us = pos.side;
    for (owner, ep) in pos.ep.iter().enumerate() {
        let Some(ep) = ep else { continue };
        if owner == us.index() || pos.occupied.contains(ep.skipped) {
            continue;
        }
        for (k, kt) in t.kinds[us.index()].iter().enumerate() {
            if !kt.en_passant {
                continue;
            }
            let kind = Kind(k as u8);
            let capturers = kt.attacked_from[ep.skipped.index()] & pos.pieces(us, kind);
            let promo = t.promotion(us, kind);
            for from in capturers.cells() {
                let to = ep.skipped;
                // Armies of Faith: an en-passant capture into the promotion zone may promote.
                let (plain, choices) = match promo {
                    Some(p) if p.must_to.contains(to) => (false, &p.choices[..]),
                    Some(p) if p.may_to.contains(to) || p.may_from.contains(from) => {
                        (true, &p.choices[..])
                    }
                    _ => (true, &[][..]),
                };
                if plain {
                    f(Move::en_passant(from, to, None), ep.victim);
                }
                for &c in choices {
                    f(Move::en_passant(from, to, Some(c)), ep.victim);
                }
            }
        }
    }
}

fn for_each_castling<B: BitSet>(t: &Tables<B>, pos: &Position<B>, mut f: impl FnMut(Move)) {
    let us = pos.side;
    if pos.castling == 0 {
        return;
    }
    for (i, c) in t.variant.castlings.iter().enumerate() {
        if c.player != us || pos.castling >> i & 1 == 0 {
            continue;
        }
        let own = pos.by_player[us.index()];
        if !own.contains(c.king_from) || !own.contains(c.partner_from) {
            continue;
        }
        let path_clear = c
            .empty
            .iter()
            .all(|&e| e == c.king_from || e == c.partner_from || !pos.occupied.contains(e));
        if !path_clear {
            continue;
        }
        let mut occ = pos.occupied;
        occ.clear(c.king_from);
        let safe = c
            .safe
            .iter()
            .all(|&s| !attacked(t, pos, s, us, occ, pos.occupied));
        if safe {
            f(Move::new(c.king_from, c.king_to, MoveKind::Castle, i as u8));
        }
    }
}

fn for_each_drop_set<B: BitSet>(t: &Tables<B>, pos: &Position<B>, mut f: impl FnMut(Kind, B)) {
    let us = pos.side;
    if t.variant.drops.is_none() || us.index() >= pos.hands.len() {
        return;
    }
    let empty = t.board.without(pos.occupied);
    for (k, &n) in pos.hands[us.index()].iter().enumerate() {
        if n > 0 {
            let kind = Kind(k as u8);
            f(kind, empty.without(t.drop_forbidden[us.index()][k]));
        }
    }
}

/// The legal moves of the side to move.
pub fn legal_moves<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> MoveList {
    let mut list = MoveList::new();
    generate(t, pos, &mut list);
    list
}

/// The number of legal moves of the side to move.
pub fn count_legal<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> u64 {
    let mut c = Counter::default();
    generate(t, pos, &mut c);
    c.0
}
