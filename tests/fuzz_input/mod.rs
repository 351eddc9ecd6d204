//! Seeded generator of hostile input for the fuzz tests: sessions of UCI, XBoard and shell
//! commands made of real commands, legal and junk moves, position strings real and mangled,
//! huge numbers, bytes that are not UTF-8 and very long lines. The same seed always gives
//! the same sessions, so a failure can be replayed.
#![allow(dead_code)]

use panoply::game::{AnyTables, Game};
use panoply::with_tables;

pub use crate::rng::Rng;

/// Every family, flat and 3D, two and four players.
pub const VARIANTS: &[&str] = &[
    "chess",
    "cwda-nutty-rookies",
    "cwda-clobberers-fide-anypromo",
    "shatranj",
    "swda-posh-amphibians",
    "swda-jostlers-originals",
    "cyclical",
    "cyclical-fixed-reverse",
    "missionary",
    "missiogi",
    "frontofhouse",
    "aof5",
    "aof5-raj",
];

/// A random game of a variant from its session start: the start's position string, the
/// moves and the position string after them.
pub struct Line {
    pub start: String,
    pub moves: Vec<String>,
    pub after: String,
}

/// The tables of a variant, built once per thread (building those of a 3D game takes
/// longer than a whole fuzz session).
fn tables(variant: &str) -> AnyTables {
    thread_local! {
        static BUILT: std::cell::RefCell<std::collections::HashMap<String, AnyTables>> =
            Default::default();
    }
    BUILT.with(|b| {
        b.borrow_mut()
            .entry(variant.to_string())
            .or_insert_with(|| panoply::games::tables(variant).expect("a registry variant"))
            .clone()
    })
}

pub fn random_line(rng: &mut Rng, variant: &str, max_plies: usize) -> Line {
    let tables = tables(variant);
    with_tables!(&tables, t => {
        let start = t.variant.session_start().to_string();
        let mut g = Game::from_position_string(t.clone(), &start).expect("start parses");
        let mut moves = Vec::new();
        for _ in 0..rng.below(max_plies + 1) {
            let legal = g.legal_moves();
            if legal.is_empty() || g.outcome().is_some() {
                break;
            }
            let m = *rng.pick(&legal);
            moves.push(g.format_move(m));
            g.play(m);
        }
        Line { start, moves, after: g.position_string() }
    })
}

/// Numbers that overflow, are negative, fractional or not numbers at all.
pub fn odd_number(rng: &mut Rng) -> String {
    const ODD: &[&str] = &[
        "0",
        "-1",
        "-0",
        "+5",
        "1e309",
        "NaN",
        "inf",
        "0x10",
        "4294967296",
        "18446744073709551616",
        "99999999999",
        "99999999999999999999999999999",
        "-9223372036854775808",
        "3.5",
        "",
        "٣",
    ];
    rng.pick(ODD).to_string()
}

/// Move-like junk: wrong squares, wrong suffixes, drops of nothing, cells of other boards.
pub fn junk_move(rng: &mut Rng) -> String {
    const JUNK: &[&str] = &[
        "e9e4",
        "a0a1",
        "i1i2",
        "e2e4qq",
        "e7e8=",
        "P@",
        "@e4",
        "Q@z9",
        "wd2wd9+",
        "zz9zz9",
        "gs1es1=",
        "pass",
        "0000",
        "O-O-O",
        "e2",
        "e2-e4",
        "E2E4",
        "a1a1",
        "+I@wc5",
        "k1k1k1",
        "ás1",
        "e2e4\u{0}",
        "xc3xc4xc5",
    ];
    rng.pick(JUNK).to_string()
}

