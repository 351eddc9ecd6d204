//! Other programs' conventions that Panoply must speak: the piece letters and variant names
//! another engine uses for games Panoply knows under its own names. Both the engine side
//! (protocols) and the tournament referee (`panoply match`) translate through this module, so
//! each fact is written down once.

pub mod fairy_stockfish;
pub mod fairymax;
