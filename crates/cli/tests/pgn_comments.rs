//! `eloworld match -pgnout` comments and `-check-mate-pvs` warnings as fastchess writes them,
//! against Debian's Stockfish. fastchess (commit 74deac23, `PgnBuilder::createComment`)
//! writes, for `-pgnout … seldepth=true nodes=true`,
//! `{+0.31/12 0.123s, n=2113, sd=16}`: score from the mover's side in pawns (or `+M5`,
//! a mate in plies), depth, time, then the fields asked for in a fixed order; under
//! `-check-mate-pvs -testEnv` it prints
//! `Warning; Incomplete mating PV - from NAME :: Info; … :: Position; … :: Moves; …`,
//! which fishtest's worker (`worker/games.py`) stops a test on.

use pgn_reader::{RawComment, Reader, SanPlus, Visitor};
use regex::Regex;
use std::ops::ControlFlow;
use std::path::Path;

mod common;
use common::text;

/// One game's moves, each with the comments that follow it.
#[derive(Default)]
struct Moves(Vec<(String, Vec<String>)>);

impl Visitor for Moves {
    type Tags = ();
    type Movetext = Moves;
    type Output = Moves;

    fn begin_tags(&mut self) -> ControlFlow<Moves, ()> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (): ()) -> ControlFlow<Moves, Moves> {
        ControlFlow::Continue(Moves::default())
    }

    fn san(&mut self, moves: &mut Moves, san: SanPlus) -> ControlFlow<Moves> {
        moves.0.push((san.to_string(), Vec::new()));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, moves: &mut Moves, comment: RawComment<'_>) -> ControlFlow<Moves> {
        if let Some((_, comments)) = moves.0.last_mut() {
            let text = String::from_utf8_lossy(comment.as_bytes());
            comments.push(text.trim().to_owned());
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, moves: Moves) -> Moves {
        moves
    }
}

/// Reads every game of the PGN file `path` with pgn-reader.
fn read_games(path: &Path) -> Vec<Moves> {
    let file = std::fs::File::open(path).expect("the PGN");
    let mut reader = Reader::new(file);
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut Moves::default()).expect("PGN") {
        out.push(g);
    }
    out
}

fn run(dir: &Path, line: &str) -> (String, String) {
    let mut args = vec!["match"];
    args.extend(line.split_whitespace());
    let o = common::eloworld(dir, &args);
    let (out, err) = text(&o);
    assert!(o.status.success(), "eloworld match {line}:\n{out}\n{err}");
    (out, err)
}

const ENGINES: &str = "-engine cmd=stockfish name=sf2000 nodes=2000 \
     -engine cmd=stockfish name=sf1000 nodes=1000 \
     -each proto=uci option.Threads=1 option.Hash=8";

#[test]
fn every_move_carries_score_depth_time_nodes_and_seldepth() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_, err) = run(
        dir.path(),
        &format!(
            "{ENGINES} -games 2 -rounds 1 -maxmoves 40 -db m.sqlite \
             -pgnout file=out.pgn seldepth=true nodes=true"
        ),
    );
    assert!(!err.contains("no effect"), "{err}");
    let comment =
        Regex::new(r"^(?:[+-]?\d+\.\d\d|[+-]M\d+)/(\d+) (\d+\.\d{3})s, n=(\d+), sd=(\d+)$")
            .expect("regex");
    let games = read_games(&dir.path().join("out.pgn"));
    assert_eq!(games.len(), 2);
    // sf2000 is White in the first game, sf1000 in the second.
    for (g, white_budget) in games.iter().zip([2000.0, 1000.0]) {
        assert!(g.0.len() >= 10, "a game of {} plies", g.0.len());
        for (ply, (san, comments)) in g.0.iter().enumerate() {
            let first = comments.first().map_or("", String::as_str);
            let fields = comment
                .captures(first)
                .unwrap_or_else(|| panic!("ply {ply} {san}: {first:?}"));
            let number = |i: usize| fields[i].parse::<f64>().expect("a number");
            assert!(number(1) >= 1.0, "depth: {first}");
            assert!(number(2) < 5.0, "time: {first}");
            // The mover's own node budget (Stockfish stops a few nodes past it).
            let budget = if ply % 2 == 0 {
                white_budget
            } else {
                3000.0 - white_budget
            };
            assert!(
                number(3) > 0.0 && number(3) <= budget + 100.0,
                "nodes: {first}"
            );
            assert!(number(4) >= 1.0, "seldepth: {first}");
        }
    }
}

