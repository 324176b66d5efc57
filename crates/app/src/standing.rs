//! How a stored tournament stands — in play, or finished, and for a match with an SPRT its
//! verdict — read the same way by `eloworld status`, `eloworld results` and the dashboard.
//!
//! A match (a tournament of two players) counts its games in pairs (the two games of a
//! round: one opening, colours swapped) and runs the SPRT stored with it (fishtest's and
//! fastchess's generalised SPRT on pentanomial counts). A match whose SPRT accepted a
//! hypothesis is finished, however many of its planned games were played: `eloworld match`
//! stops it there.

use crate::error::AppResult;
use eloworld_games::GameResult;
use eloworld_ratings::sprt::{Sprt, SprtConfig, SprtDecision};
use eloworld_ratings::{PairedScore, Wdl};
use eloworld_tournament::{ResultRow, Store, TournamentConfig, TournamentRow};
use std::collections::BTreeMap;
use std::fmt;

/// A match's test over its stored games.
#[derive(Clone, Debug)]
pub struct MatchTest {
    /// The test stored with the match (`[sprt]`), else fishtest's usual [0, 5] normalised
    /// Elo with α = β = 0.05, shown for information.
    pub sprt: Sprt,
    /// Whether the test is the one stored with the match (only that one decides it).
    pub configured: bool,
    /// Whether the match's rounds are game pairs (else its games count one by one, and the
    /// test runs on W/D/L as `eloworld match -games 1` runs it).
    pub paired: bool,
    /// The first player's games and game pairs.
    pub score: PairedScore,
    /// `(games stored, LLR)` after every completed pair.
    pub trace: Vec<(f64, f64)>,
}

impl MatchTest {
    /// The test of a tournament of `players` players stored with `config` (its settings as
    /// TOML); `None` unless it is a match of two.
    #[must_use]
    pub fn of(config: &str, players: usize) -> Option<MatchTest> {
        if players != 2 {
            return None;
        }
        let settings = TournamentConfig::from_toml(config).ok();
        let paired = settings.as_ref().is_none_or(|c| c.game_pairs);
        let stored = settings.and_then(|c| c.sprt).and_then(|s| s.sprt().ok());
        let configured = stored.is_some();
        let sprt = match stored {
            Some(s) => s,
            // The defaults are valid by construction.
            None => Sprt::new(SprtConfig::new()).ok()?,
        };
        Some(MatchTest {
            sprt,
            configured,
            paired,
            score: PairedScore::default(),
            trace: Vec::new(),
        })
    }

    /// Counts a game of round `round` the first player scored `first_points` in, the
    /// `stored`-th game of the match.
    pub fn add(&mut self, round: u32, first_points: f64, stored: u64) {
        let closed = self.score.add(first_points, self.paired.then_some(round));
        if closed || !self.paired {
            let at = stored as f64;
            self.trace
                .push((at, self.score.llr(&self.sprt, self.paired)));
        }
    }

    /// The LLR now.
    #[must_use]
    pub fn llr(&self) -> f64 {
        self.trace.last().map_or(0.0, |p| p.1)
    }

    /// The stored test's verdict now (`None` without a stored test).
    #[must_use]
    pub fn verdict(&self) -> Option<Verdict> {
        self.configured.then(|| match self.sprt.decide(self.llr()) {
            SprtDecision::AcceptH1 => Verdict::H1Accepted,
            SprtDecision::AcceptH0 => Verdict::H0Accepted,
            SprtDecision::Continue => Verdict::Inconclusive,
        })
    }
}

/// What an SPRT says of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// The test accepted H1 (the first player is better by elo1).
    H1Accepted,
    /// The test accepted H0.
    H0Accepted,
    /// Neither bound was crossed (yet).
    Inconclusive,
}

