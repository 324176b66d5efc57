//! Playing a match: checking the engines, beginning it in the store, running its games, and
//! watching them finish (the score, the SPRT that stops it, the PGN).

use super::plan::match_plan;
use super::{MatchSettings, MatchTally, Pairing};
use eloworld_app::error::{AppResult, Context};
use eloworld_app::session::Session;
use eloworld_app::AppGame;
use eloworld_games::{Chess, GameResult, Termination};
use eloworld_players::engine::{add_definitions, check_starts, end_started};
use eloworld_players::{PlayableGame as _, PlayerSpec};
use eloworld_ratings::sprt::{Sprt, SprtDecision};
use eloworld_tournament::{
    Event, GameRow, MoveNote, Plan, ResultRow, RunSummary, Store, StoreError,
};
use std::collections::HashMap;
use std::io::Write as _;
use std::sync::atomic::Ordering;

/// What a match tells its front end while it plays.
#[derive(Debug)]
pub enum MatchEvent<'a> {
    /// A game started.
    Started {
        /// The game's number (1-based).
        game: u32,
        /// Games in the match.
        total: usize,
        /// White's name.
        white: &'a str,
        /// Black's name.
        black: &'a str,
    },
    /// A game finished and was counted.
    Finished {
        /// The game's number (1-based).
        game: u32,
        /// White's name.
        white: &'a str,
        /// Black's name.
        black: &'a str,
        /// The result.
        result: GameResult,
        /// Why it ended.
        termination: Termination,
        /// The score so far.
        tally: &'a MatchTally,
    },
    /// Engines that play by a fixed rule meet more than once from one start: their games
    /// after the first would be copies (give `-openings`).
    Copies {
        /// What to say, naming the pairs.
        warning: &'a str,
    },
    /// The store holds a match of the asked name with another plan (fishtest's SPSA batches
    /// rerun one `-event` with new openings and option values): this run plays a new match,
    /// `name`, in the same store.
    NewName {
        /// The name asked for.
        asked: &'a str,
        /// The name this match is stored under.
        name: &'a str,
    },
    /// A game was written to the PGN file: its CRC-32 (zlib's, as fastchess prints it for
    /// fishtest's worker) now, whole file.
    PgnWritten {
        /// The file.
        path: &'a std::path::Path,
        /// The CRC-32 of everything in it.
        crc32: u32,
    },
}

/// What a match did.
#[derive(Debug)]
pub struct MatchRun {
    /// The engines' names, first engine first.
    pub names: Vec<String>,
    /// The score, games stored before this run included.
    pub tally: MatchTally,
    /// The SPRT, if any.
    pub sprt: Option<Sprt>,
    /// The SPRT's decision on the final score.
    pub decision: Option<SprtDecision>,
    /// True when the games stored before this run had decided the SPRT already.
    pub decided_before: bool,
    /// The runner's summary.
    pub summary: RunSummary,
    /// Where the games are stored.
    pub location: String,
    /// Every game the store holds for the match, this run's and earlier runs'.
    pub rows: Vec<ResultRow>,
    /// A knockout's bracket, as far as it was played.
    pub bracket: Option<super::Bracket>,
}

impl MatchRun {
    /// True when the SPRT accepted a hypothesis.
    #[must_use]
    pub fn decided(&self) -> bool {
        self.decision.is_some_and(|d| d != SprtDecision::Continue)
    }
}

