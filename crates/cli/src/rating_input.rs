//! Reads games to rate: from a tournament database, a PGN file (only the White, Black, Result
//! and Date headers; move text is skipped) or a CSV file.

use anyhow::{bail, Context};
use eloworld_ratings::{GameList, Score};
use eloworld_tournament::ResultRow;
use memchr::memchr;
use std::path::Path;

/// Builds the game list of stored results, in the order they finished.
pub fn from_rows(rows: &[ResultRow], case_sensitive: bool) -> GameList {
    let mut games = new_list(case_sensitive);
    for r in rows {
        let score = Score::from_points(r.result.first_score()).unwrap_or(Score::Draw);
        games.add(&r.white, &r.black, score, true, year(r.date.as_bytes()));
    }
    games
}

fn new_list(case_sensitive: bool) -> GameList {
    if case_sensitive {
        GameList::case_sensitive()
    } else {
        GameList::new()
    }
}

/// What was read besides the games.
#[derive(Debug, Default)]
pub struct ReadNotes {
    /// Games skipped because they have no result (`*`) or no players.
    pub unfinished: u64,
}

/// Reads the games of a PGN file: one game per header block; only White, Black, Result and
/// Date matter. Games whose result is `*` (or missing) are skipped and counted. The file is
/// read in blocks of 4 MiB, so memory stays small whatever its size.
pub fn read_pgn(path: &Path, case_sensitive: bool) -> anyhow::Result<(GameList, ReadNotes)> {
    read_pgn_in_blocks(path, case_sensitive, 4 << 20)
}

fn read_pgn_in_blocks(
    path: &Path,
    case_sensitive: bool,
    block: usize,
) -> anyhow::Result<(GameList, ReadNotes)> {
    let mut file =
        std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut scanner = PgnScanner::new(case_sensitive);
    let mut buffer = vec![0u8; block.max(1)];
    let mut filled = 0;
    loop {
        if filled == buffer.len() {
            buffer.resize(buffer.len() * 2, 0); // a line longer than the buffer
        }
        let read = std::io::Read::read(&mut file, &mut buffer[filled..])
            .with_context(|| format!("reading {}", path.display()))?;
        filled += read;
        let complete = if read == 0 {
            filled
        } else {
            memchr::memrchr(b'\n', &buffer[..filled]).map_or(0, |i| i + 1)
        };
        scanner
            .lines(&buffer[..complete])
            .with_context(|| format!("in {}", path.display()))?;
        buffer.copy_within(complete..filled, 0);
        filled -= complete;
        if read == 0 {
            break;
        }
    }
    scanner
        .finish()
        .with_context(|| format!("in {}", path.display()))
}

/// Parses PGN text (see [`read_pgn`]).
#[cfg(test)]
pub fn parse_pgn(bytes: &[u8], case_sensitive: bool) -> anyhow::Result<(GameList, ReadNotes)> {
    let mut scanner = PgnScanner::new(case_sensitive);
    scanner.lines(bytes)?;
    scanner.finish()
}

/// The headers of the game being read.
#[derive(Default)]
struct Headers {
    white: Option<Vec<u8>>,
    black: Option<Vec<u8>>,
    result: Option<Vec<u8>>,
    date: Option<Vec<u8>>,
    any: bool,
    line: usize,
}

impl Headers {
    fn clear(&mut self) {
        for v in [
            &mut self.white,
            &mut self.black,
            &mut self.result,
            &mut self.date,
        ] {
            *v = None;
        }
        self.any = false;
    }
}

/// Reads PGN line by line, keeping only the headers that matter.
struct PgnScanner {
    games: GameList,
    notes: ReadNotes,
    headers: Headers,
    in_moves: bool,
    line_number: usize,
}

impl PgnScanner {
    fn new(case_sensitive: bool) -> PgnScanner {
        PgnScanner {
            games: new_list(case_sensitive),
            notes: ReadNotes::default(),
            headers: Headers::default(),
            in_moves: false,
            line_number: 0,
        }
    }

