//! How much one client may ask of the server (issue 59): the size of a request, the time it
//! may take to arrive, the connections open at once. [`super::listen`] and [`super::http`]
//! apply them; [`super::error`] names them in its refusals.

use std::time::Duration;

/// Request bodies are small JSON objects; a position string is at most a few kilobytes.
pub const MAX_BODY: usize = 64 * 1024;
/// The request line and the headers together: a longer head is answered 431 (hyper stops
/// reading at this size, so an endless header line costs no more memory than this).
pub const MAX_HEAD: usize = 16 * 1024;
/// Headers in one request; more are answered 431.
pub const MAX_HEADERS: usize = 64;
/// A request (its head; its body, counted from the head) that has not fully arrived by then
/// is answered or closed, so that half-sent requests cannot hold connections forever. A
/// kept-alive connection waiting for its next request is closed after as long.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections open at once, event streams included; one more is refused at once (503)
/// rather than kept waiting.
pub const MAX_CONNECTIONS: usize = 256;
