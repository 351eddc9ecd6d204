//! The learned evaluation (NNUE): a network whose first layer is kept up to date move by move.
//! [`features`] says which inputs a position switches on, [`format`] reads and writes network
//! files, [`layers`] is the forward pass (a reference and the engine's path), [`simd`] the hot
//! loops (AVX2 or portable), [`accumulator`] the per-ply accumulators the search keeps. The
//! layout: one input per (piece identity, own or enemy, cell) seen from each side's
//! perspective; a hidden layer per perspective (the accumulator); squared clipped ReLU; one
//! output. Families without a network keep the classical evaluation ([`crate::eval`]).
//!
//! Which network a variant gets ([`EvalSettings::network_for`]): none when `UseNNUE` is off;
//! else the `EvalFile` network when one is loaded and knows the variant's pieces; else the
//! network built into the binary for the variant ([`BuiltInNetworks`], which the family's
//! descriptor fills in); else none.

pub mod accumulator;
pub mod features;
pub mod format;
pub mod layers;
pub mod random;
pub mod simd;

use crate::bitboard::BitSet;
use crate::movegen::tables::Tables;
use crate::piece::{Piece, Player};
use crate::position::Position;
use crate::variant::Variant;
use features::{KindMap, MapError};
use format::{FormatError, Network};
use layers::BoundsError;
use simd::Path;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// A network file built into the binary.
pub struct BuiltInNetwork {
    /// Its file, for messages (`networks/cwda.nnue`).
    pub file: &'static str,
    pub bytes: &'static [u8],
}

/// The networks a family builds in, and which of them serves each of its variants. To ship
/// one, put the file at `networks/<family>.nnue` and list it in the family's descriptor
/// (`games/<family>/descriptor.rs`). Variants without one use the classical evaluation
/// unless an `EvalFile` is given.
pub struct BuiltInNetworks {
    pub all: &'static [BuiltInNetwork],
    /// The index in `all` of the network for a variant, if any.
    pub pick: fn(&Variant) -> Option<usize>,
}

/// The protocols' option names (UCI and XBoard alike).
pub const USE_NNUE: &str = "UseNNUE";
pub const EVAL_FILE: &str = "EvalFile";

/// Scores of the network are kept within this bound, well inside the search's mate range.
pub const MAX_SCORE: i32 = 20_000;

/// Why a network was refused.
#[derive(Debug)]
pub enum NnueError {
    File(FormatError),
    Variant(MapError),
    Bounds(BoundsError),
}