impl Verdict {
    /// The words testers use, also the value of the dashboard's filter.
    #[must_use]
    pub const fn words(self) -> &'static str {
        match self {
            Verdict::H1Accepted => "H1 accepted",
            Verdict::H0Accepted => "H0 accepted",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// Why a tournament is finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Its SPRT accepted a hypothesis after `games` of its planned games.
    Decided {
        /// The verdict (H1 or H0 accepted).
        verdict: Verdict,
        /// Games stored.
        games: u64,
        /// Games planned at most.
        planned: u64,
    },
    /// Every planned game was played; a match's SPRT, if any, decided nothing.
    AllPlayed {
        /// Games planned (and stored).
        games: u64,
        /// A stored SPRT's verdict (inconclusive), if the tournament has one.
        verdict: Option<Verdict>,
    },
}

impl Ending {
    /// The verdict of a match's SPRT, if it has one.
    #[must_use]
    pub fn verdict(&self) -> Option<Verdict> {
        match *self {
            Ending::Decided { verdict, .. } => Some(verdict),
            Ending::AllPlayed { verdict, .. } => verdict,
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Ending::Decided {
                verdict,
                games,
                planned,
            } => write!(
                f,
                "finished: {verdict} after {games} of at most {planned} games"
            ),
            Ending::AllPlayed {
                games,
                verdict: Some(v),
            } => write!(f, "finished: all {games} games played, SPRT {v}"),
            Ending::AllPlayed {
                games,
                verdict: None,
            } => write!(f, "finished: all {games} games played"),
        }
    }
}

/// Whether a tournament with `stored` of `planned` games (and its match test, if any) is
/// finished, and why.
#[must_use]
pub fn ending(stored: u64, planned: u64, test: Option<&MatchTest>) -> Option<Ending> {
    let verdict = test.and_then(MatchTest::verdict);
    match verdict {
        Some(v @ (Verdict::H1Accepted | Verdict::H0Accepted)) => Some(Ending::Decided {
            verdict: v,
            games: stored,
            planned,
        }),
        _ if planned > 0 && stored >= planned => Some(Ending::AllPlayed {
            games: planned,
            verdict,
        }),
        _ => None,
    }
}

/// Every match's test over the games stored so far, by tournament id (for `status` and
/// `results`; the dashboard follows the games as they are stored).
///
/// # Errors
/// The store cannot be read.
pub fn match_tests(
    store: &dyn Store,
    tournaments: &[TournamentRow],
) -> AppResult<BTreeMap<i64, MatchTest>> {
    let mut tests: BTreeMap<i64, MatchTest> = tournaments
        .iter()
        .filter_map(|t| MatchTest::of(&t.config, t.players.len()).map(|m| (t.id, m)))
        .collect();
    if tests.is_empty() {
        return Ok(tests);
    }
    let mut stored: BTreeMap<i64, u64> = BTreeMap::new();
    let mut after = 0;
    loop {
        let batch = store.results_since(after, 100_000)?;
        let Some(last) = batch.last() else { break };
        after = last.seq;
        for e in &batch {
            if let Some(test) = tests.get_mut(&e.tournament_id) {
                let n = stored.entry(e.tournament_id).or_default();
                *n += 1;
                let white = e.result.first_score();
                let first = if e.white == 0 { white } else { 1.0 - white };
                test.add(e.round, first, *n);
            }
        }
    }
    Ok(tests)
}

/// The score tables of a set of games: W/D/L per player (in the given order, then any
/// others seen) and per ordered pair (White first).
#[derive(Clone, Debug, Default)]
pub struct Standings {
    /// The players, in the order given, then in the order first seen.
    pub players: Vec<String>,
    /// Each player's games in all.
    pub totals: BTreeMap<String, Wdl>,
    /// Each ordered pair's games, from White's side.
    pub pairs: BTreeMap<(String, String), Wdl>,
}

impl Standings {
    /// Starts empty tables listing `order` first.
    #[must_use]
    pub fn new(order: &[String]) -> Standings {
        Standings {
            players: order.to_vec(),
            totals: BTreeMap::new(),
            pairs: BTreeMap::new(),
        }
    }

    /// Counts one game.
    pub fn add(&mut self, white: &str, black: &str, result: GameResult) {
        for p in [white, black] {
            if !self.players.iter().any(|q| q == p) {
                self.players.push(p.to_owned());
            }
        }
        let s = result.first_score();
        self.totals.entry(white.to_owned()).or_default().add(s);
        self.totals
            .entry(black.to_owned())
            .or_default()
            .add(1.0 - s);
        self.pairs
            .entry((white.to_owned(), black.to_owned()))
            .or_default()
            .add(s);
    }

