//! Self-play: engine copies playing whole games against each other, ended only by the rules
//! ([`Game::outcome`]) or by a ply cap. Two-player games use one [`Searcher`] per side;
//! multi-player games one engine copy per army, each with its own search method (used to
//! compare the methods) and its own table, kept through the game.

use super::multi_player::{search, Method, MultiLimits, MultiResult};
use super::multi_table::MultiTable;
use super::{Limits, SearchResult, Searcher};
use crate::bitboard::BitSet;
use crate::eval::utility::Utility;
pub use crate::game::record::{Checkmate, Record};
use crate::game::Game;
use crate::moves::Move;
use crate::piece::Player;
use crate::random::XorShift;
use std::sync::atomic::AtomicBool;

/// How the engine copies of a multi-player game play.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// One method per army, in turn order.
    pub methods: Vec<Method>,
    /// One budget (and quiescence) per army in turn order, or one for all: armies given
    /// different budgets show what a deeper search is worth in each seat.
    pub limits: Vec<MultiLimits>,
    /// Games still running after this many plies are stopped without a result.
    pub max_plies: usize,
    /// Plies at the start played at random (seeded), so that games differ.
    pub random_opening: usize,
}

/// How long a game may run and how it starts, whoever plays it.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Games still running after this many plies are stopped without a result.
    pub max_plies: usize,
    /// Plies at the start played at random (seeded), so that games differ.
    pub random_opening: usize,
    pub seed: u64,
}

/// Plays from the game's position until the rules end it or `schedule.max_plies` plies are
/// played. `choose` picks the move after the random opening and returns the nodes it
/// searched; `after` sees the position before each move and the game after it.
fn drive<B: BitSet>(
    game: &mut Game<B>,
    schedule: Schedule,
    mut choose: impl FnMut(&Game<B>) -> (Move, u64),
    mut after: impl FnMut(&crate::position::Position<B>, &Game<B>, &mut Record),
) -> Record {
    let mut rng = XorShift::new(schedule.seed);
    let mut record = Record {
        outcome: None,
        plies: 0,
        moves: Vec::new(),
        checkmates: Vec::new(),
        nodes: 0,
        leader: None,
    };
    loop {
        record.outcome = game.outcome();
        if record.outcome.is_some() || record.plies >= schedule.max_plies {
            return record;
        }
        let mv = if record.plies < schedule.random_opening {
            let moves = game.legal_moves();
            moves[rng.below(moves.len())]
        } else {
            let (mv, nodes) = choose(game);
            record.nodes += nodes;
            mv
        };
        let before = game.pos;
        record.moves.push(game.format_move(mv));
        game.play(mv);
        record.plies += 1;
        after(&before, game, &mut record);
    }
}

/// Plays one two-player game from the game's current position: `searchers[p]` moves for
/// player `p`, each within `limits` per move. `observe` sees every searched position with
/// the search's result before its move is played (training data for the tuner).
pub fn play_two_player<B: BitSet>(
    mut game: Game<B>,
    searchers: &mut [Searcher<B>; 2],
    limits: &Limits,
    schedule: Schedule,
    observe: &mut dyn FnMut(&Game<B>, &SearchResult),
) -> Record {
    let stop = AtomicBool::new(false);
    drive(
        &mut game,
        schedule,
        |g| {
            let searcher = &mut searchers[g.pos.side.index()];
            let r = searcher.search(g, limits, &stop, &mut |_| {});
            observe(g, &r);
            (r.best.expect("a game that is not over has a move"), r.nodes)
        },
        |_, _, _| {},
    )
}

/// Plays one multi-player game from the game's current position. `observe` sees every
/// searched position with the search's result before its move is played (the depth
/// each army reaches, for measurements).
pub fn play<B: BitSet, U: Utility<B>>(
    mut game: Game<B>,
    eval: &U,
    config: &SelfPlay,
    seed: u64,
    observe: &mut dyn FnMut(&Game<B>, &MultiResult),
) -> Record {
    let stop = AtomicBool::new(false);
    // One table per army, as each army's engine copy has its own; new for each game.
    let mut tables: Vec<MultiTable> = (0..game.tables.players())
        .map(|_| MultiTable::standard())
        .collect();
    let schedule = Schedule {
        max_plies: config.max_plies,
        random_opening: config.random_opening,
        seed,
    };
    let mut record = drive(
        &mut game,
        schedule,
        |g| {
            let method = config.methods[g.pos.side.index() % config.methods.len()];
            let limits = config.limits[g.pos.side.index() % config.limits.len()];
            let keys = g.repetition_keys();
            let r = search(
                &g.tables,
                eval,
                &g.pos,
                &keys,
                method,
                limits,
                &stop,
                &mut tables[g.pos.side.index()],
                |_| {},
            );
            observe(g, &r);
            (r.best.expect("a game that is not over has a move"), r.nodes)
        },
        |before, g, record| {
            // The checkmater moves next, whichever rule checkmated.
            let players = g.tables.players() as u8;
            for v in
                (0..players).filter(|&v| before.alive >> v & 1 != 0 && !g.pos.is_alive(Player(v)))
            {
                record.checkmates.push(Checkmate {
                    by: g.pos.side,
                    victim: Player(v),
                    ply: record.plies,
                });
            }
        },
    );
    if record.outcome.is_none() {
        let players = game.tables.players() as u8;
        record.leader = (0..players)
            .map(Player)
            .filter(|&p| game.pos.is_alive(p))
            .max_by_key(|&p| eval.utility(&game.tables, &game.pos, p));
    }
    record
}
