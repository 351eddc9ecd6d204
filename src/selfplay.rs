//! `panoply selfplay`: four engine copies play Armies of Faith against each other; prints
//! one line per game and a summary per search method.

use panoply::bitboard::Wide;
use panoply::game::{AnyTables, Game, Outcome};
use panoply::games::aof5::eval::Eval;
use panoply::search::multi_player::{Method, MultiLimits};
use panoply::search::selfplay::{play, SelfPlay};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

pub struct Options {
    pub variant: String,
    pub games: usize,
    pub methods: String,
    pub rotate: bool,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub movetime: Option<u64>,
    pub max_plies: usize,
    pub random_opening: usize,
    pub seed: u64,
}

fn parse_methods(s: &str) -> Result<Vec<Method>, String> {
    let methods: Vec<Method> = s
        .split(',')
        .map(|m| {
            Method::from_name(m.trim())
                .ok_or_else(|| format!("unknown search method '{m}' (paranoid or brs)"))
        })
        .collect::<Result<_, _>>()?;
    match methods.len() {
        1 => Ok(vec![methods[0]; 4]),
        4 => Ok(methods),
        n => Err(format!("give one method or four (one per army), not {n}")),
    }
}

pub fn run(o: Options) -> Result<(), String> {
    let tables = AnyTables::by_name(&o.variant).map_err(|e| e.to_string())?;
    let t = match tables {
        AnyTables::Wide(t) if t.players() == 4 => t,
        _ => {
            return Err(format!(
                "selfplay plays the four-player games (aof5, aof5-raj), not '{}'",
                o.variant
            ))
        }
    };
    let mut methods = parse_methods(&o.methods)?;
    let limits = MultiLimits {
        depth: o.depth,
        nodes: o.nodes,
        movetime: o.movetime.map(Duration::from_millis),
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        return Err("give a budget per move: --nodes, --depth or --movetime".into());
    }
    let eval = Eval::new(&t);
    let names = &t.variant.armies;
    let mut wins: BTreeMap<&str, usize> = BTreeMap::new();
    let mut leads: BTreeMap<&str, usize> = BTreeMap::new();
    let mut seats: BTreeMap<&str, usize> = BTreeMap::new();
    let mut endings: BTreeMap<String, usize> = BTreeMap::new();
    let (mut total_plies, mut total_nodes) = (0usize, 0u64);
    let start = Instant::now();
    for g in 0..o.games {
        let game: Game<Wide> = Game::new(t.clone());
        let config = SelfPlay {
            methods: methods.clone(),
            limits,
            max_plies: o.max_plies,
            random_opening: o.random_opening,
        };
        let record = play(game, &eval, &config, o.seed.wrapping_add(g as u64 * 0x9E37));
        total_plies += record.plies;
        total_nodes += record.nodes;
        for m in &methods {
            *seats.entry(m.name()).or_default() += 1;
        }
        let seat = |p: usize| format!("{} ({})", names[p], methods[p].name());
        let result = match &record.outcome {
            Some(Outcome::Win { winner, reason }) => {
                *wins.entry(methods[winner.index()].name()).or_default() += 1;
                *endings.entry(format!("win: {reason}")).or_default() += 1;
                format!("{} wins ({reason})", seat(winner.index()))
            }
            Some(Outcome::Draw { reason }) => {
                *endings.entry(format!("draw: {reason}")).or_default() += 1;
                format!("draw ({reason})")
            }
            None => {
                *endings
                    .entry("stopped at the ply limit".into())
                    .or_default() += 1;
                let leader = record.leader.map_or("nobody".to_string(), |p| {
                    *leads.entry(methods[p.index()].name()).or_default() += 1;
                    seat(p.index())
                });
                format!("stopped at the ply limit, {leader} ahead")
            }
        };
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
            "game {}: {result} after {} plies; checkmates: {}; methods c,p,i,b: {}",
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
        log::info!("moves: {}", record.moves.join(" "));
        if o.rotate {
            methods.rotate_right(1);
        }
    }
    println!(
        "{} games, {:.1} plies on average, {:.1} s, {} nodes",
        o.games,
        total_plies as f64 / o.games.max(1) as f64,
        start.elapsed().as_secs_f64(),
        total_nodes
    );
    for (ending, n) in &endings {
        println!("  {ending}: {n}");
    }
    for m in Method::ALL {
        println!(
            "  {}: {} wins, ahead in {} unfinished games, from {} army-games",
            m.name(),
            wins.get(m.name()).copied().unwrap_or(0),
            leads.get(m.name()).copied().unwrap_or(0),
            seats.get(m.name()).copied().unwrap_or(0)
        );
    }
    Ok(())
}
