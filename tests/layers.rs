//! The layering, kept by a test where the compiler cannot keep it. The core crate
//! (`crates/core`) cannot name a family: it does not depend on the crate that holds them.
//! Within each crate, this test reads the sources and fails on a circle of imports between
//! files — an edge A -> B for each `use crate::…`, `use super::…` or path through such a use
//! in A of a name that B defines (a module's file re-exporting its own children is no edge;
//! test modules are left out) — and on core code that branches on a family by name.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module path inside a crate: `["movegen", "tables"]`; the crate root is empty.
type ModPath = Vec<String>;

struct SourceFile {
    module: ModPath,
    /// Whether the file is a module's own file (`mod.rs`, `lib.rs`), whose children are the
    /// modules below it.
    owns_children: bool,
    text: String,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The library's files (the binary's `main.rs` and `cli/` are a crate of their own).
fn crate_files(root: &Path) -> Vec<SourceFile> {
    let mut paths = Vec::new();
    rust_files(root, &mut paths);
    paths
        .into_iter()
        .filter(|p| !p.ends_with("main.rs") && !p.starts_with(root.join("cli")))
        .filter(|p| !p.ends_with("tests.rs"))
        .map(|path| {
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut module: ModPath = rel.iter().map(|s| s.to_string_lossy().into()).collect();
            let owns_children = matches!(module.last().map(String::as_str), Some("mod" | "lib"));
            if owns_children {
                module.pop();
            }
            let text = without_comments_and_tests(&fs::read_to_string(&path).unwrap());
            SourceFile {
                module,
                owns_children,
                text,
            }
        })
        .collect()
}

/// The code without `//` comments and without its test modules (`#[cfg(test)] mod …`).
fn without_comments_and_tests(text: &str) -> String {
    let code: Vec<&str> = text
        .lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect();
    let mut code = code.join("\n");
    let mut from = 0;
    while let Some(at) = code[from..].find("#[cfg(test)]").map(|i| from + i) {
        let item = at + "#[cfg(test)]".len();
        match test_module_end(&code[item..]) {
            Some(len) => code.replace_range(at..item + len, ""),
            None => from = item,
        }
    }
    code
}

/// The length of the `mod` item at the start of `code` (after blanks and a `pub(…)`), through
/// its `;` or its closing brace; `None` when the item is not a module.
fn test_module_end(code: &str) -> Option<usize> {
    let start = code.len() - code.trim_start().len();
    let mut rest = code[start..]
        .trim_start_matches("pub(crate)")
        .trim_start_matches("pub");
    rest = rest.trim_start();
    if !rest.starts_with("mod ") {
        return None;
    }
    let offset = code.len() - rest.len();
    let bytes = rest.as_bytes();
    let (mut depth, mut i) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i += string_len(&bytes[i..]),
            b'\'' => i += char_literal_len(&bytes[i..]),
            b';' if depth == 0 => return Some(offset + i + 1),
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(offset + i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    Some(code.len())
}

/// The bytes of the string literal that starts `code` (at its `"`), less its closing quote.
fn string_len(code: &[u8]) -> usize {
    let mut i = 1;
    while i < code.len() && code[i] != b'"' {
        i += if code[i] == b'\\' { 2 } else { 1 };
    }
    i
}

/// The bytes of the character literal that starts `code` (at its `'`), less its closing
/// quote; 0 for a lifetime.
fn char_literal_len(code: &[u8]) -> usize {
    match code {
        [b'\'', b'\\', ..] => code[2..]
            .iter()
            .position(|&b| b == b'\'')
            .map_or(0, |p| p + 2),
        [b'\'', _, b'\'', ..] => 2,
        _ => 0,
    }
}

/// `a::{b, c::{d, e}}` -> `a::b`, `a::c::d`, `a::c::e`.
fn expand_braces(tree: &str) -> Vec<String> {
    let tree: String = tree.split_whitespace().collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let (prefix, inner) = (&tree[..open], &tree[open + 1..tree.len() - 1]);
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, ch) in inner.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| {
            expand_braces(p)
                .into_iter()
                .map(move |e| format!("{prefix}{e}"))
        })
        .collect()
}

