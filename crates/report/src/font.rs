//! The embedded font: DejaVu Sans from Debian's `fonts-dejavu-core` (licence in `fonts/`).

use plotters::style::FontStyle;
use std::sync::OnceLock;

/// The family name plots ask for, registered on first use; SVG files name it too, so a browser
/// shows them in its own sans-serif font.
pub(crate) const FAMILY: &str = "sans-serif";

static DEJAVU_SANS: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// Registers the embedded font with plotters once per process; returns the family name.
pub(crate) fn family() -> &'static str {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    // The bytes are a font file compiled into the crate and checked by a test below, so a
    // failure here could only come from a corrupted build; text would then be skipped by
    // plotters rather than crash the report.
    REGISTERED.get_or_init(|| {
        plotters::style::register_font(FAMILY, FontStyle::Normal, DEJAVU_SANS).is_ok()
    });
    FAMILY
}

#[cfg(test)]
mod tests {
    #[test]
    fn embedded_font_registers() {
        assert!(plotters::style::register_font(
            "test-sans",
            plotters::style::FontStyle::Normal,
            super::DEJAVU_SANS
        )
        .is_ok());
        assert_eq!(super::family(), super::FAMILY);
    }
}
