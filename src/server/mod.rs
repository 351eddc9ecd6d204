//! `panoply serve`: a board in the browser for every game. A small HTTP server (hyper on a
//! single-threaded tokio runtime, with limits against hostile clients: [`listen`]) serves a
//! static page and a JSON API over one shared game ([`table`]) to whoever holds the run's
//! [`token`], and pushes engine thinking to the page as Server-Sent Events ([`hub`]).
//! Rules, move strings and notation all come from the session and game code the protocols
//! use; this folder only translates. The game is kept on disk as it goes ([`saved`]), so
//! that the next start continues it.

mod api;
mod assets;
pub mod clock;
pub mod error;
mod guard;
mod http;
mod hub;
mod limits;
mod listen;
mod record;
pub mod saved;
mod settings;
pub mod table;
pub mod token;
mod view;

use std::fmt;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;
use table::Room;
use token::{Token, TokenError};

/// Why the server could not start.
#[derive(Debug)]
pub enum ServeError {
    Variant(error::ApiError),
    Bind {
        addr: SocketAddr,
        why: String,
    },
    Token(TokenError),
    /// The server's runtime could not start.
    Runtime(String),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ServeError::Variant(e) => write!(f, "{e}"),
            ServeError::Bind { addr, why } => write!(f, "cannot listen on {addr}: {why}"),
            ServeError::Token(e) => write!(f, "{e}"),
            ServeError::Runtime(why) => write!(f, "cannot run the server: {why}"),
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
    listener: TcpListener,
    room: Arc<Room>,
    addr: SocketAddr,
    token: Token,
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
    /// stays in memory; a kept game that cannot be continued is set aside as `.bad.N`. The
    /// server has a new random token ([`Server::with_token`] sets one).
    pub fn open(port: u16, variant: &str, keep: Option<Keep>) -> Result<Server, ServeError> {
        let room = Room::new(variant).map_err(ServeError::Variant)?;
        let token = Token::generate().map_err(ServeError::Token)?;
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        // Listen first: a server that cannot have the port must not touch the file of the
        // server that has it.
        let listener = TcpListener::bind(addr).map_err(|e| ServeError::Bind {
            addr,
            why: e.to_string(),
        })?;
        let addr = listener.local_addr().unwrap_or(addr);
        let room = match keep {
            Some(keep) => kept_room(room, keep, addr.port()),
            None => room,
        };
        Ok(Server {
            listener,
            room,
            addr,
            token,
        })
    }

    /// The server with `token` instead of its random one (`--token`).
    pub fn with_token(self, token: Token) -> Server {
        Server { token, ..self }
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn token(&self) -> &Token {
        &self.token
    }

    /// The address to open in a browser: the page signs in with the token and forgets it.
    pub fn address(&self) -> String {
        format!("http://{}/?token={}", self.addr, self.token.as_str())
    }

    /// Serves requests until the process ends. Only requests from the board's own page or
    /// local tools, with the token, are answered ([`guard`]).
    pub fn run(self) -> Result<(), ServeError> {
        let board = http::Board {
            room: self.room,
            port: self.addr.port(),
            token: self.token,
        };
        listen::serve(self.listener, board).map_err(|e| ServeError::Runtime(e.to_string()))
    }
}

/// The room of a server that keeps its game in a file of `port`: the kept game, if there is
/// one to continue, else `room`; either way kept from now on.
fn kept_room(room: Arc<Room>, keep: Keep, port: u16) -> Arc<Room> {
    let store = keep
        .dir
        .map_or_else(saved::default_dir, Ok)
        .and_then(|dir| saved::Store::in_dir(&dir, port));
    let store = match store {
        Ok(s) => s,
        Err(e) => {
            warn(&e);
            return room;
        }
    };
    let room = if keep.fresh {
        room
    } else {
        continued(&store).unwrap_or(room)
    };
    room.keep(Some(store));
    room
}
