//! A closed pipe ends any command quietly, as Unix tools do (`eloworld results … | head -1`):
//! the standard library's `print!` panics when standard output is a closed pipe, so that one
//! panic is silenced and turned into a quiet exit, and so is a write error of [`Stdout`]
//! returned up to `main` (a closed pipe to an engine stays an error).

use std::any::Any;
use std::io::ErrorKind;

/// Returns true when a panic's payload is the standard library's failure to print to a
/// closed standard output.
pub fn is_closed_pipe_panic(payload: &(dyn Any + Send)) -> bool {
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("");
    message.starts_with("failed printing to stdout") && message.contains("Broken pipe")
}

/// Keeps the default panic message for every panic but a closed standard output.
pub fn install_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !is_closed_pipe_panic(info.payload()) {
            default(info);
        }
    }));
}

/// Marks a write error as standard output closed by its reader (never an engine's pipe).
#[derive(Debug)]
struct StdoutClosed;

impl std::fmt::Display for StdoutClosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("standard output was closed")
    }
}

impl std::error::Error for StdoutClosed {}

/// Standard output whose closed-pipe errors `main` recognises and ends quietly on.
pub struct Stdout(std::io::StdoutLock<'static>);

/// Returns standard output, locked, for commands that write to it through `Write`.
pub fn stdout() -> Stdout {
    Stdout(std::io::stdout().lock())
}

fn mark(e: std::io::Error) -> std::io::Error {
    if e.kind() == ErrorKind::BrokenPipe {
        std::io::Error::new(ErrorKind::BrokenPipe, StdoutClosed)
    } else {
        e
    }
}

impl std::io::Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(mark)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(mark)
    }
}

/// Returns true when the error is standard output closed by its reader, anywhere in its chain.
pub fn is_closed_stdout_error(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::get_ref)
            .is_some_and(|inner| inner.is::<StdoutClosed>())
    })
}
