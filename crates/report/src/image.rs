//! Output formats and PNG encoding.

use crate::ReportError;
use std::path::Path;

/// A picture's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    /// A bitmap, encoded as PNG.
    Png,
    /// A vector drawing, as SVG text.
    Svg,
}

impl ImageFormat {
    /// Picks the format from a file name's extension (`.png` or `.svg`, any case).
    #[must_use]
    pub fn from_path(path: &Path) -> Option<ImageFormat> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "png" => Some(ImageFormat::Png),
            "svg" => Some(ImageFormat::Svg),
            _ => None,
        }
    }

    /// Returns the MIME type, for inlining as a data URL.
    #[must_use]
    pub const fn mime(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Svg => "image/svg+xml",
        }
    }
}

/// Encodes an RGB buffer (3 bytes a pixel, rows top to bottom) as PNG.
pub(crate) fn encode_png(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, ReportError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder
        .write_header()
        .map_err(|e| ReportError::Png(e.to_string()))?;
    writer
        .write_image_data(rgb)
        .map_err(|e| ReportError::Png(e.to_string()))?;
    writer
        .finish()
        .map_err(|e| ReportError::Png(e.to_string()))?;
    Ok(out)
}

/// Draws with `paint` on a bitmap or an SVG backend of `size` pixels and returns the file's
/// bytes.
macro_rules! render {
    ($format:expr, $size:expr, |$root:ident| $paint:expr) => {{
        let (width, height): (u32, u32) = $size;
        match $format {
            $crate::ImageFormat::Png => {
                let mut buffer = vec![255u8; width as usize * height as usize * 3];
                {
                    let backend =
                        plotters::prelude::BitMapBackend::with_buffer(&mut buffer, (width, height));
                    let $root = plotters::prelude::IntoDrawingArea::into_drawing_area(backend);
                    $paint?;
                    $root.present().map_err($crate::ReportError::draw)?;
                }
                $crate::image::encode_png(&buffer, width, height)
            }
            $crate::ImageFormat::Svg => {
                let mut text = String::new();
                {
                    let backend =
                        plotters::prelude::SVGBackend::with_string(&mut text, (width, height));
                    let $root = plotters::prelude::IntoDrawingArea::into_drawing_area(backend);
                    $paint?;
                    $root.present().map_err($crate::ReportError::draw)?;
                }
                Ok(text.into_bytes())
            }
        }
    }};
}
pub(crate) use render;
