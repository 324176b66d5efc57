//! Ctrl-C for every long-running command: the first asks the run to stop cleanly (games in
//! flight are abandoned and replayed by the next run), the second ends every engine process
//! and exits with 130 at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Returns the flag the first Ctrl-C raises; `notice` is printed when it does.
pub fn stop_on_ctrl_c(notice: Option<&'static str>) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            eloworld_players::engine::kill_all();
            std::process::exit(130);
        }
        if let Some(text) = notice {
            eprintln!("{text}");
        }
    });
    stop
}
