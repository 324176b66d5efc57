//! The outcome matrix (Elo World, Murphy's Elo World, Fig. 11): one cell per ordered pair, rows = White,
//! columns = Black, the cell's colour mixing green (White wins), blue (draws) and red (White
//! losses) in proportion, and a × on a cell that holds only wins or only losses.

use crate::colour::{self, CROSS, DRAW_BLUE, INK, LOSS_RED, NO_GAMES, WIN_GREEN};
use crate::font;
use crate::image::render;
use crate::{ImageFormat, OutcomeTable, ReportError, Wdl};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// How to draw the matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixOptions {
    /// The side of a cell in pixels (default: chosen from the number of players).
    pub cell: Option<u32>,
    /// What the players are sorted by, said in the caption (e.g. `uscf rating`).
    pub sorted_by: String,
}

impl MatrixOptions {
    /// Returns the defaults: automatic cell size, sorted by score.
    #[must_use]
    pub fn new() -> MatrixOptions {
        MatrixOptions {
            cell: None,
            sorted_by: "score".to_owned(),
        }
    }
}

impl Default for MatrixOptions {
    fn default() -> MatrixOptions {
        MatrixOptions::new()
    }
}

/// Where things are in a drawn matrix, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatrixLayout {
    /// The picture's width.
    pub width: u32,
    /// The picture's height.
    pub height: u32,
    /// The grid's left edge.
    pub grid_left: u32,
    /// The grid's top edge.
    pub grid_top: u32,
    /// A cell's side.
    pub cell: u32,
    /// Players (rows and columns).
    pub players: u32,
}

impl MatrixLayout {
    /// Returns the top-left pixel of the cell of White `row` and Black `column`.
    #[must_use]
    pub const fn cell_origin(&self, row: u32, column: u32) -> (u32, u32) {
        (
            self.grid_left + column * self.cell,
            self.grid_top + row * self.cell,
        )
    }

    /// Computes the layout of `table`'s matrix.
    #[must_use]
    pub fn of(table: &OutcomeTable, options: &MatrixOptions) -> MatrixLayout {
        let n = u32::try_from(table.len()).unwrap_or(u32::MAX).max(1);
        let cell = options.cell.unwrap_or_else(|| (720 / n).clamp(6, 40));
        let label = label_size(cell);
        let font = (font::family(), f64::from(label)).into_font();
        let name_width = table
            .players()
            .iter()
            .map(|p| font.box_size(p).map(|(w, _)| w).unwrap_or(0))
            .max()
            .unwrap_or(0);
        let grid = n * cell;
        let grid_left = PAD + name_width + 6;
        let grid_top = PAD + TITLE + name_width + 6;
        let legend_width = 560;
        MatrixLayout {
            width: (grid_left + grid + PAD).max(PAD * 2 + legend_width),
            height: grid_top + grid + 12 + LEGEND + PAD,
            grid_left,
            grid_top,
            cell,
            players: n,
        }
    }
}

const PAD: u32 = 12;
const TITLE: u32 = 44;
const LEGEND: u32 = 58;

/// Returns the label font size for a cell size.
fn label_size(cell: u32) -> u32 {
    (cell * 4 / 5).clamp(9, 14)
}

/// Returns a cell's colour: green, blue and red mixed in proportion to White's wins, draws and
/// losses; `None` for a pair with no games.
#[must_use]
pub fn matrix_cell_colour(counts: Wdl) -> Option<(u8, u8, u8)> {
    let games = counts.games();
    if games == 0 {
        return None;
    }
    let share = |n: u64| n as f64 / games as f64;
    let (w, d, l) = (
        share(counts.wins),
        share(counts.draws),
        share(counts.losses),
    );
    let mix = |g: u8, b: u8, r: u8| {
        colour::channel((w * f64::from(g) + d * f64::from(b) + l * f64::from(r)) / 255.0)
    };
    Some((
        mix(WIN_GREEN.0, DRAW_BLUE.0, LOSS_RED.0),
        mix(WIN_GREEN.1, DRAW_BLUE.1, LOSS_RED.1),
        mix(WIN_GREEN.2, DRAW_BLUE.2, LOSS_RED.2),
    ))
}

/// Says whether a cell gets the ×: it holds games, and only wins or only losses.
const fn crossed(counts: Wdl) -> bool {
    counts.games() > 0 && (counts.wins == counts.games() || counts.losses == counts.games())
}

/// Draws the outcome matrix of `table` in its player order (sort it first, weakest first, with
/// [`OutcomeTable::weakest_first`] and [`OutcomeTable::reordered`]); returns the file's bytes
/// and where the cells are.
///
/// # Errors
/// [`ReportError::Empty`] for a table without players; drawing and encoding errors.
pub fn outcome_matrix(
    table: &OutcomeTable,
    options: &MatrixOptions,
    format: ImageFormat,
) -> Result<(Vec<u8>, MatrixLayout), ReportError> {
    if table.is_empty() {
        return Err(ReportError::Empty(
            "the outcome matrix needs at least one player".to_owned(),
        ));
    }
    let layout = MatrixLayout::of(table, options);
    let bytes = render!(format, (layout.width, layout.height), |root| paint(
        &root, table, options, &layout
    ))?;
    Ok((bytes, layout))
}

