//! The cluster recipes of scripts/cluster/ (docs/cluster.md): the Kubernetes manifests are
//! valid YAML with consistent Indexed Jobs, the shell scripts parse, and the GNU parallel
//! recipe runs a sharded match on the local machine (`--sshlogin :`) whose merged report is
//! the single run's. The Slurm path has its own end-to-end script, tests/e2e/slurm_match.sh.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn check_manifests(files: &[PathBuf]) -> (bool, String) {
    let out = Command::new("python3")
        .arg(repo().join("scripts/cluster/k8s/check.py"))
        .args(files)
        .output()
        .expect("python3 runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn kubernetes_manifests_are_valid_and_their_indexed_job_is_consistent() {
    let (ok, out) = check_manifests(&[]);
    assert!(ok, "{out}");
    assert_eq!(out, "ok: 3 files, 2 jobs\n");
    // The check can fail: broken YAML, and a shard count that is not the completions.
    let dir = std::env::temp_dir().join(format!("panoply-k8s-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let broken = dir.join("broken.yaml");
    std::fs::write(&broken, "kind: Job\nspec: [1, 2\n").unwrap();
    let (ok, out) = check_manifests(&[broken]);
    assert!(!ok && out.contains("not valid YAML"), "{out}");
    let job = std::fs::read_to_string(repo().join("scripts/cluster/k8s/match-job.yaml")).unwrap();
    let wrong = dir.join("wrong.yaml");
    std::fs::write(&wrong, job.replace("completions: 16", "completions: 12")).unwrap();
    let (ok, out) = check_manifests(&[wrong]);
    assert!(!ok, "{out}");
    assert!(
        out.ends_with("--shard .../16 but 12 completions\n"),
        "{out}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn cluster_scripts_parse() {
    for script in [
        "scripts/cluster/slurm/match.sbatch",
        "scripts/cluster/slurm/merge.sbatch",
        "scripts/cluster/slurm/datagen.sbatch",
        "scripts/cluster/slurm/submit-match.sh",
        "scripts/cluster/parallel-match.sh",
        "tests/e2e/slurm_match.sh",
    ] {
        let out = Command::new("bash")
            .arg("-n")
            .arg(repo().join(script))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{script}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn the_gnu_parallel_recipe_merges_shards_run_on_the_local_machine() {
    if Command::new("parallel").arg("--version").output().is_err() {
        eprintln!("SKIPPED: GNU parallel is not installed (apt-get install parallel)");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_panoply");
    let dir = std::env::temp_dir().join(format!("panoply-parallel-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let engine = |name: &str, level: u32| {
        let p = dir.join(format!("{level}.engine"));
        std::fs::write(
            &p,
            format!(
                "name = {name}\ncommand = \"{bin}\"\nprotocol = uci\noption.Hash = 16\n\
                 option.Skill Level = {level}\n"
            ),
        )
        .unwrap();
        p.display().to_string()
    };
    let (strong, weak) = (engine("Strong", 20), engine("Weak", 15));
    let args = [
        strong.as_str(),
        &weak,
        "--variant",
        "cwda-fide-nutty",
        "--book",
        "book/cwda.book",
        "--nodes",
        "100",
        "--games",
        "12",
    ];
    let out_dir = dir.join("run");
    let recipe = Command::new(repo().join("scripts/cluster/parallel-match.sh"))
        .arg("3")
        .arg(&out_dir)
        .args(args)
        .env("SSHLOGINS", ":")
        .env("PANOPLY", bin)
        .current_dir(repo())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&recipe.stdout);
    assert!(
        recipe.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&recipe.stderr)
    );
    let single = Command::new(bin)
        .arg("match")
        .args(args)
        .arg("--quiet")
        .current_dir(repo())
        .output()
        .unwrap();
    let single = String::from_utf8_lossy(&single.stdout);
    let end = single.rsplit_once("\n\n").unwrap().1;
    assert!(end.contains("Games: 12, pairs: 6\n"), "{end}");
    assert_eq!(stdout, end);
    assert_eq!(
        std::fs::read_to_string(out_dir.join("results.txt")).unwrap(),
        end
    );
    for k in 0..3 {
        assert!(out_dir.join(format!("shard-{k}.pgn")).exists());
    }
    std::fs::remove_dir_all(dir).unwrap();
}
