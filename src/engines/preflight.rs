//! Before the first game: each engine is started once and asked whether it offers every
//! variant of the match, so a match never plays a game an engine does not know (an engine
//! told an unknown variant may play chess instead, and the referee would score its moves as
//! illegal).

use super::client::GameSetup;
use super::connect::connect;
use super::engine_config::EngineConfig;
use crate::game::AnyTables;
use crate::records::time_control::TimeControl;

/// The set-up of a game of the variant from its start.
fn setup_of(tables: &AnyTables, control: TimeControl) -> GameSetup {
    let v = tables.variant();
    GameSetup {
        variant: v.name.clone(),
        armies: v.armies.clone(),
        players: v.players(),
        start_position: v.session_start().to_string(),
        standard_start: true,
        control,
    }
}

/// Checks every engine against every variant; the first engine missing one gives the line
/// that stops the match, naming both. An engine that does not start is left to the games
/// (where it forfeits, as an engine that crashes mid-match does).
pub fn check_engines(
    engines: &[EngineConfig],
    tables: &[AnyTables],
    control: TimeControl,
) -> Result<(), String> {
    for cfg in engines {
        let mut client = match connect(cfg, &format!("check {}", cfg.name)) {
            Ok(client) => client,
            Err(e) => {
                log::warn!("{}: {e}; its games will tell", cfg.name);
                continue;
            }
        };
        let missing = tables.iter().find_map(|t| {
            let setup = setup_of(t, control);
            client
                .check_variant(&setup)
                .err()
                .map(|why| (setup.variant, why))
        });
        client.shut_down();
        if let Some((variant, why)) = missing {
            return Err(format!(
                "{} cannot play the match's {variant}: {why}",
                cfg.name
            ));
        }
    }
    Ok(())
}
