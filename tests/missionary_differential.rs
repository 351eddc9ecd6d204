//! Differential tests: the engine's move generator, move making and position strings against
//! the simple reference generator in `missionary_reference/`, on random Missionary positions with full
//! hands (deterministic pseudo-random numbers, so failures reproduce).

use crate::missionary_reference;
use missionary_reference as reference;

use panoply::bitboard::Wide;
use panoply::game::AnyTables;
use panoply::movegen::notation::{format_move, parse_move};
use panoply::movegen::tables::Tables;
use panoply::movegen::{count_legal, legal_moves, perft::perft};
use panoply::position::fen;
use reference::{Board, Man, RefMove, Sub, FILES, LEVELS, RANKS, TOKENS};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn tables(name: &str) -> Arc<Tables<Wide>> {
    match panoply::games::tables(name).unwrap() {
        AnyTables::Wide(t) => t,
        AnyTables::Narrow(_) => panic!("{name} should use the wide bitset"),
    }
}

fn subs() -> [(Sub, &'static str); 3] {
    [
        (Sub::Missionary, "missionary"),
        (Sub::Missiogi, "missiogi"),
        (Sub::Frontofhouse, "frontofhouse"),
    ]
}

/// A random legal-looking position: two Emperors, `men` other pieces, and with `hands` every
/// holdable kind once or twice in each hand. The side not to move is never in check.
fn random_board(rng: &mut Rng, men: usize, hands: bool) -> Board {
    loop {
        let mut b = Board {
            cells: HashMap::new(),
            hands: [HashMap::new(), HashMap::new()],
            white_to_move: rng.below(2) == 0,
        };
        let place = |b: &mut Board, man: Man, rng: &mut Rng| loop {
            let c = (
                rng.below(LEVELS as usize) as i32,
                rng.below(FILES as usize) as i32,
                rng.below(RANKS as usize) as i32,
            );
            if !b.cells.contains_key(&c) && reference::may_stand(man, c) {
                b.cells.insert(c, man);
                return;
            }
        };
        for white in [true, false] {
            place(&mut b, Man { white, token: "K" }, rng);
        }
        let others: Vec<&str> = TOKENS.iter().copied().filter(|&t| t != "K").collect();
        for _ in 0..men {
            let man = Man {
                white: rng.below(2) == 0,
                token: others[rng.below(others.len())],
            };
            place(&mut b, man, rng);
        }
        if hands {
            for side in 0..2 {
                for t in reference::hand_tokens() {
                    b.hands[side].insert(t, 1 + rng.below(2) as u32);
                }
            }
        }
        if !b.in_check(!b.white_to_move) {
            return b;
        }
    }
}

fn texts(moves: &[RefMove]) -> BTreeSet<String> {
    moves.iter().map(|m| m.text()).collect()
}

/// Picks a move, preferring captures and board moves so that hands and promotions change.
fn choose<'a>(rng: &mut Rng, b: &Board, moves: &'a [RefMove]) -> &'a RefMove {
    let captures: Vec<&RefMove> = moves
        .iter()
        .filter(|m| m.from.is_some() && b.cells.contains_key(&m.to))
        .collect();
    let board: Vec<&RefMove> = moves.iter().filter(|m| m.from.is_some()).collect();
    match rng.below(10) {
        0..=4 if !captures.is_empty() => captures[rng.below(captures.len())],
        0..=7 if !board.is_empty() => board[rng.below(board.len())],
        _ => &moves[rng.below(moves.len())],
    }
}