impl std::fmt::Display for NnueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NnueError::File(e) => e.fmt(f),
            NnueError::Variant(e) => e.fmt(f),
            NnueError::Bounds(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for NnueError {}

/// A network ready to evaluate one variant: the weights, the variant's kinds in the
/// network's catalog, and the fastest code path of this processor.
#[derive(Debug)]
pub struct Nnue {
    net: Arc<Network>,
    map: KindMap,
    path: Path,
    /// Distinguishes networks, so accumulators computed for one are not used with another.
    id: u64,
}

impl Nnue {
    /// The network for the variant of `t`, if it can evaluate it exactly.
    pub fn new<B: BitSet>(net: Arc<Network>, t: &Tables<B>) -> Result<Nnue, NnueError> {
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        layers::check_bounds(&net).map_err(NnueError::Bounds)?;
        let map =
            KindMap::new(t, &net.header.catalog, net.header.cells).map_err(NnueError::Variant)?;
        Ok(Nnue {
            net,
            map,
            path: Path::best(),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    pub fn network(&self) -> &Network {
        &self.net
    }

    #[inline]
    pub fn hidden(&self) -> usize {
        self.net.header.hidden
    }

    /// Whether the network's score is a correction added to the classical evaluation.
    #[inline]
    pub fn adds_to_classical(&self) -> bool {
        self.net.header.base == format::Base::Classical
    }

    #[inline]
    pub fn cells(&self) -> usize {
        self.net.header.cells
    }

    /// The feature row `piece` on `cell` adds to `perspective`'s accumulator.
    #[inline]
    fn row(&self, perspective: Player, piece: Piece, cell: usize) -> &[i16] {
        let h = self.hidden();
        let i = self
            .map
            .index(perspective, piece, crate::geometry::Cell(cell as u16));
        &self.net.feature_weights[i * h..(i + 1) * h]
    }

    /// The score from the side to move's accumulator `us` and the other's `them`.
    #[inline]
    fn score(&self, us: &[i16], them: &[i16]) -> i32 {
        layers::output(&self.net, self.path, us, them).clamp(-MAX_SCORE, MAX_SCORE)
    }

    /// The evaluation of `pos` from its side to move's view given the network's own score:
    /// the classical evaluation `classical` (computed only when needed) plus the correction,
    /// or the network's score alone.
    #[inline]
    pub fn combine(&self, own: i32, classical: impl FnOnce() -> i32) -> i32 {
        if self.adds_to_classical() {
            (classical() + own).clamp(-MAX_SCORE, MAX_SCORE)
        } else {
            own
        }
    }

    /// The network's own score of `pos` from its side to move's view (without the classical
    /// evaluation a correction network adds to), computed from scratch (for single
    /// evaluations outside the search, and the tests).
    pub fn evaluate_full<B: BitSet>(&self, pos: &Position<B>) -> i32 {
        let mut acc = vec![0; 2 * self.hidden()];
        accumulator::refresh(self, pos.mailbox(), &mut acc);
        let (white, black) = acc.split_at(self.hidden());
        match pos.side {
            Player(0) => self.score(white, black),
            _ => self.score(black, white),
        }
    }

    /// The evaluation of `pos` from its side to move's view, from scratch: the network's
    /// score combined with the classical evaluation `classical` (see [`Self::combine`]).
    pub fn evaluate_position<B: BitSet>(
        &self,
        pos: &Position<B>,
        classical: impl FnOnce() -> i32,
    ) -> i32 {
        self.combine(self.evaluate_full(pos), classical)
    }

    /// The definition's score of `pos` ([`layers::reference`]), for the tests.
    pub fn evaluate_reference<B: BitSet>(&self, pos: &Position<B>) -> i32 {
        let (mut us, mut them) = (Vec::new(), Vec::new());
        self.map.active(pos, pos.side, &mut us);
        self.map.active(pos, Player(1 - pos.side.0), &mut them);
        layers::reference(&self.net, &us, &them).clamp(-MAX_SCORE, MAX_SCORE)
    }
}

/// The built-in network for `variant` (its family's choice), each file read once.
pub fn embedded(variant: &Variant) -> Option<Arc<Network>> {
    let built_in = variant.family.data::<BuiltInNetworks>()?;
    parsed(built_in.all.get((built_in.pick)(variant)?)?)
}

/// `built_in` read, or `None` when it is refused; the first call reads the file.
pub fn parsed(built_in: &'static BuiltInNetwork) -> Option<Arc<Network>> {
    type Parsed = Vec<(&'static str, Option<Arc<Network>>)>;
    static PARSED: Mutex<Parsed> = Mutex::new(Vec::new());
    let mut parsed = PARSED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, net)) = parsed.iter().find(|(f, _)| *f == built_in.file) {
        return net.clone();
    }
    let net = Network::from_bytes(built_in.bytes)
        .map_err(|e| log::warn!("the built-in {} network is refused: {e}", built_in.file))
        .ok()
        .map(Arc::new);
    parsed.push((built_in.file, net.clone()));
    net
}

/// The evaluation the user chose: the `UseNNUE` switch and the `EvalFile` network.
#[derive(Clone, Debug)]
pub struct EvalSettings {
    pub use_nnue: bool,
    /// A network loaded from a file, and where from.
    pub file: Option<(PathBuf, Arc<Network>)>,
}

impl Default for EvalSettings {
    fn default() -> Self {
        EvalSettings {
            use_nnue: true,
            file: None,
        }
    }
}

impl EvalSettings {
    /// The network for the variant of `t`, or `None` for the classical evaluation.
    pub fn network_for<B: BitSet>(&self, t: &Tables<B>) -> Option<Arc<Nnue>> {
        if !self.use_nnue {
            return None;
        }
        self.pick(t, self.file_network(t))
    }

    /// The `EvalFile` network when it serves the variant of `t` (`file`, as
    /// [`Self::file_network`] made it), else the built-in one of its family.
    fn pick<B: BitSet>(
        &self,
        t: &Tables<B>,
        file: Option<Result<Nnue, NnueError>>,
    ) -> Option<Arc<Nnue>> {
        match file {
            Some(Ok(n)) => return Some(Arc::new(n)),
            Some(Err(e)) => log::info!("EvalFile not for {}: {e}", t.variant.name),
            None => {}
        }
        let net = embedded(&t.variant)?;
        Nnue::new(net, t)
            .map_err(|e| log::warn!("the built-in network is not for {}: {e}", t.variant.name))
            .ok()
            .map(Arc::new)
    }

    /// The `EvalFile` network made ready for the variant of `t`, or why it cannot serve it;
    /// `None` when no file is loaded.
    pub fn file_network<B: BitSet>(&self, t: &Tables<B>) -> Option<Result<Nnue, NnueError>> {
        let (_, net) = self.file.as_ref()?;
        Some(Nnue::new(net.clone(), t))
    }

    /// Loads `path` as the `EvalFile` network, refusing a file that is unreadable, damaged or
    /// out of bounds; the settings are unchanged on error. A good file is kept even when it
    /// cannot evaluate the current variant: GUIs send options before the variant, so a
    /// shatranj network arrives while the variant is still chess. It is used for the variants
    /// whose pieces it knows. An empty path forgets the file.
    pub fn load_file(&mut self, path: &str) -> Result<(), NnueError> {
        if path.is_empty() {
            self.file = None;
            return Ok(());
        }
        let path = PathBuf::from(path);
        // The caller names the file in its message.
        let net = Network::load(&path).map_err(|e| NnueError::File(e.cause))?;
        layers::check_bounds(&net).map_err(NnueError::Bounds)?;
        self.file = Some((path, Arc::new(net)));
        Ok(())
    }

    /// One line saying which evaluation the variant of `t` gets, and why a loaded
    /// `EvalFile` is not used for it.
    pub fn describe<B: BitSet>(&self, t: &Tables<B>) -> String {
        // The file network is made once: it is what costs here.
        let file = self.file_network(t).filter(|_| self.use_nnue);
        let refusal = match &file {
            Some(Err(e)) => Some(e.to_string()),
            _ => None,
        };
        let chosen = if self.use_nnue {
            self.pick(t, file)
        } else {
            None
        };
        let mut line = match chosen {
            None => format!("{}: classical evaluation", t.variant.name),
            Some(n) => {
                let h = &n.network().header;
                let source = match &self.file {
                    Some((p, net)) if Arc::ptr_eq(net, &n.net) => p.display().to_string(),
                    _ => "built in".to_string(),
                };
                format!(
                    "{}: network ({source}; {} family, {} hidden, {} pieces)",
                    t.variant.name,
                    h.family,
                    h.hidden,
                    h.catalog.entries.len()
                )
            }
        };
        if let (Some((path, net)), Some(e)) = (&self.file, refusal) {
            line += &format!(
                "; EvalFile {} ({} family) is kept for other variants: {e}",
                path.display(),
                net.header.family
            );
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::accumulator::tests::random_nnue;
    use super::*;

    #[test]
    fn every_built_in_network_is_readable() {
        let mut count = 0;
        for family in crate::games::families() {
            for built_in in family.data::<BuiltInNetworks>().map_or(&[][..], |b| b.all) {
                assert!(parsed(built_in).is_some(), "{}", built_in.file);
                count += 1;
            }
        }
        assert!(count >= 2, "the CwDA and SwDA networks are built in");
    }

    /// Searches a few moves of a game with a random network, every accumulator the search
    /// computes compared with a refresh ([`accumulator::tests::VERIFY`]).
    #[test]
    fn a_search_with_a_network_keeps_exact_accumulators_and_plays_legal_moves() {
        use crate::game::Game;
        use crate::search::{Limits, SearchOptions, Searcher};
        use accumulator::tests::{VERIFIED, VERIFY};
        VERIFY.store(true, Ordering::Relaxed);
        let variants = [
            "cwda-fide-nutty",
            "swda-originals-posh",
            "shatranj",
            "cyclical",
        ];
        for (i, v) in variants.into_iter().enumerate() {
            let (nnue, t) = random_nnue(&[v], 64, 5);
            // Every other variant on two threads: each keeps its own accumulators.
            let options = SearchOptions {
                threads: 1 + i % 2,
                ..SearchOptions::default()
            };
            let mut searcher = Searcher::new(t.clone(), options);
            searcher.set_eval(EvalSettings {
                use_nnue: true,
                file: Some((PathBuf::from("random"), nnue.net.clone())),
            });
            assert!(searcher.uses_network());
            let mut game = Game::new(t.clone());
            let stop = std::sync::atomic::AtomicBool::new(false);
            let limits = Limits {
                depth: Some(5),
                ..Limits::default()
            };
            let before = VERIFIED.load(Ordering::Relaxed);
            for _ in 0..4 {
                let r = searcher.search(&game, &limits, &stop, &mut |_| {});
                let best = r.best.expect("a move");
                assert!(game.legal_moves().contains(&best), "{v}: {best:?}");
                game.play(best);
            }
            assert_eq!(searcher.evaluate(&game), nnue.evaluate_reference(&game.pos));
            let checked = VERIFIED.load(Ordering::Relaxed) - before;
            assert!(checked > 1000, "{v}: only {checked} evaluations checked");
        }
    }

    #[test]
    fn the_engine_scores_positions_as_the_reference_does() {
        let (nnue, t) = random_nnue(&["cwda-nutty-clobberers"], 256, 3);
        let mut pos = crate::position::fen::parse(&t, &t.variant.start_position).unwrap();
        let mut rng = crate::random::Rng::new(9);
        for _ in 0..60 {
            assert_eq!(nnue.evaluate_full(&pos), nnue.evaluate_reference(&pos));
            let moves = crate::movegen::legal_moves(&t, &pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&t, moves[rng.below(moves.len() as u64) as usize]);
        }
    }
}