/// The paths a file imports (`use` items, `as` renames dropped), each with whether it is
/// re-exported.
fn use_paths(code: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = &rest[..i];
        let at_item_start = before
            .chars()
            .last()
            .is_none_or(|c| c.is_whitespace() || c == ';' || c == '{' || c == '}');
        let public = before.trim_end().ends_with("pub") || before.trim_end().ends_with(')');
        let Some(end) = rest[i..].find(';') else {
            break;
        };
        if at_item_start {
            for path in expand_braces(&rest[i + 4..i + end]) {
                let path = path.split(" as ").next().unwrap_or_default().to_string();
                out.push((path, public));
            }
        }
        rest = &rest[i + end..];
    }
    out
}

/// Paths written in the code itself (`crate::a::b`, `super::x`, `alias::x` for an imported
/// module `alias`).
fn inline_paths(code: &str, aliases: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        if is_ident(bytes[i]) && (i == 0 || !is_ident(bytes[i - 1]) && bytes[i - 1] != b':') {
            let mut j = i;
            while j < bytes.len() && (is_ident(bytes[j]) || code[j..].starts_with("::")) {
                j += if bytes[j] == b':' { 2 } else { 1 };
            }
            let path = code[i..j].trim_end_matches(':');
            if let Some((head, tail)) = path.split_once("::") {
                if head == "crate" || head == "super" {
                    out.push(path.to_string());
                } else if let Some(full) = aliases.get(head) {
                    out.push(format!("{full}::{tail}"));
                }
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// The absolute module path a `crate::`/`super::`/`self::` path names, or `None` for paths
/// outside the crate.
fn absolute(file: &SourceFile, path: &str) -> Option<ModPath> {
    let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut here = file.module.clone();
    if !file.owns_children {
        here.pop();
    }
    let mut rest = &segments[..];
    match rest.first() {
        Some(&"crate") => {
            here.clear();
            rest = &rest[1..];
        }
        Some(&"self") => rest = &rest[1..],
        Some(&"super") => {
            // `super` from a file is its parent module; from a module's own file, the parent's.
            while rest.first() == Some(&"super") {
                if file.owns_children || rest.len() < segments.len() {
                    here.pop();
                }
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    here.extend(
        rest.iter()
            .filter(|s| **s != "self" && **s != "*")
            .map(|s| s.to_string()),
    );
    Some(here)
}

/// The file-level import graph of one crate.
fn import_graph(files: &[SourceFile]) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let modules: BTreeSet<&ModPath> = files.iter().map(|f| &f.module).collect();
    // The file that defines what a path names: its longest prefix that is a module.
    let defining = |path: &ModPath| {
        (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| modules.contains(p))
    };
    let mut graph = BTreeMap::new();
    for file in files {
        let uses = use_paths(&file.text);
        let aliases: BTreeMap<String, String> = uses
            .iter()
            .filter_map(|(p, _)| {
                let p = p.trim_end_matches("::self");
                Some((p.rsplit("::").next()?.to_string(), p.to_string()))
            })
            .collect();
        let inline = inline_paths(&file.text, &aliases);
        let edges: &mut BTreeSet<ModPath> = graph.entry(file.module.clone()).or_default();
        let all = uses
            .into_iter()
            .chain(inline.into_iter().map(|p| (p, false)));
        for (path, public) in all {
            let Some(target) = absolute(file, &path).and_then(|p| defining(&p)) else {
                continue;
            };
            let own_child = target.len() > file.module.len() && target.starts_with(&file.module);
            if target != file.module && !(file.owns_children && own_child && public) {
                edges.insert(target);
            }
        }
    }
    graph
}

/// The engine crate's folders (and root files), bottom up. A file may import from its own
/// folder, from the core crate (re-exported at the root), from any folder of a lower layer,
/// and from the peers of its own layer that [`PEERS`] names. docs/architecture.md explains
/// the order.
const LAYERS: &[&[&str]] = &[
    &["random", "located", "digest", "out", "version"],
    &["eval", "nnue"],
    &["games"],
    &["search"],
    &["session"],
    &["records"],
    &[
        "armies",
        "bench",
        "datagen",
        "engines",
        "interop",
        "protocol",
        "server",
        "shell",
        "tournament",
        "train",
        "tune",
    ],
];

/// Within a layer, which folder may use which (user, used), and why. Each line is a use the
/// code makes today; a new one is a decision, made here.
const PEERS: &[(&str, &str)] = &[
    // Variants defined in army files, offered as engine options.
    ("protocol", "armies"),
    // Fairy-Max's piece letters and pairing names, spoken over XBoard; Fairy-Stockfish's
    // promotions, read from its UCI output.
    ("protocol", "interop"),
    ("engines", "interop"),
    // A Panoply engine started by the referee gets the armies files the referee loaded.
    ("engines", "armies"),
    // The referee plays engines; the labeller asks one for its scores.
    ("tournament", "engines"),
    ("tune", "engines"),
    // Training positions: the tuner and the trainer read the data generator's files.
    ("tune", "datagen"),
    ("train", "datagen"),
    ("train", "tune"),
    // The shell reads its input lines as the protocols do.
    ("shell", "protocol"),
];

/// The layer of a folder, by its index in [`LAYERS`]; the crate root (the core's modules) is
/// below them all.
fn layer(folder: Option<&String>) -> Result<Option<usize>, String> {
    let Some(folder) = folder else {
        return Ok(None);
    };
    LAYERS
        .iter()
        .position(|l| l.contains(&folder.as_str()))
        .map(Some)
        .ok_or_else(|| format!("src/{folder} is in no layer of LAYERS: give it a place"))
}

/// Each import that points up or sideways without leave, as "from -> to".
fn upward_imports(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Result<Vec<String>, String> {
    let mut wrong = Vec::new();
    for (from, targets) in graph {
        for to in targets {
            let (user, used) = (from.first(), to.first());
            if user == used {
                continue;
            }
            let (Some(low), high) = (layer(used)?, layer(user)?) else {
                continue; // the core crate, below everything
            };
            let peer = |(a, b): &&(&str, &str)| {
                Some(*a) == user.map(String::as_str) && Some(*b) == used.map(String::as_str)
            };
            let allowed = match high {
                Some(high) => low < high || (low == high && PEERS.iter().any(|p| peer(&p))),
                None => false, // the root (lib.rs) only re-exports
            };
            if !allowed {
                wrong.push(format!("{} -> {}", from.join("/"), to.join("/")));
            }
        }
    }
    Ok(wrong)
}

/// A circle of files, if the graph has one.
fn find_circle(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Option<Vec<ModPath>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &ModPath,
        graph: &BTreeMap<ModPath, BTreeSet<ModPath>>,
        marks: &mut BTreeMap<ModPath, Mark>,
        stack: &mut Vec<ModPath>,
    ) -> Option<Vec<ModPath>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = stack.iter().position(|n| n == node).unwrap();
                return Some(stack[from..].to_vec());
            }
            None => {}
        }
        marks.insert(node.clone(), Mark::Open);
        stack.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, marks, stack) {
                return Some(circle);
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut marks, &mut Vec::new()))
}

fn assert_no_circle(root: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(root);
    let files = crate_files(&root);
    assert!(files.len() > 5, "no sources found under {}", root.display());
    let graph = import_graph(&files);
    let edges: usize = graph.values().map(BTreeSet::len).sum();
    assert!(
        edges > files.len(),
        "the import graph looks empty ({edges} edges)"
    );
    if let Some(circle) = find_circle(&graph) {
        let names: Vec<String> = circle.iter().map(|m| m.join("/")).collect();
        panic!(
            "import circle in {}: {} -> back to the start",
            root.display(),
            names.join(" -> ")
        );
    }
}

#[test]
fn the_core_crate_has_no_import_circle() {
    assert_no_circle("crates/core/src");
}

#[test]
fn the_engine_crate_has_no_import_circle() {
    assert_no_circle("src");
}

#[test]
fn no_import_points_up() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = crate_files(&root);
    let wrong = upward_imports(&import_graph(&files)).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        wrong.is_empty(),
        "imports against the layer order of tests/layers.rs (move the name down, or give the \
         folder another place with a reason):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_core_branches_on_no_family() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src");
    for file in crate_files(&root) {
        if file.module == ["variant"] {
            continue; // where the family label is defined
        }
        assert!(
            !file.text.contains("Family::"),
            "crates/core/src/{}.rs names a family: rules reach the core as data",
            file.module.join("/")
        );
    }
}

