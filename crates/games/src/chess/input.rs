//! Chess input from files, read one way everywhere: EPD positions (one a line), PGN games
//! (their main line, read with pgn-reader's streaming visitor) and the `.pgn` files of a
//! directory. Every error names the file and the line.

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{Chess, Outcome};
use std::cell::Cell;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use thiserror::Error;

/// Chess input that cannot be read: the file, the 1-based line (0 for the file as a whole)
/// and what is wrong.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{file}:{line}: {reason}")]
pub struct InputError {
    /// The file (or the name of the source) read.
    pub file: String,
    /// The 1-based line; 0 when the error concerns the whole file.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl InputError {
    fn new(file: &str, line: usize, reason: impl Into<String>) -> InputError {
        InputError {
            file: file.to_owned(),
            line,
            reason: reason.into(),
        }
    }
}

/// Reads a text file, naming the line of the first byte that is not UTF-8.
///
/// # Errors
/// [`InputError`] when the file cannot be read or is not UTF-8 text.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    let name = path.display().to_string();
    let bytes =
        std::fs::read(path).map_err(|e| InputError::new(&name, 0, format!("cannot read: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        InputError::new(&name, line_at(valid, valid.len()), "not UTF-8 text")
    })
}

/// Returns `bytes` as text, naming `file` and the line of the first byte that is not UTF-8.
///
/// # Errors
/// [`InputError`] when the bytes are not UTF-8 text.
pub fn decode_text<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, InputError> {
    std::str::from_utf8(bytes).map_err(|e| {
        InputError::new(
            file,
            line_at(bytes, e.valid_up_to()),
            "not UTF-8 text".to_owned(),
        )
    })
}

/// The 1-based line holding byte `offset` of `bytes`.
fn line_at(bytes: &[u8], offset: usize) -> usize {
    count_newlines(&bytes[..offset.min(bytes.len())]) + 1
}

/// Counts `\n` bytes, 255 at a time into a byte counter so that the loop vectorises.
fn count_newlines(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|c| usize::from(c.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'))))
        .sum()
}

/// The lines of a one-entry-a-line file that hold an entry, trimmed, with their 1-based
/// numbers: blank lines and `#` comments are left out.
pub fn entry_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// One EPD line read: the position, its FEN as written and the operations after it.
#[derive(Clone, Debug)]
pub struct Epd<'a> {
    /// The position.
    pub position: Chess,
    /// The FEN as written: the four fields, and the two clocks when given.
    pub fen: String,
    /// The operations after the FEN (`bm e4; id "x";`), untrimmed of their `;`s.
    pub operations: &'a str,
}

/// Reads one EPD (or FEN) line: four FEN fields, then the two clocks when both are numbers,
/// then the operations. The position may have an impossible check or Chess960 castling
/// rights (as [`super::parse_fen`] allows).
///
/// # Errors
/// A message saying what is wrong (NUL bytes, fewer than four fields, a bad FEN, an
/// illegal position); [`parse_epd_line`] adds the file and line.
pub fn parse_epd(text: &str) -> Result<Epd<'_>, String> {
    if text.contains('\0') {
        return Err("contains NUL bytes".to_owned());
    }
    let mut fields: Vec<&str> = Vec::with_capacity(6);
    let mut rest = text;
    // The four FEN fields, then optionally the two clocks, then the operations.
    let mut after_fields = text;
    for _ in 0..6 {
        let trimmed = rest.trim_start();
        let end = trimmed
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(trimmed.len());
        let token = &trimmed[..end];
        if token.is_empty() || (fields.len() >= 4 && !token.bytes().all(|b| b.is_ascii_digit())) {
            break;
        }
        fields.push(token);
        rest = &trimmed[end..];
        if fields.len() == 4 {
            after_fields = rest;
        }
    }
    match fields.len() {
        0..4 => {
            return Err(format!(
                "expected a FEN of at least four fields, got {:?}",
                text.trim()
            ))
        }
        6 => after_fields = rest,
        _ => fields.truncate(4),
    }
    let fen = fields.join(" ");
    let full = if fields.len() == 6 {
        fen.clone()
    } else {
        format!("{fen} 0 1")
    };
    let parsed: Fen = full.parse().map_err(|e| format!("bad FEN {fen:?}: {e}"))?;
    let position =
        super::position_of(parsed).map_err(|e| format!("illegal position {fen:?}: {e}"))?;
    Ok(Epd {
        position,
        fen,
        operations: after_fields,
    })
}

