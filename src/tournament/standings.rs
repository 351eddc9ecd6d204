//! The final table: points per engine, and the Elo difference of each engine against the rest
//! of the field with its 95% error bar, from pairwise results. In a game of more than two
//! seats every pair of seats held by different engines counts as one pairwise game (higher
//! score wins, equal scores draw); seats of the same engine are not compared.

use super::elo::{format_elo, Record};
use crate::records::record::{GameRecord, Termination};

#[derive(Clone, Debug, Default)]
pub struct EngineStanding {
    pub name: String,
    pub games: u32,
    pub points: f64,
    /// Pairwise results against other engines.
    pub pairwise: Record,
    /// Games this engine lost by illegal move, time, crash or hang.
    pub forfeits: u32,
}

/// Standings for `names.len()` engines from the finished games.
pub fn standings(names: &[String], games: &[GameRecord]) -> Vec<EngineStanding> {
    let mut table: Vec<EngineStanding> = names
        .iter()
        .map(|n| EngineStanding {
            name: n.clone(),
            ..Default::default()
        })
        .collect();
    for g in games {
        let seats = &g.spec.seats;
        let mut played: Vec<usize> = seats.clone();
        played.sort_unstable();
        played.dedup();
        for &e in &played {
            table[e].games += 1;
        }
        for (s, &e) in seats.iter().enumerate() {
            table[e].points += g.scores[s];
        }
        if let Some(s) = forfeiting_seat(g) {
            table[seats[s]].forfeits += 1;
        }
        for i in 0..seats.len() {
            for j in 0..seats.len() {
                if i == j || seats[i] == seats[j] {
                    continue;
                }
                let r = &mut table[seats[i]].pairwise;
                let (a, b) = (g.scores[i], g.scores[j]);
                if (a - b).abs() < 1e-9 {
                    r.draws += 1;
                } else if a > b {
                    r.wins += 1;
                } else {
                    r.losses += 1;
                }
            }
        }
    }
    table
}

/// The seat that lost by adjudication, if the game ended that way.
pub fn forfeiting_seat(g: &GameRecord) -> Option<usize> {
    match g.termination {
        Termination::RulesInfraction | Termination::TimeForfeit | Termination::Abandoned => {
            g.scores.iter().position(|&s| s == 0.0)
        }
        _ => None,
    }
}

/// The table as text, best first.
pub fn format_table(table: &[EngineStanding]) -> String {
    let mut rows: Vec<&EngineStanding> = table.iter().collect();
    rows.sort_by(|a, b| {
        let pa = a.points / a.games.max(1) as f64;
        let pb = b.points / b.games.max(1) as f64;
        pb.total_cmp(&pa)
    });
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(6).max(6);
    let mut out = format!(
        "{:>4}  {:<width$}  {:>5}  {:>6}  {:>6}  {:<18}  {:<14}  {:>8}\n",
        "Rank",
        "Engine",
        "Games",
        "Points",
        "Score",
        "Elo vs field (95%)",
        // Pairwise, not game pairs: in games of more than two seats it counts each opponent
        // beaten or not, so it is not the pentanomial's pairs of colour-swapped games.
        "Pairwise W-D-L",
        "Forfeits"
    );
    for (i, r) in rows.iter().enumerate() {
        let pct = 100.0 * r.points / r.games.max(1) as f64;
        let p = r.pairwise;
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>5}  {:>6.1}  {:>5.1}%  {:<18}  {:<14}  {:>8}\n",
            i + 1,
            r.name,
            r.games,
            r.points,
            pct,
            format_elo(p),
            format!("{}-{}-{}", p.wins, p.draws, p.losses),
            r.forfeits
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::record::GameSpec;

    fn game(seats: Vec<usize>, scores: Vec<f64>, termination: Termination) -> GameRecord {
        let n = seats.len();
        GameRecord {
            spec: GameSpec {
                number: 1,
                variant: "x".into(),
                seats,
                start: None,
                opening: vec![],
                pair: None,
            },
            engine_names: vec![String::new(); n],
            seat_names: vec![String::new(); n],
            seat_symbols: vec!['x'; n],
            start_position: String::new(),
            moves: vec![],
            scores,
            termination,
            reason: String::new(),
        }
    }

    #[test]
    fn two_player_points_and_pairs() {
        let names = vec!["A".to_string(), "B".to_string()];
        let games = vec![
            game(vec![0, 1], vec![1.0, 0.0], Termination::Normal),
            game(vec![1, 0], vec![0.5, 0.5], Termination::Normal),
            game(vec![0, 1], vec![0.0, 1.0], Termination::TimeForfeit),
        ];
        let t = standings(&names, &games);
        assert_eq!(t[0].games, 3);
        assert_eq!(t[0].points, 1.5);
        assert_eq!(
            t[0].pairwise,
            Record {
                wins: 1,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(t[0].forfeits, 1);
        assert_eq!(t[1].forfeits, 0);
        let text = format_table(&t);
        assert!(text.contains("A"));
        assert!(text.contains("+0.0 ± "), "{text}");
    }

    #[test]
    fn four_seats_two_engines() {
        let names = vec!["A".to_string(), "B".to_string()];
        // A holds seats 0 and 2; seat 0 wins.
        let g = game(
            vec![0, 1, 0, 1],
            vec![1.0, 0.0, 0.0, 0.0],
            Termination::Normal,
        );
        let t = standings(&names, &[g]);
        assert_eq!(t[0].games, 1);
        assert_eq!(t[0].points, 1.0);
        // pairs (0,1) (0,3) won, (2,1) (2,3) drawn
        assert_eq!(
            t[0].pairwise,
            Record {
                wins: 2,
                draws: 2,
                losses: 0
            }
        );
        assert_eq!(
            t[1].pairwise,
            Record {
                wins: 0,
                draws: 2,
                losses: 2
            }
        );
    }
}
