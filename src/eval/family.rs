//! What a game family gives the evaluation: its tuned weights and whether the terms that cost
//! a pass over every piece's reach start switched on. The family's descriptor fills one in
//! and hangs it on its `Family` value; a family without one gets the derived defaults.

use crate::variant::Family;

/// A family's part in the evaluation.
#[derive(Clone, Copy, Debug)]
pub struct FamilyEval {
    /// The tuned weight file compiled in for the family (`eval/weights/<family>.txt`); may be
    /// empty, and then the defaults apply.
    pub weights: &'static str,
    /// Whether mobility, threats and King attack start with their derived weights. Off for a
    /// board where they cost more speed than they are known to gain (a tuned weight file can
    /// still switch them on).
    pub activity: bool,
}

/// What a family that says nothing gets.
const DEFAULT: FamilyEval = FamilyEval {
    weights: "",
    activity: true,
};

/// The evaluation's part of `family`.
pub fn of(family: Family) -> &'static FamilyEval {
    family.data::<FamilyEval>().unwrap_or(&DEFAULT)
}
