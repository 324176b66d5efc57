//! One tournament's state as followed from the store: counts per ordered pair, the games in
//! finish order, progress, workers and the latest games. Updated one stored result at a time;
//! nothing here reads the store.

use eloworld_app::standing::{ending, Ending, MatchTest};
use eloworld_games::GameResult;
use eloworld_report::{OutcomeTable, Wdl};
use eloworld_tournament::{GameIdentity, JobInFlight, ResultEntry, TournamentRow};
use std::collections::{BTreeMap, VecDeque};

/// How many of the latest games a page lists.
pub(crate) const LATEST: usize = 20;
/// The window over which rates are measured (milliseconds).
pub(crate) const RATE_WINDOW_MS: i64 = 60_000;

/// A game as the ratings need it: White's and Black's player indices, the result and what
/// was played (to count a copy of an earlier game once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Played {
    pub white: u32,
    pub black: u32,
    pub result: GameResult,
    pub identity: GameIdentity,
}

/// What one worker did, from the games it stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WorkerTally {
    /// Games stored.
    pub games: u64,
    /// When it stored its last game (ms since the epoch).
    pub last_ms: i64,
    /// When it stored its recent games (the last minute or so).
    pub recent: VecDeque<i64>,
}

/// A tournament followed live.
#[derive(Clone, Debug)]
pub(crate) struct Live {
    /// The tournament as stored (name, players, planned jobs).
    pub row: TournamentRow,
    /// Counts per ordered pair, `white * n + black`.
    cells: Vec<Wdl>,
    /// The games in the order they were stored.
    pub played: Vec<Played>,
    /// Games with a player index outside the tournament's players (never expected).
    pub skipped: u64,
    /// Games per termination code.
    pub terminations: BTreeMap<String, u64>,
    /// When the recent games were stored (for the rate).
    recent: VecDeque<i64>,
    /// When the first and the last game seen were stored.
    pub first_ms: Option<i64>,
    /// When the last game seen was stored.
    pub last_ms: Option<i64>,
    /// Per worker.
    pub workers: BTreeMap<String, WorkerTally>,
    /// The latest games, newest first.
    pub latest: VecDeque<ResultEntry>,
    /// Jobs claimed and not finished.
    pub in_flight: Vec<JobInFlight>,
    /// Plies of all games, for the average length.
    pub plies: u64,
    /// The match statistics, for a tournament of two players.
    pub duel: Option<MatchTest>,
    /// The time control the games were played at, when the settings name one.
    pub time_control: Option<String>,
}

/// The search budgets of a match's engines without a shared clock (`eloworld match`'s stored
/// engine lines, `NAME = … budget 1000 nodes[ tc=…]`): `1000 nodes each`, or each engine's
/// (`a: 1000 nodes; b: depth 8`); `None` when no engine has one.
fn budgets(definitions: &[String]) -> Option<String> {
    let each: Vec<(&str, &str)> = definitions
        .iter()
        .filter_map(|line| {
            let (name, rest) = line.split_once(" = ")?;
            let budget = rest.split_once(" budget ")?.1;
            let end = [" tc=", " ponder", " book="]
                .iter()
                .filter_map(|k| budget.find(k))
                .min()
                .unwrap_or(budget.len());
            Some((name, budget[..end].trim()))
        })
        .filter(|(_, b)| !b.is_empty())
        .collect();
    match each.as_slice() {
        [] => None,
        [(_, first), rest @ ..] if rest.iter().all(|(_, b)| b == first) && !rest.is_empty() => {
            Some(format!("{first} each"))
        }
        _ => Some(
            each.iter()
                .map(|(n, b)| format!("{n}: {b}"))
                .collect::<Vec<_>>()
                .join("; "),
        ),
    }
}

impl Live {
    /// Starts following a tournament with no game seen yet.
    pub fn new(row: TournamentRow) -> Live {
        let n = row.players.len();
        let duel = MatchTest::of(&row.config, n);
        let time_control = eloworld_tournament::TournamentConfig::from_toml(&row.config)
            .ok()
            .and_then(|c| c.time_control.or_else(|| budgets(&c.engine_definitions)));
        Live {
            time_control,
            row,
            cells: vec![Wdl::default(); n * n],
            played: Vec::new(),
            skipped: 0,
            terminations: BTreeMap::new(),
            recent: VecDeque::new(),
            first_ms: None,
            last_ms: None,
            workers: BTreeMap::new(),
            latest: VecDeque::with_capacity(LATEST + 1),
            in_flight: Vec::new(),
            plies: 0,
            duel,
        }
    }

    /// Returns the number of players.
    pub fn players(&self) -> usize {
        self.row.players.len()
    }

    /// Returns the number of games seen.
    pub fn stored(&self) -> u64 {
        self.played.len() as u64 + self.skipped
    }

    /// Returns whether every planned game is stored.
    pub fn finished(&self) -> bool {
        self.ending().is_some()
    }

