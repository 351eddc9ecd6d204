//! The engine options of UCI and XBoard in one table: each option's name, type, range,
//! current value and setter. UCI lists them after `uci` (`option name ...`), XBoard after
//! `protover` (`feature option="..."`); both set them through [`set`], which checks the
//! value against the table first, so a bad value changes nothing. `UCI_Variant` and
//! XBoard's army options stay in their protocols: they choose the game, not how it is played.

use super::own_book::{parse_check, OwnBook, BOOK_FILE, OWN_BOOK};
use crate::armies::{set_armies_file, ARMIES_FILE};
use crate::nnue::{EVAL_FILE, USE_NNUE};
use crate::search::multi_player::Method;
use crate::search::strength::{Level, MAX_ELO, MAX_LEVEL, MIN_ELO};
use crate::search::time::MAX_MOVE_OVERHEAD_MS;
use crate::session::{Session, MAX_HASH_MB, MAX_THREADS};
use std::time::Duration;

pub const MAX_MULTI_PV: i64 = 64;

/// What an option holds, as the protocols declare it.
pub enum Kind {
    Check,
    Spin { min: i64, max: i64 },
    Combo(fn() -> Vec<String>),
    Button,
    Text,
    File,
}

/// A value from the GUI, already checked against the option's kind and range.
pub enum Value<'a> {
    Check(bool),
    Spin(i64),
    Text(&'a str),
    Press,
}

/// Which protocols offer an option (XBoard has its own commands for some, e.g. `memory`).
#[derive(Clone, Copy, PartialEq)]
pub enum Offered {
    Both,
    UciOnly,
}

/// The protocol's own part of the settings: the book, and the choices that only take
/// effect through the protocol (pondering, WDL output) or are combined into a level.
pub struct Choices {
    pub book: OwnBook,
    pub ponder: bool,
    pub show_wdl: bool,
    pub limit_strength: bool,
    pub elo: i64,
    pub skill: i64,
}

impl Default for Choices {
    fn default() -> Self {
        Choices {
            book: OwnBook::default(),
            ponder: false,
            show_wdl: false,
            limit_strength: false,
            elo: MAX_ELO,
            skill: MAX_LEVEL as i64,
        }
    }
}

impl Choices {
    /// `UCI_Elo` when `UCI_LimitStrength` is on, else `Skill Level`.
    fn level(&self) -> Level {
        if self.limit_strength {
            Level::from_elo(self.elo)
        } else {
            Level::new(self.skill as f64)
        }
    }
}

/// A setter: `Ok(Some(line))` is a note for the user (UCI `info string`, XBoard log).
type Setter = fn(&mut Session, &mut Choices, Value) -> Result<Option<String>, String>;

pub struct Spec {
    pub name: &'static str,
    pub kind: Kind,
    pub offered: Offered,
    /// The current value, shown as the default.
    pub current: fn(&Session, &Choices) -> String,
    set: Setter,
}

