//! Routes HTTP requests: the page's files, the JSON API over the table, the event stream and
//! the game download. Every API answer is JSON; a refused request is a 4xx answer
//! `{"error": "<one line>"}`. Every request passes the [`guard`] first, the event stream too.

use super::assets;
use super::clock::TimeControl;
use super::error::ApiError;
use super::guard;
use super::record::game_text;
use super::table::{Budget, Room, Seat, SeatLevel};
use super::view::{PlyView, TargetsView};
use crate::search::multi_player::Method;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::sync::Arc;
use tiny_http::{Method as HttpMethod, Request};

/// Request bodies are small JSON objects; a position string is at most a few kilobytes.
const MAX_BODY: u64 = 64 * 1024;

/// Answers one request to the server on `port` (on its own thread; the event stream keeps
/// its thread).
pub fn handle(room: &Arc<Room>, port: u16, mut request: Request) {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let path = path.to_string();
    let method = request.method().clone();
    let admitted = guard::admit_request(&request, port);
    if admitted.is_ok() && method == HttpMethod::Get && path == "/api/events" {
        room.hub.stream(request.into_writer());
        return;
    }
    let answer = match (admitted, &method) {
        (Err(refusal), _) => Err(refusal.into()),
        (Ok(()), HttpMethod::Get) => get(room, &path, query),
        (Ok(()), HttpMethod::Post) => {
            read_body(&mut request).and_then(|body| post(room, &path, &body))
        }
        (Ok(()), _) => Err(ApiError::NotFound(path.clone())),
    };
    let (status, content_type, body, download) = match answer {
        Ok(Answer::Json(v)) => (200, "application/json", v.to_string(), None),
        Ok(Answer::File(content_type, body)) => (200, content_type, body.to_string(), None),
        Ok(Answer::Download(name, body)) => (200, "application/x-chess-pgn", body, Some(name)),
        Err(e) => {
            log::info!("{method} {path}: {e}");
            let body = json!({ "error": e.to_string() }).to_string();
            (e.status(), "application/json", body, None)
        }
    };
    if let Err(e) = respond(request, status, content_type, &body, download.as_deref()) {
        log::debug!("{path}: the page went away: {e}");
    }
}

/// Writes the response and closes the connection. tiny_http serves each connection on a
/// thread of a pool whose growth can lag behind a browser opening six connections at once;
/// a kept-alive idle connection then holds a thread and a new one waits for it (the page
/// hung on loading a module). Closing after every answer frees the thread at once. tiny_http
/// does not let a `Response` set `Connection`, hence the head written here.
fn respond(
    request: Request,
    status: u16,
    content_type: &str,
    body: &str,
    download: Option<&str>,
) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        409 => "Conflict",
        422 => "Unprocessable Entity",
        _ => "Error",
    };
    let attachment = download
        .map(|name| format!("Content-Disposition: attachment; filename=\"{name}\"\r\n"))
        .unwrap_or_default();
    let mut out = request.into_writer();
    write!(
        out,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\n\
         Content-Length: {}\r\nCache-Control: no-store\r\n{attachment}Connection: close\r\n\r\n",
        body.len()
    )?;
    out.write_all(body.as_bytes())?;
    out.flush()
}

enum Answer {
    Json(Value),
    File(&'static str, &'static str),
    Download(String, String),
}

fn get(room: &Arc<Room>, path: &str, query: &str) -> Result<Answer, ApiError> {
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

fn post(room: &Arc<Room>, path: &str, body: &Value) -> Result<Answer, ApiError> {
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
                c => Some(TimeControl::from_json(c).map_err(ApiError::BadRequest)?),
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

fn read_body(request: &mut Request) -> Result<Value, ApiError> {
    let mut text = String::new();
    request
        .as_reader()
        .take(MAX_BODY)
        .read_to_string(&mut text)
        .map_err(|e| ApiError::BadRequest(format!("unreadable body: {e}")))?;
    if text.trim().is_empty() {
        return Ok(json!({}));
    }
    match serde_json::from_str::<Value>(&text) {
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

/// A new budget per engine move when any of `nodes`, `movetime` (ms), `depth` is given.
fn budget(body: &Value) -> Result<Option<Budget>, ApiError> {
    let nodes = number(body, "nodes")?;
    let movetime_ms = number(body, "movetime")?;
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
fn query_param(query: &str, name: &str) -> Option<String> {
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