/// A position string mangled: a field cut, swapped or replaced, characters flipped.
pub fn mangle_position(rng: &mut Rng, fen: &str) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    match rng.below(6) {
        0 => {
            let n = rng.below(fields.len() + 1);
            fields.truncate(n);
        }
        1 if fields.len() > 1 => {
            let (a, b) = (rng.below(fields.len()), rng.below(fields.len()));
            fields.swap(a, b);
        }
        2 => {
            let i = rng.below(fields.len());
            fields[i] = odd_number(rng);
        }
        3 => fields.push("extra".into()),
        _ => {
            let mut bytes = fields.join(" ").into_bytes();
            for _ in 0..1 + rng.below(3) {
                if bytes.is_empty() {
                    break;
                }
                let i = rng.below(bytes.len());
                bytes[i] = *rng.pick(b"/|,0123456789kKqQpPrR[]@+-wbx ");
            }
            return String::from_utf8_lossy(&bytes).into_owned();
        }
    }
    fields.join(" ")
}

/// A line with some bytes flipped, inserted, deleted or cut, or words doubled; may be
/// invalid UTF-8.
pub fn mutate(rng: &mut Rng, line: &[u8]) -> Vec<u8> {
    let mut b = line.to_vec();
    for _ in 0..1 + rng.below(3) {
        match rng.below(6) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = rng.next() as u8;
            }
            1 => {
                let i = rng.below(b.len() + 1);
                b.insert(i, rng.next() as u8);
            }
            2 if !b.is_empty() => {
                let i = rng.below(b.len());
                b.remove(i);
            }
            3 => {
                let n = rng.below(b.len() + 1);
                b.truncate(n);
            }
            4 => {
                let copy = b.clone();
                b.push(b' ');
                b.extend_from_slice(&copy);
            }
            _ => b.extend_from_slice(&[0xff, 0xfe, 0xc3]),
        }
    }
    // A line end inside would start a command no one chose (a long search, say).
    b.retain(|&c| c != b'\n' && c != b'\r');
    b
}

/// A very long line: a command with its argument repeated thousands of times.
pub fn long_line(rng: &mut Rng, line: &Line) -> Vec<u8> {
    let unit = match rng.below(3) {
        0 => "e2e4 ".to_string(),
        1 => format!("{} ", line.moves.first().map_or("pass", String::as_str)),
        _ => "\u{1F600}".to_string(),
    };
    let head = *rng.pick(&["position startpos moves ", "usermove ", "setboard ", ""]);
    format!("{head}{}", unit.repeat(5_000 + rng.below(300_000))).into_bytes()
}

/// Commands whose arguments must stay small: mutating their numbers could start a
/// search or a count that runs for hours while nothing can stop it (`perft` in the
/// protocol loop, `go` and `perft` in the shell).
pub fn never_mutate(line: &[u8]) -> bool {
    line.starts_with(b"go perft") || line.starts_with(b"perft") || line.starts_with(b"go")
}

/// A UCI session: `uci`, then commands; ends with `isready`.
pub fn uci_session(rng: &mut Rng) -> Vec<Vec<u8>> {
    let variant = *rng.pick(VARIANTS);
    let line = random_line(rng, variant, 40);
    let mut out = vec![b"uci".to_vec()];
    out.push(format!("setoption name UCI_Variant value {variant}").into_bytes());
    for _ in 0..3 + rng.below(14) {
        let cmd = uci_command(rng, variant, &line);
        out.push(disturb(rng, cmd, &line));
    }
    out.push(b"isready".to_vec());
    out
}

