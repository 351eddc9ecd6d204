//! Which inputs a position switches on. A network serves every pairing of a family: its inputs
//! are not numbered by the variant's kind indices (which differ per pairing) but by a
//! *catalog* of piece identities (token and name) stored in the network file. A variant can be
//! evaluated when each of its kinds is in the catalog ([`KindMap::new`]); a kind the network
//! never saw (an army from a file, a family without a network) makes the map fail, and the
//! engine keeps the classical evaluation.
//!
//! Input index, from perspective `p` (the player whose view the accumulator takes):
//! `(entry * 2 + colour) * cells + cell`, with `colour` 0 for `p`'s own pieces and 1 for the
//! other player's, and `cell` mirrored rank-wise (`y -> ranks - 1 - y`) for the second player,
//! so that both perspectives see their own pieces moving up the board.

use crate::bitboard::BitSet;
use crate::geometry::{Cell, Shape};
use crate::movegen::tables::Tables;
use crate::piece::{Kind, Piece, Player, MAX_KINDS};
use crate::position::Position;

/// A piece identity: what a network's input means, whatever the pairing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CatalogEntry {
    /// Upper-case position-string token (`N`, `+W`, ...).
    pub token: String,
    pub name: String,
}

/// The piece identities a network knows, in input order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Catalog {
    pub entries: Vec<CatalogEntry>,
}

impl Catalog {
    /// Every piece identity of the given variants, in order of first appearance.
    pub fn of<'a, B: BitSet + 'a>(tables: impl IntoIterator<Item = &'a Tables<B>>) -> Catalog {
        let mut catalog = Catalog::default();
        for t in tables {
            for def in &t.variant.pieces {
                let entry = CatalogEntry {
                    token: def.token.clone(),
                    name: def.name.clone(),
                };
                if !catalog.entries.contains(&entry) {
                    catalog.entries.push(entry);
                }
            }
        }
        catalog
    }

    fn position_of(&self, token: &str, name: &str) -> Option<usize> {
        self.entries
            .iter()
            .position(|e| e.token == token && e.name == name)
    }
}

/// Why a network cannot evaluate a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapError {
    /// A kind of the variant is not among the network's pieces.
    UnknownPiece { token: String, name: String },
    /// The network was made for a board of another size.
    BoardSize { network: usize, variant: usize },
    /// Networks are for two-player games.
    Players(usize),
}

impl std::fmt::Display for MapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MapError::UnknownPiece { token, name } => {
                write!(f, "the network does not know the piece {name} ({token})")
            }
            MapError::BoardSize { network, variant } => write!(
                f,
                "the network is for boards of {network} cells, the variant has {variant}"
            ),
            MapError::Players(n) => write!(f, "networks are for two players, not {n}"),
        }
    }
}

/// One variant's kinds translated to a network's catalog, and the cell mirror per perspective.
#[derive(Clone, Debug)]
pub struct KindMap {
    /// Catalog entry per kind index of the variant.
    entry: [u16; MAX_KINDS],
    cells: usize,
    /// The cell as the second player sees it.
    mirrored: Vec<u16>,
    /// Each cell's file-wise twin (`x -> files - 1 - x`), for training on mirrored positions.
    file_twin: Vec<u16>,
}

impl KindMap {
    pub fn new<B: BitSet>(
        t: &Tables<B>,
        catalog: &Catalog,
        cells: usize,
    ) -> Result<KindMap, MapError> {
        let variant = &t.variant;
        if variant.players() != 2 {
            return Err(MapError::Players(variant.players()));
        }
        if variant.shape.cells() != cells {
            return Err(MapError::BoardSize {
                network: cells,
                variant: variant.shape.cells(),
            });
        }
        let (last_file, last_rank) = (
            variant.shape.files as i32 - 1,
            variant.shape.ranks as i32 - 1,
        );
        let mut entry = [0u16; MAX_KINDS];
        for (k, def) in variant.pieces.iter().enumerate() {
            entry[k] = catalog.position_of(&def.token, &def.name).ok_or_else(|| {
                MapError::UnknownPiece {
                    token: def.token.clone(),
                    name: def.name.clone(),
                }
            })? as u16;
        }
        Ok(KindMap {
            entry,
            cells,
            mirrored: mirror_table(&variant.shape, |x, y| (x, last_rank - y)),
            file_twin: mirror_table(&variant.shape, |x, y| (last_file - x, y)),
        })
    }

    /// Number of inputs per perspective for a catalog of `entries` pieces on `cells` cells.
    pub fn inputs(entries: usize, cells: usize) -> usize {
        entries * 2 * cells
    }

    /// The input that `piece` on `cell` switches on, from `perspective`'s view.
    #[inline]
    pub fn index(&self, perspective: Player, piece: Piece, cell: Cell) -> usize {
        let colour = (piece.player() != perspective) as usize;
        let cell = if perspective == Player(0) {
            cell.index()
        } else {
            self.mirrored[cell.index()] as usize
        };
        (self.entry[piece.kind().index()] as usize * 2 + colour) * self.cells + cell
    }

