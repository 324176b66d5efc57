//! PGN export of stored chess games.

use crate::store::GameRow;
use crate::MoveNote;
use eloworld_games::Termination;
use eloworld_players::engine::Score;
use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};
use std::fmt::Write;

/// Returns the PGN `Date` (`YYYY.MM.DD`, UTC) of a moment given in seconds since the Unix
/// epoch (days to civil date: the proleptic Gregorian calendar's 400-year cycle).
#[must_use]
pub fn pgn_date(unix_seconds: i64) -> String {
    let days = unix_seconds.div_euclid(86_400);
    // Shift the epoch to 0000-03-01 so that leap days end each 4/100/400-year cycle.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Returns today's PGN `Date` (UTC).
#[must_use]
pub fn pgn_date_today() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
    pgn_date(now)
}

/// Writes one stored chess game as PGN: the Seven Tag Roster, `Termination`, `PlyCount`,
/// `FEN`/`SetUp` when it did not start from the standard position, and SAN movetext with
/// the stored [`move_comment`]s.
///
/// # Errors
/// A message naming the game and the move when a stored move does not replay.
pub fn game_to_pgn(g: &GameRow, site: &str) -> Result<String, String> {
    game_to_pgn_annotated(g, site, &PgnTags::default(), &g.notes)
}

/// Writes the comment fastchess and cutechess put after a move: `+0.32/12 0.153s` (score
/// in pawns from the mover's side, or `+M5`, a mate in five plies, then depth and time),
/// the time alone when the engine reported no score, and `book` for a move from an opening
/// book.
#[must_use]
pub fn move_comment(note: &MoveNote) -> String {
    move_comment_with(note, &CommentFields::default()).unwrap_or_default()
}

/// Writes a move's comment as [`move_comment`], followed by the fields `fields` asks for in
/// fastchess's order and words (`PgnBuilder::createComment`): `tl=` (clock after the move),
/// `latency=` (the move's time less the engine's own), `n=` (nodes), `sd=` (selective
/// depth), `nps=`, `hashfull=`, `tbhits=`, `pv="…"` and a `line="…"` for each `match_line`
/// pattern (the last kept `info` line it matches). A field the engine did not report reads
/// 0, as in fastchess. `None` when `fields.none` (fastchess's `min=true`).
#[must_use]
pub fn move_comment_with(note: &MoveNote, fields: &CommentFields<'_>) -> Option<String> {
    if fields.none {
        return None;
    }
    if note.book {
        return Some("book".to_owned());
    }
    let seconds = |s: f64| format!("{s:.3}s");
    let time = seconds(note.elapsed.as_secs_f64());
    let score = match note.score() {
        Some(Score::Centipawns(cp)) => {
            let sign = match cp.signum() {
                1 => "+",
                -1 => "-",
                _ => "",
            };
            format!("{sign}{:.2}", f64::from(cp.unsigned_abs()) / 100.0)
        }
        Some(Score::Mate(n)) => {
            let moves = i64::from(n);
            let plies = if moves > 0 { moves * 2 - 1 } else { -moves * 2 };
            format!("{}M{plies}", if moves > 0 { "+" } else { "-" })
        }
        None => String::new(),
    };
    let mut out = match (score.is_empty(), note.depth()) {
        (true, _) => time,
        (false, Some(d)) => format!("{score}/{d} {time}"),
        (false, None) => format!("{score} {time}"),
    };
    let report = note.report.unwrap_or_default();
    let mut field = |on: bool, text: &dyn Fn() -> String| {
        if on {
            out.push_str(", ");
            out.push_str(&text());
        }
    };
    field(fields.time_left, &|| {
        format!(
            "tl={}",
            seconds(note.time_left.unwrap_or_default().as_secs_f64())
        )
    });
    field(fields.latency, &|| {
        let elapsed = i64::try_from(note.elapsed.as_millis()).unwrap_or(i64::MAX);
        let own = i64::try_from(report.time_ms.unwrap_or(0)).unwrap_or(i64::MAX);
        format!(
            "latency={}",
            seconds(elapsed.saturating_sub(own) as f64 / 1000.0)
        )
    });
    field(fields.nodes, &|| format!("n={}", report.nodes.unwrap_or(0)));
    field(fields.seldepth, &|| {
        format!("sd={}", report.seldepth.unwrap_or(0))
    });
    field(fields.nps, &|| format!("nps={}", report.nps.unwrap_or(0)));
    field(fields.hashfull, &|| {
        format!("hashfull={}", report.hashfull.unwrap_or(0))
    });
    field(fields.tbhits, &|| {
        format!("tbhits={}", report.tbhits.unwrap_or(0))
    });
    field(fields.pv, &|| {
        format!("pv=\"{}\"", principal_variation(&note.lines).unwrap_or(""))
    });
    for pattern in fields.match_lines {
        if let Some(line) = note.lines.iter().rev().find(|l| pattern.is_match(l)) {
            out.push_str(", line=\"");
            out.push_str(line);
            out.push('"');
        }
    }
    // A brace would end the comment early.
    Some(out.replace(['{', '}'], ""))
}

