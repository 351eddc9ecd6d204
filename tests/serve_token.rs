//! `panoply serve`'s guard against other users of the machine (issue 59), through the binary:
//! the per-run token (printed address, cookie, `Authorization: Bearer`, `--token`, 403 and
//! nothing changed without it), and the kept game's files (0600 in a 0700 directory, no link
//! followed, every damaged file kept).

use crate::serve_process::{
    api, bearer, free_port, request, scratch, start, start_with_token, state, TOKEN,
};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// `method path` with `headers` is refused 403 with a one-line reason, the game unchanged.
fn refused(addr: std::net::SocketAddr, method: &str, path: &str, headers: &[(&str, &str)]) {
    refused_by(addr, &bearer(), method, path, headers);
}

/// As [`refused`], the game read with the `Authorization` value `reader`.
fn refused_by(
    addr: std::net::SocketAddr,
    reader: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) {
    let state = |addr| {
        let reply = request(addr, "GET", "/api/state", &[("Authorization", reader)], "");
        assert_eq!(reply.status, 200, "{}", reply.body);
        serde_json::from_str::<Value>(&reply.body).unwrap()
    };
    let before = state(addr);
    let body = if method == "POST" {
        r#"{"variant":"shatranj"}"#
    } else {
        ""
    };
    let reply = request(addr, method, path, headers, body);
    assert_eq!(
        reply.status, 403,
        "{method} {path} {headers:?}: {}",
        reply.body
    );
    let error = serde_json::from_str::<Value>(&reply.body).unwrap()["error"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        error.starts_with("refused: ") && !error.contains('\n'),
        "{error}"
    );
    assert_eq!(state(addr), before, "{method} {path} {headers:?}");
}

