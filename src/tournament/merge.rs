//! `panoply results`: the games of one match read back from PGN files — the shards of a
//! sharded match, or a single run — checked to be one match played once, and counted by the
//! match's own [`Tally`], so the report is the one `panoply match` prints.
//!
//! The order the games are counted in decides where an SPRT stops. A single run's PGN holds
//! its games in the order they finished, which is the order the match counted them: they are
//! counted in file order, and a run stopped by its test is reproduced with the games that
//! were still under way at the decision; a run stopped by hand counts its complete units.
//! The shards of a sharded match each play all their units, in no common order: their games
//! are counted unit by unit in schedule order, as a single run playing one game at a time
//! would have, and once the test decides the later games are left out, as that run would
//! never have played them.
//!
//! Sittings are one test played again with other seeds (a session's end stopped the first):
//! each is merged as above, as a match of its own, and their counted games are summed, each
//! sitting's pairs kept apart, so that the report and its test are those of all the pairs.

use super::schedule::{candidate_alone, Mode};
use super::shard::{MergeTags, Shard, SETTINGS as SETTINGS_TAG};
use super::sprt::SprtSettings;
use super::tally::{MatchReport, Tally};
use crate::records::pgn_reader::PgnGame;
use crate::records::record::GameRecord;
use std::collections::BTreeMap;
use std::fmt;

/// A game read from a file.
pub struct SourcedGame {
    pub game: PgnGame,
    pub file: String,
}

/// Why games cannot be merged into one match: each a one-line message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    NoGames,
    /// A game without the tags a merge needs, or with bad ones.
    Untagged {
        file: String,
        game: usize,
        reason: String,
    },
    /// Games of different matches (settings, engines, test, shard count).
    MixedSettings {
        first: String,
        other: String,
    },
    /// Games of one match's settings but another seed: a second sitting, to be summed only
    /// when asked.
    OtherSeed {
        first: String,
        other: String,
    },
    /// The same game twice: overlapping shards, or a file given twice.
    Overlap {
        game: usize,
        first: String,
        second: String,
    },
    /// A unit with some of its games missing.
    Incomplete {
        unit: usize,
        shard: String,
        have: Vec<usize>,
        need: usize,
    },
    /// A unit none of whose games is there.
    MissingUnit {
        unit: usize,
        units: usize,
        shard: String,
    },
    /// The test cannot run on this match.
    Test(String),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MergeError::NoGames => write!(f, "no games to merge"),
            MergeError::Untagged { file, game, reason } => {
                write!(f, "{file}: game {game}: {reason}")
            }
            MergeError::MixedSettings { first, other } => write!(
                f,
                "mixed settings: {first}, but {other}; these games are not of one match"
            ),
            MergeError::OtherSeed { first, other } => write!(
                f,
                "another seed: {first}, but {other}; to sum sittings of one test, add --sittings"
            ),
            MergeError::Overlap {
                game,
                first,
                second,
            } => write!(
                f,
                "overlapping shards: game {game} is in {first} and in {second}"
            ),
            MergeError::Incomplete {
                unit,
                shard,
                have,
                need,
            } => {
                let games: Vec<String> = have.iter().map(usize::to_string).collect();
                write!(
                    f,
                    "incomplete unit {unit} (shard {shard}): {} of its {need} games ({} {}); did the shard finish?",
                    have.len(),
                    if have.len() == 1 { "game" } else { "games" },
                    games.join(", ")
                )
            }
            MergeError::MissingUnit { unit, units, shard } => write!(
                f,
                "unit {unit} of {units} is missing: no game of it in the files (shard {shard} missing or cut short?)"
            ),
            MergeError::Test(m) => write!(f, "--sprt: {m}"),
        }
    }
}

impl std::error::Error for MergeError {}

/// The merged match.
pub struct Merged {
    pub report: MatchReport,
    /// Shards of the match (1: a single run).
    pub shards: usize,
    /// Games of the shards after the test's decision, which a single run would not have
    /// played and the report leaves out.
    pub left_out: usize,
    /// A single run stopped before its end with no decision: what it had not finished.
    pub unfinished: Unfinished,
    /// The seeds of the sittings summed, in the order counted (one: a single match).
    pub seeds: Vec<String>,
}

/// What a single run stopped by hand (not by its test) left unfinished: the report counts
/// the units whose games all finished, so that every pair it counts is whole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unfinished {
    /// Units with some of their games: those games are left out.
    pub units: usize,
    pub games: usize,
    /// Units of the schedule of which no game is there.
    pub not_started: usize,
}

impl Unfinished {
    fn add(&mut self, other: Unfinished) {
        self.units += other.units;
        self.games += other.games;
        self.not_started += other.not_started;
    }
}

