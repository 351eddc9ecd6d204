//! Starting an engine in the protocol its definition names.

use super::client::EngineClient;
use super::engine_config::{EngineConfig, Protocol};
use super::process::EngineError;
use super::{uci::UciClient, xboard::XboardClient};

/// Starts the engine and completes its protocol handshake.
pub fn connect(cfg: &EngineConfig, label: &str) -> Result<Box<dyn EngineClient>, EngineError> {
    Ok(match cfg.protocol {
        Protocol::Uci => Box::new(UciClient::start(cfg, label)?),
        Protocol::Xboard => Box::new(XboardClient::start(cfg, label)?),
    })
}
