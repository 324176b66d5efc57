//! The asterisk table of Rollason's Computer Go rankings (Rollason's computer-Go ratings): rank, player, rating,
//! points, and a bar of asterisks proportional to the rating above the floor.

use std::fmt::Write;

/// One player's line.
#[derive(Clone, Debug, PartialEq)]
pub struct AsteriskRow {
    /// The player's name.
    pub player: String,
    /// The rating.
    pub rating: f64,
    /// Points scored: a win 1, a draw ½.
    pub points: f64,
}

/// How to draw the bars.
#[derive(Clone, Debug, PartialEq)]
pub struct AsteriskOptions {
    /// Asterisks of the highest-rated player.
    pub width: usize,
    /// The rating that gets one asterisk (default: the lowest rating in the table).
    pub floor: Option<f64>,
}

impl AsteriskOptions {
    /// Returns the defaults: 40 asterisks at the top, floor at the lowest rating.
    #[must_use]
    pub const fn new() -> AsteriskOptions {
        AsteriskOptions {
            width: 40,
            floor: None,
        }
    }
}

impl Default for AsteriskOptions {
    fn default() -> AsteriskOptions {
        AsteriskOptions::new()
    }
}

/// Returns the number of asterisks for `rating`: one at `floor`, `width` at `top`, linear in
/// between — the paper's bars grow by one asterisk for every equal step of rating above
/// the field's floor, and every player gets at least one.
fn stars(rating: f64, floor: f64, top: f64, width: usize) -> usize {
    let width = width.max(1);
    if top <= floor {
        return 1;
    }
    let steps = (width - 1) as f64 * (rating - floor) / (top - floor);
    let extra = steps.round().clamp(0.0, (width - 1) as f64) as usize;
    1 + extra
}

/// Renders the table under a `title` line (e.g. `1999-2001 combined` or `2001`): players by
/// rating, best first (ties by points, then name), in the layout of Rollason's ratings:
///
/// ```text
///      Player        Rating    Points
///
///   1. Go4++           3566  (   46.0 pts) *************************************
/// ```
///
/// # Examples
/// ```
/// use eloworld_report::{asterisk_table, AsteriskOptions, AsteriskRow};
/// let rows = [
///     AsteriskRow { player: "a".into(), rating: 1600.0, points: 3.0 },
///     AsteriskRow { player: "b".into(), rating: 1500.0, points: 1.0 },
/// ];
/// let text = asterisk_table("demo", &rows, &AsteriskOptions { width: 4, floor: None });
/// assert!(text.contains("  1. a               1600  (    3.0 pts) ****\n"));
/// assert!(text.contains("  2. b               1500  (    1.0 pts) *\n"));
/// ```
#[must_use]
pub fn asterisk_table(title: &str, rows: &[AsteriskRow], options: &AsteriskOptions) -> String {
    let mut sorted: Vec<&AsteriskRow> = rows.iter().collect();
    sorted.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then(b.points.total_cmp(&a.points))
            .then_with(|| a.player.cmp(&b.player))
    });
    let lowest = sorted
        .iter()
        .map(|r| r.rating)
        .fold(f64::INFINITY, f64::min);
    let top = sorted
        .iter()
        .map(|r| r.rating)
        .fold(f64::NEG_INFINITY, f64::max);
    let floor = options.floor.unwrap_or(lowest);
    let shown: Vec<String> = sorted.iter().map(|r| shortened(&r.player)).collect();
    let name_width = shown
        .iter()
        .map(|p| p.chars().count())
        .max()
        .unwrap_or(0)
        .max(12);
    let mut out = String::new();
    let _ = writeln!(out, "{title}\n");
    let _ = writeln!(
        out,
        "     {:<name_width$}{:>8}{:>10}\n",
        "Player", "Rating", "Points"
    );
    for (i, (r, player)) in sorted.iter().zip(&shown).enumerate() {
        let _ = writeln!(
            out,
            "{:>3}. {:<name_width$}{:>8.0}  ({:>7.1} pts) {}",
            i + 1,
            player,
            r.rating,
            r.points,
            "*".repeat(stars(r.rating, floor, top, options.width))
        );
    }
    out
}

/// The most characters of a name the table shows (a format width above 65,535 panics).
const SHOWN_CHARS: usize = 60;

/// Returns `name` cut to [`SHOWN_CHARS`] characters, ending in `…` when cut (display only).
fn shortened(name: &str) -> String {
    if name.chars().count() <= SHOWN_CHARS {
        name.to_owned()
    } else {
        let mut out: String = name.chars().take(SHOWN_CHARS - 1).collect();
        out.push('…');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_grow_linearly_from_one_asterisk_at_the_floor() {
        assert_eq!(stars(1500.0, 1500.0, 3500.0, 41), 1);
        assert_eq!(stars(2500.0, 1500.0, 3500.0, 41), 21);
        assert_eq!(stars(3500.0, 1500.0, 3500.0, 41), 41);
        assert_eq!(
            stars(1400.0, 1500.0, 3500.0, 41),
            1,
            "below the floor still one"
        );
        assert_eq!(stars(1500.0, 1500.0, 1500.0, 41), 1, "all equal");
    }

    /// The first four lines of the paper's 2001 table, with the paper's own ratings and points.
    #[test]
    fn layout_matches_the_seed_table() {
        let rows = [
            ("Handtalk", 2693.0, 7.0),
            ("Go4++", 2987.0, 11.0),
            ("Haruka", 2475.0, 14.0),
            ("Northernstar", 1500.0, 0.0),
        ]
        .map(|(p, rating, points)| AsteriskRow {
            player: p.to_owned(),
            rating,
            points,
        });
        let text = asterisk_table(
            "2001",
            &rows,
            &AsteriskOptions {
                width: 36,
                floor: None,
            },
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[2], "     Player        Rating    Points");
        assert_eq!(
            lines[4],
            format!(
                "  1. Go4++           2987  (   11.0 pts) {}",
                "*".repeat(36)
            )
        );
        assert_eq!(
            lines[5],
            format!(
                "  2. Handtalk        2693  (    7.0 pts) {}",
                "*".repeat(29)
            )
        );
        assert_eq!(lines[7], "  4. Northernstar    1500  (    0.0 pts) *");
    }

    #[test]
    fn a_name_of_seventy_thousand_characters_is_shortened_for_display() {
        let long = "g".repeat(70_000);
        let rows = [(long.as_str(), 2000.0, 3.0), ("b", 1500.0, 1.0)].map(|(p, rating, points)| {
            AsteriskRow {
                player: p.to_owned(),
                rating,
                points,
            }
        });
        let text = asterisk_table("t", &rows, &AsteriskOptions::new());
        let lines: Vec<&str> = text.lines().collect();
        let shown = format!("{}…", "g".repeat(59));
        assert_eq!(
            lines[4],
            format!("  1. {shown}    2000  (    3.0 pts) {}", "*".repeat(40))
        );
        assert_eq!(
            lines[5],
            format!("  2. b{}    1500  (    1.0 pts) *", " ".repeat(59))
        );
    }
}
