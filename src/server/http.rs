//! One request from its head to its answer: the body limit, the [`guard`] (the board's own
//! page or a local tool), the token, then the page's files, the JSON API ([`api`]) or the
//! event stream. Every API answer is JSON; a refused request is a 4xx answer
//! `{"error": "<one line>"}` and changes nothing. Every answer carries the headers that keep
//! it out of other pages' frames.

use super::api::{self, Answer};
use super::error::ApiError;
use super::guard;
use super::hub::EventStream;
use super::limits::MAX_BODY;
use super::table::Room;
use super::token::Token;
use http_body_util::{BodyExt, Either, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::http::request::Parts;
use hyper::{Method, Request, Response, StatusCode};
use serde_json::json;
use std::convert::Infallible;
use std::sync::Arc;
use tokio::time::Instant;

/// What every answer's body is: a whole text, or the event stream.
pub type AnswerBody = Either<Full<Bytes>, EventStream>;

/// What the server serves and to whom.
pub struct Board {
    pub room: Arc<Room>,
    pub port: u16,
    pub token: Token,
}

/// Answers one request; `deadline` is when the whole request must have arrived.
pub async fn handle(
    board: Arc<Board>,
    request: Request<Incoming>,
    deadline: Instant,
) -> Result<Response<AnswerBody>, Infallible> {
    let (parts, body) = request.into_parts();
    let path = parts.uri.path().to_string();
    let answer = match admit(&board, &parts) {
        Err(e) => Err(e),
        Ok(Some(redirect)) => return Ok(redirect),
        Ok(None) => route(&board, &parts, body, deadline).await,
    };
    Ok(match answer {
        Ok(Answered::Stream(stream)) => event_stream(stream),
        Ok(Answered::Whole(answer)) => whole(answer),
        Err(e) => {
            log::info!("{} {path}: {e}", parts.method);
            refusal(&e)
        }
    })
}

/// Whether the request may go on: not too large, from the board's own page or a local tool,
/// with the token. The printed address's `?token=` is answered here, by a redirect that sets
/// the page's cookie.
fn admit(board: &Board, parts: &Parts) -> Result<Option<Response<AnswerBody>>, ApiError> {
    // Before anything is read: a declared body over the limit is refused unread.
    if declared_length(parts).is_some_and(|n| n > MAX_BODY as u64) {
        return Err(ApiError::TooLarge);
    }
    guard::admit_request(parts, board.port)?;
    let query = parts.uri.query().unwrap_or("");
    if parts.method == Method::GET {
        if let Some(given) = api::query_param(query, "token") {
            if !board.token.matches(&given) {
                return Err(guard::Refusal::NoToken.into());
            }
            return Ok(Some(sign_in(board, parts.uri.path(), query)));
        }
    }
    guard::admit_token(parts, board.port, &board.token)?;
    Ok(None)
}

/// The `Content-Length` the client declared, if any (an unreadable one is refused by the HTTP
/// parser before the request gets here).
fn declared_length(parts: &Parts) -> Option<u64> {
    parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

enum Answered {
    Whole(Answer),
    Stream(EventStream),
}

async fn route(
    board: &Board,
    parts: &Parts,
    body: Incoming,
    deadline: Instant,
) -> Result<Answered, ApiError> {
    let path = parts.uri.path().to_string();
    let query = parts.uri.query().unwrap_or("").to_string();
    let room = Arc::clone(&board.room);
    let answer = match parts.method {
        Method::GET if path == "/api/events" => return Ok(Answered::Stream(room.hub.stream())),
        Method::GET => blocking(move || api::get(&room, &path, &query)).await,
        Method::POST => {
            let body = read_body(body, deadline).await?;
            blocking(move || api::post(&room, &path, &body)).await
        }
        _ => Err(ApiError::NotFound(path)),
    };
    answer.map(Answered::Whole)
}

/// Runs a call on the table on a thread that may wait (for the game's lock, for the disk),
/// so that the server's own thread keeps answering.
async fn blocking(
    call: impl FnOnce() -> Result<Answer, ApiError> + Send + 'static,
) -> Result<Answer, ApiError> {
    tokio::task::spawn_blocking(call).await.unwrap_or_else(|e| {
        let why = e.to_string();
        Err(ApiError::Internal(
            why.lines().next().unwrap_or("").to_string(),
        ))
    })
}

/// The body, at most [`MAX_BODY`] bytes (a chunked body that grows past it is cut off), all
/// arrived by `deadline`.
async fn read_body(body: Incoming, deadline: Instant) -> Result<serde_json::Value, ApiError> {
    let collected = tokio::time::timeout_at(deadline, Limited::new(body, MAX_BODY).collect())
        .await
        .map_err(|_| ApiError::Timeout)?;
    let bytes = match collected {
        Ok(c) => c.to_bytes(),
        Err(e) if e.is::<LengthLimitError>() => return Err(ApiError::TooLarge),
        Err(e) => return Err(ApiError::BadRequest(format!("unreadable body: {e}"))),
    };
    api::parse_body(&bytes)
}

/// The answer to the printed address `/?token=T`: the token as the page's cookie, and the
/// same page without the token in its address (so it is neither bookmarked nor shown).
fn sign_in(board: &Board, path: &str, query: &str) -> Response<AnswerBody> {
    let rest: Vec<&str> = query
        .split('&')
        .filter(|pair| !pair.is_empty() && pair.split('=').next() != Some("token"))
        .collect();
    let location = if rest.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", rest.join("&"))
    };
    let mut response = answer(StatusCode::SEE_OTHER, "text/plain; charset=utf-8", "");
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&location) {
        headers.insert(header::LOCATION, v);
    }
    if let Ok(v) = HeaderValue::from_str(&board.token.set_cookie(board.port)) {
        headers.insert(header::SET_COOKIE, v);
    }
    response
}

fn whole(answer: Answer) -> Response<AnswerBody> {
    match answer {
        Answer::Json(v) => self::answer(StatusCode::OK, "application/json", v.to_string()),
        Answer::File(content_type, body) => self::answer(StatusCode::OK, content_type, body),
        Answer::Download(name, body) => {
            let mut r = self::answer(StatusCode::OK, "application/x-chess-pgn", body);
            let disposition = format!("attachment; filename=\"{name}\"");
            if let Ok(v) = HeaderValue::from_str(&disposition) {
                r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
            }
            r
        }
    }
}

fn refusal(e: &ApiError) -> Response<AnswerBody> {
    let status = StatusCode::from_u16(e.status()).unwrap_or(StatusCode::BAD_REQUEST);
    let body = json!({ "error": e.to_string() }).to_string();
    let mut r = answer(status, "application/json", body);
    if matches!(e, ApiError::TooLarge | ApiError::Timeout) {
        // The rest of the body is never read: the connection cannot carry another request.
        r.headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    r
}

fn event_stream(stream: EventStream) -> Response<AnswerBody> {
    let mut r = Response::new(Either::Right(stream));
    let headers = r.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    protect(headers);
    r
}

/// A whole answer of `content_type`, never cached (the game changes under it).
fn answer(
    status: StatusCode,
    content_type: &'static str,
    body: impl Into<Bytes>,
) -> Response<AnswerBody> {
    let mut r = Response::new(Either::Left(Full::new(body.into())));
    *r.status_mut() = status;
    let headers = r.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    protect(headers);
    r
}

/// The headers of every answer: no page may show the board in a frame (where it could be
/// clicked through unseen), no answer is read as another type than it says, and the address
/// (which may hold the token) is never sent on as a referrer.
pub fn protect(headers: &mut hyper::HeaderMap) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("frame-ancestors 'none'"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
}
