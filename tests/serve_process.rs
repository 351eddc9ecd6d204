//! `panoply serve` as its own process for the socket tests of issue 59: start it on a port
//! with a token and a data directory of the test's own, send raw bytes over a TcpStream to
//! 127.0.0.1, read its memory from /proc.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const TOKEN: &str = "hostile-test-token-0123456789";

/// A running server; killed when dropped.
pub struct Served {
    pub child: Child,
    pub addr: SocketAddr,
    /// The address the server printed.
    pub address: String,
    pub dir: PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// The kept game's file.
    pub fn file(&self) -> PathBuf {
        self.dir.join(format!("serve-{}.json", self.addr.port()))
    }

    /// The server's resident memory in KiB (VmRSS).
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS in /proc/PID/status")
    }
}

/// An empty directory of this test's own under the system's temporary directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("panoply-59-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A port free right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `panoply serve --port PORT --state-dir DIR` and `args`, once it has printed its address.
pub fn start(port: u16, dir: &Path, args: &[&str]) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_panoply"))
        .args(["serve", "--port", &port.to_string(), "--state-dir"])
        .arg(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let address = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_string();
    let addr = address["http://".len()..]
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    Served {
        child,
        addr,
        address,
        dir: dir.to_path_buf(),
    }
}

/// A server with the test token on a free port.
pub fn start_with_token(name: &str) -> Served {
    start(free_port(), &scratch(name), &["--token", TOKEN])
}

/// One answer: status, headers (names in lower case) and body.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends `raw` on a new connection and reads the answer until the server closes it (at most
/// `wait`). A write the server cut short (it closed on an over-long request) is no failure:
/// whatever it answered before is read. `None` when nothing came back.
pub fn exchange(addr: SocketAddr, raw: &[u8], wait: Duration) -> Option<Reply> {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(wait)).unwrap();
    s.set_write_timeout(Some(wait)).unwrap();
    let _ = s.write_all(raw);
    let mut bytes = Vec::new();
    let _ = s.read_to_end(&mut bytes);
    parse(&bytes)
}

fn parse(bytes: &[u8]) -> Option<Reply> {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let mut lines = head.lines();
    let status = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Some(Reply {
        status,
        headers,
        body: body.to_string(),
    })
}

/// A whole request of `method` on `path` with the server's own Host, `headers` and `body`
/// (the connection closed after the answer).
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
    let head: String = headers
        .iter()
        .map(|(n, v)| format!("{n}: {v}\r\n"))
        .collect();
    let raw = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{head}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    exchange(addr, raw.as_bytes(), Duration::from_secs(30))
        .unwrap_or_else(|| panic!("no answer to {method} {path}"))
}

pub fn bearer() -> String {
    format!("Bearer {TOKEN}")
}

/// A request of a local tool with the token: JSON in, JSON out.
pub fn api(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, Value) {
    let auth = bearer();
    let headers = [
        ("Authorization", auth.as_str()),
        ("Content-Type", "application/json"),
    ];
    let reply = request(addr, method, path, &headers, body);
    let value = serde_json::from_str(&reply.body).unwrap_or(Value::Null);
    (reply.status, value)
}

pub fn state(addr: SocketAddr) -> Value {
    let (status, v) = api(addr, "GET", "/api/state", "");
    assert_eq!(status, 200, "{v}");
    v
}

/// Every answer keeps out of other pages' frames and is read as the type it says.
pub fn assert_protected(reply: &Reply, what: &str) {
    assert_eq!(
        reply.header("content-security-policy"),
        Some("frame-ancestors 'none'"),
        "{what}"
    );
    assert_eq!(reply.header("x-frame-options"), Some("DENY"), "{what}");
    assert_eq!(
        reply.header("x-content-type-options"),
        Some("nosniff"),
        "{what}"
    );
}
