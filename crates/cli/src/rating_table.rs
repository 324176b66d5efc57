//! The rating tables ([`eloworld_app::rating_tables`]) rendered as aligned text, CSV or JSON.

use eloworld_app::rating_tables::{Cell, Layout, Table};
use serde_json::{json, Map, Value as Json};
use std::fmt::Write;

/// Returns `s` cut to [`eloworld_ratings::SHOWN_NAME_CHARS`] characters, ending in `…` when
/// cut: aligned text only (CSV and JSON keep it whole).
pub fn shortened(s: &str) -> String {
    eloworld_ratings::shown_name(s).into_owned()
}

/// Appends `v` padded with spaces to `width` characters, on the right (`left`) or the left.
/// (Padding by hand: a format width above 65,535 panics.)
pub fn pad(out: &mut String, v: &str, width: usize, left: bool) {
    let fill = " ".repeat(width.saturating_sub(v.chars().count()));
    if left {
        out.push_str(v);
        out.push_str(&fill);
    } else {
        out.push_str(&fill);
        out.push_str(v);
    }
}

/// A cell as aligned text shows it.
fn cell_text(cell: &Cell) -> String {
    match cell {
        Cell::Text(s) => s.clone(),
        Cell::Num(x, d) => format!("{x:.d$}"),
        Cell::Signed(x, d) => format!("{x:+.d$}"),
        Cell::Int(n) => n.to_string(),
        Cell::Missing => "-".to_owned(),
    }
}

/// A cell as JSON.
fn cell_json(cell: &Cell) -> Json {
    match cell {
        Cell::Text(s) => json!(s),
        Cell::Num(x, _) | Cell::Signed(x, _) => json!(x),
        Cell::Int(n) => json!(n),
        Cell::Missing => Json::Null,
    }
}

/// A table ([`eloworld_app::rating_tables::Table`]) rendered three ways.
pub trait Render {
    /// Renders aligned text: text columns left, numbers right.
    fn text(&self) -> String;
    /// Renders CSV with a header line.
    fn csv(&self) -> String;
    /// Returns the rows as JSON objects keyed by column, with the title and notes.
    fn json(&self) -> Json;
}

impl Render for Table {
    fn text(&self) -> String {
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| match c {
                        Cell::Text(t) => shortened(t),
                        other => cell_text(other),
                    })
                    .collect()
            })
            .collect();
        let widths: Vec<usize> = (0..self.columns.len())
            .map(|c| {
                cells
                    .iter()
                    .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                    .max()
                    .unwrap_or(0)
                    .max(self.columns[c].chars().count())
            })
            .collect();
        let left: Vec<bool> = (0..self.columns.len())
            .map(|c| {
                self.rows
                    .iter()
                    .any(|r| matches!(r.get(c), Some(Cell::Text(_))))
            })
            .collect();
        let mut out = String::new();
        if !self.title.is_empty() {
            let _ = writeln!(out, "{}\n", self.title);
        }
        if self.layout == Layout::RollasonPage {
            out.push_str(&rollason_page(&self.rows));
            for n in &self.notes {
                let _ = writeln!(out, "{n}");
            }
            return out;
        }
        let line = |values: &[String], out: &mut String| {
            let mut s = String::new();
            for (c, v) in values.iter().enumerate() {
                if c > 0 {
                    s.push_str("  ");
                }
                pad(&mut s, v, widths[c], left[c]);
            }
            let _ = writeln!(out, "{}", s.trim_end());
        };
        line(&self.columns, &mut out);
        for r in &cells {
            line(r, &mut out);
        }
        for n in &self.notes {
            let _ = writeln!(out, "{n}");
        }
        out
    }

    fn csv(&self) -> String {
        let quote = |s: &str| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_owned()
            }
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}",
            self.columns
                .iter()
                .map(|c| quote(c))
                .collect::<Vec<_>>()
                .join(",")
        );
        for r in &self.rows {
            let values: Vec<String> = r
                .iter()
                .map(|c| match c {
                    Cell::Missing => String::new(),
                    Cell::Num(x, _) | Cell::Signed(x, _) => format!("{x}"),
                    other => quote(&cell_text(other)),
                })
                .collect();
            let _ = writeln!(out, "{}", values.join(","));
        }
        out
    }

    fn json(&self) -> Json {
        let rows: Vec<Json> = self
            .rows
            .iter()
            .map(|r| {
                let mut m = Map::new();
                for (c, cell) in self.columns.iter().zip(r) {
                    m.insert(c.clone(), cell_json(cell));
                }
                Json::Object(m)
            })
            .collect();
        json!({ "title": self.title, "rows": rows, "notes": self.notes })
    }
}

/// Renders Rollason's table as his computer-Go ratings page prints it, from the rows of
/// [`Layout::RollasonPage`]: rank, player, rating, points, stars, flag.
fn rollason_page(rows: &[Vec<Cell>]) -> String {
    let text = |row: &[Cell], k: usize| row.get(k).map_or_else(String::new, cell_text);
    let number = |row: &[Cell], k: usize| match row.get(k) {
        Some(Cell::Num(x, _)) => *x,
        _ => f64::NAN,
    };
    let shown: Vec<String> = rows.iter().map(|r| shortened(&text(r, 1))).collect();
    let w = shown
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(6)
        .max(14);
    let mut out = String::from("     ");
    pad(&mut out, "Player", w, true);
    out.push_str("  Rating    Points\n\n");
    for (row, name) in rows.iter().zip(&shown) {
        out.push_str(&format!("{:>3}. ", text(row, 0)));
        pad(&mut out, name, w, true);
        let flag = text(row, 5);
        out.push_str(&format!(
            " {:>6.0}  ({:>7.1} pts) {}{}\n",
            number(row, 2),
            number(row, 3),
            text(row, 4),
            if flag.is_empty() {
                String::new()
            } else {
                format!(" ({flag})")
            }
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_three_ways() {
        let mut t = Table::new("t", &["player", "elo"]);
        t.rows
            .push(vec![Cell::Text("a, b".into()), Cell::Num(1.234, 1)]);
        t.rows.push(vec![Cell::Text("c".into()), Cell::Missing]);
        assert_eq!(t.text(), "t\n\nplayer  elo\na, b    1.2\nc         -\n");
        assert_eq!(t.csv(), "player,elo\n\"a, b\",1.234\nc,\n");
        assert_eq!(t.json()["rows"][1]["elo"], Json::Null);
    }

    #[test]
    fn a_name_of_seventy_thousand_characters_is_shortened_in_text_only() {
        let long = "x".repeat(70_000);
        let mut t = Table::new("", &["player", "elo"]);
        t.rows
            .push(vec![Cell::Text(long.clone()), Cell::Num(1500.0, 0)]);
        t.rows
            .push(vec![Cell::Text("b".into()), Cell::Num(1400.0, 0)]);
        // Widths 60 (59 characters and an ellipsis) and 4, two spaces between.
        let expected = format!(
            "player{}elo\n{}…  1500\nb{}1400\n",
            " ".repeat(54 + 2 + 1),
            "x".repeat(59),
            " ".repeat(59 + 2)
        );
        assert_eq!(t.text(), expected);
        assert!(t.csv().contains(&long));
        assert_eq!(t.json()["rows"][0]["player"], Json::String(long));
    }
}
