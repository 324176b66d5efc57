//! The HTML report: one self-contained file (pictures inlined as data URLs, no network) with
//! the tournament's settings, the ratings of every method side by side with error bars, the
//! crosstable, the outcome matrix, the rating-evolution plot, the consistency table and sample
//! games with a diagram of their final position.

use crate::colour::css;
use crate::{
    evolution_plot, matrix_cell_colour, outcome_matrix, Diagram, EvolutionOptions, ImageFormat,
    MatrixOptions, OutcomeTable, RatingHistory, ReportError, Wdl,
};
use base64::Engine;
use plotters::style::RGBColor;
use std::fmt::Write;

/// One player's value from one rating method, with its interval when the method gives one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingValue {
    /// The rating (or probability).
    pub value: f64,
    /// The interval's low end (a quartile, a confidence bound).
    pub low: Option<f64>,
    /// The interval's high end.
    pub high: Option<f64>,
}

impl RatingValue {
    /// Makes a value without an interval.
    #[must_use]
    pub const fn point(value: f64) -> RatingValue {
        RatingValue {
            value,
            low: None,
            high: None,
        }
    }

    /// Makes a value with an interval.
    #[must_use]
    pub const fn with_interval(value: f64, low: f64, high: f64) -> RatingValue {
        RatingValue {
            value,
            low: Some(low),
            high: Some(high),
        }
    }
}

/// One rating method's results, one entry per player of the report's table (in its order).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingColumn {
    /// The method's name (`uscf`, `elo_world`, …).
    pub method: String,
    /// What the value and its bar mean (e.g. `median of 19 runs; bar: quartiles`).
    pub note: String,
    /// Whether values are probabilities (shown in scientific notation on a log scale).
    pub probability: bool,
    /// The values, `None` where the method rates no one.
    pub values: Vec<Option<RatingValue>>,
}

/// Predicted against observed score of one pair (the Squava article's consistency table).
#[derive(Clone, Debug, PartialEq)]
pub struct ConsistencyRow {
    /// Player P.
    pub first: String,
    /// Player Q.
    pub second: String,
    /// Games between them (both colours).
    pub games: u64,
    /// P's observed score fraction.
    pub observed: f64,
    /// P's score fraction predicted from the ratings.
    pub predicted: f64,
}

/// A stored game to show.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleGame {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The result (`1-0`, `1/2-1/2`, `0-1`).
    pub result: String,
    /// Why it ended.
    pub termination: String,
    /// Plies played.
    pub plies: u32,
    /// The game's text: PGN for chess, the move list for other games.
    pub text: String,
    /// The final position.
    pub diagram: Option<Diagram>,
}

/// Everything the HTML report shows.
#[derive(Clone, Debug, PartialEq)]
pub struct HtmlReport {
    /// The page's title.
    pub title: String,
    /// Settings shown as a two-column table (tournament, game, games stored, …).
    pub settings: Vec<(String, String)>,
    /// The tournament file's text (TOML), shown as is.
    pub config: Option<String>,
    /// The results.
    pub table: OutcomeTable,
    /// Ratings, one column per method; the first orders the players (else the score does).
    pub ratings: Vec<RatingColumn>,
    /// Rating histories for the evolution plot.
    pub histories: Vec<RatingHistory>,
    /// The consistency table.
    pub consistency: Vec<ConsistencyRow>,
    /// Which ratings the consistency table predicts from.
    pub consistency_source: String,
    /// Sample games.
    pub samples: Vec<SampleGame>,
    /// Remarks shown at the top (a method that could not rate these results, …).
    pub notes: Vec<String>,
    /// How pictures are inlined.
    pub picture_format: ImageFormat,
}

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Formats points with a ½ sign: `7½`, `0`, `½`.
fn points(p: f64) -> String {
    let whole = p.floor() as i64;
    let half = p - p.floor() >= 0.25;
    match (whole, half) {
        (0, true) => "½".to_owned(),
        (w, true) => format!("{w}½"),
        (w, false) => w.to_string(),
    }
}

