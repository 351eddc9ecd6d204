//! The JSON API over the table: what each endpoint reads from its query or body and which
//! change of the game it asks for. Runs on a blocking thread (the game's lock and the file
//! it writes may wait); the HTTP side is [`super::http`].

use super::assets;
use super::clock::ClockSettings;
use super::error::ApiError;
use super::record::game_text;
use super::settings::{MAX_MOVETIME_MS, MAX_NODES};
use super::table::{Budget, Room, Seat, SeatLevel};
use super::view::{PlyView, TargetsView};
use crate::search::multi_player::Method;
use serde_json::{json, Value};
use std::sync::Arc;

pub enum Answer {
    Json(Value),
    File(&'static str, &'static str),
    Download(String, String),
}

pub fn get(room: &Arc<Room>, path: &str, query: &str) -> Result<Answer, ApiError> {
    if let Some((content_type, body)) = assets::file(path) {
        return Ok(Answer::File(content_type, body));
    }
    let param = |name: &str| query_param(query, name);
    Ok(Answer::Json(match path {
        "/api/state" => room.state(),
        "/api/variants" => json!(crate::games::names()),
        "/api/view" => {
            let ply = param("ply")
                .and_then(|p| p.parse::<usize>().ok())
                .ok_or_else(|| ApiError::BadRequest("expected ?ply=N".into()))?;
            room.visit(PlyView { ply })
                .ok_or(ApiError::NoSuchPly(ply))?
        }
        "/api/targets" => {
            let from =
                param("from").ok_or_else(|| ApiError::BadRequest("expected ?from=CELL".into()))?;
            room.visit(TargetsView { from: from.clone() })
                .ok_or_else(|| {
                    ApiError::BadRequest(format!("'{from}' is not a cell of this board"))
                })?
        }
        "/api/game.pgn" => {
            let name = format!(
                "panoply-{}.pgn",
                room.state()["variant"].as_str().unwrap_or("game")
            );
            return Ok(Answer::Download(name, game_text(room)));
        }
        _ => return Err(ApiError::NotFound(path.to_string())),
    }))
}

pub fn post(room: &Arc<Room>, path: &str, body: &Value) -> Result<Answer, ApiError> {
    let text = |name: &str| -> Result<Option<&str>, ApiError> {
        match &body[name] {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s.as_str())),
            _ => Err(ApiError::BadRequest(format!("'{name}' must be a string"))),
        }
    };
    let state = match path {
        "/api/move" => {
            let mv = text("move")?
                .ok_or_else(|| ApiError::BadRequest("expected {\"move\": \"e2e4\"}".into()))?;
            room.play(mv, seat(body)?)?
        }
        "/api/new" => {
            let clock = match &body["clock"] {
                Value::Null => None,
                c => Some(ClockSettings::from_json(c).map_err(ApiError::BadRequest)?),
            };
            room.new_game(text("variant")?, text("position")?, clock)?
        }
        "/api/undo" => room.undo()?,
        "/api/seats" => {
            let (seats, levels) = (seats(body)?, levels(body)?);
            if seats.is_none() && levels.is_none() {
                return Err(ApiError::BadRequest(
                    "expected {\"seats\": [...]} and/or {\"levels\": [...]}".into(),
                ));
            }
            room.set_seats(seats, levels)?
        }
        "/api/engine" => {
            let method = text("method")?
                .map(|m| {
                    Method::from_name(m).ok_or_else(|| {
                        ApiError::BadRequest(format!(
                            "unknown search method '{m}' (paranoid or brs)"
                        ))
                    })
                })
                .transpose()?;
            let budget = budget(body)?;
            let multi_pv = number(body, "multipv")?.map(|n| n as usize);
            let analysis = match &body["analysis"] {
                Value::Null => None,
                Value::Bool(b) => Some(*b),
                _ => {
                    return Err(ApiError::BadRequest(
                        "'analysis' must be true or false".into(),
                    ))
                }
            };
            room.configure(budget, multi_pv, method, analysis)?
        }
        "/api/stop" => room.stop(body["play"] == json!(true)),
        "/api/resume" => room.resume(),
        _ => return Err(ApiError::NotFound(path.to_string())),
    };
    Ok(Answer::Json(state))
}