fn px(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

fn paint<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    table: &OutcomeTable,
    options: &MatrixOptions,
    layout: &MatrixLayout,
) -> Result<(), ReportError> {
    let family = font::family();
    root.fill(&WHITE).map_err(ReportError::draw)?;
    let title = TextStyle::from((family, 16).into_font()).color(&INK);
    root.draw_text("Outcome matrix", &title, (px(PAD), px(PAD)))
        .map_err(ReportError::draw)?;
    let caption = TextStyle::from((family, 12).into_font()).color(&INK);
    root.draw_text(
        &format!(
            "rows: White, columns: Black; both weakest first by {}",
            options.sorted_by
        ),
        &caption,
        (px(PAD), px(PAD + 22)),
    )
    .map_err(ReportError::draw)?;

    let cell = layout.cell;
    let label = label_size(cell);
    let row_label = TextStyle::from((family, label).into_font())
        .color(&INK)
        .pos(Pos::new(HPos::Right, VPos::Center));
    let column_label = TextStyle::from(
        (family, label)
            .into_font()
            .transform(FontTransform::Rotate270),
    )
    .color(&INK)
    .pos(Pos::new(HPos::Left, VPos::Center));
    let n = table.len();
    for (i, name) in table.players().iter().enumerate() {
        let i32_i = px(u32::try_from(i).unwrap_or(0));
        let centre = i32_i * px(cell) + px(cell / 2);
        root.draw_text(
            name,
            &row_label,
            (px(layout.grid_left) - 4, px(layout.grid_top) + centre),
        )
        .map_err(ReportError::draw)?;
        root.draw_text(
            name,
            &column_label,
            (px(layout.grid_left) + centre, px(layout.grid_top) - 4),
        )
        .map_err(ReportError::draw)?;
    }

    let inset = px(cell * 2 / 9);
    let stroke = px((cell / 8).max(1));
    for white in 0..n {
        for black in 0..n {
            let counts = table.cell(white, black);
            let (x, y) = layout.cell_origin(
                u32::try_from(white).unwrap_or(0),
                u32::try_from(black).unwrap_or(0),
            );
            let (x, y) = (px(x), px(y));
            let fill = matrix_cell_colour(counts).map_or(NO_GAMES, |(r, g, b)| RGBColor(r, g, b));
            root.draw(&Rectangle::new(
                [(x, y), (x + px(cell), y + px(cell))],
                fill.filled(),
            ))
            .map_err(ReportError::draw)?;
            if crossed(counts) && cell >= 5 {
                let style = CROSS.stroke_width(u32::try_from(stroke).unwrap_or(1));
                let (a, b) = (x + inset, x + px(cell) - 1 - inset);
                let (c, d) = (y + inset, y + px(cell) - 1 - inset);
                root.draw(&PathElement::new(vec![(a, c), (b, d)], style))
                    .map_err(ReportError::draw)?;
                root.draw(&PathElement::new(vec![(a, d), (b, c)], style))
                    .map_err(ReportError::draw)?;
            }
        }
    }
    paint_legend(root, layout)
}

fn paint_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    layout: &MatrixLayout,
) -> Result<(), ReportError> {
    let family = font::family();
    let text = TextStyle::from((family, 12).into_font())
        .color(&INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let top = px(layout.grid_top + layout.players * layout.cell + 12);
    let swatch = 14;
    let entries: [(&str, RGBColor, bool); 5] = [
        ("White wins", WIN_GREEN, false),
        ("draws", DRAW_BLUE, false),
        ("White losses", LOSS_RED, false),
        ("only wins or only losses", WIN_GREEN, true),
        ("no games", NO_GAMES, false),
    ];
    let (mut x, mut y) = (px(PAD), top);
    for (name, fill, cross) in entries {
        let width = swatch + 6 + px(text.font.box_size(name).map(|(w, _)| w).unwrap_or(80)) + 18;
        if x + width > px(layout.width) - px(PAD) {
            x = px(PAD);
            y += swatch + 8;
        }
        root.draw(&Rectangle::new(
            [(x, y), (x + swatch, y + swatch)],
            fill.filled(),
        ))
        .map_err(ReportError::draw)?;
        root.draw(&Rectangle::new(
            [(x, y), (x + swatch, y + swatch)],
            INK.stroke_width(1),
        ))
        .map_err(ReportError::draw)?;
        if cross {
            let style = CROSS.stroke_width(2);
            root.draw(&PathElement::new(
                vec![(x + 3, y + 3), (x + swatch - 3, y + swatch - 3)],
                style,
            ))
            .map_err(ReportError::draw)?;
            root.draw(&PathElement::new(
                vec![(x + 3, y + swatch - 3), (x + swatch - 3, y + 3)],
                style,
            ))
            .map_err(ReportError::draw)?;
        }
        root.draw_text(name, &text, (x + swatch + 6, y + swatch / 2))
            .map_err(ReportError::draw)?;
        x += width;
    }
    let note = "colours mix in proportion: a green-blue cell is half wins, half draws";
    root.draw_text(note, &text, (px(PAD), y + swatch + 16))
        .map_err(ReportError::draw)?;
    Ok(())
}
