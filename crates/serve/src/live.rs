//! One tournament's state as followed from the store: counts per ordered pair, the games in
//! finish order, progress, workers and the latest games. Updated one stored result at a time;
//! nothing here reads the store.

use eloworld_games::GameResult;
use eloworld_report::{OutcomeTable, Wdl};
use eloworld_tournament::{JobInFlight, ResultEntry, TournamentRow};
use std::collections::{BTreeMap, VecDeque};

/// How many of the latest games a page lists.
pub(crate) const LATEST: usize = 20;
/// The window over which rates are measured (milliseconds).
pub(crate) const RATE_WINDOW_MS: i64 = 60_000;

/// A game as the ratings need it: White's and Black's player indices and the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Played {
    pub white: u32,
    pub black: u32,
    pub result: GameResult,
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
}

impl Live {
    /// Starts following a tournament with no game seen yet.
    pub fn new(row: TournamentRow) -> Live {
        let n = row.players.len();
        Live {
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
        self.row.total > 0 && self.stored() >= self.row.total
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
        self.played.push(Played {
            white: e.white,
            black: e.black,
            result: e.result,
        });
        self.plies += u64::from(e.plies);
        *self
            .terminations
            .entry(e.termination.code().to_owned())
            .or_default() += 1;
        self.first_ms = Some(self.first_ms.map_or(e.finished_ms, |f| f.min(e.finished_ms)));
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
#[allow(clippy::cast_precision_loss)] // counts and milliseconds stay far below 2^52
fn per_minute(times: &VecDeque<i64>, started: Option<i64>, now_ms: i64) -> f64 {
    let since = now_ms - RATE_WINDOW_MS;
    let count = times.iter().rev().take_while(|&&t| t >= since).count();
    if count == 0 {
        return 0.0;
    }
    let span_ms = started.map_or(RATE_WINDOW_MS, |s| (now_ms - s).clamp(1_000, RATE_WINDOW_MS));
    count as f64 * 60_000.0 / span_ms as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::{Side, Termination};

    fn row(players: &[&str], total: u64) -> TournamentRow {
        TournamentRow {
            id: 1,
            name: "t".to_owned(),
            game: "chess".to_owned(),
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
            result,
            termination: Termination::Checkmate,
            plies: 10,
            wall_ms: 1.0,
            finished_ms: ms,
            worker: Some("w1".to_owned()),
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
        assert_eq!(live.latest.front().map(|e| e.seq), Some(3), "a skipped game is not listed");
        assert_eq!(live.terminations.get("checkmate"), Some(&3));
        // At 60 s: games at 0, 30 and 60 s are within the minute → 3 per minute.
        assert!((live.rate_per_minute(60_000) - 3.0).abs() < 1e-9);
        // Two minutes later nothing is recent.
        assert!(live.rate_per_minute(180_000).abs() < 1e-9);
        assert_eq!(live.workers["w1"].games, 3);
    }
}
