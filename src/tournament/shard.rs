//! Sharding a match over many machines (`panoply match --shard K/N`). The schedule's units —
//! what the statistics score together: a game pair (one opening, both colours) between two
//! players, a rotation of the candidate through the seats of a game of more than two — are
//! dealt to the N shards in turn, unit u to shard u mod N. Every shard builds the whole
//! schedule and its openings from the same seed before it keeps its own units, so the shards
//! play the openings, colours and seatings of the single run, and at fixed nodes the union of
//! their games is the single run's game for game.
//!
//! Every game's PGN carries what a merge needs ([`MergeTags`]): its unit, the unit's size,
//! its opening round, its shard and the match's settings; `panoply results`
//! ([`super::merge`]) reads them back.

use super::adjudication::Adjudication;
use super::MatchSettings;
use crate::records::record::GameSpec;
use std::collections::BTreeMap;
use std::fmt;

/// Shard `index` (0-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// A `--shard` value that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError(pub String);

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "bad shard '{}' (expected K/N with 0 <= K < N, e.g. 0/4 for the first of four)",
            self.0
        )
    }
}

impl std::error::Error for ShardError {}

impl Shard {
    /// The whole schedule: the single run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `K/N`: the K-th (0-based, as Slurm's array task ids) of N shards.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let err = || ShardError(text.to_string());
        let (k, n) = text.trim().split_once('/').ok_or_else(err)?;
        let index = k.trim().parse::<usize>().map_err(|_| err())?;
        let count = n.trim().parse::<usize>().map_err(|_| err())?;
        if count == 0 || index >= count {
            return Err(err());
        }
        Ok(Shard { index, count })
    }

    /// Whether this shard plays unit `unit`.
    pub fn owns(&self, unit: usize) -> bool {
        unit % self.count == self.index
    }

    /// The shard that plays unit `unit`.
    pub fn of_unit(unit: usize, count: usize) -> Shard {
        Shard {
            index: unit % count,
            count,
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a game records in its PGN tags for a merge.
#[derive(Clone, Debug, PartialEq)]
pub struct MergeTags {
    /// The unit (0-based, in schedule order) and the number of units of the match.
    pub unit: usize,
    pub units: usize,
    /// The games of this unit.
    pub unit_games: usize,
    /// The opening round: the suite position or book line the unit's games start from.
    pub opening: usize,
    pub shard: Shard,
    /// The match's settings that decide its games ([`settings_text`]).
    pub settings: String,
    /// The `--sprt` settings, if the match ran a test.
    pub sprt: Option<String>,
    /// The engines in the match's order (the table's ties and the pair statistics follow it).
    pub engines: Vec<String>,
}

/// The tag names, in the order they are written.
const UNIT: &str = "PanoplyUnit";
const UNIT_GAMES: &str = "PanoplyUnitGames";
const OPENING: &str = "PanoplyOpening";
const SHARD: &str = "PanoplyShard";
pub(crate) const SETTINGS: &str = "PanoplySettings";
const SPRT: &str = "PanoplySprt";
const ENGINE: &str = "PanoplyEngine";

impl MergeTags {
    /// `(name, value)` pairs for the PGN.
    pub fn pgn_tags(&self) -> Vec<(String, String)> {
        let mut tags = vec![
            (UNIT.to_string(), format!("{}/{}", self.unit, self.units)),
            (UNIT_GAMES.to_string(), self.unit_games.to_string()),
            (OPENING.to_string(), self.opening.to_string()),
            (SHARD.to_string(), self.shard.to_string()),
            (SETTINGS.to_string(), self.settings.clone()),
        ];
        if let Some(sprt) = &self.sprt {
            tags.push((SPRT.to_string(), sprt.clone()));
        }
        for (i, name) in self.engines.iter().enumerate() {
            tags.push((format!("{ENGINE}{}", i + 1), name.clone()));
        }
        tags
    }

    /// Reads the tags back; an error names the tag that is missing or malformed.
    pub fn from_tags(tags: &[(String, String)]) -> Result<MergeTags, String> {
        let get = |name: &str| {
            tags.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
                .ok_or_else(|| format!("no {name} tag (not written by panoply match --shard)"))
        };
        let bad = |name: &str, value: &str| format!("bad {name} tag \"{value}\"");
        let number =
            |name: &str, value: &str| value.trim().parse::<usize>().map_err(|_| bad(name, value));
        let unit_text = get(UNIT)?;
        let (unit, units) = unit_text
            .split_once('/')
            .ok_or_else(|| bad(UNIT, unit_text))?;
        let (unit, units) = (number(UNIT, unit)?, number(UNIT, units)?);
        if unit >= units {
            return Err(bad(UNIT, unit_text));
        }
        let shard_text = get(SHARD)?;
        let shard = Shard::parse(shard_text).map_err(|_| bad(SHARD, shard_text))?;
        let engines: Vec<String> = (1..)
            .map_while(|i| get(&format!("{ENGINE}{i}")).ok().map(str::to_string))
            .collect();
        if engines.len() < 2 {
            return Err(format!("no {ENGINE}1 and {ENGINE}2 tags"));
        }
        Ok(MergeTags {
            unit,
            units,
            unit_games: number(UNIT_GAMES, get(UNIT_GAMES)?)?,
            opening: number(OPENING, get(OPENING)?)?,
            shard,
            settings: get(SETTINGS)?.to_string(),
            sprt: get(SPRT).ok().map(str::to_string),
            engines,
        })
    }

    /// A `key=value` word of the settings (`mode`, `seats`, ...).
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings
            .split_whitespace()
            .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
    }
}

/// The merge tags of every game of the whole schedule, by game number. `opening_rounds[i]` is
/// the opening round of `specs[i]`.
pub fn merge_tags(
    settings: &MatchSettings,
    players: &[usize],
    specs: &[GameSpec],
    opening_rounds: &[usize],
) -> BTreeMap<usize, MergeTags> {
    let mut unit_games: BTreeMap<usize, usize> = BTreeMap::new();
    for spec in specs {
        *unit_games.entry(unit_of(spec)).or_default() += 1;
    }
    let units = unit_games.len();
    let text = settings_text(settings, players, specs);
    let sprt = settings.sprt.map(|s| s.to_string());
    let engines: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
    specs
        .iter()
        .zip(opening_rounds)
        .map(|(spec, &opening)| {
            let unit = unit_of(spec);
            let tags = MergeTags {
                unit,
                units,
                unit_games: unit_games[&unit],
                opening,
                shard: Shard::of_unit(unit, settings.shard.count),
                settings: text.clone(),
                sprt: sprt.clone(),
                engines: engines.clone(),
            };
            (spec.number, tags)
        })
        .collect()
}

/// The unit of a scheduled game: its pair, numbered in schedule order.
pub fn unit_of(spec: &GameSpec) -> usize {
    spec.pair.unwrap_or(0)
}

/// The settings that decide a match's games, as `key=value` words; `schedule` is a hash of
/// every game's seats, start position and book line, which the seed, the suites and the
/// books decide. Shards of one match have the same text.
pub fn settings_text(settings: &MatchSettings, players: &[usize], specs: &[GameSpec]) -> String {
    let list = |v: &[String]| v.join(",");
    let seats: Vec<String> = players.iter().map(usize::to_string).collect();
    format!(
        "variants={} seats={} mode={} games={} tc={} margin-ms={} max-plies={} {} seed={} schedule={:016x}",
        list(&settings.variants),
        seats.join(","),
        match settings.mode {
            super::schedule::Mode::RoundRobin => "roundrobin",
            super::schedule::Mode::Gauntlet => "gauntlet",
        },
        settings.games,
        settings.control,
        settings.margin.as_millis(),
        settings.max_plies.map_or("-".to_string(), |m| m.to_string()),
        adjudication_text(&settings.adjudication),
        settings.seed,
        schedule_hash(specs)
    )
}

fn adjudication_text(a: &Adjudication) -> String {
    let resign = a.resign.map_or("-".to_string(), |r| {
        format!("movecount={},score={}", r.moves, r.score)
    });
    let draw = a.draw.map_or("-".to_string(), |d| {
        format!(
            "movenumber={},movecount={},score={}",
            d.from_move, d.moves, d.score
        )
    });
    format!("resign={resign} draw={draw}")
}

/// FNV-1a over the games of the schedule: a mismatch says two shards built different
/// schedules (another seed, suite or book).
fn schedule_hash(specs: &[GameSpec]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        // A separator, so that "ab","c" and "a","bc" differ.
        hash ^= 0xff;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    };
    for s in specs {
        eat(s.number.to_string().as_bytes());
        eat(s.variant.as_bytes());
        for seat in &s.seats {
            eat(seat.to_string().as_bytes());
        }
        eat(s.start.as_deref().unwrap_or("-").as_bytes());
        for mv in &s.opening {
            eat(mv.as_bytes());
        }
        eat(unit_of(s).to_string().as_bytes());
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_parsed_and_deal_units_in_turn() {
        assert_eq!(Shard::parse("1/4"), Ok(Shard { index: 1, count: 4 }));
        assert_eq!(Shard::parse(" 0/1 "), Ok(Shard::WHOLE));
        for bad in ["4/4", "1/0", "x/2", "3", "-1/2", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert!(Shard::parse("4/4")
            .unwrap_err()
            .to_string()
            .starts_with("bad shard '4/4' (expected K/N"));
        let shards: Vec<Shard> = (0..3).map(|k| Shard { index: k, count: 3 }).collect();
        // Every unit belongs to exactly one shard, the one `of_unit` names.
        for unit in 0..30 {
            let owners: Vec<&Shard> = shards.iter().filter(|s| s.owns(unit)).collect();
            assert_eq!(owners, vec![&Shard::of_unit(unit, 3)], "unit {unit}");
        }
        assert!(Shard::WHOLE.owns(17));
    }

    #[test]
    fn tags_are_written_and_read_back() {
        let tags = MergeTags {
            unit: 7,
            units: 200,
            unit_games: 2,
            opening: 7,
            shard: Shard { index: 3, count: 4 },
            settings: "variants=chess seats=2 mode=gauntlet games=400".into(),
            sprt: Some("elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic".into()),
            engines: vec!["Cand".into(), "Base, old".into()],
        };
        let written = tags.pgn_tags();
        assert_eq!(written[0], ("PanoplyUnit".into(), "7/200".into()));
        assert_eq!(written[3], ("PanoplyShard".into(), "3/4".into()));
        assert_eq!(MergeTags::from_tags(&written), Ok(tags.clone()));
        assert_eq!(tags.setting("mode"), Some("gauntlet"));
        assert_eq!(tags.setting("seats"), Some("2"));
        assert_eq!(tags.setting("tc"), None);
        let without_unit: Vec<(String, String)> = written[1..].to_vec();
        assert_eq!(
            MergeTags::from_tags(&without_unit),
            Err("no PanoplyUnit tag (not written by panoply match --shard)".into())
        );
        let mut bad = written.clone();
        bad[0].1 = "200/200".into();
        assert_eq!(
            MergeTags::from_tags(&bad),
            Err("bad PanoplyUnit tag \"200/200\"".into())
        );
    }
}
