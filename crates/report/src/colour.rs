//! Colours shared by the pictures and the HTML page.

use plotters::style::RGBColor;

/// A cell of White wins (Elo World Fig. 11: green is White's wins).
pub(crate) const WIN_GREEN: RGBColor = RGBColor(30, 170, 60);
/// A cell of White losses (red).
pub(crate) const LOSS_RED: RGBColor = RGBColor(215, 40, 40);
/// A cell of draws (blue).
pub(crate) const DRAW_BLUE: RGBColor = RGBColor(40, 90, 220);
/// A pair that played no games.
pub(crate) const NO_GAMES: RGBColor = RGBColor(235, 235, 235);
/// The × on a cell of only wins or only losses.
pub(crate) const CROSS: RGBColor = RGBColor(255, 255, 255);
/// Text and axes.
pub(crate) const INK: RGBColor = RGBColor(30, 30, 30);

/// Twenty well-separated line colours (Tableau 20 order, dark shades first).
const PALETTE: [RGBColor; 20] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(174, 199, 232),
    RGBColor(255, 187, 120),
    RGBColor(152, 223, 138),
    RGBColor(255, 152, 150),
    RGBColor(197, 176, 213),
    RGBColor(196, 156, 148),
    RGBColor(247, 182, 210),
    RGBColor(199, 199, 199),
    RGBColor(219, 219, 141),
    RGBColor(158, 218, 229),
];

/// Returns the line colour of the `i`-th player: the palette, then hues around the circle.
pub(crate) fn series_colour(i: usize) -> RGBColor {
    if let Some(c) = PALETTE.get(i) {
        return *c;
    }
    // Golden-angle hue steps keep neighbours apart however many players there are.
    let hue = (i as f64 * 137.508) % 360.0;
    hsl(hue, 0.65, 0.45)
}

/// Converts hue (degrees), saturation and lightness (0..1) to RGB.
fn hsl(hue: f64, s: f64, l: f64) -> RGBColor {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let h = hue / 60.0;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    RGBColor(channel(r + m), channel(g + m), channel(b + m))
}

/// Converts 0..1 to a byte.
pub(crate) fn channel(v: f64) -> u8 {
    (v * 255.0).round().clamp(0.0, 255.0) as u8
}

/// Returns `#rrggbb` for HTML.
pub(crate) fn css(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_beyond_the_palette_are_distinct_and_valid() {
        let many: Vec<RGBColor> = (0..60).map(series_colour).collect();
        for (i, a) in many.iter().enumerate() {
            for b in &many[i + 1..] {
                assert_ne!((a.0, a.1, a.2), (b.0, b.1, b.2));
            }
        }
        assert_eq!(hsl(0.0, 1.0, 0.5), RGBColor(255, 0, 0));
        assert_eq!(hsl(120.0, 1.0, 0.5), RGBColor(0, 255, 0));
        assert_eq!(css(RGBColor(1, 171, 255)), "#01abff");
    }
}