/// The principal variation of the last `info` line of the best line (`multipv 1`, or no
/// `multipv`) that has one.
fn principal_variation(lines: &[String]) -> Option<&str> {
    lines.iter().rev().find_map(|line| {
        let (head, pv) = line.split_once(" pv ")?;
        let mut words = head.split_ascii_whitespace();
        let best = !words.any(|w| w == "multipv") || words.next() == Some("1");
        (best && !head.contains(" string ")).then(|| pv.trim())
    })
}

/// The patterns of `match_line=`.
pub use regex::Regex;

/// What each move's comment carries beyond score, depth and time: fastchess's `-pgnout`
/// settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct CommentFields<'a> {
    /// No comments at all (`min=true`).
    pub none: bool,
    /// The mover's clock after the move (`timeleft=true`).
    pub time_left: bool,
    /// The move's time less the time the engine reported (`latency=true`).
    pub latency: bool,
    /// Nodes (`nodes=true`).
    pub nodes: bool,
    /// Selective depth (`seldepth=true`).
    pub seldepth: bool,
    /// Nodes a second (`nps=true`).
    pub nps: bool,
    /// Hash table use in permille (`hashfull=true`).
    pub hashfull: bool,
    /// Tablebase hits (`tbhits=true`).
    pub tbhits: bool,
    /// The principal variation (`pv=true`).
    pub pv: bool,
    /// `match_line=REGEX` patterns.
    pub match_lines: &'a [regex::Regex],
}

/// The tags a game's store row does not carry: its tournament's clock and variant; and
/// what the move comments carry.
#[derive(Clone, Copy, Debug, Default)]
pub struct PgnTags<'a> {
    /// The fields of each move's comment.
    pub comments: CommentFields<'a>,
    /// The `TimeControl` tag, when the players played on a clock.
    pub time_control: Option<&'a str>,
    /// A Chess960 game: the `Variant` tag.
    pub chess960: bool,
    /// The words of the `Termination` tag.
    pub termination: TerminationWords,
    /// The book line the game's opening came from (a PGN book's game): when its position is
    /// the game's opening, the PGN starts from the book game's start and writes its moves,
    /// each `{book}`, as fastchess and cutechess-cli write them; else it starts from the
    /// opening's `FEN`.
    pub book: Option<&'a crate::openings::BookLine>,
}

/// Whose words the PGN `Termination` tag uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TerminationWords {
    /// The store's own codes (`engine-crashed`, `time-forfeit`, …), which say exactly how a
    /// game ended.
    #[default]
    Codes,
    /// fastchess's values, [`fastchess_termination`], which the tools that drive fastchess
    /// read (OpenBench's client reports a game whose tag says `abandoned`, `stalled` or
    /// `illegal` as an engine error).
    Fastchess,
}