fn uci_command(rng: &mut Rng, variant: &str, line: &Line) -> Vec<u8> {
    let n = rng.below(line.moves.len() + 1);
    let moves = line.moves[..n].join(" ");
    let text = match rng.below(22) {
        0 => format!("position startpos moves {moves}"),
        1 => format!("position fen {} moves {moves}", line.start),
        2 => format!("position fen {}", line.after),
        3 => format!("position fen {}", mangle_position(rng, &line.after)),
        4 => format!("position startpos moves {moves} {}", junk_move(rng)),
        5 => format!("go depth {}", 1 + rng.below(2)),
        6 => format!("go nodes {}", 1 + rng.below(3000)),
        7 => format!("go movetime {}", rng.below(15)),
        8 => format!(
            "go wtime {} btime {} winc {} binc {}",
            rng.below(2000),
            rng.below(2000),
            rng.below(30),
            rng.below(30)
        ),
        9 => format!(
            "go {} {}",
            rng.pick(&["depth", "nodes", "movetime", "wtime", "movestogo", "mate"]),
            odd_number(rng)
        ),
        10 => rng
            .pick(&[
                "go infinite",
                "go ponder movetime 10",
                "stop",
                "ponderhit",
                "isready",
                "ucinewgame",
                "debug on",
                "register later",
                "go searchmoves e2e4",
                "go perft 1",
                "uci",
            ])
            .to_string(),
        11 => format!("setoption name Hash value {}", rng.pick(&["1", "2", "16"])),
        12 => format!(
            "setoption name {} value {}",
            rng.pick(&["Hash", "Threads", "MultiPV"]),
            odd_number(rng)
        ),
        13 => format!("setoption name Threads value {}", 1 + rng.below(2)),
        14 => format!("setoption name MultiPV value {}", 1 + rng.below(3)),
        15 => format!(
            "setoption name UCI_Variant value {}",
            if rng.chance(50) {
                variant.to_string()
            } else {
                junk_move(rng)
            }
        ),
        16 => format!(
            "setoption name MultiPlayerSearch value {}",
            rng.pick(&["paranoid", "brs", "minimax", ""])
        ),
        17 => format!(
            "setoption name {} value {}",
            rng.pick(&["OwnBook", "BookFile"]),
            rng.pick(&[
                "true",
                "false",
                "maybe",
                "/nonexistent",
                "<empty>",
                "/dev/null",
                "/"
            ])
        ),
        18 => rng
            .pick(&[
                "setoption",
                "setoption name",
                "setoption value 5",
                "position",
                "position fen",
                "position moves",
                "go wtime",
                "quit-not",
            ])
            .to_string(),
        19 => junk_move(rng),
        20 => format!("position startpos moves {}", line.moves.join(" ")),
        _ => format!("{} {}", junk_move(rng), odd_number(rng)),
    };
    text.into_bytes()
}

/// Now and then a command is mutated, replaced by a long line or by bytes that are not
/// UTF-8.
fn disturb(rng: &mut Rng, cmd: Vec<u8>, line: &Line) -> Vec<u8> {
    match rng.below(20) {
        0..=2 if !never_mutate(&cmd) => mutate(rng, &cmd),
        3 => long_line(rng, line),
        4 => vec![0xff, b'g', b'o', 0x80, b' ', 0xc0],
        _ => cmd,
    }
}

/// The XBoard name of a variant (`normal` for chess).
fn xboard_name(variant: &str) -> &str {
    if variant == "chess" {
        "normal"
    } else {
        variant
    }
}

/// An XBoard session: `xboard`, `protover 2`, commands; ends with a `ping` whose `pong`
/// must come.
pub fn xboard_session(rng: &mut Rng, final_ping: u32) -> Vec<Vec<u8>> {
    let variant = *rng.pick(VARIANTS);
    let line = random_line(rng, variant, 30);
    let mut out = vec![b"xboard".to_vec(), b"protover 2".to_vec(), b"new".to_vec()];
    out.push(format!("variant {}", xboard_name(variant)).into_bytes());
    out.push(b"force".to_vec());
    for _ in 0..3 + rng.below(14) {
        let cmd = xboard_command(rng, variant, &line);
        out.push(disturb(rng, cmd, &line));
    }
    out.push(format!("ping {final_ping}").into_bytes());
    out
}

