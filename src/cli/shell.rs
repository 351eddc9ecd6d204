//! `panoply shell`: the text shell for humans (moves, diagrams, engine moves), for every
//! game including the 3D and four-player ones.

use super::position::PositionArgs;
use super::Failure;
use clap::Args;
use panoply::search::multi_player::Method;
use panoply::shell::Shell;

#[derive(Args)]
pub struct ShellArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Search method for four-player games: paranoid | brs.
    #[arg(long)]
    method: Option<String>,
}

impl ShellArgs {
    pub fn run(self) -> Result<(), Failure> {
        let method = match &self.method {
            None => Method::DEFAULT,
            Some(m) => Method::from_name(m)
                .ok_or_else(|| Failure(format!("unknown search method '{m}' (paranoid or brs)")))?,
        };
        let p = &self.position;
        let mut shell = Shell::new(&p.variant, p.fen.as_deref(), method)?;
        // A reader that went away (`panoply shell < moves | head`) ends the shell quietly.
        match shell.run(std::io::stdin().lock(), std::io::stdout().lock()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => Ok(other?),
        }
    }
}
