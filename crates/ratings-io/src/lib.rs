//! Readers of text sources of games to rate: PGN headers and CSV. They need no knowledge of
//! any game (only the White, Black, Result and Date headers of a PGN are read), work on any
//! [`Read`] or on bytes, never panic on bad input, and give a [`ReadError`] that names the
//! line and what was found.
//!
//! # Examples
//! ```
//! use eloworld_ratings::NameCase;
//! use eloworld_ratings_io as io;
//! let pgn = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n";
//! let read = io::parse_pgn(pgn.as_bytes(), NameCase::Fold)?;
//! assert_eq!(read.games.len(), 1);
//! let read = io::parse_csv(b"player1,player2,score1\na,b,0.5\n", NameCase::Fold)?;
//! assert_eq!(read.games.names(), ["a", "b"]);
//! # Ok::<_, eloworld_ratings_io::ReadError>(())
//! ```

use eloworld_ratings::{year, GameRecord, Games, NameCase, PlayerId, Score};
use memchr::memchr;
use rustc_hash::FxHashMap;
use std::io::Read;

/// What can be wrong with a source of games.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The source could not be read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The source holds no game to rate.
    #[error("no games to rate: {found}")]
    NoGames {
        /// What was found instead.
        found: String,
    },
    /// A PGN game's Result tag is not a result.
    #[error("game starting at line {line}: result {found:?} is not 1-0, 0-1, 1/2-1/2 or *")]
    PgnResult {
        /// The line of the game's first tag.
        line: usize,
        /// The value found (shortened).
        found: String,
    },
    /// The CSV header names no known layout.
    #[error(
        "line 1: header {header:?} needs columns white,black,result or player1,player2,score1"
    )]
    CsvHeader {
        /// The header found (shortened).
        header: String,
    },
    /// A CSV line has too few fields.
    #[error("line {line}: expected {expected} columns, found {found}")]
    CsvColumns {
        /// The line.
        line: usize,
        /// The header's columns.
        expected: usize,
        /// The fields on the line.
        found: usize,
    },
    /// A CSV result or score is not one.
    #[error("line {line}: {column} {found:?} is not {expected}")]
    CsvResult {
        /// The line.
        line: usize,
        /// The column (`result` or `score1`).
        column: &'static str,
        /// The value found (shortened).
        found: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// A CSV line names no player.
    #[error("line {line}: a player's name is empty")]
    EmptyName {
        /// The line.
        line: usize,
    },
    /// A strength is not a number.
    #[error("line {line}: strength {found:?} is not a number")]
    Strength {
        /// The line.
        line: usize,
        /// The value found (shortened).
        found: String,
    },
}

/// Games read from a source, and what was skipped.
#[derive(Clone, Debug, Default)]
pub struct ReadGames {
    /// The games, in the source's order.
    pub games: Games,
    /// Games skipped because they have no result (`*`) or no players.
    pub unfinished: u64,
}

/// The longest value an error message quotes.
const QUOTED: usize = 60;

/// Returns `bytes` as text for an error message, cut after [`QUOTED`] characters.
fn quoted(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.chars().count() <= QUOTED {
        text.into_owned()
    } else {
        let mut s: String = text.chars().take(QUOTED).collect();
        s.push('…');
        s
    }
}

fn year_of(date: &[u8]) -> Option<i32> {
    std::str::from_utf8(date.get(..4)?).ok().and_then(year)
}

/// Reads the games of a PGN source: one game per header block; only White, Black, Result and
/// Date matter. Games whose result is `*` (or missing) are skipped and counted. The source is
/// read in blocks of 4 MiB, so memory stays small whatever its size.
///
/// # Errors
/// [`ReadError::Io`] when reading fails, [`ReadError::PgnResult`] for a result that is not one,
/// [`ReadError::NoGames`] when no finished game is found (an empty or binary file).
pub fn read_pgn(reader: impl Read, names: NameCase) -> Result<ReadGames, ReadError> {
    read_pgn_in_blocks(reader, names, 4 << 20, 1 << 20)
}