/// A checked game: its record with the match's engine indices, and its merge tags.
struct Checked {
    record: GameRecord,
    tags: MergeTags,
    file: String,
}

/// Merges the games of one match; `sprt` replaces the test the match was started with.
pub fn merge(games: Vec<SourcedGame>, sprt: Option<SprtSettings>) -> Result<Merged, MergeError> {
    merge_checked(vec![check(games)?], sprt)
}

/// Merges sittings of one test: the games grouped by seed (in the order the seeds first
/// appear), each group one match, the groups alike but for their seeds.
pub fn merge_sittings(
    games: Vec<SourcedGame>,
    sprt: Option<SprtSettings>,
) -> Result<Merged, MergeError> {
    let mut groups: Vec<(String, Vec<SourcedGame>)> = Vec::new();
    for game in games {
        let seed = seed_of(&game);
        match groups.iter_mut().find(|(s, _)| *s == seed) {
            Some((_, group)) => group.push(game),
            None => groups.push((seed, vec![game])),
        }
    }
    let sittings = groups
        .into_iter()
        .map(|(_, group)| check(group))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some((first, rest)) = sittings.split_first() {
        for sitting in rest {
            same_test(&first[0], &sitting[0])?;
        }
    }
    merge_checked(sittings, sprt)
}

/// The `seed=` of a game's settings tag; empty when there is none (`check` names that).
fn seed_of(game: &SourcedGame) -> String {
    let settings = game.game.tag(SETTINGS_TAG).unwrap_or("");
    settings
        .split_whitespace()
        .find_map(|w| w.strip_prefix("seed="))
        .unwrap_or("")
        .to_string()
}

/// Each sitting replayed as a match of its own; the games each counts, counted again into
/// one tally with the sitting's pairs numbered after the sittings before it.
fn merge_checked(
    sittings: Vec<Vec<Checked>>,
    sprt: Option<SprtSettings>,
) -> Result<Merged, MergeError> {
    let first = sittings
        .first()
        .and_then(|s| s.first())
        .ok_or(MergeError::NoGames)?;
    let names = first.tags.engines.clone();
    let (mode, players) = match_shape(&first.tags).map_err(|reason| MergeError::Untagged {
        file: first.file.clone(),
        game: first.record.spec.number,
        reason,
    })?;
    let sprt = match sprt {
        Some(s) => Some(s),
        None => first
            .tags
            .sprt
            .as_deref()
            .map(|text| SprtSettings::parse(&[text.to_string()]))
            .transpose()
            .map_err(|e| MergeError::Test(e.to_string()))?,
    };
    let seat_gauntlet = players.iter().any(|&p| candidate_alone(mode, p));
    super::check_test(sprt.as_ref(), names.len(), &players, seat_gauntlet)
        .map_err(|e| MergeError::Test(e.to_string()))?;
    let shards = first.tags.shard.count;
    let new_tally = || Tally::new(names.clone(), mode, &players, sprt);
    let mut tally = new_tally();
    let mut all_counted = Vec::new();
    let (mut left_out, mut unfinished) = (0, Unfinished::default());
    let mut seeds = Vec::new();
    let mut pairs_before = 0;
    for sitting in sittings {
        let tags = &sitting[0].tags;
        let (units, shards) = (tags.units, tags.shard.count);
        seeds.push(tags.setting("seed").unwrap_or("").to_string());
        let (counted, out, cut) = replay_sitting(sitting, units, shards, &new_tally)?;
        for mut record in counted {
            record.spec.pair = record.spec.pair.map(|unit| unit + pairs_before);
            tally.count(&record);
            all_counted.push(record);
        }
        left_out += out;
        unfinished.add(cut);
        pairs_before += units;
    }
    Ok(Merged {
        report: tally.report(all_counted),
        shards,
        left_out,
        unfinished,
        seeds,
    })
}

/// One sitting as a match of its own: the games it counts in the order it counts them, the
/// games left out after its test decided, and what a run stopped by hand left unfinished.
fn replay_sitting(
    sitting: Vec<Checked>,
    units: usize,
    shards: usize,
    new_tally: &impl Fn() -> Tally,
) -> Result<(Vec<GameRecord>, usize, Unfinished), MergeError> {
    let mut own = new_tally();
    if shards == 1 {
        let (counted, unfinished) = replay_recorded(sitting, &mut own, new_tally);
        Ok((counted, 0, unfinished))
    } else {
        let (counted, left_out) = replay_by_unit(sitting, &mut own, units, shards)?;
        Ok((counted, left_out, Unfinished::default()))
    }
}

