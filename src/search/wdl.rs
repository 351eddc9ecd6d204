//! Win/draw/loss expectations from a search score (`UCI_ShowWDL`). The model is the
//! usual two-sided logistic: P(win) = 1/(1+exp(-(s-a)/b)), P(loss) = 1/(1+exp(-(-s-a)/b)),
//! P(draw) = the rest, with `s` the score in centipawns for the side to move.
//!
//! `a` and `b` were fitted by maximum likelihood (`scripts/wdl-fit.py`: a grid over a and
//! b, then a pattern search) to the scores and final results of 69,880 CwDA positions from
//! Panoply's own games (positions scored beyond ±2000 cp left out). Each family's descriptor
//! gives its fit; the other families have no fit of their own yet and give the CwDA one; see
//! docs/gui.md.

use super::Score;
use crate::games::{self, WdlFit};
use crate::variant::Variant;

/// The two parameters of the model, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// The score at which a win becomes as likely as not.
    a: f64,
    /// How quickly the odds change with the score.
    b: f64,
}

impl WdlModel {
    /// The model of `variant`'s family.
    pub fn for_variant(variant: &Variant) -> WdlModel {
        WdlModel::from(games::describe(variant.family).wdl)
    }

    /// Win, draw and loss per mille for the side to move; they add up to 1000.
    pub fn per_mille(self, score: Score) -> [u32; 3] {
        let cp = match score {
            Score::Cp(cp) => f64::from(cp),
            Score::Mate(n) if n > 0 => return [1000, 0, 0],
            Score::Mate(_) => return [0, 0, 1000],
        };
        let logistic = |x: f64| 1.0 / (1.0 + (-(x - self.a) / self.b).exp());
        let win = (1000.0 * logistic(cp)).round() as u32;
        let loss = (1000.0 * logistic(-cp)).round() as u32;
        let loss = loss.min(1000 - win);
        [win, 1000 - win - loss, loss]
    }
}

impl From<WdlFit> for WdlModel {
    fn from(fit: WdlFit) -> WdlModel {
        WdlModel { a: fit.a, b: fit.b }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_mille_adds_up_and_follows_the_score() {
        let m = WdlModel::for_variant(&games::by_name("chess").unwrap());
        let even = m.per_mille(Score::Cp(0));
        assert_eq!(even[0], even[2]);
        assert_eq!(even.iter().sum::<u32>(), 1000);
        // At s = a a win is as likely as not.
        assert_eq!(m.per_mille(Score::Cp(372))[0], 500);
        let ahead = m.per_mille(Score::Cp(300));
        assert!(ahead[0] > even[0] && ahead[2] < even[2]);
        assert_eq!(ahead.iter().sum::<u32>(), 1000);
        assert_eq!(m.per_mille(Score::Mate(3)), [1000, 0, 0]);
        assert_eq!(m.per_mille(Score::Mate(-2)), [0, 0, 1000]);
        assert_eq!(m.per_mille(Score::Cp(30000))[0], 1000);
    }
}
