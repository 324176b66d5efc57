//! Positions to train and test the blind players' model on: every position of the standard
//! games of PGN collections, replayed with shakmaty, tagged with the game they came from so
//! that whole games can be held out.

use eloworld_games::chess::input::{InputError, PgnReader};
use shakmaty::{Board, Chess, Color, Position};
use std::io::Read;

/// One position of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The game's index in the collections read (0-based, over all sources).
    pub game: u32,
    /// The pieces.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
}

/// What reading the collections found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Collected {
    /// Games read.
    pub games: u32,
    /// Games skipped: set up from a FEN, a variant, or a move that does not replay.
    pub skipped: u32,
    /// Positions passed over, kept or not (the stride counts them).
    pub positions: u64,
}

/// Reads every standard game of `source` and keeps every `stride`-th position (counted
/// over the whole collection; the start position of each game included), numbering games
/// from `collected.games` on.
///
/// # Errors
/// [`InputError`] naming the file and line when the text cannot be read.
pub fn collect<R: Read>(
    source: PgnReader<R>,
    stride: usize,
    collected: &mut Collected,
    out: &mut Vec<Sample>,
) -> Result<(), InputError> {
    let stride = stride.max(1) as u64;
    for game in source {
        let game = game?;
        let index = collected.games;
        collected.games += 1;
        if !game.is_standard() {
            collected.skipped += 1;
            continue;
        }
        let mut pos = Chess::default();
        let mut kept = Vec::new();
        let mut replayed = true;
        for san in std::iter::once(None).chain(game.sans.iter().map(Some)) {
            if let Some(san) = san {
                match san.to_move(&pos) {
                    Ok(m) => pos.play_unchecked(m),
                    Err(_) => {
                        replayed = false;
                        break;
                    }
                }
            }
            if collected.positions.is_multiple_of(stride) {
                kept.push(Sample {
                    game: index,
                    board: pos.board().clone(),
                    turn: pos.turn(),
                });
            }
            collected.positions += 1;
        }
        if replayed {
            out.extend(kept);
        } else {
            collected.skipped += 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_of_games_are_collected_with_their_game() {
        let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event \"b\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\n\n1. Kb1 *\n\n[Event \"c\"]\n\n1. d4 Qxd4 *\n\n[Event \"d\"]\n\n1. c4 *\n";
        let mut collected = Collected::default();
        let mut out = Vec::new();
        collect(
            PgnReader::new("t.pgn", pgn.as_bytes()),
            1,
            &mut collected,
            &mut out,
        )
        .expect("read");
        assert_eq!((collected.games, collected.skipped), (4, 2));
        // Game 0: the start and three moves; game 3: the start and one move.
        let games: Vec<u32> = out.iter().map(|s| s.game).collect();
        assert_eq!(games, [0, 0, 0, 0, 3, 3]);
        assert_eq!(out[1].turn, Color::Black);
        assert_eq!(out[0].board, Board::default());
        let mut every_other = Vec::new();
        collect(
            PgnReader::new("t.pgn", pgn.as_bytes()),
            2,
            &mut Collected::default(),
            &mut every_other,
        )
        .expect("read");
        assert!(every_other.len() < out.len());
    }
}
