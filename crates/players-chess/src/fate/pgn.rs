//! Counting piece fates over PGN collections (`eloworld fates`).
//!
//! One thread reads the PGN text with [`PgnReader`] and hands batches of
//! games to worker threads that replay the moves with shakmaty and count the fates; each
//! worker keeps its own [`FateTable`] and the tables are summed at the end, so the result
//! does not depend on the number of threads.

use super::table::{FateTable, GameFates};
use eloworld_games::chess::input::{InputError, PgnReader};
use shakmaty::san::San;
use shakmaty::{Chess, KnownOutcome, Outcome, Position};
use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;

/// Why a game of a collection was not counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipReason {
    /// The result is `*` or missing: the game did not finish.
    NoResult,
    /// The game starts from a set-up position (`FEN` or `SetUp` tag), so its pieces have no
    /// identities.
    SetUpPosition,
    /// The game is of a chess variant (`Variant` tag other than standard).
    Variant,
    /// A move is illegal or unreadable.
    IllegalMove,
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SkipReason::NoResult => "no result (unfinished)",
            SkipReason::SetUpPosition => "set up from a position (FEN tag)",
            SkipReason::Variant => "chess variant",
            SkipReason::IllegalMove => "illegal or unreadable move",
        })
    }
}

/// What reading a collection found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// Games read.
    pub games_read: u64,
    /// Games counted in the table.
    pub games_counted: u64,
    /// Moves replayed in the counted games.
    pub plies: u64,
    /// Games skipped, by reason.
    pub skipped: BTreeMap<SkipReason, u64>,
    /// The first few skipped games with an illegal move, as `file:line: game N: detail`.
    pub examples: Vec<String>,
}

impl BuildReport {
    /// Returns the number of games skipped.
    #[must_use]
    pub fn games_skipped(&self) -> u64 {
        self.skipped.values().sum()
    }

    fn skip(&mut self, reason: SkipReason) {
        *self.skipped.entry(reason).or_default() += 1;
    }

    fn merge(&mut self, other: BuildReport) {
        self.games_read += other.games_read;
        self.games_counted += other.games_counted;
        self.plies += other.plies;
        for (reason, n) in other.skipped {
            *self.skipped.entry(reason).or_default() += n;
        }
        self.examples.extend(other.examples);
        self.examples.sort();
        self.examples.truncate(MAX_EXAMPLES);
    }
}

const MAX_EXAMPLES: usize = 10;
const BATCH: usize = 256;

/// A game as read, before replay.
struct RawGame {
    source: usize,
    index: u64,
    line: usize,
    sans: Vec<San>,
    outcome: KnownOutcome,
}

/// Counts the piece fates of every finished standard game in `sources`, replaying on
/// `threads` worker threads.
///
/// A game's result is its movetext's termination marker, or its `Result` tag when the
/// movetext has none. Games that cannot be counted are skipped and reported, not fatal.
///
/// # Errors
/// [`InputError`] naming the source and line when a source cannot be read.
pub fn count_fates<R: Read>(
    sources: Vec<PgnReader<R>>,
    threads: usize,
) -> Result<(FateTable, BuildReport), InputError> {
    let names: Vec<String> = sources.iter().map(|r| r.name().to_owned()).collect();
    let (send, receive) = crossbeam_channel::bounded::<Vec<RawGame>>(4 * threads.max(1));
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let receive = receive.clone();
                let names = &names;
                scope.spawn(move || {
                    let mut table = FateTable::new();
                    let mut report = BuildReport::default();
                    for batch in receive {
                        for game in batch {
                            replay(game, names, &mut table, &mut report);
                        }
                    }
                    (table, report)
                })
            })
            .collect();
        drop(receive);
        let read = read_all(sources, &send);
        drop(send);
        let mut table = FateTable::new();
        let mut report = BuildReport::default();
        for w in workers {
            let (t, r) = w
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            table.merge(&t);
            report.merge(r);
        }
        let read_report = read?;
        report.merge(read_report);
        Ok((table, report))
    })
}

/// Reads every source, sending finished games in batches; returns the reading counts.
fn read_all<R: Read>(
    sources: Vec<PgnReader<R>>,
    send: &crossbeam_channel::Sender<Vec<RawGame>>,
) -> Result<BuildReport, InputError> {
    let mut report = BuildReport::default();
    let mut batch = Vec::with_capacity(BATCH);
    for (source, reader) in sources.into_iter().enumerate() {
        for game in reader {
            let game = game?;
            report.games_read += 1;
            if game.fen.is_some() || game.set_up {
                report.skip(SkipReason::SetUpPosition);
            } else if game.variant {
                report.skip(SkipReason::Variant);
            } else if let Some(outcome) = game.outcome().and_then(Outcome::known) {
                batch.push(RawGame {
                    source,
                    index: game.number,
                    line: game.line,
                    sans: game.sans,
                    outcome,
                });
                if batch.len() == BATCH {
                    // The workers only stop when this sender is dropped.
                    let _ = send.send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)));
                }
            } else {
                report.skip(SkipReason::NoResult);
            }
        }
    }
    if !batch.is_empty() {
        let _ = send.send(batch);
    }
    Ok(report)
}

