//! Finding an engine definition from what the user typed: a path to a `.engine` file, or a
//! bare name looked up in the engine folders — `--engines DIR`, `$PANOPLY_ENGINES` (a path
//! list), the user's config folder (`$XDG_CONFIG_HOME/panoply/engines`, by default
//! `~/.config/panoply/engines`), then `engines/` of the current folder — so `panoply match`
//! works outside the checkout. The name `panoply` without a file is this very program.
//!
//! Panoply engines also get the armies files the referee loaded (`--armies`), so they play
//! the same variants.

use super::engine_config::{ConfigError, Dialect, EngineConfig, Protocol};
use std::path::{Path, PathBuf};

/// The folders a bare engine name is looked up in, in order, each with where it came from.
pub fn search_folders(engines_dir: Option<&Path>) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    if let Some(dir) = engines_dir {
        out.push((dir.to_path_buf(), "--engines".to_string()));
    }
    if let Some(list) = std::env::var_os("PANOPLY_ENGINES") {
        for dir in std::env::split_paths(&list).filter(|d| !d.as_os_str().is_empty()) {
            out.push((dir, "$PANOPLY_ENGINES".to_string()));
        }
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|d| d.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")));
    if let Some(config) = config {
        out.push((
            config.join("panoply").join("engines"),
            "config folder".to_string(),
        ));
    }
    out.push((PathBuf::from("engines"), "current folder".to_string()));
    out
}

/// Whether `spec` names a file rather than an engine to look up.
fn is_path(spec: &str) -> bool {
    spec.contains('/') || spec.ends_with(".engine") || Path::new(spec).is_file()
}

/// The engine `spec` names (see the module comment), with the loaded armies files added to
/// a Panoply engine's command.
pub fn find_engine(spec: &str, engines_dir: Option<&Path>) -> Result<EngineConfig, ConfigError> {
    let mut cfg = locate(spec, engines_dir)?;
    if is_panoply(&cfg) {
        add_armies_files(&mut cfg);
    }
    Ok(cfg)
}

fn locate(spec: &str, engines_dir: Option<&Path>) -> Result<EngineConfig, ConfigError> {
    if is_path(spec) {
        return EngineConfig::load(Path::new(spec));
    }
    let folders = search_folders(engines_dir);
    let file = format!("{spec}.engine");
    if let Some(path) = folders
        .iter()
        .map(|(d, _)| d.join(&file))
        .find(|p| p.is_file())
    {
        return EngineConfig::load(&path);
    }
    if spec == "panoply" {
        if let Ok(me) = std::env::current_exe() {
            return Ok(this_program(me));
        }
    }
    let looked: Vec<String> = folders
        .iter()
        .map(|(d, why)| format!("{} ({why})", d.join(&file).display()))
        .collect();
    Err(ConfigError::new(
        spec,
        0,
        format!(
            "no engine definition found; looked for {}",
            looked.join(", ")
        ),
    ))
}

/// This program as a UCI engine.
fn this_program(program: PathBuf) -> EngineConfig {
    EngineConfig {
        name: "Panoply".into(),
        program,
        args: Vec::new(),
        protocol: Protocol::Uci,
        workdir: None,
        dialect: Dialect::Standard,
        stderr: None,
        options: Vec::new(),
        variant_names: Vec::new(),
    }
}

/// A Panoply engine: its program is this one, or a file named `panoply`.
fn is_panoply(cfg: &EngineConfig) -> bool {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    let named = cfg
        .program
        .file_stem()
        .is_some_and(|s| s.eq_ignore_ascii_case("panoply"));
    named || std::env::current_exe().is_ok_and(|me| same(&me, &cfg.program))
}

/// Puts `--armies FILE` for every loaded armies file before the engine's own arguments;
/// absolute paths, since the engine may run in another folder. A file it loads already
/// loads twice without harm (the same army is one army).
fn add_armies_files(cfg: &mut EngineConfig) {
    let mut args = Vec::new();
    for file in crate::armies::loaded_files() {
        let path = Path::new(&file);
        let absolute = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        args.push("--armies".to_string());
        args.push(absolute.display().to_string());
    }
    args.append(&mut cfg.args);
    cfg.args = args;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_not_looked_up_and_names_are() {
        assert!(is_path("engines/x.engine") && is_path("x.engine") && is_path("./x"));
        assert!(!is_path("no-such-engine-name"));
        let e = find_engine("no-such-engine-name", Some(Path::new("/nowhere"))).unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("no-such-engine-name: no engine definition found"));
        assert!(
            text.contains("/nowhere/no-such-engine-name.engine (--engines)"),
            "{text}"
        );
        assert!(text.contains("engines/no-such-engine-name.engine (current folder)"));
    }

    #[test]
    fn a_panoply_program_is_recognised() {
        let me = std::env::current_exe().unwrap();
        assert!(is_panoply(&this_program(me)));
        assert!(is_panoply(&this_program(
            "../target/release/panoply".into()
        )));
        assert!(!is_panoply(&this_program("/usr/games/fairymax".into())));
    }
}