/// Every option, in the order the protocols list them.
pub const OPTIONS: &[Spec] = &[
    Spec {
        name: "Hash",
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB as i64,
        },
        offered: Offered::UciOnly,
        current: |s, _| s.options().hash_mb.to_string(),
        set: |s, _, v| set_search(s, v, |o, n| o.hash_mb = n),
    },
    Spec {
        name: "Threads",
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS as i64,
        },
        offered: Offered::UciOnly,
        current: |s, _| s.options().threads.to_string(),
        set: |s, _, v| set_search(s, v, |o, n| o.threads = n),
    },
    Spec {
        name: "MultiPV",
        kind: Kind::Spin {
            min: 1,
            max: MAX_MULTI_PV,
        },
        offered: Offered::UciOnly,
        current: |s, _| s.options().multi_pv.to_string(),
        set: |s, _, v| set_search(s, v, |o, n| o.multi_pv = n),
    },
    Spec {
        name: "Clear Hash",
        kind: Kind::Button,
        offered: Offered::Both,
        current: |_, _| String::new(),
        set: |s, _, _| {
            s.new_game();
            Ok(None)
        },
    },
    Spec {
        name: "Ponder",
        kind: Kind::Check,
        offered: Offered::UciOnly,
        current: |_, c| c.ponder.to_string(),
        set: |_, c, v| {
            c.ponder = check(v);
            Ok(None)
        },
    },
    Spec {
        name: "Move Overhead",
        kind: Kind::Spin {
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS as i64,
        },
        offered: Offered::Both,
        current: |s, _| s.play_settings().move_overhead.as_millis().to_string(),
        set: |s, _, v| {
            let mut play = s.play_settings();
            play.move_overhead = Duration::from_millis(number(v) as u64);
            s.set_play_settings(play);
            Ok(None)
        },
    },
    Spec {
        name: OWN_BOOK,
        kind: Kind::Check,
        offered: Offered::Both,
        current: |_, c| c.book.enabled().to_string(),
        set: |_, c, v| {
            c.book.set_enabled(check(v));
            Ok(None)
        },
    },
    Spec {
        name: BOOK_FILE,
        kind: Kind::File,
        offered: Offered::Both,
        current: |_, c| c.book.path().to_string(),
        set: |_, c, v| c.book.load(text(v)).map(|()| None),
    },
    Spec {
        name: USE_NNUE,
        kind: Kind::Check,
        offered: Offered::Both,
        current: |s, _| s.eval_settings().use_nnue.to_string(),
        set: |s, _, v| Ok(Some(s.set_use_nnue(check(v)))),
    },
    Spec {
        name: EVAL_FILE,
        kind: Kind::File,
        offered: Offered::Both,
        current: |_, _| String::new(),
        set: |s, _, v| s.load_eval_file(text(v)).map(Some),
    },
    Spec {
        name: ARMIES_FILE,
        kind: Kind::File,
        offered: Offered::Both,
        current: |_, _| String::new(),
        set: |_, _, v| set_armies_file(text(v)).map(Some),
    },
    Spec {
        name: "MultiPlayerSearch",
        kind: Kind::Combo(|| Method::ALL.iter().map(|m| m.name().to_string()).collect()),
        offered: Offered::UciOnly,
        current: |s, _| s.multi_player_method().name().to_string(),
        set: |s, _, v| {
            let name = text(v);
            let method = Method::from_name(name)
                .ok_or_else(|| format!("'{name}' is not a search method (paranoid or brs)"))?;
            s.set_multi_player_method(method);
            Ok(None)
        },
    },
    Spec {
        name: "UCI_AnalyseMode",
        kind: Kind::Check,
        offered: Offered::UciOnly,
        current: |s, _| s.play_settings().analyse_mode.to_string(),
        set: |s, _, v| {
            let mut play = s.play_settings();
            play.analyse_mode = check(v);
            s.set_play_settings(play);
            Ok(None)
        },
    },
    Spec {
        name: "UCI_ShowWDL",
        kind: Kind::Check,
        offered: Offered::UciOnly,
        current: |_, c| c.show_wdl.to_string(),
        set: |_, c, v| {
            c.show_wdl = check(v);
            Ok(None)
        },
    },
    Spec {
        name: "UCI_LimitStrength",
        kind: Kind::Check,
        offered: Offered::UciOnly,
        current: |_, c| c.limit_strength.to_string(),
        set: |s, c, v| {
            c.limit_strength = check(v);
            apply_level(s, c)
        },
    },
    Spec {
        name: "UCI_Elo",
        kind: Kind::Spin {
            min: MIN_ELO,
            max: MAX_ELO,
        },
        offered: Offered::UciOnly,
        current: |_, c| c.elo.to_string(),
        set: |s, c, v| {
            c.elo = number(v);
            apply_level(s, c)
        },
    },
    Spec {
        name: "Skill Level",
        kind: Kind::Spin {
            min: 0,
            max: MAX_LEVEL as i64,
        },
        offered: Offered::Both,
        current: |_, c| c.skill.to_string(),
        set: |s, c, v| {
            c.skill = number(v);
            apply_level(s, c)
        },
    },
];

/// Sets option `name` from the GUI's text. Unknown names and bad values are refused with a
/// one-line reason and change nothing. `Ok(Some(line))`: a note for the user.
pub fn set(
    session: &mut Session,
    choices: &mut Choices,
    name: &str,
    value: &str,
) -> Result<Option<String>, String> {
    let spec = OPTIONS
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option '{name}'"))?;
    let value = parse(spec, value).map_err(|e| format!("option {}: {e}", spec.name))?;
    // Errors that already name the option (e.g. the book's) are passed on as they are.
    (spec.set)(session, choices, value).map_err(|e| match e.starts_with(spec.name) {
        true => e,
        false => format!("option {}: {e}", spec.name),
    })
}