/// A termination as fastchess writes the PGN `Termination` tag (`PgnBuilder::
/// convertMatchTermination`): `normal` for an end by the rules of the game, `adjudication`,
/// `abandoned` for a crash or a stall, `time forfeit`, `illegal move`. A resignation is
/// `normal` and a false result claim a `rules infraction`, the PGN standard's words (fastchess
/// has neither).
#[must_use]
pub const fn fastchess_termination(termination: Termination) -> &'static str {
    match termination {
        Termination::Checkmate
        | Termination::Stalemate
        | Termination::ThreefoldRepetition
        | Termination::FivefoldRepetition
        | Termination::FiftyMoveRule
        | Termination::SeventyFiveMoveRule
        | Termination::InsufficientMaterial
        | Termination::FourInARow
        | Termination::ThreeInARow
        | Termination::BoardFull
        | Termination::TwoPasses
        | Termination::Resignation => "normal",
        Termination::MaxPlies
        | Termination::MoveLimit
        | Termination::DrawAdjudication
        | Termination::ResignAdjudication
        | Termination::TablebaseAdjudication => "adjudication",
        Termination::EngineCrashed | Termination::EngineTimeout => "abandoned",
        Termination::TimeForfeit => "time forfeit",
        Termination::IllegalMove => "illegal move",
        Termination::InvalidClaim => "rules infraction",
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
    tags: &PgnTags<'_>,
    notes: &[MoveNote],
) -> Result<String, String> {
    let time_control = tags.time_control;
    // A book opening is written from its game's start, its moves marked `{book}`.
    let book = tags
        .book
        .filter(|b| g.opening.as_deref() == Some(b.fen.as_str()));
    let start = match book {
        Some(b) => b.start.as_deref(),
        None => g.opening.as_deref(),
    };
    let mut pos: Chess = match start {
        Some(fen) => eloworld_games::chess::parse_fen(fen)
            .map_err(|e| format!("game {}: opening: {e}", g.job_id))?,
        None => Chess::default(),
    };
    let book_moves = book.map_or(&[][..], |b| b.moves.as_slice());
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
    let termination = match tags.termination {
        TerminationWords::Codes => g.termination.code(),
        TerminationWords::Fastchess => fastchess_termination(g.termination),
    };
    tag(&mut out, "Termination", termination);
    let plies = g.plies as usize + book_moves.len();
    tag(&mut out, "PlyCount", &plies.to_string());
    if let Some(tc) = time_control {
        tag(&mut out, "TimeControl", tc);
    }
    if let Some(fen) = start {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", fen);
    }
    if tags.chess960 {
        // fastchess's word (cutechess-cli writes "fischerandom"; PGN readers take both).
        tag(&mut out, "Variant", "Chess960");
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
    let mut first = true;
    let mut write_move =
        |out: &mut String, pos: &mut Chess, mv: shakmaty::Move, comment: Option<String>| {
            if pos.turn().is_white() || first {
                let n = pos.fullmoves().get();
                push(
                    out,
                    &if pos.turn().is_white() {
                        format!("{n}.")
                    } else {
                        format!("{n}...")
                    },
                );
            }
            first = false;
            let san = SanPlus::from_move_and_play_unchecked(pos, mv);
            push(out, &san.to_string());
            if let Some(comment) = comment {
                push(out, &format!("{{{comment}}}"));
            }
        };
    for (i, text) in book_moves.iter().enumerate() {
        let mv = text
            .parse::<San>()
            .ok()
            .and_then(|san| san.to_move(&pos).ok())
            .ok_or_else(|| format!("game {}: book move {} {text:?} is illegal", g.job_id, i + 1))?;
        let comment = (!tags.comments.none).then(|| "book".to_owned());
        write_move(&mut out, &mut pos, mv, comment);
    }
    for (i, code) in g.moves.split_whitespace().enumerate() {
        let uci: UciMove = code
            .parse()
            .map_err(|e| format!("game {}: move {}: {code:?}: {e}", g.job_id, i + 1))?;
        let mv = uci
            .to_move(&pos)
            .map_err(|_| format!("game {}: move {} {code:?} is illegal", g.job_id, i + 1))?;
        let comment = notes
            .get(i)
            .and_then(|n| move_comment_with(n, &tags.comments));
        write_move(&mut out, &mut pos, mv, comment);
    }
    if let Some(d) = &g.detail {
        push(&mut out, &format!("{{{}}}", d.replace(['{', '}'], "")));
    }
    push(&mut out, g.result.pgn());
    out.push_str("\n\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_players::engine::SearchInfo;
    use std::time::Duration;

    /// fastchess's comments (commit 74deac23) for the same report, as it wrote them in a
    /// match of Debian's Stockfish: `{+M5/30 0.006s, tl=0.000s, latency=-0.001s, n=5000,
    /// sd=6, nps=714285, hashfull=0, tbhits=0, pv="f6a6 f7f6 e5f6 g8g7 a6a8", line="…"}`.
    #[test]
    fn comments_read_as_fastchess_writes_them() {
        let mut report = SearchInfo::default();
        report.absorb("info string NNUE evaluation using nn-ad9b42354671.nnue enabled");
        report.absorb(
            "info depth 30 seldepth 6 multipv 1 score mate 3 nodes 5000 nps 714285 \
             hashfull 0 tbhits 0 time 7 pv f6a6 f7f6 e5f6 g8g7 a6a8",
        );
        let note = MoveNote {
            elapsed: Duration::from_millis(6),
            report: Some(report),
            lines: vec![
                "info string NNUE evaluation using nn-ad9b42354671.nnue enabled".to_owned(),
                "info depth 30 seldepth 6 multipv 1 score mate 3 nodes 5000 nps 714285 \
                 hashfull 0 tbhits 0 time 7 pv f6a6 f7f6 e5f6 g8g7 a6a8"
                    .to_owned(),
            ],
            ..MoveNote::default()
        };
        assert_eq!(move_comment(&note), "+M5/30 0.006s");
        let patterns = [Regex::new("^info string").expect("regex")];
        let every = CommentFields {
            time_left: true,
            latency: true,
            nodes: true,
            seldepth: true,
            nps: true,
            hashfull: true,
            tbhits: true,
            pv: true,
            match_lines: &patterns,
            none: false,
        };
        assert_eq!(
            move_comment_with(&note, &every).as_deref(),
            Some(
                "+M5/30 0.006s, tl=0.000s, latency=-0.001s, n=5000, sd=6, nps=714285, \
                 hashfull=0, tbhits=0, pv=\"f6a6 f7f6 e5f6 g8g7 a6a8\", \
                 line=\"info string NNUE evaluation using nn-ad9b42354671.nnue enabled\""
            )
        );
        let none = CommentFields {
            none: true,
            ..every
        };
        assert_eq!(move_comment_with(&note, &none), None);
        // Even and mated scores: `0.00` unsigned, a mate against the mover in plies.
        let even = MoveNote::searched(
            Some(Score::Centipawns(0)),
            Some(12),
            Duration::from_millis(153),
        );
        assert_eq!(move_comment(&even), "0.00/12 0.153s");
        let mated = MoveNote::searched(Some(Score::Mate(-2)), Some(12), even.elapsed);
        assert_eq!(move_comment(&mated), "-M4/12 0.153s");
        let behind = MoveNote::searched(Some(Score::Centipawns(-31)), Some(12), even.elapsed);
        assert_eq!(move_comment(&behind), "-0.31/12 0.153s");
    }

    #[test]
    fn dates_are_civil_utc_days() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(86_399), "1970.01.01");
        assert_eq!(pgn_date(-1), "1969.12.31");
        // 2000-02-29 (a 400-year leap day) and 2100-03-01 (2100 is not a leap year).
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
        assert_eq!(pgn_date(4_107_542_400), "2100.03.01");
        assert_eq!(pgn_date(1_763_856_000), "2025.11.23");
        let today = pgn_date_today();
        assert!(
            today.len() == 10 && today.as_str() > "2025.01.01",
            "{today}"
        );
    }
}
