//! Which requests come from the board's own page: the guard that keeps other web pages the
//! user visits from reading or driving the game through the browser (issue 42).
//!
//! The server listens on 127.0.0.1 only, so every request comes from this machine; a foreign
//! page reaches it only through the browser, and the browser then gives it away:
//! - DNS rebinding (a foreign name resolving to 127.0.0.1) sends that name as `Host`, so every
//!   request must name the server itself: `127.0.0.1:PORT` or `localhost:PORT`;
//! - a cross-origin request carries the foreign page's `Origin` (`null` from sandboxed frames
//!   and some redirects), so a request with any `Origin` but the server's own is refused;
//! - a POST must be `application/json`, which a foreign page cannot send without a CORS
//!   preflight, and the server approves none (it answers no `OPTIONS` with CORS headers).
//!
//! A request without `Origin` (curl, scripts) passes when its `Host` is right.
//!
//! Other users of this machine connect without a browser; against them every request must
//! also carry the run's [`Token`] (issue 59).

use super::token::Token;
use hyper::http::request::Parts;
use hyper::http::{HeaderMap, Method};
use std::fmt;

/// Why a request is not taken to come from the board's own page. Each is answered 403.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// No `Host` header (an HTTP/1.0 client): the name the client used is unknown.
    NoHost,
    /// A header that must name one thing was sent more than once.
    Repeated(&'static str),
    /// A `Host` other than this server's own address (DNS rebinding, a proxy).
    ForeignHost(String),
    /// An `Origin` other than this server's own page (another site, a sandboxed frame).
    ForeignOrigin(String),
    /// A POST whose body is not declared `application/json` (a form or `text/plain` POST,
    /// which browsers send cross-origin without asking).
    NotJson(Option<String>),
    /// Neither the page's cookie nor `Authorization: Bearer` with the run's token.
    NoToken,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Refusal::NoHost => write!(f, "refused: the request has no Host header"),
            Refusal::Repeated(name) => write!(f, "refused: more than one {name} header"),
            Refusal::ForeignHost(host) => write!(
                f,
                "refused: Host '{host}' is not this server (use 127.0.0.1 or localhost)"
            ),
            Refusal::ForeignOrigin(origin) => {
                write!(f, "refused: requests from '{origin}' are not accepted")
            }
            Refusal::NotJson(Some(kind)) => write!(
                f,
                "refused: a POST must be Content-Type application/json, not '{kind}'"
            ),
            Refusal::NotJson(None) => {
                write!(f, "refused: a POST must be Content-Type application/json")
            }
            Refusal::NoToken => write!(
                f,
                "refused: no valid token (open the address `panoply serve` printed, \
                 or send Authorization: Bearer TOKEN)"
            ),
        }
    }
}

impl std::error::Error for Refusal {}

/// The headers the guard reads, each as sent (`None`: absent).
#[derive(Debug, Clone, Copy, Default)]
pub struct Head<'a> {
    pub is_post: bool,
    pub host: Option<&'a str>,
    pub origin: Option<&'a str>,
    pub content_type: Option<&'a str>,
}

/// The names the server answers to. It binds 127.0.0.1 only (IPv4), so `[::1]` is not among
/// them: a browser could not connect through it.
const OWN_NAMES: [&str; 2] = ["127.0.0.1", "localhost"];

/// Admits `request` if it comes from the board's own page or from a local tool.
pub fn admit_request(request: &Parts, port: u16) -> Result<(), Refusal> {
    let head = Head {
        is_post: request.method == Method::POST,
        host: single_header(&request.headers, "Host")?,
        origin: single_header(&request.headers, "Origin")?,
        content_type: single_header(&request.headers, "Content-Type")?,
    };
    admit(&head, port)
}

