//! `panoply serve`: a board in the browser for every game. A small HTTP server (tiny_http,
//! one ordinary thread per request) serves a static page and a JSON API over one shared
//! game ([`table`]), and pushes engine thinking to the page as Server-Sent Events ([`hub`]).
//! Rules, move strings and notation all come from the session and game code the protocols
//! use; this folder only translates. The game is kept on disk as it goes ([`saved`]), so
//! that the next start continues it.

mod assets;
pub mod clock;
pub mod error;
mod guard;
mod http;
mod hub;
mod record;
pub mod saved;
mod settings;
pub mod table;
mod view;

use std::fmt;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
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

/// The kept game set up again, if there is one. One that cannot be read or replayed is
/// reported and set aside, and the server starts with a new game.
fn continued(store: &saved::Store) -> Option<Arc<Room>> {
    let failed = match store.load() {
        Ok(None) => return None,
        Ok(Some(game)) => match Room::restore(&game) {
            Ok(room) => return Some(room),
            Err(why) => saved::SaveError::Replay {
                path: store.path().to_path_buf(),
                why,
            },
        },
        Err(e) => e,
    };
    match store.set_aside() {
        Ok(bad) => eprintln!(
            "panoply serve: {failed}; starting a new game (the file is kept as {})",
            bad.display()
        ),
        Err(e) => eprintln!("panoply serve: {failed}; starting a new game ({e})"),
    }
    None
}

fn warn(e: &saved::SaveError) {
    eprintln!("panoply serve: {e}");
}

/// Where a server keeps its game between runs.
#[derive(Clone, Debug, Default)]
pub struct Keep {
    /// The directory of the files (one per port); `None`: the user's data directory
    /// ([`saved::default_dir`]).
    pub dir: Option<PathBuf>,
    /// Start a new game even if one was kept (the kept one is then replaced).
    pub fresh: bool,
}

pub struct Server {
    http: tiny_http::Server,
    room: Arc<Room>,
    addr: SocketAddr,
}

impl Server {
    /// Listens on 127.0.0.1:`port` (0: any free port) with a game of `variant` on the table,
    /// kept in memory only.
    pub fn bind(port: u16, variant: &str) -> Result<Server, ServeError> {
        Server::open(port, variant, None)
    }

    /// As [`Server::bind`], and with `keep` the game is kept on disk in a file of this port:
    /// a kept game is continued (unless `fresh`) instead of a new game of `variant`. Disk
    /// trouble never stops the server: it is reported on stderr in one line and the game
    /// stays in memory; a kept game that cannot be continued is set aside as `.bad`.
    pub fn open(port: u16, variant: &str, keep: Option<Keep>) -> Result<Server, ServeError> {
        let room = Room::new(variant).map_err(ServeError::Variant)?;
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        // Listen first: a server that cannot have the port must not touch the file of the
        // server that has it.
        let http = tiny_http::Server::http(addr).map_err(|e| ServeError::Bind {
            addr,
            why: e.to_string(),
        })?;
        let addr = http.server_addr().to_ip().unwrap_or(addr);
        let Some(keep) = keep else {
            return Ok(Server { http, room, addr });
        };
        let store = keep
            .dir
            .map_or_else(saved::default_dir, Ok)
            .and_then(|dir| saved::Store::in_dir(&dir, addr.port()));
        let store = match store {
            Ok(s) => s,
            Err(e) => {
                warn(&e);
                return Ok(Server { http, room, addr });
            }
        };
        let room = if keep.fresh {
            room
        } else {
            continued(&store).unwrap_or(room)
        };
        room.keep(Some(store));
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
