//! The poller: one thread that follows the store and publishes what pages show.
//!
//! Each round asks the store only for results stored since the last one it saw
//! ([`Store::results_since`]), plus the few `seq` values it saw skipped (on PostgreSQL a
//! transaction that took a value may commit after a later one). The jobs in flight of
//! running tournaments and the workers' reports are small reads. Nothing is recomputed when
//! nothing changed.

use crate::live::Live;
use crate::pages::{self, View};
use crate::rating::Rater;
use crate::ServeError;
use eloworld_tournament::{ResultEntry, Store, WorkerSeen};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Results read per query.
const BATCH: usize = 20_000;
/// How long a skipped `seq` value is asked for again before it is taken as never used.
const HOLE_PATIENCE: Duration = Duration::from_secs(60);
/// The most skipped values remembered.
const MAX_HOLES: usize = 10_000;
/// How often the list of tournaments is read again (new ones also appear with their games).
const TOURNAMENTS_EVERY: Duration = Duration::from_secs(10);
/// How often jobs in flight and workers are read for running tournaments.
const IN_FLIGHT_EVERY: Duration = Duration::from_secs(2);
/// How often the pages of unfinished tournaments are rendered again without new games (the
/// rate and the state depend on the time).
const TICK_EVERY: Duration = Duration::from_secs(10);

/// The index page's live part.
#[derive(Debug, Default)]
pub(crate) struct IndexView {
    /// Increases with every change.
    pub version: u64,
    /// The list of tournaments, rendered with no filter (pages filter it as they show it).
    pub html: String,
    /// The tournaments, for a page that asks for a filter.
    pub rows: Vec<pages::IndexRow>,
    /// Why the store could not be read, if it could not.
    pub error: Option<String>,
}

/// Where the poller publishes and the pages read.
pub(crate) struct Hub {
    /// The index.
    pub index: watch::Sender<Arc<IndexView>>,
    /// Each tournament by name.
    pub tournaments: RwLock<BTreeMap<String, watch::Sender<Arc<View>>>>,
    /// Raised when the server stops (event streams end).
    pub closing: watch::Sender<bool>,
    /// The store's location, safe to show.
    pub location: String,
}

impl Hub {
    /// Returns a subscription to a tournament's view.
    pub fn tournament(&self, name: &str) -> Option<watch::Receiver<Arc<View>>> {
        self.tournaments
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(name)
            .map(watch::Sender::subscribe)
    }
}

/// Follows the store.
pub(crate) struct Poller {
    store: Box<dyn Store>,
    hub: Arc<Hub>,
    stop: Arc<AtomicBool>,
    lives: BTreeMap<i64, Live>,
    raters: HashMap<i64, Rater>,
    last_seq: i64,
    holes: BTreeMap<i64, Instant>,
    workers_seen: Vec<WorkerSeen>,
    last_error: Option<String>,
    tournaments_read: Instant,
    in_flight_read: Instant,
    ticked: Instant,
    version: u64,
}

impl Poller {
    /// Reads the store once in full and publishes the first views.
    ///
    /// # Errors
    /// Store errors.
    pub fn new(
        store: Box<dyn Store>,
        stop: &Arc<AtomicBool>,
    ) -> Result<(Arc<Hub>, Poller), ServeError> {
        let hub = Arc::new(Hub {
            index: watch::Sender::new(Arc::new(IndexView::default())),
            tournaments: RwLock::new(BTreeMap::new()),
            closing: watch::Sender::new(false),
            location: store.location(),
        });
        let mut p = Poller {
            store,
            hub: Arc::clone(&hub),
            stop: Arc::clone(stop),
            lives: BTreeMap::new(),
            raters: HashMap::new(),
            last_seq: 0,
            holes: BTreeMap::new(),
            workers_seen: Vec::new(),
            last_error: None,
            tournaments_read: Instant::now(),
            in_flight_read: Instant::now(),
            ticked: Instant::now(),
            version: 0,
        };
        p.read_tournaments()?;
        p.round(true)?;
        Ok((hub, p))
    }

