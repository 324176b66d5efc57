//! A small table of text and numbers that renders as aligned text, CSV or JSON.

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

/// One cell.
#[derive(Clone, Debug)]
pub enum Cell {
    /// Text, left-aligned.
    Text(String),
    /// A number shown with this many decimals.
    Num(f64, usize),
    /// A signed number (shown with `+`).
    Signed(f64, usize),
    /// A count.
    Int(u64),
    /// No value.
    Missing,
}

impl Cell {
    /// Returns a number cell, or Missing when not finite.
    pub fn num(x: f64, decimals: usize) -> Cell {
        if x.is_finite() {
            Cell::Num(x, decimals)
        } else {
            Cell::Missing
        }
    }

    /// Returns a number cell from an optional value.
    pub fn opt(x: Option<f64>, decimals: usize) -> Cell {
        x.map_or(Cell::Missing, |x| Cell::num(x, decimals))
    }

    fn text(&self) -> String {
        match self {
            Cell::Text(s) => s.clone(),
            Cell::Num(x, d) => format!("{x:.d$}"),
            Cell::Signed(x, d) => format!("{x:+.d$}"),
            Cell::Int(n) => n.to_string(),
            Cell::Missing => "-".to_owned(),
        }
    }

    fn json(&self) -> Json {
        match self {
            Cell::Text(s) => json!(s),
            Cell::Num(x, _) | Cell::Signed(x, _) => json!(x),
            Cell::Int(n) => json!(n),
            Cell::Missing => Json::Null,
        }
    }
}

/// A titled table.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Shown above the table in text, the key in JSON.
    pub title: String,
    /// Column names.
    pub columns: Vec<String>,
    /// Rows of cells, one per column.
    pub rows: Vec<Vec<Cell>>,
    /// Lines shown under the table in text (and as `notes` in JSON).
    pub notes: Vec<String>,
    /// A layout of its own for text (the rows still serve CSV and JSON).
    pub custom_text: Option<String>,
}

impl Table {
    /// Creates an empty table.
    pub fn new(title: impl Into<String>, columns: &[&str]) -> Table {
        Table {
            title: title.into(),
            columns: columns.iter().map(|c| (*c).to_owned()).collect(),
            ..Table::default()
        }
    }

    /// Renders aligned text: text columns left, numbers right.
    pub fn text(&self) -> String {
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| match c {
                        Cell::Text(t) => shortened(t),
                        other => other.text(),
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
        if let Some(text) = &self.custom_text {
            out.push_str(text);
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

    /// Renders CSV with a header line.
    pub fn csv(&self) -> String {
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
                    other => quote(&other.text()),
                })
                .collect();
            let _ = writeln!(out, "{}", values.join(","));
        }
        out
    }

    /// Returns the rows as JSON objects keyed by column, with the title and notes.
    pub fn json(&self) -> Json {
        let rows: Vec<Json> = self
            .rows
            .iter()
            .map(|r| {
                let mut m = Map::new();
                for (c, cell) in self.columns.iter().zip(r) {
                    m.insert(c.clone(), cell.json());
                }
                Json::Object(m)
            })
            .collect();
        json!({ "title": self.title, "rows": rows, "notes": self.notes })
    }
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
