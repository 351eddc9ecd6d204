//! Picks the bitset width once, when a variant is selected: boards of up to 64 cells run on
//! `u64`, the 3D boards on [`Wide`]. Everything above this layer matches on [`AnyTables`]
//! (usually through [`with_tables!`]) and calls generic code.

use crate::bitboard::{BitSet, Wide};
use crate::movegen::tables::Tables;
use crate::variant::Variant;
use std::sync::Arc;

#[derive(Clone)]
pub enum AnyTables {
    Narrow(Arc<Tables<u64>>),
    Wide(Arc<Tables<Wide>>),
}

impl AnyTables {
    pub fn new(variant: Variant) -> AnyTables {
        if variant.shape.cells() <= u64::CAPACITY {
            AnyTables::Narrow(Arc::new(Tables::new(variant)))
        } else {
            AnyTables::Wide(Arc::new(Tables::new(variant)))
        }
    }

    pub fn variant(&self) -> &Variant {
        match self {
            AnyTables::Narrow(t) => &t.variant,
            AnyTables::Wide(t) => &t.variant,
        }
    }
}

/// Runs `$body` with `$t` bound to the concrete `Arc<Tables<B>>`.
#[macro_export]
macro_rules! with_tables {
    ($any:expr, $t:ident => $body:expr) => {
        match $any {
            $crate::game::AnyTables::Narrow($t) => $body,
            $crate::game::AnyTables::Wide($t) => $body,
        }
    };
}

pub mod record;
pub mod state;
pub use state::{Game, Outcome};