    /// Polls every `interval` until the server stops.
    pub fn run(&mut self, interval: Duration) {
        let step = Duration::from_millis(50).min(interval);
        'outer: loop {
            let started = Instant::now();
            while started.elapsed() < interval {
                if self.stop.load(Ordering::SeqCst) {
                    break 'outer;
                }
                std::thread::sleep(step);
            }
            let outcome = self.round(false);
            let error = outcome.err().map(|e| e.to_string());
            if error != self.last_error {
                self.last_error = error;
                // Every page shows the store's state.
                self.publish_all();
            }
        }
        self.hub.closing.send_replace(true);
    }

    fn read_tournaments(&mut self) -> Result<bool, ServeError> {
        self.tournaments_read = Instant::now();
        let mut added = false;
        for row in self.store.tournaments()? {
            match self.lives.get_mut(&row.id) {
                Some(live) => live.row.total = row.total,
                None => {
                    added = true;
                    self.lives.insert(row.id, Live::new(row));
                }
            }
        }
        Ok(added)
    }

    /// Reads what is new; publishes the views that changed (all of them when `all`).
    pub(crate) fn round(&mut self, all: bool) -> Result<(), ServeError> {
        let mut changed: Vec<i64> = Vec::new();
        let mut fresh = self.read_new()?;
        if !self.holes.is_empty() {
            let asked: Vec<i64> = self.holes.keys().copied().collect();
            let found = self.store.results_with_seq(&asked)?;
            for e in &found {
                self.holes.remove(&e.seq);
            }
            self.holes
                .retain(|_, since| since.elapsed() < HOLE_PATIENCE);
            fresh.extend(found);
        }
        let unknown = fresh
            .iter()
            .any(|e| !self.lives.contains_key(&e.tournament_id));
        if (unknown || self.tournaments_read.elapsed() >= TOURNAMENTS_EVERY)
            && self.read_tournaments()?
        {
            changed.extend(self.lives.keys().copied());
        }
        for e in &fresh {
            if let Some(live) = self.lives.get_mut(&e.tournament_id) {
                live.add(e);
                changed.push(e.tournament_id);
            }
        }
        if all || self.in_flight_read.elapsed() >= IN_FLIGHT_EVERY {
            self.in_flight_read = Instant::now();
            let seen = self.store.workers_seen()?;
            let workers_changed = seen != self.workers_seen;
            self.workers_seen = seen;
            for (id, live) in &mut self.lives {
                if live.finished() && live.in_flight.is_empty() {
                    continue;
                }
                let flight = self.store.jobs_in_flight(*id)?;
                if flight != live.in_flight || workers_changed {
                    live.in_flight = flight;
                    changed.push(*id);
                }
            }
        }
        if self.ticked.elapsed() >= TICK_EVERY {
            self.ticked = Instant::now();
            changed.extend(
                self.lives
                    .iter()
                    .filter(|(_, l)| !l.finished() && l.stored() > 0)
                    .map(|(id, _)| *id),
            );
        }
        if all {
            changed = self.lives.keys().copied().collect();
        }
        changed.sort_unstable();
        changed.dedup();
        if !changed.is_empty() || all {
            for id in &changed {
                self.publish(*id);
            }
            self.publish_index();
        }
        Ok(())
    }

    /// Reads every result stored after the last one seen, noting skipped `seq` values.
    fn read_new(&mut self) -> Result<Vec<ResultEntry>, ServeError> {
        let mut out = Vec::new();
        loop {
            let batch = self.store.results_since(self.last_seq, BATCH)?;
            let full = batch.len() == BATCH;
            for e in &batch {
                if e.seq > self.last_seq + 1 && e.seq - self.last_seq <= MAX_HOLES as i64 {
                    let now = Instant::now();
                    for s in self.last_seq + 1..e.seq {
                        self.holes.insert(s, now);
                    }
                }
                self.last_seq = self.last_seq.max(e.seq);
            }
            while self.holes.len() > MAX_HOLES {
                self.holes.pop_first();
            }
            out.extend(batch);
            if !full {
                return Ok(out);
            }
        }
    }

    fn publish_all(&mut self) {
        let ids: Vec<i64> = self.lives.keys().copied().collect();
        for id in ids {
            self.publish(id);
        }
        self.publish_index();
    }

    fn publish(&mut self, id: i64) {
        let Some(live) = self.lives.get(&id) else {
            return;
        };
        self.version += 1;
        let rater = self.raters.entry(id).or_default();
        let rated = rater.rate(live);
        let now_ms = now_ms();
        let previous = self.hub.tournament(&live.row.name);
        let pictures = match &previous {
            Some(rx) if !rater.pictures_due(live) => Arc::clone(&rx.borrow().pictures),
            _ => {
                rater.pictures_drawn(live);
                Arc::new(pages::Pictures::new(self.version, live, &rated))
            }
        };
        let view = View {
            name: live.row.name.clone(),
            version: self.version,
            fragments: pages::fragments(
                live,
                &rated,
                &self.workers_seen,
                self.last_error.as_deref(),
                now_ms,
            ),
            pictures,
            fixed: pages::fixed(live, &self.hub.location),
        };
        let view = Arc::new(view);
        let mut map = self
            .hub
            .tournaments
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match map.get(&live.row.name) {
            Some(tx) => {
                tx.send_replace(view);
            }
            None => {
                map.insert(live.row.name.clone(), watch::Sender::new(view));
            }
        }
    }

    fn publish_index(&mut self) {
        self.version += 1;
        let rows = pages::index_rows(self.lives.values(), now_ms());
        let error = self.last_error.clone();
        let html = pages::index_list(&rows, error.as_deref(), &pages::IndexFilter::default());
        self.hub.index.send_replace(Arc::new(IndexView {
            version: self.version,
            html,
            rows,
            error,
        }));
    }
}

/// Milliseconds since the Unix epoch on this machine's clock.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
