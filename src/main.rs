//! The `panoply` command line.

mod match_command;
mod selfplay;
mod tune_command;

use clap::{Parser, Subcommand};
use panoply::bitboard::BitSet;
use panoply::game::AnyTables;
use panoply::movegen::{cost, legal_moves, notation::format_move, perft, tables::Tables};
use panoply::position::{display::diagram, fen, Position};
use panoply::search::SearchOptions;
use panoply::with_tables;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

/// Without a subcommand, panoply speaks UCI or XBoard on stdin/stdout (the first command,
/// `uci` or `xboard`, decides).
#[derive(Parser)]
#[command(
    name = "panoply",
    version,
    about = "A chess-variant engine for chess with different armies"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree.
    Perft {
        depth: u32,
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Position string (default: the variant's start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count under each root move.
        #[arg(long)]
        divide: bool,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Print a board diagram and the legal moves.
    Show {
        #[arg(long, default_value = "chess")]
        variant: String,
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, separated by spaces.
        #[arg(long, default_value = "")]
        moves: String,
    },
    /// List every variant name this build knows.
    Variants,
    /// Play games between engine copies (any variant) and summarise how they ended.
    Selfplay(selfplay::Options),
    /// Measure perft and search speed on fixed positions of every supported game.
    Bench {
        /// Perft depth for the 2D games.
        #[arg(long, default_value_t = 5)]
        depth: u32,
        /// Perft depth for Armies of Faith (four players, 10x8x4).
        #[arg(long, default_value_t = 3)]
        aof_depth: u32,
        /// Perft depth for the Missionary cubic variants (6x6x8, drops).
        #[arg(long, default_value_t = 3)]
        missionary_depth: u32,
        /// Fixed search depth for the search bench (0 skips it).
        #[arg(long, default_value_t = 8)]
        search_depth: u32,
    },
    /// Search a position and print the progress and the best move.
    Search {
        #[arg(long, default_value = "chess")]
        variant: String,
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from the position first.
        #[arg(long, default_value = "")]
        moves: String,
        #[arg(long)]
        depth: Option<u32>,
        /// Time for the move in milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// A text shell for humans: moves, diagrams, engine moves (for 3D and four-player games).
    Shell {
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Position string (default: the variant's start position).
        #[arg(long)]
        fen: Option<String>,
        /// Search method for four-player games: paranoid | brs.
        #[arg(long)]
        method: Option<String>,
    },
    /// Run a tournament between engines, refereed by Panoply's rules.
    Match(match_command::MatchArgs),
    /// Build an opening book from an engine's analysis.
    Book(match_command::BookArgs),
    /// Generate a balanced opening suite for testing (positions a shallow search calls level).
    Openings(match_command::OpeningsArgs),
    /// Fit the evaluation's weights to recorded positions (Texel tuning); prints a weight file.
    Tune(tune_command::TuneArgs),
    /// Replace the scores of recorded positions with another engine's (for `tune --lambda 0`).
    Label(tune_command::LabelArgs),
    /// A board in the browser for every game: serves a page on 127.0.0.1 and prints its address.
    Serve {
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The game on the board at first (the page can change it).
        #[arg(long, default_value = "chess")]
        variant: String,
    },
}

/// A user-facing failure: printed as one line on stderr, exit code 2.
struct Failure(String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(e.to_string())
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft {
            depth,
            variant,
            fen,
            divide,
            threads,
        }) => run_perft(depth, &variant, fen.as_deref(), divide, threads),
        Some(Command::Show {
            variant,
            fen,
            moves,
        }) => run_show(&variant, fen.as_deref(), &moves),
        Some(Command::Selfplay(options)) => selfplay::run(options).map_err(Failure),
        Some(Command::Variants) => {
            panoply::games::names().iter().for_each(|n| println!("{n}"));
            Ok(())
        }
        Some(Command::Bench {
            depth,
            aof_depth,
            missionary_depth,
            search_depth,
        }) => run_bench(depth, aof_depth, missionary_depth)
            .and_then(|()| run_search_bench(search_depth)),
        Some(Command::Search {
            variant,
            fen,
            moves,
            depth,
            movetime,
            threads,
            hash,
        }) => run_search(
            &variant,
            fen.as_deref(),
            &moves,
            depth,
            movetime,
            SearchOptions {
                threads,
                hash_mb: hash,
                multi_pv: 1,
            },
        ),
        Some(Command::Shell {
            variant,
            fen,
            method,
        }) => run_shell(&variant, fen.as_deref(), method.as_deref()),
        Some(Command::Match(args)) => match_command::run_match_command(args).map_err(Failure),
        Some(Command::Book(args)) => match_command::run_book_command(args).map_err(Failure),
        Some(Command::Openings(args)) => match_command::run_openings_command(args).map_err(Failure),
        Some(Command::Tune(args)) => tune_command::run(args).map_err(Failure),
        Some(Command::Label(args)) => tune_command::run_label(args).map_err(Failure),
        Some(Command::Serve { port, variant }) => run_serve(port, &variant),
        None => {
            panoply::protocol::run();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(msg)) => {
            eprintln!("panoply: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run_serve(port: u16, variant: &str) -> Result<(), Failure> {
    let server = panoply::server::Server::bind(port, variant)?;
    let address = format!("http://{}/", server.addr());
    // One write, and a closed stdout (a launcher that read the address and went away) must
    // not stop the server: println! would panic on the broken pipe.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "panoply serve: open {address} in a browser (Ctrl-C stops the server)\n  \
         a game by its address: {address}?variant=aof5"
    )
    .and_then(|()| out.flush());
    drop(out);
    server.run();
    Ok(())
}

fn position<B: BitSet>(t: &Tables<B>, fen_text: Option<&str>) -> Result<Position<B>, Failure> {
    let text = fen_text.unwrap_or(&t.variant.start_position);
    fen::parse(t, text).map_err(|e| Failure(format!("bad position string: {e}")))
}

fn run_shell(variant: &str, fen_text: Option<&str>, method: Option<&str>) -> Result<(), Failure> {
    use panoply::search::multi_player::Method;
    let method = match method {
        None => Method::DEFAULT,
        Some(m) => Method::from_name(m)
            .ok_or_else(|| Failure(format!("unknown search method '{m}' (paranoid or brs)")))?,
    };
    let mut shell = panoply::shell::Shell::new(variant, fen_text, method)?;
    shell.run(std::io::stdin().lock(), std::io::stdout().lock())?;
    Ok(())
}

fn run_perft(
    depth: u32,
    variant: &str,
    fen_text: Option<&str>,
    divide: bool,
    threads: Option<usize>,
) -> Result<(), Failure> {
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global()?;
    }
    let tables = panoply::games::tables(variant)?;
    with_tables!(&tables, t => {
        let pos = position(t, fen_text)?;
        let start = Instant::now();
        let progress = std::io::stderr().is_terminal() && depth >= 5;
        let total = if divide || progress {
            let rows = perft::divide_with_progress(t, &pos, depth, progress);
            let mut rows: Vec<(String, u64)> = rows.into_iter().map(|(m, n)| (format_move(t, m), n)).collect();
            rows.sort();
            if divide {
                rows.iter().for_each(|(m, n)| println!("{m}: {n}"));
            }
            if depth == 0 { 1 } else { rows.iter().map(|(_, n)| n).sum() }
        } else {
            perft::perft_parallel(t, &pos, depth)
        };
        report_speed(total, start);
        println!("Nodes searched: {total}");
    });
    Ok(())
}

fn report_speed(nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.1} Mnodes/s",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
}

fn run_show(variant: &str, fen_text: Option<&str>, moves: &str) -> Result<(), Failure> {
    let tables = panoply::games::tables(variant)?;
    with_tables!(&tables, t => {
        let start = fen_text.unwrap_or(&t.variant.start_position);
        let mut game = panoply::game::Game::from_position_string(t.clone(), start)
            .map_err(|e| Failure(format!("bad position string: {e}")))?;
        for mv in moves.split_whitespace() {
            game.play_str(mv)?;
        }
        let pos = game.pos;
        print!("{}", diagram(t, &pos));
        println!("{}", fen::format(t, &pos));
        let mut moves: Vec<String> = legal_moves(t, &pos).iter().map(|&m| format_move(t, m)).collect();
        moves.sort();
        println!("{} legal moves: {}", moves.len(), moves.join(" "));
    });
    Ok(())
}

/// The 2D start positions timed by `panoply bench`, covering every army on both sides.
const BENCH_PAIRINGS: [&str; 4] = [
    "chess",
    "cwda-clobberers-nutty",
    "cwda-rookies-fide",
    "cwda-nutty-rookies",
];

/// A timed count: nodes (or whatever the section counts), wall-clock seconds and, where the
/// system tells, CPU seconds of the process.
#[derive(Clone, Copy, Default)]
struct Timed {
    nodes: u64,
    secs: f64,
    cpu_secs: Option<f64>,
}

impl Timed {
    /// An empty total to `add` runs to.
    fn zero() -> Timed {
        Timed {
            cpu_secs: Some(0.0),
            ..Timed::default()
        }
    }
    fn run(f: impl FnOnce() -> u64) -> Timed {
        let cpu_start = process_cpu_seconds();
        let start = Instant::now();
        let nodes = f();
        let secs = start.elapsed().as_secs_f64();
        let cpu_secs = cpu_start.zip(process_cpu_seconds()).map(|(a, b)| b - a);
        Timed {
            nodes,
            secs,
            cpu_secs,
        }
    }
    fn add(&mut self, o: Timed) {
        self.nodes += o.nodes;
        self.secs += o.secs;
        self.cpu_secs = self.cpu_secs.zip(o.cpu_secs).map(|(a, b)| a + b);
    }
    fn mnps(self) -> f64 {
        self.nodes as f64 / self.secs.max(1e-9) / 1e6
    }
    /// Nodes per CPU-second: the speed a single-threaded run would have on an idle core,
    /// which stays meaningful on a machine shared with other work.
    fn cpu_mnps(self) -> String {
        match self.cpu_secs {
            Some(c) if c > 0.0 => format!("{:.1}", self.nodes as f64 / c / 1e6),
            _ => "-".into(),
        }
    }
}

/// User plus system CPU time of this process (Linux `/proc`; `None` elsewhere). The kernel
/// reports it in clock ticks of 1/100 s on every mainstream Linux platform.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses): state is the first, utime the
    // 12th and stime the 13th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    Some((ticks(11)? + ticks(12)?) / 100.0)
}

