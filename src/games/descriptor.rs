//! What a game family tells the engine about itself beyond its rules: how its variants are
//! named, how long its games last, how scores turn into win/draw/loss odds, the evaluation a
//! search of more than two players needs, its bench positions and its opening suite. Each
//! family fills one in (`games/<family>/descriptor.rs`) and hangs it on its [`Family`] value,
//! beside the items the evaluation and the networks read ([`crate::eval::FamilyEval`],
//! [`crate::nnue::BuiltInNetworks`]); the code above `games/` asks it and names no family.

use super::error::VariantError;
use crate::bitboard::{BitSet, Wide};
use crate::eval::utility::Utility;
use crate::movegen::tables::Tables;
use crate::variant::{Family, Variant};
use std::any::Any;
use std::sync::Arc;

/// A multi-player evaluation shared by the search threads.
pub type SharedUtility<B> = Arc<dyn Utility<B> + Send + Sync>;

/// Everything the engine asks a family, apart from its rules (those are on its variants).
pub struct FamilyDescriptor {
    /// Names the family went by before its id, still accepted where a family is named
    /// (`--family`); network headers written under them stay readable.
    pub aliases: &'static [&'static str],
    /// The variant called `name` (trimmed, lower case); `None` when the name is not one of
    /// this family's, an error when it is but something in it is wrong.
    pub parse: fn(&str) -> Option<Result<Variant, VariantError>>,
    /// Every variant name of the family, in the order lists show them.
    pub names: fn() -> Vec<String>,
    /// How long its games last, for the clock.
    pub game_length: GameLength,
    /// Win/draw/loss odds from a score (`UCI_ShowWDL`).
    pub wdl: WdlFit,
    /// The evaluation a search of more than two players uses; `None` for two-player families.
    pub utility: Option<MultiPlayerUtility>,
    /// Positions `panoply bench` searches: (variant, position string or "" for the start
    /// position, moves played from there).
    pub bench_positions: &'static [(&'static str, &'static str, &'static str)],
    /// The opening suite `panoply datagen` starts games from, relative to the repository.
    pub suite: Option<&'static str>,
}

/// How long a family's games last, in moves of one army, as the clock's budget assumes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLength {
    /// Moves an army makes in a typical game.
    pub expected: u32,
    /// However long the game already is, budget as if at least this many moves remain.
    pub floor: u32,
    /// Early in the game, budget for at most this many moves.
    pub cap: u32,
}

impl GameLength {
    /// Two-player 2D games: the clock's old fixed horizon of 32 moves early on, down to 20
    /// moves left by move 36.
    pub const TWO_PLAYER_2D: GameLength = GameLength {
        expected: 56,
        floor: 20,
        cap: 32,
    };
}

/// The two parameters of the two-sided logistic behind the win/draw/loss odds, in
/// centipawns (`search::wdl`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlFit {
    /// The score at which a win becomes as likely as not.
    pub a: f64,
    /// How quickly the odds change with the score.
    pub b: f64,
}

impl WdlFit {
    /// Fitted by maximum likelihood to 69,880 CwDA positions from Panoply's own games
    /// (`scripts/wdl-fit.py`; see `search::wdl`); the families without a fit of their own
    /// give it too.
    pub const FROM_CWDA_GAMES: WdlFit = WdlFit { a: 372.5, b: 440.6 };
}

/// A family's multi-player evaluation for each board width.
pub struct MultiPlayerUtility {
    narrow: fn(&Tables<u64>) -> SharedUtility<u64>,
    wide: fn(&Tables<Wide>) -> SharedUtility<Wide>,
}

impl MultiPlayerUtility {
    pub const fn new(
        narrow: fn(&Tables<u64>) -> SharedUtility<u64>,
        wide: fn(&Tables<Wide>) -> SharedUtility<Wide>,
    ) -> MultiPlayerUtility {
        MultiPlayerUtility { narrow, wide }
    }

    /// The evaluation for `t`, through the function of its width.
    pub fn build<B: BitSet>(&self, t: &Tables<B>) -> Option<SharedUtility<B>> {
        let per_width: [&dyn Any; 2] = [&self.narrow, &self.wide];
        per_width
            .iter()
            .find_map(|f| f.downcast_ref::<fn(&Tables<B>) -> SharedUtility<B>>())
            .map(|f| f(t))
    }
}

/// What a variant whose family gives no descriptor gets (a test's bare variant): no names,
/// the two-player 2D game length and the CwDA fit.
static FALLBACK: FamilyDescriptor = FamilyDescriptor {
    aliases: &[],
    parse: |_| None,
    names: Vec::new,
    game_length: GameLength::TWO_PLAYER_2D,
    wdl: WdlFit::FROM_CWDA_GAMES,
    utility: None,
    bench_positions: &[],
    suite: None,
};

/// The descriptor `family` carries.
pub fn of(family: Family) -> &'static FamilyDescriptor {
    family.data::<FamilyDescriptor>().unwrap_or(&FALLBACK)
}
