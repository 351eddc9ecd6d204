//! Self-play for multi-player games: one engine copy per army, each with its own search
//! method and budget, playing whole games; used to compare the search methods.

use super::multi_player::{search, Method, MultiLimits, Utility};
use crate::bitboard::BitSet;
use crate::game::{Game, Outcome};
use crate::moves::Move;
use crate::piece::Player;
use std::sync::atomic::AtomicBool;

/// How the engine copies play.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// One method per army, in turn order.
    pub methods: Vec<Method>,
    pub limits: MultiLimits,
    /// Games still running after this many plies are stopped without a result.
    pub max_plies: usize,
    /// Plies at the start played at random (seeded), so that games differ.
    pub random_opening: usize,
}

/// A checkmate seen during a game: who, whom, at which ply.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkmate {
    pub by: Player,
    pub victim: Player,
    pub ply: usize,
}

#[derive(Clone, Debug)]
pub struct Record {
    /// `None`: stopped at the ply limit.
    pub outcome: Option<Outcome>,
    pub plies: usize,
    pub moves: Vec<String>,
    pub checkmates: Vec<Checkmate>,
    pub nodes: u64,
    /// For a game stopped at the ply limit: the army whose evaluation is best.
    pub leader: Option<Player>,
}

/// Plays one game from the game's current position.
pub fn play<B: BitSet, U: Utility<B>>(
    mut game: Game<B>,
    eval: &U,
    config: &SelfPlay,
    seed: u64,
) -> Record {
    let mut rng = seed | 1;
    let mut next_random = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let stop = AtomicBool::new(false);
    let mut record = Record {
        outcome: None,
        plies: 0,
        moves: Vec::new(),
        checkmates: Vec::new(),
        nodes: 0,
        leader: None,
    };
    while record.plies < config.max_plies {
        if let Some(o) = game.outcome() {
            record.outcome = Some(o);
            break;
        }
        let moves = game.legal_moves();
        let mv: Move = if record.plies < config.random_opening {
            moves[next_random(moves.len())]
        } else {
            let side = game.pos.side;
            let method = config.methods[side.index() % config.methods.len()];
            let keys = game.repetition_keys();
            let r = search(
                &game.tables,
                eval,
                &game.pos,
                &keys,
                method,
                config.limits,
                &stop,
                |_| {},
            );
            record.nodes += r.nodes;
            r.best.expect("a game that is not over has a move")
        };
        let before = game.pos.alive;
        record.moves.push(game.format_move(mv));
        game.play(mv);
        record.plies += 1;
        // The checkmater moves next, whichever rule checkmated.
        for v in (0..4u8).filter(|&v| before >> v & 1 != 0 && !game.pos.is_alive(Player(v))) {
            record.checkmates.push(Checkmate {
                by: game.pos.side,
                victim: Player(v),
                ply: record.plies,
            });
        }
    }
    if record.outcome.is_none() {
        record.outcome = game.outcome();
    }
    if record.outcome.is_none() {
        record.leader = (0..4u8)
            .map(Player)
            .filter(|&p| game.pos.is_alive(p))
            .max_by_key(|&p| eval.utility(&game.tables, &game.pos, p));
    }
    record
}