/// `panoply bench`: one section per engine part, each printing its own lines.
fn run_bench(depth: u32, aof_depth: u32, missionary_depth: u32) -> Result<(), Failure> {
    bench_perft(depth)?;
    bench_perft_3d(aof_depth, missionary_depth)?;
    Ok(())
}

/// Perft on the CwDA start positions, single-threaded (the engine's raw speed) and with all
/// worker threads (how the parallel perft scales), as a ratio measured in the same run.
fn bench_perft(depth: u32) -> Result<(), Failure> {
    let threads = rayon::current_num_threads();
    println!(
        "perft {depth} on start positions: 1 thread (and per CPU-second), then {threads} threads"
    );
    let (mut single, mut parallel) = (Timed::zero(), Timed::zero());
    for name in BENCH_PAIRINGS {
        let tables = panoply::games::tables(name)?;
        with_tables!(&tables, t => {
            let pos = position(t, None)?;
            let one = Timed::run(|| perft::perft(t, &pos, depth));
            let all = Timed::run(|| perft::perft_parallel(t, &pos, depth));
            if one.nodes != all.nodes {
                return Err(Failure(format!(
                    "{name}: parallel perft counted {} nodes, single-threaded {}",
                    all.nodes, one.nodes
                )));
            }
            println!(
                "  {name:<24} {:>12} nodes {:>8.1} Mnps ({:>5} cpu) {:>8.1} Mnps",
                one.nodes,
                one.mnps(),
                one.cpu_mnps(),
                all.mnps()
            );
            single.add(one);
            parallel.add(all);
        });
    }
    println!(
        "  {:<24} {:>12} nodes {:>8.1} Mnps ({:>5} cpu) {:>8.1} Mnps (x{:.2} with {threads} threads)",
        "total",
        single.nodes,
        single.mnps(),
        single.cpu_mnps(),
        parallel.mnps(),
        single.secs / parallel.secs.max(1e-9)
    );
    Ok(())
}

