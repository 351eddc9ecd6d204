//! Who plays whom: round robin (every pair of engines) or gauntlet (the first engine against
//! each of the others), for every variant, `games` games per pair and variant.
//!
//! Seats alternate within a pair: in its game g (0-based) seat s belongs to engine
//! `[a, b][(s + g) % 2]`, so two-player games alternate colours and four-player games sit
//! a b a b, then b a b a. Games 2k and 2k+1 of a pair share an opening (`opening_round` k), and
//! every pair uses the same opening in the same round, so each engine meets the same positions
//! with both colours. Games are ordered round by round, so a match stopped early is balanced.
//!
//! A gauntlet of a game of n > 2 seats seats the candidate (the first engine) alone: in game
//! g of its encounter with b it holds seat g mod n and b holds the other n − 1, so over each n
//! games (one rotation, sharing an opening round) the candidate sits in every seat once.

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

/// Whether a match of `mode` seats the candidate alone in games of `seats` seats.
pub fn candidate_alone(mode: Mode, seats: usize) -> bool {
    mode == Mode::Gauntlet && seats > 2
}

/// Games of an encounter that share an opening round: a colour-swapped pair, or one
/// rotation of the candidate through every seat.
fn round_size(mode: Mode, seats: usize) -> usize {
    if candidate_alone(mode, seats) {
        seats
    } else {
        2
    }
}

/// Who sits where in game `g` of the encounter of engines a and b.
fn seating(mode: Mode, seats: usize, (a, b): (usize, usize), g: usize) -> Vec<usize> {
    if candidate_alone(mode, seats) {
        (0..seats)
            .map(|s| if s == g % seats { a } else { b })
            .collect()
    } else {
        (0..seats).map(|s| [a, b][(s + g) % 2]).collect()
    }
}

/// The games of a match. `players[v]` is the seat count of variant v.
pub fn schedule(engines: usize, mode: Mode, players: &[usize], games: usize) -> Vec<Slot> {
    let pairs = encounters(engines, mode);
    let rounds = players
        .iter()
        .map(|&seats| games.div_ceil(round_size(mode, seats)))
        .max()
        .unwrap_or(0);
    let mut slots = Vec::new();
    for round in 0..rounds {
        for (v, &seats) in players.iter().enumerate() {
            let size = round_size(mode, seats);
            for &pair in &pairs {
                for g in (size * round..size * (round + 1)).filter(|&g| g < games) {
                    slots.push(Slot {
                        number: slots.len() + 1,
                        variant: v,
                        seats: seating(mode, seats, pair, g),
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
    fn a_four_seat_gauntlet_rotates_the_candidate_through_every_seat() {
        let s = schedule(2, Mode::Gauntlet, &[4, 2], 8);
        let four: Vec<&Slot> = s.iter().filter(|x| x.variant == 0).collect();
        assert_eq!(four.len(), 8);
        assert_eq!(four[0].seats, vec![0, 1, 1, 1]);
        assert_eq!(four[1].seats, vec![1, 0, 1, 1]);
        assert_eq!(four[3].seats, vec![1, 1, 1, 0]);
        assert_eq!(four[4].seats, vec![0, 1, 1, 1]);
        for seat in 0..4 {
            assert_eq!(four.iter().filter(|x| x.seats[seat] == 0).count(), 2);
        }
        // One rotation shares an opening round; two-player games keep their pairs.
        let rounds: Vec<usize> = four.iter().map(|x| x.opening_round).collect();
        assert_eq!(rounds, vec![0, 0, 0, 0, 1, 1, 1, 1]);
        let two: Vec<&Slot> = s.iter().filter(|x| x.variant == 1).collect();
        assert_eq!(two.len(), 8);
        assert_eq!(two[1].seats, vec![1, 0]);
        assert_eq!(two[2].opening_round, 1);
        // Three engines: the candidate meets each of the others alone.
        let three = schedule(3, Mode::Gauntlet, &[4], 4);
        assert_eq!(three.len(), 8);
        assert_eq!(three[4].seats, vec![0, 2, 2, 2]);
        // A round robin still alternates two engines.
        assert_eq!(
            schedule(2, Mode::RoundRobin, &[4], 1)[0].seats,
            vec![0, 1, 0, 1]
        );
    }

    #[test]
    fn rounds_cover_every_variant_and_pair() {
        let s = schedule(3, Mode::RoundRobin, &[2, 2], 4);
        assert_eq!(s.len(), 2 * 3 * 4);
        assert!(s[..12].iter().all(|x| x.opening_round == 0));
    }
}