    /// Every input `pos` switches on from `perspective`'s view (a full refresh).
    pub fn active<B: BitSet>(&self, pos: &Position<B>, perspective: Player, out: &mut Vec<usize>) {
        out.clear();
        for cell in pos.occupied.cells() {
            if let Some(piece) = pos.piece_at(cell) {
                out.push(self.index(perspective, piece, cell));
            }
        }
    }

    /// Input `index` with its cell mirrored file-wise: what the same piece switches on in the
    /// left-right mirror image of the position. Both perspectives' views mirror alike, since
    /// the perspective's rank mirror and the file mirror commute.
    #[inline]
    pub fn file_mirrored(&self, index: usize) -> usize {
        let cell = index % self.cells;
        index - cell + self.file_twin[cell] as usize
    }

    /// The catalog entry of a kind (for tests and diagnostics).
    pub fn entry(&self, kind: Kind) -> usize {
        self.entry[kind.index()] as usize
    }
}

/// Each cell's twin under `mirror`, a map of (file, rank) to (file, rank) on the same level.
fn mirror_table(shape: &Shape, mirror: impl Fn(i32, i32) -> (i32, i32)) -> Vec<u16> {
    shape
        .all_cells()
        .map(|c| {
            let (x, y, z) = shape.coords(c);
            let (x, y) = mirror(x, y);
            let twin = shape.cell(x, y, z).expect("a mirror stays on the board");
            twin.0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyTables;
    use crate::games;

    fn narrow(name: &str) -> std::sync::Arc<Tables<u64>> {
        match games::tables(name).unwrap() {
            AnyTables::Narrow(t) => t,
            AnyTables::Wide(_) => panic!("{name} is not 8x8"),
        }
    }

    #[test]
    fn one_catalog_serves_every_pairing_and_mirrors_the_second_player() {
        let all: Vec<_> = games::names()
            .into_iter()
            .filter(|n| n.starts_with("cwda-") && !n.ends_with("-anypromo"))
            .map(|n| narrow(&n))
            .collect();
        let catalog = Catalog::of(all.iter().map(|t| &**t));
        // King, Pawn and four pieces of each of the four armies (Rookies and Clobberers
        // share no piece with FIDE; the count pins the catalog down).
        assert_eq!(catalog.entries.len(), 18, "{catalog:?}");
        let t = narrow("cwda-fide-nutty");
        let map = KindMap::new(&*t, &catalog, 64).unwrap();
        let pos = crate::position::fen::parse(&t, &t.variant.start_position).unwrap();
        let mut white = Vec::new();
        let mut black = Vec::new();
        map.active(&pos, Player(0), &mut white);
        map.active(&pos, Player(1), &mut black);
        assert_eq!(white.len(), 32);
        // The start position is not symmetric (different armies), so the two views differ,
        // but each sees sixteen own pieces on its first two ranks.
        let own_low = |v: &[usize]| {
            v.iter()
                .filter(|&&i| (i / 64) % 2 == 0 && i % 64 < 16)
                .count()
        };
        assert_eq!(own_low(&white), 16);
        assert_eq!(own_low(&black), 16);
        assert_ne!(white, black);
    }

    #[test]
    fn the_file_mirror_of_the_inputs_is_the_inputs_of_the_mirror_image() {
        let t = narrow("cwda-fide-nutty");
        let catalog = Catalog::of([&*t]);
        let map = KindMap::new(&*t, &catalog, 64).unwrap();
        let parse = |s: &str| crate::position::fen::parse(&t, s).unwrap();
        let pos = parse("4k1c1/2p5/8/8/8/8/1P6/4K2R w - - 0 1");
        let image = parse("1c1k4/5p2/8/8/8/8/6P1/R2K4 w - - 0 1");
        for side in [Player(0), Player(1)] {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            map.active(&pos, side, &mut a);
            map.active(&image, side, &mut b);
            let mut mirrored: Vec<usize> = a.iter().map(|&i| map.file_mirrored(i)).collect();
            mirrored.sort();
            b.sort();
            assert_eq!(mirrored, b, "{side:?}");
            assert_ne!(
                a.iter().copied().collect::<std::collections::BTreeSet<_>>(),
                b.iter().copied().collect()
            );
        }
    }

    #[test]
    fn an_unknown_piece_is_refused() {
        let shatranj = narrow("shatranj");
        let catalog = Catalog::of([&*shatranj]);
        let err = KindMap::new(&*narrow("cwda-fide-rookies"), &catalog, 64).unwrap_err();
        assert!(matches!(err, MapError::UnknownPiece { .. }), "{err}");
        assert!(KindMap::new(&*shatranj, &catalog, 64).is_ok());
    }
}