    /// Counts stored results, listing `order` first.
    #[must_use]
    pub fn from_rows(order: &[String], rows: &[ResultRow]) -> Standings {
        let mut s = Standings::new(order);
        for r in rows {
            s.add(&r.white, &r.black, r.result);
        }
        s
    }

    /// Returns the players with games sorted by score, best first (then by name).
    #[must_use]
    pub fn ranked(&self) -> Vec<(&str, &Wdl)> {
        let mut v: Vec<(&str, &Wdl)> = self
            .players
            .iter()
            .filter_map(|p| self.totals.get(p).map(|l| (p.as_str(), l)))
            .collect();
        v.sort_by(|a, b| {
            b.1.score_pct()
                .total_cmp(&a.1.score_pct())
                .then(a.0.cmp(b.0))
        });
        v
    }
}

/// Returns the first side's (White's) wins, draws and losses in all rows.
#[must_use]
pub fn colour_split(rows: &[ResultRow]) -> Wdl {
    let mut t = Wdl::default();
    for r in rows {
        t.add(r.result.first_score());
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::GameKind;

    fn config(sprt: bool) -> String {
        let mut c = TournamentConfig::new("m", GameKind::Chess, vec!["a".into(), "b".into()]);
        if sprt {
            c.sprt = Some(eloworld_tournament::SprtSettings {
                elo0: 0.0,
                elo1: 10.0,
                alpha: 0.05,
                beta: 0.05,
                model: eloworld_ratings::sprt::SprtModel::Normalized,
            });
        }
        c.to_toml()
    }

    #[test]
    fn a_match_decided_by_its_sprt_is_finished_before_its_last_game() {
        let mut t = MatchTest::of(&config(true), 2).expect("a match");
        assert!(
            MatchTest::of(&config(true), 3).is_none(),
            "three players are no match"
        );
        assert_eq!(ending(0, 400, Some(&t)), None);
        // The first player wins every pair 2-0: H1 is accepted after a few dozen pairs.
        let mut stored = 0;
        let mut round = 0;
        while t.verdict() == Some(Verdict::Inconclusive) {
            for _ in 0..2 {
                stored += 1;
                t.add(round, 1.0, stored);
            }
            round += 1;
        }
        assert_eq!(t.verdict(), Some(Verdict::H1Accepted));
        let end = ending(stored, 400, Some(&t)).expect("finished");
        assert_eq!(end.verdict(), Some(Verdict::H1Accepted));
        assert_eq!(
            end.to_string(),
            format!("finished: H1 accepted after {stored} of at most 400 games")
        );
        assert!(stored < 400);
    }

    #[test]
    fn a_match_of_single_games_runs_its_test_on_wins_draws_and_losses() {
        let mut c: TournamentConfig = TournamentConfig::from_toml(&config(true)).expect("reads");
        c.game_pairs = false;
        let mut t = MatchTest::of(&c.to_toml(), 2).expect("a match");
        assert!(!t.paired);
        for (i, points) in [1.0, 1.0, 0.5, 1.0].into_iter().enumerate() {
            t.add(i as u32 / 2, points, i as u64 + 1);
        }
        assert_eq!(
            t.score.pairs.pairs(),
            0,
            "no pentanomial counts for single games"
        );
        assert_eq!(t.trace.len(), 4, "a point after every game");
        assert!((t.llr() - t.sprt.llr_trinomial(3, 1, 0)).abs() < 1e-12);
    }

    #[test]
    fn a_tournament_is_finished_when_every_game_is_played_whatever_its_test_says() {
        let mut t = MatchTest::of(&config(true), 2).expect("a match");
        t.add(0, 1.0, 1);
        t.add(0, 0.0, 2);
        assert_eq!(ending(1, 2, Some(&t)), None);
        assert_eq!(
            ending(2, 2, Some(&t)).map(|e| e.to_string()).as_deref(),
            Some("finished: all 2 games played, SPRT inconclusive")
        );
        let plain = MatchTest::of(&config(false), 2).expect("a match");
        assert!(
            !plain.configured && plain.verdict().is_none(),
            "no stored test decides nothing"
        );
        assert_eq!(
            ending(8, 8, Some(&plain)).map(|e| e.to_string()).as_deref(),
            Some("finished: all 8 games played")
        );
        assert_eq!(ending(3, 8, None), None);
    }
}