    /// Reads whole lines (the last one may lack its newline only at the end of the file).
    fn lines(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        let mut pos = 0;
        while pos < bytes.len() {
            let end = memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
            let line = trim(&bytes[pos..end]);
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
                if let Some((name, value)) = tag(line) {
                    let slot = match name {
                        b"White" => &mut self.headers.white,
                        b"Black" => &mut self.headers.black,
                        b"Result" => &mut self.headers.result,
                        b"Date" => &mut self.headers.date,
                        _ => continue,
                    };
                    let v = slot.get_or_insert_with(Vec::new);
                    v.clear();
                    v.extend_from_slice(value);
                }
            } else if !line.is_empty() && self.headers.any {
                self.in_moves = true;
            }
        }
        Ok(())
    }

    fn finish(mut self) -> anyhow::Result<(GameList, ReadNotes)> {
        if self.headers.any {
            self.finish_game()?;
        }
        Ok((self.games, self.notes))
    }

    fn finish_game(&mut self) -> anyhow::Result<()> {
        let h = &self.headers;
        self.in_moves = false;
        let score = match h.result.as_deref() {
            Some(b"1-0") => Some(Score::Win),
            Some(b"0-1") => Some(Score::Loss),
            Some(b"1/2-1/2") => Some(Score::Draw),
            Some(b"*") | None => None,
            Some(other) => bail!(
                "game starting at line {}: result {:?} is not 1-0, 0-1, 1/2-1/2 or *",
                h.line,
                String::from_utf8_lossy(other)
            ),
        };
        match (score, h.white.as_deref(), h.black.as_deref()) {
            (Some(score), Some(white), Some(black)) => {
                let period = h.date.as_deref().and_then(year);
                let white = String::from_utf8_lossy(white);
                let black = String::from_utf8_lossy(black);
                self.games.add(&white, &black, score, true, period);
            }
            _ => self.notes.unfinished += 1,
        }
        self.headers.clear();
        Ok(())
    }
}

/// Returns the year of a date such as `1999.05.12` or `2001-03-04` (None for `????.??.??`).
fn year(date: &[u8]) -> Option<i32> {
    let digits = date.get(..4)?;
    if digits.iter().all(u8::is_ascii_digit) {
        std::str::from_utf8(digits).ok()?.parse().ok()
    } else {
        None
    }
}

/// Splits `[Name "value"]` into name and value (PGN escapes `\"` are left as they are).
fn tag(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let inner = line.strip_prefix(b"[")?;
    let space = memchr(b' ', inner)?;
    let name = &inner[..space];
    let rest = &inner[space + 1..];
    let open = memchr(b'"', rest)?;
    let value = &rest[open + 1..];
    let close = memchr::memrchr(b'"', value)?;
    Some((name, &value[..close]))
}

fn trim(line: &[u8]) -> &[u8] {
    let mut l = line;
    while let [rest @ .., last] = l {
        if last.is_ascii_whitespace() {
            l = rest;
        } else {
            break;
        }
    }
    while let [first, rest @ ..] = l {
        if first.is_ascii_whitespace() {
            l = rest;
        } else {
            break;
        }
    }
    l
}

/// Reads a CSV file with a header line: `white,black,result` (result `1-0`, `0-1`, `1/2-1/2`)
/// or `player1,player2,score1` (score1 `1`, `0`, `0.5`, `1/2`: colours unknown), with an
/// optional `date` column. Fields may be quoted.
pub fn read_csv(path: &Path, case_sensitive: bool) -> anyhow::Result<(GameList, ReadNotes)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    parse_csv(&text, case_sensitive).with_context(|| format!("in {}", path.display()))
}

/// Parses CSV text (see [`read_csv`]).
pub fn parse_csv(text: &str, case_sensitive: bool) -> anyhow::Result<(GameList, ReadNotes)> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        bail!("the file is empty: expected a header line")
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
            _ => bail!("line 1: header {header:?} needs columns white,black,result or player1,player2,score1"),
        },
    };
    let date = find("date");
    let mut games = new_list(case_sensitive);
    let mut notes = ReadNotes::default();
    for (index, line) in lines {
        let n = index + 1;
        let fields = split_csv(line);
        let field = |k: usize| -> anyhow::Result<&str> {
            fields.get(k).map(|f| f.trim()).with_context(|| {
                format!(
                    "line {n}: expected {} columns, found {}",
                    columns.len(),
                    fields.len()
                )
            })
        };
        let (first, second, result) = (field(a)?, field(b)?, field(r)?);
        let score = if coloured {
            match result {
                "1-0" => Score::Win,
                "0-1" => Score::Loss,
                "1/2-1/2" => Score::Draw,
                "*" => {
                    notes.unfinished += 1;
                    continue;
                }
                other => bail!("line {n}: result {other:?} is not 1-0, 0-1, 1/2-1/2 or *"),
            }
        } else {
            match result {
                "1" => Score::Win,
                "0" => Score::Loss,
                "0.5" | ".5" | "1/2" | "½" => Score::Draw,
                other => bail!("line {n}: score1 {other:?} is not 1, 0 or 0.5"),
            }
        };
        if first.is_empty() || second.is_empty() {
            bail!("line {n}: a player's name is empty");
        }
        let period = match date {
            Some(d) => fields.get(d).and_then(|f| year(f.trim().as_bytes())),
            None => None,
        };
        games.add(first, second, score, coloured, period);
    }
    Ok((games, notes))
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