/// Walks `plies` random moves from `b`, comparing legal moves, move counts, the moves'
/// effect and the position strings at every step.
fn walk(t: &Tables<Wide>, sub: Sub, mut b: Board, rng: &mut Rng, plies: usize) -> usize {
    let (mut halfmove, mut fullmove) = (0u32, 1u32);
    let text = reference::position_string(&b, halfmove, fullmove);
    let mut pos = fen::parse(t, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut compared = 0;
    for _ in 0..plies {
        let here = reference::position_string(&b, halfmove, fullmove);
        assert_eq!(fen::format(t, &pos), here);
        let expected = b.legal(sub);
        let fast = legal_moves(t, &pos);
        let got: BTreeSet<String> = fast.iter().map(|&m| format_move(t, m)).collect();
        let want = texts(&expected);
        if got != want {
            let missing: Vec<_> = want.difference(&got).take(10).collect();
            let extra: Vec<_> = got.difference(&want).take(10).collect();
            panic!("{here}\nmissing {missing:?}\nextra {extra:?}");
        }
        assert_eq!(fast.len(), want.len(), "duplicate moves in {here}");
        assert_eq!(
            count_legal(t, &pos),
            fast.len() as u64,
            "bulk count in {here}"
        );
        compared += 1;
        if expected.is_empty() {
            break;
        }
        let m = choose(rng, &b, &expected);
        let irreversible = m.from.is_some() && (b.cells.contains_key(&m.to) || m.token == "P");
        let mv = parse_move(t, &pos, &m.text()).unwrap();
        pos = pos.play(t, mv);
        assert_eq!(
            pos.hash,
            pos.compute_hash(t),
            "incremental hash after {}",
            m.text()
        );
        halfmove = if irreversible { 0 } else { halfmove + 1 };
        if !b.white_to_move {
            fullmove += 1;
        }
        b = b.make(sub, m);
    }
    compared
}

#[test]
fn random_positions_with_full_hands_match_the_reference() {
    let mut rng = Rng(0x5EED_0002);
    for (sub, name) in subs() {
        let t = tables(name);
        let mut nodes = 0;
        for _ in 0..8 {
            let men = 8 + rng.below(24);
            let b = random_board(&mut rng, men, true);
            nodes += walk(&t, sub, b, &mut rng, 6);
        }
        assert!(nodes >= 40, "{name}: only {nodes} positions compared");
    }
}

#[test]
fn random_positions_without_hands_match_the_reference_deeper() {
    let mut rng = Rng(0xD1FF_0003);
    for (sub, name) in subs() {
        let t = tables(name);
        for _ in 0..12 {
            let men = 20 + rng.below(40);
            let b = random_board(&mut rng, men, false);
            walk(&t, sub, b, &mut rng, 30);
        }
    }
}

#[test]
fn perft_two_matches_the_reference_on_random_positions() {
    let mut rng = Rng(0x0BAD_CAFE);
    for (sub, name) in subs() {
        let t = tables(name);
        for _ in 0..3 {
            let men = 10 + rng.below(16);
            let b = random_board(&mut rng, men, false);
            let text = reference::position_string(&b, 0, 1);
            let pos = fen::parse(&t, &text).unwrap();
            assert_eq!(perft(&t, &pos, 2), b.perft(sub, 2), "{name} {text}");
        }
    }
}

#[test]
fn the_start_position_matches_the_reference_to_depth_two() {
    for (sub, name) in subs() {
        let t = tables(name);
        let text = &t.variant.start_position;
        let pos = fen::parse(&t, text).unwrap();
        let b = board_from_string(text);
        assert_eq!(perft(&t, &pos, 2), b.perft(sub, 2), "{name}");
    }
}

/// Reads the board field of a position string into the reference board (White to move,
/// empty hands): enough for start positions.
fn board_from_string(s: &str) -> Board {
    let board = s.split('[').next().unwrap();
    let mut b = Board {
        cells: HashMap::new(),
        hands: [HashMap::new(), HashMap::new()],
        white_to_move: true,
    };
    for (l, level) in board.split('|').enumerate() {
        for (i, rank) in level.split('/').enumerate() {
            let r = RANKS - 1 - i as i32;
            let mut f = 0;
            let mut chars = rank.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    f += d as i32;
                    continue;
                }
                let tok = if c == '+' {
                    format!("+{}", chars.next().unwrap())
                } else {
                    c.to_string()
                };
                let white = tok.chars().last().unwrap().is_ascii_uppercase();
                b.cells.insert(
                    (l as i32, f, r),
                    Man {
                        white,
                        token: reference::token(&tok),
                    },
                );
                f += 1;
            }
        }
    }
    b
}
