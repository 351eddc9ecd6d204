//! networks/MANIFEST.toml is true: every data file in networks/data/ is listed with the bytes
//! and size it has (a listed file that is not in the tree can be made again), every shipped
//! network has the weights it names (and the network it was trained from, if any, is in git
//! history with the weights named for it), and the two samples that stand for the whole pipeline — a
//! one-thread datagen run and a training run with the shipped recipe — give again, byte for
//! byte, the digests written there; `panoply network` prints the listed weights digests.

use panoply::digest::sha256_hex;
use panoply::nnue::format::Network;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Deserialize)]
struct Manifest {
    data: Vec<DataFile>,
    network: Vec<ShippedNetwork>,
    sample: Vec<Sample>,
}

#[derive(Deserialize)]
struct DataFile {
    file: String,
    sha256: String,
    bytes: u64,
    reproducible: String,
    needed_by: Vec<String>,
}

#[derive(Deserialize)]
struct ShippedNetwork {
    file: String,
    weights_sha256: String,
    inputs: Vec<String>,
    args: Vec<String>,
    /// `commit:path` of the network its training started from (`--init {init}`).
    init: Option<String>,
    init_weights_sha256: Option<String>,
}

#[derive(Deserialize)]
struct Sample {
    name: String,
    args: Vec<String>,
    sha256: Option<String>,
    weights_sha256: Option<String>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn manifest() -> Manifest {
    let text = std::fs::read_to_string(root().join("networks/MANIFEST.toml")).unwrap();
    toml::from_str(&text).expect("networks/MANIFEST.toml parses")
}

/// Runs `panoply` from the repository root with the manifest's arguments, `{out}` replaced.
fn run(args: &[String], out: &Path) {
    let args: Vec<String> = args
        .iter()
        .map(|a| a.replace("{out}", out.to_str().unwrap()))
        .collect();
    let o = Command::new(env!("CARGO_BIN_EXE_panoply"))
        .args(&args)
        .current_dir(root())
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "panoply {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("panoply-manifest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn every_data_file_is_listed_with_its_bytes() {
    let m = manifest();
    let listed: Vec<&str> = m.data.iter().map(|d| d.file.as_str()).collect();
    for entry in std::fs::read_dir(root().join("networks/data")).unwrap() {
        let file = format!(
            "networks/data/{}",
            entry.unwrap().file_name().to_string_lossy()
        );
        assert!(
            listed.contains(&file.as_str()),
            "{file} is not in the manifest"
        );
    }
    for d in &m.data {
        check_bytes(d);
        assert!(
            !d.needed_by.is_empty(),
            "{} trains no shipped network",
            d.file
        );
        for network in &d.needed_by {
            let user = m.network.iter().find(|n| &n.file == network);
            let user = user.unwrap_or_else(|| panic!("{}: no network {network}", d.file));
            assert!(
                user.inputs.contains(&d.file),
                "{network} does not list {}",
                d.file
            );
        }
    }
}

/// A data file in the tree has the listed size and digest. Data of more than a few MB stays out
/// of git, so a listed file may be absent: then its command must remake it byte for byte
/// (scripts/rebuild-networks.sh does).
fn check_bytes(d: &DataFile) {
    let Ok(bytes) = std::fs::read(root().join(&d.file)) else {
        assert_eq!(
            d.reproducible, "yes",
            "{} is neither in the tree nor reproducible",
            d.file
        );
        return;
    };
    assert_eq!(bytes.len() as u64, d.bytes, "{}", d.file);
    assert_eq!(sha256_hex(&bytes), d.sha256, "{}", d.file);
}

#[test]
fn every_shipped_network_has_the_weights_listed() {
    for n in manifest().network {
        let network = Network::load(&root().join(&n.file)).unwrap();
        assert_eq!(network.weights_sha256(), n.weights_sha256, "{}", n.file);
        let trained_on: Vec<&String> = n.args.iter().filter(|a| a.ends_with(".pgd")).collect();
        assert_eq!(
            trained_on,
            n.inputs.iter().collect::<Vec<_>>(),
            "{}",
            n.file
        );
        check_start(&n);
    }
}

/// `panoply network` prints the digest the manifest lists for every shipped network (the
/// rebuild script reads it there), and refuses a file that is not a network in one line.
#[test]
fn panoply_network_prints_the_listed_weights() {
    let m = manifest();
    let files: Vec<&str> = m.network.iter().map(|n| n.file.as_str()).collect();
    let network = |files: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_panoply"))
            .arg("network")
            .args(files)
            .current_dir(root())
            .output()
            .unwrap()
    };
    let o = network(&files);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8(o.stdout).unwrap();
    let printed: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  weights sha256 "))
        .collect();
    let listed: Vec<&str> = m
        .network
        .iter()
        .map(|n| n.weights_sha256.as_str())
        .collect();
    assert_eq!(printed, listed);
    let o = network(&["Cargo.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim(),
        "panoply: Cargo.toml: not a Panoply network file (no PANOPLY-NNUE magic)"
    );
}

/// A network trained from an earlier one names it as `commit:path` with its weights' digest,
/// and passes it as `--init {init}`; `git show` gives its bytes back.
fn check_start(n: &ShippedNetwork) {
    let passes_init = n.args.windows(2).any(|w| w == ["--init", "{init}"]);
    let Some(init) = &n.init else {
        assert!(!passes_init, "{}: --init without an init entry", n.file);
        return;
    };
    assert!(
        passes_init,
        "{}: init {init} is not passed as --init",
        n.file
    );
    let shown = Command::new("git")
        .args(["show", init])
        .current_dir(root())
        .output()
        .expect("git runs");
    assert!(
        shown.status.success(),
        "{}: git show {init}: {}",
        n.file,
        String::from_utf8_lossy(&shown.stderr)
    );
    let start = Network::from_bytes(&shown.stdout).unwrap();
    assert_eq!(
        Some(start.weights_sha256()),
        n.init_weights_sha256,
        "{}: the network it starts from",
        n.file
    );
}

fn sample(name: &str) -> Sample {
    let samples = manifest().sample;
    samples.into_iter().find(|s| s.name == name).unwrap()
}

#[test]
fn the_datagen_sample_comes_out_byte_for_byte() {
    let s = sample("datagen");
    let out = scratch("datagen-sample.pgd");
    run(&s.args, &out);
    let digest = sha256_hex(&std::fs::read(&out).unwrap());
    assert_eq!(
        Some(digest),
        s.sha256,
        "the datagen sample changed: if the search, evaluation or record format was meant to \
         change, write the new digest in networks/MANIFEST.toml"
    );
}

#[test]
fn training_on_the_committed_sample_gives_the_listed_weights() {
    let s = sample("train");
    let out = scratch("train-sample.nnue");
    run(&s.args, &out);
    let network = Network::load(&out).unwrap();
    assert_eq!(Some(network.weights_sha256()), s.weights_sha256);
}
