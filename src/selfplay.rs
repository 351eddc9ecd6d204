//! `panoply selfplay`: engine copies play any variant against themselves — one searcher per
//! side in two-player games, one per army (with its own search method) in four-player games.
//! Prints one line per game (result, the rule that ended it, length) and a summary.

use clap::Args;
use panoply::bitboard::BitSet;
use panoply::game::{AnyTables, Game, Outcome};
use panoply::games::aof5::eval::Eval;
use panoply::games::aof5::fit::{fit_values, ValueSample, FIT_WEIGHTS};
use panoply::games::aof5::pieces::KIND_COUNT;
use panoply::movegen::tables::Tables;
use panoply::piece::{Kind, Player};
use panoply::position::Position;
use panoply::search::multi_player::{Method, MultiLimits, QUIESCENCE_CAPTURES};
use panoply::search::selfplay::{play, play_two_player, Record, Schedule, SelfPlay};
use panoply::search::{Limits, SearchOptions, Searcher};
use panoply::tune::data::{quiet_position, white_result, Sample, Seen};
use panoply::with_tables;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The four-player methods used when `--methods` is not given.
const DEFAULT_METHODS: &str = "paranoid,brs,paranoid,brs";

/// The ending reported for a game stopped by `--max-plies` (the only ending not decided by
/// the rules).
const PLY_CAP: &str = "ply cap";

#[derive(Args, Debug)]
pub struct Options {
    #[arg(long, default_value = "chess")]
    pub variant: String,
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Start every game from this position string (default: the variant's start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Node budget per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth limit per move (plies).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Time per move in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Games still running after this many plies stop without a result ("ply cap").
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Plies played at random at the start of each game, so that games differ.
    #[arg(long, default_value_t = 4)]
    pub random_opening: usize,
    /// Seed of the random opening moves (game N uses a seed derived from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Transposition table per engine copy in MB (two-player games).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Four-player games: search method per army in turn order (c,p,i,b), or one for all:
    /// paranoid | brs [default: paranoid,brs,paranoid,brs].
    #[arg(long)]
    pub methods: Option<String>,
    /// Four-player games: rotate the methods (and per-army budgets) by one army after every
    /// game, so each seat sees each engine.
    #[arg(long)]
    pub rotate: bool,
    /// Four-player games: after the games, the mean reach of every piece kind in the
    /// positions they passed through (every 8th ply after the random opening), against its
    /// reach on the empty board: the measurement behind the Armies of Faith piece values.
    #[arg(long)]
    pub mobility: bool,
    /// Four-player games: after the games, fit the Armies of Faith piece values to their
    /// results (positions every 8th ply after the random opening, labelled with how the
    /// game ended for each army) and print the fitted table.
    #[arg(long)]
    pub fit_values: bool,
    /// Four-player games: node budget per army in turn order (c,p,i,b), instead of --nodes.
    #[arg(long)]
    pub army_nodes: Option<String>,
    /// Four-player games: quiescence captures per army in turn order (c,p,i,b), or one for
    /// all [default: what the engine uses].
    #[arg(long)]
    pub captures: Option<String>,
    /// Print each game's moves on a line after the game's line, to replay or check it.
    #[arg(long)]
    pub moves: bool,
    /// Two-player games: append the quiet positions of every finished game, labelled with its
    /// result and the search's score, to this file (training data for `panoply tune`).
    #[arg(long)]
    pub record: Option<std::path::PathBuf>,
}

impl Options {
    /// A new game from the chosen start, checked once before any game is played.
    fn new_game<B: BitSet>(&self, t: &Arc<Tables<B>>) -> Result<Game<B>, String> {
        match &self.fen {
            Some(f) => Game::from_position_string(t.clone(), f)
                .map_err(|e| format!("bad position string: {e}")),
            None => Ok(Game::new(t.clone())),
        }
    }