/// Reads PGN in blocks of `block` bytes; a block of at least `split` bytes is cut at a game's
/// start and its two halves are scanned on two threads, the second merged into the first as
/// if read after it (same games, players in order of first appearance, line numbers).
fn read_pgn_in_blocks(
    mut reader: impl Read,
    names: NameCase,
    block: usize,
    split: usize,
) -> Result<ReadGames, ReadError> {
    let mut scanner = PgnScanner::new(names);
    let mut buffer = vec![0u8; block.max(1)];
    let mut filled = 0;
    loop {
        if filled == buffer.len() {
            buffer.resize(buffer.len() * 2, 0); // a line longer than the buffer
        }
        let read = match reader.read(&mut buffer[filled..]) {
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        filled += read;
        let complete = if read == 0 {
            filled
        } else {
            memchr::memrchr(b'\n', &buffer[..filled]).map_or(0, |i| i + 1)
        };
        let lines = &buffer[..complete];
        match game_start_near_middle(lines).filter(|_| lines.len() >= split) {
            Some(at) => {
                let (first, second) = lines.split_at(at);
                let mut rest = PgnScanner::new(names);
                let (done, later) = rayon::join(
                    || scanner.lines(first).and_then(|()| scanner.end_block()),
                    || rest.lines(second),
                );
                done?;
                scanner.append(rest, later)?;
            }
            None => scanner.lines(lines)?,
        }
        buffer.copy_within(complete..filled, 0);
        filled -= complete;
        if read == 0 {
            break;
        }
    }
    scanner.finish()
}

/// Parses PGN text (see [`read_pgn`]).
///
/// # Errors
/// As [`read_pgn`].
pub fn parse_pgn(bytes: &[u8], names: NameCase) -> Result<ReadGames, ReadError> {
    let mut scanner = PgnScanner::new(names);
    scanner.lines(bytes)?;
    scanner.finish()
}

/// One header's value, kept between games so that reading allocates nothing per game.
#[derive(Default)]
struct Field {
    value: Vec<u8>,
    set: bool,
}

impl Field {
    fn get(&self) -> Option<&[u8]> {
        self.set.then_some(self.value.as_slice())
    }

    fn put(&mut self, value: &[u8]) {
        self.value.clear();
        self.value.extend_from_slice(value);
        self.set = true;
    }
}

/// The headers of the game being read.
#[derive(Default)]
struct Headers {
    white: Field,
    black: Field,
    result: Field,
    date: Field,
    any: bool,
    line: usize,
}

impl Headers {
    fn clear(&mut self) {
        for field in [
            &mut self.white,
            &mut self.black,
            &mut self.result,
            &mut self.date,
        ] {
            field.set = false;
        }
        self.any = false;
    }
}

/// Reads PGN line by line, keeping only the headers that matter.
struct PgnScanner {
    read: ReadGames,
    headers: Headers,
    in_moves: bool,
    line_number: usize,
    bytes: u64,
    binary: bool,
    /// Players by the bytes of their name as read (a fast hash: names repeat every game).
    players: FxHashMap<Box<[u8]>, PlayerId>,
    /// Each spelling as first read, in order: what [`PgnScanner::append`] replays.
    spellings: Vec<(Box<[u8]>, PlayerId)>,
}

impl PgnScanner {
    fn new(names: NameCase) -> PgnScanner {
        PgnScanner {
            read: ReadGames {
                games: Games::with_names(names),
                unfinished: 0,
            },
            headers: Headers::default(),
            in_moves: false,
            line_number: 0,
            bytes: 0,
            binary: false,
            players: FxHashMap::default(),
            spellings: Vec::new(),
        }
    }

    /// Ends the text before a game's start as the start's first tag would: the game read
    /// so far is finished if its moves have begun.
    fn end_block(&mut self) -> Result<(), ReadError> {
        if self.in_moves {
            self.finish_game()?;
        }
        Ok(())
    }

    /// Takes the games of `later`, a scanner that read from a game's start right after this
    /// one's text (`result` is how its reading ended), as if this one had read them: its
    /// spellings replayed in order give the same players, its lines are counted on from here.
    fn append(
        &mut self,
        later: PgnScanner,
        result: Result<(), ReadError>,
    ) -> Result<(), ReadError> {
        let offset = self.line_number;
        if let Err(e) = result {
            return Err(match e {
                ReadError::PgnResult { line, found } => ReadError::PgnResult {
                    line: line + offset,
                    found,
                },
                other => other,
            });
        }
        let mut to_here = vec![PlayerId(0); later.read.games.player_count()];
        for (spelling, id) in &later.spellings {
            to_here[id.index()] = player(
                &mut self.players,
                &mut self.spellings,
                &mut self.read.games,
                spelling,
            );
        }
        for game in later.read.games.games() {
            self.read.games.push(GameRecord {
                first: to_here[game.first.index()],
                second: to_here[game.second.index()],
                ..*game
            });
        }
        self.read.unfinished += later.read.unfinished;
        self.line_number += later.line_number;
        self.bytes += later.bytes;
        self.binary |= later.binary;
        self.in_moves = later.in_moves;
        self.headers = later.headers;
        self.headers.line += offset;
        Ok(())
    }

    /// Reads whole lines (the last one may lack its newline only at the end of the source).
    fn lines(&mut self, bytes: &[u8]) -> Result<(), ReadError> {
        self.bytes += bytes.len() as u64;
        if !self.binary && memchr(0, bytes).is_some() {
            self.binary = true;
        }
        let mut pos = 0;
        while pos < bytes.len() {
            let end = memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
            let line = bytes[pos..end].trim_ascii();
            pos = end + 1;
            self.line_number += 1;
            if line.first() == Some(&b'[') {
                if self.in_moves {
                    self.finish_game()?;
                }
                if !self.headers.any {
                    self.headers.any = true;
                    self.headers.line = self.line_number;
                }
                let field = match line.get(1) {
                    Some(b'W') => tag_value(line, b"[White ").map(|v| (&mut self.headers.white, v)),
                    Some(b'B') => tag_value(line, b"[Black ").map(|v| (&mut self.headers.black, v)),
                    Some(b'R') => {
                        tag_value(line, b"[Result ").map(|v| (&mut self.headers.result, v))
                    }
                    Some(b'D') => tag_value(line, b"[Date ").map(|v| (&mut self.headers.date, v)),
                    _ => None,
                };
                if let Some((field, value)) = field {
                    field.put(value);
                }
            } else if !line.is_empty() && self.headers.any {
                self.in_moves = true;
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<ReadGames, ReadError> {
        if self.headers.any {
            self.finish_game()?;
        }
        if self.read.games.is_empty() {
            let found = if self.bytes == 0 {
                "the source is empty".to_owned()
            } else if self.binary {
                format!("{} bytes of binary data, not PGN text", self.bytes)
            } else if self.read.unfinished > 0 {
                format!(
                    "{} games, none finished (result * or a player missing)",
                    self.read.unfinished
                )
            } else {
                format!(
                    "{} lines ({} bytes) without [White \"…\"] [Black \"…\"] [Result \"…\"] tags",
                    self.line_number, self.bytes
                )
            };
            return Err(ReadError::NoGames { found });
        }
        Ok(self.read)
    }

    fn finish_game(&mut self) -> Result<(), ReadError> {
        let h = &self.headers;
        self.in_moves = false;
        let score = match h.result.get() {
            Some(b"1-0") => Some(Score::Win),
            Some(b"0-1") => Some(Score::Loss),
            Some(b"1/2-1/2") => Some(Score::Draw),
            Some(b"*") | None => None,
            Some(other) => {
                return Err(ReadError::PgnResult {
                    line: h.line,
                    found: quoted(other),
                })
            }
        };
        match (score, h.white.get(), h.black.get()) {
            (Some(score), Some(white), Some(black)) if !white.is_empty() && !black.is_empty() => {
                let period = h.date.get().and_then(year_of);
                let white = player(
                    &mut self.players,
                    &mut self.spellings,
                    &mut self.read.games,
                    white,
                );
                let black = player(
                    &mut self.players,
                    &mut self.spellings,
                    &mut self.read.games,
                    black,
                );
                self.read.games.push(GameRecord {
                    first: white,
                    second: black,
                    score,
                    coloured: true,
                    period,
                });
            }
            _ => self.read.unfinished += 1,
        }
        self.headers.clear();
        Ok(())
    }
}

/// Returns the player named by `name` (bytes as read; not UTF-8 is replaced), looked up by
/// its bytes first so that a name seen before costs one fast hash.
fn player(
    known: &mut FxHashMap<Box<[u8]>, PlayerId>,
    spellings: &mut Vec<(Box<[u8]>, PlayerId)>,
    games: &mut Games,
    name: &[u8],
) -> PlayerId {
    if let Some(&id) = known.get(name) {
        return id;
    }
    let id = games.player(&String::from_utf8_lossy(name));
    known.insert(name.into(), id);
    spellings.push((name.into(), id));
    id
}

/// Returns where a game starts at or after the middle of `lines`: a line opening with `[`
/// whose previous non-blank line is not a tag, so the text before it ends with moves (or with
/// no game) and a reader starting there is in the state a reader of the whole would be.
fn game_start_near_middle(lines: &[u8]) -> Option<usize> {
    let mut from = lines.len() / 2;
    while let Some(found) = memchr::memmem::find(&lines[from..], b"\n[") {
        let start = from + found + 1;
        let before = lines[..start - 1]
            .rsplit(|&c| c == b'\n')
            .map(<[u8]>::trim_ascii)
            .find(|line| !line.is_empty());
        if before.is_some_and(|line| line.first() != Some(&b'[')) {
            return Some(start);
        }
        from = start;
    }
    None
}

/// Returns the value of a tag line that starts with `start` (`[White `, the name and a
/// space), from the first `"` after it to the last `"` on the line.
fn tag_value<'a>(line: &'a [u8], start: &[u8]) -> Option<&'a [u8]> {
    let rest = line.strip_prefix(start)?;
    let open = rest.iter().position(|&c| c == b'"')?;
    let value = &rest[open + 1..];
    let close = value.iter().rposition(|&c| c == b'"')?;
    Some(&value[..close])
}

/// Reads a CSV source with a header line: `white,black,result` (result `1-0`, `0-1`,
/// `1/2-1/2`, `*` skipped) or `player1,player2,score1` (score1 `1`, `0`, `0.5`, `1/2`: colours
/// unknown), with an optional `date` column. Fields may be quoted.
///
/// # Errors
/// [`ReadError::Io`] when reading fails; a `Csv…` error naming the line; [`ReadError::NoGames`]
/// when no game is found.
pub fn read_csv(mut reader: impl Read, names: NameCase) -> Result<ReadGames, ReadError> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    parse_csv(&bytes, names)
}

/// Parses CSV text (see [`read_csv`]); bytes that are not UTF-8 are replaced.
///
/// # Errors
/// As [`read_csv`].
pub fn parse_csv(bytes: &[u8], names: NameCase) -> Result<ReadGames, ReadError> {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Err(ReadError::NoGames {
            found: if bytes.is_empty() {
                "the source is empty".to_owned()
            } else {
                "only blank lines".to_owned()
            },
        });
    };
    let columns: Vec<String> = split_csv(header)
        .iter()
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    let find = |name: &str| columns.iter().position(|c| c == name);
    let (a, b, r, coloured) = match (find("white"), find("black"), find("result")) {
        (Some(a), Some(b), Some(r)) => (a, b, r, true),
        _ => match (find("player1"), find("player2"), find("score1")) {
            (Some(a), Some(b), Some(r)) => (a, b, r, false),
            _ => {
                return Err(ReadError::CsvHeader {
                    header: quoted(header.as_bytes()),
                })
            }
        },
    };
    let date = find("date");
    let mut read = ReadGames {
        games: Games::with_names(names),
        unfinished: 0,
    };
    for (index, line) in lines {
        let n = index + 1;
        let fields = split_csv(line);
        let field = |k: usize| -> Result<&str, ReadError> {
            fields
                .get(k)
                .map(|f| f.trim())
                .ok_or(ReadError::CsvColumns {
                    line: n,
                    expected: columns.len(),
                    found: fields.len(),
                })
        };
        let (first, second, result) = (field(a)?, field(b)?, field(r)?);
        let bad = |column, expected| ReadError::CsvResult {
            line: n,
            column,
            found: quoted(result.as_bytes()),
            expected,
        };
        let score = if coloured {
            match result {
                "1-0" => Score::Win,
                "0-1" => Score::Loss,
                "1/2-1/2" => Score::Draw,
                "*" => {
                    read.unfinished += 1;
                    continue;
                }
                _ => return Err(bad("result", "1-0, 0-1, 1/2-1/2 or *")),
            }
        } else {
            match result {
                "1" => Score::Win,
                "0" => Score::Loss,
                "0.5" | ".5" | "1/2" | "½" => Score::Draw,
                _ => return Err(bad("score1", "1, 0 or 0.5")),
            }
        };
        if first.is_empty() || second.is_empty() {
            return Err(ReadError::EmptyName { line: n });
        }
        let period = date
            .and_then(|d| fields.get(d))
            .and_then(|f| year(f.trim()));
        read.games.add(first, second, score, coloured, period);
    }
    if read.games.is_empty() {
        return Err(ReadError::NoGames {
            found: if read.unfinished > 0 {
                format!("{} games, none finished (result *)", read.unfinished)
            } else {
                "a header line and no game lines".to_owned()
            },
        });
    }
    Ok(read)
}

