//! `panoply serve`'s JSON API over a real TCP socket, for every game family: start, legal
//! targets, moves, drops, promotions, a Cyclical type change, a four-player checkmate event,
//! engine moves, a skill level per seat, undo, the event stream, the game record, and refused
//! requests (4xx with a one-line message, the game unchanged), among them those of foreign
//! web pages (a foreign `Host` or `Origin`, a POST not JSON: 403 on every endpoint), and the
//! game kept on disk across a killed server.

use crate::common;

use common::{board, missionary_corner, tables, with_kings};
use panoply::server::token::Token;
use panoply::server::{Keep, Server};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A server on a free port with `variant` on the table, serving on a thread of its own.
fn serve(variant: &str) -> SocketAddr {
    serve_on(Server::bind(0, variant).expect("server starts"))
}

/// The token of every server these tests start (`panoply serve --token`).
pub const TOKEN: &str = "test-token-0123456789abcdef";
/// The token as a local tool sends it.
const BEARER: (&str, &str) = ("Authorization", "Bearer test-token-0123456789abcdef");

fn serve_on(server: Server) -> SocketAddr {
    let server = server.with_token(Token::parse(TOKEN).unwrap());
    let addr = server.addr();
    std::thread::spawn(move || server.run());
    addr
}

/// One HTTP/1.0 request (so that the body is never chunked) from a local tool: the server's
/// own Host, the token, a JSON body, no Origin. Returns the status and the body.
fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let host = addr.to_string();
    let headers = [
        ("Host", host.as_str()),
        ("Content-Type", "application/json"),
        BEARER,
    ];
    request(addr, method, path, &headers, body)
}

/// One HTTP/1.0 request with exactly `headers` (and the body's Content-Length); returns the
/// status and the body.
fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head: String = headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    write!(
        s,
        "{method} {path} HTTP/1.0\r\n{head}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").expect("a response head");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

fn get(addr: SocketAddr, path: &str) -> Value {
    let (status, body) = http(addr, "GET", path, "");
    assert_eq!(status, 200, "GET {path}: {body}");
    serde_json::from_str(&body).unwrap()
}

