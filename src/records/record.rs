//! What a match keeps of a game: the game the schedule asked for and how it went (moves,
//! points per seat, how it ended), for the PGN, the standings and the board server.

/// One game of the schedule.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// 1-based, in schedule order (the PGN `Round`).
    pub number: usize,
    pub variant: String,
    /// Engine index (into the match's engine list) per seat.
    pub seats: Vec<usize>,
    /// The start position (an opening suite's), or `None` for the variant's own.
    pub start: Option<String>,
    /// Book moves from the start position, in Panoply's notation.
    pub opening: Vec<String>,
    /// The game pair this game belongs to: the two games of a pair of engines that share an
    /// opening with colours swapped (`None` for a game without a partner).
    pub pair: Option<usize>,
}

/// PGN `Termination` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of the game, or a resignation.
    Normal,
    /// Illegal move, false claim, a legal move refused.
    RulesInfraction,
    TimeForfeit,
    /// The engine crashed, or could not start.
    Abandoned,
    /// The referee's judgement: the move limit, both engines' scores, or only royal pieces
    /// left that cannot checkmate.
    Adjudication,
    /// The game is still in progress (a game saved from the board server).
    Unterminated,
}

impl Termination {
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::RulesInfraction => "rules infraction",
            Termination::TimeForfeit => "time forfeit",
            Termination::Abandoned => "abandoned",
            Termination::Adjudication => "adjudication",
            Termination::Unterminated => "unterminated",
        }
    }
}

#[derive(Clone, Debug)]
pub struct RecordedMove {
    pub mv: String,
    pub seat: usize,
    pub comment: Option<String>,
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub spec: GameSpec,
    pub engine_names: Vec<String>,
    pub seat_names: Vec<String>,
    /// The position-string letter of each seat (`w`, `b` or `c`, `p`, `i`, `b`).
    pub seat_symbols: Vec<char>,
    pub start_position: String,
    pub moves: Vec<RecordedMove>,
    /// Points per seat (they sum to 1).
    pub scores: Vec<f64>,
    pub termination: Termination,
    /// A sentence: "White wins by checkmate", "Black forfeits: illegal move e2e5".
    pub reason: String,
}
