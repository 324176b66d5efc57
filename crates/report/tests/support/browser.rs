//! Finding headless Chromium for the browser tests: the report's here, and the dashboard's in
//! `crates/cli/tests`, which include this file by path (one copy of the lookup and the skip).

use std::path::PathBuf;

/// Returns the Chromium binary on `PATH`. When there is none: `None` after saying so on
/// standard error if `ELOWORLD_SKIP_BROWSER_TESTS` is set, else a panic saying how to get it.
#[expect(clippy::print_stderr, reason = "a test says what it skipped")]
pub fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let paths = std::env::var_os("PATH")?;
            std::env::split_paths(&paths)
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        });
    if found.is_none() {
        if std::env::var_os("ELOWORLD_SKIP_BROWSER_TESTS").is_some() {
            eprintln!("skipped: no chromium and ELOWORLD_SKIP_BROWSER_TESTS is set");
            return None;
        }
        panic!("these tests need headless Chromium: apt-get install chromium (or set ELOWORLD_SKIP_BROWSER_TESTS=1)");
    }
    found
}