    /// Why the tournament is finished (every game played, or a match's SPRT decided), if it is.
    pub fn ending(&self) -> Option<Ending> {
        ending(self.stored(), self.row.total, self.duel.as_ref())
    }

    /// Counts one stored result.
    pub fn add(&mut self, e: &ResultEntry) {
        let n = self.players();
        let (w, b) = (e.white as usize, e.black as usize);
        if w >= n || b >= n {
            self.skipped += 1;
            return;
        }
        let cell = &mut self.cells[w * n + b];
        match e.result {
            GameResult::Win(eloworld_games::Side::First) => cell.wins += 1,
            GameResult::Win(_) => cell.losses += 1,
            GameResult::Draw => cell.draws += 1,
        }
        if let Some(duel) = &mut self.duel {
            if w != b {
                let white_points = match e.result {
                    GameResult::Win(eloworld_games::Side::First) => 1.0,
                    GameResult::Win(_) => 0.0,
                    GameResult::Draw => 0.5,
                };
                let first = if w == 0 {
                    white_points
                } else {
                    1.0 - white_points
                };
                duel.add(e.round, first, self.played.len() as u64 + 1);
            }
        }
        self.played.push(Played {
            white: e.white,
            black: e.black,
            result: e.result,
            identity: e.identity,
        });
        self.plies += u64::from(e.plies);
        *self
            .terminations
            .entry(e.termination.code().to_owned())
            .or_default() += 1;
        self.first_ms = Some(
            self.first_ms
                .map_or(e.finished_ms, |f| f.min(e.finished_ms)),
        );
        self.last_ms = Some(self.last_ms.map_or(e.finished_ms, |l| l.max(e.finished_ms)));
        self.recent.push_back(e.finished_ms);
        let newest = self.last_ms.unwrap_or(e.finished_ms);
        while self
            .recent
            .front()
            .is_some_and(|&t| t < newest - RATE_WINDOW_MS)
        {
            self.recent.pop_front();
        }
        let worker = e.worker.clone().unwrap_or_else(|| "(unnamed)".to_owned());
        let tally = self.workers.entry(worker).or_default();
        tally.games += 1;
        tally.last_ms = tally.last_ms.max(e.finished_ms);
        tally.recent.push_back(e.finished_ms);
        while tally
            .recent
            .front()
            .is_some_and(|&t| t < tally.last_ms - RATE_WINDOW_MS)
        {
            tally.recent.pop_front();
        }
        self.latest.push_front(e.clone());
        self.latest.truncate(LATEST);
    }

    /// Returns the games per minute over the last minute before `now_ms` (0 when none).
    pub fn rate_per_minute(&self, now_ms: i64) -> f64 {
        per_minute(&self.recent, self.first_ms, now_ms)
    }

    /// Returns the games per minute over the whole run, first stored game to last.
    pub fn rate_over_run(&self) -> Option<f64> {
        let (first, last) = (self.first_ms?, self.last_ms?);
        (last > first)
            .then(|| self.stored().saturating_sub(1) as f64 * 60_000.0 / (last - first) as f64)
    }

    /// Returns a worker's games per minute over the last minute before `now_ms`.
    pub fn worker_rate(tally: &WorkerTally, now_ms: i64) -> f64 {
        per_minute(&tally.recent, None, now_ms)
    }

    /// Returns the results as the report's table (players in the tournament's order).
    pub fn table(&self) -> OutcomeTable {
        let n = self.players();
        let mut table = OutcomeTable::new(&self.row.players);
        for w in 0..n {
            for b in 0..n {
                let c = self.cells[w * n + b];
                if c.games() > 0 {
                    // Indices are in range by construction.
                    let _ = table.add_counts(w, b, c);
                }
            }
        }
        table
    }
}

