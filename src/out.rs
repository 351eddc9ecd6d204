//! Writing a command's output to stdout as `grep` does: a reader that went away (`panoply
//! show | head -1`, a GUI that quit) ends the program quietly with status 0 instead of the
//! panic `println!` gives on a broken pipe. [`outln!`](crate::outln) and
//! [`out!`](crate::out) are `println!` and `print!` with that behaviour.
//!
//! Not done by restoring the default SIGPIPE action: the referee writes to engines' pipes and
//! the server to sockets, and a peer that went away there is an error to handle, not the end.

use std::fmt::Arguments;
use std::io::{ErrorKind, Write};

/// Writes to stdout; a closed stdout exits with status 0, any other write error with 1.
pub fn write(args: Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        end_on_write_error(&e);
    }
}

/// Ends the program after a failed write to stdout: quietly when the reader went away.
pub fn end_on_write_error(e: &std::io::Error) -> ! {
    if e.kind() == ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("panoply: cannot write to stdout: {e}");
    std::process::exit(1);
}

/// `print!` that ends the program quietly when stdout's reader went away.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*))
    };
}

/// `println!` that ends the program quietly when stdout's reader went away.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
