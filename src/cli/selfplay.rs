//! `panoply selfplay`: engine copies play any variant against themselves — one searcher per
//! side in two-player games, one per army (with its own search method) in four-player games.
//! Prints one line per game (result, the rule that ended it, length) and a summary. The
//! Armies of Faith measurements it can add (`--mobility`, `--fit-values`) are the library's
//! ([`panoply::games::aof5::measure`]).

use super::eval_args::EvalArgs;
use super::position::PositionArgs;
use super::Failure;
use clap::Args;
use panoply::bitboard::{BitSet, Wide};
use panoply::game::{AnyTables, Game, Outcome};
use panoply::games::aof5::eval::Eval;
use panoply::games::aof5::fit::ValueSample;
use panoply::games::aof5::measure::{
    fit_report, mobility_report, sampled_positions, value_samples,
};
use panoply::movegen::tables::Tables;
use panoply::records::openings::Suite;
use panoply::search::multi_player::{Method, MultiLimits, QUIESCENCE_CAPTURES};
use panoply::search::selfplay::{play, play_two_player, Record, Schedule, SelfPlay};
use panoply::search::{Limits, SearchOptions, Searcher};
use panoply::tune::data::{quiet_position, white_result, Sample, Seen};
use panoply::with_tables;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The four-player methods used when `--methods` is not given.
const DEFAULT_METHODS: &str = "paranoid,brs,paranoid,brs";

/// The ending reported for a game stopped by `--max-plies` (the only ending not decided by
/// the rules).
const PLY_CAP: &str = "ply cap";

#[derive(Args, Debug)]
// Today's help lists `--games` between `--variant` and `--fen`, and words `--fen` for many
// games; kept so that the help stays as it was (clap drops a doc comment's closing period,
// not a help string's).
#[command(mut_arg("fen", |a| a.display_order(2).help(
    "Start every game from this position string (default: the variant's start position)"
)))]
pub struct SelfplayArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[arg(long, default_value_t = 2, display_order = 1)]
    games: usize,
    /// Node budget per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth limit per move (plies).
    #[arg(long)]
    depth: Option<u32>,
    /// Time per move in milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Games still running after this many plies stop without a result ("ply cap").
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Plies played at random at the start of each game, so that games differ.
    #[arg(long, default_value_t = 4)]
    random_opening: usize,
    /// Seed of the random opening moves (game N uses a seed derived from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Transposition table per engine copy in MB (two-player games).
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Four-player games: search method per army in turn order (c,p,i,b), or one for all:
    /// paranoid | brs [default: paranoid,brs,paranoid,brs].
    #[arg(long)]
    methods: Option<String>,
    /// Four-player games: rotate the methods (and per-army budgets) by one army after every
    /// game, so each seat sees each engine.
    #[arg(long)]
    rotate: bool,
    /// Four-player games: after the games, the mean reach of every piece kind in the
    /// positions they passed through (every 8th ply after the random opening), against its
    /// reach on the empty board: the measurement behind the Armies of Faith piece values.
    #[arg(long)]
    mobility: bool,
    /// Four-player games: after the games, fit the Armies of Faith piece values to their
    /// results (positions every 8th ply after the random opening, labelled with how the
    /// game ended for each army) and print the fitted table.
    #[arg(long)]
    fit_values: bool,
    /// Four-player games: node budget per army in turn order (c,p,i,b), instead of --nodes.
    #[arg(long)]
    army_nodes: Option<String>,
    /// Four-player games: quiescence captures per army in turn order (c,p,i,b), or one for
    /// all [default: what the engine uses].
    #[arg(long)]
    captures: Option<String>,
    /// Print each game's moves on a line after the game's line, to replay or check it.
    #[arg(long)]
    moves: bool,
    /// Start game N from the Nth position of this opening suite for the variant (cycled;
    /// the format `match --openings` reads), instead of --fen or the start position.
    #[arg(long, conflicts_with = "fen")]
    openings: Option<PathBuf>,
    /// Four-player games: after the games, the depth of the last finished iteration of
    /// every searched move, per army (median, mean, moves): how deep a budget searches.
    #[arg(long)]
    depths: bool,
    /// The positions read from --openings.
    #[arg(skip)]
    starts: Vec<String>,
    /// Two-player games: append the quiet positions of every finished game, labelled with its
    /// result and the search's score, to this file (training data for `panoply tune`).
    #[arg(long)]
    record: Option<PathBuf>,
    #[command(flatten)]
    eval: EvalArgs,
}