/// Reads `name,strength` lines (a header line is allowed) of true strengths, e.g. the file
/// `eloworld synth` writes beside its games.
pub fn read_truth(path: &Path) -> anyhow::Result<Vec<(String, f64)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fields = split_csv(line);
        if fields.len() < 2 {
            continue;
        }
        match fields[1].trim().parse::<f64>() {
            Ok(x) => out.push((fields[0].trim().to_owned(), x)),
            Err(_) if i == 0 => {}
            Err(_) => bail!(
                "{} line {}: strength {:?} is not a number",
                path.display(),
                i + 1,
                fields[1]
            ),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_headers_only_matter() {
        let pgn = "[Event \"x\"]\n[White \"Go4++\"]\n[Black \"Handtalk\"]\n[Result \"1-0\"]\n[Date \"1999.05.01\"]\n\n1. e4 e5 {a comment} 2. Nf3 1-0\n\n[White \"Handtalk\"]\r\n[Black \"go4++\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n1/2-1/2\r\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n*\n";
        let (g, notes) = parse_pgn(pgn.as_bytes(), false).unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(g.names(), ["Go4++", "Handtalk"]);
        assert_eq!(g.games().len(), 2);
        assert_eq!(g.games()[0].period, Some(1999));
        assert_eq!(g.games()[1].score, Score::Draw);
        assert_eq!(notes.unfinished, 1);
    }

    #[test]
    fn pgn_read_in_tiny_blocks_gives_the_same_games() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("g.pgn");
        let mut pgn = String::new();
        for k in 0..50 {
            let (w, b) = if k % 2 == 0 {
                ("alpha", "beta")
            } else {
                ("beta", "gamma with a long name")
            };
            let r = ["1-0", "0-1", "1/2-1/2"][k % 3];
            pgn.push_str(&format!(
                "[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n\n1. d4 d5 {r}\n\n"
            ));
        }
        std::fs::write(&path, &pgn).expect("write");
        let (whole, _) = parse_pgn(pgn.as_bytes(), false).unwrap_or_else(|e| panic!("{e:#}"));
        let (blocks, _) = read_pgn_in_blocks(&path, false, 7).unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(whole.games().len(), 50);
        assert_eq!(whole.games(), blocks.games());
        assert_eq!(whole.names(), blocks.names());
    }

    #[test]
    fn pgn_with_a_bad_result_names_the_line() {
        let e = parse_pgn(
            b"[White \"a\"]\n[Black \"b\"]\n[Result \"2-0\"]\n\n2-0\n",
            false,
        );
        let message = format!("{:#}", e.err().map(|e| e.to_string()).unwrap_or_default());
        assert!(
            message.contains("line 1") && message.contains("2-0"),
            "{message}"
        );
    }

    #[test]
    fn csv_both_layouts() {
        let (g, _) = parse_csv(
            "white,black,result,date\n\"Smith, J\",b,1-0,2001-02-03\nb,\"Smith, J\",1/2-1/2,\n",
            false,
        )
        .unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(g.names(), ["Smith, J", "b"]);
        assert_eq!(g.games()[0].period, Some(2001));
        assert!(g.games()[0].coloured);
        let (g, _) = parse_csv("player1,player2,score1\na,b,0.5\nb,a,1\n", false)
            .unwrap_or_else(|e| panic!("{e:#}"));
        assert!(!g.games()[1].coloured);
        assert_eq!(g.games()[1].score, Score::Win);
        let e = parse_csv("player1,player2,score1\na,b,2\n", false)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("line 2"), "{e}");
        let e = parse_csv("a,b,c\n", false)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("white,black,result"), "{e}");
    }
}