/// Reads line `line` of the EPD file `file`, as [`parse_epd`] does.
///
/// # Errors
/// [`InputError`] naming the file and line.
pub fn parse_epd_line<'a>(file: &str, line: usize, text: &'a str) -> Result<Epd<'a>, InputError> {
    parse_epd(text).map_err(|reason| InputError::new(file, line, reason))
}

/// Reads every position of an EPD (or FEN-a-line) text, with its line number; the first bad
/// line is an error, and so is a text without positions.
///
/// # Errors
/// [`InputError`] naming `file` and the line.
pub fn epd_positions(file: &str, text: &str) -> Result<Vec<(usize, Chess)>, InputError> {
    let out = entry_lines(text)
        .map(|(line, t)| parse_epd_line(file, line, t).map(|e| (line, e.position)))
        .collect::<Result<Vec<_>, _>>()?;
    if out.is_empty() {
        return Err(InputError::new(file, 0, "no positions in file"));
    }
    Ok(out)
}

/// Returns whether `path` names a PGN file (its extension is `pgn`, in any case).
#[must_use]
pub fn is_pgn(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

/// Lists the `*.pgn` files of a directory, in name order.
///
/// # Errors
/// [`InputError`] naming the directory when it cannot be read.
pub fn pgn_files(dir: &Path) -> Result<Vec<PathBuf>, InputError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| InputError::new(&dir.display().to_string(), 0, format!("cannot read: {e}")))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| is_pgn(p))
        .collect();
    files.sort();
    Ok(files)
}

/// One game of a PGN collection: the tags that matter here and the main line's moves
/// (variations and comments are skipped).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The game's 1-based number in its source.
    pub number: u64,
    /// The 1-based line where the game's text begins.
    pub line: usize,
    /// The `FEN` tag: the game starts from this position.
    pub fen: Option<String>,
    /// The `SetUp` tag is `1`.
    pub set_up: bool,
    /// The `Variant` tag names something other than standard chess.
    pub variant: bool,
    /// The `Result` tag.
    pub result: Option<Outcome>,
    /// The `WhiteElo` tag, when a number.
    pub white_elo: Option<u32>,
    /// The `BlackElo` tag, when a number.
    pub black_elo: Option<u32>,
    /// The main line's moves.
    pub sans: Vec<San>,
    /// The movetext's termination marker.
    pub termination: Option<Outcome>,
}

impl PgnGame {
    /// Returns whether the game is standard chess from the standard start: no `FEN`, no
    /// `SetUp "1"`, no other variant.
    #[must_use]
    pub fn is_standard(&self) -> bool {
        self.fen.is_none() && !self.set_up && !self.variant
    }

    /// Returns the game's result: the movetext's termination marker, else the `Result` tag.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.termination.or(self.result)
    }

    /// Returns the position the game starts from: its `FEN` tag's, else the standard start.
    ///
    /// # Errors
    /// [`InputError`] naming `file` and the game's line when the `FEN` tag is bad.
    pub fn start(&self, file: &str) -> Result<Chess, InputError> {
        match &self.fen {
            None => Ok(Chess::default()),
            Some(text) => super::parse_fen(text)
                .map_err(|_| self.error(file, format!("bad FEN tag {text:?}"))),
        }
    }

    /// An error about this game: `file`, the game's line, and `game N: reason`.
    #[must_use]
    pub fn error(&self, file: &str, reason: impl std::fmt::Display) -> InputError {
        InputError::new(file, self.line, format!("game {}: {reason}", self.number))
    }
}

/// The visitor collecting a [`PgnGame`] (without its number and line, which the reader adds).
struct Collector;

impl Visitor for Collector {
    type Tags = PgnGame;
    type Movetext = PgnGame;
    type Output = PgnGame;

    fn begin_tags(&mut self) -> ControlFlow<PgnGame, PgnGame> {
        ControlFlow::Continue(PgnGame::default())
    }

