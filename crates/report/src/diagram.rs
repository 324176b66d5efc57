//! Small board diagrams of final positions, drawn as HTML tables.

use crate::ReportError;
use std::fmt::Write;

/// A board: rows from the top (rank 8 in chess, row 5 in squava), each square empty or a
/// piece letter (FEN letters for chess: `K` white king, `p` black pawn; `x`/`o` for squava).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// The squares, top row first, left to right.
    pub rows: Vec<Vec<Option<char>>>,
}

impl Diagram {
    /// Reads the board part (up to the first space) of a FEN, or of eloworld's squava position
    /// text: rows separated by `/`, top first; a digit is that many empty squares, `.` one.
    ///
    /// # Errors
    /// [`ReportError::Inconsistent`] when rows differ in length or the text is empty.
    ///
    /// # Examples
    /// ```
    /// use eloworld_report::Diagram;
    /// let d = Diagram::from_position_text("4k3/8/8/8/8/8/8/4K3 w - - 0 1")?;
    /// assert_eq!(d.rows.len(), 8);
    /// assert_eq!(d.rows[0][4], Some('k'));
    /// let s = Diagram::from_position_text("x..../...../..o../...../..... x")?;
    /// assert_eq!(s.rows[2][2], Some('o'));
    /// # Ok::<_, eloworld_report::ReportError>(())
    /// ```
    pub fn from_position_text(text: &str) -> Result<Diagram, ReportError> {
        let board = text.split_whitespace().next().unwrap_or("");
        let bad = |why: &str| ReportError::Inconsistent(format!("position {text:?}: {why}"));
        if board.is_empty() {
            return Err(bad("empty"));
        }
        let mut rows = Vec::new();
        for part in board.split('/') {
            let mut row = Vec::new();
            for c in part.chars() {
                if let Some(n) = c.to_digit(10) {
                    row.extend(std::iter::repeat_n(None, n as usize));
                } else if c == '.' {
                    row.push(None);
                } else {
                    row.push(Some(c));
                }
            }
            rows.push(row);
        }
        if rows.iter().any(|r| r.len() != rows[0].len()) {
            return Err(bad("rows of different lengths"));
        }
        Ok(Diagram { rows })
    }

    /// Writes the diagram as an HTML table of class `board` (light and dark squares, chess
    /// pieces as Unicode figurines, squava stones as discs).
    pub(crate) fn write_html(&self, out: &mut String) {
        let _ = write!(out, "<table class=\"board\" aria-label=\"final position\">");
        for (r, row) in self.rows.iter().enumerate() {
            out.push_str("<tr>");
            for (c, square) in row.iter().enumerate() {
                let shade = if (r + c) % 2 == 0 { "l" } else { "d" };
                let piece = square.map_or("", glyph);
                let _ = write!(out, "<td class=\"{shade}\">{piece}</td>");
            }
            out.push_str("</tr>");
        }
        out.push_str("</table>");
    }
}

/// Returns the figurine of a piece letter.
fn glyph(c: char) -> &'static str {
    match c {
        'K' => "♔",
        'Q' => "♕",
        'R' => "♖",
        'B' => "♗",
        'N' => "♘",
        'P' => "♙",
        'k' => "♚",
        'q' => "♛",
        'r' => "♜",
        'b' => "♝",
        'n' => "♞",
        'p' => "♟",
        'x' | 'X' => "<span class=\"stone x\"></span>",
        'o' | 'O' => "<span class=\"stone o\"></span>",
        _ => "?",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_reads_and_renders_64_squares() {
        let d =
            Diagram::from_position_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                .expect("FEN");
        assert_eq!(d.rows.len(), 8);
        assert!(d.rows.iter().all(|r| r.len() == 8));
        assert_eq!(d.rows[7][4], Some('K'));
        assert_eq!(d.rows[3], vec![None; 8]);
        let mut html = String::new();
        d.write_html(&mut html);
        assert_eq!(html.matches("<td").count(), 64);
        assert_eq!(html.matches('♟').count(), 8);
        assert!(html.starts_with("<table class=\"board\""));
    }

    #[test]
    fn ragged_or_empty_boards_are_rejected() {
        assert!(Diagram::from_position_text("8/7/8").is_err());
        assert!(Diagram::from_position_text("").is_err());
    }
}
