//! `panoply serve` against hostile requests (issue 59), through the binary over raw sockets to
//! 127.0.0.1: a body declared a terabyte long, over-long heads, endless header lines, half-sent
//! requests, requests without the token or from another page, budgets without bound, more
//! connections than the server takes. After each: the whole game and the kept file as they
//! were, and a normal request answered within a second; after all of them, the server's
//! memory at most 20 MB above what it was. And 200 pages each hear of a move within 2 s.

use crate::serve_process::{
    api, assert_protected, bearer, exchange, request, start_with_token, state, Served, TOKEN,
};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The server closes a request that has not arrived in 10 s; this leaves room for a slow CI.
const CLOSED_WITHIN: Duration = Duration::from_secs(13);
const ANSWERED_WITHIN: Duration = Duration::from_secs(1);

/// The game and its file before the hostile requests.
struct Before {
    state: Value,
    file: String,
}

fn snapshot(s: &Served) -> Before {
    Before {
        state: state(s.addr),
        file: std::fs::read_to_string(s.file()).unwrap(),
    }
}

/// Nothing changed, and the server answers at once.
fn unchanged(s: &Served, before: &Before, what: &str) {
    let started = Instant::now();
    let now = state(s.addr);
    assert!(
        started.elapsed() < ANSWERED_WITHIN,
        "{what}: a normal request took {:?}",
        started.elapsed()
    );
    assert_eq!(now, before.state, "{what}: the game changed");
    let file = std::fs::read_to_string(s.file()).unwrap();
    assert_eq!(file, before.file, "{what}: the kept file changed");
}