    fn tag(&mut self, game: &mut PgnGame, name: &[u8], value: RawTag<'_>) -> ControlFlow<PgnGame> {
        let text = || value.decode_utf8_lossy();
        match name {
            b"FEN" => game.fen = Some(text().trim().to_owned()),
            b"SetUp" => game.set_up = value.as_bytes() == b"1",
            b"Variant" => {
                let v = text().to_ascii_lowercase();
                game.variant = !matches!(v.trim(), "" | "standard" | "chess");
            }
            b"Result" => game.result = Outcome::from_ascii(value.as_bytes()).ok(),
            b"WhiteElo" => game.white_elo = text().trim().parse().ok(),
            b"BlackElo" => game.black_elo = text().trim().parse().ok(),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, mut game: PgnGame) -> ControlFlow<PgnGame, PgnGame> {
        game.sans.reserve(100);
        ControlFlow::Continue(game)
    }

    fn san(&mut self, game: &mut PgnGame, san_plus: SanPlus) -> ControlFlow<PgnGame> {
        game.sans.push(san_plus.san);
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _game: &mut PgnGame) -> ControlFlow<PgnGame, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, game: &mut PgnGame, outcome: Outcome) -> ControlFlow<PgnGame> {
        game.termination = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: PgnGame) -> PgnGame {
        game
    }
}

/// A reader that counts the bytes and newlines it has handed out, so that the PGN reader
/// above it can tell the line where a game begins.
struct Counted<R> {
    inner: R,
    newlines: Rc<Cell<usize>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.newlines
            .set(self.newlines.get() + count_newlines(&buf[..n]));
        Ok(n)
    }
}

/// Reads the games of a PGN collection one by one.
pub struct PgnReader<R> {
    name: String,
    reader: Reader<Counted<R>>,
    newlines: Rc<Cell<usize>>,
    games: u64,
}

impl PgnReader<std::fs::File> {
    /// Opens the PGN file `path`.
    ///
    /// # Errors
    /// [`InputError`] naming the file when it cannot be opened.
    pub fn open(path: &Path) -> Result<Self, InputError> {
        let name = path.display().to_string();
        let file = std::fs::File::open(path)
            .map_err(|e| InputError::new(&name, 0, format!("cannot open: {e}")))?;
        Ok(PgnReader::new(name, file))
    }
}

impl<R: Read> PgnReader<R> {
    /// Reads PGN text from `source`, named `name` in messages.
    pub fn new(name: impl Into<String>, source: R) -> Self {
        let newlines = Rc::new(Cell::new(0));
        PgnReader {
            name: name.into(),
            reader: Reader::new(Counted {
                inner: source,
                newlines: Rc::clone(&newlines),
            }),
            newlines,
            games: 0,
        }
    }

    /// The name given to the source.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The 1-based line of the first byte not yet read.
    fn line(&self) -> usize {
        self.newlines.get() - count_newlines(self.reader.buffer()) + 1
    }

    /// Reads the next game, or `None` at the end.
    ///
    /// # Errors
    /// [`InputError`] naming the source and line when the text cannot be read or parsed.
    pub fn next_game(&mut self) -> Result<Option<PgnGame>, InputError> {
        // Blank lines and a byte-order mark before the game are skipped first, so that the
        // line is the game's own.
        let more = self.reader.has_more();
        let line = self.line();
        let read = more.and_then(|_| self.reader.read_game(&mut Collector));
        match read {
            Err(e) => Err(InputError::new(
                &self.name,
                line,
                format!("game {}: {e}", self.games + 1),
            )),
            Ok(None) => Ok(None),
            Ok(Some(mut game)) => {
                self.games += 1;
                game.number = self.games;
                game.line = line;
                Ok(Some(game))
            }
        }
    }
}

