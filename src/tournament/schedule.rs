//! Who plays whom: round robin (every pair of engines) or gauntlet (the first engine against
//! each of the others), for every variant, `games` games per pair and variant.
//!
//! Seats alternate within a pair: in its game g (0-based) seat s belongs to engine
//! `[a, b][(s + g) % 2]`, so two-player games alternate colours and four-player games sit
//! a b a b, then b a b a. Games 2k and 2k+1 of a pair share an opening (`opening_round` k), and
//! every pair uses the same opening in the same round, so each engine meets the same positions
//! with both colours. Games are ordered round by round, so a match stopped early is balanced.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    RoundRobin,
    Gauntlet,
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s.to_ascii_lowercase().as_str() {
            "roundrobin" | "round-robin" | "rr" => Ok(Mode::RoundRobin),
            "gauntlet" => Ok(Mode::Gauntlet),
            other => Err(format!("unknown mode '{other}' (roundrobin or gauntlet)")),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Mode::RoundRobin => "round robin",
            Mode::Gauntlet => "gauntlet",
        })
    }
}

/// One scheduled game before its opening is chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// 1-based.
    pub number: usize,
    pub variant: usize,
    pub seats: Vec<usize>,
    pub opening_round: usize,
}

/// The pairs of engines that meet.
pub fn encounters(engines: usize, mode: Mode) -> Vec<(usize, usize)> {
    match mode {
        Mode::RoundRobin => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
        Mode::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
    }
}

/// The games of a match. `players[v]` is the seat count of variant v.
pub fn schedule(engines: usize, mode: Mode, players: &[usize], games: usize) -> Vec<Slot> {
    let pairs = encounters(engines, mode);
    let mut slots = Vec::new();
    for round in 0..games.div_ceil(2) {
        for (v, &seats) in players.iter().enumerate() {
            for &(a, b) in &pairs {
                for g in [2 * round, 2 * round + 1] {
                    if g >= games {
                        continue;
                    }
                    slots.push(Slot {
                        number: slots.len() + 1,
                        variant: v,
                        seats: (0..seats).map(|s| [a, b][(s + g) % 2]).collect(),
                        opening_round: round,
                    });
                }
            }
        }
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet_pairs() {
        assert_eq!(
            encounters(3, Mode::RoundRobin),
            vec![(0, 1), (0, 2), (1, 2)]
        );
        assert_eq!(encounters(3, Mode::Gauntlet), vec![(0, 1), (0, 2)]);
        assert!(encounters(1, Mode::RoundRobin).is_empty());
    }

    #[test]
    fn colours_alternate_and_openings_pair_up() {
        let s = schedule(2, Mode::RoundRobin, &[2], 3);
        let seats: Vec<Vec<usize>> = s.iter().map(|x| x.seats.clone()).collect();
        assert_eq!(seats, vec![vec![0, 1], vec![1, 0], vec![0, 1]]);
        assert_eq!(
            s.iter().map(|x| x.opening_round).collect::<Vec<_>>(),
            vec![0, 0, 1]
        );
        assert_eq!(
            s.iter().map(|x| x.number).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
    }

    #[test]
    fn four_seats_alternate_two_engines() {
        let s = schedule(2, Mode::RoundRobin, &[4], 2);
        assert_eq!(s[0].seats, vec![0, 1, 0, 1]);
        assert_eq!(s[1].seats, vec![1, 0, 1, 0]);
    }

    #[test]
    fn rounds_cover_every_variant_and_pair() {
        let s = schedule(3, Mode::RoundRobin, &[2, 2], 4);
        assert_eq!(s.len(), 2 * 3 * 4);
        assert!(s[..12].iter().all(|x| x.opening_round == 0));
    }
}