/// A game with moves on the board, both seats human (so the engine never changes it).
fn game_with_moves(name: &str) -> Served {
    let s = start_with_token(name);
    let (status, _) = api(
        s.addr,
        "POST",
        "/api/seats",
        r#"{"seats":["human","human"]}"#,
    );
    assert_eq!(status, 200);
    for mv in ["e2e4", "e7e5"] {
        let (status, v) = api(
            s.addr,
            "POST",
            "/api/move",
            &format!(r#"{{"move":"{mv}"}}"#),
        );
        assert_eq!(status, 200, "{v}");
    }
    s
}

/// A request line, the server's Host and the token, and `rest` (more headers, the blank line,
/// a body).
fn raw(s: &Served, line: &str, rest: &str) -> Vec<u8> {
    format!(
        "{line}\r\nHost: {}\r\nAuthorization: Bearer {TOKEN}\r\n{rest}",
        s.addr
    )
    .into_bytes()
}

/// Requests that must be answered with one of the statuses given, or (for the ones the server
/// stops reading) closed with at most that answer.
fn answered_requests(s: &Served) -> Vec<(&'static str, Vec<u8>, &'static [u16])> {
    let json = "Content-Type: application/json\r\n";
    let huge = "Content-Length: 1000000000000\r\n";
    let mut chunked = format!("{json}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
    for _ in 0..10 {
        chunked.push_str(&format!("2000\r\n{}\r\n", "x".repeat(0x2000)));
    }
    chunked.push_str("0\r\n\r\n");
    let many_headers = "X-A: b\r\n".repeat(100_000);
    let long_url = format!("GET /{} HTTP/1.1", "a".repeat(20_000));
    let huge_url = format!("GET /{} HTTP/1.1", "a".repeat(8 << 20));
    let endless_header = format!("X-Long: {}\r\n\r\n", "b".repeat(64 << 20));
    let sent_body = format!(
        "{json}Content-Length: 70000\r\nConnection: close\r\n\r\n{}",
        "x".repeat(70_000)
    );
    vec![
        (
            "finding 1: a terabyte declared, nothing sent",
            raw(s, "POST /api/stop HTTP/1.1", &format!("{json}{huge}\r\n")),
            &[413],
        ),
        (
            "finding 1 without the token",
            format!(
                "POST /api/stop HTTP/1.1\r\nHost: {}\r\n{json}{huge}\r\n",
                s.addr
            )
            .into_bytes(),
            &[413],
        ),
        (
            "a body over 64 KiB",
            raw(s, "POST /api/new HTTP/1.1", &sent_body),
            &[413],
        ),
        (
            "a chunked body over 64 KiB",
            raw(s, "POST /api/new HTTP/1.1", &chunked),
            &[413],
        ),
        ("a 20 KiB address", raw(s, &long_url, "\r\n"), &[414, 431]),
        ("an 8 MB address", raw(s, &huge_url, "\r\n"), &[414, 431]),
        (
            "100,000 headers",
            raw(s, "GET /api/state HTTP/1.1", &many_headers),
            &[431],
        ),
        (
            "a 64 MB header line",
            raw(s, "GET /api/state HTTP/1.1", &endless_header),
            &[431],
        ),
        ("not HTTP", b"\x00\x01\x02 hello\r\n\r\n".to_vec(), &[400]),
    ]
}

/// Requests with a complete head that the server must refuse with `status`, the token
/// missing, wrong, or the request from another page; and budgets without bound.
fn refused_requests(s: &Served) -> Vec<(&'static str, Vec<u8>, u16)> {
    let port = s.addr.port();
    let json = "Content-Type: application/json\r\nConnection: close\r\n";
    let new_game = r#"{"variant":"shatranj"}"#;
    let post = |headers: String, body: &str| {
        format!(
            "POST /api/new HTTP/1.1\r\nHost: {}\r\n{json}{headers}Content-Length: {}\r\n\r\n{body}",
            s.addr,
            body.len()
        )
        .into_bytes()
    };
    let engine = |body: &str| {
        let line = "POST /api/engine HTTP/1.1";
        let rest = format!("{json}Content-Length: {}\r\n\r\n{body}", body.len());
        raw(s, line, &rest)
    };
    vec![
        ("finding 4: no token", post(String::new(), new_game), 403),
        (
            "a wrong bearer token",
            post("Authorization: Bearer not-the-token-at-all\r\n".into(), new_game),
            403,
        ),
        (
            "a wrong cookie",
            post(format!("Cookie: panoply-{port}=not-the-token\r\n"), new_game),
            403,
        ),
        (
            "the token in another port's cookie",
            post(format!("Cookie: panoply-{}={TOKEN}\r\n", port ^ 1), new_game),
            403,
        ),
        (
            "a wrong token in the address",
            format!("GET /?token=wrong-token-0123456789 HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", s.addr).into_bytes(),
            403,
        ),
        (
            "a foreign Host with the token",
            format!("POST /api/new HTTP/1.1\r\nHost: evil.example:{port}\r\nAuthorization: Bearer {TOKEN}\r\n{json}Content-Length: 2\r\n\r\n{{}}").into_bytes(),
            403,
        ),
        (
            "a foreign Origin with the token",
            post(format!("Origin: http://127.0.0.1:{}\r\n{}\r\n", port ^ 1, auth_line()), new_game),
            403,
        ),
        ("movetime over 10 minutes", engine(r#"{"movetime":600001}"#), 400),
        ("nodes over 10^9", engine(r#"{"nodes":1000000001}"#), 400),
        ("another method", raw(s, "DELETE /api/state HTTP/1.1", "Connection: close\r\n\r\n"), 404),
    ]
}

fn auth_line() -> String {
    format!("Authorization: {}", bearer())
}

/// Opens a connection that sends `part` and never finishes its request; the server must close
/// it within [`CLOSED_WITHIN`]. Returns what it answered, if anything.
fn half_sent(s: &Served, part: Vec<u8>) -> JoinHandle<(Duration, Option<u16>)> {
    let mut stream = TcpStream::connect(s.addr).unwrap();
    stream.set_read_timeout(Some(CLOSED_WITHIN * 2)).unwrap();
    std::thread::spawn(move || {
        let started = Instant::now();
        let _ = stream.write_all(&part);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let status = String::from_utf8_lossy(&answer)
            .split_whitespace()
            .nth(1)
            .and_then(|w| w.parse().ok());
        (started.elapsed(), status)
    })
}

/// A head trickled a byte every half second: the 10 s are for the whole head, not per byte.
fn trickled(s: &Served) -> JoinHandle<(Duration, Option<u16>)> {
    let mut stream = TcpStream::connect(s.addr).unwrap();
    std::thread::spawn(move || {
        let started = Instant::now();
        for b in b"GET /api/state HTTP/1.1\r\nX-Slow: "
            .iter()
            .cycle()
            .take(60)
        {
            if stream.write_all(&[*b]).is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
        (started.elapsed(), None)
    })
}

#[test]
fn hostile_requests_change_nothing_and_cost_no_memory() {
    let s = game_with_moves("hostile");
    let before = snapshot(&s);
    let rss_before = s.rss_kib();
    // The slow ones run meanwhile: each holds a connection the server must close by itself.
    let slow = [
        (
            "a half-sent head",
            half_sent(&s, raw(&s, "GET /api/state HTTP/1.1", "")),
        ),
        (
            "a head without its body",
            half_sent(
                &s,
                raw(
                    &s,
                    "POST /api/new HTTP/1.1",
                    "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
                ),
            ),
        ),
        ("a connection that says nothing", half_sent(&s, Vec::new())),
        ("a trickled head", trickled(&s)),
    ];
    for (what, bytes, statuses) in answered_requests(&s) {
        let reply = exchange(s.addr, &bytes, Duration::from_secs(20));
        if let Some(reply) = &reply {
            assert!(statuses.contains(&reply.status), "{what}: {}", reply.status);
        }
        // Only the ones the server stops reading early may go unanswered: the bytes it never
        // read make the kernel reset the connection, and the answer may be lost with it.
        assert!(
            reply.is_some() || bytes.len() > 16 << 10,
            "{what}: no answer"
        );
        unchanged(&s, &before, what);
    }
    for (what, bytes, status) in refused_requests(&s) {
        let reply = exchange(s.addr, &bytes, Duration::from_secs(20)).expect(what);
        assert_eq!(reply.status, status, "{what}: {}", reply.body);
        assert_protected(&reply, what);
        let error = serde_json::from_str::<Value>(&reply.body).unwrap()["error"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            !error.is_empty() && !error.contains('\n'),
            "{what}: {error}"
        );
        unchanged(&s, &before, what);
    }
    for (what, handle) in slow {
        let (took, status) = handle.join().unwrap();
        assert!(took < CLOSED_WITHIN, "{what}: open for {took:?}");
        assert!(matches!(status, None | Some(408)), "{what}: {status:?}");
        unchanged(&s, &before, what);
    }
    let rss_after = s.rss_kib();
    assert!(
        rss_after <= rss_before + 20 * 1024,
        "memory grew from {rss_before} KiB to {rss_after} KiB"
    );
}

#[test]
fn an_address_of_another_variant_leaves_the_game_and_no_page_may_frame_the_board() {
    let s = game_with_moves("address");
    let before = snapshot(&s);
    let auth = bearer();
    for path in [
        "/?variant=shatranj",
        "/",
        "/app.js",
        "/api/state",
        "/nothing",
    ] {
        let reply = request(s.addr, "GET", path, &[("Authorization", &auth)], "");
        assert!(
            matches!(reply.status, 200 | 404),
            "{path}: {}",
            reply.status
        );
        assert_protected(&reply, path);
        unchanged(&s, &before, path);
    }
    let denied = request(s.addr, "GET", "/", &[], "");
    assert_eq!(denied.status, 403);
    assert_protected(&denied, "a refusal");
}

#[test]
fn connections_over_256_are_refused_at_once() {
    let s = game_with_moves("connections");
    let before = snapshot(&s);
    let rss_before = s.rss_kib();
    let held: Vec<TcpStream> = (0..256)
        .map(|_| TcpStream::connect(s.addr).unwrap())
        .collect();
    // The server has taken them all when one more is refused.
    let deadline = Instant::now() + Duration::from_secs(5);
    let refused = loop {
        let started = Instant::now();
        let reply = exchange(s.addr, b"", Duration::from_secs(5));
        if let Some(reply) = reply.filter(|r| r.status == 503) {
            assert!(
                started.elapsed() < ANSWERED_WITHIN,
                "{:?}",
                started.elapsed()
            );
            break reply;
        }
        assert!(Instant::now() < deadline, "connection 257 was not refused");
    };
    assert!(
        refused.body.contains("too many connections"),
        "{}",
        refused.body
    );
    assert_protected(&refused, "503");
    drop(held);
    // The slots come back as the server sees the connections close.
    let deadline = Instant::now() + ANSWERED_WITHIN;
    loop {
        let auth = bearer();
        let reply = request(s.addr, "GET", "/api/state", &[("Authorization", &auth)], "");
        if reply.status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "still refused: {}", reply.status);
        std::thread::sleep(Duration::from_millis(20));
    }
    unchanged(&s, &before, "256 connections");
    assert!(s.rss_kib() <= rss_before + 20 * 1024);
}

/// Opens the event stream and reads up to its first comment (the server has subscribed it).
fn event_stream(s: &Served) -> BufReader<TcpStream> {
    let mut stream = TcpStream::connect(s.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET /api/events HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {TOKEN}\r\n\r\n",
        s.addr
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    while !line.starts_with(": connected") {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
    }
    reader
}

/// Reads `stream` until an event of `kind`; false if none came by `deadline`.
fn hears(stream: &mut BufReader<TcpStream>, kind: &str, deadline: Instant) -> bool {
    let mut line = String::new();
    while Instant::now() < deadline {
        let left = deadline.saturating_duration_since(Instant::now());
        stream
            .get_ref()
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .unwrap();
        line.clear();
        match stream.read_line(&mut line) {
            Ok(0) | Err(_) => return false,
            Ok(_) if line.trim_end() == format!("event: {kind}") => return true,
            Ok(_) => {}
        }
    }
    false
}

#[test]
fn two_hundred_pages_each_hear_of_a_move_within_two_seconds() {
    let s = game_with_moves("streams");
    let mut streams: Vec<_> = (0..200).map(|_| event_stream(&s)).collect();
    let deadline = Instant::now() + Duration::from_secs(2);
    let (status, _) = api(s.addr, "POST", "/api/move", r#"{"move":"g1f3"}"#);
    assert_eq!(status, 200);
    let heard = streams
        .iter_mut()
        .map(|stream| hears(stream, "state", deadline))
        .filter(|&heard| heard)
        .count();
    assert_eq!(heard, 200, "pages that heard of the move in time");
}
