//! A variant is pure data: board shape, players and their orientation, piece kinds, start
//! position and rule options. The game families in `games/` build these; the move generator
//! compiles them into tables (`movegen::tables`). A family's rules that are more than data
//! (Armies of Faith's checkmate events, its own position strings) come as functions the
//! family fills in ([`RuleFunctions`]); nothing below the families names one.

use crate::geometry::{Cell, Orientation, Shape};
use crate::piece::{Kind, PieceDef, Player};
use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// A game family: its id (the canonical name, `cwda`, `aof5`, ...) and the data it hands the
/// layers above the core (evaluation weights, built-in networks, its descriptor), each item
/// a type that the layer reading it defines. The family's descriptor in `games/<family>/`
/// owns the one value of this type that every variant of the family carries, so the set of
/// families is open: a new one adds no line here. Two families are the same when their ids
/// are.
#[derive(Clone, Copy, Default)]
pub struct Family {
    id: &'static str,
    data: &'static [&'static (dyn Any + Send + Sync)],
}

impl Family {
    /// The family called `id`, with the items the layers above the core look up by type.
    pub const fn new(id: &'static str, data: &'static [&'static (dyn Any + Send + Sync)]) -> Self {
        Self { id, data }
    }

    /// The canonical name: network headers, the browser board, suites and `--family` use it.
    pub fn id(self) -> &'static str {
        self.id
    }

    /// The family's item of type `T`, if it gives one (the default applies otherwise).
    pub fn data<T: Any>(self) -> Option<&'static T> {
        self.data.iter().find_map(|d| d.downcast_ref::<T>())
    }
}

impl PartialEq for Family {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Family {}

impl fmt::Debug for Family {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.id)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.id)
    }
}

/// When a pawn-like piece promotes, and to what.
#[derive(Clone, Debug, PartialEq)]
pub struct PromotionRule {
    pub player: Player,
    pub kind: Kind,
    /// Moves ending here may promote.
    pub may_to: Vec<Cell>,
    /// Moves starting here may promote (Missionary's zone counts on entry and exit).
    pub may_from: Vec<Cell>,
    /// Moves ending here must promote.
    pub must_to: Vec<Cell>,
    pub choices: Vec<Kind>,
}

/// One castling move: King and partner jump to fixed cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Castling {
    pub player: Player,
    /// The position-string letter of the right (`K`, `Q`, `k`, `q`).
    pub symbol: char,
    pub king_from: Cell,
    pub king_to: Cell,
    pub partner_from: Cell,
    pub partner_to: Cell,
    /// Cells that must be empty (apart from King and partner).
    pub empty: Vec<Cell>,
    /// Cells the King stands on, crosses or reaches, which must not be attacked.
    pub safe: Vec<Cell>,
}

/// How royal pieces constrain play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoyalRule {
    /// Every royal piece must stay safe (the usual King rule).
    Each,
    /// Shatranj with Different Armies: while a side has two or more royals none of them is
    /// royal; a lone one is.
    LoneRoyalOnly,
}

/// What having no legal move means for the side to move when it is not in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateRule {
    Draw,
    Loss,
}

/// Drop rules: what a capture puts in the captor's hand and where pieces may be dropped.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DropRules {
    /// Indexed by the captured kind: the kind that goes to the captor's hand, if any.
    pub to_hand: Vec<Option<Kind>>,
    /// (player, kind, cells where that player may not drop that kind)
    pub forbidden: Vec<(Player, Kind, Vec<Cell>)>,
    /// Hand kinds in the order holdings are printed.
    pub hand_order: Vec<Kind>,
}

/// How a promotion is written after the move's cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromotionSuffix {
    /// The new kind's token in lower case (`e7e8q`).
    Token,
    /// A plus sign, where the promoted kind follows from the piece (`+`).
    Plus,
    /// An equals sign and the token (`=Q`).
    EqualsToken,
}

/// A family's rule functions for each board width (`movegen::tables::FamilyRules<B>`), filled
/// in by the family when it builds its variant. They are held here without their types,
/// which name the tables and the position that are built from the variant;
/// `movegen::tables::Tables::new` takes back the one of its width, once.
#[derive(Clone, Default)]
pub struct RuleFunctions {
    per_width: Vec<Arc<dyn Any + Send + Sync>>,
}

impl RuleFunctions {
    pub(crate) fn new(per_width: Vec<Arc<dyn Any + Send + Sync>>) -> RuleFunctions {
        RuleFunctions { per_width }
    }

