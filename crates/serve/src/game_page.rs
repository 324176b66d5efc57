//! The game viewer: a stored game move by move on a board, with its PGN to copy.
//!
//! Without JavaScript the page shows the final position, the moves and the PGN; the script
//! steps through the positions, which the server lists (each position's text, replayed from
//! the stored moves) in a data attribute.

use crate::pages::{layout, tournament_path};
use eloworld_app::report::{game_text, replay};
use eloworld_games::GameKind;
use eloworld_report::diagram_html;
use eloworld_tournament::GameRow;
use maud::{html, Markup, PreEscaped};

/// The viewer's page.
pub(crate) fn game_page(g: &GameRow, site: &str) -> Markup {
    let replay = replay(g);
    let text = game_text(g, site);
    let last = replay.final_diagram();
    let positions = serde_json::to_string(&replay.positions).unwrap_or_else(|_| "[]".to_owned());
    let moves = serde_json::to_string(&replay.moves).unwrap_or_else(|_| "[]".to_owned());
    // Go writes its results as SGF does (`B+3.5`, `W+R`, `0` for jigo), and its record is SGF.
    let (result, record, game_kind) = match g.game {
        GameKind::Go => (
            sgf_result(&text).unwrap_or_else(|| g.result.pgn().to_owned()),
            "sgf",
            "go",
        ),
        GameKind::Chess => (g.result.pgn().to_owned(), "pgn", "chess"),
        GameKind::Squava => (g.result.pgn().to_owned(), "txt", "squava"),
    };
    let title = format!("{} – {}, {result}", g.white, g.black);
    let body = html! {
        p { a href=(tournament_path(&g.tournament)) { "← " (g.tournament) } }
        h1 #game-title { (g.white) " – " (g.black) ": " (result) }
        p.note {
            (g.game) ", round " (g.round + 1) ", " (g.plies) " plies, ended by " (g.termination.code())
            ", " (g.date) ", seed " (g.seed) ", " (format!("{:.1}", g.wall_ms / 1000.0)) " s"
        }
        @if let Some(d) = &g.detail { p.note { "detail: " (d) } }
        @if let Some(p) = &replay.problem { p.warn { "The stored moves do not replay: " (p) } }
        div.viewer #viewer data-game=(game_kind) data-positions=(positions) data-moves=(moves) {
            div #board {
                @if let Some(d) = &last { (PreEscaped(diagram_html(d))) }
            }
            div.controls {
                button type="button" data-step="first" { "⏮" }
                button type="button" data-step="back" { "◀" }
                button type="button" data-step="next" { "▶" }
                button type="button" data-step="last" { "⏭" }
                " " span #ply { "final position" }
            }
        }
        h2 { "Moves" }
        ol.moves #moves {
            @for (i, m) in replay.moves.iter().enumerate() {
                li data-ply=(i + 1) { (m) }
            }
        }
        h2 #record-title { (record.to_uppercase()) }
        p { button type="button" #copy-pgn { "copy" } " "
            a #download href=(format!("/game/{}/{record}", g.job_id)) download=(format!("game-{}.{record}", g.job_id)) { "download" } }
        textarea #pgn readonly rows="12" cols="80" { (text) }
    };
    layout(&title, None, 0, body)
}

/// The `RE` value of an SGF record.
fn sgf_result(sgf: &str) -> Option<String> {
    let from = sgf.find("RE[")? + 3;
    let len = sgf[from..].find(']')?;
    Some(sgf[from..from + len].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::{GameResult, Side, Termination};

    fn row(game: GameKind, moves: &str) -> GameRow {
        GameRow {
            job_id: 7,
            tournament: "t<1>".to_owned(),
            game,
            white: "<script>alert(1)</script>".to_owned(),
            black: "b".to_owned(),
            round: 0,
            result: GameResult::Win(Side::First),
            termination: Termination::Checkmate,
            plies: 4,
            moves: moves.to_owned(),
            opening: None,
            seed: 1,
            wall_ms: 1.0,
            detail: Some("\"><img src=x onerror=alert(2)>".to_owned()),
            date: "2026.01.01".to_owned(),
            notes: Vec::new(),
            setup: eloworld_tournament::GameSetup::default(),
        }
    }

    #[test]
    fn replays_and_escapes() {
        let g = row(GameKind::Chess, "f2f3 e7e5 g2g4 d8h4");
        let r = replay(&g);
        assert_eq!(r.moves, ["f3", "e5", "g4", "Qh4#"]);
        assert_eq!(r.positions.len(), 5);
        assert!(r.positions[4].starts_with("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w"));
        let page = game_page(&g, "x.sqlite").into_string();
        assert!(!page.contains("<script>alert"), "name escaped");
        assert!(!page.contains("<img src=x"), "detail escaped");
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(page.contains("href=\"/t/t%3C1%3E\""));
        let bad = replay(&row(GameKind::Chess, "f2f3 e2e1"));
        assert_eq!(bad.moves.len(), 1);
        assert!(bad.problem.is_some_and(|p| p.contains("move 2")));
    }
}
