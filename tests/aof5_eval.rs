//! Armies of Faith evaluation: the start array evaluates level for every army (the seed
//! calls the armies "of equal size and similar strength"), and the reach the values start
//! from is measured with pieces in the way, which shortens slides and leaves leaps alone.

use crate::common;

use common::*;
use panoply::bitboard::{BitSet, Wide};
use panoply::game::Game;
use panoply::games::aof5::eval::{mean_mobility_among, Eval};
use panoply::games::aof5::pieces::{BISHOP, CAMEL, KNIGHT, METROPOLITAN, ROOK};
use panoply::piece::Player;

/// Each army's utility (its score less the mean of the others) at the start, in centipawns,
/// stays within this bound; before the fitted values it ranged from −1598 to +1303.
const LEVEL_START_BOUND: i32 = 60;

#[test]
fn the_start_array_is_level_for_every_army() {
    for variant in ["aof5", "aof5-raj"] {
        let t = tables(variant);
        let game = Game::new(t.clone());
        let eval = Eval::new(&t);
        for p in (0..4).map(Player) {
            let u = eval.utility(&t, &game.pos, p);
            assert!(
                u.abs() <= LEVEL_START_BOUND,
                "{variant}: {} utility {u}",
                t.variant.armies[p.index()]
            );
        }
    }
}

#[test]
fn pieces_in_the_way_shorten_slides_but_not_leaps() {
    let t = tables("aof5");
    let start = Game::new(t.clone()).pos.occupied;
    let empty = Wide::empty();
    for slider in [ROOK, BISHOP, METROPOLITAN] {
        let open = mean_mobility_among(&t, slider, &[empty]);
        let crowded = mean_mobility_among(&t, slider, &[start]);
        assert!(crowded < 0.8 * open, "{slider:?}: {crowded} of {open}");
    }
    for leaper in [KNIGHT, CAMEL] {
        let open = mean_mobility_among(&t, leaper, &[empty]);
        let crowded = mean_mobility_among(&t, leaper, &[start]);
        assert_eq!(crowded, open, "{leaper:?}");
    }
}