/// Replays one game and counts its fates, or notes why it cannot be counted.
fn replay(game: RawGame, names: &[String], table: &mut FateTable, report: &mut BuildReport) {
    let mut pos = Chess::default();
    let mut fates = GameFates::start();
    for (ply, san) in game.sans.iter().enumerate() {
        match san.to_move(&pos) {
            Ok(mv) => {
                fates.play(mv);
                pos.play_unchecked(mv);
            }
            Err(e) => {
                report.skip(SkipReason::IllegalMove);
                if report.examples.len() < MAX_EXAMPLES {
                    let number = ply / 2 + 1;
                    let dots = if ply % 2 == 0 { "." } else { "..." };
                    report.examples.push(format!(
                        "{}:{}: game {}: move {number}{dots}{san} is {e}",
                        names[game.source], game.line, game.index
                    ));
                }
                return;
            }
        }
    }
    let loser = match game.outcome {
        KnownOutcome::Decisive { winner } => Some(!winner),
        KnownOutcome::Draw => None,
    };
    table.add_game(&fates.finish(loser));
    report.games_counted += 1;
    report.plies += game.sans.len() as u64;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fate::{Fate, PieceId};
    use shakmaty::Square;

    fn id(name: &str) -> PieceId {
        PieceId::starting_on(name.parse().expect("square")).expect("starting square")
    }

    fn sq(name: &str) -> Square {
        name.parse().expect("square")
    }

    /// Two games checked by hand, plus three that must be skipped.
    const TWO_GAMES: &str = r#"[Event "Scholar's mate"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "Exchange and draw"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 dxc4 3. e3 {a comment} (3. e4 b5) b5 4. a4 c6 5. axb5 cxb5 1/2-1/2

[Event "Unfinished"]
[Result "*"]

1. e4 *

[Event "Set up"]
[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]
[SetUp "1"]
[Result "1/2-1/2"]

1. Kd2 1/2-1/2

[Event "Illegal"]
[Result "1-0"]

1. e4 e5 2. Ke3 1-0
"#;

    #[test]
    fn counts_of_a_two_game_pgn_match_a_hand_count() {
        for threads in [1, 3] {
            let (t, report) = count_fates(
                vec![PgnReader::new("two.pgn", TWO_GAMES.as_bytes())],
                threads,
            )
            .expect("reads");
            assert_eq!(report.games_read, 5);
            assert_eq!(report.games_counted, 2);
            assert_eq!(report.plies, 7 + 10);
            assert_eq!(report.skipped.get(&SkipReason::NoResult), Some(&1));
            assert_eq!(report.skipped.get(&SkipReason::SetUpPosition), Some(&1));
            assert_eq!(report.skipped.get(&SkipReason::IllegalMove), Some(&1));
            assert_eq!(report.examples.len(), 1);
            assert!(
                report.examples[0].starts_with("two.pgn:23: game 5: move 2.Ke3 is "),
                "{}",
                report.examples[0]
            );
            assert_eq!(t.games(), 2);
            // Game 1: the d1 queen ends alive on f7, the f7 pawn dies there, the mated
            // black king dies on e8; the e4/e5 pawns and the moved pieces live on their
            // squares.
            assert_eq!(t.count(id("d1"), sq("f7"), Fate::Alive), 1);
            assert_eq!(t.count(id("f7"), sq("f7"), Fate::Died), 1);
            assert_eq!(t.count(id("e8"), sq("e8"), Fate::Died), 1);
            assert_eq!(t.count(id("e1"), sq("e1"), Fate::Alive), 2);
            assert_eq!(t.count(id("f1"), sq("c4"), Fate::Alive), 1);
            assert_eq!(t.count(id("b8"), sq("c6"), Fate::Alive), 1);
            assert_eq!(t.count(id("g8"), sq("f6"), Fate::Alive), 1);
            // Game 2: the c2 pawn dies on c4 (dxc4) and the d7 pawn that took it lives
            // there; the b7 pawn dies on b5 (axb5), the a2 pawn that took it dies there too
            // (cxb5), and the c7 pawn lives on b5. The variation (3. e4 b5) is not played.
            assert_eq!(t.count(id("c2"), sq("c4"), Fate::Died), 1);
            assert_eq!(t.count(id("d7"), sq("c4"), Fate::Alive), 1);
            assert_eq!(t.count(id("b7"), sq("b5"), Fate::Died), 1);
            assert_eq!(t.count(id("a2"), sq("b5"), Fate::Died), 1);
            assert_eq!(t.count(id("c7"), sq("b5"), Fate::Alive), 1);
            assert_eq!(t.count(id("d2"), sq("d4"), Fate::Alive), 1);
            assert_eq!(t.count(id("e2"), sq("e3"), Fate::Alive), 1);
            assert_eq!(t.count(id("e2"), sq("e4"), Fate::Alive), 1);
            // The drawn game's kings live on e1/e8; no king died in it.
            assert_eq!(t.count(id("e8"), sq("e8"), Fate::Alive), 1);
            // Pieces that never moved in either game: alive twice on their squares.
            assert_eq!(t.count(id("h1"), sq("h1"), Fate::Alive), 2);
            assert_eq!(t.count(id("a8"), sq("a8"), Fate::Alive), 2);
            // Every count: 2 games × 32 pieces, of which 5 deaths.
            let deaths: u64 = PieceId::all()
                .flat_map(|p| Square::ALL.into_iter().map(move |s| (p, s)))
                .map(|(p, s)| t.count(p, s, Fate::Died))
                .sum();
            assert_eq!(deaths, 5);
        }
    }

    #[test]
    fn a_read_error_names_the_source() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _buf: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk on fire"))
            }
        }
        let err = count_fates(vec![PgnReader::new("x.pgn", Broken)], 2).expect_err("fails");
        assert_eq!(err.to_string(), "x.pgn:1: game 1: disk on fire");
    }
}