/// Splits one CSV line on commas, honouring double quotes (`""` inside quotes is a quote).
fn split_csv(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// Parses `name,strength` lines of true strengths (a header line is allowed), e.g. the file
/// `eloworld synth` writes beside its games.
///
/// # Errors
/// [`ReadError::Strength`] for a strength that is not a number (after the first line).
pub fn parse_strengths(text: &str) -> Result<Vec<(String, f64)>, ReadError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fields = split_csv(line);
        if fields.len() < 2 {
            continue;
        }
        match fields[1].trim().parse::<f64>() {
            Ok(x) => out.push((fields[0].trim().to_owned(), x)),
            Err(_) if i == 0 => {}
            Err(_) => {
                return Err(ReadError::Strength {
                    line: i + 1,
                    found: quoted(fields[1].as_bytes()),
                })
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pgn(text: &str) -> Result<ReadGames, ReadError> {
        parse_pgn(text.as_bytes(), NameCase::Fold)
    }

    #[test]
    fn pgn_headers_only_matter() {
        let text = "[Event \"x\"]\n[White \"Go4++\"]\n[Black \"Handtalk\"]\n[Result \"1-0\"]\n[Date \"1999.05.01\"]\n\n1. e4 e5 {a comment} 2. Nf3 1-0\n\n[White \"Handtalk\"]\r\n[Black \"go4++\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n1/2-1/2\r\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n*\n";
        let read = pgn(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read.games.names(), ["Go4++", "Handtalk"]);
        assert_eq!(read.games.len(), 2);
        assert_eq!(read.games.games()[0].period, Some(1999));
        assert_eq!(read.games.games()[1].score, Score::Draw);
        assert_eq!(read.unfinished, 1);
    }

    #[test]
    fn pgn_read_in_tiny_blocks_gives_the_same_games() {
        let mut text = String::new();
        for k in 0..50 {
            let (w, b) = if k % 2 == 0 {
                ("alpha", "beta")
            } else {
                ("beta", "gamma with a long name")
            };
            let r = ["1-0", "0-1", "1/2-1/2"][k % 3];
            text.push_str(&format!(
                "[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n\n1. d4 d5 {r}\n\n"
            ));
        }
        let whole = pgn(&text).unwrap_or_else(|e| panic!("{e}"));
        let blocks = read_pgn_in_blocks(text.as_bytes(), NameCase::Fold, 7, usize::MAX)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(whole.games.len(), 50);
        assert_eq!(whole.games.games(), blocks.games.games());
        assert_eq!(whole.games.names(), blocks.games.names());
    }

    /// A PGN of `games` games between players whose names come in several spellings, with
    /// unfinished games, comments, blank lines and CRLF endings here and there.
    fn varied_pgn(games: usize) -> String {
        let names = ["Alpha", "beta", "ALPHA", "Gamma Ray", "BETA", "delta"];
        let mut text = String::new();
        for k in 0..games {
            let (w, b) = (names[k * 7 % 6], names[(k * 5 + 1) % 6]);
            let r = ["1-0", "0-1", "1/2-1/2", "*"][k % 4];
            let eol = if k % 5 == 0 { "\r\n" } else { "\n" };
            text.push_str(&format!(
                "[Event \"e{k}\"]{eol}[White \"{w}\"]{eol}[Black \"{b}\"]{eol}[Result \"{r}\"]{eol}[Date \"{}.01.01\"]{eol}{eol}",
                1990 + k % 7
            ));
            if k % 11 == 0 {
                text.push_str(&format!("{{a comment}}{eol}{eol}"));
            }
            text.push_str(&format!("1. e4 e5 {r}{eol}{eol}"));
        }
        text
    }

    #[test]
    fn a_block_read_in_two_halves_at_once_gives_what_one_reader_gives() {
        let text = varied_pgn(400);
        for names in [NameCase::Fold, NameCase::Exact] {
            let whole = parse_pgn(text.as_bytes(), names).unwrap_or_else(|e| panic!("{e}"));
            for block in [1000, 4096, 100_000] {
                let halves = read_pgn_in_blocks(text.as_bytes(), names, block, 0)
                    .unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(whole.games.games(), halves.games.games(), "block {block}");
                assert_eq!(whole.games.names(), halves.games.names(), "block {block}");
                assert_eq!(
                    whole.games.merged_spellings(),
                    halves.games.merged_spellings(),
                    "block {block}"
                );
                assert_eq!(whole.unfinished, halves.unfinished);
                assert_eq!(whole.unfinished, 100);
            }
        }
        // The second half starts at a game's first tag, after moves.
        let at = game_start_near_middle(text.as_bytes()).unwrap_or_default();
        assert!(
            at > text.len() / 2 && text[at..].starts_with("[Event"),
            "{at}"
        );
        assert!(
            text[..at].trim_end().ends_with("1-0")
                || text[..at].trim_end().ends_with('*')
                || text[..at].trim_end().ends_with("0-1")
                || text[..at].trim_end().ends_with("1/2-1/2")
        );
        // Tags only after the middle: no place to cut.
        assert_eq!(
            game_start_near_middle(b"1. e4\n[White \"a\"]\n[Black \"b\"]\n"),
            None
        );
    }

    #[test]
    fn a_bad_result_in_the_second_half_names_its_line_in_the_whole() {
        let mut text = varied_pgn(300);
        let lines_before = text.matches('\n').count();
        text.push_str("[White \"a\"]\n[Black \"b\"]\n[Result \"2-0\"]\n\n2-0\n");
        text.push_str(&varied_pgn(5));
        let whole = parse_pgn(text.as_bytes(), NameCase::Fold).map(|_| ());
        let halves = read_pgn_in_blocks(text.as_bytes(), NameCase::Fold, 1 << 20, 0).map(|_| ());
        let message = |r: Result<(), ReadError>| r.err().map(|e| e.to_string()).unwrap_or_default();
        let want = format!(
            "game starting at line {}: result \"2-0\" is not 1-0, 0-1, 1/2-1/2 or *",
            lines_before + 1
        );
        assert_eq!(message(whole), want);
        assert_eq!(message(halves), want);
    }

    #[test]
    fn pgn_with_a_bad_result_names_the_line() {
        let e = pgn("\n[White \"a\"]\n[Black \"b\"]\n[Result \"2-0\"]\n\n2-0\n").map(|_| ());
        let message = e.err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(
            message,
            "game starting at line 2: result \"2-0\" is not 1-0, 0-1, 1/2-1/2 or *"
        );
    }

    #[test]
    fn an_empty_or_binary_source_is_no_games() {
        let message = |r: Result<ReadGames, ReadError>| r.err().map(|e| e.to_string());
        assert_eq!(
            message(pgn("")),
            Some("no games to rate: the source is empty".to_owned())
        );
        assert_eq!(
            message(parse_pgn(
                &[0x7f, b'E', b'L', b'F', 0, 0, 1, 2, b'\n', 0xff],
                NameCase::Fold
            )),
            Some("no games to rate: 10 bytes of binary data, not PGN text".to_owned())
        );
        assert_eq!(
            message(pgn("hello\nworld\n")),
            Some("no games to rate: 2 lines (12 bytes) without [White \"…\"] [Black \"…\"] [Result \"…\"] tags".to_owned())
        );
        assert_eq!(
            message(pgn("[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n")),
            Some(
                "no games to rate: 1 games, none finished (result * or a player missing)"
                    .to_owned()
            )
        );
        assert_eq!(
            message(parse_csv(b"", NameCase::Fold)),
            Some("no games to rate: the source is empty".to_owned())
        );
        assert_eq!(
            message(parse_csv(b"white,black,result\n", NameCase::Fold)),
            Some("no games to rate: a header line and no game lines".to_owned())
        );
    }

    #[test]
    fn a_name_of_seventy_thousand_characters_is_kept_whole() {
        let long = "n".repeat(70_000);
        let read = pgn(&format!(
            "[White \"{long}\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1-0\n"
        ))
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read.games.names()[0].len(), 70_000);
        let e = pgn(&format!(
            "[White \"a\"]\n[Black \"b\"]\n[Result \"{long}\"]\n\n1-0\n"
        ))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
        assert!(e.len() < 200, "{}", e.len());
    }

    #[test]
    fn csv_both_layouts() {
        let read = parse_csv(
            b"white,black,result,date\n\"Smith, J\",b,1-0,2001-02-03\nb,\"Smith, J\",1/2-1/2,\n",
            NameCase::Fold,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let g = &read.games;
        assert_eq!(g.names(), ["Smith, J", "b"]);
        assert_eq!(g.games()[0].period, Some(2001));
        assert!(g.games()[0].coloured);
        let read = parse_csv(b"player1,player2,score1\na,b,0.5\nb,a,1\n", NameCase::Fold)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!read.games.games()[1].coloured);
        assert_eq!(read.games.games()[1].score, Score::Win);
        let e = |text: &[u8]| {
            parse_csv(text, NameCase::Fold)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        assert_eq!(
            e(b"player1,player2,score1\na,b,2\n"),
            "line 2: score1 \"2\" is not 1, 0 or 0.5"
        );
        assert_eq!(
            e(b"a,b,c\n"),
            "line 1: header \"a,b,c\" needs columns white,black,result or player1,player2,score1"
        );
        assert_eq!(
            e(b"white,black,result\n\na,b\n"),
            "line 3: expected 3 columns, found 2"
        );
    }

    #[test]
    fn strengths_with_a_header() {
        assert_eq!(
            parse_strengths("name,strength\na,1500\nb,1400.5\n").ok(),
            Some(vec![("a".to_owned(), 1500.0), ("b".to_owned(), 1400.5)])
        );
        assert!(parse_strengths("a,1\nb,x\n").is_err());
    }
}