/// Admits `request` if it carries `token`: as the page's cookie for `port`, or as
/// `Authorization: Bearer`.
pub fn admit_token(request: &Parts, port: u16, token: &Token) -> Result<(), Refusal> {
    let values = |name| request.headers.get_all(name).into_iter();
    let text = |v: &hyper::http::HeaderValue| v.to_str().ok().map(str::to_string);
    let by_bearer = values("Authorization")
        .filter_map(text)
        .any(|v| token.matches_bearer(&v));
    let by_cookie = values("Cookie")
        .filter_map(text)
        .any(|v| token.matches_cookie(&v, port));
    if by_bearer || by_cookie {
        Ok(())
    } else {
        Err(Refusal::NoToken)
    }
}

/// The value of header `name`, which may be sent once at most: with two `Host` headers the
/// guard and whatever reads the request next could disagree on which counts. A value that is
/// not text counts as a foreign one.
fn single_header<'a>(
    headers: &'a HeaderMap,
    name: &'static str,
) -> Result<Option<&'a str>, Refusal> {
    let mut values = headers.get_all(name).into_iter();
    let first = values.next();
    if values.next().is_some() {
        return Err(Refusal::Repeated(name));
    }
    Ok(first.map(|v| v.to_str().unwrap_or("\u{fffd}")))
}

/// Admits a request that comes from the board's own page or from a local tool, for a server
/// on `port`.
pub fn admit(head: &Head, port: u16) -> Result<(), Refusal> {
    let host = head.host.ok_or(Refusal::NoHost)?;
    if !is_own_host(host, port) {
        return Err(Refusal::ForeignHost(host.to_string()));
    }
    if let Some(origin) = head.origin {
        if !is_own_origin(origin, port) {
            return Err(Refusal::ForeignOrigin(origin.to_string()));
        }
    }
    if head.is_post && !head.content_type.is_some_and(is_json) {
        return Err(Refusal::NotJson(head.content_type.map(str::to_string)));
    }
    Ok(())
}

/// `Host` names this server: `127.0.0.1:PORT` or `localhost:PORT`, names in any case. On port
/// 80 browsers leave the port out, so the bare name is this server too.
pub fn is_own_host(host: &str, port: u16) -> bool {
    let host = host.trim();
    let (name, port_given) = match host.rsplit_once(':') {
        Some((name, given)) => (name, parse_port(given)),
        None => (host, (port == 80).then_some(80)),
    };
    port_given == Some(port) && OWN_NAMES.iter().any(|own| own.eq_ignore_ascii_case(name))
}

/// Digits only: `str::parse` would also take `+8080`, which no browser sends.
fn parse_port(digits: &str) -> Option<u16> {
    let all_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    all_digits.then(|| digits.parse().ok()).flatten()
}

/// `Origin` is this server's page: `http://` and an own host. `null` is refused: sandboxed
/// frames send it, whatever page they sit in.
pub fn is_own_origin(origin: &str, port: u16) -> bool {
    const SCHEME: &str = "http://";
    let origin = origin.trim();
    let has_scheme = origin
        .get(..SCHEME.len())
        .is_some_and(|s| s.eq_ignore_ascii_case(SCHEME));
    has_scheme && is_own_host(&origin[SCHEME.len()..], port)
}