impl SelfplayArgs {
    pub fn run(mut self) -> Result<(), Failure> {
        if self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.army_nodes.is_none()
        {
            return Err(
                "give a budget per move: --nodes, --depth, --movetime or --army-nodes".into(),
            );
        }
        let tables = self.position.tables()?;
        if let Some(path) = &self.openings {
            self.starts = read_starts(path, &tables)?;
        }
        if tables.variant().players() == 2 {
            self.check_two_player_options()?;
            with_tables!(&tables, t => run_two_player(t, &self))
        } else if self.record.is_some() {
            Err("--record applies to two-player games only".into())
        } else {
            match tables {
                AnyTables::Wide(t) => run_multi_player(&t, &self),
                AnyTables::Narrow(_) => Err(Failure(format!(
                    "no multi-player search for '{}' on a board this small",
                    self.position.variant
                ))),
            }
        }
    }

    /// Refuses the options that only four-player games use.
    fn check_two_player_options(&self) -> Result<(), Failure> {
        if self.methods.is_some()
            || self.rotate
            || self.army_nodes.is_some()
            || self.captures.is_some()
            || self.mobility
            || self.fit_values
            || self.depths
        {
            return Err(
                "--methods, --rotate, --army-nodes, --captures, --mobility, --fit-values \
                 and --depths apply to four-player games only"
                    .into(),
            );
        }
        Ok(())
    }

    /// Game `g` at its start: the `g`th suite position (cycled) with --openings, else the
    /// chosen start; checked once before any game is played.
    fn new_game<B: BitSet>(&self, t: &Arc<Tables<B>>, g: usize) -> Result<Game<B>, Failure> {
        if self.starts.is_empty() {
            return self.position.game(t);
        }
        let text = &self.starts[g % self.starts.len()];
        Game::from_position_string(t.clone(), text)
            .map_err(|e| Failure(format!("bad position string in the suite: {e}")))
    }

    fn print_moves(&self, record: &Record) {
        if self.moves {
            panoply::outln!("  moves: {}", record.moves.join(" "));
        }
    }

    fn schedule(&self, game: usize) -> Schedule {
        Schedule {
            max_plies: self.max_plies,
            random_opening: self.random_opening,
            seed: self.seed.wrapping_add(game as u64 * 0x9E37),
        }
    }
}

/// Appends labelled training positions to a file as games finish.
struct Recorder {
    path: PathBuf,
    file: std::io::BufWriter<std::fs::File>,
    written: usize,
}

impl Recorder {
    fn open(path: &Path) -> Result<Recorder, Failure> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| Failure(format!("{}: cannot open for writing: {e}", path.display())))?;
        Ok(Recorder {
            path: path.to_path_buf(),
            file: std::io::BufWriter::new(file),
            written: 0,
        })
    }

    /// Writes a game's positions with its result; a game without a result teaches nothing.
    fn write(&mut self, variant: &str, seen: &[Seen], result: Option<f64>) -> Result<(), Failure> {
        use std::io::Write;
        let Some(result) = result else {
            return Ok(());
        };
        let failed = |e: std::io::Error| Failure(format!("{}: {e}", self.path.display()));
        for s in seen {
            let sample = Sample {
                variant: variant.to_string(),
                position: s.position.clone(),
                result,
                score: s.score,
            };
            writeln!(self.file, "{}", sample.to_line()).map_err(failed)?;
        }
        self.written += seen.len();
        self.file.flush().map_err(failed)
    }
}

/// Counts over all games, printed as the summary.
#[derive(Default)]
struct Tally {
    games: usize,
    plies: usize,
    nodes: u64,
    /// Per result: "<player> wins", "draws", "unfinished".
    results: BTreeMap<String, usize>,
    /// Per ending: the rule's name, or the ply cap.
    endings: BTreeMap<String, usize>,
}

impl Tally {
    /// Records a game and returns its "result by ending" text.
    fn add(&mut self, record: &Record, name: impl Fn(usize) -> String, cap: usize) -> String {
        self.games += 1;
        self.plies += record.plies;
        self.nodes += record.nodes;
        let (result, ending, text) = match &record.outcome {
            Some(Outcome::Win { winner, reason }) => {
                let who = name(winner.index());
                (
                    format!("{who} wins"),
                    reason.clone(),
                    format!("{who} wins by {reason}"),
                )
            }
            Some(Outcome::Draw { reason }) => {
                ("draws".into(), reason.clone(), format!("draw by {reason}"))
            }
            None => (
                "unfinished".into(),
                PLY_CAP.into(),
                format!("no result, stopped by the {PLY_CAP} of {cap} plies"),
            ),
        };
        *self.results.entry(result).or_default() += 1;
        *self.endings.entry(ending).or_default() += 1;
        text
    }

