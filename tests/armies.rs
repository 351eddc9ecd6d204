//! Armies files (docs/armies.md): the shipped file of the four built-in armies plays exactly
//! the built-in games (perft, reference tables), bad files are refused with one line naming
//! file, line and problem while the armies already loaded stay, and mangled files never
//! panic.

use panoply::armies::{pairing, parse_armies, Army, BUILTIN_TOML};
use panoply::game::AnyTables;
use panoply::movegen::perft::perft_parallel;
use panoply::position::fen;
use panoply::variant::Variant;
use panoply::with_tables;

use crate::protocol_common::{start_uci, uci_say, Engine, XB};
use crate::rng::Rng;

const UNOFFICIAL: &str = include_str!("../armies/unofficial.toml");
const CWDA_START: &str = include_str!("perft/cwda-start.tsv");
const CWDA_POSITIONS: &str = include_str!("perft/cwda-positions.tsv");
/// Reference rows with more leaf nodes than this run only with `--ignored`.
const NODE_BUDGET: u64 = 10_000_000;

fn file_armies() -> Vec<Army> {
    parse_armies("armies/builtin.toml", BUILTIN_TOML).expect("builtin.toml reads")
}

fn army(code: &str) -> Army {
    file_armies()
        .into_iter()
        .find(|a| a.code == code)
        .unwrap_or_else(|| panic!("no army {code} in builtin.toml"))
}

