//! An engine's line in the match plan's fingerprint and stored settings.

use eloworld_players::engine::EngineDef;

/// One engine as the match plays it, in one line for the plan's fingerprint and the
/// stored settings: name, program and arguments, protocol, options, limits and book. Not
/// what only the PGN or the warnings use (kept lines, the mate-PV check) or how long the
/// runner waits for a hung engine.
pub(super) fn engine_definition(d: &EngineDef) -> String {
    use std::fmt::Write as _;
    let mut line = format!("{} = {:?} {:?} {:?}", d.name, d.command, d.args, d.protocol);
    for (name, value) in &d.options {
        let _ = write!(line, " option.{name}={value}");
    }
    let _ = write!(line, " budget {}", d.budget);
    if let Some(tc) = d.time_control {
        let _ = write!(line, " tc={tc} timemargin={}", d.time_margin_ms);
    }
    if d.ponder {
        line.push_str(" ponder");
    }
    if let Some(book) = &d.book {
        let _ = write!(
            line,
            " book={} bookdepth={:?}",
            book.display(),
            d.book_depth
        );
    }
    line
}
