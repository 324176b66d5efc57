//! The SPRT picture of a match: the log-likelihood ratio after every game pair, between the two
//! bounds where the test stops (Wald's sequential test as fishtest and OpenBench show it).

use crate::colour::INK;
use crate::font;
use crate::image::render;
use crate::{ImageFormat, ReportError};
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the SPRT picture shows.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtTrace {
    /// `(games played, LLR)` after every completed pair, in order.
    pub points: Vec<(f64, f64)>,
    /// The lower bound ln(β/(1−α)): H0 is accepted at or below it.
    pub lower: f64,
    /// The upper bound ln((1−β)/α): H1 is accepted at or above it.
    pub upper: f64,
    /// The title (the hypotheses).
    pub title: String,
}

/// Draws the LLR line with the two bounds as horizontal lines; 760×300 pixels.
///
/// # Errors
/// [`ReportError::Empty`] without points; drawing and encoding errors.
pub fn sprt_plot(trace: &SprtTrace, format: ImageFormat) -> Result<Vec<u8>, ReportError> {
    if trace.points.is_empty() {
        return Err(ReportError::Empty("no game pair to plot".to_owned()));
    }
    render!(format, (760, 300), |root| paint(&root, trace))
}

fn paint<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    trace: &SprtTrace,
) -> Result<(), ReportError> {
    let family = font::family();
    root.fill(&WHITE).map_err(ReportError::draw)?;
    let last_x = trace.points.last().map_or(1.0, |p| p.0).max(1.0);
    let (mut low, mut high) = (trace.lower, trace.upper);
    for &(_, y) in &trace.points {
        low = low.min(y);
        high = high.max(y);
    }
    let margin = (high - low) * 0.08;
    let mut chart = ChartBuilder::on(root)
        .caption(&trace.title, (family, 15).into_font().color(&INK))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..last_x, (low - margin)..(high + margin))
        .map_err(ReportError::draw)?;
    chart
        .configure_mesh()
        .x_desc("games played")
        .y_desc("LLR")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.1}"))
        .label_style((family, 12).into_font().color(&INK))
        .axis_desc_style((family, 13).into_font().color(&INK))
        .light_line_style(RGBColor(240, 240, 240))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()
        .map_err(ReportError::draw)?;
    for (bound, colour) in [
        (trace.upper, RGBColor(44, 160, 44)),
        (trace.lower, RGBColor(214, 39, 40)),
    ] {
        chart
            .draw_series(DashedLineSeries::new(
                vec![(0.0, bound), (last_x, bound)],
                8,
                5,
                colour.stroke_width(2),
            ))
            .map_err(ReportError::draw)?;
    }
    let mut line = Vec::with_capacity(trace.points.len() + 1);
    line.push((0.0, 0.0));
    line.extend(trace.points.iter().copied());
    chart
        .draw_series(LineSeries::new(
            line,
            RGBColor(31, 119, 180).stroke_width(2),
        ))
        .map_err(ReportError::draw)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_a_trace_and_refuses_an_empty_one() {
        let trace = SprtTrace {
            points: (1..=50)
                .map(|k| (f64::from(2 * k), f64::from(k) * 0.05))
                .collect(),
            lower: -2.94,
            upper: 2.94,
            title: "SPRT".to_owned(),
        };
        let png = sprt_plot(&trace, ImageFormat::Png).expect("drawn");
        assert!(png.starts_with(b"\x89PNG"));
        let svg =
            String::from_utf8(sprt_plot(&trace, ImageFormat::Svg).expect("svg")).expect("utf-8");
        assert!(svg.contains("LLR"));
        let empty = SprtTrace {
            points: Vec::new(),
            ..trace
        };
        assert!(sprt_plot(&empty, ImageFormat::Png).is_err());
    }
}