fn xboard_command(rng: &mut Rng, variant: &str, line: &Line) -> Vec<u8> {
    let mv = || line.moves.first().cloned().unwrap_or_else(|| "e2e4".into());
    let text = match rng.below(24) {
        0 | 1 => format!("usermove {}", mv()),
        2 => mv(),
        3 => format!("usermove {}", junk_move(rng)),
        4 => format!("setboard {}", line.after),
        5 => format!("setboard {}", mangle_position(rng, &line.after)),
        6 => format!(
            "level {} {} {}",
            rng.below(60),
            rng.pick(&["0:01", "1", "0:00", "5:30"]),
            rng.pick(&["0", "0.01", "1"])
        ),
        7 => format!(
            "level {} {} {}",
            odd_number(rng),
            odd_number(rng),
            odd_number(rng)
        ),
        8 => format!("st {}", rng.pick(&["0.01", "0.005", "1"])),
        9 => format!(
            "{} {}",
            rng.pick(&["st", "sd", "time", "otim", "memory", "cores", "ping"]),
            odd_number(rng)
        ),
        10 => format!("time {}", rng.below(200)),
        11 => format!("otim {}", rng.below(200)),
        12 => format!("sd {}", 1 + rng.below(2)),
        13 => rng
            .pick(&[
                "go",
                "force",
                "playother",
                "?",
                "undo",
                "remove",
                "new",
                "post",
                "nopost",
                "hard",
                "easy",
                ".",
                "analyze",
                "exit",
                "draw",
                "hint",
                "random",
                "computer",
                "result 1-0 {x}",
                "accepted setboard",
                "rejected ping",
                "quit-not",
            ])
            .to_string(),
        14 => format!("memory {}", rng.pick(&["1", "16", "0"])),
        15 => format!("cores {}", rng.pick(&["1", "2", "0", "257"])),
        16 => format!(
            "variant {}",
            if rng.chance(50) {
                xboard_name(variant).to_string()
            } else {
                rng.pick(VARIANTS).to_string()
            }
        ),
        17 => format!(
            "option {}={}",
            rng.pick(&[
                "White Army",
                "Black Army",
                "Variant fairy selects",
                "OwnBook",
                "BookFile",
                "Nonsense"
            ]),
            rng.pick(&[
                "Nutty Knights",
                "Rookies",
                "FIDE-Clobberers",
                "1",
                "/nonexistent",
                ""
            ])
        ),
        18 => format!(
            "{} {}",
            rng.pick(&["lift", "put", "hover"]),
            rng.pick(&["e2", "a1", "z9", "", "e"])
        ),
        19 => format!("ping {}", rng.below(1000)),
        20 => format!("protover {}", odd_number(rng)),
        21 => format!(
            "setboard {}",
            rng.pick(&[
                "",
                "8/8/8/8/8/8/8/8 w - - 0 1",
                "k7/8/8/8/8/8/8/7K w - - 0 1"
            ])
        ),
        22 => junk_move(rng),
        _ => format!(
            "variant {}",
            rng.pick(&["fairy", "cwda", "normal", "missionary", "xyzzy"])
        ),
    };
    text.into_bytes()
}

/// A shell session (its variant is chosen on the command line): commands, moves, junk.
pub fn shell_session(rng: &mut Rng, variant: &str) -> Vec<Vec<u8>> {
    let line = random_line(rng, variant, 30);
    let mut out = Vec::new();
    for _ in 0..3 + rng.below(14) {
        let cmd = shell_command(rng, &line);
        out.push(disturb(rng, cmd, &line));
    }
    out
}

fn shell_command(rng: &mut Rng, line: &Line) -> Vec<u8> {
    let i = rng.below(line.moves.len() + 1);
    let text = match rng.below(14) {
        0..=2 => line.moves.get(i).cloned().unwrap_or_else(|| "pass".into()),
        3 => junk_move(rng),
        4 => rng
            .pick(&[
                "show",
                "moves",
                "fen",
                "undo",
                "help",
                "set method brs",
                "set method paranoid",
                "set method x",
                "set",
                "new",
                "new xyzzy",
                "perft 1",
                "perft 9",
                "perft x",
            ])
            .to_string(),
        5 => "go depth 1".to_string(),
        6 => format!("go nodes {}", 1 + rng.below(300)),
        // Only numbers that do not parse: a shell `go` is the user's to wait for.
        7 => format!(
            "go {} {}",
            rng.pick(&["depth", "nodes", "movetime", "speed"]),
            rng.pick(&["-1", "NaN", "1e309", "0x10", "3.5", "", "٣"])
        ),
        8 => format!("new {}", rng.pick(VARIANTS)),
        9 => format!(
            "{} {}",
            line.moves.first().map_or("e2e4", String::as_str),
            odd_number(rng)
        ),
        10 => "go depth 1 nodes".to_string(),
        _ => line.moves.join(" "),
    };
    text.into_bytes()
}
