//! The names of a position's families of positions — its pawn structure and its material —
//! that the evaluation computes and the search's correction history is indexed by.

/// A position's pawn-structure key and material key ([`super::Evaluator::correction_keys`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keys {
    pub pawns: u64,
    pub material: u64,
}
