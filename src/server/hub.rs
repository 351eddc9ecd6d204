//! Server-Sent Events: every open page holds one `/api/events` stream, and the hub sends each
//! of them the events (`state` after every change of the game, `info` for engine thinking).

use std::io::Write;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Mutex;
use std::time::Duration;

/// How often an idle stream sends a comment line, so that closed pages are noticed.
const KEEPALIVE: Duration = Duration::from_secs(15);

#[derive(Default)]
pub struct Hub {
    subscribers: Mutex<Vec<Sender<String>>>,
}

impl Hub {
    /// Sends one event to every open stream (and forgets the streams that are gone).
    pub fn broadcast(&self, event: &str, data: &serde_json::Value) {
        let text = format!("event: {event}\ndata: {data}\n\n");
        let mut subs = self.subscribers.lock().unwrap_or_else(|e| e.into_inner());
        subs.retain(|s| s.send(text.clone()).is_ok());
    }

    fn subscribe(&self) -> Receiver<String> {
        let (tx, rx) = channel();
        self.subscribers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(tx);
        rx
    }

    /// Serves one stream until the page goes away. The response is written by hand because
    /// tiny_http's chunked encoder buffers 8 KB before it sends anything.
    pub fn stream(&self, mut out: Box<dyn Write + Send>) {
        let rx = self.subscribe();
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                    Cache-Control: no-cache\r\nConnection: close\r\n\r\n: connected\n\n";
        if out
            .write_all(head.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            return;
        }
        loop {
            let text = match rx.recv_timeout(KEEPALIVE) {
                Ok(t) => t,
                Err(RecvTimeoutError::Timeout) => ": keepalive\n\n".to_string(),
                Err(RecvTimeoutError::Disconnected) => return,
            };
            if out
                .write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .is_err()
            {
                return;
            }
        }
    }
}
