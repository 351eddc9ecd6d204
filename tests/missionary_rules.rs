//! Hand-made positions for each Missionary rule of docs/rules.md section 4: Stockbroker and
//! Stockbwaiter moves, drop restrictions, capture-to-hand and promotion per subvariant,
//! compulsory promotion, game ends, clocks, position and move strings.

use panoply::bitboard::Wide;
use panoply::game::{AnyTables, Game, Outcome};
use panoply::movegen::notation::MoveError;
use panoply::movegen::tables::Tables;
use panoply::movegen::{count_legal, legal_moves, notation::format_move};
use panoply::piece::Player;
use panoply::position::fen::{self, PositionError};
use std::sync::Arc;

fn tables(name: &str) -> Arc<Tables<Wide>> {
    match panoply::games::tables(name).unwrap() {
        AnyTables::Wide(t) => t,
        AnyTables::Narrow(_) => panic!("{name} should use the wide bitset"),
    }
}

/// A position string from (cell, token) pairs (lower-case tokens are Black's).
fn position(pieces: &[(&str, &str)], holdings: &str, side: char) -> String {
    let mut grid = vec![vec![vec![String::new(); 6]; 8]; 6];
    for (cell, tok) in pieces {
        let b = cell.as_bytes();
        let (l, f) = ((b[0] - b'u') as usize, (b[1] - b'a') as usize);
        let r: usize = cell[2..].parse::<usize>().unwrap() - 1;
        grid[l][r][f] = tok.to_string();
    }
    let levels: Vec<String> = grid
        .iter()
        .map(|level| {
            (0..8)
                .rev()
                .map(|r| {
                    let mut s = String::new();
                    let mut gap = 0;
                    for tok in &level[r] {
                        if tok.is_empty() {
                            gap += 1;
                        } else {
                            if gap > 0 {
                                s += &gap.to_string();
                            }
                            gap = 0;
                            s += tok;
                        }
                    }
                    if gap > 0 {
                        s += &gap.to_string();
                    }
                    s
                })
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect();
    format!("{}[{holdings}] {side} - - 0 1", levels.join("|"))
}

fn game(name: &str, text: &str) -> Game<Wide> {
    Game::from_position_string(tables(name), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal move strings starting with `prefix` (a from-cell or a drop token with `@`).
fn moves_from(g: &Game<Wide>, prefix: &str) -> Vec<String> {
    let mut v: Vec<String> = g
        .legal_moves()
        .iter()
        .map(|&m| g.format_move(m))
        .filter(|s| s.starts_with(prefix))
        .collect();
    v.sort();
    v
}

fn token_on(g: &Game<Wide>, cell: &str) -> String {
    let t = &g.tables;
    let c = t.shape.parse_cell(cell).unwrap();
    g.pos
        .piece_at(c)
        .map(|p| fen::piece_token(t, p))
        .unwrap_or_default()
}

const KINGS: [(&str, &str); 2] = [("ua1", "K"), ("zf8", "k")];

fn with_kings<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = KINGS.to_vec();
    v.extend_from_slice(extra);
    v
}

#[test]
fn stockbroker_moves_by_ring() {
    // wb3 is on ring 1. Forward SD to vb4/xb4 stays on ring 1 (move only); to wa4 (ring 2)
    // and wc4 (ring 0) changes ring (capture only); ND steps capture only, also vc4 which
    // stays on ring 1 ("cutting a corner"); the orthogonal step never captures.
    let text = position(
        &with_kings(&[
            ("wb3", "P"),
            ("wb4", "p"),
            ("vb4", "p"),
            ("wa4", "p"),
            ("vc4", "p"),
            ("xa4", "p"),
            ("xc4", "W"),
        ]),
        "",
        'w',
    );
    let g = game("missionary", &text);
    assert_eq!(
        moves_from(&g, "wb3"),
        ["wb3vc4", "wb3wa4", "wb3xa4", "wb3xb4"]
    );
    // On an empty neighbourhood: forward, and the two same-ring SD steps.
    let g = game(
        "missionary",
        &position(&with_kings(&[("wb3", "P")]), "", 'w'),
    );
    assert_eq!(moves_from(&g, "wb3"), ["wb3vb4", "wb3wb4", "wb3xb4"]);
    // Black's Stockbroker mirrors the rank direction.
    let g = game(
        "missionary",
        &position(&with_kings(&[("wb6", "p")]), "", 'b'),
    );
    assert_eq!(moves_from(&g, "wb6"), ["wb6vb5", "wb6wb5", "wb6xb5"]);
}

#[test]
fn stockbroker_on_the_tunnel_and_the_rim() {
    // wc3 is on ring 0: the tunnel cells wd4 and xc4 are same-ring SD steps; wb4 and vc4
    // leave the tunnel.
    let g = game(
        "missionary",
        &position(&with_kings(&[("wc3", "P")]), "", 'w'),
    );
    assert_eq!(moves_from(&g, "wc3"), ["wc3wc4", "wc3wd4", "wc3xc4"]);
    // ub3 is on the rim: its same-ring SD steps run along the rim.
    let g = game(
        "missionary",
        &position(&with_kings(&[("ub3", "P")]), "", 'w'),
    );
    assert_eq!(moves_from(&g, "ub3"), ["ub3ua4", "ub3ub4", "ub3uc4"]);
}

#[test]
fn stockbwaiter_moves() {
    let text = position(&with_kings(&[("wb4", "+P")]), "", 'w');
    let g = game("missionary", &text);
    // Forward and backward Stockbroker moves, same-rank SD steps, and the same-rank
    // orthogonal steps that change ring (wa4 ring 2, wc4 ring 0; vb4 and xb4 stay on ring 1).
    assert_eq!(
        moves_from(&g, "wb4"),
        [
            "wb4va4", "wb4vb3", "wb4vb5", "wb4vc4", "wb4wa4", "wb4wb3", "wb4wb5", "wb4wc4",
            "wb4xa4", "wb4xb3", "wb4xb5", "wb4xc4"
        ]
    );
    // It captures like either side's Stockbroker and never sideways.
    let text = position(
        &with_kings(&[
            ("wb4", "+P"),
            ("wa5", "p"),
            ("va3", "p"),
            ("wc3", "p"),
            ("vc4", "p"),
            ("wa4", "p"),
            ("wb5", "p"),
        ]),
        "",
        'w',
    );
    let g = game("missionary", &text);
    let caps: Vec<String> = moves_from(&g, "wb4")
        .into_iter()
        .filter(|m| ["wa5", "va3", "wc3", "vc4", "wa4", "wb5"].contains(&&m[3..]))
        .collect();
    assert_eq!(caps, ["wb4va3", "wb4wa5", "wb4wc3"]);
}

#[test]
fn drops_respect_the_last_rank_only_for_stockbrokers_and_forward_only_pieces() {
    let all = "QDRGBU+I+C+W+S+M+HICWSMHP";
    let text = position(&KINGS, all, 'w');
    let g = game("missiogi", &text);
    let empty = 288 - 2;
    let rank8_empty = 36 - 1;
    for tok in [
        "Q", "D", "R", "G", "B", "U", "+I", "+C", "+W", "+S", "+M", "+H",
    ] {
        assert_eq!(moves_from(&g, &format!("{tok}@")).len(), empty, "{tok}");
    }
    for tok in ["I", "C", "W", "S", "M", "H", "P"] {
        let drops = moves_from(&g, &format!("{tok}@"));
        assert_eq!(drops.len(), empty - rank8_empty, "{tok}");
        assert!(drops.iter().all(|m| !m.ends_with('8')), "{tok}");
        assert!(
            drops.contains(&format!("{tok}@wc1")),
            "{tok} may drop on its first rank"
        );
    }
    // Black's last rank is rank 1.
    let text = position(&KINGS, &all.to_lowercase(), 'b');
    let g = game("missiogi", &text);
    let drops = moves_from(&g, "P@");
    assert_eq!(drops.len(), empty - (36 - 1));
    assert!(drops.contains(&"P@wc8".to_string()) && !drops.contains(&"P@wc1".to_string()));
    assert!(moves_from(&g, "+I@").contains(&"+I@wc1".to_string()));
}

#[test]
fn a_dropped_piece_is_unpromoted_and_promotes_later() {
    let mut g = game("missionary", &position(&KINGS, "W", 'w'));
    // A drop in the zone never promotes; the next move from the zone may.
    assert!(moves_from(&g, "W@").contains(&"W@wc6".to_string()));
    assert!(!g
        .legal_moves()
        .iter()
        .any(|&m| g.format_move(m).ends_with('+')));
    g.play_str("W@wc6").unwrap();
    assert_eq!(token_on(&g, "wc6"), "W");
    g.play_str("zf8ze8").unwrap();
    assert_eq!(moves_from(&g, "wc6"), ["wc6wc7", "wc6wc7+", "wc6wc8+"]);
    g.play_str("wc6wc7+").unwrap();
    assert_eq!(token_on(&g, "wc7"), "+W");
}

/// (captured token, what the captor gains or "-") per subvariant, from docs/rules.md 4.4.
const HAND_TABLE: [(&str, [&str; 26]); 3] = [
    (
        "missionary",
        [
            "Q:-", "+Q:-", "+I:-", "I:I", "D:-", "+D:-", "+C:-", "C:C", "R:-", "+R:-", "+W:-",
            "W:W", "G:-", "+G:-", "+S:-", "S:S", "B:-", "+B:-", "+M:-", "M:M", "U:-", "+U:-",
            "+H:-", "H:H", "P:P", "+P:P",
        ],
    ),
    (
        "missiogi",
        [
            "Q:Q", "+Q:Q", "+I:+I", "I:I", "D:D", "+D:D", "+C:+C", "C:C", "R:R", "+R:R", "+W:+W",
            "W:W", "G:G", "+G:G", "+S:+S", "S:S", "B:B", "+B:B", "+M:+M", "M:M", "U:U", "+U:U",
            "+H:+H", "H:H", "P:P", "+P:P",
        ],
    ),
    (
        "frontofhouse",
        [
            "Q:I", "+Q:I", "+I:I", "I:I", "D:C", "+D:C", "+C:C", "C:C", "R:W", "+R:W", "+W:W",
            "W:W", "G:S", "+G:S", "+S:S", "S:S", "B:M", "+B:M", "+M:M", "M:M", "U:H", "+U:H",
            "+H:H", "H:H", "P:P", "+P:P",
        ],
    ),
];

#[test]
fn captures_fill_the_hand_per_subvariant() {
    for (name, rows) in HAND_TABLE {
        for row in rows {
            let (victim, gain) = row.split_once(':').unwrap();
            let text = position(
                &with_kings(&[("wc4", "Q"), ("wc5", &victim.to_lowercase())]),
                "",
                'w',
            );
            let mut g = game(name, &text);
            g.play_str("wc4wc5").unwrap();
            let held = panoply::games::missionary::fen::format_holdings(&g.tables, &g.pos);
            let expected = if gain == "-" { "" } else { gain };
            assert_eq!(held, expected, "{name}: capturing {victim}");
            // Captures reset the halfmove clock.
            assert_eq!(g.pos.halfmove, 0);
        }
    }
}

/// Unpromoted token -> promoted token per subvariant ("-" = does not promote).
const PROMOTION_TABLE: [(&str, &str); 3] = [
    (
        "missionary",
        "Q:- D:- R:- G:- B:- U:- I:+I C:+C W:+W S:+S M:+M H:+H P:+P \
         +Q:- +D:- +R:- +G:- +B:- +U:- +I:- +C:- +W:- +S:- +M:- +H:- +P:- K:-",
    ),
    (
        "missiogi",
        "Q:+Q D:+D R:+R G:+G B:+B U:+U I:+I C:+C W:+W S:+S M:+M H:+H P:+P \
         +Q:- +D:- +R:- +G:- +B:- +U:- +I:- +C:- +W:- +S:- +M:- +H:- +P:- K:-",
    ),
    (
        "frontofhouse",
        "Q:- D:- R:- G:- B:- U:- I:Q C:D W:R S:G M:B H:U P:+P \
         +Q:- +D:- +R:- +G:- +B:- +U:- +I:- +C:- +W:- +S:- +M:- +H:- +P:- K:-",
    ),
];

#[test]
fn promotion_table_per_subvariant() {
    for (name, table) in PROMOTION_TABLE {
        for row in table.split_whitespace() {
            let (piece, promoted) = row.split_once(':').unwrap();
            // On wc6 (White's zone), every piece has a move; the Emperor stands elsewhere.
            let kings: Vec<(&str, &str)> = if piece == "K" {
                vec![("wc6", "K"), ("zf8", "k")]
            } else {
                with_kings(&[("wc6", piece)])
            };
            let g = game(name, &position(&kings, "", 'w'));
            let promos: Vec<String> = moves_from(&g, "wc6")
                .into_iter()
                .filter(|m| m.ends_with('+'))
                .collect();
            if promoted == "-" {
                assert!(promos.is_empty(), "{name}: {piece} promotes: {promos:?}");
                continue;
            }
            assert!(!promos.is_empty(), "{name}: {piece} should promote");
            let mut g = g;
            g.play_str(&promos[0]).unwrap();
            assert_eq!(token_on(&g, &promos[0][3..6]), promoted, "{name}: {piece}");
        }
    }
}

#[test]
fn the_zone_counts_on_entry_inside_and_on_exit() {
    let g = game(
        "missiogi",
        &position(
            &with_kings(&[("wc5", "R"), ("yc6", "R"), ("vc2", "R")]),
            "",
            'w',
        ),
    );
    // Entering the zone (wc5wc6), and leaving it (yc6yc5), may promote.
    let rook = |from: &str| moves_from(&g, from);
    assert!(rook("wc5").contains(&"wc5wc6+".into()));
    assert!(!rook("wc5").contains(&"wc5wc4+".into()));
    assert!(rook("yc6").contains(&"yc6yc5+".into()));
    assert!(rook("yc6").contains(&"yc6yc1+".into()));
    assert!(rook("vc2").contains(&"vc2vc6+".into()));
    assert!(!rook("vc2").contains(&"vc2vc5+".into()));
    // Black's zone is ranks 1-3.
    let g = game("missiogi", &position(&with_kings(&[("wc4", "r")]), "", 'b'));
    let moves = moves_from(&g, "wc4");
    assert!(moves.contains(&"wc4wc3+".into()) && !moves.contains(&"wc4wc5+".into()));
}

#[test]
fn promotion_is_compulsory_only_where_the_piece_could_not_move_again() {
    for name in ["missionary", "missiogi", "frontofhouse"] {
        let g = game(
            name,
            &position(
                &with_kings(&[("wc7", "P"), ("xc7", "W"), ("vc7", "M"), ("yc7", "+W")]),
                "",
                'w',
            ),
        );
        // wc7 is on the tunnel: forward, and the same-ring SD steps to wd8 and xc8.
        assert_eq!(
            moves_from(&g, "wc7"),
            ["wc7wc8+", "wc7wd8+", "wc7xc8+"],
            "{name}"
        );
        assert_eq!(moves_from(&g, "xc7"), ["xc7xc8+"], "{name}");
        assert!(moves_from(&g, "vc7")
            .iter()
            .filter(|m| m.contains("8"))
            .all(|m| m.ends_with('+')));
        // A general is not promotable: a plain move to the last rank.
        assert!(moves_from(&g, "yc7").contains(&"yc7yc8".into()), "{name}");
        let g = game(name, &position(&with_kings(&[("wc2", "p")]), "", 'b'));
        assert_eq!(
            moves_from(&g, "wc2"),
            ["wc2wc1+", "wc2wd1+", "wc2xc1+"],
            "{name}"
        );
    }
}

#[test]
fn checkmate_drop_blocks_and_stalemate() {
    // Black's Emperor on ua8: the Rook on za8 checks along the level line, the Rook on zb8
    // covers ub8 and vb8, White's Emperor on vb6 covers rank 7.
    let mate = position(
        &[("ua8", "k"), ("vb6", "K"), ("za8", "R"), ("zb8", "R")],
        "",
        'b',
    );
    let g = game("missionary", &mate);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Player::WHITE,
            reason: "checkmate".into()
        })
    );
    // With a Rook or a Stockbroker in hand, Black blocks on the four cells between.
    for held in ["r", "p"] {
        let text = mate.replace("[]", &format!("[{held}]"));
        let g = game("missionary", &text);
        assert_eq!(g.outcome(), None);
        let tok = held.to_uppercase();
        let blocks: Vec<String> = ["va8", "wa8", "xa8", "ya8"]
            .iter()
            .map(|c| format!("{tok}@{c}"))
            .collect();
        assert_eq!(moves_from(&g, ""), blocks);
        assert_eq!(count_legal(&g.tables, &g.pos), 4);
    }
    let stalemate = position(
        &[("ua8", "k"), ("vb6", "K"), ("vf8", "R"), ("zb8", "R")],
        "",
        'b',
    );
    let g = game("missionary", &stalemate);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: "stalemate".into()
        })
    );
}

