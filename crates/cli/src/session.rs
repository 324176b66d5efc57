//! The command's side of a use case's [`Session`]: Ctrl-C raises its stop flag, and the
//! live display follows its runs.

use crate::display::{self, Mode};
use crossbeam_channel::Receiver;
use eloworld_app::{Progress, Session};
use eloworld_tournament::Event;
use std::sync::Arc;

/// The live display (bar, log lines or nothing) as a session's progress.
struct Display(Mode);

impl Progress for Display {
    fn follow(&self, events: Receiver<Event>, _tournament: String, players: Vec<String>) {
        display::show(events, players, self.0);
    }
}

/// A session stopped by the first Ctrl-C (`notice` is printed when it is); the second
/// ends every engine and exits. Call once per command: the handler is the process's.
pub fn start(notice: Option<&'static str>) -> Session {
    Session::new(crate::interrupt::stop_on_ctrl_c(notice))
}

/// The session with the live display, unless `quiet`.
pub fn with_display(session: Session, quiet: bool) -> Session {
    match Mode::detect(quiet) {
        Mode::Quiet => session,
        mode => session.progress(Some(Arc::new(Display(mode)))),
    }
}