#[test]
fn a_circle_is_found_where_there_is_one() {
    let file = |module: &[&str], text: &str| SourceFile {
        module: module.iter().map(|s| s.to_string()).collect(),
        owns_children: false,
        text: text.to_string(),
    };
    let files = [
        file(&["a"], "use crate::b::{Thing, other::{X}};"),
        file(&["b"], "fn f() { crate::c::g(); }"),
        file(&["c"], "use super::a;\nfn g() { a::h(); }"),
    ];
    let graph = import_graph(&files);
    let circle = find_circle(&graph).expect("a -> b -> c -> a is a circle");
    assert_eq!(circle.len(), 3);
    let acyclic = [
        file(&["a"], "use crate::b::Thing;"),
        file(&["b"], "pub fn f() {}"),
    ];
    assert_eq!(find_circle(&import_graph(&acyclic)), None);
}

#[test]
fn an_upward_import_is_found_where_there_is_one() {
    let file = |module: &[&str], owns_children: bool, text: &str| SourceFile {
        module: module.iter().map(|s| s.to_string()).collect(),
        owns_children,
        text: without_comments_and_tests(text),
    };
    let correction = file(&["search", "correction"], false, "pub struct Keys;");
    let eval = "use crate::movegen::Tables;\nuse crate::search::correction::Keys;";
    let files = [file(&["eval"], true, eval), correction];
    assert_eq!(
        upward_imports(&import_graph(&files)).unwrap(),
        ["eval -> search/correction"]
    );
    // The same import in a test module, or downward, is no fault.
    let in_tests = "use crate::movegen::Tables;\n#[cfg(test)]\nmod tests {\n    \
                    use crate::search::correction::Keys;\n    fn f() { let _ = '{'; }\n}\n";
    let files = [
        file(&["eval"], true, in_tests),
        file(
            &["search", "correction"],
            false,
            "use crate::eval::Weights;",
        ),
    ];
    assert!(upward_imports(&import_graph(&files)).unwrap().is_empty());
    // A peer without leave is a fault; one with leave is not.
    let files = [
        file(&["tournament"], true, "use crate::protocol::read_line;"),
        file(&["protocol"], true, "use crate::records::book::Book;"),
    ];
    assert_eq!(
        upward_imports(&import_graph(&files)).unwrap(),
        ["tournament -> protocol"]
    );
    // A folder with no place in the order is named.
    let files = [
        file(&["attic"], true, "use crate::search::Searcher;"),
        file(&["search"], true, ""),
    ];
    let error = upward_imports(&import_graph(&files)).unwrap_err();
    assert!(error.contains("src/attic"), "{error}");
}