    fn print_moves(&self, record: &Record) {
        if self.moves {
            println!("  moves: {}", record.moves.join(" "));
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
    path: std::path::PathBuf,
    file: std::io::BufWriter<std::fs::File>,
    written: usize,
}

impl Recorder {
    fn open(path: &std::path::Path) -> Result<Recorder, String> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: cannot open for writing: {e}", path.display()))?;
        Ok(Recorder {
            path: path.to_path_buf(),
            file: std::io::BufWriter::new(file),
            written: 0,
        })
    }

    /// Writes a game's positions with its result; a game without a result teaches nothing.
    fn write(&mut self, variant: &str, seen: &[Seen], result: Option<f64>) -> Result<(), String> {
        use std::io::Write;
        let Some(result) = result else {
            return Ok(());
        };
        for s in seen {
            let sample = Sample {
                variant: variant.to_string(),
                position: s.position.clone(),
                result,
                score: s.score,
            };
            writeln!(self.file, "{}", sample.to_line())
                .map_err(|e| format!("{}: {e}", self.path.display()))?;
        }
        self.written += seen.len();
        self.file
            .flush()
            .map_err(|e| format!("{}: {e}", self.path.display()))
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
        println!(
            "summary: {} games, {:.1} plies on average, {:.1} s, {} nodes",
            self.games,
            self.plies as f64 / self.games.max(1) as f64,
            secs,
            self.nodes
        );
        for (result, n) in &self.results {
            println!("  result {result}: {n}");
        }
        for (ending, n) in &self.endings {
            println!("  ending {ending}: {n}");
        }
    }
}

pub fn run(o: Options) -> Result<(), String> {
    if o.depth.is_none() && o.nodes.is_none() && o.movetime.is_none() && o.army_nodes.is_none() {
        return Err("give a budget per move: --nodes, --depth, --movetime or --army-nodes".into());
    }
    let tables = panoply::games::tables(&o.variant).map_err(|e| e.to_string())?;
    if tables.variant().players() == 2 {
        if o.methods.is_some()
            || o.rotate
            || o.army_nodes.is_some()
            || o.captures.is_some()
            || o.mobility
            || o.fit_values
        {
            return Err(
                "--methods, --rotate, --army-nodes, --captures, --mobility and \
                 --fit-values apply to four-player games only"
                    .into(),
            );
        }
        with_tables!(&tables, t => run_two_player(t, &o))
    } else if o.record.is_some() {
        Err("--record applies to two-player games only".into())
    } else {
        match tables {
            AnyTables::Wide(t) => run_multi_player(&t, &o),
            AnyTables::Narrow(_) => Err(format!(
                "no multi-player search for '{}' on a board this small",
                o.variant
            )),
        }
    }
}

fn run_two_player<B: BitSet>(t: &Arc<Tables<B>>, o: &Options) -> Result<(), String> {
    o.new_game(t)?;
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
    let name = |p: usize| ["white", "black"][p].to_string();
    let mut tally = Tally::default();
    let start = Instant::now();
    let mut recorder = o.record.as_deref().map(Recorder::open).transpose()?;
    for g in 0..o.games {
        searchers.iter_mut().for_each(Searcher::new_game);
        let mut seen = Vec::new();
        let record = play_two_player(
            o.new_game(t)?,
            &mut searchers,
            &limits,
            o.schedule(g),
            &mut |game, result| seen.extend(quiet_position(game, result)),
        );
        if let Some(r) = &mut recorder {
            r.write(&o.variant, &seen, white_result(&record.outcome))?;
        }
        let text = tally.add(&record, name, o.max_plies);
        println!("game {}: {text} after {} plies", g + 1, record.plies);
        o.print_moves(&record);
    }
    if let Some(r) = recorder {
        println!("recorded {} positions to {}", r.written, r.path.display());
    }
    tally.print(start.elapsed().as_secs_f64());
    Ok(())
}

fn parse_methods(s: &str, players: usize) -> Result<Vec<Method>, String> {
    let methods: Vec<Method> = s
        .split(',')
        .map(|m| {
            Method::from_name(m.trim())
                .ok_or_else(|| format!("unknown search method '{m}' (paranoid or brs)"))
        })
        .collect::<Result<_, _>>()?;
    match methods.len() {
        1 => Ok(vec![methods[0]; players]),
        n if n == players => Ok(methods),
        n => Err(format!(
            "give one method or {players} (one per army), not {n}"
        )),
    }
}

/// One army's engine in four-player self-play.
#[derive(Clone, Copy, Debug)]
struct ArmyEngine {
    method: Method,
    limits: MultiLimits,
}

impl ArmyEngine {
    /// The method, and the budget and quiescence where armies differ in them.
    fn label(&self, nodes_differ: bool, captures_differ: bool) -> String {
        let mut label = self.method.name().to_string();
        if nodes_differ {
            label += &format!(" {}n", self.limits.nodes.unwrap_or(0));
        }
        if captures_differ {
            label += &format!(" q{}", self.limits.capture_plies);
        }
        label
    }
}

/// A comma list with one entry per army, or one for all.
fn per_army<T: Copy>(
    s: &str,
    players: usize,
    what: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Vec<T>, String> {
    let items: Vec<T> = s
        .split(',')
        .map(|x| parse(x.trim()).ok_or_else(|| format!("bad {what} '{x}'")))
        .collect::<Result<_, _>>()?;
    match items.len() {
        1 => Ok(vec![items[0]; players]),
        n if n == players => Ok(items),
        n => Err(format!(
            "give one {what} or {players} (one per army), not {n}"
        )),
    }
}

fn run_multi_player(t: &Arc<Tables<panoply::bitboard::Wide>>, o: &Options) -> Result<(), String> {
    let players = t.players();
    let methods = parse_methods(o.methods.as_deref().unwrap_or(DEFAULT_METHODS), players)?;
    let nodes = match &o.army_nodes {
        Some(list) => per_army(list, players, "node budget", |x| x.parse::<u64>().ok())?
            .into_iter()
            .map(Some)
            .collect(),
        None => vec![o.nodes; players],
    };
    let captures = match &o.captures {
        Some(list) => per_army(list, players, "capture count", |x| x.parse::<u32>().ok())?,
        None => vec![QUIESCENCE_CAPTURES; players],
    };
    let mut engines: Vec<ArmyEngine> = (0..players)
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
    let nodes_differ = nodes.iter().any(|&n| n != nodes[0]);
    let captures_differ = captures.iter().any(|&c| c != captures[0]);
    let label = |e: &ArmyEngine| e.label(nodes_differ, captures_differ);
    o.new_game(t)?;
    let eval = Eval::new(t);
    let names = &t.variant.armies;
    // Per engine: wins, leads in unfinished games, army-games, and its score (a win 1, a
    // draw or an unfinished game shared by the armies still playing).
    let mut wins: BTreeMap<String, usize> = BTreeMap::new();
    let mut leads: BTreeMap<String, usize> = BTreeMap::new();
    let mut seats: BTreeMap<String, usize> = BTreeMap::new();
    let mut scores: BTreeMap<String, f64> = BTreeMap::new();
    let mut tally = Tally::default();
    let start = Instant::now();
    let mut occupancies = Vec::new();
    let mut value_samples = Vec::new();
    for g in 0..o.games {
        let config = SelfPlay {
            methods: engines.iter().map(|e| e.method).collect(),
            limits: engines.iter().map(|e| e.limits).collect(),
            max_plies: o.max_plies,
            random_opening: o.random_opening,
        };
        let record = play(o.new_game(t)?, &eval, &config, o.schedule(g).seed);
        for e in &engines {
            *seats.entry(label(e)).or_default() += 1;
        }
        let seat = |p: usize| format!("{} ({})", names[p], label(&engines[p]));
        let text = tally.add(&record, seat, o.max_plies);
        let mut ahead = String::new();
        match (&record.outcome, record.leader) {
            (Some(Outcome::Win { winner, .. }), _) => {
                *wins.entry(label(&engines[winner.index()])).or_default() += 1;
                *scores.entry(label(&engines[winner.index()])).or_default() += 1.0;
            }
            (outcome, leader) => {
                if let (None, Some(p)) = (outcome, leader) {
                    *leads.entry(label(&engines[p.index()])).or_default() += 1;
                    ahead = format!(", {} ahead", seat(p.index()));
                }
                let playing: Vec<usize> = (0..players)
                    .filter(|&p| !record.checkmates.iter().any(|c| c.victim.index() == p))
                    .collect();
                for &p in &playing {
                    *scores.entry(label(&engines[p])).or_default() += 1.0 / playing.len() as f64;
                }
            }
        }
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
        println!(
            "game {}: {text} after {} plies{ahead}; checkmates: {}; engines: {}",
            g + 1,
            record.plies,
            if mates.is_empty() {
                "none".into()
            } else {
                mates.join(" ")
            },
            engines.iter().map(label).collect::<Vec<_>>().join(",")
        );
        o.print_moves(&record);
        if o.mobility || o.fit_values {
            let positions = sampled_positions(o.new_game(t)?, &record.moves, o.random_opening);
            occupancies.extend(positions.iter().map(|p| p.occupied));
            if o.fit_values {
                value_samples.extend(positions.iter().flat_map(|p| value_samples_of(p, &record)));
            }
        }
        if o.rotate {
            engines.rotate_right(1);
        }
    }
    tally.print(start.elapsed().as_secs_f64());
    for (name, games) in &seats {
        let score = scores.get(name).copied().unwrap_or(0.0);
        println!(
            "  engine {name}: {} wins, ahead in {} unfinished games, from {games} army-games; \
             score {score:.2} = {:.1}% (equal play: {:.1}%)",
            wins.get(name).copied().unwrap_or(0),
            leads.get(name).copied().unwrap_or(0),
            100.0 * score / *games as f64,
            100.0 / players as f64
        );
    }
    if o.mobility {
        print_mobility(t, &occupancies);
    }
    if o.fit_values {
        print_fit(t, &o.new_game(t)?.pos, &value_samples);
    }
    Ok(())
}

/// Each army still playing in `pos`, with its material against the others and how the
/// game ended for it.
fn value_samples_of<B: BitSet>(pos: &Position<B>, record: &Record) -> Vec<ValueSample> {
    let playing: Vec<usize> = (0..4).filter(|&p| pos.is_alive(Player(p as u8))).collect();
    let at_end: Vec<usize> = (0..4)
        .filter(|&p| !record.checkmates.iter().any(|c| c.victim.index() == p))
        .collect();
    let counts = army_counts(pos);
    playing
        .iter()
        .map(|&p| {
            let mut difference = [0.0; KIND_COUNT];
            for (k, d) in difference.iter_mut().enumerate() {
                let others: f64 = playing
                    .iter()
                    .filter(|&&q| q != p)
                    .map(|&q| counts[q][k])
                    .sum();
                *d = counts[p][k] - others / (playing.len() - 1).max(1) as f64;
            }
            let result = match &record.outcome {
                Some(Outcome::Win { winner, .. }) => (winner.index() == p) as u8 as f64,
                _ if at_end.contains(&p) => 1.0 / at_end.len() as f64,
                _ => 0.0,
            };
            ValueSample {
                difference,
                playing: playing.len(),
                result,
            }
        })
        .collect()
}

/// Pieces per army and kind.
fn army_counts<B: BitSet>(pos: &Position<B>) -> [[f64; KIND_COUNT]; 4] {
    let mut counts = [[0.0; KIND_COUNT]; 4];
    for (p, army) in counts.iter_mut().enumerate() {
        for (k, c) in army.iter_mut().enumerate() {
            *c = pos.pieces(Player(p as u8), Kind(k as u8)).count() as f64;
        }
    }
    counts
}

/// Fits the piece values to the games' results and prints them with what they make of the
/// start position.
fn print_fit<B: BitSet>(t: &Tables<B>, start: &Position<B>, samples: &[ValueSample]) {
    use panoply::games::aof5::eval::prior_value;
    let mut prior = [0.0; KIND_COUNT];
    let mut free = [false; KIND_COUNT];
    for k in t.variant.kinds() {
        let def = t.variant.kind(k);
        prior[k.index()] = if def.royal { 0.0 } else { prior_value(k) };
        // Pawns and Yeomen stay at 100: the unit the other values are counted in.
        free[k.index()] = !def.royal && !def.pawn;
    }
    let counts = army_counts(start);
    let fit = fit_values(samples, &prior, &free, &counts, FIT_WEIGHTS);
    println!(
        "value fit over {} army-positions: scale {:.0}, mean squared error {:.5} with the \
         priors, {:.5} fitted",
        samples.len(),
        fit.scale,
        fit.error_before,
        fit.error_after
    );
    let start_total = |values: &[f64; KIND_COUNT], p: usize| -> f64 {
        counts[p].iter().zip(values).map(|(c, v)| c * v).sum()
    };
    for (p, name) in t.variant.armies.iter().enumerate() {
        println!(
            "  {name:<10} start material: prior {:.0}, fitted {:.0}",
            start_total(&prior, p),
            start_total(&fit.values, p)
        );
    }
    for k in t.variant.kinds() {
        println!(
            "  {:<13} prior {:5.0}  fitted {:5.0}",
            t.variant.kind(k).name,
            prior[k.index()],
            fit.values[k.index()]
        );
    }
    let table: Vec<String> = fit
        .values
        .iter()
        .map(|v| format!("{}", v.round() as i32))
        .collect();
    println!("  table: [{}]", table.join(", "));
}

/// Plies between two sampled positions: far enough apart to differ.
const SAMPLE_EVERY: usize = 8;

/// A game's positions every few plies after the random opening.
fn sampled_positions<B: BitSet>(
    mut game: Game<B>,
    moves: &[String],
    opening: usize,
) -> Vec<Position<B>> {
    let mut out = Vec::new();
    for (ply, m) in moves.iter().enumerate() {
        if ply >= opening && (ply - opening).is_multiple_of(SAMPLE_EVERY) {
            out.push(game.pos);
        }
        game.play_str(m).expect("a recorded move replays");
    }
    out
}

/// Each kind's mean reach on the empty board and in the sampled positions, and the
/// measured table as `games/aof5/eval.rs` holds it.
fn print_mobility<B: BitSet>(t: &Tables<B>, occupancies: &[B]) {
    use panoply::games::aof5::eval::mean_mobility_among;
    println!("mobility over {} sampled positions:", occupancies.len());
    let mut table = Vec::new();
    for k in t.variant.kinds() {
        let empty = mean_mobility_among(t, k, &[B::empty()]);
        let in_play = mean_mobility_among(t, k, occupancies);
        println!(
            "  {:<13} empty board {empty:6.2}  in play {in_play:6.2}",
            t.variant.kind(k).name
        );
        table.push(format!("{in_play:.2}"));
    }
    println!("  table: [{}]", table.join(", "));
}
