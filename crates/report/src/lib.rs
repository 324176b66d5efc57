//! Pictures and reports for eloworld: the outcome matrix (Elo World, Fig. 11), rating-evolution
//! plots (the Squava article's graph), the asterisk table (Rollason's Computer Go rankings) and a
//! self-contained HTML report.
//!
//! The crate draws; it never plays games, reads a database or rates anyone. Its inputs are plain
//! data — player names, win/draw/loss counts per ordered pair ([`OutcomeTable`]), rating
//! histories ([`RatingHistory`]), rating columns ([`RatingColumn`]) — which the `eloworld`
//! command gathers from the store and the `eloworld-ratings` crate.
//!
//! Text in pictures is drawn with DejaVu Sans embedded in the crate (see `fonts/README.md`), so a
//! plot looks the same on every machine, with or without system fonts or a display.
#![deny(missing_docs)]

mod asterisk;
mod colour;
mod diagram;
mod error;
mod evolution;
mod font;
mod html;
mod image;
mod line_plot;
mod matrix;
mod outcomes;
mod sections;
mod sprt_plot;

pub use asterisk::{asterisk_table, AsteriskOptions, AsteriskRow};
pub use diagram::Diagram;
pub use error::ReportError;
pub use evolution::{evolution_plot, EvolutionOptions, RatingHistory};
pub use html::{html_report, ConsistencyRow, HtmlReport, RatingColumn, RatingValue, SampleGame};
pub use image::ImageFormat;
pub use line_plot::{line_plot, Labels, Series};
pub use matrix::{matrix_cell_colour, outcome_matrix, MatrixLayout, MatrixOptions};
pub use outcomes::{OutcomeTable, Wdl};
pub use sections::{
    crosstable_section, diagram_html, ordered_matrix, ratings_section, report_stylesheet,
    strongest_first,
};
pub use sprt_plot::{sprt_plot, SprtTrace};
