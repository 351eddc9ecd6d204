//! `panoply serve`: a board in the browser for every game, served on 127.0.0.1.

use super::Failure;
use clap::Args;
use panoply::server::token::Token;
use panoply::server::{Keep, Server};
use std::io::Write;
use std::path::PathBuf;

#[derive(Args)]
pub struct ServeArgs {
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The game on the board at first (the page can change it).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Start a new game instead of continuing the one kept from the last run on this port.
    #[arg(long)]
    fresh: bool,
    /// Where the game is kept, one file per port [default: $XDG_DATA_HOME/panoply, else
    /// ~/.local/share/panoply].
    #[arg(long, value_name = "DIR")]
    state_dir: Option<PathBuf>,
    /// The token every request must carry (16 to 256 letters, digits, '-', '_', '.', '~')
    /// [default: 128 random bits, new every run].
    #[arg(long, value_name = "TOKEN")]
    token: Option<String>,
}

impl ServeArgs {
    pub fn run(self) -> Result<(), Failure> {
        let keep = Keep {
            dir: self.state_dir,
            fresh: self.fresh,
        };
        // A bad --token is refused before the port or the kept game is touched.
        let token = self.token.as_deref().map(Token::parse).transpose()?;
        let mut server = Server::open(self.port, &self.variant, Some(keep))?;
        if let Some(token) = token {
            server = server.with_token(token);
        }
        announce(&server.address());
        server.run()?;
        Ok(())
    }
}

/// Prints where the page is, with the token: whoever has this address has the board. One
/// write, and a closed stdout (a launcher that read the address and went away) must not stop
/// the server: println! would panic on the broken pipe.
fn announce(address: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "panoply serve: open {address} in a browser (Ctrl-C stops the server)\n  \
         a game by its address: {address}&variant=aof5"
    )
    .and_then(|()| out.flush());
}
