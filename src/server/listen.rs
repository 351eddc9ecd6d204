//! The HTTP server itself: hyper's HTTP/1.1 on a single-threaded tokio runtime, with the
//! limits that keep one hostile client from taking the board down (issue 59): the size of a
//! request's head, the time a request may take to arrive, and the number of connections open
//! at once. The runtime stays in this folder (here, [`super::http`] and the event streams of
//! [`super::hub`]); calls on the game run on tokio's blocking threads, so the game and the
//! engine know nothing of it.

use super::http::{self, Board};
use super::limits::{MAX_CONNECTIONS, MAX_HEAD, MAX_HEADERS, REQUEST_TIMEOUT};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::io;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Instant;

/// A failed `accept` (too many open files) is tried again after this pause, not in a loop
/// that spins.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// Serves `listener` until the process ends. Fails only when the runtime cannot start.
pub fn serve(listener: std::net::TcpListener, board: Board) -> io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()?;
    runtime.block_on(accept(listener, Arc::new(board)))
}

async fn accept(listener: std::net::TcpListener, board: Arc<Board>) -> io::Result<()> {
    let listener = TcpListener::from_std(listener)?;
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                log::warn!("cannot accept a connection: {e}");
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            }
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            refuse(&stream);
            continue;
        };
        let board = Arc::clone(&board);
        tokio::spawn(async move {
            connection(stream, board).await;
            drop(slot);
        });
    }
}

/// Serves the requests of one connection, one after another.
async fn connection(stream: TcpStream, board: Arc<Board>) {
    let service = service_fn(move |request| {
        // hyper's timer only covers the head; the body gets what is left after it.
        let deadline = Instant::now() + REQUEST_TIMEOUT;
        http::handle(Arc::clone(&board), request, deadline)
    });
    let served = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(REQUEST_TIMEOUT)
        .max_buf_size(MAX_HEAD)
        .max_header_size(MAX_HEAD)
        .max_headers(MAX_HEADERS)
        .serve_connection(TokioIo::new(stream), service)
        .await;
    if let Err(e) = served {
        log::debug!("connection closed: {e}");
    }
}

/// Answers a connection over [`MAX_CONNECTIONS`] with 503 if its socket takes the answer at
/// once, and closes it: nothing is read and nothing waits.
fn refuse(stream: &TcpStream) {
    let body = r#"{"error":"too many connections: try again"}"#;
    let busy = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\
         Content-Security-Policy: frame-ancestors 'none'\r\nX-Frame-Options: DENY\r\n\
         X-Content-Type-Options: nosniff\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(busy.as_bytes());
}