/// The match's mode and the seat count of each variant, from its settings.
fn match_shape(tags: &MergeTags) -> Result<(Mode, Vec<usize>), String> {
    let mode: Mode = tags
        .setting("mode")
        .ok_or("no mode= in PanoplySettings")?
        .parse()?;
    let players = tags
        .setting("seats")
        .ok_or("no seats= in PanoplySettings")?
        .split(',')
        .map(|n| n.parse::<usize>().ok().filter(|&n| n >= 2))
        .collect::<Option<Vec<usize>>>()
        .ok_or("bad seats= in PanoplySettings")?;
    Ok((mode, players))
}

/// Reads every game's tags and checks that they are of one match, each game once.
fn check(games: Vec<SourcedGame>) -> Result<Vec<Checked>, MergeError> {
    let mut checked: Vec<Checked> = Vec::with_capacity(games.len());
    let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
    for SourcedGame { game, file } in games {
        let number = game.record.spec.number;
        let untagged = |reason: String| MergeError::Untagged {
            file: file.clone(),
            game: number,
            reason,
        };
        let tags = MergeTags::from_tags(&game.tags).map_err(untagged)?;
        if tags.shard.index != tags.unit % tags.shard.count {
            return Err(untagged(format!(
                "unit {} does not belong to shard {}",
                tags.unit, tags.shard
            )));
        }
        let record =
            with_engine_indices(game.record, &tags.engines, tags.unit).map_err(untagged)?;
        let here = Checked { record, tags, file };
        if let Some(first) = checked.first() {
            same_match(first, &here)?;
        }
        if let Some(&at) = seen.get(&number) {
            return Err(MergeError::Overlap {
                game: number,
                first: place(&checked[at]),
                second: place(&here),
            });
        }
        seen.insert(number, checked.len());
        checked.push(here);
    }
    Ok(checked)
}

/// `a.pgn (shard 1/4)`.
fn place(c: &Checked) -> String {
    format!("{} (shard {})", c.file, c.tags.shard)
}

/// The record's seats as indices into the match's engines, and its unit as its pair.
pub(super) fn with_engine_indices(
    mut record: GameRecord,
    engines: &[String],
    unit: usize,
) -> Result<GameRecord, String> {
    record.spec.seats = record
        .engine_names
        .iter()
        .map(|n| {
            engines
                .iter()
                .position(|e| e == n)
                .ok_or_else(|| format!("engine {n} is not one of the match's engines"))
        })
        .collect::<Result<_, _>>()?;
    record.spec.pair = Some(unit);
    Ok(record)
}

/// An error naming the first setting in which two games differ.
fn same_match(first: &Checked, other: &Checked) -> Result<(), MergeError> {
    mismatch((first, &first.tags), (other, &other.tags))
}

/// An error naming the first setting in which tags `a` of game `first` and tags `b` of game
/// `other` differ.
fn mismatch(
    (first, a): (&Checked, &MergeTags),
    (other, b): (&Checked, &MergeTags),
) -> Result<(), MergeError> {
    let Some((what_a, what_b)) = first_difference(a, b) else {
        return Ok(());
    };
    let describe =
        |c: &Checked, what: String| format!("{} game {} has {what}", c.file, c.record.spec.number);
    let (first, other) = (describe(first, what_a), describe(other, what_b));
    if a.setting("seed") != b.setting("seed")
        && without_seed(&a.settings) == without_seed(&b.settings)
    {
        return Err(MergeError::OtherSeed { first, other });
    }
    Err(MergeError::MixedSettings { first, other })
}

/// The first of the match settings in which two games' tags differ, as each states it: a
/// settings word, the engines, the test, or the shard split.
pub(super) fn first_difference(a: &MergeTags, b: &MergeTags) -> Option<(String, String)> {
    if a.settings != b.settings {
        let words_b: Vec<&str> = b.settings.split_whitespace().collect();
        let word_a = a.settings.split_whitespace().find(|w| !words_b.contains(w));
        let key = word_a.map_or("", |w| w.split('=').next().unwrap_or(""));
        let word_b = words_b.iter().find(|w| w.split('=').next() == Some(key));
        return Some((
            word_a.unwrap_or(&a.settings).to_string(),
            word_b.copied().unwrap_or(&b.settings).to_string(),
        ));
    }
    if a.engines != b.engines {
        return Some((
            format!("engines {}", a.engines.join(", ")),
            format!("engines {}", b.engines.join(", ")),
        ));
    }
    if a.sprt != b.sprt {
        let test = |s: &Option<String>| s.clone().unwrap_or_else(|| "no test".into());
        return Some((
            format!("sprt {}", test(&a.sprt)),
            format!("sprt {}", test(&b.sprt)),
        ));
    }
    if a.shard.count != b.shard.count || a.units != b.units {
        return Some((
            format!("shard {} of {} units", a.shard, a.units),
            format!("shard {} of {} units", b.shard, b.units),
        ));
    }
    None
}