    fn print(&self, secs: f64) {
        panoply::outln!(
            "summary: {} games, {:.1} plies on average, {:.1} s, {} nodes",
            self.games,
            self.plies as f64 / self.games.max(1) as f64,
            secs,
            self.nodes
        );
        for (result, n) in &self.results {
            panoply::outln!("  result {result}: {n}");
        }
        for (ending, n) in &self.endings {
            panoply::outln!("  ending {ending}: {n}");
        }
    }
}

fn run_two_player<B: BitSet>(t: &Arc<Tables<B>>, o: &SelfplayArgs) -> Result<(), Failure> {
    o.new_game(t, 0)?;
    let limits = Limits {
        depth: o.depth,
        nodes: o.nodes,
        movetime: o.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    let options = SearchOptions {
        hash_mb: o.hash,
        threads: 1,
        multi_pv: 1,
    };
    let mut searchers = [
        Searcher::new(t.clone(), options),
        Searcher::new(t.clone(), options),
    ];
    let eval = o.eval.settings(&**t)?;
    searchers.iter_mut().for_each(|s| s.set_eval(eval.clone()));
    let name = |p: usize| ["white", "black"][p].to_string();
    let mut tally = Tally::default();
    let start = Instant::now();
    let mut recorder = o.record.as_deref().map(Recorder::open).transpose()?;
    for g in 0..o.games {
        searchers.iter_mut().for_each(Searcher::new_game);
        let mut seen = Vec::new();
        let record = play_two_player(
            o.new_game(t, g)?,
            &mut searchers,
            &limits,
            o.schedule(g),
            &mut |game, result| seen.extend(quiet_position(game, result)),
        );
        if let Some(r) = &mut recorder {
            r.write(&o.position.variant, &seen, white_result(&record.outcome))?;
        }
        let text = tally.add(&record, name, o.max_plies);
        panoply::outln!("game {}: {text} after {} plies", g + 1, record.plies);
        o.print_moves(&record);
    }
    if let Some(r) = recorder {
        panoply::outln!("recorded {} positions to {}", r.written, r.path.display());
    }
    tally.print(start.elapsed().as_secs_f64());
    Ok(())
}

/// A comma list with one entry per army, or one for all; `parse` reads an entry as written
/// (spaces and all, so that an error quotes it).
fn per_army<T: Copy>(
    s: &str,
    players: usize,
    what: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, Failure> {
    let items: Vec<T> = s.split(',').map(parse).collect::<Result<_, _>>()?;
    match items.len() {
        1 => Ok(vec![items[0]; players]),
        n if n == players => Ok(items),
        n => Err(Failure(format!(
            "give one {what} or {players} (one per army), not {n}"
        ))),
    }
}

/// A comma list of numbers with one per army, or one for all.
fn numbers_per_army<T: Copy + std::str::FromStr>(
    s: &str,
    players: usize,
    what: &str,
) -> Result<Vec<T>, Failure> {
    per_army(s, players, what, |x| {
        x.trim()
            .parse::<T>()
            .map_err(|_| format!("bad {what} '{x}'"))
    })
}

/// One army's engine in four-player self-play.
#[derive(Clone, Copy, Debug)]
struct ArmyEngine {
    method: Method,
    limits: MultiLimits,
}

/// The engines in their seats, in turn order, and what sets them apart in their labels.
struct Lineup {
    engines: Vec<ArmyEngine>,
    nodes_differ: bool,
    captures_differ: bool,
}

impl Lineup {
    fn new(o: &SelfplayArgs, players: usize) -> Result<Lineup, Failure> {
        let methods = per_army(
            o.methods.as_deref().unwrap_or(DEFAULT_METHODS),
            players,
            "method",
            |m| {
                Method::from_name(m.trim())
                    .ok_or_else(|| format!("unknown search method '{m}' (paranoid or brs)"))
            },
        )?;
        let nodes: Vec<Option<u64>> = match &o.army_nodes {
            Some(list) => numbers_per_army::<u64>(list, players, "node budget")?
                .into_iter()
                .map(Some)
                .collect(),
            None => vec![o.nodes; players],
        };
        let captures = match &o.captures {
            Some(list) => numbers_per_army::<u32>(list, players, "capture count")?,
            None => vec![QUIESCENCE_CAPTURES; players],
        };
        let engines = (0..players)
            .map(|p| ArmyEngine {
                method: methods[p],
                limits: MultiLimits {
                    depth: o.depth,
                    nodes: nodes[p],
                    movetime: o.movetime.map(Duration::from_millis),
                    capture_plies: captures[p],
                    ..MultiLimits::default()
                },
            })
            .collect();
        Ok(Lineup {
            engines,
            nodes_differ: nodes.iter().any(|&n| n != nodes[0]),
            captures_differ: captures.iter().any(|&c| c != captures[0]),
        })
    }

    /// The method of the engine in seat `p`, and the budget and quiescence where armies
    /// differ in them.
    fn label(&self, p: usize) -> String {
        let e = &self.engines[p];
        let mut label = e.method.name().to_string();
        if self.nodes_differ {
            label += &format!(" {}n", e.limits.nodes.unwrap_or(0));
        }
        if self.captures_differ {
            label += &format!(" q{}", e.limits.capture_plies);
        }
        label
    }

    fn labels(&self) -> String {
        let labels: Vec<String> = (0..self.engines.len()).map(|p| self.label(p)).collect();
        labels.join(",")
    }

    fn config(&self, o: &SelfplayArgs) -> SelfPlay {
        SelfPlay {
            methods: self.engines.iter().map(|e| e.method).collect(),
            limits: self.engines.iter().map(|e| e.limits).collect(),
            max_plies: o.max_plies,
            random_opening: o.random_opening,
        }
    }
}

/// Per engine label: wins, leads in unfinished games, army-games, and its score (a win 1, a
/// draw or an unfinished game shared by the armies still playing).
#[derive(Default)]
struct EngineScores {
    wins: BTreeMap<String, usize>,
    leads: BTreeMap<String, usize>,
    seats: BTreeMap<String, usize>,
    scores: BTreeMap<String, f64>,
}

impl EngineScores {
    /// Scores a game; for an unfinished one, returns the seat ahead (the leader).
    fn add(&mut self, lineup: &Lineup, record: &Record) -> Option<usize> {
        let players = lineup.engines.len();
        for p in 0..players {
            *self.seats.entry(lineup.label(p)).or_default() += 1;
        }
        if let Some(Outcome::Win { winner, .. }) = &record.outcome {
            let label = lineup.label(winner.index());
            *self.wins.entry(label.clone()).or_default() += 1;
            *self.scores.entry(label).or_default() += 1.0;
            return None;
        }
        let playing: Vec<usize> = (0..players)
            .filter(|&p| !record.checkmates.iter().any(|c| c.victim.index() == p))
            .collect();
        for &p in &playing {
            *self.scores.entry(lineup.label(p)).or_default() += 1.0 / playing.len() as f64;
        }
        let leader = record.leader.filter(|_| record.outcome.is_none())?;
        *self.leads.entry(lineup.label(leader.index())).or_default() += 1;
        Some(leader.index())
    }

    fn print(&self, players: usize) {
        for (name, games) in &self.seats {
            let score = self.scores.get(name).copied().unwrap_or(0.0);
            panoply::outln!(
                "  engine {name}: {} wins, ahead in {} unfinished games, from {games} army-games; \
                 score {score:.2} = {:.1}% (equal play: {:.1}%)",
                self.wins.get(name).copied().unwrap_or(0),
                self.leads.get(name).copied().unwrap_or(0),
                100.0 * score / *games as f64,
                100.0 / players as f64
            );
        }
    }
}

/// The Armies of Faith measurements gathered over the games (`--mobility`, `--fit-values`).
#[derive(Default)]
struct Measurements {
    occupancies: Vec<Wide>,
    value_samples: Vec<ValueSample>,
}

impl Measurements {
    fn add(
        &mut self,
        o: &SelfplayArgs,
        t: &Arc<Tables<Wide>>,
        record: &Record,
        g: usize,
    ) -> Result<(), Failure> {
        if !o.mobility && !o.fit_values {
            return Ok(());
        }
        let positions = sampled_positions(o.new_game(t, g)?, &record.moves, o.random_opening);
        self.occupancies
            .extend(positions.iter().map(|p| p.occupied));
        if o.fit_values {
            self.value_samples
                .extend(positions.iter().flat_map(|p| value_samples(p, record)));
        }
        Ok(())
    }

    fn print(&self, o: &SelfplayArgs, t: &Arc<Tables<Wide>>) -> Result<(), Failure> {
        if o.mobility {
            panoply::out!("{}", mobility_report(t, &self.occupancies));
        }
        if o.fit_values {
            panoply::out!(
                "{}",
                fit_report(t, &o.new_game(t, 0)?.pos, &self.value_samples)
            );
        }
        Ok(())
    }
}

fn run_multi_player(t: &Arc<Tables<Wide>>, o: &SelfplayArgs) -> Result<(), Failure> {
    let players = t.players();
    let mut lineup = Lineup::new(o, players)?;
    o.new_game(t, 0)?;
    let eval = Eval::new(t);
    let mut scores = EngineScores::default();
    let mut measurements = Measurements::default();
    let mut tally = Tally::default();
    let mut depths = DepthTally::new(players);
    let start = Instant::now();
    for g in 0..o.games {
        let record = play(
            o.new_game(t, g)?,
            &eval,
            &lineup.config(o),
            o.schedule(g).seed,
            &mut |game, result| depths.add(game.pos.side.index(), result.depth),
        );
        print_game_line(t, &lineup, &mut tally, &mut scores, &record, g, o.max_plies);
        o.print_moves(&record);
        measurements.add(o, t, &record, g)?;
        if o.rotate {
            lineup.engines.rotate_right(1);
        }
    }
    tally.print(start.elapsed().as_secs_f64());
    scores.print(players);
    if o.depths {
        depths.print(&t.variant.armies);
    }
    measurements.print(o, t)
}

/// The positions of an opening suite for the variant, in the file's order.
fn read_starts(path: &Path, tables: &AnyTables) -> Result<Vec<String>, Failure> {
    let mut suite = Suite::default();
    suite.add_text(&super::read_text(path)?, &path.display().to_string())?;
    let starts = suite.positions(tables);
    if starts.is_empty() {
        return Err(Failure(format!(
            "{}: no position for {}",
            path.display(),
            tables.variant().name
        )));
    }
    Ok(starts)
}

/// The depth of the last finished iteration of every searched move, per army in turn order.
struct DepthTally {
    per_army: Vec<Vec<u32>>,
}

impl DepthTally {
    fn new(players: usize) -> DepthTally {
        DepthTally {
            per_army: vec![Vec::new(); players],
        }
    }

    /// Counts a move's depth; depth 0 is a move played without a search (the only legal
    /// one), which says nothing about the budget.
    fn add(&mut self, army: usize, depth: u32) {
        if depth > 0 {
            self.per_army[army].push(depth);
        }
    }

    /// A line per army and one for all: median, mean and the number of moves.
    fn print(&self, names: &[String]) {
        let all: Vec<u32> = self.per_army.concat();
        for (name, depths) in names
            .iter()
            .zip(&self.per_army)
            .chain([(&"all".into(), &all)])
        {
            let line = match depth_summary(depths) {
                Some((median, mean)) => {
                    format!("median {median} mean {mean:.2} over {} moves", depths.len())
                }
                None => "no searched move".into(),
            };
            panoply::outln!("  depth {name}: {line}");
        }
    }
}

/// The median (the mean of the middle two of an even count) and the mean of `depths`.
fn depth_summary(depths: &[u32]) -> Option<(f64, f64)> {
    if depths.is_empty() {
        return None;
    }
    let mut sorted = depths.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    let median = f64::from(sorted[(n - 1) / 2] + sorted[n / 2]) / 2.0;
    let mean = sorted.iter().map(|&d| f64::from(d)).sum::<f64>() / n as f64;
    Some((median, mean))
}

/// Counts game `g` and prints its line: the result, the leader of an unfinished game, the
/// checkmates and the engines in their seats.
fn print_game_line(
    t: &Tables<Wide>,
    lineup: &Lineup,
    tally: &mut Tally,
    scores: &mut EngineScores,
    record: &Record,
    g: usize,
    cap: usize,
) {
    let names = &t.variant.armies;
    let seat = |p: usize| format!("{} ({})", names[p], lineup.label(p));
    let text = tally.add(record, seat, cap);
    let ahead = scores
        .add(lineup, record)
        .map_or(String::new(), |p| format!(", {} ahead", seat(p)));
    let mates: Vec<String> = record
        .checkmates
        .iter()
        .map(|c| {
            format!(
                "{}x{}@{}",
                names[c.by.index()],
                names[c.victim.index()],
                c.ply
            )
        })
        .collect();
    panoply::outln!(
        "game {}: {text} after {} plies{ahead}; checkmates: {}; engines: {}",
        g + 1,
        record.plies,
        if mates.is_empty() {
            "none".into()
        } else {
            mates.join(" ")
        },
        lineup.labels()
    );
}
