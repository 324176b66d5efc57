//! The match's PGN file, written game by game as they finish.

use super::run::Watcher;
use eloworld_app::error::{AppResult, Context};
use eloworld_games::{GameKind, GameResult, Termination};
use eloworld_tournament::pgn::{game_to_pgn_annotated, CommentFields, PgnTags, TerminationWords};
use eloworld_tournament::{GameRow, MoveNote};
use std::collections::HashMap;

impl Watcher<'_> {
    /// Opens the PGN file — added to when asked or when the match resumes, else emptied —
    /// with the CRC-32 of what it holds. A resumed match's file is first cut back to the
    /// games the store holds (`stored`): a game written but not yet committed when the run
    /// was killed is replayed, and would otherwise be in the file twice; a game committed but
    /// not yet written is rebuilt from its stored record. The file then holds exactly the
    /// stored games, as a fishtest-style upload counts them.
    pub(super) fn open_pgn(
        &self,
        path: &std::path::Path,
        stored: &[GameRow],
    ) -> AppResult<(std::fs::File, crc32fast::Hasher)> {
        let resumed = !stored.is_empty();
        // A knockout's later stages add to the file its first stage began.
        let append = self.m.pgn_append || resumed || !self.stage.first;
        let context = || format!("opening {} for the PGN", path.display());
        if resumed {
            self.cut_back(path, stored).with_context(context)?;
        }
        let mut crc = crc32fast::Hasher::new();
        if append {
            match std::fs::read(path) {
                Ok(held) => crc.update(&held),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e).with_context(context),
            }
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(path)
            .with_context(context)?;
        Ok((file, crc))
    }

    /// Rewrites `path` to hold the games of other events as they are, this match's games
    /// the store holds (once each, in the file's order), and the stored games the file
    /// lacks. A game is known by its `Event`, `Round`, `White`, `Black` and `Seed` tags.
    fn cut_back(&self, path: &std::path::Path, stored: &[GameRow]) -> AppResult<()> {
        let held = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e.into()),
        };
        let event = &self.plan.config().name;
        let mut wanted: HashMap<GameKey, usize> = HashMap::new();
        for row in stored {
            *wanted.entry(GameKey::of_row(row)).or_default() += 1;
        }
        let mut kept = String::with_capacity(held.len());
        let mut changed = false;
        for game in pgn_games(&held) {
            let keep = match GameKey::of_pgn(game) {
                Some((ev, key)) if ev == *event => match wanted.get_mut(&key) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        true
                    }
                    _ => false,
                },
                _ => true,
            };
            if keep {
                kept.push_str(game);
            } else {
                changed = true;
            }
        }
        for row in stored {
            let left = wanted.get_mut(&GameKey::of_row(row));
            if let Some(n) = left.filter(|n| **n > 0) {
                *n -= 1;
                kept.push_str(&self.pgn_text(row)?);
                changed = true;
            }
        }
        if changed {
            // Written aside and renamed over the file, so that a kill now leaves the old
            // file or the new one, never half of one.
            let aside = path.with_extension("pgn.cut");
            std::fs::write(&aside, kept.as_bytes())?;
            std::fs::rename(&aside, path)?;
        }
        Ok(())
    }

    /// A finished game as PGN, rebuilt from the runner's record of it.
    #[expect(
        clippy::too_many_arguments,
        reason = "the fields of one finished-game event"
    )]
    pub(super) fn pgn_of(
        &self,
        job: u32,
        white: u32,
        black: u32,
        result: GameResult,
        termination: Termination,
        plies: u32,
        (moves, notes, detail): (String, Vec<MoveNote>, Option<String>),
    ) -> AppResult<String> {
        let spec = &self.plan.jobs()[job as usize];
        let row = GameRow {
            job_id: i64::from(job) + 1,
            tournament: self.plan.config().name.clone(),
            game: GameKind::Chess,
            white: self.names[white as usize].clone(),
            black: self.names[black as usize].clone(),
            round: spec.round,
            result,
            termination,
            plies,
            moves,
            opening: spec
                .opening
                .map(|o| self.plan.openings()[o as usize].clone()),
            seed: spec.seed,
            wall_ms: 0.0,
            detail,
            date: eloworld_tournament::pgn::pgn_date_today(),
            notes,
            setup: eloworld_tournament::GameSetup::default(),
        };
        self.pgn_text(&row)
    }

    /// A game's PGN as the match writes it: fastchess's termination words, the match's
    /// `Site`, time control and comment fields.
    fn pgn_text(&self, row: &GameRow) -> AppResult<String> {
        let tags = PgnTags {
            comments: CommentFields {
                match_lines: &self.m.pgn_match_lines,
                ..self.m.pgn_comments
            },
            time_control: self.m.time_control.as_deref(),
            chess960: self.m.chess960,
            // In fastchess's words, which OpenBench's client reads for engine errors.
            termination: TerminationWords::Fastchess,
            book: row.opening.as_ref().and_then(|fen| self.book.get(fen)),
        };
        let site = self.m.site.as_deref().unwrap_or("eloworld match");
        game_to_pgn_annotated(row, site, &tags, &row.notes).map_err(|e| {
            eloworld_app::AppError::Invalid(format!("the PGN of game {}: {e}", row.job_id))
        })
    }
}