#[test]
fn the_printed_address_signs_the_page_in_with_a_cookie() {
    let s = start_with_token("cookie");
    let port = s.addr.port();
    assert_eq!(s.address, format!("http://{}/?token={TOKEN}", s.addr));
    let reply = request(
        s.addr,
        "GET",
        &format!("/?token={TOKEN}&variant=aof5"),
        &[],
        "",
    );
    assert_eq!(reply.status, 303, "{}", reply.body);
    assert_eq!(reply.header("location"), Some("/?variant=aof5"));
    assert_eq!(
        reply.header("set-cookie"),
        Some(format!("panoply-{port}={TOKEN}; Path=/; HttpOnly; SameSite=Strict").as_str())
    );
    // As the page then asks, with the cookie: the page, the state, a move.
    let cookie = format!("panoply-{port}={TOKEN}");
    let origin = format!("http://{}", s.addr);
    let page = [("Cookie", cookie.as_str())];
    assert_eq!(request(s.addr, "GET", "/", &page, "").status, 200);
    assert_eq!(request(s.addr, "GET", "/api/state", &page, "").status, 200);
    let post = [
        ("Cookie", cookie.as_str()),
        ("Origin", origin.as_str()),
        ("Content-Type", "application/json"),
    ];
    // Both seats human, so no engine search changes the state while the refusals are checked.
    let seats = r#"{"seats":["human","human"]}"#;
    let reply = request(s.addr, "POST", "/api/seats", &post, seats);
    assert_eq!(reply.status, 200, "{}", reply.body);
    let reply = request(s.addr, "POST", "/api/move", &post, r#"{"move":"e2e4"}"#);
    assert_eq!(reply.status, 200, "{}", reply.body);
    // The sign-in itself changed nothing but the cookie.
    assert_eq!(state(s.addr)["variant"], "chess");
    refused(s.addr, "GET", "/?token=wrong-token-0123456789", &[]);
    let other_port = format!("panoply-{}={TOKEN}", port ^ 1);
    refused(s.addr, "GET", "/api/state", &[("Cookie", &other_port)]);
    refused(s.addr, "GET", "/", &[("Cookie", "panoply-1=x")]);
}

#[test]
fn a_tool_needs_the_bearer_token_and_nothing_passes_without_it() {
    let s = start_with_token("bearer");
    let (status, v) = api(
        s.addr,
        "POST",
        "/api/seats",
        r#"{"seats":["human","human"]}"#,
    );
    assert_eq!(status, 200, "{v}");
    let (status, v) = api(s.addr, "POST", "/api/move", r#"{"move":"d2d4"}"#);
    assert_eq!(status, 200, "{v}");
    let json = ("Content-Type", "application/json");
    let basic = format!("Basic {TOKEN}");
    let half = format!("Bearer {}", &TOKEN[..TOKEN.len() - 1]);
    for auth in [
        None,
        Some("Bearer wrong-token-0123456789"),
        Some(&half),
        Some(&basic),
    ] {
        let headers: Vec<_> = auth.map(|a| ("Authorization", a)).into_iter().collect();
        for path in ["/api/state", "/api/events", "/", "/app.js", "/api/game.pgn"] {
            refused(s.addr, "GET", path, &headers);
        }
        for path in ["/api/new", "/api/undo", "/api/stop", "/api/move"] {
            refused(
                s.addr,
                "POST",
                path,
                &[headers.as_slice(), &[json]].concat(),
            );
        }
    }
    let auth = bearer();
    let reply = request(
        s.addr,
        "GET",
        "/api/game.pgn",
        &[("Authorization", &auth)],
        "",
    );
    assert_eq!(reply.status, 200);
    assert!(reply.body.contains("1. d2d4"), "{}", reply.body);
}

/// The token in the address a server printed.
fn printed_token(address: &str) -> String {
    address.split_once("?token=").unwrap().1.to_string()
}

#[test]
fn without_token_each_run_has_a_new_random_one() {
    let (a, b) = (
        start(free_port(), &scratch("random-a"), &[]),
        start(free_port(), &scratch("random-b"), &[]),
    );
    let (ta, tb) = (printed_token(&a.address), printed_token(&b.address));
    for t in [&ta, &tb] {
        assert_eq!(t.len(), 32, "{t}");
        assert!(t.bytes().all(|c| c.is_ascii_hexdigit()), "{t}");
    }
    assert_ne!(ta, tb);
    let own = format!("Bearer {ta}");
    let reply = request(a.addr, "GET", "/api/state", &[("Authorization", &own)], "");
    assert_eq!(reply.status, 200);
    let other = format!("Bearer {tb}");
    refused_by(
        a.addr,
        &own,
        "GET",
        "/api/state",
        &[("Authorization", &other)],
    );
}

#[test]
fn a_bad_token_is_one_line_of_error() {
    for (token, error) in [
        (
            "short",
            "panoply: a --token must have 16 to 256 characters, not 5",
        ),
        (
            "0123456789abcdef;x",
            "panoply: a --token may hold letters, digits, '-', '_', '.' and '~' only, not ';'",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_panoply"))
            .args(["serve", "--port", "0", "--token", token])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{token}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).trim(), error);
        assert!(out.stdout.is_empty());
    }
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn the_kept_game_is_private_and_no_planted_link_is_followed() {
    let root = scratch("private");
    let dir = root.join("data/panoply");
    let port = free_port();
    std::fs::create_dir_all(&dir).unwrap();
    // Finding 5: the old fixed temporary name, planted as a link to someone else's file.
    let victim = root.join("victim");
    std::fs::write(&victim, "untouched").unwrap();
    let planted = dir.join(format!("serve-{port}.json.tmp"));
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    let s = start(port, &dir, &["--token", TOKEN]);
    let (status, v) = api(s.addr, "POST", "/api/move", r#"{"move":"e2e4"}"#);
    assert_eq!(status, 200, "{v}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
    assert_eq!(mode(&s.file()), 0o600);
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(s.file()).unwrap()).unwrap();
    assert_eq!(kept["moves"][0], "e2e4");
    // A directory the server makes is the user's alone.
    let fresh = root.join("fresh/panoply");
    let t = start(free_port(), &fresh, &["--token", TOKEN]);
    assert_eq!(mode(&fresh), 0o700);
    assert_eq!(mode(&t.file()), 0o600);
    drop((s, t));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn every_damaged_file_is_kept() {
    let dir = scratch("damaged");
    let port = free_port();
    let file = dir.join(format!("serve-{port}.json"));
    for n in 1..=3 {
        std::fs::write(&file, format!("damaged {n}")).unwrap();
        let s = start(port, &dir, &["--token", TOKEN]);
        assert_eq!(state(s.addr)["ply"], 0);
        drop(s);
    }
    for n in 1..=3 {
        let bad = dir.join(format!("serve-{port}.json.bad.{n}"));
        assert_eq!(
            std::fs::read_to_string(&bad).unwrap(),
            format!("damaged {n}")
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
