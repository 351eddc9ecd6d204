//! `panoply selfplay`: engine copies play any variant against themselves — one searcher per
//! side in two-player games, one per army (with its own search method) in four-player games.
//! Prints one line per game (result, the rule that ended it, length) and a summary.

use clap::Args;
use panoply::bitboard::BitSet;
use panoply::game::{AnyTables, Game, Outcome};
use panoply::games::aof5::eval::Eval;
use panoply::movegen::tables::Tables;
use panoply::search::multi_player::{Method, MultiLimits};
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
    /// Four-player games: rotate the methods by one army after every game, so each seat
    /// sees each method.
    #[arg(long)]
    pub rotate: bool,
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
    if o.depth.is_none() && o.nodes.is_none() && o.movetime.is_none() {
        return Err("give a budget per move: --nodes, --depth or --movetime".into());
    }
    let tables = AnyTables::by_name(&o.variant).map_err(|e| e.to_string())?;
    if tables.variant().players() == 2 {
        if o.methods.is_some() || o.rotate {
            return Err("--methods and --rotate apply to four-player games only".into());
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

fn run_multi_player(t: &Arc<Tables<panoply::bitboard::Wide>>, o: &Options) -> Result<(), String> {
    let players = t.players();
    let mut methods = parse_methods(o.methods.as_deref().unwrap_or(DEFAULT_METHODS), players)?;
    let limits = MultiLimits {
        depth: o.depth,
        nodes: o.nodes,
        movetime: o.movetime.map(Duration::from_millis),
        ..MultiLimits::default()
    };
    o.new_game(t)?;
    let eval = Eval::new(t);
    let names = &t.variant.armies;
    let mut wins: BTreeMap<&str, usize> = BTreeMap::new();
    let mut leads: BTreeMap<&str, usize> = BTreeMap::new();
    let mut seats: BTreeMap<&str, usize> = BTreeMap::new();
    let mut tally = Tally::default();
    let start = Instant::now();
    for g in 0..o.games {
        let config = SelfPlay {
            methods: methods.clone(),
            limits,
            max_plies: o.max_plies,
            random_opening: o.random_opening,
        };
        let record = play(o.new_game(t)?, &eval, &config, o.schedule(g).seed);
        for m in &methods {
            *seats.entry(m.name()).or_default() += 1;
        }
        let seat = |p: usize| format!("{} ({})", names[p], methods[p].name());
        let text = tally.add(&record, seat, o.max_plies);
        let mut ahead = String::new();
        match (&record.outcome, record.leader) {
            (Some(Outcome::Win { winner, .. }), _) => {
                *wins.entry(methods[winner.index()].name()).or_default() += 1;
            }
            (None, Some(p)) => {
                *leads.entry(methods[p.index()].name()).or_default() += 1;
                ahead = format!(", {} ahead", seat(p.index()));
            }
            _ => {}
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
            "game {}: {text} after {} plies{ahead}; checkmates: {}; methods: {}",
            g + 1,
            record.plies,
            if mates.is_empty() {
                "none".into()
            } else {
                mates.join(" ")
            },
            methods
                .iter()
                .map(|m| m.name())
                .collect::<Vec<_>>()
                .join(",")
        );
        o.print_moves(&record);
        if o.rotate {
            methods.rotate_right(1);
        }
    }
    tally.print(start.elapsed().as_secs_f64());
    for m in Method::ALL {
        println!(
            "  method {}: {} wins, ahead in {} unfinished games, from {} army-games",
            m.name(),
            wins.get(m.name()).copied().unwrap_or(0),
            leads.get(m.name()).copied().unwrap_or(0),
            seats.get(m.name()).copied().unwrap_or(0)
        );
    }
    Ok(())
}