/// `cwda-<w>-<b>[-anypromo]` built from the file's armies.
fn file_variant(name: &str) -> Variant {
    let rest = name.strip_prefix("cwda-").expect("a cwda name");
    let (rest, any) = match rest.strip_suffix("-anypromo") {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (w, b) = rest.split_once('-').expect("two armies");
    pairing::variant(&army(w), &army(b), any).expect("the built-in armies do not collide")
}

fn perft(tables: &AnyTables, position: &str, depth: u32) -> u64 {
    with_tables!(tables, t => {
        let pos = fen::parse(t, position).unwrap_or_else(|e| panic!("{position}: {e}"));
        perft_parallel(t, &pos, depth)
    })
}

const CODES: [&str; 4] = ["fide", "clobberers", "nutty", "rookies"];

fn pairings() -> Vec<String> {
    CODES
        .iter()
        .flat_map(|w| CODES.iter().map(move |b| format!("cwda-{w}-{b}")))
        .collect()
}

/// Perft from the start of all sixteen pairings, from the file and built in.
fn same_start_perft(depth: u32) {
    let mut differ = Vec::new();
    for name in pairings() {
        let file = AnyTables::new(file_variant(&name));
        let built_in = panoply::games::tables(&name).expect("built in");
        let start = built_in.variant().start_position.clone();
        assert_eq!(file.variant().start_position, start, "{name}");
        let (a, b) = (perft(&file, &start, depth), perft(&built_in, &start, depth));
        if a != b {
            differ.push(format!("{name}: file {a}, built in {b}"));
        }
    }
    assert!(differ.is_empty(), "depth {depth}:\n{}", differ.join("\n"));
}

#[test]
fn builtin_file_gives_the_built_in_games_at_depth_4() {
    same_start_perft(4);
}

#[test]
#[ignore = "minutes in release: run with `cargo test --release --test integration armies:: -- --ignored`"]
fn builtin_file_gives_the_built_in_games_at_depth_5() {
    same_start_perft(5);
}

/// Every CwDA row of the reference tables (start and middlegame positions) through the
/// variants built from the file; `deep` selects the rows above the budget instead.
fn reference_rows(deep: bool) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (table, text) in [
        ("cwda-start", CWDA_START),
        ("cwda-positions", CWDA_POSITIONS),
    ] {
        for (i, line) in text.lines().enumerate().skip(1) {
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() < 4 || !f[0].starts_with("cwda-") {
                continue;
            }
            let nodes: u64 = f[3].parse().expect("nodes");
            if (nodes > NODE_BUDGET) != deep {
                continue;
            }
            let tables = AnyTables::new(file_variant(f[0]));
            let got = perft(&tables, f[1], f[2].parse().expect("depth"));
            if got != nodes {
                failures.push(format!("{table}:{} {} {}: {got}", i + 1, f[0], f[1]));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "differ:\n{}", failures.join("\n"));
    checked
}

#[test]
fn builtin_file_reproduces_the_reference_tables() {
    let checked = reference_rows(false);
    assert!(checked > 300, "only {checked} rows");
}

#[test]
#[ignore = "deep rows: minutes in release (`-- --ignored`)"]
fn builtin_file_reproduces_the_deep_reference_rows() {
    assert!(reference_rows(true) > 10);
}

#[test]
fn the_evaluation_values_new_pieces_from_their_moves() {
    let forward = parse_armies("unofficial.toml", UNOFFICIAL)
        .unwrap()
        .into_iter()
        .find(|a| a.code == "forward")
        .unwrap();
    let tables = AnyTables::new(pairing::variant(&forward, &army("fide"), false).unwrap());
    with_tables!(&tables, t => {
        let ev = panoply::eval::Evaluator::new(t);
        let value = |token: &str| {
            ev.value(panoply::piece::Player::WHITE, t.variant.kind_by_token(token).unwrap())
        };
        let values: Vec<(&str, i32)> =
            ["Y", "G", "U", "J", "Q", "R", "N", "B"].iter().map(|&k| (k, value(k))).collect();
        // The file gives no values: the Forequeen (queen-like) is worth most, the
        // Furlrurlbakking (rook-like) more than the two minor pieces, all of them something.
        let v = |k: &str| values.iter().find(|(t, _)| *t == k).unwrap().1;
        assert!(v("Y") > v("G") && v("G") > v("U") && v("G") > v("J"), "{values:?}");
        assert!(v("U") > 150 && v("J") > 150 && v("Y") > 600, "{values:?}");
    });
}

// ---- bad files ----

/// An armies file of one army with the given fields.
fn one_army(code: &str, setup: &str, pieces: &[(&str, &str, &str)]) -> String {
    let mut s = format!(
        "[[army]]\nname = \"Test {code}\"\ncode = \"{code}\"\nsetup = \"{setup}\"\n\
         castling_partner = \"{}\"\n",
        setup.chars().next().unwrap_or('R')
    );
    for (name, letter, betza) in pieces {
        s += &format!(
            "[[army.piece]]\nname = \"{name}\"\nletter = \"{letter}\"\nbetza = \"{betza}\"\n"
        );
    }
    s
}

const GOOD_PIECES: [(&str, &str, &str); 4] = [
    ("Lion Rook", "T", "R"),
    ("Gnu", "U", "NC"),
    ("Vizier", "V", "WF"),
    ("Yak", "Y", "BW"),
];

fn refusal(file: &str, text: &str) -> String {
    let e = parse_armies(file, text).expect_err("refused");
    let line = e.to_string();
    assert!(!line.contains('\n'), "one line: {line}");
    line
}

#[test]
fn a_good_test_army_reads() {
    let a = parse_armies("t.toml", &one_army("zzgood", "TUVYKVUT", &GOOD_PIECES)).unwrap();
    assert_eq!(a[0].setup, ['T', 'U', 'V', 'Y', 'K', 'V', 'U', 'T']);
}

#[test]
fn unknown_betza_atom_is_named_with_its_line() {
    let mut pieces = GOOD_PIECES;
    pieces[2] = ("Vizier", "V", "WX");
    let text = one_army("zzbad", "TUVYKVUT", &pieces);
    let line = text.lines().position(|l| l.contains("WX")).unwrap() + 1;
    let e = refusal("bad.toml", &text);
    assert!(e.starts_with(&format!("bad.toml:{line}: ")), "{e}");
    assert!(e.contains("unknown Betza atom") && e.contains("'X'"), "{e}");
}

#[test]
fn two_pieces_with_one_letter_are_refused() {
    let mut pieces = GOOD_PIECES;
    pieces[3] = ("Other Gnu", "U", "BW");
    let text = one_army("zzdup", "TUVYKVUT", &pieces);
    let lines: Vec<&str> = text.lines().collect();
    let line = lines
        .iter()
        .rposition(|l| l.contains("letter = \"U\""))
        .unwrap()
        + 1;
    let e = refusal("dup.toml", &text);
    assert_eq!(
        e,
        format!("dup.toml:{line}: two pieces of the army have letter 'U'")
    );
}

#[test]
fn a_setup_without_a_king_or_of_the_wrong_length_is_refused() {
    let text = one_army("zznoking", "TUVYYVUT", &GOOD_PIECES);
    let e = refusal("noking.toml", &text);
    assert_eq!(e, "noking.toml:4: the setup has no King (no royal piece)");
    let text = one_army("zzshort", "TUVYKVU", &GOOD_PIECES);
    let e = refusal("short.toml", &text);
    assert_eq!(
        e,
        "short.toml:4: the setup has 7 squares; a back rank has 8"
    );
}

#[test]
fn not_toml_or_unknown_keys_are_refused_with_the_line() {
    let e = refusal("x.toml", "[[army]]\nname = \"A\"\ncode = \n");
    assert!(e.starts_with("x.toml:3: "), "{e}");
    let text = one_army("zzkey", "TUVYKVUT", &GOOD_PIECES).replace("setup", "setpu");
    let e = refusal("key.toml", &text);
    assert!(e.starts_with("key.toml:") && e.contains("setpu"), "{e}");
}

/// Writes `text` to a file of its own in the temporary folder and returns its path.
fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("panoply-armies-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temporary file");
    path.to_string_lossy().into_owned()
}

/// Runs the engine binary (loading armies changes the process's registry, so it is tested
/// in a process of its own): (exit code, stdout, stderr).
fn panoply(args: &[&str]) -> (Option<i32>, String, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_panoply"))
        .args(args)
        .output()
        .expect("the engine runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (o.status.code(), text(&o.stdout), text(&o.stderr))
}

#[test]
fn a_letter_that_is_another_piece_in_a_built_in_army_is_refused_at_load() {
    // N moves as a Knight in the FIDE army; here it is a Camel.
    let mut pieces = GOOD_PIECES;
    pieces[1] = ("Camel", "N", "C");
    let text = one_army("zzclash", "TNVYKVNT", &pieces);
    let file = temp_file("clash.toml", &text);
    let (code, out, err) = panoply(&["--armies", &file, "variants"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "{out}");
    // The error points at the piece's letter, not at the army's code.
    let line = text.lines().position(|l| l == "letter = \"N\"").unwrap() + 1;
    assert_eq!(
        err,
        format!(
            "panoply: {file}:{line}: letter 'N' of army 'zzclash' is another piece in army 'fide'\n"
        )
    );
}

/// The 1-based line of the `n`th (from 0) line equal to `wanted`.
fn nth_line(text: &str, wanted: &str, n: usize) -> usize {
    let mut found = text.lines().enumerate().filter(|(_, l)| *l == wanted);
    found.nth(n).expect("the line is there").0 + 1
}

#[test]
fn two_armies_of_one_file_that_clash_are_refused_with_both_lines() {
    let mut one = GOOD_PIECES;
    one[1] = ("Lancer", "L", "fR");
    let mut two = GOOD_PIECES;
    two[1] = ("Lioness", "L", "KAD");
    let text = one_army("zzlone", "TLVYKVLT", &one) + &one_army("zzltwo", "TLVYKVLT", &two);
    let file = temp_file("meet.toml", &text);
    let (code, out, err) = panoply(&["--armies", &file, "variants"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "{out}");
    let (first, second) = (
        nth_line(&text, "letter = \"L\"", 0),
        nth_line(&text, "letter = \"L\"", 1),
    );
    assert_eq!(
        err,
        format!(
            "panoply: {file}:{second}: letter 'L' of army 'zzltwo' is another piece in army \
             'zzlone' ({file}:{first}); a letter names one piece in every game\n"
        )
    );
}

#[test]
fn armies_of_two_files_play_together_and_their_clashes_name_both_files() {
    let mut one = GOOD_PIECES;
    one[1] = ("Lancer", "L", "fR");
    let a = temp_file("two-a.toml", &one_army("zztwoa", "TLVYKVLT", &one));
    let b = temp_file("two-b.toml", &one_army("zztwob", "TUVYKVUT", &GOOD_PIECES));
    let (code, out, err) = panoply(&["--armies", &a, "--armies", &b, "variants"]);
    assert_eq!(code, Some(0), "{err}");
    let names: Vec<&str> = out.lines().collect();
    for name in [
        "cwda-zztwoa-zztwob",
        "cwda-zztwob-zztwoa",
        "cwda-zztwoa-fide",
    ] {
        assert!(names.contains(&name), "{name}");
    }
    // Both files in one UCI option, separated by ';'.
    let mut e = start_uci();
    let out = uci_say(&mut e, &format!("setoption name ArmiesFile value {a};{b}"));
    assert!(
        out[0].contains(&format!(
            "armies file {a}: added zztwoa; armies file {b}: added zztwob"
        )),
        "{out:?}"
    );
    // A third file whose L is another piece: refused, naming its line and the first file's.
    let mut other = GOOD_PIECES;
    other[1] = ("Lioness", "L", "KAD");
    let text = one_army("zztwoc", "TLVYKVLT", &other);
    let c = temp_file("two-c.toml", &text);
    let (code, _, err) = panoply(&["--armies", &a, "--armies", &c, "variants"]);
    assert_eq!(code, Some(2));
    let line = nth_line(&text, "letter = \"L\"", 0);
    assert!(
        err.starts_with(&format!(
            "panoply: {c}:{line}: letter 'L' of army 'zztwoc' is another piece in army \
             'zztwoa' ({a}:{line})"
        )),
        "{err}"
    );
    // The shipped unofficial armies use J U Y Z: the letters the docs call free are free.
    let free = [
        ("Lion", "L", "R"),
        ("Tiger", "T", "NC"),
        ("Vizier", "V", "WF"),
        ("Xebec", "X", "BW"),
    ];
    let mine = temp_file("free.toml", &one_army("zzfree", "LTVXKVTL", &free));
    let (code, out, err) = panoply(&["--armies", UNOFFICIAL_PATH, "--armies", &mine, "variants"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.lines().any(|l| l == "cwda-zzfree-forward"), "{out}");
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/armies.md")).unwrap();
    assert!(
        docs.contains("free letters: `L T V X`"),
        "docs/armies.md names the free letters"
    );
}

#[test]
fn betza_strings_read_otherwise_than_betza_meant_are_warned_about() {
    // Betza's own Knishop, fNbB: Fairy-Stockfish's fN is the two narrow forward moves.
    let pieces = [
        ("Lion", "L", "R"),
        ("Knishop", "T", "fNbB"),
        ("Vizier", "V", "WF"),
        ("Xebec", "X", "BW"),
    ];
    let text = one_army("zzwarn", "LTVXKVTL", &pieces);
    let file = temp_file("warn.toml", &text);
    let line = nth_line(&text, "letter = \"T\"", 0);
    let (code, out, err) = panoply(&["--armies", &file, "variants", "--explain"]);
    assert_eq!(code, Some(0), "{err}");
    let warning = format!(
        "{file}:{line}: army 'zzwarn', piece 'Knishop': Betza 'fNbB' is read as Fairy-Stockfish \
         reads it, not as Betza's pages do: from d4 it misses b5 f5"
    );
    assert!(err.contains(&warning), "stderr: {err}");
    assert!(
        out.contains(&format!("  warning: {warning}")),
        "stdout: {out}"
    );
    assert!(out.contains("  T Knishop fNbB (line"), "{out}");
    // The shipped files, written for this dialect, warn about nothing.
    let (code, out, err) = panoply(&["--armies", UNOFFICIAL_PATH, "variants", "--explain"]);
    assert_eq!(code, Some(0));
    assert!(
        !err.contains("Betza") && !out.contains("warning"),
        "{err}{out}"
    );
}

#[test]
fn a_loaded_army_plays_under_every_command() {
    let file = temp_file("good.toml", &one_army("zzgood", "TUVYKVUT", &GOOD_PIECES));
    let (code, out, err) = panoply(&[
        "--armies",
        &file,
        "perft",
        "2",
        "--variant",
        "cwda-zzgood-fide",
    ]);
    assert_eq!(code, Some(0), "{err}");
    // White: 16 pawn moves and 4 for each Gnu (NC: a3 c3 a4 c4 from b1); Black: FIDE's 20.
    assert_eq!(out.trim_end(), "Nodes searched: 480");
    let unofficial = concat!(env!("CARGO_MANIFEST_DIR"), "/armies/unofficial.toml");
    let (code, out, err) = panoply(&[
        "--armies",
        unofficial,
        "show",
        "--variant",
        "cwda-forward-amazon",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("snbzkbns/pppppppp/8/8/8/8/PPPPPPPP/GUJYKJUG w KQkq - 0 1"),
        "{out}"
    );
}

// ---- protocols ----

const UNOFFICIAL_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/armies/unofficial.toml");

#[test]
fn uci_started_with_armies_lists_and_plays_the_new_pairings() {
    let mut e = Engine::start_with(&["--armies", UNOFFICIAL_PATH]);
    e.send("uci");
    let lines = e.expect("uciok");
    let variants = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant"))
        .expect("UCI_Variant");
    for name in [
        "cwda-forward-fide",
        "cwda-nutty-amazon",
        "cwda-allstars-clobberers2",
    ] {
        assert!(variants.contains(&format!(" var {name} ")), "{name}");
    }
    assert!(lines.contains(&"option name ArmiesFile type string default <empty>".into()));
    uci_say(&mut e, "setoption name UCI_Variant value cwda-forward-fide");
    uci_say(&mut e, "position startpos");
    e.send("go perft 3");
    // Fairy-Stockfish counts the same with armies/variants.ini.
    assert_eq!(e.expect_prefix("Nodes searched: "), "Nodes searched: 8822");
}

#[test]
fn uci_armies_file_option_loads_and_a_bad_file_changes_nothing() {
    let mut e = start_uci();
    let out = uci_say(
        &mut e,
        &format!("setoption name ArmiesFile value {UNOFFICIAL_PATH}"),
    );
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("info string armies file ")
            && out[0].contains("added forward, allstars, clobberers2, amazon")
            && out[0].contains("restarts the engine"),
        "{out:?}"
    );
    let mut pieces = GOOD_PIECES;
    pieces[3] = ("Yak", "Y", "BW?");
    let bad = temp_file("uci-bad.toml", &one_army("zzucibad", "TUVYKVUT", &pieces));
    let out = uci_say(&mut e, &format!("setoption name ArmiesFile value {bad}"));
    let line = one_army("zzucibad", "TUVYKVUT", &pieces)
        .lines()
        .position(|l| l.contains("BW?"))
        .unwrap()
        + 1;
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with(&format!(
            "info string option ArmiesFile: {bad}:{line}: piece 'Yak'"
        )),
        "{out:?}"
    );
    // The armies loaded before still play; the bad file's army is unknown.
    assert!(uci_say(
        &mut e,
        "setoption name UCI_Variant value cwda-allstars-amazon"
    )
    .is_empty());
    let out = uci_say(
        &mut e,
        "setoption name UCI_Variant value cwda-zzucibad-fide",
    );
    assert!(
        out[0].starts_with("info string unknown army 'zzucibad'"),
        "{out:?}"
    );
    uci_say(&mut e, "setoption name UCI_Variant value cwda-forward-fide");
    uci_say(&mut e, "position startpos");
    e.send("go perft 2");
    assert_eq!(e.expect_prefix("Nodes searched: "), "Nodes searched: 400");
}

#[test]
fn xboard_started_with_armies_offers_and_describes_the_new_pairings() {
    let mut e = Engine::start_with(&["--armies", UNOFFICIAL_PATH]);
    e.send("xboard");
    e.send("protover 2");
    let features = e.expect("feature done=1");
    let variants = features
        .iter()
        .find(|l| l.starts_with("feature variants="))
        .unwrap();
    assert!(variants.contains(",cwda-forward-fide,"), "{variants}");
    assert!(!variants.contains("-anypromo"), "{variants}");
    let white = features
        .iter()
        .find(|l| l.contains("White Army -combo"))
        .unwrap();
    assert!(white.contains(" /// Forward FIDEs /// "), "{white}");
    assert!(features.contains(&"feature option=\"ArmiesFile -file \"".into()));
    let mut x = XB::after_handshake(e);
    let out = x.say("variant cwda-forward-fide");
    assert!(out[0].starts_with("setup ("), "{out:?}");
    assert!(
        out[0].ends_with(" rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/GUJYKJUG w KQkq - 0 1"),
        "{out:?}"
    );
    // XBoard keeps `KQkq` only for pieces of its Rook type (its 4th): the castling partners.
    let table: Vec<char> = out[0]["setup (".len()..out[0].find(')').unwrap()]
        .chars()
        .collect();
    assert_eq!(
        (table[3], table[table.len() / 2 + 3]),
        ('G', 'r'),
        "{out:?}"
    );
    // Every piece of the new army is described to XBoard, so it can test legality.
    for letter in ["G", "U", "J", "Y"] {
        assert!(
            out.iter()
                .any(|l| l.starts_with(&format!("piece {letter}"))),
            "{letter}: {out:?}"
        );
    }
    // The army options pick a loaded army for `cwda`.
    x.silent("option White Army=Amazon Army");
    let out = x.say("variant cwda");
    assert!(
        out[0].ends_with("/PPPPPPPP/SNBZKBNS w KQkq - 0 1"),
        "{out:?}"
    );
    let reply = x.reply("option ArmiesFile=/nonexistent/armies.toml");
    assert!(
        reply.starts_with(
            "Error (option ArmiesFile: /nonexistent/armies.toml: cannot read the file"
        ),
        "{reply}"
    );
}

// ---- fuzzing ----

const BETZA_BITS: [&str; 24] = [
    "W", "F", "D", "N", "A", "H", "C", "Z", "G", "K", "R", "B", "Q", "f", "b", "s", "v", "h", "l",
    "r", "m", "c", "n", "4",
];
const NOISE: [&str; 16] = [
    "\"", "=", "[", "]", "[[army]]", "\n", "K", "{", "}", ",", "é", "\0", "x", "#", "99", "",
];

/// A random army with random Betza strings, setup and options.
fn random_army(rng: &mut Rng, code: usize) -> String {
    let letters: Vec<char> = "ABCDEFGHIJLMNOQRSTUVWXYZ".chars().collect();
    let n = 1 + rng.below(6);
    let mut pieces = Vec::new();
    for i in 0..n {
        let betza: String = (0..1 + rng.below(5))
            .map(|_| *rng.pick(&BETZA_BITS))
            .collect();
        let letter = letters[rng.below(letters.len())].to_string();
        pieces.push((format!("P{i}"), letter, betza));
    }
    let mut setup: Vec<char> = (0..8)
        .map(|_| pieces[rng.below(n)].1.chars().next().unwrap())
        .collect();
    setup[7] = setup[0];
    if rng.below(5) > 0 {
        setup[4] = 'K';
    }
    let setup: String = setup.into_iter().collect();
    let borrowed: Vec<(&str, &str, &str)> = pieces
        .iter()
        .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str()))
        .collect();
    let mut text = one_army(&format!("zzfuzz{code}"), &setup, &borrowed);
    if rng.below(3) == 0 {
        text += "promotion = \"either\"\n";
    }
    if rng.below(3) == 0 {
        let k = ["a", "b", "c", "d", "h"][rng.below(5)];
        text = text.replace(
            "castling_partner",
            &format!("long_castling = {{ king = \"{k}\", partner = \"c\" }}\ncastling_partner"),
        );
    }
    text
}

/// One of the shipped files with random cuts, insertions and swapped lines.
fn mangled(rng: &mut Rng) -> String {
    let base = if rng.below(2) == 0 {
        BUILTIN_TOML
    } else {
        UNOFFICIAL
    };
    let mut lines: Vec<String> = base.lines().map(String::from).collect();
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(lines.len().max(1));
        match rng.below(5) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
            2 => {
                let line = &mut lines[i];
                let cut = rng.below(line.len() + 1);
                let cut = (0..=cut)
                    .rev()
                    .find(|&c| line.is_char_boundary(c))
                    .unwrap_or(0);
                let noise = *rng.pick(&NOISE);
                line.insert_str(cut, noise);
            }
            3 => {
                let dup = lines[i].clone();
                lines.insert(i, dup);
            }
            _ => {
                if let Some(start) = lines[i].find("betza = \"") {
                    let b: String = (0..rng.below(5)).map(|_| *rng.pick(&BETZA_BITS)).collect();
                    lines[i] = format!("{}betza = \"{b}\" }},", &lines[i][..start]);
                }
            }
        }
    }
    lines.join("\n")
}