/// `Content-Type` is `application/json`, in any case, with or without parameters
/// (`; charset=utf-8`).
pub fn is_json(content_type: &str) -> bool {
    let media_type = content_type.split(';').next().unwrap_or("");
    media_type.trim().eq_ignore_ascii_case("application/json")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PORT: u16 = 8080;

    #[test]
    fn own_hosts_are_the_loopback_address_and_localhost_on_our_port() {
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "LocalHost:8080",
            " localhost:8080 ",
        ] {
            assert!(is_own_host(host, PORT), "{host}");
        }
    }

    #[test]
    fn foreign_hosts_are_refused() {
        for host in [
            "evil.example:8080",
            "evil.example",
            "127.0.0.1:8081",
            "localhost:80800",
            "localhost",
            "127.0.0.1",
            "localhost.:8080",
            "127.0.0.2:8080",
            "[::1]:8080",
            "localhost.evil.example:8080",
            "evil.localhost:8080",
            "localhost:8080:8080",
            "localhost:",
            ":8080",
            "",
            "localhost:+8080",
        ] {
            assert!(!is_own_host(host, PORT), "{host}");
        }
    }

    #[test]
    fn on_port_80_the_port_may_be_left_out() {
        assert!(is_own_host("localhost", 80));
        assert!(is_own_host("127.0.0.1:80", 80));
        assert!(!is_own_host("evil.example", 80));
    }

    #[test]
    fn own_origins_are_our_page_over_http() {
        for origin in [
            "http://127.0.0.1:8080",
            "http://localhost:8080",
            "HTTP://LocalHost:8080",
        ] {
            assert!(is_own_origin(origin, PORT), "{origin}");
        }
        for origin in [
            "null",
            "",
            "http://",
            "https://127.0.0.1:8080",
            "http://evil.example:8080",
            "http://127.0.0.1:9090",
            "http://127.0.0.1:8080/",
            "file://",
            "httpé://localhost:8080",
        ] {
            assert!(!is_own_origin(origin, PORT), "{origin}");
        }
    }

    #[test]
    fn json_is_recognised_with_parameters_and_in_any_case() {
        for kind in [
            "application/json",
            "Application/JSON",
            "application/json; charset=utf-8",
            "application/json;charset=UTF-8",
            " application/json ",
        ] {
            assert!(is_json(kind), "{kind}");
        }
        for kind in [
            "text/plain",
            "text/plain; charset=utf-8",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonp",
            "application/json-seq",
            "",
        ] {
            assert!(!is_json(kind), "{kind}");
        }
    }

    fn head<'a>(host: Option<&'a str>, origin: Option<&'a str>, kind: Option<&'a str>) -> Head<'a> {
        Head {
            is_post: true,
            host,
            origin,
            content_type: kind,
        }
    }

    #[test]
    fn admits_the_page_and_command_line_tools() {
        let json = Some("application/json");
        let own = Some("127.0.0.1:8080");
        assert_eq!(
            admit(&head(own, Some("http://127.0.0.1:8080"), json), PORT),
            Ok(())
        );
        assert_eq!(admit(&head(own, None, json), PORT), Ok(()));
        let get = Head {
            is_post: false,
            host: Some("localhost:8080"),
            ..Head::default()
        };
        assert_eq!(admit(&get, PORT), Ok(()));
    }

    #[test]
    fn refuses_each_sign_of_a_foreign_page() {
        let json = Some("application/json");
        let own = Some("127.0.0.1:8080");
        assert_eq!(admit(&head(None, None, json), PORT), Err(Refusal::NoHost));
        assert_eq!(
            admit(&head(Some("evil.example:8080"), None, json), PORT),
            Err(Refusal::ForeignHost("evil.example:8080".into()))
        );
        assert_eq!(
            admit(&head(own, Some("http://evil.example"), json), PORT),
            Err(Refusal::ForeignOrigin("http://evil.example".into()))
        );
        assert_eq!(
            admit(&head(own, Some("null"), json), PORT),
            Err(Refusal::ForeignOrigin("null".into()))
        );
        assert_eq!(
            admit(&head(own, None, Some("text/plain")), PORT),
            Err(Refusal::NotJson(Some("text/plain".into())))
        );
        assert_eq!(
            admit(&head(own, None, None), PORT),
            Err(Refusal::NotJson(None))
        );
        let foreign_get = Head {
            is_post: false,
            host: own,
            origin: Some("http://evil.example"),
            content_type: None,
        };
        assert!(matches!(
            admit(&foreign_get, PORT),
            Err(Refusal::ForeignOrigin(_))
        ));
    }

    #[test]
    fn each_refusal_is_one_line() {
        for refusal in [
            Refusal::NoHost,
            Refusal::Repeated("Host"),
            Refusal::ForeignHost("evil.example:8080".into()),
            Refusal::ForeignOrigin("null".into()),
            Refusal::NotJson(Some("text/plain".into())),
            Refusal::NotJson(None),
            Refusal::NoToken,
        ] {
            let text = refusal.to_string();
            assert!(
                text.starts_with("refused: ") && !text.contains('\n'),
                "{text}"
            );
        }
    }
}
