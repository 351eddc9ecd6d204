//! Engine definition files (`engines/*.engine`): one `key = value` per line, `#` starts a
//! comment. Keys:
//!
//! ```text
//! name     = Fairy-Max                 # shown in tables and PGN (required)
//! command  = /usr/games/fairymax       # program and arguments (required); "quotes" group
//! protocol = xboard                    # uci | xboard (required)
//! workdir  = .                         # working directory (default: the current one)
//! dialect  = fairymax                  # optional: the engine's own conventions (fairymax,
//!                                      #   fairy-stockfish; default standard)
//! stderr   = fairymax.log              # optional: keep the engine's stderr (default: drop)
//! option.Resign = 0                    # an engine option (repeatable)
//! variant.chess = normal               # the engine's name for a Panoply variant
//! ```
//!
//! Relative paths in `command` (when the program contains a `/`), `workdir` and `stderr` are
//! taken relative to the directory of the definition file, so a checkout works from anywhere.

use crate::located::Located;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
}

/// Engine-specific conventions the referee must translate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Variant names and letters as in docs/rules.md.
    Standard,
    /// Fairy-Max: CwDA as `variant fairy` plus an option, its own piece letters.
    FairyMax,
    /// Fairy-Stockfish: promotions by `promotedPieceType` written `b7c8+`.
    FairyStockfish,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    pub name: String,
    pub program: PathBuf,
    pub args: Vec<String>,
    pub protocol: Protocol,
    pub workdir: Option<PathBuf>,
    pub dialect: Dialect,
    pub stderr: Option<PathBuf>,
    /// Options in file order, set at start-up.
    pub options: Vec<(String, String)>,
    /// (Panoply variant name, the engine's name for it).
    pub variant_names: Vec<(String, String)>,
}

/// A line of a definition file that cannot be used, or a file that cannot be read.
pub type ConfigError = Located<String>;

/// Splits a command line into words; double quotes group words with spaces.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err("unbalanced quote in command".into());
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