/// A request body: a JSON object, or nothing (`{}`).
pub fn parse_body(bytes: &[u8]) -> Result<Value, ApiError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| ApiError::BadRequest("the body is not UTF-8 text".into()))?;
    if text.trim().is_empty() {
        return Ok(json!({}));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(ApiError::BadRequest(
            "the body must be a JSON object".into(),
        )),
        Err(e) => Err(ApiError::BadRequest(format!("the body is not JSON: {e}"))),
    }
}

fn number(body: &Value, name: &str) -> Result<Option<u64>, ApiError> {
    match &body[name] {
        Value::Null => Ok(None),
        v => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| ApiError::BadRequest(format!("'{name}' must be a whole number"))),
    }
}

fn seat(body: &Value) -> Result<Option<usize>, ApiError> {
    Ok(number(body, "seat")?.map(|n| n as usize))
}

/// `{"seats": ["human", "engine", ...]}`, if given.
fn seats(body: &Value) -> Result<Option<Vec<Seat>>, ApiError> {
    if body["seats"].is_null() {
        return Ok(None);
    }
    let bad =
        || ApiError::BadRequest("expected {\"seats\": [\"human\" or \"engine\", ...]}".into());
    body["seats"]
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|s| s.as_str().and_then(Seat::from_name).ok_or_else(bad))
        .collect::<Result<_, _>>()
        .map(Some)
}

/// `{"levels": [20, 5, ...]}`, one per seat, if given.
fn levels(body: &Value) -> Result<Option<Vec<SeatLevel>>, ApiError> {
    if body["levels"].is_null() {
        return Ok(None);
    }
    let list = body["levels"].as_array().ok_or_else(|| {
        ApiError::BadRequest("'levels' must be a list with a level per seat".into())
    })?;
    list.iter()
        .map(|n| {
            n.as_u64().and_then(SeatLevel::new).ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "level {n} is not a whole number from 0 (weakest) to {} (full strength)",
                    SeatLevel::FULL.number()
                ))
            })
        })
        .collect::<Result<_, _>>()
        .map(Some)
}

/// `name` as a whole number no greater than `max`, if given.
fn bounded(body: &Value, name: &str, max: u64, unit: &str) -> Result<Option<u64>, ApiError> {
    match number(body, name)? {
        Some(n) if n > max => Err(ApiError::BadRequest(format!(
            "'{name}' is at most {max}{unit}, not {n}"
        ))),
        n => Ok(n),
    }
}

/// A new budget per engine move when any of `nodes`, `movetime` (ms), `depth` is given. A
/// move that may take days would hold the engine, and so the board, for as long.
fn budget(body: &Value) -> Result<Option<Budget>, ApiError> {
    let nodes = bounded(body, "nodes", MAX_NODES, "")?;
    let movetime_ms = bounded(body, "movetime", MAX_MOVETIME_MS, " ms (10 minutes)")?;
    let depth = number(body, "depth")?.map(|d| d.clamp(1, 64) as u32);
    Ok(
        (nodes.is_some() || movetime_ms.is_some() || depth.is_some()).then_some(Budget {
            nodes,
            movetime_ms,
            depth,
        }),
    )
}

/// One `name=value` of a query string, percent-decoded.
pub fn query_param(query: &str, name: &str) -> Option<String> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| percent_decode(v))
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match b[i] {
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_parameters_are_decoded() {
        assert_eq!(query_param("ply=3&from=e2", "from").as_deref(), Some("e2"));
        assert_eq!(query_param("from=w%64%32", "from").as_deref(), Some("wd2"));
        assert_eq!(query_param("from=%", "from").as_deref(), Some("%"));
        assert_eq!(query_param("a=1", "from"), None);
    }
}