/// Games per minute among `times` within the minute before `now_ms`; when the run started
/// less than a minute ago, over the time since it started.
fn per_minute(times: &VecDeque<i64>, started: Option<i64>, now_ms: i64) -> f64 {
    let since = now_ms - RATE_WINDOW_MS;
    let count = times.iter().rev().take_while(|&&t| t >= since).count();
    if count == 0 {
        return 0.0;
    }
    let span_ms = started.map_or(RATE_WINDOW_MS, |s| {
        (now_ms - s).clamp(1_000, RATE_WINDOW_MS)
    });
    count as f64 * 60_000.0 / span_ms as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_name_a_node_limited_match() {
        let same = [
            "a = \"stockfish\" [] Uci option.Hash=16 budget 1000 nodes".to_owned(),
            "b = \"stockfish\" [] Uci budget 1000 nodes ponder".to_owned(),
        ];
        assert_eq!(budgets(&same).as_deref(), Some("1000 nodes each"));
        let apart = [
            "a = \"x\" [] Uci budget 1000 nodes, depth 8".to_owned(),
            "b = \"y\" [] Uci budget 200 ms tc=10+0.1 timemargin=0".to_owned(),
        ];
        assert_eq!(
            budgets(&apart).as_deref(),
            Some("a: 1000 nodes, depth 8; b: 200 ms")
        );
        assert_eq!(
            budgets(&["a = \"x\" [] Uci budget  tc=1+0".to_owned()]),
            None
        );
    }
    use eloworld_games::{Side, Termination};

    fn row(players: &[&str], total: u64) -> TournamentRow {
        TournamentRow {
            id: 1,
            name: "t".to_owned(),
            game: eloworld_games::GameKind::Chess,
            config: String::new(),
            fingerprint: String::new(),
            created: String::new(),
            program_version: String::new(),
            players: players.iter().map(|s| (*s).to_owned()).collect(),
            total,
            done: 0,
        }
    }

    fn entry(seq: i64, white: u32, black: u32, result: GameResult, ms: i64) -> ResultEntry {
        ResultEntry {
            seq,
            job_id: seq,
            tournament_id: 1,
            white,
            black,
            round: 0,
            result,
            termination: Termination::Checkmate,
            plies: 10,
            wall_ms: 1.0,
            finished_ms: ms,
            worker: Some("w1".to_owned()),
            identity: GameIdentity::of(None, &seq.to_le_bytes()),
        }
    }

    #[test]
    fn counts_rates_and_latest() {
        let mut live = Live::new(row(&["a", "b"], 4));
        live.add(&entry(1, 0, 1, GameResult::Win(Side::First), 0));
        live.add(&entry(2, 1, 0, GameResult::Draw, 30_000));
        live.add(&entry(3, 1, 0, GameResult::Win(Side::Second), 60_000));
        live.add(&entry(4, 5, 0, GameResult::Draw, 60_000));
        assert_eq!(live.stored(), 4);
        assert_eq!(live.skipped, 1);
        assert!(live.finished());
        let t = live.table();
        assert_eq!(t.cell(0, 1), Wdl::new(1, 0, 0));
        assert_eq!(t.cell(1, 0), Wdl::new(0, 1, 1));
        assert_eq!(
            live.latest.front().map(|e| e.seq),
            Some(3),
            "a skipped game is not listed"
        );
        assert_eq!(live.terminations.get("checkmate"), Some(&3));
        // At 60 s: games at 0, 30 and 60 s are within the minute → 3 per minute.
        assert!((live.rate_per_minute(60_000) - 3.0).abs() < 1e-9);
        // Two minutes later nothing is recent.
        assert!(live.rate_per_minute(180_000).abs() < 1e-9);
        assert_eq!(live.workers["w1"].games, 3);
    }

    #[test]
    fn a_match_pairs_the_two_games_of_a_round() {
        let mut r = row(&["a", "b"], 8);
        // The settings as a match stores them, its SPRT among them.
        let mut c = eloworld_tournament::TournamentConfig::new(
            "m",
            eloworld_games::GameKind::Chess,
            vec!["a".to_owned(), "b".to_owned()],
        );
        c.sprt = Some(eloworld_tournament::SprtSettings {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.1,
            beta: 0.1,
            model: eloworld_ratings::sprt::SprtModel::Normalized,
        });
        r.config = c.to_toml();
        let mut live = Live::new(r);
        let mut game = |seq: i64, white: u32, round: u32, result: GameResult| {
            let mut e = entry(seq, white, 1 - white, result, seq * 1000);
            e.round = round;
            live.add(&e);
        };
        // Round 0: a wins with White, draws with Black → 1½. Round 1: a loses both → 0.
        game(1, 0, 0, GameResult::Win(Side::First));
        game(2, 0, 1, GameResult::Win(Side::Second));
        game(3, 1, 0, GameResult::Draw);
        game(4, 1, 1, GameResult::Win(Side::First));
        // Round 2: a wins with White, loses with Black → 1 (a win and a loss).
        game(5, 1, 2, GameResult::Win(Side::First));
        game(6, 0, 2, GameResult::Win(Side::First));
        // Round 3: one game so far: no pair yet.
        game(7, 0, 3, GameResult::Draw);
        let duel = live.duel.as_ref().expect("two players make a match");
        assert!(duel.configured);
        assert_eq!(duel.sprt.config().elo1, 10.0);
        assert_eq!(duel.score.pairs.counts(), [1, 0, 1, 1, 0]);
        assert_eq!((duel.score.pairs.wl, duel.score.pairs.dd), (1, 0));
        assert_eq!(duel.score.wdl, eloworld_ratings::Wdl::new(2, 2, 3));
        assert_eq!(
            duel.trace.iter().map(|p| p.0).collect::<Vec<_>>(),
            [3.0, 4.0, 6.0],
            "a point after each completed pair"
        );
        assert!((duel.llr() - duel.sprt.llr(&duel.score.pairs)).abs() < 1e-12);
        assert!(Live::new(row(&["a", "b", "c"], 1)).duel.is_none());
        let plain = Live::new(row(&["a", "b"], 1));
        assert!(
            !plain.duel.as_ref().is_some_and(|d| d.configured),
            "defaults without [sprt]"
        );
    }
}
