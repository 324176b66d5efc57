//! How many jobs the coordinator claims, and when.

use std::time::Duration;

/// How many jobs the coordinator claims, and when.
///
/// Claims cover about a second of play alone on a store, and a tenth of a second on a
/// shared one (or a tenth of the lease, if shorter, so that a dead worker strands little
/// work): the workers of a tournament run dry together, where claims of a second of short
/// games left one worker playing a second or more alone at the end while the others
/// waited (two worker processes on PostgreSQL reached a third of one's pace in
/// `eloworld bench --db`); and at least two games a thread, so that the
/// workers never wait while a checkpoint is being committed; the games' length is learnt
/// from the first games (their plain mean, then a moving average). A claim is made below
/// half that target, and is at most four times the one before: claiming thousands of jobs
/// takes SQLite milliseconds, which workers with nothing queued spent waiting at the start
/// of every run (`eloworld bench` measured 3–7 ms a worker in runs of 2,000 games), and the
/// first claims of a worker on a shared store leave work for the others. On a shared store
/// a claim is at most sixteen times the one before: each claim there is a round trip to
/// the server (5–40 ms on a busy 2-core machine) during which a process of one thread,
/// with the few games of the claim before played, waits; growing fourfold from two games
/// to a tenth of a second of short games took five of them.
///
/// A shared store's claims are sized to the games' length as fishtest sizes its workers'
/// batches; they learnt it by a moving average that started at one second and moved a
/// tenth of the way a game, so a run of short games on PostgreSQL claimed four jobs at a
/// time, one transaction each, for its first seventy games.
#[derive(Debug)]
pub(super) struct ClaimSizer {
    threads: usize,
    /// Milliseconds of play a full claim covers, for all threads together.
    horizon_ms: f64,
    mean_game_ms: f64,
    games_seen: f64,
    last_claim: usize,
    /// How many times the claim before a claim may be.
    growth: usize,
}

impl ClaimSizer {
    /// The largest claim, whatever the games' length.
    const MOST: usize = 4096;

    pub(super) fn new(threads: usize, lease: Option<Duration>) -> ClaimSizer {
        ClaimSizer {
            threads,
            horizon_ms: lease.map_or(1000.0, |l| (l.as_secs_f64() * 100.0).min(100.0)),
            mean_game_ms: 1000.0,
            games_seen: 0.0,
            last_claim: 0,
            growth: if lease.is_some() { 16 } else { 4 },
        }
    }

    /// The jobs the claims aim to hold.
    fn target(&self) -> usize {
        let games = self.threads as f64 * self.horizon_ms / self.mean_game_ms.max(0.001);
        (games as usize).clamp(self.threads * 2, Self::MOST)
    }

    /// How many jobs to claim while holding `in_flight`, or `None` when enough are held.
    pub(super) fn wanted(&self, in_flight: usize) -> Option<usize> {
        let target = self.target();
        (in_flight < target.div_ceil(2)).then(|| {
            let growth = (self.last_claim * self.growth).max(self.threads * 2);
            (target * 2 - in_flight).min(growth)
        })
    }

    /// A claim gave `jobs` jobs.
    pub(super) fn claimed(&mut self, jobs: usize) {
        self.last_claim = jobs;
    }

    /// A game took `wall_ms`: the plain mean of the first games, then a moving average, so
    /// that the claims reach their size after the first game, not after dozens.
    pub(super) fn finished(&mut self, wall_ms: f64) {
        let weight = 1.0 / (self.games_seen + 1.0).min(10.0);
        self.mean_game_ms += weight * (wall_ms - self.mean_game_ms);
        self.games_seen += 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::ClaimSizer;
    use std::time::Duration;

    /// Claims the sizer asks for, each given in full and none of its games finished yet,
    /// until it holds enough.
    fn claims_until_full(sizer: &mut ClaimSizer, mut in_flight: usize) -> Vec<usize> {
        let mut claims = Vec::new();
        while let Some(n) = sizer.wanted(in_flight) {
            sizer.claimed(n);
            in_flight += n;
            claims.push(n);
        }
        claims
    }

    #[test]
    fn claims_grow_fourfold_from_two_a_thread_up_to_their_target() {
        let mut sizer = ClaimSizer::new(2, None);
        // Nothing known of the games yet: two a thread.
        assert_eq!(claims_until_full(&mut sizer, 0), vec![4]);
        for _ in 0..4 {
            sizer.finished(0.1);
        }
        // 0.1 ms games want the largest target (4,096 held, claimed below 2,048), reached
        // by claims four times the one before, not by one claim of 8,192.
        assert_eq!(sizer.target(), ClaimSizer::MOST);
        assert_eq!(
            claims_until_full(&mut sizer, 0),
            vec![16, 64, 256, 1024, 4096]
        );
        // Refilled below half the target: at most twice the target held, four times the last.
        assert_eq!(sizer.wanted(2047), Some(8192 - 2047));
        assert_eq!(sizer.wanted(2048), None);
    }

    #[test]
    fn slow_games_are_claimed_two_a_thread() {
        let mut sizer = ClaimSizer::new(3, None);
        assert_eq!(claims_until_full(&mut sizer, 0), vec![6]);
        sizer.finished(5000.0);
        assert_eq!(sizer.target(), 6);
        assert_eq!(sizer.wanted(3), None);
        assert_eq!(sizer.wanted(2), Some(10));
    }

    #[test]
    fn on_a_shared_store_claims_learn_the_games_length_as_fast_cover_a_tenth_of_a_second_and_grow_faster(
    ) {
        let mut local = ClaimSizer::new(1, None);
        let mut shared = ClaimSizer::new(1, Some(Duration::from_secs(30)));
        let mut short_lease = ClaimSizer::new(1, Some(Duration::from_millis(500)));
        for s in [&mut local, &mut shared, &mut short_lease] {
            s.finished(0.125);
        }
        // The first game is the mean on both stores: a second of 0.125 ms games alone (more
        // than the most), a tenth of a second shared, or a tenth of a 0.5 s lease.
        assert_eq!(local.target(), 4096);
        assert_eq!(shared.target(), 800);
        assert_eq!(short_lease.target(), 400);
        // The claims after it grow from two a thread, sixteenfold where alone fourfold.
        assert_eq!(claims_until_full(&mut shared, 0), vec![2, 32, 512]);
        assert_eq!(
            claims_until_full(&mut local, 0),
            vec![2, 8, 32, 128, 512, 2048]
        );
        shared.finished(5.875);
        // Then a moving average over ten games.
        for _ in 0..8 {
            shared.finished(3.0);
        }
        assert!(
            (shared.mean_game_ms - 3.0).abs() < 1e-9,
            "{}",
            shared.mean_game_ms
        );
        shared.finished(13.0);
        assert!(
            (shared.mean_game_ms - 4.0).abs() < 1e-9,
            "{}",
            shared.mean_game_ms
        );
    }
}
