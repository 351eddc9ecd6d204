//! The game kept on disk: after every change of the game the server writes what it needs to
//! continue it (variant, start position, moves, seats and their levels, engine settings) to one JSON file per
//! port, so that Ctrl-C, a crash or a closed terminal does not lose the game. The file is
//! written beside itself and renamed over the old one, so a crash mid-write leaves the
//! previous file whole. The game is the user's own: the directory is made 0700 and the files
//! 0600, and the temporary file is a new one of a random name, never a link someone left. A timed game keeps its time control and each side's time at the
//! last write, so that each side resumes with the time it had.

use super::clock::ClockSettings;
use super::settings::{Budget, Seat, SeatLevel};
use crate::bitboard::BitSet;
use crate::game::Game;
use crate::search::multi_player::Method;
use crate::session::GameVisitor;
use serde_json::{json, Value};
use std::fmt;
use std::fs;
use std::io::Write;
#[cfg(unix)]
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The format written now; a file of a newer one is refused rather than half understood.
const VERSION: u64 = 1;

/// What a kept game holds.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedGame {
    pub variant: String,
    pub start: String,
    pub moves: Vec<String>,
    pub seats: Vec<Seat>,
    /// The engine's level per seat; empty in files from before levels (full strength).
    pub levels: Vec<SeatLevel>,
    pub budget: Budget,
    pub multi_pv: usize,
    pub method: Method,
    /// A timed game's control and each side's remaining time in ms (none: untimed).
    pub clock: Option<(ClockSettings, [u64; 2])>,
}