#[test]
fn threefold_repetition_draws_and_clocks_follow_the_rules() {
    let mut g = Game::new(tables("frontofhouse"));
    g.play_str("vb2va2").unwrap();
    assert_eq!(g.pos.halfmove, 1);
    g.play_str("vb3vb4").unwrap_err();
    g.play_str("vb6vb5").unwrap();
    // A Stockbroker move resets the clock.
    assert_eq!((g.pos.halfmove, g.pos.fullmove), (0, 2));
    g.play_str("va2vb2").unwrap();
    g.play_str("vb7va7").unwrap();
    for _ in 0..2 {
        assert_eq!(g.outcome(), None);
        for m in ["vb2va2", "va7vb7", "va2vb2", "vb7va7"] {
            g.play_str(m).unwrap();
        }
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: "threefold repetition".into()
        })
    );
}

#[test]
fn position_strings_round_trip_and_sort_holdings() {
    let t = tables("missiogi");
    let start = fen::parse(&t, &t.variant.start_position).unwrap();
    assert_eq!(fen::format(&t, &start), t.variant.start_position);
    // Holdings in any order are printed White first, in the order of docs/rules.md 4.4.
    let text = position(&KINGS, "pPHh+IQ+iqPr", 'b');
    let pos = fen::parse(&t, &text).unwrap();
    let out = fen::format(&t, &pos);
    assert!(out.contains("[Q+IHPPqr+ihp] b - - 0 1"), "{out}");
    // Holdings separated by a space, or left out, are accepted.
    let spaced = text.replace("[", " [");
    assert_eq!(fen::format(&t, &fen::parse(&t, &spaced).unwrap()), out);
    let bare = text.replace("[pPHh+IQ+iqPr]", "");
    assert!(fen::format(&t, &fen::parse(&t, &bare).unwrap()).contains("[] b"));
}