pub(crate) const STYLE: &str = "
body{font-family:'DejaVu Sans',Verdana,sans-serif;margin:24px;color:#1e1e1e;max-width:1400px}
h1{font-size:1.6em;margin-bottom:4px}h2{border-bottom:2px solid #ccc;padding-bottom:4px;margin-top:36px}
nav a{margin-right:14px}table{border-collapse:collapse;font-size:13px}
th,td{padding:3px 6px;border:1px solid #ddd;text-align:right;white-space:nowrap}th{background:#f3f3f3}
td.name,th.name{text-align:left;white-space:nowrap}
table.cross td{padding:2px 4px;font-size:12px;text-align:center;min-width:30px}
table.cross td.self{background:#eee}
.note{color:#555;font-size:12px}.warn{color:#a33}
pre{background:#f7f7f7;padding:8px;font-size:12px;white-space:pre-wrap;max-width:760px}
img.picture{max-width:100%;border:1px solid #eee}
.game{display:flex;gap:18px;align-items:flex-start}
table.board{border:2px solid #555}table.board td{width:22px;height:22px;padding:0;border:none;text-align:center;font-size:18px;line-height:22px}
table.board td.l{background:#f0d9b5}table.board td.d{background:#b58863}
.stone{display:inline-block;width:16px;height:16px;border-radius:50%;vertical-align:middle}
.stone.x{background:#222}.stone.o{background:#fff;border:1px solid #222}
details{margin:6px 0}summary{cursor:pointer}.scroll{overflow-x:auto}
";

/// Writes the report as one HTML page.
///
/// # Errors
/// [`ReportError::Empty`] for a table without players; [`ReportError::Inconsistent`] when a
/// rating column's length differs from the table's; drawing errors.
pub fn html_report(report: &HtmlReport) -> Result<String, ReportError> {
    let table = &report.table;
    if table.is_empty() {
        return Err(ReportError::Empty(
            "the report needs at least one player".to_owned(),
        ));
    }
    for c in &report.ratings {
        if c.values.len() != table.len() {
            return Err(ReportError::Inconsistent(format!(
                "rating method {} has {} values for {} players",
                c.method,
                c.values.len(),
                table.len()
            )));
        }
    }
    let (weakest_first, sorted_by) = strength_order(table, &report.ratings)?;
    let best_first: Vec<usize> = weakest_first.iter().rev().copied().collect();
    // The two pictures are drawn side by side on two threads.
    let (matrix, evolution) = std::thread::scope(|scope| {
        let evolution = scope.spawn(|| evolution_picture(report));
        let matrix = matrix_picture(report, &weakest_first, &sorted_by);
        let evolution = evolution
            .join()
            .unwrap_or_else(|_| Err(ReportError::Draw("the evolution plot panicked".to_owned())));
        (matrix, evolution)
    });
    let (matrix, evolution) = (matrix?, evolution?);

    let mut out = String::with_capacity(1 << 20);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>\n",
        esc(&report.title)
    );
    let _ = writeln!(out, "<h1>{}</h1>", esc(&report.title));
    out.push_str(
        "<nav><a href=\"#settings\">Settings</a><a href=\"#ratings\">Ratings</a><a href=\"#crosstable\">Crosstable</a>\
         <a href=\"#matrix\">Outcome matrix</a><a href=\"#evolution\">Rating evolution</a>\
         <a href=\"#consistency\">Consistency</a><a href=\"#games\">Sample games</a></nav>\n",
    );
    for n in &report.notes {
        let _ = writeln!(out, "<p class=\"warn\">{}</p>", esc(n));
    }
    write_settings(&mut out, report);
    write_ratings(&mut out, table, &report.ratings, &best_first);
    write_crosstable(&mut out, table, &best_first);
    write_matrix(&mut out, &matrix);
    write_evolution(&mut out, evolution.as_ref());
    write_consistency(&mut out, report);
    write_samples(&mut out, report);
    out.push_str("</body></html>\n");
    Ok(out)
}

/// Orders the players weakest first by the first rating method where it rates everyone, else
/// by score; returns the order and what it is sorted by.
pub(crate) fn strength_order(
    table: &OutcomeTable,
    ratings: &[RatingColumn],
) -> Result<(Vec<usize>, String), ReportError> {
    let (keys, sorted_by) = match ratings.first() {
        Some(c) if c.values.iter().all(Option::is_some) => (
            c.values
                .iter()
                .map(|v| v.map_or(f64::NEG_INFINITY, |v| v.value))
                .collect::<Vec<f64>>(),
            format!("{} rating", c.method),
        ),
        _ => (table.score_fractions(), "score".to_owned()),
    };
    Ok((table.weakest_first(&keys)?, sorted_by))
}

fn write_settings(out: &mut String, report: &HtmlReport) {
    out.push_str("<section id=\"settings\"><h2>Settings</h2>\n<table>");
    for (k, v) in &report.settings {
        let _ = write!(
            out,
            "<tr><th class=\"name\">{}</th><td class=\"name\">{}</td></tr>",
            esc(k),
            esc(v)
        );
    }
    out.push_str("</table>\n");
    if let Some(c) = &report.config {
        let _ = write!(
            out,
            "<details><summary>tournament file</summary><pre>{}</pre></details>",
            esc(c)
        );
    }
    out.push_str("</section>\n");
}

/// The span of values (and intervals) of a column, for its bars.
fn column_span(c: &RatingColumn) -> Option<(f64, f64)> {
    let scale = |v: f64| {
        if c.probability {
            v.max(1e-300).log10()
        } else {
            v
        }
    };
    let mut span: Option<(f64, f64)> = None;
    for v in c.values.iter().flatten() {
        for x in [Some(v.value), v.low, v.high].into_iter().flatten() {
            if x.is_finite() {
                let x = scale(x);
                span = Some(span.map_or((x, x), |(a, b)| (a.min(x), b.max(x))));
            }
        }
    }
    span
}

/// Writes an inline SVG bar: the interval as a line, the value as a dot.
fn write_bar(out: &mut String, c: &RatingColumn, v: &RatingValue, (low, high): (f64, f64)) {
    const WIDTH: f64 = 84.0;
    let scale = |x: f64| {
        if c.probability {
            x.max(1e-300).log10()
        } else {
            x
        }
    };
    let at = |x: f64| {
        if high > low {
            4.0 + (WIDTH - 8.0) * (scale(x) - low) / (high - low)
        } else {
            WIDTH / 2.0
        }
    };
    let _ = write!(out, "<svg width=\"84\" height=\"12\" role=\"img\"><line x1=\"4\" y1=\"6\" x2=\"80\" y2=\"6\" stroke=\"#e4e4e4\"/>");
    if let (Some(a), Some(b)) = (v.low, v.high) {
        let (a, b) = (at(a), at(b));
        let _ = write!(
            out,
            "<line x1=\"{a:.1}\" y1=\"6\" x2=\"{b:.1}\" y2=\"6\" stroke=\"#1f77b4\" stroke-width=\"2\"/>\
             <line x1=\"{a:.1}\" y1=\"2\" x2=\"{a:.1}\" y2=\"10\" stroke=\"#1f77b4\"/><line x1=\"{b:.1}\" y1=\"2\" x2=\"{b:.1}\" y2=\"10\" stroke=\"#1f77b4\"/>"
        );
    }
    let _ = write!(
        out,
        "<circle cx=\"{:.1}\" cy=\"6\" r=\"3\" fill=\"#d62728\"/></svg>",
        at(v.value)
    );
}

fn format_value(c: &RatingColumn, x: f64) -> String {
    if c.probability && x.abs() >= 0.001 {
        format!("{x:.4}")
    } else if c.probability {
        format!("{x:.2e}")
    } else {
        format!("{x:.0}")
    }
}

pub(crate) fn write_ratings(
    out: &mut String,
    table: &OutcomeTable,
    ratings: &[RatingColumn],
    best_first: &[usize],
) {
    out.push_str("<section id=\"ratings\"><h2>Ratings</h2>\n");
    if ratings.is_empty() {
        out.push_str(
            "<p class=\"note\">No rating method was available; players are ordered by score.</p>\n",
        );
    }
    out.push_str("<table class=\"ratings\"><tr><th>rank</th><th class=\"name\">player</th><th>games</th><th>points</th><th>score</th>");
    for c in ratings {
        let _ = write!(
            out,
            "<th colspan=\"2\" title=\"{}\">{}</th>",
            esc(&c.note),
            esc(&c.method)
        );
    }
    out.push_str("</tr>\n");
    let spans: Vec<Option<(f64, f64)>> = ratings.iter().map(column_span).collect();
    for (rank, &i) in best_first.iter().enumerate() {
        let t = table.totals(i);
        let score = if t.games() > 0 {
            100.0 * t.points() / t.games() as f64
        } else {
            0.0
        };
        let _ = write!(
            out,
            "<tr><td>{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{score:.1}%</td>",
            rank + 1,
            esc(&table.players()[i]),
            t.games(),
            points(t.points())
        );
        for (c, span) in ratings.iter().zip(&spans) {
            match (c.values[i], span) {
                (Some(v), Some(span)) => {
                    let interval = match (v.low, v.high) {
                        (Some(a), Some(b)) => {
                            format!(" title=\"{} … {}\"", format_value(c, a), format_value(c, b))
                        }
                        _ => String::new(),
                    };
                    let _ = write!(out, "<td{interval}>{}</td><td>", format_value(c, v.value));
                    write_bar(out, c, &v, *span);
                    out.push_str("</td>");
                }
                _ => out.push_str("<td>–</td><td></td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    for c in ratings {
        let _ = writeln!(
            out,
            "<p class=\"note\"><b>{}</b>: {}</p>",
            esc(&c.method),
            esc(&c.note)
        );
    }
    out.push_str("</section>\n");
}

/// Lightens a colour towards white so that text on it stays readable.
fn pale((r, g, b): (u8, u8, u8)) -> RGBColor {
    let mix = |c: u8| u8::try_from((u16::from(c) + 2 * 255) / 3).unwrap_or(255);
    RGBColor(mix(r), mix(g), mix(b))
}

/// Players above which the crosstable shows percentages instead of points/games.
const CROSSTABLE_POINTS_UP_TO: usize = 14;

pub(crate) fn write_crosstable(out: &mut String, table: &OutcomeTable, best_first: &[usize]) {
    let as_points = best_first.len() <= CROSSTABLE_POINTS_UP_TO;
    let _ = write!(
        out,
        "<section id=\"crosstable\"><h2>Crosstable</h2>\n<p class=\"note\">Row player's {} against the column player \
         with both colours (hover for wins, draws, losses); colour as in the outcome matrix.</p>\n\
         <div class=\"scroll\"><table class=\"cross\"><tr><th></th>",
        if as_points { "points/games" } else { "score in percent" }
    );
    for k in 1..=best_first.len() {
        let _ = write!(out, "<th>{k}</th>");
    }
    out.push_str("<th>total</th></tr>\n");
    for (rank, &i) in best_first.iter().enumerate() {
        let _ = write!(
            out,
            "<tr><td class=\"name\">{}. {}</td>",
            rank + 1,
            esc(&table.players()[i])
        );
        for &j in best_first {
            if i == j && table.cell(i, i).games() == 0 {
                out.push_str("<td class=\"self\"></td>");
                continue;
            }
            let h: Wdl = table.head_to_head(i, j);
            match matrix_cell_colour(h) {
                Some(colour) => {
                    let _ = write!(
                        out,
                        "<td style=\"background:{}\" title=\"+{} ={} -{}\">{}</td>",
                        css(pale(colour)),
                        h.wins,
                        h.draws,
                        h.losses,
                        cross_cell(h, as_points)
                    );
                }
                None => out.push_str("<td></td>"),
            }
        }
        let t = table.totals(i);
        let _ = writeln!(out, "<td>{}</td></tr>", cross_cell(t, as_points));
    }
    out.push_str("</table></div></section>\n");
}

/// Returns a crosstable cell's text: `7½/10`, or the score in percent (`75`).
fn cross_cell(h: Wdl, as_points: bool) -> String {
    if as_points {
        format!("{}/{}", points(h.points()), h.games())
    } else {
        format!("{:.0}", 100.0 * h.points() / h.games().max(1) as f64)
    }
}

fn data_url(format: ImageFormat, bytes: &[u8]) -> String {
    format!(
        "data:{};base64,{}",
        format.mime(),
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// Draws the outcome matrix for the page: `(width, height, data URL)`.
fn matrix_picture(
    report: &HtmlReport,
    weakest_first: &[usize],
    sorted_by: &str,
) -> Result<(u32, u32, String), ReportError> {
    let (bytes, layout) = sorted_matrix(
        &report.table,
        weakest_first,
        sorted_by,
        report.picture_format,
    )?;
    Ok((
        layout.width,
        layout.height,
        data_url(report.picture_format, &bytes),
    ))
}

/// Draws the outcome matrix with the players in `weakest_first` order.
pub(crate) fn sorted_matrix(
    table: &OutcomeTable,
    weakest_first: &[usize],
    sorted_by: &str,
    format: ImageFormat,
) -> Result<(Vec<u8>, crate::MatrixLayout), ReportError> {
    let sorted = table.reordered(weakest_first)?;
    let options = MatrixOptions {
        cell: None,
        sorted_by: sorted_by.to_owned(),
    };
    outcome_matrix(&sorted, &options, format)
}

/// Draws the evolution plot for the page, if there is any history.
fn evolution_picture(report: &HtmlReport) -> Result<Option<(u32, u32, String)>, ReportError> {
    if report.histories.iter().all(|h| h.ratings.is_empty()) {
        return Ok(None);
    }
    let options = EvolutionOptions::new();
    let bytes = evolution_plot(&report.histories, &options, report.picture_format)?;
    Ok(Some((
        options.width,
        options.height,
        data_url(report.picture_format, &bytes),
    )))
}

fn write_matrix(out: &mut String, (width, height, url): &(u32, u32, String)) {
    let _ = writeln!(
        out,
        "<section id=\"matrix\"><h2>Outcome matrix</h2>\n<img class=\"picture\" alt=\"outcome matrix\" width=\"{width}\" height=\"{height}\" src=\"{url}\"></section>"
    );
}

fn write_evolution(out: &mut String, picture: Option<&(u32, u32, String)>) {
    out.push_str("<section id=\"evolution\"><h2>Rating evolution</h2>\n");
    match picture {
        None => out.push_str(
            "<p class=\"note\">No rating history (the uscf method is not available).</p>",
        ),
        Some((width, height, url)) => {
            let _ = write!(
                out,
                "<p class=\"note\">Each player's uscf rating after every game it played, in the order the games finished.</p>\
                 <img class=\"picture\" alt=\"rating evolution\" width=\"{width}\" height=\"{height}\" src=\"{url}\">"
            );
        }
    }
    out.push_str("</section>\n");
}

/// Returns the odds `s / (1 - s)` of a score fraction (the Squava article's R_P/Q).
fn odds(s: f64) -> f64 {
    s / (1.0 - s)
}

fn write_consistency(out: &mut String, report: &HtmlReport) {
    out.push_str("<section id=\"consistency\"><h2>Consistency</h2>\n");
    if report.consistency.is_empty() {
        out.push_str(
            "<p class=\"note\">No consistency table (the method is not available).</p></section>\n",
        );
        return;
    }
    let _ = write!(
        out,
        "<p class=\"note\">Each pair's observed score against the score its {} ratings predict; odds are s/(1−s), \
         the R<sub>P/Q</sub> and 10<sup>D/400</sup> of the Squava article.</p>\n\
         <table><tr><th class=\"name\">player P</th><th class=\"name\">player Q</th><th>games</th><th>P observed</th>\
         <th>P predicted</th><th>observed odds</th><th>predicted odds</th></tr>\n",
        esc(&report.consistency_source)
    );
    for r in &report.consistency {
        let _ = writeln!(
            out,
            "<tr><td class=\"name\">{}</td><td class=\"name\">{}</td><td>{}</td><td>{:.3}</td><td>{:.3}</td><td>{:.2}</td><td>{:.2}</td></tr>",
            esc(&r.first),
            esc(&r.second),
            r.games,
            r.observed,
            r.predicted,
            odds(r.observed),
            odds(r.predicted)
        );
    }
    out.push_str("</table></section>\n");
}

fn write_samples(out: &mut String, report: &HtmlReport) {
    out.push_str("<section id=\"games\"><h2>Sample games</h2>\n");
    if report.samples.is_empty() {
        out.push_str("<p class=\"note\">No games stored.</p>");
    }
    for (k, g) in report.samples.iter().enumerate() {
        let _ = write!(
            out,
            "<details{}><summary>{} – {}: <b>{}</b> ({}, {} plies)</summary><div class=\"game\">",
            if k < 2 { " open" } else { "" },
            esc(&g.white),
            esc(&g.black),
            esc(&g.result),
            esc(&g.termination),
            g.plies
        );
        if let Some(d) = &g.diagram {
            d.write_html(out);
        }
        let _ = writeln!(out, "<pre>{}</pre></div></details>", esc(&g.text));
    }
    out.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_and_escapes() {
        assert_eq!(points(7.5), "7½");
        assert_eq!(points(0.5), "½");
        assert_eq!(points(3.0), "3");
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert!((odds(0.8) - 4.0).abs() < 1e-12);
    }
}
