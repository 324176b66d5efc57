//! The HTML report's sections one by one, for pages built elsewhere (the live dashboard of
//! `eloworld serve`): the same tables, bars and colours as the static report, from the same
//! code. Every string is escaped.

use crate::html::{sorted_matrix, strength_order, write_crosstable, write_ratings, STYLE};
use crate::{Diagram, ImageFormat, MatrixLayout, OutcomeTable, RatingColumn, ReportError};

/// Returns the report's style sheet (CSS), for pages that show its sections.
#[must_use]
pub fn report_stylesheet() -> &'static str {
    STYLE
}

/// Returns the players' order, strongest first: by the first rating column that rates
/// everyone, else by score (the order of the report's tables).
///
/// # Errors
/// [`ReportError::Inconsistent`] when a column's length differs from the table's.
pub fn strongest_first(
    table: &OutcomeTable,
    ratings: &[RatingColumn],
) -> Result<Vec<usize>, ReportError> {
    check_columns(table, ratings)?;
    let (weakest_first, _) = strength_order(table, ratings)?;
    Ok(weakest_first.into_iter().rev().collect())
}

/// Writes the ratings section (`<section id="ratings">`): games, points, score and every
/// method's value with its interval bar, strongest first.
///
/// # Errors
/// [`ReportError::Inconsistent`] when a column's length differs from the table's.
pub fn ratings_section(
    table: &OutcomeTable,
    ratings: &[RatingColumn],
) -> Result<String, ReportError> {
    let order = strongest_first(table, ratings)?;
    let mut out = String::with_capacity(4096 + 256 * table.len() * (1 + ratings.len()));
    write_ratings(&mut out, table, ratings, &order);
    Ok(out)
}

/// Writes the crosstable section (`<section id="crosstable">`), strongest first.
///
/// # Errors
/// [`ReportError::Inconsistent`] when a column's length differs from the table's.
pub fn crosstable_section(
    table: &OutcomeTable,
    ratings: &[RatingColumn],
) -> Result<String, ReportError> {
    let order = strongest_first(table, ratings)?;
    let mut out = String::with_capacity(4096 + 64 * table.len() * table.len());
    write_crosstable(&mut out, table, &order);
    Ok(out)
}

/// Draws the outcome matrix as the report shows it: players ordered weakest first by the
/// first rating column that rates everyone, else by score.
///
/// # Errors
/// [`ReportError::Inconsistent`] when a column's length differs from the table's; drawing
/// errors.
pub fn ordered_matrix(
    table: &OutcomeTable,
    ratings: &[RatingColumn],
    format: ImageFormat,
) -> Result<(Vec<u8>, MatrixLayout), ReportError> {
    check_columns(table, ratings)?;
    let (weakest_first, sorted_by) = strength_order(table, ratings)?;
    sorted_matrix(table, &weakest_first, &sorted_by, format)
}

/// Writes a board diagram as an HTML table of class `board`.
#[must_use]
pub fn diagram_html(diagram: &Diagram) -> String {
    let mut out = String::with_capacity(4096);
    diagram.write_html(&mut out);
    out
}

fn check_columns(table: &OutcomeTable, ratings: &[RatingColumn]) -> Result<(), ReportError> {
    match ratings.iter().find(|c| c.values.len() != table.len()) {
        Some(c) => Err(ReportError::Inconsistent(format!(
            "rating method {} has {} values for {} players",
            c.method,
            c.values.len(),
            table.len()
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RatingValue, Wdl};

    #[test]
    fn sections_order_by_rating_and_escape_names() {
        let players = vec!["<b>weak</b>".to_owned(), "strong".to_owned()];
        let mut table = OutcomeTable::new(&players);
        table.add_counts(1, 0, Wdl::new(3, 1, 0)).expect("in range");
        let ratings = vec![RatingColumn {
            method: "mle".to_owned(),
            note: "bar: 95%".to_owned(),
            probability: false,
            values: vec![
                Some(RatingValue::with_interval(-50.0, -80.0, -20.0)),
                Some(RatingValue::with_interval(50.0, 20.0, 80.0)),
            ],
        }];
        assert_eq!(strongest_first(&table, &ratings).expect("order"), [1, 0]);
        let html = ratings_section(&table, &ratings).expect("section");
        assert!(html.contains("&lt;b&gt;weak&lt;/b&gt;"));
        assert!(!html.contains("<b>weak"));
        let strong = html.find("strong").expect("strong shown");
        let weak = html.find("weak").expect("weak shown");
        assert!(strong < weak, "strongest first");
        let cross = crosstable_section(&table, &ratings).expect("crosstable");
        assert!(cross.contains("3½/4"), "{cross}");
        let short = vec![RatingColumn {
            values: vec![None],
            ..ratings[0].clone()
        }];
        assert!(ratings_section(&table, &short).is_err());
    }
}