    /// The functions of type `R` (the tables of one width), if the family gave them.
    pub(crate) fn get<R: Any + Copy>(&self) -> Option<R> {
        self.per_width
            .iter()
            .find_map(|r| r.downcast_ref::<R>())
            .copied()
    }
}

impl fmt::Debug for RuleFunctions {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "RuleFunctions({} widths)", self.per_width.len())
    }
}

#[derive(Clone, Debug)]
pub struct Variant {
    pub name: String,
    pub family: Family,
    pub shape: Shape,
    /// One orientation per player; its length is the number of players.
    pub orientations: Vec<Orientation>,
    /// Letters naming the players in position strings (`w`, `b` or `c`, `p`, `i`, `b`).
    pub player_symbols: Vec<char>,
    pub pieces: Vec<PieceDef>,
    /// The army names playing, per player (for display and evaluation).
    pub armies: Vec<String>,
    pub start_position: String,
    /// The start position GUIs that know this game by name set up on their own (XBoard's
    /// `variant shatranj`, CuteChess's `position startpos`), when it differs from ours. Engine
    /// sessions start from it so that both boards agree; everything else uses
    /// `start_position`.
    pub gui_start_position: Option<String>,
    pub promotions: Vec<PromotionRule>,
    /// Per player: cells from which pawns may double-step.
    pub double_step_cells: Vec<Vec<Cell>>,
    pub castlings: Vec<Castling>,
    /// Per player, indexed by kind: the kind a piece becomes when it moves (Cyclical Armies);
    /// empty when pieces never change.
    pub morph: Vec<Vec<Kind>>,
    pub drops: Option<DropRules>,
    pub royal_rule: RoyalRule,
    pub stalemate: StalemateRule,
    /// Plies without capture or pawn move that draw (100 = the 50-move rule); 0 = none.
    pub move_rule_plies: u16,
    /// How promotions are written.
    pub promotion_suffix: PromotionSuffix,
    /// A player with no legal move passes instead of being checkmated or stalemated.
    pub stuck_player_passes: bool,
    /// The family alone decides when a game ends (its `outcome` function): the shared
    /// checkmate, stalemate, move-count and repetition rules do not apply.
    pub own_game_end: bool,
    /// The family's rules that are functions rather than data.
    pub rules: RuleFunctions,
}

impl Variant {
    /// A two-player-style variant with the usual rules (royal King, stalemate a draw, the
    /// 50-move rule) and nothing else: no promotions, castling, drops or rule functions.
    /// Families fill in the rest with struct update syntax, so a new rule field with a
    /// default touches no family that does not use it.
    pub fn new(
        name: impl Into<String>,
        family: Family,
        shape: Shape,
        orientations: Vec<Orientation>,
        player_symbols: Vec<char>,
        pieces: Vec<PieceDef>,
    ) -> Variant {
        Variant {
            name: name.into(),
            family,
            shape,
            orientations,
            player_symbols,
            pieces,
            armies: Vec::new(),
            start_position: String::new(),
            gui_start_position: None,
            promotions: Vec::new(),
            double_step_cells: Vec::new(),
            castlings: Vec::new(),
            morph: Vec::new(),
            drops: None,
            royal_rule: RoyalRule::Each,
            stalemate: StalemateRule::Draw,
            move_rule_plies: 100,
            promotion_suffix: PromotionSuffix::Token,
            stuck_player_passes: false,
            own_game_end: false,
            rules: RuleFunctions::default(),
        }
    }

    /// Where an engine session (UCI, XBoard) starts a game.
    pub fn session_start(&self) -> &str {
        self.gui_start_position
            .as_deref()
            .unwrap_or(&self.start_position)
    }

    pub fn players(&self) -> usize {
        self.orientations.len()
    }

    pub fn kind(&self, i: Kind) -> &PieceDef {
        &self.pieces[i.index()]
    }

    pub fn kinds(&self) -> impl Iterator<Item = Kind> {
        (0..self.pieces.len() as u8).map(Kind)
    }

    pub fn kind_by_token(&self, token: &str) -> Option<Kind> {
        self.kinds()
            .find(|&k| self.kind(k).token.eq_ignore_ascii_case(token))
    }

    /// The kind a piece of `player` becomes after moving.
    pub fn morph_of(&self, player: Player, kind: Kind) -> Kind {
        self.morph
            .get(player.index())
            .map_or(kind, |m| m[kind.index()])
    }

    pub fn promotion_for(&self, player: Player, kind: Kind) -> Option<&PromotionRule> {
        self.promotions
            .iter()
            .find(|p| p.player == player && p.kind == kind)
    }
}