/// Every army of a file that loads meets FIDE and itself: the pairing is built and its start
/// position searched two plies deep.
fn play_briefly(armies: &[Army]) {
    let fide = army("fide");
    for a in armies {
        for (w, b) in [(a, &fide), (&fide, a), (a, a)] {
            let Ok(v) = pairing::variant(w, b, false) else {
                continue;
            };
            let tables = AnyTables::new(v);
            with_tables!(&tables, t => {
                if let Ok(pos) = fen::parse(t, &t.variant.start_position) {
                    perft_parallel(t, &pos, 2);
                }
            });
        }
    }
}

#[test]
fn a_thousand_random_or_mangled_files_never_panic() {
    let mut rng = Rng::new(43);
    let (mut loaded, mut refused) = (0, 0);
    for i in 0..1000 {
        let text = if i % 2 == 0 {
            mangled(&mut rng)
        } else {
            random_army(&mut rng, i)
        };
        match parse_armies("fuzz.toml", &text) {
            Ok(armies) => {
                loaded += 1;
                play_briefly(&armies);
            }
            Err(e) => {
                refused += 1;
                let line = e.to_string();
                assert!(line.starts_with("fuzz.toml"), "{line}");
                assert!(!line.contains('\n'), "not one line: {line:?}\n{text}");
            }
        }
    }
    // Both outcomes occur, so the fuzzing reaches the checks and the game.
    assert!(
        loaded > 50 && refused > 50,
        "loaded {loaded}, refused {refused}"
    );
}
