//! What a run's live display knows (Elo World's "attractive ANSI graphics", Murphy's Elo
//! World section 3): the tally of the runner's events — games planned and done, the games in
//! flight, the standings by current score — and the figures a progress line shows (rate,
//! ETA, share done). A front end draws them; nothing here prints.

use crate::standing::Standings;
use eloworld_tournament::Event;
use std::collections::BTreeMap;
use std::time::Duration;

/// The tally of one run's events.
#[derive(Clone, Debug)]
pub struct RunTally {
    players: Vec<String>,
    /// W/D/L of the games finished this run, per player and per ordered pair.
    pub standings: Standings,
    /// Games the run is to end with (stored before it included).
    pub total: u64,
    /// Games done: those stored before the run and those finished in it.
    pub done: u64,
    /// Games stored before the run.
    pub done_before: u64,
    /// Games being played: job → (white, black), as player indices.
    in_flight: BTreeMap<u32, (u32, u32)>,
}

/// How fast a run goes: what a progress line shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    /// Games finished per second this run.
    pub rate: f64,
    /// Time to the last game at that rate; `None` before a game is finished.
    pub eta: Option<Duration>,
    /// Share of the games done, in percent (100 when none are planned).
    pub percent: f64,
}

impl RunTally {
    /// A tally of nothing yet, over the run's players (the indices events name).
    #[must_use]
    pub fn new(players: Vec<String>) -> RunTally {
        let standings = Standings::new(&players);
        RunTally {
            players,
            standings,
            total: 0,
            done: 0,
            done_before: 0,
            in_flight: BTreeMap::new(),
        }
    }

    /// Returns the name of player `i`, or `?` for an index the run does not have.
    #[must_use]
    pub fn name(&self, i: u32) -> &str {
        self.players.get(i as usize).map_or("?", String::as_str)
    }

    /// Takes in one event.
    pub fn apply(&mut self, event: &Event) {
        match *event {
            Event::RunStarted {
                total, done_before, ..
            } => {
                self.total = total;
                self.done = done_before;
                self.done_before = done_before;
            }
            Event::GameStarted { job, white, black } => {
                self.in_flight.insert(job, (white, black));
            }
            Event::GameFinished {
                job,
                white,
                black,
                result,
                ..
            } => {
                self.in_flight.remove(&job);
                self.done += 1;
                if let (Some(w), Some(b)) = (
                    self.players.get(white as usize),
                    self.players.get(black as usize),
                ) {
                    self.standings.add(w, b, result);
                }
            }
            Event::EngineRestarted { .. }
            | Event::PlayerCannotStart { .. }
            | Event::GameRecorded { .. }
            | Event::Checkpoint { .. }
            | Event::Interrupted { .. }
            | Event::ResultRejected { .. } => {}
        }
    }

    /// Returns how many games are being played.
    #[must_use]
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Returns the games being played as (white, black) names, in job order.
    pub fn games_in_flight(&self) -> impl Iterator<Item = (&str, &str)> {
        self.in_flight
            .values()
            .map(|&(w, b)| (self.name(w), self.name(b)))
    }

    /// Returns the games finished this run (not counting those stored before it).
    #[must_use]
    pub fn played(&self) -> u64 {
        self.done - self.done_before
    }

    /// Returns the leading player by current score and its score in percent.
    #[must_use]
    pub fn leader(&self) -> Option<(&str, f64)> {
        self.standings
            .ranked()
            .first()
            .map(|(p, l)| (*p, l.score_pct()))
    }

    /// Returns the pace after `elapsed` of the run.
    #[must_use]
    pub fn pace(&self, elapsed: Duration) -> Pace {
        let rate = self.played() as f64 / elapsed.as_secs_f64().max(1e-9);
        let left = self.total.saturating_sub(self.done);
        Pace {
            rate,
            eta: (rate > 0.0).then(|| Duration::from_secs_f64(left as f64 / rate)),
            percent: if self.total > 0 {
                100.0 * self.done as f64 / self.total as f64
            } else {
                100.0
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::{GameResult, Side, Termination};

    fn finished(job: u32, white: u32, black: u32, result: GameResult) -> Event {
        Event::GameFinished {
            job,
            white,
            black,
            result,
            termination: Termination::Checkmate,
            plies: 10,
        }
    }

    fn tally() -> RunTally {
        let names = ["random_move", "first_move", "stockfish1m"];
        let mut t = RunTally::new(names.iter().map(|s| (*s).to_owned()).collect());
        t.apply(&Event::RunStarted {
            total: 10,
            done_before: 2,
            pending: 8,
            threads: 2,
        });
        for (job, w, b) in [(0, 2, 0), (1, 1, 2), (2, 0, 1), (3, 2, 1)] {
            t.apply(&Event::GameStarted {
                job,
                white: w,
                black: b,
            });
        }
        t.apply(&finished(0, 2, 0, GameResult::Win(Side::First)));
        t.apply(&finished(1, 1, 2, GameResult::Win(Side::Second)));
        t.apply(&finished(2, 0, 1, GameResult::Draw));
        t
    }

    #[test]
    fn finished_games_leave_the_flight_and_count_in_the_standings() {
        let t = tally();
        assert_eq!((t.total, t.done, t.done_before, t.played()), (10, 5, 2, 3));
        assert_eq!(t.in_flight(), 1);
        assert_eq!(
            t.games_in_flight().collect::<Vec<_>>(),
            [("stockfish1m", "first_move")]
        );
        // stockfish1m won both its games; the others drew and lost one each.
        assert_eq!(t.leader(), Some(("stockfish1m", 100.0)));
        let first = &t.standings.totals["first_move"];
        assert_eq!((first.wins, first.draws, first.losses), (0, 1, 1));
        assert_eq!(t.name(7), "?");
    }

    #[test]
    fn the_pace_counts_only_this_runs_games() {
        let t = tally();
        // 3 games in 2 s: 1.5 games/s; 5 left → 3⅓ s; 5 of 10 done.
        let pace = t.pace(Duration::from_secs(2));
        assert!((pace.rate - 1.5).abs() < 1e-12);
        let eta = pace.eta.expect("a rate");
        assert!((eta.as_secs_f64() - 5.0 / 1.5).abs() < 1e-9);
        assert!((pace.percent - 50.0).abs() < 1e-12);
        let idle = RunTally::new(Vec::new()).pace(Duration::from_secs(1));
        assert_eq!((idle.eta, idle.percent), (None, 100.0));
    }
}
