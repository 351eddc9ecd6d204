//! XBoard's blind spot for castling: a King whose moves are sent as XBetza (`piece K
//! KirO2ilO3`; we and Fairy-Max describe every castling King of an engine-defined variant so)
//! castles in XBoard's eyes whenever the cells up to its partner are empty. XBoard checks only
//! that the King does not *end* in check, not whether it stands in check or crosses an
//! attacked cell; so it can take a true checkmate or stalemate for a position with a legal
//! move, score the claim false and forfeit the engine that made it.

use crate::piece::Player;
use crate::session::Session;
use std::collections::HashMap;

/// Whether XBoard may see a castling for the side to move that our rules forbid: the side's
/// royal piece stands where one of its castlings starts, the partner cell holds a piece of
/// the same player, and the cells between are empty. (XBoard would also want the castled
/// King safe; leaving that out only errs towards `true`.)
pub fn xboard_may_see_castling(session: &Session) -> bool {
    let variant = session.variant();
    let side = session.side_to_move();
    let occupants: HashMap<(i32, i32), (Player, bool)> = session
        .pieces()
        .into_iter()
        .map(|(x, y, player, kind)| ((x, y), (player, variant.kind(kind).royal)))
        .collect();
    let at = |cell| {
        let (x, y, _) = variant.shape.coords(cell);
        occupants.get(&(x, y)).copied()
    };
    variant
        .castlings
        .iter()
        .filter(|c| c.player == side)
        .any(|c| {
            at(c.king_from) == Some((side, true))
                && at(c.partner_from).is_some_and(|(owner, _)| owner == side)
                && c.empty.iter().all(|&cell| at(cell).is_none())
        })
}