/// Why the game could not be kept or read back. Each is one line for stderr.
#[derive(Debug)]
pub enum SaveError {
    /// Neither XDG_DATA_HOME nor HOME is set.
    NoDataDir,
    CreateDir {
        dir: PathBuf,
        why: String,
    },
    Write {
        path: PathBuf,
        why: String,
    },
    Read {
        path: PathBuf,
        why: String,
    },
    /// Not the JSON of a kept game.
    Parse {
        path: PathBuf,
        why: String,
    },
    /// Parsed, but the game cannot be set up again (unknown variant, illegal move, ...).
    Replay {
        path: PathBuf,
        why: String,
    },
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SaveError::NoDataDir => write!(
                f,
                "neither XDG_DATA_HOME nor HOME is set: the game is not kept on disk"
            ),
            SaveError::CreateDir { dir, why } => write!(
                f,
                "cannot create {}: {why}; the game is not kept on disk",
                dir.display()
            ),
            SaveError::Write { path, why } => {
                write!(f, "cannot keep the game in {}: {why}", path.display())
            }
            SaveError::Read { path, why } => {
                write!(f, "cannot read the kept game {}: {why}", path.display())
            }
            SaveError::Parse { path, why } => {
                write!(f, "the kept game {} is damaged: {why}", path.display())
            }
            SaveError::Replay { path, why } => write!(
                f,
                "the kept game {} cannot be continued: {why}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for SaveError {}

/// The user's data directory for panoply: `$XDG_DATA_HOME/panoply`, else
/// `$HOME/.local/share/panoply` (the XDG default).
pub fn default_dir() -> Result<PathBuf, SaveError> {
    let set = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(d) = set("XDG_DATA_HOME") {
        return Ok(PathBuf::from(d).join("panoply"));
    }
    match set("HOME") {
        Some(h) => Ok(PathBuf::from(h).join(".local/share/panoply")),
        None => Err(SaveError::NoDataDir),
    }
}

/// The file of one server: one per port, so two servers never write the same file.
#[derive(Debug)]
pub struct Store {
    path: PathBuf,
}

impl Store {
    /// The file of the server on `port` in `dir`, which is created if missing (readable by
    /// the user only; an existing directory is left as it is).
    pub fn in_dir(dir: &Path, port: u16) -> Result<Store, SaveError> {
        let mut builder = fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        builder.mode(0o700);
        builder.create(dir).map_err(|e| SaveError::CreateDir {
            dir: dir.to_path_buf(),
            why: e.to_string(),
        })?;
        Ok(Store {
            path: dir.join(format!("serve-{port}.json")),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The kept game, if there is a file.
    pub fn load(&self) -> Result<Option<SavedGame>, SaveError> {
        let text = match fs::read_to_string(&self.path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(SaveError::Read {
                    path: self.path.clone(),
                    why: e.to_string(),
                })
            }
        };
        parse(&text).map(Some).map_err(|why| SaveError::Parse {
            path: self.path.clone(),
            why,
        })
    }

    /// Writes the game to a new temporary file beside the file and renames it over the file:
    /// rename is atomic on POSIX, so a reader (or the next start after a crash) sees the old
    /// game or the new one.
    pub fn save(&self, game: &SavedGame) -> Result<(), SaveError> {
        let text = format!("{:#}\n", to_json(game));
        let failed = |e: std::io::Error| SaveError::Write {
            path: self.path.clone(),
            why: e.to_string(),
        };
        let (tmp, mut file) = self.create_temporary().map_err(failed)?;
        let written = file
            .write_all(text.as_bytes())
            .and_then(|()| file.sync_data())
            .and_then(|()| fs::rename(&tmp, &self.path));
        if written.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        written.map_err(failed)
    }

    /// A new file `<file>.<random>.tmp`, 0600. `create_new` fails on anything already there,
    /// a symbolic link included, so a link planted under the name cannot send the write
    /// elsewhere; the random name keeps anyone from planting one in advance.
    fn create_temporary(&self) -> std::io::Result<(PathBuf, fs::File)> {
        let random =
            super::token::random_bytes::<8>().map_err(|e| std::io::Error::other(e.to_string()))?;
        let hex: String = random.iter().map(|b| format!("{b:02x}")).collect();
        let tmp = self.beside(&format!(".{hex}.tmp"));
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        options.mode(0o600);
        let file = options.open(&tmp)?;
        Ok((tmp, file))
    }

    /// The file's path with `suffix` added.
    fn beside(&self, suffix: &str) -> PathBuf {
        let mut name = self.path.clone().into_os_string();
        name.push(suffix);
        PathBuf::from(name)
    }

    /// Moves a file that could not be continued to `<file>.bad.N` (the first N not taken:
    /// every damaged file is kept), for the user to look at, so that the next start does not
    /// stumble on it again. Returns where it went.
    pub fn set_aside(&self) -> Result<PathBuf, SaveError> {
        let taken = |p: &Path| fs::symlink_metadata(p).is_ok();
        let bad = (1u32..)
            .map(|n| self.beside(&format!(".bad.{n}")))
            .find(|p| !taken(p))
            .expect("some number is free");
        fs::rename(&self.path, &bad).map_err(|e| SaveError::Write {
            path: bad.clone(),
            why: e.to_string(),
        })?;
        Ok(bad)
    }
}

fn to_json(g: &SavedGame) -> Value {
    json!({
        "version": VERSION,
        "variant": g.variant,
        "start": g.start,
        "moves": g.moves,
        "seats": g.seats.iter().map(|s| s.name()).collect::<Vec<_>>(),
        "levels": g.levels.iter().map(|l| l.number()).collect::<Vec<_>>(),
        "engine": {
            "nodes": g.budget.nodes,
            "movetime": g.budget.movetime_ms,
            "depth": g.budget.depth,
            "multipv": g.multi_pv,
            "method": g.method.name(),
        },
        // Absent in files of untimed games and of servers before clocks: untimed.
        "clock": g.clock.map(|(control, remaining)| {
            let mut c = control.to_json();
            c["remaining"] = json!(remaining);
            c
        }),
    })
}

/// The `clock` of a kept game: null, or a control with both sides' remaining ms.
fn parse_clock(v: &Value) -> Result<Option<(ClockSettings, [u64; 2])>, String> {
    if v.is_null() {
        return Ok(None);
    }
    let control = ClockSettings::from_json(v)?;
    let remaining = v["remaining"]
        .as_array()
        .filter(|r| r.len() == 2)
        .and_then(|r| Some([r[0].as_u64()?, r[1].as_u64()?]))
        .ok_or("a bad clock 'remaining'")?;
    Ok(Some((control, remaining)))
}

/// Reads a kept game; the error says which field is wrong.
fn parse(text: &str) -> Result<SavedGame, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let version = v["version"].as_u64().ok_or("no version")?;
    if version == 0 || version > VERSION {
        return Err(format!(
            "version {version} (this panoply reads up to {VERSION})"
        ));
    }
    let string = |v: &Value, name: &str| {
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("no {name}"))
    };
    let list = |name: &str| v[name].as_array().ok_or_else(|| format!("no {name}"));
    let moves = list("moves")?
        .iter()
        .map(|m| string(m, "move"))
        .collect::<Result<Vec<_>, _>>()?;
    let seats = list("seats")?
        .iter()
        .map(|s| s.as_str().and_then(Seat::from_name).ok_or("a bad seat"))
        .collect::<Result<Vec<_>, _>>()?;
    // Absent in files from before levels.
    let levels = match &v["levels"] {
        Value::Null => Vec::new(),
        l => l
            .as_array()
            .ok_or("a bad levels list")?
            .iter()
            .map(|n| n.as_u64().and_then(SeatLevel::new).ok_or("a bad level"))
            .collect::<Result<Vec<_>, _>>()?,
    };
    let e = &v["engine"];
    // null (no limit) is kept as null; anything else must be a number.
    let number = |name: &str| match &e[name] {
        Value::Null => Ok(None),
        n => n
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("a bad engine {name}")),
    };
    let depth = number("depth")?
        .map(u32::try_from)
        .transpose()
        .map_err(|_| "a bad engine depth")?;
    Ok(SavedGame {
        variant: string(&v["variant"], "variant")?,
        start: string(&v["start"], "start position")?,
        moves,
        seats,
        levels,
        budget: Budget {
            nodes: number("nodes")?,
            movetime_ms: number("movetime")?,
            depth,
        },
        multi_pv: number("multipv")?.unwrap_or(1) as usize,
        method: e["method"]
            .as_str()
            .and_then(Method::from_name)
            .ok_or("a bad engine method")?,
        clock: parse_clock(&v["clock"])?,
    })
}

/// The start position and the moves played, as move strings the session reads back.
pub struct MovesView;

impl GameVisitor for MovesView {
    type Output = (String, Vec<String>);
    fn visit<B: BitSet>(self, g: &Game<B>) -> (String, Vec<String>) {
        let moves = g.history.iter().map(|(_, mv)| g.format_move(*mv)).collect();
        (super::view::start_position(g), moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> SavedGame {
        SavedGame {
            variant: "chess".into(),
            start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            moves: vec!["e2e4".into(), "e7e5".into()],
            seats: vec![Seat::Human, Seat::Engine],
            levels: vec![SeatLevel::FULL, SeatLevel::new(3).unwrap()],
            budget: Budget {
                nodes: None,
                movetime_ms: Some(1000),
                depth: Some(7),
            },
            multi_pv: 2,
            method: Method::Paranoid,
            clock: Some((
                ClockSettings {
                    base_ms: 300_000,
                    increment_ms: 3000,
                },
                [281_500, 290_250],
            )),
        }
    }

    #[test]
    fn a_game_reads_back_as_written() {
        let g = game();
        assert_eq!(parse(&to_json(&g).to_string()), Ok(g));
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        assert!(parse("{\"version\": 1, \"mov").is_err());
        let mut v = to_json(&game());
        v["version"] = json!(2);
        assert!(parse(&v.to_string()).unwrap_err().contains("version 2"));
        let mut v = to_json(&game());
        v["seats"] = json!(["human", "robot"]);
        assert_eq!(parse(&v.to_string()).unwrap_err(), "a bad seat");
        let mut v = to_json(&game());
        v["engine"]["depth"] = json!(1u64 << 40);
        assert_eq!(parse(&v.to_string()).unwrap_err(), "a bad engine depth");
        let mut v = to_json(&game());
        v["clock"]["remaining"] = json!([1000]);
        assert_eq!(
            parse(&v.to_string()).unwrap_err(),
            "a bad clock 'remaining'"
        );
        let mut v = to_json(&game());
        v["levels"] = json!([20, 21]);
        assert_eq!(parse(&v.to_string()).unwrap_err(), "a bad level");
        // A file from before levels: full strength.
        let mut v = to_json(&game());
        v.as_object_mut().unwrap().remove("levels");
        assert_eq!(parse(&v.to_string()).unwrap().levels, []);
        let mut v = to_json(&game());
        v["clock"] = Value::Null;
        assert_eq!(parse(&v.to_string()).unwrap().clock, None);
    }

    #[test]
    fn the_file_is_replaced_whole() {
        let dir = std::env::temp_dir().join(format!("panoply-saved-{}", std::process::id()));
        let store = Store::in_dir(&dir, 8123).unwrap();
        assert_eq!(store.load().unwrap(), None);
        let mut g = game();
        store.save(&g).unwrap();
        g.moves.push("g1f3".into());
        store.save(&g).unwrap();
        assert_eq!(store.load().unwrap(), Some(g));
        let names = || {
            let mut v: Vec<String> = fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        assert_eq!(names(), ["serve-8123.json"], "no temporary file is left");
        for n in 1..=2 {
            fs::write(store.path(), format!("not json {n}")).unwrap();
            assert!(matches!(store.load(), Err(SaveError::Parse { .. })));
            let bad = dir.join(format!("serve-8123.json.bad.{n}"));
            assert_eq!(store.set_aside().unwrap(), bad);
            assert_eq!(fs::read_to_string(&bad).unwrap(), format!("not json {n}"));
            assert_eq!(store.load().unwrap(), None);
        }
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn only_the_user_can_read_the_game_and_links_are_not_followed() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir()
            .join(format!("panoply-saved-modes-{}", std::process::id()))
            .join("panoply");
        let _ = fs::remove_dir_all(dir.parent().unwrap());
        let store = Store::in_dir(&dir, 8124).unwrap();
        // The old fixed name, planted as a link to a file of someone else's.
        let victim = dir.parent().unwrap().join("victim");
        fs::write(&victim, "untouched").unwrap();
        std::os::unix::fs::symlink(&victim, dir.join("serve-8124.json.tmp")).unwrap();
        store.save(&game()).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(store.path()), 0o600);
        assert_eq!(fs::read_to_string(&victim).unwrap(), "untouched");
        assert_eq!(store.load().unwrap(), Some(game()));
        let _ = fs::remove_dir_all(dir.parent().unwrap());
    }
}
