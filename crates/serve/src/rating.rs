//! Ratings of a followed tournament, through the ratings crate's one entry point
//! ([`eloworld_ratings::rate`]) with the defaults of `eloworld rate`, so a finished
//! tournament's page shows the numbers that command prints.
//!
//! While games arrive, each method is recomputed at most as often as its own cost allows:
//! a method that took `d` to compute waits `COST_FACTOR × d` before the next run (so ratings
//! take at most ~1/`COST_FACTOR` of a core), and every method runs once more when the last
//! game is stored. The page says how many games each column counts.

use crate::live::Live;
use eloworld_app::report::{rating_column, uscf_histories};
use eloworld_games::GameResult;
use eloworld_ratings::{rate, Detail, Games, Method, Options, Ratings};
use eloworld_report::{RatingColumn, RatingHistory};
use eloworld_tournament::{add_results_with, Distinct, GameIdentity, RatedGame};
use std::time::{Duration, Instant};

/// A method waits this many times its last duration before running again on new games.
const COST_FACTOR: u32 = 100;
/// Pictures are drawn again at most this often while games arrive.
const PICTURES_EVERY: Duration = Duration::from_secs(15);

/// One method's last result.
#[derive(Debug)]
struct Computed {
    method: Method,
    /// The ratings, or why the method could not rate these games.
    outcome: Result<Ratings, String>,
    /// Games counted.
    games: usize,
    /// When it was computed, and how long it took.
    at: Instant,
    took: Duration,
}

/// What the pages show of the ratings.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rated {
    /// One column per method that rated, players in the tournament's order.
    pub columns: Vec<RatingColumn>,
    /// Games counted by each column (a method may lag behind while games arrive).
    pub counted: Vec<usize>,
    /// Each player's uscf rating after every game it played (the evolution plot).
    pub histories: Vec<RatingHistory>,
    /// Methods that could not rate, with why.
    pub notes: Vec<String>,
}

/// Rates one tournament, feeding the ratings crate only the games not seen yet, and a copy
/// of an earlier game of the same ordered pair not at all (docs/ratings.md, "Copies").
#[derive(Debug, Default)]
pub(crate) struct Rater {
    games: Option<Games>,
    /// The games fed so far, copies included.
    fed: usize,
    /// The games of each ordered pair seen so far.
    distinct: Distinct,
    computed: Vec<Computed>,
    pictures: Option<(Instant, usize)>,
}

/// A stored result as the one conversion of stored games ([`add_results_with`]) takes it: the
/// live reader keeps player indices, not names, and no date (dates only split by year).
struct NamedResult<'a> {
    white: &'a str,
    black: &'a str,
    result: GameResult,
    identity: GameIdentity,
}

impl RatedGame for NamedResult<'_> {
    fn white(&self) -> &str {
        self.white
    }
    fn black(&self) -> &str {
        self.black
    }
    fn result(&self) -> GameResult {
        self.result
    }
    fn date(&self) -> &str {
        ""
    }
    fn identity(&self) -> GameIdentity {
        self.identity
    }
}

impl Rater {
    /// Returns the ratings of `live`'s games, recomputing the methods that are due.
    pub fn rate(&mut self, live: &Live) -> Rated {
        let games = self.games.get_or_insert_with(Games::case_sensitive);
        let players = &live.row.players;
        let new: Vec<NamedResult<'_>> = live.played[self.fed..]
            .iter()
            .map(|p| NamedResult {
                white: &players[p.white as usize],
                black: &players[p.black as usize],
                result: p.result,
                identity: p.identity,
            })
            .collect();
        self.fed = live.played.len();
        add_results_with(games, &new, &mut self.distinct);
        let n = games.games().len();
        let finished = live.finished();
        for method in Method::CLASSIC {
            let due = match self.computed.iter().find(|c| c.method == method) {
                None => true,
                Some(c) if c.games == n => false,
                Some(_) if finished => true,
                Some(c) => c.at.elapsed() >= c.took * COST_FACTOR,
            };
            if !due {
                continue;
            }
            let started = Instant::now();
            let outcome = rate(games, &Options::new(method)).map_err(|e| e.to_string());
            let done = Computed {
                method,
                outcome,
                games: n,
                at: Instant::now(),
                took: started.elapsed(),
            };
            match self.computed.iter_mut().find(|c| c.method == method) {
                Some(c) => *c = done,
                None => self.computed.push(done),
            }
        }
        self.columns(live)
    }

    /// Returns whether the pictures should be drawn again.
    pub fn pictures_due(&self, live: &Live) -> bool {
        match self.pictures {
            None => true,
            Some((_, games)) if games == live.played.len() => false,
            Some(_) if live.finished() => true,
            Some((at, _)) => at.elapsed() >= PICTURES_EVERY,
        }
    }

    /// Notes that the pictures were drawn now.
    pub fn pictures_drawn(&mut self, live: &Live) {
        self.pictures = Some((Instant::now(), live.played.len()));
    }

    fn columns(&self, live: &Live) -> Rated {
        let mut rated = Rated::default();
        let Some(games) = &self.games else {
            return rated;
        };
        let copies = self.fed - games.games().len();
        if copies > 0 {
            rated.notes.push(format!(
                "the games hold {copies} {} of earlier games ({} games, {} distinct per ordered pair, start and moves); the ratings count each once",
                if copies == 1 { "copy" } else { "copies" },
                self.fed,
                games.games().len()
            ));
        }
        // Player index in the tournament → id in the rated games (absent: no game yet).
        let ids: Vec<Option<usize>> = live
            .row
            .players
            .iter()
            .map(|p| games.find(p).map(eloworld_ratings::PlayerId::index))
            .collect();
        for method in Method::CLASSIC {
            let Some(c) = self.computed.iter().find(|c| c.method == method) else {
                continue;
            };
            match &c.outcome {
                Ok(r) => {
                    rated.columns.push(rating_column(method, r, &ids));
                    rated.counted.push(c.games);
                    for (p, id) in live.row.players.iter().zip(&ids) {
                        if let Some(flag) = id.and_then(|id| r.flag(id)) {
                            rated.notes.push(format!("{}: {p}: {flag}", method.name()));
                        }
                    }
                    rated
                        .notes
                        .extend(r.notes.iter().map(|n| format!("{}: {n}", method.name())));
                    if let Detail::Uscf(u) = &r.detail {
                        rated.histories = uscf_histories(
                            &live.row.players,
                            &ids,
                            u,
                            Options::new(method).uscf.initial_rating,
                            None,
                        );
                    }
                }
                Err(_) if games.games().is_empty() => {}
                Err(e) => rated
                    .notes
                    .push(format!("{}: not computed: {e}", method.name())),
            }
        }
        rated
    }
}
