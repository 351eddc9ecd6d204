//! Every row of the reference perft tables (copied from the shared ground truth into
//! `tests/perft/`) checked through the library. Rows above `NODE_BUDGET` are `#[ignore]`d so
//! the default suite stays fast; run them with `cargo test --release -- --ignored`.

use panoply::game::AnyTables;
use panoply::movegen::perft::perft_parallel;
use panoply::position::fen;
use panoply::with_tables;
use std::collections::HashMap;

/// Rows with more leaf nodes than this run only with `--ignored`. With it the default run
/// covers about 455 rows and 0.3 billion nodes (seconds in release on 2 cores); the rest
/// (about 105 rows, 12.8 billion nodes) take minutes.
const NODE_BUDGET: u64 = 10_000_000;

const TABLES: [(&str, &str); 7] = [
    ("chess.tsv", include_str!("perft/chess.tsv")),
    ("cwda-start.tsv", include_str!("perft/cwda-start.tsv")),
    (
        "cwda-positions.tsv",
        include_str!("perft/cwda-positions.tsv"),
    ),
    ("swda-start.tsv", include_str!("perft/swda-start.tsv")),
    (
        "cyclical-start.tsv",
        include_str!("perft/cyclical-start.tsv"),
    ),
    ("aof5-start.tsv", include_str!("perft/aof5-start.tsv")),
    (
        "missionary-start.tsv",
        include_str!("perft/missionary-start.tsv"),
    ),
];

struct Row {
    origin: String,
    variant: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn rows() -> Vec<Row> {
    let mut out = Vec::new();
    for (file, text) in TABLES {
        let mut lines = text.lines().enumerate();
        let (_, header) = lines.next().expect("header line");
        assert!(header.starts_with("variant\tfen\tdepth\tnodes"), "{file}");
        for (i, line) in lines.filter(|(_, l)| !l.trim().is_empty()) {
            let f: Vec<&str> = line.split('\t').collect();
            assert!(f.len() >= 4, "{file}:{}: too few fields", i + 1);
            out.push(Row {
                origin: format!("{file}:{}", i + 1),
                variant: f[0].to_string(),
                fen: f[1].to_string(),
                depth: f[2].parse().expect("depth"),
                nodes: f[3].parse().expect("nodes"),
            });
        }
    }
    out
}

/// Checks the selected rows; returns (rows checked, nodes counted) and fails listing every
/// mismatch.
fn check(select: impl Fn(&Row) -> bool) -> (usize, u64) {
    let mut tables: HashMap<String, AnyTables> = HashMap::new();
    let mut failures = Vec::new();
    let (mut checked, mut nodes) = (0, 0);
    for row in rows().iter().filter(|r| select(r)) {
        let any = tables.entry(row.variant.clone()).or_insert_with(|| {
            panoply::games::tables(&row.variant).unwrap_or_else(|e| panic!("{}: {e}", row.origin))
        });
        let got = with_tables!(&*any, t => {
            let pos = fen::parse(t, &row.fen).unwrap_or_else(|e| panic!("{}: {e}", row.origin));
            perft_parallel(t, &pos, row.depth)
        });
        if got != row.nodes {
            failures.push(format!(
                "{} {} '{}' depth {}: expected {}, got {got}",
                row.origin, row.variant, row.fen, row.depth, row.nodes
            ));
        }
        checked += 1;
        nodes += got;
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} rows differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{checked} perft rows match, {nodes} nodes");
    (checked, nodes)
}

#[test]
fn reference_rows_within_budget() {
    let (checked, _) = check(|r| r.nodes <= NODE_BUDGET);
    assert!(checked > 400, "only {checked} rows within the budget");
}

#[test]
#[ignore = "deep rows: minutes in release; run with `cargo test --release -- --ignored`"]
fn reference_rows_above_budget() {
    let (checked, _) = check(|r| r.nodes > NODE_BUDGET);
    assert!(checked > 100, "only {checked} deep rows");
}

#[test]
fn every_table_covers_all_sixteen_pairings() {
    let all = rows();
    for w in ["fide", "clobberers", "nutty", "rookies"] {
        for b in ["fide", "clobberers", "nutty", "rookies"] {
            let name = format!("cwda-{w}-{b}");
            assert!(all.iter().any(|r| r.variant == name), "{name} has no rows");
        }
    }
}

#[test]
fn swda_and_cyclical_tables_cover_every_pairing_and_option() {
    let all = rows();
    let armies = ["originals", "jostlers", "posh", "amphibians"];
    let mut names: Vec<String> = armies
        .iter()
        .flat_map(|w| armies.iter().map(move |b| format!("swda-{w}-{b}")))
        .collect();
    names.extend(["", "-fixed", "-reverse", "-fixed-reverse"].map(|o| format!("cyclical{o}")));
    for name in names {
        let deepest = all
            .iter()
            .filter(|r| r.variant == name)
            .map(|r| r.depth)
            .max();
        assert!(deepest >= Some(5), "{name} has no rows to depth 5");
    }
}