/// The 3D games, single-threaded: Armies of Faith (a 320-cell board, three opponents per
/// legality test) and the Missionary cubic variants (288 cells, 27 piece kinds, drops); then
/// the cost per generated move in 3D against 2D, measured in alternating rounds.
fn bench_perft_3d(aof_depth: u32, missionary_depth: u32) -> Result<(), Failure> {
    let cubic = [
        ("aof5", aof_depth),
        ("missionary", missionary_depth),
        ("missiogi", missionary_depth),
        ("frontofhouse", missionary_depth),
    ];
    for (name, depth) in cubic {
        let tables = panoply::games::tables(name)?;
        with_tables!(&tables, t => {
            let pos = position(t, None)?;
            let one = Timed::run(|| perft::perft(t, &pos, depth));
            println!(
                "  {name:<24} perft {depth} {:>12} nodes {:>8.1} Mnps ({:>5} cpu)",
                one.nodes,
                one.mnps(),
                one.cpu_mnps()
            );
        });
    }
    let (chess, cube) = generation_costs("chess", "missionary")?;
    println!(
        "move generation per generated move: chess {chess:.1} ns, missionary {cube:.1} ns, \
         3D/2D ratio {:.2}",
        cube / chess
    );
    Ok(())
}

/// One round of move generation over a variant's sample positions, adding to a cost.
type GenerationRound = Box<dyn FnMut(&mut cost::Cost)>;

