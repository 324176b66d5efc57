//! Score tables as text: W/D/L per player and per ordered pair (the tallies are
//! `eloworld_app::standing::Standings`).

use crate::rating_table::shortened;
pub use eloworld_app::standing::Standings;
use std::fmt::Write;

/// Renders the score tables of [`Standings`].
pub trait StandingsText {
    /// Renders the standings table; names longer than
    /// [`eloworld_ratings::SHOWN_NAME_CHARS`] are shortened for display (the data keeps them).
    fn table(&self) -> String;
    /// Renders W/D/L per ordered pair (White first), names shortened as in the table.
    fn pair_table(&self) -> String;
}

impl StandingsText for Standings {
    fn table(&self) -> String {
        let ranked = self.ranked();
        let shown: Vec<String> = ranked.iter().map(|(p, _)| shortened(p)).collect();
        let w = column_width(&shown, "player");
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:>4}  {:<w$}  {:>6} {:>6} {:>6} {:>6} {:>7}",
            "rank", "player", "games", "wins", "draws", "losses", "score%"
        );
        for (i, ((_, l), p)) in ranked.iter().zip(&shown).enumerate() {
            let _ = writeln!(
                out,
                "{:>4}  {:<w$}  {:>6} {:>6} {:>6} {:>6} {:>7.1}",
                i + 1,
                p,
                l.games(),
                l.wins,
                l.draws,
                l.losses,
                l.score_pct()
            );
        }
        out
    }

    fn pair_table(&self) -> String {
        let shown: Vec<String> = self.players.iter().map(|p| shortened(p)).collect();
        let w = column_width(&shown, "white");
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<w$}  {:<w$}  {:>6} {:>6} {:>6} {:>6}",
            "white", "black", "games", "1-0", "draws", "0-1"
        );
        for ((a, b), l) in &self.pairs {
            let (a, b) = (shortened(a), shortened(b));
            let _ = writeln!(
                out,
                "{a:<w$}  {b:<w$}  {:>6} {:>6} {:>6} {:>6}",
                l.games(),
                l.wins,
                l.draws,
                l.losses
            );
        }
        out
    }
}

/// Returns the width of a column of (shortened) names: the widest, in characters, or the
/// header's. Bounded by the shortening, so a format width never overflows.
pub fn column_width(shown: &[String], header: &str) -> usize {
    shown
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0)
        .max(header.chars().count())
}