fn post(addr: SocketAddr, path: &str, body: Value) -> Value {
    let (status, text) = http(addr, "POST", path, &body.to_string());
    assert_eq!(status, 200, "POST {path} {body}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// A request the server must refuse with `status` and a one-line message, leaving the game
/// as it was.
fn refused(addr: SocketAddr, path: &str, body: &str, status: u16) -> String {
    let before = get(addr, "/api/state")["position"].clone();
    let (got, text) = http(addr, "POST", path, body);
    assert_eq!(got, status, "POST {path} {body}: {text}");
    let error = serde_json::from_str::<Value>(&text).unwrap()["error"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!error.is_empty() && !error.contains('\n'), "{error:?}");
    assert_eq!(get(addr, "/api/state")["position"], before, "{path} {body}");
    error
}

fn humans(addr: SocketAddr, n: usize) {
    post(addr, "/api/seats", json!({ "seats": vec!["human"; n] }));
}

fn moves_of(state: &Value) -> Vec<String> {
    let mut v: Vec<String> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

/// The kind code of the piece on `cell`, if any.
fn token_on(state: &Value, cell: &str) -> Option<String> {
    let index = state["geometry"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c == cell)
        .unwrap();
    state["board"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p[0] == json!(index))
        .map(|p| {
            let kind = p[2].as_u64().unwrap() as usize;
            state["kinds"][kind]["token"].as_str().unwrap().to_string()
        })
}

/// Waits until the state satisfies `done` (the engine plays on its own thread).
fn wait_for(addr: SocketAddr, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let state = get(addr, "/api/state");
        if done(&state) {
            return state;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out: {state}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn cwda_start_targets_move_promotion_and_refusals() {
    let addr = serve("cwda-nutty-rookies");
    humans(addr, 2);
    let state = get(addr, "/api/state");
    assert_eq!(state["variant"], "cwda-nutty-rookies");
    assert_eq!(state["geometry"]["cells"].as_array().unwrap().len(), 64);
    assert_eq!(state["legal"].as_array().unwrap().len(), 26);
    let targets = get(addr, "/api/targets?from=e2");
    assert_eq!(
        targets["moves"],
        json!([{"move": "e2e3", "to": "e3"}, {"move": "e2e4", "to": "e4"}])
    );

    let state = post(addr, "/api/move", json!({ "move": "e2e4", "seat": 0 }));
    assert_eq!(state["history"][0]["move"], "e2e4");
    assert_eq!(token_on(&state, "e4").as_deref(), Some("P"));
    assert_eq!(state["side"], 1);

    // Refusals: each one line, each leaving the game as it was.
    assert!(refused(addr, "/api/move", r#"{"move": "e2e4"}"#, 422).contains("not a legal move"));
    assert!(refused(addr, "/api/move", r#"{"move": "zz9"}"#, 400).contains("not a move string"));
    assert_eq!(
        refused(addr, "/api/move", r#"{"move": "e7e5", "seat": 0}"#, 409),
        "it is Black's turn, not White's"
    );
    assert!(
        refused(addr, "/api/new", r#"{"variant": "cwda-nutty-elves"}"#, 400)
            .contains("unknown army")
    );
    assert!(refused(addr, "/api/new", r#"{"variant": "nochess"}"#, 400).contains("unknown variant"));
    assert!(
        refused(addr, "/api/new", r#"{"position": "8/8/8 w - - 0 1"}"#, 400)
            .starts_with("bad position string")
    );
    assert!(refused(addr, "/api/move", "{not json", 400).contains("not JSON"));
    assert!(refused(addr, "/api/seats", r#"{"seats": ["human"]}"#, 400).contains("2 seats"));
    assert!(refused(addr, "/api/nothing", "{}", 404).contains("no such page"));
    let (status, _) = http(addr, "GET", "/api/view?ply=9", "");
    assert_eq!(status, 404);

    // Promotion: every choice is a legal move of its own, with the kind it promotes to.
    post(
        addr,
        "/api/new",
        json!({ "position": "4k3/P7/8/8/8/8/8/4K3 w - - 0 1" }),
    );
    let state = get(addr, "/api/state");
    let promotions: Vec<&Value> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == json!(48))
        .collect();
    assert_eq!(promotions.len(), 4, "{promotions:?}");
    assert!(promotions
        .iter()
        .all(|m| m["promo"].is_u64() && m["to"] == json!(56)));
    let state = post(addr, "/api/move", json!({ "move": "a7a8g" }));
    assert_eq!(token_on(&state, "a8").as_deref(), Some("G"));
}

#[test]
fn a_game_to_checkmate_shows_the_result_and_refuses_further_moves() {
    let addr = serve("chess");
    humans(addr, 2);
    for m in ["f2f3", "e7e5", "g2g4"] {
        post(addr, "/api/move", json!({ "move": m }));
    }
    let state = post(addr, "/api/move", json!({ "move": "d8h4" }));
    assert_eq!(state["outcome"]["text"], "Black wins by checkmate");
    assert_eq!(state["outcome"]["reason"], "checkmate");
    assert_eq!(state["legal"], json!([]));
    assert!(refused(addr, "/api/move", r#"{"move": "a2a3"}"#, 409).starts_with("the game is over"));
    let (status, pgn) = http(addr, "GET", "/api/game.pgn", "");
    assert_eq!(status, 200);
    assert!(
        pgn.contains("[Result \"0-1\"]") && pgn.contains("1. f2f3 e7e5 2. g2g4 d8h4"),
        "{pgn}"
    );
    // Stepping back: the board before the last move.
    let view = get(addr, "/api/view?ply=3");
    assert!(view["position"]
        .as_str()
        .unwrap()
        .starts_with("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/"));
}

#[test]
fn swda_and_shatranj_start_and_move() {
    let addr = serve("swda-posh-amphibians");
    humans(addr, 2);
    let state = get(addr, "/api/state");
    assert_eq!(moves_of(&state).len(), 14);
    let state = post(addr, "/api/move", json!({ "move": "g1f3" }));
    assert_eq!(state["history"][0]["move"], "g1f3");
    let state = post(addr, "/api/new", json!({ "variant": "shatranj" }));
    assert_eq!(state["variant"], "shatranj");
    assert_eq!(state["ply"], 0);
}

#[test]
fn cyclical_pieces_arrive_as_their_next_type() {
    let addr = serve("cyclical");
    humans(addr, 2);
    let state = get(addr, "/api/state");
    let knight = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "g1f3")
        .unwrap()
        .clone();
    let before = token_on(&state, "g1").unwrap();
    let arrives = state["kinds"][knight["arrives"].as_u64().unwrap() as usize]["token"]
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(before, arrives, "the piece changes type when it moves");
    let state = post(addr, "/api/move", json!({ "move": "g1f3" }));
    assert_eq!(token_on(&state, "f3"), Some(arrives));
}

#[test]
fn missionary_drop_from_the_hand() {
    let addr = serve("missionary");
    humans(addr, 2);
    // The corner position with a Rook in White's hand.
    let position = missionary_corner("R", 'w');
    let state = post(addr, "/api/new", json!({ "position": position }));
    assert_eq!(state["geometry"]["levels"], 6);
    let rook = state["board"]["hands"][0][0].clone();
    assert_eq!(rook[1], 1, "one Rook in hand: {rook}");
    let drop = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "R@wc5")
        .unwrap()
        .clone();
    assert_eq!(drop["drop"], rook[0]);
    assert_eq!(drop["from"], Value::Null);
    let state = post(addr, "/api/move", json!({ "move": "R@wc5" }));
    assert_eq!(token_on(&state, "wc5").as_deref(), Some("R"));
    assert_eq!(state["board"]["hands"][0], json!([]));
    assert!(refused(addr, "/api/move", r#"{"move": "R@wc6"}"#, 422).contains("not a legal move"));
}

#[test]
fn four_player_checkmate_event_with_its_promotions() {
    let addr = serve("aof5");
    humans(addr, 4);
    // The Catholic Rook on az4 looks down the az column at the Islamic King on az2; the
    // Byzantine Knight on az3 moves away in the Byzantine turn, and the Catholics checkmate.
    let t = tables("aof5");
    let pieces = with_kings(&[("az4", "cR"), ("az3", "bN"), ("dv1", "iN")]);
    let position = format!("{} c cpib - 0 1", board(&t, &pieces));
    post(addr, "/api/new", json!({ "position": position }));
    assert_eq!(
        refused(addr, "/api/move", r#"{"move": "jz2iz2", "seat": 1}"#, 409),
        "it is Catholic's turn, not Protestant's"
    );
    let mut state = Value::Null;
    for (seat, m) in [(0, "js2is2"), (1, "jz2iz2"), (2, "dv1fw1"), (3, "az3bx3")] {
        state = post(addr, "/api/move", json!({ "move": m, "seat": seat }));
    }
    assert_eq!(state["alive"], json!([true, true, false, true]));
    assert_eq!(state["side"], 0, "the checkmater moves");
    let event = &state["history"][3]["checkmates"];
    assert_eq!(event["by"], 0);
    assert_eq!(event["victims"], json!([2]));
    let promoted: Vec<(String, String)> = event["promotions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let kind = |k: &Value| {
                state["kinds"][k.as_u64().unwrap() as usize]["token"]
                    .as_str()
                    .unwrap()
                    .to_string()
            };
            (
                p["cell"].as_str().unwrap().to_string(),
                format!("{}>{}", kind(&p["from"]), kind(&p["to"])),
            )
        })
        .collect();
    assert!(
        promoted.contains(&("az4".into(), "R>DU".into())),
        "{promoted:?}"
    );
    assert!(
        promoted.contains(&("is2".into(), "K>E".into())),
        "{promoted:?}"
    );
    assert_eq!(state["outcome"], Value::Null);
    let scores = state["army_scores"].as_array().unwrap();
    assert_eq!(scores[2], 0, "an army out of play has no score");
    // The four-player record names the eliminated army after the move.
    let (_, record) = http(addr, "GET", "/api/game.pgn", "");
    assert!(
        record.contains("[Players \"4\"]") && record.contains("b:az3bx3 {checkmated: Islamic}"),
        "{record}"
    );
}

#[test]
fn engine_moves_for_its_seats_and_undo_returns_to_the_human() {
    let addr = serve("chess");
    post(addr, "/api/engine", json!({ "nodes": 300 }));
    post(addr, "/api/seats", json!({ "seats": ["human", "engine"] }));
    assert!(
        refused(addr, "/api/move", r#"{"move": "e7e5", "seat": 1}"#, 409).contains("White's turn")
    );
    post(addr, "/api/move", json!({ "move": "e2e4", "seat": 0 }));
    let state = wait_for(addr, |s| s["ply"] == 2);
    assert_eq!(state["side"], 0);
    assert!(moves_of(&state).len() > 20);
    let state = post(addr, "/api/undo", json!({}));
    assert_eq!(
        state["ply"], 0,
        "undo takes back the engine's reply and the human move"
    );
    assert!(refused(addr, "/api/undo", "{}", 409).contains("no move to take back"));

    // Four players, the engine playing three armies: it moves until the human's turn.
    post(addr, "/api/new", json!({ "variant": "aof5" }));
    let state = get(addr, "/api/state");
    assert_eq!(
        state["seats"],
        json!(["human", "engine", "engine", "engine"])
    );
    post(addr, "/api/move", json!({ "move": "gt1ft1", "seat": 0 }));
    let state = wait_for(addr, |s| s["ply"] == 4);
    assert_eq!(state["side"], 0);
    let movers: Vec<&Value> = state["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| &h["mover"])
        .collect();
    assert_eq!(movers, [&json!(0), &json!(1), &json!(2), &json!(3)]);
}

/// The nodes of every progress report of the engine's search for its move, read from the
/// event stream until the stream is quiet for a while after the engine has moved.
fn engine_move_nodes(addr: SocketAddr, play: impl FnOnce()) -> Vec<u64> {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET /api/events HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {TOKEN}\r\n\r\n"
    )
    .unwrap();
    let mut events = BufReader::new(stream);
    let mut line = String::new();
    events.read_line(&mut line).unwrap();
    play();
    let mut nodes = Vec::new();
    loop {
        line.clear();
        if events.read_line(&mut line).is_err() {
            return nodes;
        }
        if let Some(data) = line.strip_prefix("data: ") {
            let v: Value = serde_json::from_str(data).unwrap();
            if v["analysis"] == false {
                nodes.push(v["nodes"].as_u64().unwrap());
            }
            if v["generation"].is_u64() && get(addr, "/api/state")["side"] == 0 {
                // The engine has moved: what comes after is not its search.
                events
                    .get_ref()
                    .set_read_timeout(Some(Duration::from_millis(300)))
                    .unwrap();
            }
        }
    }
}

#[test]
fn a_level_per_engine_seat_limits_its_search_and_bad_levels_are_refused() {
    let addr = serve("chess");
    post(addr, "/api/seats", json!({ "seats": ["human", "engine"] }));
    assert_eq!(get(addr, "/api/state")["levels"], json!([20, 20]));
    let state = post(addr, "/api/seats", json!({ "levels": [20, 0] }));
    assert_eq!(state["levels"], json!([20, 0]));
    assert_eq!(state["seats"], json!(["human", "engine"]));
    for (body, says) in [
        (
            r#"{"levels": [20, 21]}"#,
            "level 21 is not a whole number from 0 (weakest) to 20",
        ),
        (r#"{"levels": [20, -1]}"#, "level -1 is not"),
        (r#"{"levels": [20, "low"]}"#, "level \"low\" is not"),
        (r#"{"levels": [20]}"#, "this game has 2 seats, not 1"),
        (r#"{"levels": 5}"#, "'levels' must be a list"),
        (
            r#"{"seats": ["human", "human"], "levels": [1]}"#,
            "2 seats, not 1",
        ),
        ("{}", "expected"),
    ] {
        let error = refused(addr, "/api/seats", body, 400);
        assert!(error.contains(says), "{body}: {error}");
    }
    let state = get(addr, "/api/state");
    assert_eq!(state["levels"], json!([20, 0]), "refusals keep the levels");
    assert_eq!(state["seats"], json!(["human", "engine"]), "and the seats");

    // Level 0 searches about 400 nodes where the budget (1 s) allows far more.
    let nodes = engine_move_nodes(addr, || {
        post(addr, "/api/move", json!({ "move": "e2e4", "seat": 0 }));
    });
    assert!(
        !nodes.is_empty() && nodes.iter().all(|&n| n < 2000),
        "{nodes:?}"
    );
    let state = get(addr, "/api/state");
    assert_eq!(state["ply"], 2);
    let game = http(addr, "GET", "/api/game.pgn", "").1;
    assert!(game.contains("[Black \"Panoply (level 0)\"]"), "{game}");

    // Four players: a level per army, back to full strength when the seats change in number.
    let state = post(addr, "/api/new", json!({ "variant": "aof5" }));
    assert_eq!(state["levels"], json!([20, 20, 20, 20]));
    let state = post(addr, "/api/seats", json!({ "levels": [20, 3, 20, 0] }));
    assert_eq!(state["levels"], json!([20, 3, 20, 0]));
    post(addr, "/api/engine", json!({ "nodes": 3000 }));
    post(addr, "/api/move", json!({ "move": "gt1ft1", "seat": 0 }));
    let state = wait_for(addr, |s| s["ply"] == 4);
    assert_eq!(state["side"], 0);
}

#[test]
fn stop_plays_the_move_now_and_pause_holds_the_engine() {
    let addr = serve("chess");
    post(addr, "/api/engine", json!({ "movetime": 60000 }));
    post(addr, "/api/seats", json!({ "seats": ["human", "engine"] }));
    post(addr, "/api/move", json!({ "move": "d2d4" }));
    wait_for(addr, |s| s["engine"]["searching"] == "move");
    let asked = Instant::now();
    post(addr, "/api/stop", json!({ "play": true }));
    wait_for(addr, |s| s["ply"] == 2);
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "the 60 s search stopped at once"
    );

    post(addr, "/api/move", json!({ "move": "e2e4" }));
    wait_for(addr, |s| s["engine"]["searching"] == "move");
    let state = post(addr, "/api/stop", json!({}));
    assert_eq!(state["engine"]["paused"], true);
    let state = wait_for(addr, |s| s["engine"]["searching"].is_null());
    assert_eq!(state["ply"], 3, "a paused engine does not move");
    post(addr, "/api/engine", json!({ "nodes": 300 }));
    post(addr, "/api/resume", json!({}));
    wait_for(addr, |s| s["ply"] == 4);
}

#[test]
fn analysis_streams_engine_thinking_and_stops() {
    let addr = serve("chess");
    humans(addr, 2);
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET /api/events HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {TOKEN}\r\n\r\n"
    )
    .unwrap();
    let mut events = BufReader::new(stream);
    let mut line = String::new();
    events.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");

    post(
        addr,
        "/api/engine",
        json!({ "analysis": true, "multipv": 2 }),
    );
    let mut infos = Vec::new();
    while infos.len() < 4 {
        line.clear();
        events.read_line(&mut line).unwrap();
        if let Some(data) = line.strip_prefix("data: ") {
            let v: Value = serde_json::from_str(data).unwrap();
            if v.get("depth").is_some() {
                infos.push(v);
            }
        }
    }
    assert!(infos.iter().any(|i| i["multipv"] == 2), "{infos:?}");
    assert!(infos
        .iter()
        .all(|i| i["analysis"] == true && i["pv"].as_array().is_some_and(|pv| !pv.is_empty())));
    assert_eq!(get(addr, "/api/state")["engine"]["searching"], "analysis");
    let state = post(addr, "/api/stop", json!({}));
    assert_eq!(state["engine"]["analysis"], false);
    wait_for(addr, |s| s["engine"]["searching"].is_null());
    assert_eq!(
        get(addr, "/api/state")["ply"],
        0,
        "analysis never plays a move"
    );
}

#[test]
fn the_page_and_its_modules_are_served() {
    let addr = serve("chess");
    let (status, html) = http(addr, "GET", "/", "");
    assert_eq!(status, 200);
    assert!(html.contains("<script type=\"module\" src=\"/app.js\">"));
    for file in [
        "/app.js",
        "/api.js",
        "/board.js",
        "/glyphs.js",
        "/panels.js",
        "/style.css",
    ] {
        let (status, text) = http(addr, "GET", file, "");
        assert_eq!(status, 200, "{file}");
        assert!(!text.is_empty(), "{file}");
    }
    let (status, _) = http(addr, "GET", "/nothing.js", "");
    assert_eq!(status, 404);
}

#[test]
fn the_command_prints_its_address_or_one_line_of_error() {
    let bin = env!("CARGO_BIN_EXE_panoply");
    let out = Command::new(bin)
        .args(["serve", "--variant", "nochess"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "panoply: unknown variant 'nochess' (run `panoply variants` for the list)"
    );
    // The game is kept on disk: never in the real home.
    let data = scratch("address");
    let (mut child, addr) = start_serve(0, &data, &["--variant", "missionary"]);
    assert_eq!(get(addr, "/api/state")["variant"], "missionary");
    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&data);
}

/// An empty directory of this test's own under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("panoply-serve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `panoply serve` on `port` (0: any) with the extra `args`, its data directory in `data`.
/// Returns the process and its address.
fn start_serve(port: u16, data: &Path, args: &[&str]) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_panoply"))
        .args(["serve", "--port", &port.to_string(), "--token", TOKEN])
        .args(args)
        .env("XDG_DATA_HOME", data)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let address = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    let rest = address.trim_start_matches("http://");
    let (addr, query) = rest.split_once('/').unwrap();
    assert_eq!(query, format!("?token={TOKEN}"));
    let addr = addr.parse().unwrap();
    (child, addr)
}

/// Kills the server (SIGKILL on Unix: no chance to write anything more) and returns what it
/// wrote on stderr.
fn kill(mut child: Child) -> String {
    child.kill().unwrap();
    child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    err
}

fn history_moves(state: &Value) -> Vec<String> {
    state["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["move"].as_str().unwrap().to_string())
        .collect()
}

fn kept_moves(file: &Path) -> Vec<String> {
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    kept["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_killed_engine_game_continues_from_its_last_move() {
    let data = scratch("kill");
    let state_dir = data.join("games");
    let dir_arg = ["--state-dir", state_dir.to_str().unwrap()];
    let (child, addr) = start_serve(0, &data, &dir_arg);
    let port = addr.port();
    assert_eq!(get(addr, "/api/state")["resumed"], false);
    post(addr, "/api/engine", json!({ "movetime": 40 }));
    post(addr, "/api/move", json!({ "move": "e2e4" }));
    post(
        addr,
        "/api/seats",
        json!({ "seats": ["engine", "engine"], "levels": [20, 7] }),
    );
    let before = wait_for(addr, |s| s["ply"].as_u64().unwrap() >= 6);
    let err = kill(child);
    assert_eq!(err, "", "nothing on stderr");

    // The file holds every move the server had answered with, and maybe the next ones.
    let file = state_dir.join(format!("serve-{port}.json"));
    let kept = kept_moves(&file);
    let seen = history_moves(&before);
    assert!(kept.starts_with(&seen), "{kept:?} after {seen:?}");
    assert!(!state_dir.join(format!("serve-{port}.json.tmp")).exists());

    let (child, addr) = start_serve(port, &data, &dir_arg);
    let state = get(addr, "/api/state");
    assert_eq!(state["resumed"], true);
    assert_eq!(state["seats"], json!(["engine", "engine"]));
    assert_eq!(state["levels"], json!([20, 7]));
    assert_eq!(state["engine"]["movetime"], 40);
    assert!(history_moves(&state).starts_with(&kept), "{state}");
    // The engine is to move and thinks again on its own.
    let n = kept.len() as u64;
    let state = wait_for(addr, |s| {
        s["ply"].as_u64().unwrap() > n || !s["outcome"].is_null()
    });
    assert!(history_moves(&state).starts_with(&kept));

    // A new game from the page ends the notice.
    let state = post(addr, "/api/new", json!({}));
    assert_eq!(
        (state["resumed"].clone(), state["ply"].clone()),
        (json!(false), json!(0))
    );
    assert_eq!(kill(child), "");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn fresh_starts_clean_and_a_finished_game_stays_downloadable() {
    // No --state-dir: the file goes to $XDG_DATA_HOME/panoply.
    let data = scratch("fresh");
    let (child, addr) = start_serve(0, &data, &[]);
    let port = addr.port();
    humans(addr, 2);
    for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        post(addr, "/api/move", json!({ "move": mv }));
    }
    kill(child);
    let file = data.join(format!("panoply/serve-{port}.json"));
    assert_eq!(kept_moves(&file).len(), 4);

    let (child, addr) = start_serve(port, &data, &[]);
    let state = get(addr, "/api/state");
    assert_eq!(
        (state["ply"].clone(), state["resumed"].clone()),
        (json!(4), json!(true))
    );
    assert!(!state["outcome"].is_null(), "the mate is there again");
    let (status, record) = http(addr, "GET", "/api/game.pgn", "");
    assert_eq!(status, 200);
    assert!(
        record.contains("[Result \"0-1\"]") && record.contains("h4"),
        "{record}"
    );
    kill(child);

    let (child, addr) = start_serve(port, &data, &["--fresh", "--variant", "shatranj"]);
    let state = get(addr, "/api/state");
    assert_eq!(state["variant"], "shatranj");
    assert_eq!(
        (state["ply"].clone(), state["resumed"].clone()),
        (json!(0), json!(false))
    );
    assert_eq!(kill(child), "");
    // --fresh replaced the kept game at once.
    assert!(kept_moves(&file).is_empty());
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_damaged_file_is_reported_in_one_line_and_set_aside() {
    let data = scratch("damaged");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = data.join("panoply");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("serve-{port}.json"));
    std::fs::write(&file, "{\"version\": 1, \"moves\": [").unwrap();
    let (child, addr) = start_serve(port, &data, &[]);
    let state = get(addr, "/api/state");
    assert_eq!(
        (state["ply"].clone(), state["resumed"].clone()),
        (json!(0), json!(false))
    );
    let err = kill(child);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("is damaged") && err.contains(".bad"), "{err}");
    assert!(dir.join(format!("serve-{port}.json.bad.1")).exists());

    // A file that parses but does not replay: an illegal move.
    let text = std::fs::read_to_string(&file).unwrap();
    let mut kept: Value = serde_json::from_str(&text).unwrap();
    kept["moves"] = json!(["e2e4", "e2e4"]);
    std::fs::write(&file, kept.to_string()).unwrap();
    let (child, addr) = start_serve(port, &data, &[]);
    assert_eq!(get(addr, "/api/state")["ply"], 0);
    let err = kill(child);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot be continued") && err.contains("move 2"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn two_servers_keep_two_files() {
    let data = scratch("two");
    let keep = || {
        Some(Keep {
            dir: Some(data.clone()),
            fresh: false,
        })
    };
    let a = Server::open(0, "chess", keep()).unwrap();
    let b = Server::open(0, "shatranj", keep()).unwrap();
    let (pa, pb) = (a.addr().port(), b.addr().port());
    let (a, b) = (serve_on(a), serve_on(b));
    humans(a, 2);
    post(a, "/api/move", json!({ "move": "d2d4" }));
    humans(b, 2);
    let read = |port: u16| -> Value {
        let text = std::fs::read_to_string(data.join(format!("serve-{port}.json"))).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    assert_eq!(
        (read(pa)["variant"].clone(), read(pa)["moves"].clone()),
        (json!("chess"), json!(["d2d4"]))
    );
    assert_eq!(
        (read(pb)["variant"].clone(), read(pb)["moves"].clone()),
        (json!("shatranj"), json!([]))
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// A request a foreign page could make: refused with 403 and a one-line reason, the whole game
/// (position, seats, engine settings) as it was. The request carries the token, so that it is
/// refused for `headers` alone.
fn forbidden(addr: SocketAddr, method: &str, path: &str, headers: &[(&str, &str)], body: &str) {
    let before = get(addr, "/api/state");
    let headers = [headers, &[BEARER]].concat();
    let headers = headers.as_slice();
    let (status, text) = request(addr, method, path, headers, body);
    assert_eq!(status, 403, "{method} {path} {headers:?}: {text}");
    let error = serde_json::from_str::<Value>(&text).unwrap()["error"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        error.starts_with("refused: ") && !error.contains('\n'),
        "{error:?}"
    );
    assert_eq!(
        get(addr, "/api/state"),
        before,
        "{method} {path} {headers:?}"
    );
}

/// Every GET that reads the game (the event stream too) and the page itself.
const READS: [&str; 7] = [
    "/api/state",
    "/api/game.pgn",
    "/api/events",
    "/api/view?ply=0",
    "/api/targets?from=e2",
    "/",
    "/app.js",
];

/// Every POST, each with a body that would change the game if it were taken. `/api/resume`
/// last: it only shows when the engine is paused.
const WRITES: [(&str, &str); 7] = [
    ("/api/new", r#"{"variant": "shatranj"}"#),
    ("/api/move", r#"{"move": "e7e5"}"#),
    ("/api/undo", "{}"),
    ("/api/seats", r#"{"seats": ["engine", "engine"]}"#),
    (
        "/api/engine",
        r#"{"nodes": 5, "multipv": 3, "method": "brs", "analysis": true}"#,
    ),
    ("/api/stop", "{}"),
    ("/api/resume", "{}"),
];

/// A game with a move to take back and the engine idle, so that every POST of [`WRITES`]
/// would show in the state.
fn game_in_progress() -> SocketAddr {
    let addr = serve("chess");
    humans(addr, 2);
    post(addr, "/api/move", json!({ "move": "e2e4" }));
    addr
}

/// Checks every POST of [`WRITES`] with `headers`, pausing the engine before `/api/resume`.
fn every_write_forbidden(addr: SocketAddr, headers: &[(&str, &str)]) {
    for (path, body) in WRITES {
        if path == "/api/resume" {
            post(addr, "/api/stop", json!({}));
        }
        forbidden(addr, "POST", path, headers, body);
    }
    post(addr, "/api/resume", json!({}));
}

#[test]
fn a_foreign_host_is_refused_on_every_endpoint() {
    let addr = game_in_progress();
    let rebound = format!("evil.example:{}", addr.port());
    let other_port = format!("127.0.0.1:{}", addr.port().wrapping_add(1));
    for host in [rebound.as_str(), other_port.as_str(), "evil.example"] {
        for path in READS {
            forbidden(addr, "GET", path, &[("Host", host)], "");
        }
        let json = ("Content-Type", "application/json");
        every_write_forbidden(addr, &[("Host", host), json]);
    }
    // No Host at all (an HTTP/1.0 client): which name it used is unknown.
    forbidden(addr, "GET", "/api/state", &[], "");
    forbidden(addr, "GET", "/api/events", &[], "");
    forbidden(
        addr,
        "POST",
        "/api/new",
        &[("Content-Type", "application/json")],
        "{}",
    );
    // Two Host headers: the first must not vouch for the second.
    let own = addr.to_string();
    let twice = [("Host", own.as_str()), ("Host", rebound.as_str())];
    forbidden(addr, "GET", "/api/state", &twice, "");
}

#[test]
fn a_foreign_origin_is_refused() {
    let addr = game_in_progress();
    let own = addr.to_string();
    let json = ("Content-Type", "application/json");
    let other_port = format!("http://127.0.0.1:{}", addr.port().wrapping_add(1));
    for origin in ["http://evil.example", "null", other_port.as_str()] {
        every_write_forbidden(addr, &[("Host", &own), ("Origin", origin), json]);
        // Reads too: a foreign page has no business with the event stream either.
        for path in READS {
            forbidden(addr, "GET", path, &[("Host", &own), ("Origin", origin)], "");
        }
    }
}

#[test]
fn a_post_that_is_not_json_is_refused() {
    let addr = game_in_progress();
    let own = addr.to_string();
    for kind in [
        "text/plain",
        "text/plain; charset=utf-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        every_write_forbidden(addr, &[("Host", &own), ("Content-Type", kind)]);
    }
    every_write_forbidden(addr, &[("Host", &own)]);
    // The issue's request: a foreign page's text/plain POST.
    let evil = [
        ("Host", own.as_str()),
        ("Content-Type", "text/plain"),
        ("Origin", "http://evil.example"),
    ];
    forbidden(addr, "POST", "/api/new", &evil, r#"{"variant":"chess"}"#);
}

#[test]
fn the_own_page_and_local_tools_are_served() {
    let addr = game_in_progress();
    let port = addr.port();
    let own = addr.to_string();
    let localhost = format!("LocalHost:{port}");
    let page = format!("http://127.0.0.1:{port}");
    let page_via_localhost = format!("http://localhost:{port}");
    let json = ("Content-Type", "application/json; charset=UTF-8");
    for (host, origin) in [(&own, &page), (&localhost, &page_via_localhost)] {
        let (status, text) = request(addr, "GET", "/api/state", &[("Host", host), BEARER], "");
        assert_eq!(status, 200, "{host}: {text}");
        let headers = [
            ("Host", host.as_str()),
            ("Origin", origin.as_str()),
            json,
            BEARER,
        ];
        let (status, text) = request(addr, "GET", "/api/targets?from=e7", &headers, "");
        assert_eq!(status, 200, "{host} {origin}: {text}");
        let (status, text) = request(addr, "POST", "/api/undo", &headers, "{}");
        assert_eq!(status, 200, "{host} {origin}: {text}");
        let (status, text) = request(addr, "POST", "/api/move", &headers, r#"{"move":"e2e4"}"#);
        assert_eq!(status, 200, "{host} {origin}: {text}");
    }
    // As curl sends it: no Origin, JSON.
    let state = post(addr, "/api/new", json!({ "variant": "shatranj" }));
    assert_eq!(state["variant"], "shatranj");
    // The event stream from the page's own address and origin.
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET /api/events HTTP/1.1\r\nHost: localhost:{port}\r\nOrigin: {page_via_localhost}\r\n\
         Authorization: Bearer {TOKEN}\r\n\r\n"
    )
    .unwrap();
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
}

/// A new two-player game of humans from `position` on a clock of `base` ms (no increment).
fn timed_game(variant: &str, position: &str, base: u64) -> SocketAddr {
    let addr = serve(variant);
    humans(addr, 2);
    let state = post(
        addr,
        "/api/new",
        json!({ "position": position, "clock": { "base": base } }),
    );
    assert_eq!(state["clock"]["base"], base);
    assert_eq!(state["clock"]["running"], 0, "White's clock runs: {state}");
    addr
}

#[test]
fn a_flag_fall_loses_the_game() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let addr = timed_game("chess", start, 300);
    let state = wait_for(addr, |s| !s["outcome"].is_null());
    assert_eq!(state["outcome"]["text"], "Black wins by time forfeit");
    assert_eq!(state["clock"]["remaining"][0], 0);
    assert_eq!(state["clock"]["running"], Value::Null);
    assert_eq!(state["legal"], json!([]));
    let error = refused(addr, "/api/move", r#"{"move": "e2e4"}"#, 409);
    assert!(error.contains("time forfeit"), "{error}");
    let (_, pgn) = http(addr, "GET", "/api/game.pgn", "");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
}

#[test]
fn a_flag_fall_against_a_bare_king_is_a_draw() {
    // White flags; Black has only its King and could never checkmate.
    let addr = timed_game("chess", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 200);
    let state = wait_for(addr, |s| !s["outcome"].is_null());
    assert_eq!(state["outcome"]["winner"], Value::Null, "{state}");
    assert_eq!(
        state["outcome"]["text"],
        "draw by timeout against insufficient material"
    );
    // A Knight could help mate (the flagging side's pieces can block): the flag loses.
    let addr = timed_game("chess", "4kn2/8/8/8/8/8/8/3QK3 w - - 0 1", 200);
    let state = wait_for(addr, |s| !s["outcome"].is_null());
    assert_eq!(state["outcome"]["text"], "Black wins by time forfeit");
}

#[test]
fn the_clock_of_the_mover_stops_and_gets_its_increment() {
    let addr = serve("chess");
    humans(addr, 2);
    let state = post(
        addr,
        "/api/new",
        json!({ "clock": { "base": 60_000, "increment": 2000 } }),
    );
    // White's clock runs from the new game on; Black's waits.
    let white = state["clock"]["remaining"][0].as_u64().unwrap();
    assert!((59_000..=60_000).contains(&white), "{state}");
    assert_eq!(state["clock"]["remaining"][1], 60_000);
    std::thread::sleep(Duration::from_millis(300));
    let state = post(addr, "/api/move", json!({ "move": "e2e4" }));
    let white = state["clock"]["remaining"][0].as_u64().unwrap();
    // 60 s less the ~0.3 s of thinking, plus 2 s: more than the start, less than 62 s.
    assert!((61_000..=61_750).contains(&white), "{white}");
    assert_eq!(state["clock"]["running"], 1);
    let state = post(addr, "/api/undo", json!({}));
    // No time given back: White's clock runs on from what it showed.
    let after = state["clock"]["remaining"][0].as_u64().unwrap();
    assert!(
        after <= white && after + 500 > white,
        "{after} after {white}"
    );
    assert_eq!(state["clock"]["running"], 0);
}

#[test]
fn an_engine_seat_plays_on_its_own_clock() {
    let addr = serve("chess");
    // A budget per move far beyond the clock: the engine must follow the clock instead.
    post(addr, "/api/engine", json!({ "movetime": 60_000 }));
    post(addr, "/api/seats", json!({ "seats": ["human", "engine"] }));
    post(addr, "/api/new", json!({ "clock": { "base": 4000 } }));
    let sent = Instant::now();
    post(addr, "/api/move", json!({ "move": "e2e4" }));
    let state = wait_for(addr, |s| s["ply"] == 2);
    assert!(
        sent.elapsed() < Duration::from_secs(4),
        "{:?}",
        sent.elapsed()
    );
    assert!(state["outcome"].is_null(), "{state}");
    let black = state["clock"]["remaining"][1].as_u64().unwrap();
    assert!(
        (1..4000).contains(&black),
        "the engine's clock ran: {black}"
    );
    assert_eq!(state["clock"]["running"], 0);
}

#[test]
fn bad_clocks_and_clocks_for_four_players_are_refused() {
    let addr = serve("chess");
    refused(addr, "/api/new", r#"{"clock": {"base": 0}}"#, 400);
    refused(addr, "/api/new", r#"{"clock": {"base": "5 min"}}"#, 400);
    let error = refused(
        addr,
        "/api/new",
        r#"{"variant": "aof5", "clock": {"base": 60000}}"#,
        400,
    );
    assert!(
        error.contains("four-player games have no clocks"),
        "{error}"
    );
    assert_eq!(get(addr, "/api/state")["clock"], Value::Null, "untimed");
}

#[test]
fn checks_are_listed_for_every_army_in_check() {
    let addr = serve("chess");
    humans(addr, 2);
    let state = post(
        addr,
        "/api/new",
        json!({ "position": "4k3/8/8/8/8/8/8/4RK2 b - - 0 1" }),
    );
    assert_eq!(state["in_check"], json!([false, true]));
    let state = post(addr, "/api/move", json!({ "move": "e8d8" }));
    assert_eq!(state["in_check"], json!([false, false]));
}

#[test]
fn a_killed_timed_game_resumes_with_the_time_each_side_had() {
    let data = scratch("clock");
    let state_dir = data.join("games");
    let dir_arg = ["--state-dir", state_dir.to_str().unwrap()];
    let (child, addr) = start_serve(0, &data, &dir_arg);
    let port = addr.port();
    post(addr, "/api/seats", json!({ "seats": ["human", "human"] }));
    post(
        addr,
        "/api/new",
        json!({ "clock": { "base": 120_000, "increment": 1000 } }),
    );
    std::thread::sleep(Duration::from_millis(200));
    post(addr, "/api/move", json!({ "move": "e2e4" }));
    std::thread::sleep(Duration::from_millis(400));
    let before = post(addr, "/api/move", json!({ "move": "e7e5" }));
    assert_eq!(kill(child), "");
    let file = state_dir.join(format!("serve-{port}.json"));
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let kept_times = kept["clock"]["remaining"].clone();
    let [white, black] = [0, 1].map(|s| kept_times[s].as_u64().unwrap());
    assert!(white < 121_000 && black < 121_000, "{kept_times}");
    assert_eq!(kept_times[1], before["clock"]["remaining"][1]);

    let (child, addr) = start_serve(port, &data, &dir_arg);
    let state = get(addr, "/api/state");
    assert_eq!(state["clock"]["base"], 120_000);
    assert_eq!(state["clock"]["increment"], 1000);
    assert_eq!(state["clock"]["running"], 0);
    assert_eq!(state["clock"]["remaining"][1], black, "{state}");
    let now = state["clock"]["remaining"][0].as_u64().unwrap();
    assert!(now <= white && now + 2000 > white, "{now} after {white}");
    assert_eq!(kill(child), "");
    let _ = std::fs::remove_dir_all(&data);
}