/// Plays (or resumes) a match, calling `on` as games start and finish (on another thread).
///
/// # Errors
/// A bad engine name or setting, an openings file, the store, or writing the PGN.
pub fn run_match(
    session: &Session,
    m: &MatchSettings,
    on: &mut (dyn FnMut(MatchEvent<'_>) + Send),
) -> AppResult<MatchRun> {
    let names: Vec<String> = m.engines.iter().map(|d| d.name.clone()).collect();
    match m.pairing {
        Pairing::Match => eloworld_app::ensure!(names.len() == 2, "a match plays two engines"),
        Pairing::RoundRobin | Pairing::Gauntlet { .. } | Pairing::Knockout => {
            eloworld_app::ensure!(names.len() >= 2, "a tournament plays two engines or more");
            eloworld_app::ensure!(
                m.sprt.is_none(),
                "an SPRT tests two engines, this tournament has {}",
                names.len()
            );
        }
    }
    for n in &names {
        n.parse::<PlayerSpec>()
            .with_context(|| format!("engine name {n:?}"))?;
    }
    let mut registry = Chess::builtin_players();
    add_definitions(&mut registry, m.engines.clone());
    for n in &names {
        registry.resolve_str(n)?;
    }
    // A broken engine stops the match before it decides anything: nothing is stored and no
    // SPRT computed from games it would forfeit. The checked engines play the first games;
    // those no game took are ended when the match returns, however it returns.
    let _end_checked = EndChecked;
    for def in &m.engines {
        if let Err(fault) = check_starts(def) {
            eloworld_app::invalid!(
                "engine {} ({}) cannot start: {fault}; nothing was played or stored",
                def.name,
                def.command
            );
        }
    }
    if m.pairing == Pairing::Knockout {
        return super::knockout::run_knockout(session, m, &names, &registry, on);
    }
    let (plan, book) = match_plan(m, &names)?;
    // Engines at a node or depth budget replay one game from one start: say so before playing.
    let determinism: Vec<_> = m.engines.iter().map(|d| d.determinism()).collect();
    let copies = plan.pairs_replaying_copies(&determinism);
    if let Some(warning) = eloworld_app::independent::copies_warning(&copies) {
        on(MatchEvent::Copies { warning: &warning });
    }
    let location = plan.config().db_path();
    let mut store = session.open_store(&location)?;
    let plan = begin_under_free_name(&mut *store, plan, &location, on)?;
    let sprt = m.sprt.map(Sprt::new).transpose()?;
    let paired = m.paired();
    // Games stored by an earlier run of the same match count towards the test.
    let mut tally = MatchTally::default();
    let stored = store.games(Some(&plan.config().name))?;
    for g in &stored {
        let first_points = if g.white == names[0] {
            g.result.first_score()
        } else {
            1.0 - g.result.first_score()
        };
        tally.score.add(first_points, paired.then_some(g.round));
    }
    // A test decided by the games already stored plays no more: its report is final.
    let decided_before = sprt
        .as_ref()
        .is_some_and(|s| s.decide(tally.llr(s, paired)) != SprtDecision::Continue);
    let session = session.clone().threads(Some(m.concurrency.max(1)));
    if decided_before {
        session.stop_flag().store(true, Ordering::Relaxed);
    }
    let watcher = Watcher {
        m,
        plan: &plan,
        names: &names,
        sprt: sprt.as_ref(),
        paired,
        session: &session,
        stored: &stored,
        book: &book,
        stage: Stage::default(),
    };
    let (summary, tally) = watcher.run(&registry, &mut *store, &location, tally, on)?;
    let decision = sprt.as_ref().map(|s| s.decide(tally.llr(s, paired)));
    let rows = store.results(Some(&plan.config().name))?;
    Ok(MatchRun {
        rows,
        names,
        tally,
        sprt,
        decision,
        decided_before,
        summary,
        location,
        bracket: None,
    })
}

/// Begins the match in the store: resumes a stored match of its name and plan, else takes
/// the first of `NAME`, `NAME #2`, `NAME #3`, … that is free or holds this plan. fastchess
/// plays a fresh match on every run, and fishtest's worker reruns one `-event` for each SPSA
/// batch with other openings (`start=`) and option values, so a rerun with another plan is a
/// new match, never a plan-mismatch error.
pub(super) fn begin_under_free_name(
    store: &mut dyn Store,
    plan: Plan,
    location: &str,
    on: &mut (dyn FnMut(MatchEvent<'_>) + Send),
) -> AppResult<Plan> {
    let asked = plan.config().name.clone();
    let mut plan = plan;
    for number in 2_u32.. {
        match store.begin(&plan) {
            Ok(_) => break,
            Err(StoreError::PlanMismatch { .. }) => {
                plan = plan.renamed(&format!("{asked} #{number}"));
            }
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("match {:?} in {location}", plan.config().name));
            }
        }
    }
    if plan.config().name != asked {
        on(MatchEvent::NewName {
            asked: &asked,
            name: &plan.config().name,
        });
    }
    Ok(plan)
}

/// What the event watcher needs to know of the match.
pub(super) struct Watcher<'a> {
    pub(super) m: &'a MatchSettings,
    pub(super) plan: &'a Plan,
    pub(super) names: &'a [String],
    pub(super) sprt: Option<&'a Sprt>,
    pub(super) paired: bool,
    pub(super) session: &'a Session,
    /// The games stored before this run (the PGN file is cut back to them).
    pub(super) stored: &'a [GameRow],
    /// A PGN book's lines, whose moves the PGN writes before each game's own.
    pub(super) book: &'a super::plan::BookLines,
    /// Which stage of a knockout this is (a match or a tournament is one stage).
    pub(super) stage: Stage,
}

/// Where a plan stands among a knockout's stages: the games before it (its games are
/// numbered on from them), and whether it is the first (only the first may start the PGN
/// file anew).
#[derive(Clone, Copy, Debug)]
pub(super) struct Stage {
    pub(super) games_before: u32,
    pub(super) first: bool,
}

impl Default for Stage {
    fn default() -> Stage {
        Stage {
            games_before: 0,
            first: true,
        }
    }
}

impl Watcher<'_> {
    /// Plays the plan's games not yet stored, counting them from `tally` as they finish.
    ///
    /// # Errors
    /// The store, an engine that cannot start (or restart), or writing the PGN.
    pub(super) fn run(
        &self,
        registry: &eloworld_players::Registry<Chess>,
        store: &mut dyn Store,
        location: &str,
        tally: MatchTally,
        on: &mut (dyn FnMut(MatchEvent<'_>) + Send),
    ) -> AppResult<(RunSummary, MatchTally)> {
        let rules = <Chess as AppGame>::rules(self.plan.config().draw_rules);
        let (tx, rx) = crossbeam_channel::unbounded();
        let (summary, tally) = std::thread::scope(|scope| {
            let handle = scope.spawn(|| self.watch(rx, tally, on));
            let mut opts = self.session.run_options();
            opts.events = Some(tx);
            opts.record_games = self.m.pgn_out.is_some();
            opts.pause_after_game = self.m.pause_after_game;
            let summary =
                eloworld_tournament::run::<Chess>(self.plan, registry, rules, store, &opts);
            drop(opts);
            (summary, handle.join())
        });
        // An engine that crashed and then could not be restarted stops the match the same
        // way a broken one does before it.
        let summary = eloworld_app::session::cannot_start(
            summary
                .with_context(|| format!("match {:?} in {location}", self.plan.config().name))?,
        )?;
        let tally = match tally {
            Ok(t) => t?,
            Err(_) => eloworld_app::invalid!("the match's event watcher failed"),
        };
        Ok((summary, tally))
    }

    /// Counts the games as they finish, tells `on`, writes the PGN, and stops the match
    /// when the SPRT is decided.
    fn watch(
        &self,
        rx: crossbeam_channel::Receiver<Event>,
        mut tally: MatchTally,
        on: &mut (dyn FnMut(MatchEvent<'_>) + Send),
    ) -> AppResult<MatchTally> {
        let mut pgn = match &self.m.pgn_out {
            Some(path) => Some(self.open_pgn(path, self.stored)?),
            None => None,
        };
        let mut recorded: HashMap<u32, (String, Vec<MoveNote>, Option<String>)> = HashMap::new();
        let before = self.stage.games_before;
        let total = before as usize + self.plan.jobs().len();
        for event in rx {
            match event {
                Event::GameStarted { job, white, black } => on(MatchEvent::Started {
                    game: before + job + 1,
                    total,
                    white: &self.names[white as usize],
                    black: &self.names[black as usize],
                }),
                Event::GameRecorded {
                    job,
                    moves,
                    notes,
                    detail,
                } => {
                    recorded.insert(job, (moves, notes, detail));
                }
                Event::GameFinished {
                    job,
                    white,
                    black,
                    result,
                    termination,
                    plies,
                } => {
                    if termination == Termination::TimeForfeit {
                        tally.forfeits += 1;
                    }
                    let white_points = result.first_score();
                    let first_points = if white == 0 {
                        white_points
                    } else {
                        1.0 - white_points
                    };
                    let spec = &self.plan.jobs()[job as usize];
                    tally
                        .score
                        .add(first_points, self.paired.then_some(spec.round));
                    let mut written = None;
                    if let (Some((file, crc)), Some(record)) = (&mut pgn, recorded.remove(&job)) {
                        let text =
                            self.pgn_of(job, white, black, result, termination, plies, record)?;
                        file.write_all(text.as_bytes())
                            .and_then(|()| file.flush())
                            .context("writing the PGN")?;
                        crc.update(text.as_bytes());
                        written = Some(crc.clone().finalize());
                    }
                    on(MatchEvent::Finished {
                        game: before + job + 1,
                        white: &self.names[white as usize],
                        black: &self.names[black as usize],
                        result,
                        termination,
                        tally: &tally,
                    });
                    if let (Some(path), Some(crc32)) = (&self.m.pgn_out, written) {
                        on(MatchEvent::PgnWritten { path, crc32 });
                    }
                    if let Some(sprt) = self.sprt {
                        if sprt.decide(tally.llr(sprt, self.paired)) != SprtDecision::Continue {
                            self.session.stop_flag().store(true, Ordering::Relaxed);
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(tally)
    }
}

/// Ends, when dropped, the engines checked before the match that no game took.
struct EndChecked;

impl Drop for EndChecked {
    fn drop(&mut self) {
        end_started();
    }
}