#[test]
fn bad_position_strings_get_precise_errors() {
    let t = tables("missionary");
    let start = t.variant.start_position.clone();
    let err = |s: &str| fen::parse(&t, s).unwrap_err();
    assert_eq!(
        err(&start.replacen("|", "/", 1)),
        PositionError::LevelCount {
            found: 5,
            expected: 6
        }
    );
    let wide_rank = start.replacen("1uqku1", "1uqku2", 1);
    match err(&wide_rank) {
        PositionError::InLevel { level: 'w', error } => {
            assert!(matches!(*error, PositionError::RankLength { found: 7, .. }))
        }
        e => panic!("{e}"),
    }
    assert!(matches!(
        err(&start.replace("[]", "[K]")),
        PositionError::BadHoldings { .. }
    ));
    assert!(matches!(
        err(&start.replace("[]", "[Q")),
        PositionError::BadHoldings { .. }
    ));
    assert!(matches!(
        err(&start.replace("[]", "[3]")),
        PositionError::BadHoldings { .. }
    ));
    assert!(matches!(
        err(&start.replace("w - -", "w KQ -")),
        PositionError::NotApplicable { .. }
    ));
    assert!(matches!(
        err(&start.replace("w - -", "x - -")),
        PositionError::BadSide { .. }
    ));
    assert!(matches!(
        err(&start.replace("1UQKU1", "1UQ1U1")),
        PositionError::Invalid(_)
    ));
    // A Stockbroker on its last rank must already have promoted.
    let stuck = position(&with_kings(&[("wc8", "P")]), "", 'w');
    assert!(err(&stuck)
        .to_string()
        .contains("must already have promoted"));
    assert!(matches!(
        err(&format!("{start} 7")),
        PositionError::ExtraField(_)
    ));
    // The messages name the level and the field.
    assert_eq!(
        err(&wide_rank).to_string(),
        "level w: rank '1uqku2' covers 7 cells, expected 6"
    );
}

#[test]
fn move_strings() {
    let t = tables("missiogi");
    let mut g = Game::new(t.clone());
    let err = g.play_str("wd2wd9").unwrap_err();
    assert!(matches!(err, MoveError::Malformed(_)));
    assert!(matches!(g.play_str("K@wc5"), Err(MoveError::Illegal(_))));
    assert!(matches!(g.play_str("wd3wd5"), Err(MoveError::Illegal(_))));
    g.play_str("wd3wd4").unwrap();
    // Drops: upper-case token for both sides; a Missiogi general as `+I@`.
    let g = game("missiogi", &position(&KINGS, "+i", 'b'));
    let drops: Vec<String> = legal_moves(&g.tables, &g.pos)
        .iter()
        .map(|&m| format_move(&g.tables, m))
        .filter(|m| m.contains('@'))
        .collect();
    assert!(drops.contains(&"+I@wc5".to_string()));
    let mut g = g;
    g.play_str("+I@wc5").unwrap();
    assert_eq!(token_on(&g, "wc5"), "+i");
}
