//! The rating-evolution plot of the Squava article (the Squava article): each player's rating after
//! every game it played, one line per player, x = games played, y = rating; several runs
//! can be overlaid (each run gets its own dash pattern, each player keeps its colour).

use crate::colour::{series_colour, INK};
use crate::font;
use crate::image::render;
use crate::{ImageFormat, ReportError};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One player's ratings in one run: `ratings[0]` before its first game, `ratings[k]` after
/// its `k`-th game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingHistory {
    /// The player.
    pub player: String,
    /// The run (a tournament name, a database), when several runs are overlaid.
    pub run: Option<String>,
    /// The ratings, before the first game and after each game.
    pub ratings: Vec<f64>,
}

/// How to draw the plot.
#[derive(Clone, Debug, PartialEq)]
pub struct EvolutionOptions {
    /// Picture width in pixels.
    pub width: u32,
    /// Picture height in pixels.
    pub height: u32,
    /// The title.
    pub title: String,
    /// Most points drawn per line: longer histories are thinned evenly (first and last points
    /// kept), which keeps SVG files small and changes nothing visible at this width.
    pub max_points: usize,
}

impl EvolutionOptions {
    /// Returns the defaults: 1000×600, titled like the paper's graph.
    #[must_use]
    pub fn new() -> EvolutionOptions {
        EvolutionOptions {
            width: 1000,
            height: 600,
            title: "Rating vs number of games played".to_owned(),
            max_points: 1500,
        }
    }
}

impl Default for EvolutionOptions {
    fn default() -> EvolutionOptions {
        EvolutionOptions::new()
    }
}

/// Returns `(games played, rating)` points of a history, at most `max` of them.
fn thinned(ratings: &[f64], max: usize) -> Vec<(f64, f64)> {
    let n = ratings.len();
    let max = max.max(2);
    if n <= max {
        return ratings
            .iter()
            .enumerate()
            .map(|(i, &r)| (i as f64, r))
            .collect();
    }
    (0..max)
        .map(|k| {
            let i = k * (n - 1) / (max - 1);
            (i as f64, ratings[i])
        })
        .collect()
}

/// Draws the plot; a legend on the right lists the players by final rating, best first, and
/// the runs' dash patterns when there are several.
///
/// # Errors
/// [`ReportError::Empty`] when no history has a rating; drawing and encoding errors.
pub fn evolution_plot(
    histories: &[RatingHistory],
    options: &EvolutionOptions,
    format: ImageFormat,
) -> Result<Vec<u8>, ReportError> {
    let drawn: Vec<&RatingHistory> = histories.iter().filter(|h| !h.ratings.is_empty()).collect();
    if drawn.is_empty() {
        return Err(ReportError::Empty("no rating history to plot".to_owned()));
    }
    render!(format, (options.width, options.height), |root| paint(
        &root, &drawn, options
    ))
}

/// Returns the distinct values in first-seen order.
fn distinct<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for s in items {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

fn paint<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    histories: &[&RatingHistory],
    options: &EvolutionOptions,
) -> Result<(), ReportError> {
    let family = font::family();
    root.fill(&WHITE).map_err(ReportError::draw)?;
    let players = distinct(histories.iter().map(|h| h.player.as_str()));
    let runs = distinct(histories.iter().map(|h| h.run.as_deref().unwrap_or("")));

    let legend_font = (family, 12).into_font();
    let legend_width = players
        .iter()
        .chain(runs.iter())
        .map(|p| legend_font.box_size(p).map(|(w, _)| w).unwrap_or(0))
        .max()
        .unwrap_or(0)
        + 50;
    let legend_width = legend_width.min(options.width / 3);
    let (chart_area, legend_area) =
        root.split_horizontally(options.width.saturating_sub(legend_width));

    let max_games = histories
        .iter()
        .map(|h| h.ratings.len() - 1)
        .max()
        .unwrap_or(0)
        .max(1);
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for h in histories {
        for &r in &h.ratings {
            low = low.min(r);
            high = high.max(r);
        }
    }
    let margin = ((high - low) * 0.05).max(10.0);
    let x_range = 0f64..max_games as f64;
    let mut chart = ChartBuilder::on(&chart_area)
        .caption(&options.title, (family, 18).into_font().color(&INK))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x_range, (low - margin)..(high + margin))
        .map_err(ReportError::draw)?;
    chart
        .configure_mesh()
        .x_desc("games played")
        .y_desc("rating")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style((family, 12).into_font().color(&INK))
        .axis_desc_style((family, 14).into_font().color(&INK))
        .light_line_style(RGBColor(240, 240, 240))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()
        .map_err(ReportError::draw)?;
    for h in histories {
        let colour = series_colour(players.iter().position(|p| *p == h.player).unwrap_or(0));
        let run = runs
            .iter()
            .position(|r| *r == h.run.as_deref().unwrap_or(""))
            .unwrap_or(0);
        let points = thinned(&h.ratings, options.max_points);
        let style = colour.stroke_width(2);
        if run == 0 {
            chart
                .draw_series(LineSeries::new(points, style))
                .map_err(ReportError::draw)?;
        } else {
            let dash = 3 + 3 * u32::try_from(run).unwrap_or(1);
            chart
                .draw_series(DashedLineSeries::new(points, dash, 4, style))
                .map_err(ReportError::draw)?;
        }
    }
    paint_legend(&legend_area, histories, &players, &runs)
}

fn paint_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    histories: &[&RatingHistory],
    players: &[&str],
    runs: &[&str],
) -> Result<(), ReportError> {
    let family = font::family();
    let text = TextStyle::from((family, 12).into_font())
        .color(&INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    // Players by their final rating in the first run that has them, best first.
    let final_rating = |p: &str| {
        histories
            .iter()
            .find(|h| h.player == p)
            .and_then(|h| h.ratings.last().copied())
            .unwrap_or(f64::NEG_INFINITY)
    };
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| final_rating(players[b]).total_cmp(&final_rating(players[a])));
    let (_, height) = area.dim_in_pixel();
    let row = 16;
    let mut y = 40;
    for i in order {
        if y + row > i32::try_from(height).unwrap_or(i32::MAX) - 10 {
            area.draw_text("…", &text, (8, y))
                .map_err(ReportError::draw)?;
            break;
        }
        let colour = series_colour(i);
        area.draw(&PathElement::new(
            vec![(8, y), (32, y)],
            colour.stroke_width(3),
        ))
        .map_err(ReportError::draw)?;
        area.draw_text(players[i], &text, (38, y))
            .map_err(ReportError::draw)?;
        y += row;
    }
    if runs.len() > 1 {
        y += row / 2;
        for (k, run) in runs.iter().enumerate() {
            let points = vec![(8, y), (32, y)];
            if k == 0 {
                area.draw(&PathElement::new(points, INK.stroke_width(2)))
                    .map_err(ReportError::draw)?;
            } else {
                let dash = 3 + 3 * u32::try_from(k).unwrap_or(1);
                for segment in DashedLineSeries::new(points, dash, 4, INK.stroke_width(2)) {
                    area.draw(&segment).map_err(ReportError::draw)?;
                }
            }
            area.draw_text(run, &text, (38, y))
                .map_err(ReportError::draw)?;
            y += row;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_both_ends_and_the_count() {
        let r: Vec<f64> = (0..10_001).map(f64::from).collect();
        let t = thinned(&r, 100);
        assert_eq!(t.len(), 100);
        assert_eq!(t[0], (0.0, 0.0));
        assert_eq!(t[99], (10_000.0, 10_000.0));
        assert!(t.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(thinned(&r[..5], 100).len(), 5);
    }
}
