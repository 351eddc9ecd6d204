//! The integration tests in one test binary, one module per concern: the engine is linked and
//! optimised across crates once instead of once per file, which was most of the build time of
//! a clean `cargo test --release`. Run one concern with a filter: `cargo test --release
//! --test integration serve_api::`.

mod common;
mod fuzz_input;
mod missionary_reference;
mod protocol_common;
mod reference;
#[path = "common/rng.rs"]
mod rng;

mod aof5;
mod aof5_eval;
mod aof5_events;
mod aof5_reference;
mod aof5_search;
mod aof5_uci;
mod armies;
mod cli;
mod cluster;
mod cyclical_rules;
mod datagen;
mod differential_2d;
mod evasions;
mod first_minutes;
mod fuzz_protocols;
mod fuzz_shell_cli;
mod game_end_swda_cyclical;
mod game_state;
mod label;
mod layers;
mod manifest;
#[path = "match.rs"]
mod matches;
mod missionary_differential;
mod missionary_play;
mod missionary_rules;
mod nnue;
mod options;
mod own_book;
mod perft_reference;
mod quick_legality;
mod reliability;
mod search_swda_cyclical;
mod selfplay;
mod serve_api;
mod serve_hostile;
mod serve_process;
mod serve_token;
mod shard;
mod shell;
mod swda_rules;
mod time_management;
mod train_cli;
mod uci_protocol;
mod uci_variants;
mod xboard_ponder;
mod xboard_protocol;
mod xboard_variants;
