//! Builds the commit into the binary: `PANOPLY_COMMIT` is the short hash of the checked-out
//! commit (`git rev-parse --short HEAD`), or empty when there is no git or no repository (a
//! source tarball), so `--version`, UCI's `id name` and XBoard's `myname` name the build.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// Asks cargo to run this script again when a file changes; only files that exist, since a
/// missing one would make cargo rerun it on every build.
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_default();
    println!("cargo:rustc-env=PANOPLY_COMMIT={commit}");
    // HEAD names the branch; the branch's ref (loose, or in packed-refs) moves with each
    // commit. In a worktree HEAD lives in its own git dir and the refs in the common one.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = |args: &[&str]| git(args).map(|d| root.join(PathBuf::from(d)));
    if let Some(git_dir) = dir(&["rev-parse", "--git-dir"]) {
        watch(&git_dir.join("HEAD"));
    }
    if let Some(common) = dir(&["rev-parse", "--git-common-dir"]) {
        watch(&common.join("packed-refs"));
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watch(&common.join(branch));
        }
    }
}