#[test]
fn pv_match_line_and_min_as_fastchess_writes_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    run(
        dir.path(),
        &format!(
            "{ENGINES} -games 1 -rounds 1 -maxmoves 10 -db a.sqlite \
             -pgnout file=full.pgn pv=true nps=true hashfull=true tbhits=true timeleft=true \
             latency=true match_line=^info.string"
        ),
    );
    let comment = Regex::new(
        r#"^\S+ \d+\.\d{3}s, tl=0\.000s, latency=-?\d+\.\d{3}s, nps=\d+, hashfull=\d+, tbhits=0, pv="([a-h1-8qrbn ]+)", line="info string [^"]+"$"#,
    )
    .expect("regex");
    let games = read_games(&dir.path().join("full.pgn"));
    for (san, comments) in &games[0].0 {
        let first = comments.first().map_or("", String::as_str);
        let pv = comment
            .captures(first)
            .unwrap_or_else(|| panic!("{san}: {first:?}"));
        assert!(!pv[1].is_empty(), "{first}");
    }
    // min=true: no comments at all.
    run(
        dir.path(),
        &format!(
            "{ENGINES} -games 1 -rounds 1 -maxmoves 10 -db b.sqlite -pgnout file=min.pgn min=true"
        ),
    );
    let games = read_games(&dir.path().join("min.pgn"));
    assert!(games[0].0.len() >= 10);
    assert!(games[0].0.iter().all(|(_, c)| c.is_empty()));
}

/// Debian's Stockfish 15.1 at `nodes=5000` announces a mate in three from this position with
/// a line of two plies at depth 1: fastchess warns, and so must we, word for word.
#[test]
fn a_short_mating_line_is_warned_of_as_fastchess_does() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::write(
        dir.path(),
        "mate.epd",
        "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1\n",
    );
    let line = "-engine cmd=stockfish name=sfA -engine cmd=stockfish name=sfB \
                -each proto=uci nodes=5000 option.Threads=1 option.Hash=16 \
                -games 2 -rounds 1 -openings file=mate.epd format=epd -db m.sqlite";
    let (out, _) = run(dir.path(), &format!("{line} -check-mate-pvs -testEnv"));
    // fishtest's patterns (its `patterns_fastchess_error`), and the engine named on the line.
    let fishtest = Regex::new(r"Warning; Incomplete mating PV").expect("regex");
    let warnings: Vec<&str> = out.lines().filter(|l| fishtest.is_match(l)).collect();
    assert_eq!(warnings.len(), 8, "{out}");
    // fastchess's first warning of the run, but for nps and time, which vary.
    let first = Regex::new(
        r"^Warning; Incomplete mating PV - from sfA :: Info; info depth 1 seldepth 1 multipv 1 score mate 3 nodes 125 nps \d+ hashfull 0 tbhits 0 time \d+ pv f6a6 f7f6 :: Position; fen r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1 :: Moves; $",
    )
    .expect("regex");
    assert!(first.is_match(warnings[0]), "{}", warnings[0]);
    // The mated side's line is checked too: mated in one takes two plies.
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("score mate -1") && w.ends_with(":: Moves; f6a6 f7f6 e5f6")),
        "{out}"
    );
    // Without the flag, no check; without -testEnv, the parts on lines of their own.
    let (quiet, _) = run(dir.path(), &format!("{line} -event again"));
    assert!(!quiet.contains("Warning;"), "{quiet}");
    let (lines, _) = run(dir.path(), &format!("{line} -event split -check-mate-pvs"));
    let at = lines.find("Warning; Incomplete").expect("a warning");
    let next: Vec<&str> = lines[at..].lines().take(4).collect();
    assert!(next[1].starts_with("Info; info depth"), "{next:?}");
    assert_eq!(
        next[2],
        "Position; fen r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1"
    );
    assert!(next[3].starts_with("Moves;"), "{next:?}");
}

/// One game as read back: its `FEN` tag and its moves, each with its comments.
#[derive(Default)]
struct Replayed {
    fen: Option<String>,
    moves: Vec<(SanPlus, Vec<String>)>,
}

