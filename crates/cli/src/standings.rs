//! Score tables from stored results: W/D/L per player and per ordered pair.

use crate::rating_table::shortened;
use eloworld_games::{GameResult, Side};
use eloworld_ratings::Wdl;
use eloworld_tournament::ResultRow;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Tallies per player (in the given order, then any others seen) and per ordered pair.
pub struct Standings {
    pub players: Vec<String>,
    pub totals: BTreeMap<String, Wdl>,
    pub pairs: BTreeMap<(String, String), Wdl>,
}

impl Standings {
    pub fn new(order: &[String]) -> Standings {
        Standings {
            players: order.to_vec(),
            totals: BTreeMap::new(),
            pairs: BTreeMap::new(),
        }
    }

    pub fn add(&mut self, white: &str, black: &str, result: GameResult) {
        for p in [white, black] {
            if !self.players.iter().any(|q| q == p) {
                self.players.push(p.to_owned());
            }
        }
        let s = result.first_score();
        self.totals.entry(white.to_owned()).or_default().add(s);
        self.totals
            .entry(black.to_owned())
            .or_default()
            .add(1.0 - s);
        self.pairs
            .entry((white.to_owned(), black.to_owned()))
            .or_default()
            .add(s);
    }

    pub fn from_rows(order: &[String], rows: &[ResultRow]) -> Standings {
        let mut s = Standings::new(order);
        for r in rows {
            s.add(&r.white, &r.black, r.result);
        }
        s
    }

    /// Returns players sorted by score, best first.
    pub fn ranked(&self) -> Vec<(&str, &Wdl)> {
        let mut v: Vec<(&str, &Wdl)> = self
            .players
            .iter()
            .filter_map(|p| self.totals.get(p).map(|l| (p.as_str(), l)))
            .collect();
        v.sort_by(|a, b| {
            b.1.score_pct()
                .total_cmp(&a.1.score_pct())
                .then(a.0.cmp(b.0))
        });
        v
    }

    /// Renders the standings table; names longer than
    /// [`eloworld_ratings::SHOWN_NAME_CHARS`] are shortened for display (the data keeps them).
    pub fn table(&self) -> String {
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

    /// Renders W/D/L per ordered pair (White first), names shortened as in [`Standings::table`].
    pub fn pair_table(&self) -> String {
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

/// Returns the first side's share of wins, draws and losses in all rows.
pub fn colour_split(rows: &[ResultRow]) -> (u64, u64, u64) {
    let mut t = (0, 0, 0);
    for r in rows {
        match r.result {
            GameResult::Win(Side::First) => t.0 += 1,
            GameResult::Draw => t.1 += 1,
            GameResult::Win(Side::Second) => t.2 += 1,
        }
    }
    t
}
