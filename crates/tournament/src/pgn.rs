//! PGN export of stored chess games.

use crate::store::GameRow;
use crate::MoveNote;
use eloworld_players::engine::Score;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};
use std::fmt::Write;

/// Writes one stored chess game as PGN: the Seven Tag Roster, `Termination`, `PlyCount`,
/// `FEN`/`SetUp` when it did not start from the standard position, and SAN movetext.
///
/// # Errors
/// A message naming the game and the move when a stored move does not replay.
pub fn game_to_pgn(g: &GameRow, site: &str) -> Result<String, String> {
    game_to_pgn_annotated(g, site, None, &[])
}

/// Writes the comment cutechess puts after a move: `+0.32/12 0.153s` (score in pawns from
/// the mover's side, or `+M5` for mate in five, then depth and time), or the time alone when
/// the engine reported no score.
#[must_use]
pub fn move_comment(note: &MoveNote) -> String {
    let time = format!("{:.3}s", note.elapsed.as_secs_f64());
    let score = match note.score {
        Some(Score::Centipawns(cp)) => format!("{:+.2}", f64::from(cp) / 100.0),
        Some(Score::Mate(n)) if n >= 0 => format!("+M{n}"),
        Some(Score::Mate(n)) => format!("-M{}", n.unsigned_abs()),
        None => return time,
    };
    match note.depth {
        Some(d) => format!("{score}/{d} {time}"),
        None => format!("{score} {time}"),
    }
}

/// Writes a game as [`game_to_pgn`] does, with the `TimeControl` tag when given and a
/// [`move_comment`] after each move that has a note.
///
/// # Errors
/// As [`game_to_pgn`].
pub fn game_to_pgn_annotated(
    g: &GameRow,
    site: &str,
    time_control: Option<&str>,
    notes: &[MoveNote],
) -> Result<String, String> {
    let mut pos: Chess = match &g.opening {
        Some(fen) => eloworld_games::chess::parse_fen(fen)
            .map_err(|e| format!("game {}: opening: {e}", g.job_id))?,
        None => Chess::default(),
    };
    let mut out = String::with_capacity(256 + g.moves.len() * 2);
    let tag = |out: &mut String, k: &str, v: &str| {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{k} \"{v}\"]");
    };
    tag(&mut out, "Event", &g.tournament);
    tag(&mut out, "Site", site);
    tag(&mut out, "Date", &g.date);
    tag(&mut out, "Round", &(g.round + 1).to_string());
    tag(&mut out, "White", &g.white);
    tag(&mut out, "Black", &g.black);
    tag(&mut out, "Result", g.result.pgn());
    tag(&mut out, "Termination", g.termination.code());
    tag(&mut out, "PlyCount", &g.plies.to_string());
    if let Some(tc) = time_control {
        tag(&mut out, "TimeControl", tc);
    }
    if let Some(fen) = &g.opening {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", fen);
    }
    tag(&mut out, "Seed", &g.seed.to_string());
    out.push('\n');
    let mut line_len = 0;
    let mut push = |out: &mut String, token: &str| {
        if line_len + token.len() + 1 > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(token);
        line_len += token.len();
    };
    for (i, code) in g.moves.split_whitespace().enumerate() {
        let uci: UciMove = code
            .parse()
            .map_err(|e| format!("game {}: move {}: {code:?}: {e}", g.job_id, i + 1))?;
        let mv = uci
            .to_move(&pos)
            .map_err(|_| format!("game {}: move {} {code:?} is illegal", g.job_id, i + 1))?;
        if pos.turn().is_white() || i == 0 {
            let n = pos.fullmoves().get();
            push(
                &mut out,
                &if pos.turn().is_white() {
                    format!("{n}.")
                } else {
                    format!("{n}...")
                },
            );
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, mv);
        push(&mut out, &san.to_string());
        if let Some(note) = notes.get(i) {
            push(&mut out, &format!("{{{}}}", move_comment(note)));
        }
    }
    if let Some(d) = &g.detail {
        push(&mut out, &format!("{{{}}}", d.replace(['{', '}'], "")));
    }
    push(&mut out, g.result.pgn());
    out.push_str("\n\n");
    Ok(out)
}
