//! The perft half of `panoply bench`: leaf counts of fixed start positions, timed, for the
//! 2D armies (one thread and all threads) and the 3D games (one thread), and the cost of one
//! generated move in 3D against 2D.

use super::timing::Timed;
use crate::bitboard::BitSet;
use crate::game::AnyTables;
use crate::games;
use crate::movegen::{cost, perft, tables::Tables};
use crate::position::{fen, Position};
use crate::with_tables;
use std::time::Instant;

/// The 2D start positions timed by `panoply bench`, covering every army on both sides.
pub const PAIRINGS: [&str; 4] = [
    "chess",
    "cwda-clobberers-nutty",
    "cwda-rookies-fide",
    "cwda-nutty-rookies",
];

/// Seconds of alternating generation rounds behind the 3D/2D cost ratio.
const GENERATION_SECONDS: f64 = 2.0;

/// A variant's start position, checked like a user's position string.
fn start_position<B: BitSet>(t: &Tables<B>) -> Result<Position<B>, String> {
    fen::parse(t, &t.variant.start_position).map_err(|e| format!("bad position string: {e}"))
}

fn tables(name: &str) -> Result<AnyTables, String> {
    games::tables(name).map_err(|e| e.to_string())
}

/// Perft on the CwDA start positions, single-threaded (the engine's raw speed) and with all
/// worker threads (how the parallel perft scales), as a ratio measured in the same run.
pub fn bench_2d(depth: u32, report: &dyn Fn(&str)) -> Result<(), String> {
    let threads = rayon::current_num_threads();
    report(&format!(
        "perft {depth} on start positions: 1 thread (and per CPU-second), then {threads} threads"
    ));
    let (mut single, mut parallel) = (Timed::zero(), Timed::zero());
    for name in PAIRINGS {
        let (one, all) = time_both_ways(name, depth)?;
        report(&format!(
            "  {name:<24} {:>12} nodes {:>8.1} Mnps ({:>5} cpu) {:>8.1} Mnps",
            one.nodes,
            one.mnps(),
            one.cpu_mnps(),
            all.mnps()
        ));
        single.add(one);
        parallel.add(all);
    }
    report(&format!(
        "  {:<24} {:>12} nodes {:>8.1} Mnps ({:>5} cpu) {:>8.1} Mnps (x{:.2} with {threads} threads)",
        "total",
        single.nodes,
        single.mnps(),
        single.cpu_mnps(),
        parallel.mnps(),
        single.secs / parallel.secs.max(1e-9)
    ));
    Ok(())
}

/// A start position's perft on one thread and on all, which must agree.
fn time_both_ways(name: &str, depth: u32) -> Result<(Timed, Timed), String> {
    with_tables!(&tables(name)?, t => {
        let pos = start_position(t)?;
        let one = Timed::run(|| perft::perft(t, &pos, depth));
        let all = Timed::run(|| perft::perft_parallel(t, &pos, depth));
        if one.nodes != all.nodes {
            return Err(format!(
                "{name}: parallel perft counted {} nodes, single-threaded {}",
                all.nodes, one.nodes
            ));
        }
        Ok((one, all))
    })
}

/// The 3D games, single-threaded: Armies of Faith (a 320-cell board, three opponents per
/// legality test) and the Missionary cubic variants (288 cells, 27 piece kinds, drops); then
/// the cost per generated move in 3D against 2D, measured in alternating rounds.
pub fn bench_3d(
    aof_depth: u32,
    missionary_depth: u32,
    report: &dyn Fn(&str),
) -> Result<(), String> {
    let cubic = [
        ("aof5", aof_depth),
        ("missionary", missionary_depth),
        ("missiogi", missionary_depth),
        ("frontofhouse", missionary_depth),
    ];
    for (name, depth) in cubic {
        let one = with_tables!(&tables(name)?, t => {
            let pos = start_position(t)?;
            Timed::run(|| perft::perft(t, &pos, depth))
        });
        report(&format!(
            "  {name:<24} perft {depth} {:>12} nodes {:>8.1} Mnps ({:>5} cpu)",
            one.nodes,
            one.mnps(),
            one.cpu_mnps()
        ));
    }
    let (chess, cube) = generation_costs("chess", "missionary")?;
    report(&format!(
        "move generation per generated move: chess {chess:.1} ns, missionary {cube:.1} ns, \
         3D/2D ratio {:.2}",
        cube / chess
    ));
    Ok(())
}

/// One round of move generation over a variant's sample positions, adding to a cost.
type GenerationRound = Box<dyn FnMut(&mut cost::Cost)>;

/// A variant's generation round on positions from random games (a fixed seed, so every run
/// times the same positions).
fn generation_round(name: &str) -> Result<GenerationRound, String> {
    Ok(with_tables!(&tables(name)?, t => {
        let t = t.clone();
        let start = start_position(&t)?;
        let positions = cost::sample_positions(&t, &start, 16, 40, 0xC0575);
        Box::new(move |c: &mut cost::Cost| cost::generation_round(&t, &positions, c))
    }))
}

/// Nanoseconds per generated legal move of two variants, on positions from random games of
/// each, measured in alternating rounds (so that both see the same machine load).
pub fn generation_costs(a: &str, b: &str) -> Result<(f64, f64), String> {
    let (mut run_a, mut run_b) = (generation_round(a)?, generation_round(b)?);
    let (mut ca, mut cb) = (cost::Cost::default(), cost::Cost::default());
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < GENERATION_SECONDS {
        run_a(&mut ca);
        run_b(&mut cb);
    }
    Ok((ca.nanos_per_move(), cb.nanos_per_move()))
}