impl Replayed {
    /// The position the game reaches, replayed from its start (its `FEN`, or the standard
    /// position), every move checked legal.
    fn end(&self) -> String {
        use shakmaty::{fen::Fen, CastlingMode, Chess, EnPassantMode, Position};
        let mut pos: Chess = match &self.fen {
            Some(fen) => fen
                .parse::<Fen>()
                .expect("a FEN")
                .into_position(CastlingMode::Standard)
                .expect("a position"),
            None => Chess::default(),
        };
        for (san, _) in &self.moves {
            let mv = san.san.to_move(&pos).expect("a legal move");
            pos.play_unchecked(mv);
        }
        Fen::from_position(&pos, EnPassantMode::Legal).to_string()
    }
}

struct ReadBack;

impl Visitor for ReadBack {
    type Tags = Replayed;
    type Movetext = Replayed;
    type Output = Replayed;

    fn begin_tags(&mut self) -> ControlFlow<Replayed, Replayed> {
        ControlFlow::Continue(Replayed::default())
    }

    fn tag(
        &mut self,
        game: &mut Replayed,
        name: &[u8],
        value: pgn_reader::RawTag<'_>,
    ) -> ControlFlow<Replayed> {
        if name == b"FEN" {
            game.fen = Some(value.decode_utf8_lossy().into_owned());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, game: Replayed) -> ControlFlow<Replayed, Replayed> {
        ControlFlow::Continue(game)
    }

    fn san(&mut self, game: &mut Replayed, san: SanPlus) -> ControlFlow<Replayed> {
        game.moves.push((san, Vec::new()));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, game: &mut Replayed, comment: RawComment<'_>) -> ControlFlow<Replayed> {
        if let Some((_, comments)) = game.moves.last_mut() {
            let text = String::from_utf8_lossy(comment.as_bytes());
            comments.push(text.trim().to_owned());
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Replayed) -> Replayed {
        game
    }
}

fn read_back(path: &Path) -> Vec<Replayed> {
    let file = std::fs::File::open(path).expect("the PGN");
    let mut reader = Reader::new(file);
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut ReadBack).expect("PGN") {
        out.push(g);
    }
    out
}

/// Openings from a PGN book are written as fastchess and cutechess-cli write them: from the
/// book game's start, its moves each `{book}`, the game's own moves after them; read back
/// with pgn-reader, each game replays from the standard position to the position the store's
/// record (which starts from the opening's FEN) reaches.
#[test]
fn pgn_book_openings_are_written_as_book_moves_from_the_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("book.pgn"),
        "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 e6 *\n",
    )
    .expect("write");
    run(
        dir.path(),
        &format!(
            "{ENGINES} -openings file=book.pgn format=pgn plies=3 -games 2 -rounds 2 \
             -maxmoves 20 -pgnout file=out.pgn -db m.sqlite"
        ),
    );
    let games = read_back(&dir.path().join("out.pgn"));
    assert_eq!(games.len(), 4);
    let export = common::eloworld(
        dir.path(),
        &["export", "--db", "m.sqlite", "--pgn", "stored.pgn"],
    );
    assert!(export.status.success(), "{:?}", text(&export));
    let stored = read_back(&dir.path().join("stored.pgn"));
    assert_eq!(stored.len(), 4);
    let firsts = [["e4", "e5", "Nf3"], ["d4", "d5", "c4"]];
    for (i, (g, s)) in games.iter().zip(&stored).enumerate() {
        assert_eq!(g.fen, None, "game {i} starts from the standard position");
        let book: Vec<String> = g.moves[..3].iter().map(|(m, _)| m.to_string()).collect();
        assert_eq!(book, firsts[i / 2], "game {i}");
        for (m, comments) in &g.moves[..3] {
            assert_eq!(comments, &["book"], "game {i}: {m}");
        }
        assert!(
            g.moves.len() > 3 && g.moves[3].1.first().is_some_and(|c| c != "book"),
            "game {i}: the game's own moves follow"
        );
        assert!(
            s.fen.is_some(),
            "the store's record starts from the opening"
        );
        assert_eq!(g.end(), s.end(), "game {i}");
        assert_eq!(g.moves.len(), s.moves.len() + 3, "game {i}");
    }
}
