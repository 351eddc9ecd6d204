//! The records of games, whoever plays them: PGN written and read back ([`pgn`],
//! [`pgn_reader`]), a played game ([`record`]), opening books ([`book`]) and suites
//! ([`openings`]), time controls ([`time_control`]), and the rules behind an object-safe
//! interface that replays and checks their moves ([`board`]). The tournament, the protocols'
//! own book, the browser board, the data generator and the labeller use them.

pub mod board;
pub mod book;
pub mod openings;
pub mod pgn;
pub mod pgn_reader;
pub mod record;
pub mod time_control;
