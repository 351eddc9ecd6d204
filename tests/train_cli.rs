//! `panoply train` as a user meets it: a short run on the committed sample writes a network
//! file the engine's reader accepts, with progress on stderr only; bad files and options give
//! one line and exit code 2.

use super::cli::panoply;
use panoply::nnue::format::Network;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cwda-sample.txt");

#[test]
fn a_short_run_writes_a_network_the_engine_reads() {
    let dir = std::env::temp_dir().join(format!("panoply-train-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("net.nnue");
    let o = panoply(&[
        "train",
        SAMPLE,
        "--out",
        out.to_str().unwrap(),
        "--hidden",
        "16",
        "--epochs",
        "2",
        "--validation",
        "0.2",
        "--threads",
        "2",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(o.stdout.is_empty(), "stdout is for protocols only");
    assert!(err.contains("K = "), "{err}");
    assert!(err.contains("epoch 2/2: train"), "{err}");
    let net = Network::load(&out).unwrap();
    assert_eq!(net.header.family, "cwda");
    assert_eq!(net.header.hidden, 16);
    assert_eq!(net.header.notes["epochs"], 2);
    assert!(dir.join("net.ckpt").exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_files_and_options_give_one_line() {
    for (args, mention) in [
        (
            vec!["train", "/nonexistent/data.txt", "--out", "/tmp/x.nnue"],
            "cannot read",
        ),
        (
            vec!["train", SAMPLE, "--out", "/tmp/x.nnue", "--lambda", "2"],
            "--lambda",
        ),
        (
            vec!["train", SAMPLE, "--out", "/tmp/x.nnue", "--hidden", "0"],
            "--hidden",
        ),
        (
            vec!["train", SAMPLE, "--out", "/tmp/x.nnue", "--resume", SAMPLE],
            "not a usable checkpoint",
        ),
    ] {
        let o = panoply(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(mention), "{args:?}: {err}");
    }
}