impl<R: Read> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, KnownOutcome, Position};

    #[test]
    fn epd_lines_give_position_fen_and_operations() {
        let e = parse_epd("6k1/5ppp/8/8/8/8/8/4R1K1 w - - bm Re8#; id \"mate\";").expect("epd");
        assert_eq!(e.fen, "6k1/5ppp/8/8/8/8/8/4R1K1 w - -");
        assert_eq!(e.operations.trim(), "bm Re8#; id \"mate\";");
        assert_eq!(e.position.turn(), Color::White);
        let with_clocks = parse_epd("4k3/8/8/8/8/8/8/4K3 b - - 3 40").expect("fen");
        assert_eq!(with_clocks.fen, "4k3/8/8/8/8/8/8/4K3 b - - 3 40");
        assert_eq!(with_clocks.position.fullmoves().get(), 40);
        assert_eq!(with_clocks.operations, "");
    }

    #[test]
    fn a_malformed_epd_line_names_file_and_line() {
        let text = "# a comment\n\n4k3/8/8/8/8/8/8/4K3 w - -\nnot a fen\n";
        let err = epd_positions("book.epd", text).expect_err("bad line");
        assert_eq!(err.file, "book.epd");
        assert_eq!(err.line, 4);
        assert!(
            err.to_string().starts_with("book.epd:4: expected a FEN"),
            "{err}"
        );
        let illegal = epd_positions("b.epd", "8/8/8/8/8/8/8/8 w - -\n").expect_err("no kings");
        assert!(
            illegal.to_string().starts_with("b.epd:1: illegal position"),
            "{illegal}"
        );
        let nul = parse_epd_line("n.epd", 7, "4k3/8/8/8/8/8/8/4K3 w - -\0").expect_err("NUL");
        assert_eq!(nul.to_string(), "n.epd:7: contains NUL bytes");
        let empty = epd_positions("e.epd", "# nothing\n").expect_err("empty");
        assert_eq!(empty.to_string(), "e.epd:0: no positions in file");
    }

    #[test]
    fn a_text_that_is_not_utf8_names_the_line() {
        let err = decode_text("x.epd", b"one\ntwo\n\xff\n").expect_err("not UTF-8");
        assert_eq!(err.to_string(), "x.epd:3: not UTF-8 text");
    }

    const GAMES: &str = "\u{feff}[Event \"a\"]\n[Result \"1-0\"]\n[WhiteElo \"2700\"]\n\n1. e4 e5 {c} (1... c5) 2. Qh5 1-0\n\n\n[Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n[Variant \"Chess960\"]\n\n1. Kd2 *\n";

    #[test]
    fn pgn_games_give_tags_main_line_and_start_line() {
        let games: Vec<PgnGame> = PgnReader::new("g.pgn", GAMES.as_bytes())
            .collect::<Result<_, _>>()
            .expect("reads");
        assert_eq!(games.len(), 2);
        let (a, b) = (&games[0], &games[1]);
        assert_eq!((a.number, a.line), (1, 1));
        assert_eq!((b.number, b.line), (2, 8));
        assert!(a.is_standard() && !b.is_standard());
        assert!(b.set_up && b.variant && b.fen.is_some());
        assert_eq!(a.white_elo, Some(2700));
        assert_eq!(a.black_elo, None);
        let sans: Vec<String> = a.sans.iter().map(ToString::to_string).collect();
        assert_eq!(sans, ["e4", "e5", "Qh5"]);
        assert_eq!(
            a.outcome(),
            Some(Outcome::Known(KnownOutcome::Decisive {
                winner: Color::White
            }))
        );
        assert_eq!(b.outcome(), Some(Outcome::Unknown));
        assert_eq!(b.start("g.pgn").expect("fen").turn(), Color::White);
    }

    #[test]
    fn a_malformed_pgn_names_file_and_line() {
        let text = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. e4 {never closed\n";
        let mut reader = PgnReader::new("bad.pgn", text.as_bytes());
        assert!(reader.next_game().expect("first game").is_some());
        let err = reader.next_game().expect_err("unterminated comment");
        assert_eq!((err.file.as_str(), err.line), ("bad.pgn", 5));
        assert!(err.reason.starts_with("game 2: "), "{err}");
        let bad_fen = PgnGame {
            number: 3,
            line: 12,
            fen: Some("x".into()),
            ..PgnGame::default()
        };
        assert_eq!(
            bad_fen.start("f.pgn").expect_err("bad FEN").to_string(),
            "f.pgn:12: game 3: bad FEN tag \"x\""
        );
    }

    #[test]
    fn lines_are_counted_past_the_reader_s_buffer() {
        // Enough games that the 16 KiB buffer is refilled many times.
        let game = "[Event \"x\"]\n\n1. e4 e5 *\n\n";
        let text = game.repeat(3000);
        let lines: Vec<usize> = PgnReader::new("many.pgn", text.as_bytes())
            .map(|g| g.expect("reads").line)
            .collect();
        assert_eq!(lines.len(), 3000);
        assert!(lines.iter().enumerate().all(|(i, &l)| l == 4 * i + 1));
    }

    #[test]
    fn pgn_files_are_listed_in_name_order() {
        let dir = tempfile::tempdir().expect("dir");
        for name in ["b.pgn", "a.PGN", "c.txt"] {
            std::fs::write(dir.path().join(name), "").expect("write");
        }
        let files = pgn_files(dir.path()).expect("lists");
        let names: Vec<_> = files
            .iter()
            .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.PGN", "b.pgn"]);
        let missing = pgn_files(&dir.path().join("nope")).expect_err("missing");
        assert_eq!(missing.line, 0);
        assert!(missing.file.ends_with("nope"));
    }
}
