//! The per-run token that keeps other users of this machine off the board: every request must
//! carry it, as the cookie the page gets from the printed address or as `Authorization:
//! Bearer T` from a tool. The server listens on 127.0.0.1 only, but every local user can
//! connect there; only the one who started the server (and whoever they give the address)
//! knows the token.

use std::fmt;
use std::io::Read;

/// Random bytes in a generated token: 128 bits, as in the address Jupyter prints.
const RANDOM_BYTES: usize = 16;
/// A token given with `--token` must be at least this long: a short one could be guessed
/// through the socket by another local user.
const MIN_LEN: usize = 16;
const MAX_LEN: usize = 256;

/// A secret shared with the page (as a cookie) and local tools (as a bearer token). Only
/// characters that pass unescaped through a URL query and a cookie.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

/// Why a token could not be made or taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenError {
    /// The system's randomness could not be read.
    NoRandomness(String),
    /// A `--token` shorter than [`MIN_LEN`] or longer than [`MAX_LEN`].
    Length(usize),
    /// A `--token` with a character that a URL or a cookie would need escaped.
    Character(char),
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TokenError::NoRandomness(why) => write!(f, "cannot read /dev/urandom: {why}"),
            TokenError::Length(n) => write!(
                f,
                "a --token must have {MIN_LEN} to {MAX_LEN} characters, not {n}"
            ),
            TokenError::Character(c) => write!(
                f,
                "a --token may hold letters, digits, '-', '_', '.' and '~' only, not {c:?}"
            ),
        }
    }
}

impl std::error::Error for TokenError {}

impl Token {
    /// A new token of 128 random bits from the kernel, in hex.
    pub fn generate() -> Result<Token, TokenError> {
        let bytes = random_bytes::<RANDOM_BYTES>()?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// A token chosen by the user (`--token`).
    pub fn parse(text: &str) -> Result<Token, TokenError> {
        if let Some(c) = text
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || "-_.~".contains(*c)))
        {
            return Err(TokenError::Character(c));
        }
        if !(MIN_LEN..=MAX_LEN).contains(&text.len()) {
            return Err(TokenError::Length(text.len()));
        }
        Ok(Token(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `given` is this token, in time that does not depend on where they differ, so
    /// that timing the answers does not reveal the token a character at a time.
    pub fn matches(&self, given: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), given.as_bytes());
        let diff = a
            .iter()
            .zip(b)
            .fold(a.len() ^ b.len(), |acc, (x, y)| acc | usize::from(x ^ y));
        std::hint::black_box(diff) == 0
    }

    /// Whether an `Authorization` header value is `Bearer <this token>`.
    pub fn matches_bearer(&self, header: &str) -> bool {
        let mut words = header.split_whitespace();
        let scheme = words.next().unwrap_or("");
        match (words.next(), words.next()) {
            (Some(given), None) => scheme.eq_ignore_ascii_case("Bearer") && self.matches(given),
            _ => false,
        }
    }

    /// Whether a `Cookie` header value holds this token under the cookie of `port`.
    pub fn matches_cookie(&self, header: &str, port: u16) -> bool {
        let name = cookie_name(port);
        header
            .split(';')
            .filter_map(|pair| pair.trim().split_once('='))
            .filter(|(n, _)| *n == name)
            .any(|(_, value)| self.matches(value.trim()))
    }

    /// The `Set-Cookie` value that hands the token to the page of the server on `port`:
    /// unreadable to scripts (HttpOnly) and never sent along by another site (SameSite).
    pub fn set_cookie(&self, port: u16) -> String {
        format!(
            "{}={}; Path=/; HttpOnly; SameSite=Strict",
            cookie_name(port),
            self.0
        )
    }
}

/// Not `Debug`-printed in full: the token must not end up in a log.
impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Token(..)")
    }
}

/// Cookies are kept per host, not per port: two servers on 127.0.0.1 would overwrite each
/// other's cookie under one name, so each port has its own.
pub fn cookie_name(port: u16) -> String {
    format!("panoply-{port}")
}

/// Bytes from the kernel's random source (not a seeded generator).
pub fn random_bytes<const N: usize>() -> Result<[u8; N], TokenError> {
    let mut bytes = [0u8; N];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| TokenError::NoRandomness(e.to_string()))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn generated_tokens_are_128_random_bits_in_hex() {
        let (a, b) = (Token::generate().unwrap(), Token::generate().unwrap());
        assert_eq!(a.as_str().len(), 32);
        assert!(a.as_str().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert_eq!(Token::parse(a.as_str()), Ok(a));
    }

    #[test]
    fn only_the_same_token_matches() {
        let t = Token::parse(T).unwrap();
        assert!(t.matches(T));
        for other in [
            "",
            "0123456789abcdef",
            "0123456789abcdef0123456789abcdeF",
            &format!("{T}0"),
        ] {
            assert!(!t.matches(other), "{other}");
        }
    }

    #[test]
    fn bearer_and_cookie_carry_the_token() {
        let t = Token::parse(T).unwrap();
        assert!(t.matches_bearer(&format!("Bearer {T}")));
        assert!(t.matches_bearer(&format!("bearer  {T} ")));
        assert!(!t.matches_bearer(&format!("Basic {T}")));
        assert!(!t.matches_bearer(&format!("Bearer {T} x")));
        assert!(!t.matches_bearer("Bearer"));
        assert!(t.matches_cookie(&format!("a=b; panoply-8080={T}"), 8080));
        assert!(!t.matches_cookie(&format!("panoply-8081={T}"), 8080));
        assert!(!t.matches_cookie("panoply-8080=wrong", 8080));
        assert_eq!(
            t.set_cookie(8080),
            format!("panoply-8080={T}; Path=/; HttpOnly; SameSite=Strict")
        );
    }

    #[test]
    fn a_chosen_token_must_be_long_and_plain() {
        assert_eq!(Token::parse("short"), Err(TokenError::Length(5)));
        assert_eq!(
            Token::parse("0123456789abcdef;x"),
            Err(TokenError::Character(';'))
        );
        assert_eq!(Token::parse(&"a".repeat(257)), Err(TokenError::Length(257)));
        assert!(Token::parse("my-own_token.for~this").is_ok());
        assert!(!format!("{:?}", Token::parse(T).unwrap()).contains(T));
    }
}
