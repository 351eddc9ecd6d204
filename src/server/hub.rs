//! Server-Sent Events: every open page holds one `/api/events` stream, and the hub sends each
//! of them the events (`state` after every change of the game, `info` for engine thinking).
//! Broadcasting is a plain call from any thread (the game's, the engine's); each stream is a
//! response body the HTTP server polls.

use hyper::body::{Body, Bytes, Frame};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::mpsc::{self, error::TrySendError};
use tokio::time::{sleep, Instant, Sleep};

/// How often an idle stream sends a comment line, so that closed pages are noticed.
const KEEPALIVE: Duration = Duration::from_secs(15);
/// Events waiting for one stream. A page that reads nothing (a stalled or hostile client)
/// would otherwise make the server hold every event for it: past this many its stream is
/// closed, and a real page's EventSource connects again.
const BACKLOG: usize = 256;

#[derive(Default)]
pub struct Hub {
    subscribers: Mutex<Vec<mpsc::Sender<Bytes>>>,
}

impl Hub {
    /// Sends one event to every open stream (and forgets the streams that are gone or that
    /// fell too far behind).
    pub fn broadcast(&self, event: &str, data: &serde_json::Value) {
        let text = Bytes::from(format!("event: {event}\ndata: {data}\n\n"));
        let mut subs = self.subscribers.lock().unwrap_or_else(|e| e.into_inner());
        subs.retain(|s| match s.try_send(text.clone()) {
            Ok(()) => true,
            Err(TrySendError::Full(_) | TrySendError::Closed(_)) => false,
        });
    }

    /// A new stream that receives every event from now on, until the page goes away. Must be
    /// called inside the server's runtime (its keepalive is a timer of that runtime).
    pub fn stream(&self) -> EventStream {
        let (tx, rx) = mpsc::channel(BACKLOG);
        self.subscribers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(tx);
        EventStream {
            greeting: Some(Bytes::from_static(b": connected\n\n")),
            events: rx,
            keepalive: Box::pin(sleep(KEEPALIVE)),
        }
    }
}

/// The body of one `/api/events` answer: a comment at once (so the page knows it is
/// connected), then each event as it comes, and a comment after every quiet [`KEEPALIVE`].
pub struct EventStream {
    greeting: Option<Bytes>,
    events: mpsc::Receiver<Bytes>,
    keepalive: Pin<Box<Sleep>>,
}

impl EventStream {
    fn send(&mut self, text: Bytes) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.keepalive.as_mut().reset(Instant::now() + KEEPALIVE);
        Poll::Ready(Some(Ok(Frame::data(text))))
    }
}

impl Body for EventStream {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = &mut *self;
        if let Some(text) = this.greeting.take() {
            return this.send(text);
        }
        match this.events.poll_recv(cx) {
            Poll::Ready(Some(text)) => this.send(text),
            // The hub dropped this stream (it fell behind): the answer ends.
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => match this.keepalive.as_mut().poll(cx) {
                Poll::Ready(()) => this.send(Bytes::from_static(b": keepalive\n\n")),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}
