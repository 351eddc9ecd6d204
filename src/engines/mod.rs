//! Other engines as child processes: their definition files ([`engine_config`]) and where a
//! named one is found ([`engine_lookup`]), a process with deadlines ([`process`]), what a
//! referee or labeller asks of an engine ([`client`]) in its protocol ([`uci`], [`xboard`]),
//! starting one ([`connect`]), and the check before a match that each offers its variants
//! ([`preflight`]).

pub mod client;
pub mod connect;
pub mod engine_config;
pub mod engine_lookup;
pub mod preflight;
pub mod process;
pub mod uci;
pub mod xboard;