/// Nanoseconds per generated legal move of two variants, on positions from random games of
/// each, measured in alternating rounds.
fn generation_costs(a: &str, b: &str) -> Result<(f64, f64), Failure> {
    let (ta, tb) = (panoply::games::tables(a)?, panoply::games::tables(b)?);
    let samples = |any: &AnyTables| -> Result<GenerationRound, Failure> {
        Ok(with_tables!(any, t => {
            let t = t.clone();
            let start = position(&t, None)?;
            let positions = cost::sample_positions(&t, &start, 16, 40, 0xC0575);
            Box::new(move |c: &mut cost::Cost| cost::generation_round(&t, &positions, c))
        }))
    };
    let (mut run_a, mut run_b) = (samples(&ta)?, samples(&tb)?);
    let (mut ca, mut cb) = (cost::Cost::default(), cost::Cost::default());
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < 2.0 {
        run_a(&mut ca);
        run_b(&mut cb);
    }
    Ok((ca.nanos_per_move(), cb.nanos_per_move()))
}

fn run_search_bench(depth: u32) -> Result<(), Failure> {
    if depth == 0 {
        return Ok(());
    }
    let lines = panoply::search::bench::run(depth).map_err(Failure)?;
    let (mut nodes, mut secs) = (0u64, 0f64);
    for l in &lines {
        println!(
            "{:<28} search depth {depth} {:>12} nodes {:>8.0} knps",
            l.variant,
            l.nodes,
            l.nodes as f64 / l.time.as_secs_f64().max(1e-9) / 1e3
        );
        nodes += l.nodes;
        secs += l.time.as_secs_f64();
    }
    let nps = (nodes as f64 / secs.max(1e-9)) as u64;
    println!("search total {nodes} nodes {nps} nps");
    // The two closing lines in the form OpenBench and fishtest-style workers read.
    println!("Nodes searched: {nodes}");
    println!("Nodes/second: {nps}");
    Ok(())
}

fn run_search(
    variant: &str,
    fen_text: Option<&str>,
    moves: &str,
    depth: Option<u32>,
    movetime: Option<u64>,
    options: SearchOptions,
) -> Result<(), Failure> {
    use panoply::game::Game;
    use panoply::search::{Info, Limits, Score, Searcher};
    let tables = panoply::games::tables(variant)?;
    with_tables!(&tables, t => {
        let mut game = match fen_text {
            Some(f) => Game::from_position_string(t.clone(), f)?,
            None => Game::new(t.clone()),
        };
        for m in moves.split_whitespace() {
            game.play_str(m)?;
        }
        let mut searcher = Searcher::new(t.clone(), options);
        let limits = Limits {
            depth,
            movetime: movetime.map(std::time::Duration::from_millis),
            ..Limits::default()
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let show = |s: Score| match s {
            Score::Cp(c) => format!("cp {c}"),
            Score::Mate(m) => format!("mate {m}"),
        };
        let result = searcher.search(&game, &limits, &stop, &mut |i: &Info| {
            let pv: Vec<String> = i.pv.iter().map(|&m| game.format_move(m)).collect();
            println!(
                "depth {} seldepth {} score {} nodes {} time {} pv {}",
                i.depth, i.seldepth, show(i.score), i.nodes, i.time.as_millis(), pv.join(" ")
            );
        });
        match result.best {
            Some(m) => println!("bestmove {} ({})", game.format_move(m), show(result.score)),
            None => println!("no legal move ({})", show(result.score)),
        }
    });
    Ok(())
}