/// Two sittings' first games: one test (settings but the seed and the schedule it draws,
/// engines, test) or an error naming the difference.
fn same_test(first: &Checked, other: &Checked) -> Result<(), MergeError> {
    let (a, b) = (&first.tags, &other.tags);
    if without_seed(&a.settings) == without_seed(&b.settings)
        && a.engines == b.engines
        && a.sprt == b.sprt
    {
        return Ok(());
    }
    // Compare as one match with the seed (and the shard split, free per sitting) made equal:
    // the error names what else differs.
    let mut like_first = b.clone();
    like_first.settings = with_seed_of(&b.settings, &a.settings);
    (like_first.shard, like_first.units) = (a.shard, a.units);
    mismatch((first, a), (other, &like_first))
}

/// `settings` with the seed and schedule words of `first` in their places.
fn with_seed_of(settings: &str, first: &str) -> String {
    let key = |w: &str| w.split('=').next().unwrap_or("").to_string();
    let words: Vec<&str> = settings
        .split_whitespace()
        .map(|w| {
            if seeded(w) {
                first
                    .split_whitespace()
                    .find(|f| key(f) == key(w))
                    .unwrap_or(w)
            } else {
                w
            }
        })
        .collect();
    words.join(" ")
}

/// Settings without the words that follow from the seed.
fn without_seed(settings: &str) -> Vec<&str> {
    settings.split_whitespace().filter(|w| !seeded(w)).collect()
}

/// Whether a settings word follows from the seed: the seed itself and the schedule it draws.
fn seeded(word: &str) -> bool {
    matches!(word.split('=').next(), Some("seed" | "schedule"))
}

/// A single run: its games in the order it counted them. When its test did not stop it, it
/// was played to its end or stopped by hand: then only the games of complete units count,
/// and the rest is reported as unfinished.
fn replay_recorded(
    checked: Vec<Checked>,
    tally: &mut Tally,
    new_tally: impl Fn() -> Tally,
) -> (Vec<GameRecord>, Unfinished) {
    let mut trial = new_tally();
    if checked.iter().any(|c| trial.count(&c.record).decided) {
        for c in &checked {
            tally.count(&c.record);
        }
        let counted = checked.into_iter().map(|c| c.record).collect();
        return (counted, Unfinished::default());
    }
    // Per unit: the games there and the games it has in all.
    let mut units: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    for c in &checked {
        units.entry(c.tags.unit).or_insert((0, c.tags.unit_games)).0 += 1;
    }
    let cut_short = |unit| units[&unit].0 != units[&unit].1;
    let mut unfinished = Unfinished {
        units: units.keys().filter(|&&u| cut_short(u)).count(),
        games: 0,
        not_started: checked[0].tags.units.saturating_sub(units.len()),
    };
    let mut counted = Vec::new();
    for c in checked {
        if cut_short(c.tags.unit) {
            unfinished.games += 1;
        } else {
            tally.count(&c.record);
            counted.push(c.record);
        }
    }
    (counted, unfinished)
}

/// Shards: unit by unit in schedule order, each complete, until the test decides. Returns the
/// games counted and how many were left out after the decision.
fn replay_by_unit(
    checked: Vec<Checked>,
    tally: &mut Tally,
    units: usize,
    shards: usize,
) -> Result<(Vec<GameRecord>, usize), MergeError> {
    let mut by_unit: BTreeMap<usize, Vec<Checked>> = BTreeMap::new();
    for c in checked {
        by_unit.entry(c.tags.unit).or_default().push(c);
    }
    let mut counted = Vec::new();
    let mut left_out = 0;
    let mut decided = false;
    for unit in 0..units {
        if decided {
            break;
        }
        let mut games = by_unit.remove(&unit).unwrap_or_default();
        games.sort_by_key(|c| c.record.spec.number);
        let refs: Vec<&Checked> = games.iter().collect();
        complete(unit, units, shards, &refs)?;
        for c in games {
            if decided {
                left_out += 1;
                continue;
            }
            decided = tally.count(&c.record).decided;
            counted.push(c.record);
        }
    }
    left_out += by_unit.values().map(Vec::len).sum::<usize>();
    Ok((counted, left_out))
}

/// An error unless `games` are all the games of `unit`.
fn complete(
    unit: usize,
    units: usize,
    shards: usize,
    games: &[&Checked],
) -> Result<(), MergeError> {
    let Some(first) = games.first() else {
        return Err(MergeError::MissingUnit {
            unit,
            units,
            shard: Shard::of_unit(unit, shards).to_string(),
        });
    };
    if games.len() != first.tags.unit_games {
        return Err(MergeError::Incomplete {
            unit,
            shard: first.tags.shard.to_string(),
            have: games.iter().map(|c| c.record.spec.number).collect(),
            need: first.tags.unit_games,
        });
    }
    Ok(())
}