/// Functions over 100 lines that are known and left for another change: none.
const LONG_FUNCTIONS_LEFT: &[&str] = &[];

#[test]
fn no_function_is_over_100_lines() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/long-functions.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .output()
        .expect("python3 runs scripts/long-functions.py");
    let listing = String::from_utf8_lossy(&out.stdout);
    // "path:line: `name` is N lines (over 100)" -> "path: `name`"
    let found: Vec<String> = listing
        .lines()
        .map(|l| {
            let (path, rest) = l.split_once(':').unwrap_or((l, ""));
            let name = rest.split('`').nth(1).unwrap_or_default();
            format!("{path}: `{name}`")
        })
        .collect();
    assert_eq!(
        out.status.success(),
        found.is_empty(),
        "the script's exit status agrees with its listing:\n{listing}"
    );
    assert_eq!(
        found, LONG_FUNCTIONS_LEFT,
        "functions over 100 lines (split them into named steps; remove a function from \
         LONG_FUNCTIONS_LEFT once it is short):\n{listing}"
    );
}

#[test]
fn the_long_function_script_finds_a_long_function() {
    let dir = std::env::temp_dir().join(format!("panoply-long-functions-{}", std::process::id()));
    let script_dir = dir.join("scripts");
    fs::create_dir_all(&script_dir).unwrap();
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::create_dir_all(dir.join("crates")).unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    fs::copy(
        manifest.join("scripts/long-functions.py"),
        script_dir.join("long-functions.py"),
    )
    .unwrap();
    // 101 lines from `fn` to `}`, with braces in a string and a comment that must not count;
    // the same function in a test module is left out.
    let body = "    let s = \"{\"; // }\n".repeat(99);
    let long = format!("fn long_one() {{\n{body}}}\n");
    let text = format!(
        "{long}\nfn short_one() {{}}\n#[cfg(test)]\nmod tests {{\n{}}}\n",
        long.replace("long_one", "in_tests")
    );
    fs::write(dir.join("src/lib.rs"), text).unwrap();
    let out = std::process::Command::new("python3")
        .arg(script_dir.join("long-functions.py"))
        .output()
        .unwrap();
    fs::remove_dir_all(&dir).unwrap();
    let listing = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert_eq!(
        listing.trim(),
        "src/lib.rs:1: `long_one` is 101 lines (over 100)"
    );
}
