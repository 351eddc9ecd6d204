//! `panoply serve`: a board in the browser for every game. A small HTTP server (tiny_http,
//! one ordinary thread per request) serves a static page and a JSON API over one shared
//! game ([`table`]), and pushes engine thinking to the page as Server-Sent Events ([`hub`]).
//! Rules, move strings and notation all come from the session and game code the protocols
//! use; this folder only translates.

mod assets;
pub mod error;
mod guard;
mod http;
mod hub;
mod record;
pub mod table;
mod view;

use std::fmt;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use table::Room;

/// Why the server could not start.
#[derive(Debug)]
pub enum ServeError {
    Variant(error::ApiError),
    Bind { addr: SocketAddr, why: String },
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ServeError::Variant(e) => write!(f, "{e}"),
            ServeError::Bind { addr, why } => write!(f, "cannot listen on {addr}: {why}"),
        }
    }
}

impl std::error::Error for ServeError {}

pub struct Server {
    http: tiny_http::Server,
    room: Arc<Room>,
    addr: SocketAddr,
}

impl Server {
    /// Listens on 127.0.0.1:`port` (0: any free port) with a game of `variant` on the table.
    pub fn bind(port: u16, variant: &str) -> Result<Server, ServeError> {
        let room = Room::new(variant).map_err(ServeError::Variant)?;
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let http = tiny_http::Server::http(addr).map_err(|e| ServeError::Bind {
            addr,
            why: e.to_string(),
        })?;
        let addr = http.server_addr().to_ip().unwrap_or(addr);
        Ok(Server { http, room, addr })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves requests until the process ends, each on a thread of its own. Only requests
    /// from the board's own page or local tools are answered ([`guard`]).
    pub fn run(self) {
        let port = self.addr.port();
        for request in self.http.incoming_requests() {
            let room = Arc::clone(&self.room);
            std::thread::spawn(move || http::handle(&room, port, request));
        }
    }
}