/// Whether `name` is a button (set without a value).
pub fn is_button(name: &str) -> bool {
    OPTIONS
        .iter()
        .any(|s| s.name.eq_ignore_ascii_case(name) && matches!(s.kind, Kind::Button))
}

/// Checks a value against the option's kind and range.
fn parse<'a>(spec: &Spec, value: &'a str) -> Result<Value<'a>, String> {
    match &spec.kind {
        Kind::Check => parse_check(value)
            .map(Value::Check)
            .ok_or_else(|| format!("'{value}' is not true or false")),
        Kind::Spin { min, max } => value
            .parse::<i64>()
            .ok()
            .filter(|v| (*min..=*max).contains(v))
            .map(Value::Spin)
            .ok_or_else(|| format!("'{value}' is not a number from {min} to {max}")),
        // The setter knows best how to say what the choices are.
        Kind::Combo(_) => Ok(Value::Text(value)),
        Kind::Button => Ok(Value::Press),
        // `<empty>` is how UCI GUIs send back an empty default.
        Kind::Text | Kind::File => Ok(Value::Text(if value == "<empty>" { "" } else { value })),
    }
}

fn check(v: Value) -> bool {
    matches!(v, Value::Check(true))
}

fn number(v: Value) -> i64 {
    match v {
        Value::Spin(n) => n,
        _ => 0,
    }
}

fn text<'a>(v: Value<'a>) -> &'a str {
    match v {
        Value::Text(t) => t,
        _ => "",
    }
}

/// Hash, Threads or MultiPV: a hash table the machine cannot give is refused, the old kept.
fn set_search(
    session: &mut Session,
    v: Value,
    change: fn(&mut crate::search::SearchOptions, usize),
) -> Result<Option<String>, String> {
    let mut o = *session.options();
    change(&mut o, number(v) as usize);
    let before = session.options().hash_mb;
    session
        .set_options(o)
        .map(|()| None)
        .map_err(|e| format!("{e}; the table stays at {before} MB"))
}

fn apply_level(session: &mut Session, choices: &Choices) -> Result<Option<String>, String> {
    let mut play = session.play_settings();
    play.level = choices.level();
    session.set_play_settings(play);
    Ok(None)
}

/// The `option name ...` lines of UCI's answer to `uci`.
pub fn uci_lines(session: &Session, choices: &Choices) -> Vec<String> {
    OPTIONS
        .iter()
        .map(|spec| {
            let value = (spec.current)(session, choices);
            let name = spec.name;
            match &spec.kind {
                Kind::Check => format!("option name {name} type check default {value}"),
                Kind::Spin { min, max } => {
                    format!("option name {name} type spin default {value} min {min} max {max}")
                }
                Kind::Combo(all) => {
                    let vars: Vec<String> = all().iter().map(|c| format!("var {c}")).collect();
                    format!(
                        "option name {name} type combo default {value} {}",
                        vars.join(" ")
                    )
                }
                Kind::Button => format!("option name {name} type button"),
                Kind::Text | Kind::File => {
                    let value = if value.is_empty() { "<empty>" } else { &value };
                    format!("option name {name} type string default {value}")
                }
            }
        })
        .collect()
}

/// The `feature option="..."` lines of XBoard's answer to `protover`.
pub fn xboard_lines(session: &Session, choices: &Choices) -> Vec<String> {
    OPTIONS
        .iter()
        .filter(|spec| spec.offered == Offered::Both)
        .map(|spec| {
            let value = (spec.current)(session, choices);
            let body = match &spec.kind {
                Kind::Check => format!("-check {}", u8::from(value == "true")),
                Kind::Spin { min, max } => format!("-spin {value} {min} {max}"),
                Kind::Combo(all) => {
                    let marked: Vec<String> = all()
                        .into_iter()
                        .map(|c| if c == value { format!("*{c}") } else { c })
                        .collect();
                    format!("-combo {}", marked.join(" /// "))
                }
                Kind::Button => "-button".to_string(),
                Kind::Text => format!("-string {value}"),
                Kind::File => format!("-file {value}"),
            };
            format!("feature option=\"{} {body}\"", spec.name)
        })
        .collect()
}
