//! Line plots of a run, like seed 003's Fig. 2 (positions solved per generation, best and
//! average) and Fig. 4 (total node count per generation), as PNG.
//!
//! The text is drawn with DejaVu Sans, the font `eloworld-report` embeds (the same file,
//! included from that crate's `fonts/` directory; licence there).

use crate::EvolveError;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::sync::OnceLock;

static DEJAVU_SANS: &[u8] = include_bytes!("../../report/fonts/DejaVuSans.ttf");
const FAMILY: &str = "evolve-sans";

fn family() -> &'static str {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    REGISTERED.get_or_init(|| {
        plotters::style::register_font(FAMILY, FontStyle::Normal, DEJAVU_SANS).is_ok()
    });
    FAMILY
}

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

fn draw_error(e: impl std::fmt::Display) -> EvolveError {
    EvolveError::Input(format!("drawing the plot: {e}"))
}

/// Draws the series as lines on one chart and returns the PNG file's bytes (900×560).
///
/// # Errors
/// [`EvolveError::Input`] when there is nothing to draw or drawing fails.
pub fn line_plot_png(series: &[Series], labels: &Labels) -> Result<Vec<u8>, EvolveError> {
    const W: u32 = 900;
    const H: u32 = 560;
    let points = series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for &(x, y) in points {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if !x0.is_finite() || !y0.is_finite() {
        return Err(EvolveError::Input("nothing to plot".to_owned()));
    }
    let pad = ((y1 - y0) * 0.05).max(1e-9);
    let family = family();
    let mut buffer = vec![255u8; W as usize * H as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut buffer, (W, H)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&labels.title, (family, 18))
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1.max(x0 + 1.0), (y0 - pad)..(y1 + pad))
            .map_err(draw_error)?;
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
            .label_style((family, 12))
            .axis_desc_style((family, 14))
            .light_line_style(RGBColor(240, 240, 240))
            .draw()
            .map_err(draw_error)?;
        let colours = [
            RGBColor(200, 40, 40),
            RGBColor(40, 90, 200),
            RGBColor(40, 150, 60),
            RGBColor(150, 90, 20),
        ];
        for (i, s) in series.iter().enumerate() {
            let c = colours[i % colours.len()];
            chart
                .draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2)))
                .map_err(draw_error)?
                .label(s.name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .label_font((family, 13))
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(draw_error)?;
        root.present().map_err(draw_error)?;
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, W, H);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(draw_error)?;
    writer.write_image_data(&buffer).map_err(draw_error)?;
    writer.finish().map_err(draw_error)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_a_png() {
        let s = Series {
            name: "best".to_owned(),
            points: vec![(0.0, 1.0), (1.0, 3.0), (2.0, 4.0)],
        };
        let labels = Labels {
            title: "t".to_owned(),
            x: "generation".to_owned(),
            y: "solved".to_owned(),
        };
        let png = line_plot_png(&[s], &labels).expect("draws");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert!(line_plot_png(&[], &labels).is_err());
    }
}
