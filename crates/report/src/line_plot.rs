//! Line plots of a run's figures per generation, like David–Koppel–Netanyahu's Fig. 2
//! (positions solved per generation, best and average) and Fig. 4 (total node count per
//! generation): several named series on one chart, a legend in the lower right.

use crate::colour::{series_colour, INK};
use crate::font;
use crate::image::render;
use crate::{ImageFormat, ReportError};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One line: a name for the legend and its `(x, y)` points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend text.
    pub name: String,
    /// The points.
    pub points: Vec<(f64, f64)>,
}

/// What the axes say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labels {
    /// The caption.
    pub title: String,
    /// The x axis.
    pub x: String,
    /// The y axis.
    pub y: String,
}

/// Draws the series as lines on one 900×560 chart and returns the file's bytes.
///
/// # Errors
/// [`ReportError::Empty`] when there is no point to draw; drawing and encoding errors.
pub fn line_plot(
    series: &[Series],
    labels: &Labels,
    format: ImageFormat,
) -> Result<Vec<u8>, ReportError> {
    let mut bounds = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for &(x, y) in series.iter().flat_map(|s| s.points.iter()) {
        bounds = (
            bounds.0.min(x),
            bounds.1.max(x),
            bounds.2.min(y),
            bounds.3.max(y),
        );
    }
    if !bounds.0.is_finite() || !bounds.2.is_finite() {
        return Err(ReportError::Empty("no point to plot".to_owned()));
    }
    render!(format, (900, 560), |root| paint(
        &root, series, labels, bounds
    ))
}

fn paint<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[Series],
    labels: &Labels,
    (x0, x1, y0, y1): (f64, f64, f64, f64),
) -> Result<(), ReportError> {
    let family = font::family();
    root.fill(&WHITE).map_err(ReportError::draw)?;
    let pad = ((y1 - y0) * 0.05).max(1e-9);
    let mut chart = ChartBuilder::on(root)
        .caption(&labels.title, (family, 18).into_font().color(&INK))
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1.max(x0 + 1.0), (y0 - pad)..(y1 + pad))
        .map_err(ReportError::draw)?;
    chart
        .configure_mesh()
        .x_desc(labels.x.as_str())
        .y_desc(labels.y.as_str())
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| {
            format!("{y:.4}")
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_owned()
        })
        .label_style((family, 12).into_font().color(&INK))
        .axis_desc_style((family, 14).into_font().color(&INK))
        .light_line_style(RGBColor(240, 240, 240))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()
        .map_err(ReportError::draw)?;
    for (i, s) in series.iter().enumerate() {
        let colour = series_colour(i);
        chart
            .draw_series(LineSeries::new(
                s.points.iter().copied(),
                colour.stroke_width(2),
            ))
            .map_err(ReportError::draw)?
            .label(s.name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .label_font((family, 13).into_font().color(&INK))
        .background_style(WHITE.mix(0.9))
        .border_style(INK)
        .draw()
        .map_err(ReportError::draw)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels() -> Labels {
        Labels {
            title: "Positions solved per generation".to_owned(),
            x: "generation".to_owned(),
            y: "solved".to_owned(),
        }
    }

    #[test]
    fn draws_png_and_svg_with_the_legend() {
        let s = vec![
            Series {
                name: "best organism".to_owned(),
                points: vec![(0.0, 1.0), (1.0, 3.0), (2.0, 4.0)],
            },
            Series {
                name: "population average".to_owned(),
                points: vec![(0.0, 0.5), (1.0, 1.5), (2.0, 2.0)],
            },
        ];
        let png = line_plot(&s, &labels(), ImageFormat::Png).expect("draws");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let svg = String::from_utf8(line_plot(&s, &labels(), ImageFormat::Svg).expect("draws"))
            .expect("utf-8");
        assert!(svg.contains("best organism") && svg.contains("population average"));
        assert!(svg.contains("Positions solved per generation"));
    }

    #[test]
    fn nothing_to_draw_is_an_error() {
        let e = line_plot(&[], &labels(), ImageFormat::Png).expect_err("empty");
        assert!(matches!(e, ReportError::Empty(_)), "{e}");
    }
}