impl EngineConfig {
    /// Reads a definition file.
    pub fn load(path: &Path) -> Result<EngineConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            ConfigError::new(path.display().to_string(), 0, format!("cannot read: {e}"))
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        EngineConfig::parse(&text, &path.display().to_string(), base)
    }

    /// Parses definition text; `base` is the directory relative paths start from.
    pub fn parse(text: &str, source: &str, base: &Path) -> Result<EngineConfig, ConfigError> {
        let err = |line: usize, message: String| ConfigError::new(source, line, message);
        let (mut name, mut command, mut protocol) = (None, None, None);
        let mut cfg = EngineConfig {
            name: String::new(),
            program: PathBuf::new(),
            args: Vec::new(),
            protocol: Protocol::Uci,
            workdir: None,
            dialect: Dialect::Standard,
            stderr: None,
            options: Vec::new(),
            variant_names: Vec::new(),
        };
        let relative = |p: &str| {
            let p = PathBuf::from(p);
            if p.is_absolute() {
                p
            } else {
                base.join(p)
            }
        };
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.split_once('#').map_or(raw, |(l, _)| l).trim();
            if line.is_empty() {
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                return Err(err(n, format!("expected `key = value`, got '{line}'")));
            };
            let (key, value) = (key.trim(), value.trim());
            if let Some(option) = key.strip_prefix("option.") {
                cfg.options
                    .push((option.trim().to_string(), value.to_string()));
                continue;
            }
            if let Some(variant) = key.strip_prefix("variant.") {
                cfg.variant_names
                    .push((variant.trim().to_ascii_lowercase(), value.to_string()));
                continue;
            }
            match key {
                "name" => name = Some(value.to_string()),
                "command" => command = Some(split_command(value).map_err(|m| err(n, m))?),
                "protocol" => {
                    protocol = Some(match value.to_ascii_lowercase().as_str() {
                        "uci" => Protocol::Uci,
                        "xboard" | "cecp" => Protocol::Xboard,
                        other => {
                            return Err(err(
                                n,
                                format!("unknown protocol '{other}' (uci or xboard)"),
                            ))
                        }
                    })
                }
                "workdir" => cfg.workdir = Some(relative(value)),
                "stderr" => cfg.stderr = Some(relative(value)),
                "dialect" => {
                    cfg.dialect = match value.to_ascii_lowercase().as_str() {
                        "standard" => Dialect::Standard,
                        "fairymax" => Dialect::FairyMax,
                        "fairy-stockfish" => Dialect::FairyStockfish,
                        other => {
                            return Err(err(
                                n,
                                format!(
                                "unknown dialect '{other}' (standard, fairymax or fairy-stockfish)"
                            ),
                            ))
                        }
                    }
                }
                other => return Err(err(n, format!("unknown key '{other}'"))),
            }
        }
        cfg.name = name
            .filter(|s| !s.is_empty())
            .ok_or_else(|| err(0, "missing `name`".into()))?;
        cfg.protocol = protocol.ok_or_else(|| err(0, "missing `protocol`".into()))?;
        let words = command
            .filter(|w| !w.is_empty())
            .ok_or_else(|| err(0, "missing `command`".into()))?;
        cfg.program = if words[0].contains('/') {
            relative(&words[0])
        } else {
            PathBuf::from(&words[0])
        };
        cfg.args = words[1..].to_vec();
        Ok(cfg)
    }

    /// The engine's name for a Panoply variant (the same name unless mapped).
    pub fn variant_name(&self, panoply_name: &str) -> Option<&str> {
        self.variant_names
            .iter()
            .find(|(ours, _)| ours == panoply_name)
            .map(|(_, theirs)| theirs.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_key() {
        let text = "# Fairy-Max\nname = Fairy-Max\ncommand = ./bin/fmax \"-x y\" 2  # comment\n\
                    protocol = xboard\ndialect = fairymax\nworkdir = run\n\
                    option.Resign = 0\noption.Variant fairy selects = Nutters-Rookies\n\
                    variant.Chess = normal\n";
        let c = EngineConfig::parse(text, "t", Path::new("/e")).unwrap();
        assert_eq!(c.name, "Fairy-Max");
        assert_eq!(c.program, PathBuf::from("/e/./bin/fmax"));
        assert_eq!(c.args, vec!["-x y".to_string(), "2".to_string()]);
        assert_eq!(c.protocol, Protocol::Xboard);
        assert_eq!(c.dialect, Dialect::FairyMax);
        assert_eq!(c.workdir, Some(PathBuf::from("/e/run")));
        assert_eq!(
            c.options[1],
            ("Variant fairy selects".into(), "Nutters-Rookies".into())
        );
        assert_eq!(c.variant_name("chess"), Some("normal"));
        assert_eq!(c.variant_name("cwda-fide-nutty"), None);
    }

    #[test]
    fn bare_program_names_use_the_path() {
        let c = EngineConfig::parse(
            "name=a\ncommand=fairymax\nprotocol=uci",
            "t",
            Path::new("/e"),
        )
        .unwrap();
        assert_eq!(c.program, PathBuf::from("fairymax"));
    }

    #[test]
    fn errors_name_the_line() {
        let bad = [
            ("name = a\nprotocol = uci\n", "missing `command`"),
            (
                "name = a\ncommand = x\nprotocol = telnet\n",
                "t:3: unknown protocol 'telnet'",
            ),
            ("name = a\nfoo\n", "t:2: expected `key = value`"),
            ("name = a\ncolour = red\n", "t:2: unknown key 'colour'"),
            ("command = x\nprotocol = uci\n", "missing `name`"),
        ];
        for (text, msg) in bad {
            let e = EngineConfig::parse(text, "t", Path::new(".")).unwrap_err();
            assert!(e.to_string().contains(msg), "{e} / {msg}");
        }
    }
}
