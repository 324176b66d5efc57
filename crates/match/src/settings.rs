//! What a match is asked to play: engines, pairing, rounds, openings, store and PGN.

use eloworld_players::engine::EngineDef;
use eloworld_ratings::sprt::SprtConfig;
use eloworld_schedule::paired::Colours;
use eloworld_tournament::adjudication::Adjudication;
use eloworld_tournament::pgn::{CommentFields, Regex};
use std::path::PathBuf;

/// Where a match's openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchOpenings {
    /// An EPD or PGN file.
    pub file: PathBuf,
    /// Shuffled by the match's seed (else in file order).
    pub shuffled: bool,
    /// The first opening used (1-based).
    pub start: usize,
    /// Plies of each PGN game kept as its opening.
    pub plies: Option<u32>,
}

/// How the engines of a match meet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pairing {
    /// Two engines, in game pairs from one opening with colours swapped.
    #[default]
    Match,
    /// Every engine meets every other (fastchess's and cutechess-cli's `-tournament
    /// roundrobin`), each pairing's round `k` from opening `k` with both colours.
    RoundRobin,
    /// The first `seeds` engines each meet every other engine (cutechess-cli's `-tournament
    /// gauntlet -seeds N`); the others do not meet each other.
    Gauntlet {
        /// Engines under test, the first ones given.
        seeds: u32,
    },
    /// A seeded bracket (cutechess-cli's `-tournament knockout`): each encounter a run of
    /// colour-swapped game pairs, ties broken by extra pairs, the winner going on (see
    /// [`super::knockout`]).
    Knockout,
}

/// A match's settings.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Its name in the store (default `A-vs-B`, or `A-B-C…` for a tournament).
    pub name: Option<String>,
    /// The engines (two for a match), the first one White in the first game.
    pub engines: Vec<EngineDef>,
    /// How they meet.
    pub pairing: Pairing,
    /// Who is White in which game of a match (`-noswap`, `-reverse`).
    pub colours: Colours,
    /// Each game's wait after it ends (`-wait`).
    pub pause_after_game: std::time::Duration,
    /// The PGN `Site` tag (`-site`; default "eloworld match").
    pub site: Option<String>,
    /// Rounds, each of `games` games.
    pub rounds: u32,
    /// Games a round: two or more play pairs from one opening with colours swapped.
    pub games: u32,
    /// The seed of the openings' order and of every game.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// Full moves after which a game is drawn.
    pub max_moves: Option<u32>,
    /// The store (default: the match's name .sqlite).
    pub db: Option<String>,
    /// The PGN `TimeControl` tag, when both engines play the same clock.
    pub time_control: Option<String>,
    /// Syzygy directories for adjudication.
    pub tablebases: Vec<PathBuf>,
    /// Most pieces adjudicated by the tablebases.
    pub tablebase_pieces: Option<usize>,
    /// The SPRT that stops the match.
    pub sprt: Option<SprtConfig>,
    /// Resign and draw adjudication.
    pub adjudication: Adjudication,
    /// The openings.
    pub openings: Option<MatchOpenings>,
    /// Chess960 from positions drawn by the seed when no book is given.
    pub chess960: bool,
    /// Write every game's PGN (with clocks and evaluations) to this file.
    pub pgn_out: Option<PathBuf>,
    /// Add to what the PGN file holds (else start it anew, unless the match resumes: its
    /// earlier games are in the file, as fastchess keeps them).
    pub pgn_append: bool,
    /// What each move's PGN comment carries (fastchess's `-pgnout` settings; its
    /// `match_lines` are [`MatchSettings::pgn_match_lines`]).
    pub pgn_comments: CommentFields<'static>,
    /// The `match_line=` patterns of the PGN comments.
    pub pgn_match_lines: Vec<Regex>,
}

impl MatchSettings {
    /// The games each pairing plays, `-rounds × -games`.
    ///
    /// # Errors
    /// [`eloworld_app::AppError::Invalid`] when the product does not fit.
    pub fn games_per_pairing(&self) -> eloworld_app::AppResult<u32> {
        match self.rounds.checked_mul(self.games) {
            Some(total) => Ok(total),
            None => eloworld_app::invalid!("-rounds × -games: too many games"),
        }
    }

    /// True when rounds are game pairs: the score is then counted in pentanomial pairs.
    #[must_use]
    pub fn paired(&self) -> bool {
        self.games >= 2 && self.pairing == Pairing::Match
    }
}