/// What tells one game of a match from another in its PGN: round, players and seed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct GameKey {
    round: u32,
    white: String,
    black: String,
    seed: u64,
}

impl GameKey {
    fn of_row(row: &GameRow) -> GameKey {
        GameKey {
            round: row.round + 1,
            white: row.white.clone(),
            black: row.black.clone(),
            seed: row.seed,
        }
    }

    /// A PGN game's event and key, from its tags (`None` without them all).
    fn of_pgn(game: &str) -> Option<(String, GameKey)> {
        let tag = |name: &str| {
            game.lines().find_map(|line| {
                let rest = line.trim().strip_prefix('[')?.strip_prefix(name)?;
                let value = rest.strip_prefix(" \"")?.strip_suffix("\"]")?;
                Some(value.replace("\\\"", "\"").replace("\\\\", "\\"))
            })
        };
        Some((
            tag("Event")?,
            GameKey {
                round: tag("Round")?.parse().ok()?,
                white: tag("White")?,
                black: tag("Black")?,
                seed: tag("Seed")?.parse().ok()?,
            },
        ))
    }
}

/// The games of a PGN text, each from its first tag line up to the next game's (blank
/// lines after it included), so that their concatenation is the text.
fn pgn_games(text: &str) -> Vec<&str> {
    let mut starts = vec![0];
    let mut offset = 0;
    let mut in_tags = false;
    for line in text.split_inclusive('\n') {
        let is_tag = line.starts_with('[');
        if line.starts_with("[Event ") && !in_tags && offset > 0 {
            starts.push(offset);
        }
        if !line.trim().is_empty() {
            in_tags = is_tag;
        }
        offset += line.len();
    }
    starts.push(text.len());
    starts
        .windows(2)
        .map(|w| &text[w[0]..w[1]])
        .filter(|g| !g.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pgn_text_splits_into_its_games() {
        let text = "[Event \"a\"]\n[Round \"1\"]\n\n1. e4 e5 1-0\n\n[Event \"a\"]\n\n1. d4 {[%clk 0:01]} 0-1\n\n";
        let games = pgn_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games.concat(), text);
        assert!(games[1].starts_with("[Event"));
        assert!(games[1].contains("d4"));
    }

    #[test]
    fn a_game_is_known_by_its_tags() {
        let game = "[Event \"m \\\"x\\\"\"]\n[Round \"3\"]\n[White \"a\"]\n[Black \"b\"]\n[Seed \"42\"]\n\n1-0\n";
        let (event, key) = GameKey::of_pgn(game).expect("tags");
        assert_eq!(event, "m \"x\"");
        assert_eq!(key.round, 3);
        assert_eq!(
            (key.white.as_str(), key.black.as_str(), key.seed),
            ("a", "b", 42)
        );
        assert_eq!(GameKey::of_pgn("[Event \"m\"]\n\n1-0\n"), None);
    }
}
