//! A match between two engines, as fastchess and cutechess-cli run one: its schedule (game
//! pairs from one opening with colours swapped), the running score with its pentanomial
//! pairs, an SPRT that stops the match once decided, the games rebuilt as PGN while they
//! finish, and every game in the store (a killed match resumes, and the games stored
//! before count towards the test).

use crate::error::{AppResult, Context};
use crate::session::Session;
use crate::AppGame;
use eloworld_games::rng::splitmix64;
use eloworld_games::{Chess, DrawRules, GameKind, GameResult, Termination};
use eloworld_players::engine::{add_definitions, check_starts, EngineDef};
use eloworld_players::{PlayableGame as _, PlayerSpec};
use eloworld_ratings::convert::{IntervalKind, MatchStats};
use eloworld_ratings::sprt::{PairStats, Pentanomial, Sprt, SprtConfig, SprtDecision};
use eloworld_ratings::{PairedScore, Wdl};
use eloworld_tournament::adjudication::Adjudication;
use eloworld_tournament::pgn::{
    game_to_pgn_annotated, CommentFields, PgnTags, Regex, TerminationWords,
};
pub use eloworld_tournament::schedule::paired::Colours;
use eloworld_tournament::schedule::paired::{pick_openings, PairedMatch};
use eloworld_tournament::{
    Event, GameRow, MoveNote, Plan, ResultRow, RunSummary, Schedule, Store, StoreError,
    TournamentConfig,
};
use std::collections::HashMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

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
    /// True when rounds are game pairs: the score is then counted in pentanomial pairs.
    #[must_use]
    pub fn paired(&self) -> bool {
        self.games >= 2 && self.pairing == Pairing::Match
    }
}

/// The running score of a match, from the first engine's side: games and game pairs
/// ([`PairedScore`]), and the games lost on time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchTally {
    /// Games, and the pentanomial counts of finished pairs.
    pub score: PairedScore,
    /// Games lost on time.
    pub forfeits: u64,
}

impl MatchTally {
    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.score.games()
    }

    /// The log-likelihood ratio of `sprt` on this score.
    #[must_use]
    pub fn llr(&self, sprt: &Sprt, paired: bool) -> f64 {
        self.score.llr(sprt, paired)
    }
}

/// A match's score in the numbers testers read, computed once for `eloworld match`'s report
/// and the dashboard's headline: Elo (and nElo for pairs) with the 95% interval, LOS, the
/// draw and pair ratios, W/D/L, the pentanomial counts, and the LLR against its bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Headline {
    /// Games, from the first player's side.
    pub wdl: Wdl,
    /// The first player's points.
    pub points: f64,
    /// Its score in percent.
    pub percent: f64,
    /// The pairs' statistics (fastchess's figures), when the match is counted in pairs.
    pub pairs: Option<(Pentanomial, PairStats)>,
    /// The Elo difference with its exact 95% bounds (per pair, or per game).
    pub bounds: MatchStats,
    /// The `Elo:` line as fastchess writes it.
    pub elo_line: String,
    /// The likelihood of superiority, 0 to 1.
    pub los: f64,
    /// Draws (of games, or of pairs' 1–1 results) in percent.
    pub draw_ratio: f64,
    /// The SPRT's state.
    pub llr: Option<LlrLine>,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LlrLine {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// Its lower bound (H0 accepted below).
    pub lower: f64,
    /// Its upper bound (H1 accepted above).
    pub upper: f64,
    /// H0's Elo.
    pub elo0: f64,
    /// H1's Elo.
    pub elo1: f64,
    /// How far towards the bound it heads for, in percent.
    pub progress_percent: f64,
    /// The decision.
    pub decision: SprtDecision,
}

impl Headline {
    /// The headline of `score` (`paired`: counted in game pairs), with `sprt`'s state.
    #[must_use]
    pub fn of(score: &PairedScore, sprt: Option<&Sprt>, paired: bool) -> Headline {
        // In pairs, the games of finished pairs (as fastchess reports them), so that
        // `Games:` is always twice the pentanomial's pairs.
        let wdl = if paired && score.pairs.pairs() > 0 {
            score.paired_wdl
        } else {
            score.wdl
        };
        let points = wdl.points();
        let games = (wdl.games() as f64).max(1.0);
        let percent = 100.0 * points / games;
        let llr = sprt.map(|s| {
            let llr = score.llr(s, paired);
            let c = s.config();
            LlrLine {
                llr,
                lower: s.lower_bound(),
                upper: s.upper_bound(),
                elo0: c.elo0,
                elo1: c.elo1,
                progress_percent: s.progress_percent(llr),
                decision: s.decide(llr),
            }
        });
        if paired && score.pairs.pairs() > 0 {
            let stats = PairStats::new(&score.pairs);
            let bounds = MatchStats::from_pentanomial(score.pairs.counts());
            Headline {
                wdl,
                points,
                percent,
                elo_line: elo_line(Some(&stats), &bounds, "pair"),
                los: stats.los,
                draw_ratio: stats.draw_ratio_percent,
                pairs: Some((score.pairs, stats)),
                bounds,
                llr,
            }
        } else {
            let bounds = MatchStats::from_wdl(wdl.wins, wdl.draws, wdl.losses);
            let draw_ratio = 100.0 * wdl.draws as f64 / games;
            Headline {
                wdl,
                points,
                percent,
                elo_line: elo_line(None, &bounds, "game"),
                los: bounds.los,
                draw_ratio,
                pairs: None,
                bounds,
                llr,
            }
        }
    }
}

/// Writes the `Elo:` line: fastchess's `Elo: 12.34 +/- 5.67[, nElo: … +/- …]` when the
/// interval is two-sided and finite; else what the games bound, as `match-stats` says it: a
/// one-sided 95% bound when every unit was won or lost, the exact interval when all had the
/// same result, "unbounded" for an end of the interval past 0 or 100%.
fn elo_line(pairs: Option<&PairStats>, bounds: &MatchStats, unit: &str) -> String {
    let signed = |x: f64| {
        if x.is_finite() {
            format!("{x:+.2}")
        } else {
            "unbounded".to_owned()
        }
    };
    match bounds.interval {
        IntervalKind::LowerBoundOnly => {
            return format!(
                "Elo: unbounded above (every {unit} won), one-sided 95% lower bound {}",
                signed(bounds.elo_low)
            )
        }
        IntervalKind::UpperBoundOnly => {
            return format!(
                "Elo: unbounded below (every {unit} lost), one-sided 95% upper bound {}",
                signed(bounds.elo_high)
            )
        }
        IntervalKind::NoSpread => {
            return format!(
                "Elo: {:.2} (95% interval {} .. {}: every {unit} had the same result)",
                bounds.elo,
                signed(bounds.elo_low),
                signed(bounds.elo_high)
            )
        }
        IntervalKind::TwoSided => {}
    }
    let interval = format!(
        "Elo: {:.2} (95% interval {} .. {})",
        bounds.elo,
        signed(bounds.elo_low),
        signed(bounds.elo_high)
    );
    match pairs {
        Some(s) => {
            if [s.elo, s.elo_error, s.nelo, s.nelo_error]
                .iter()
                .all(|x| x.is_finite())
            {
                format!(
                    "Elo: {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}",
                    s.elo, s.elo_error, s.nelo, s.nelo_error
                )
            } else {
                interval
            }
        }
        None => {
            let half = (bounds.elo_high - bounds.elo_low) / 2.0;
            if half.is_finite() && bounds.elo.is_finite() {
                format!("Elo: {:.2} +/- {half:.2}", bounds.elo)
            } else {
                interval
            }
        }
    }
}

/// Why a game ended, in fastchess's words on its `Finished game N (A vs B): RESULT {reason}`
/// line ("White mates", "Draw by 3-fold repetition", "Black loses on time", "White
/// disconnects", "Black's connection stalls", "White makes an illegal move", "White wins by
/// adjudication", "Draw by adjudication: SyzygyTB"), the words by which the tools that drive
/// fastchess (OpenBench's client, fishtest's worker) count crashes, stalls, time losses and
/// illegal moves.
#[must_use]
pub fn reason(result: GameResult, termination: Termination) -> String {
    use eloworld_games::Side;
    let colour = |side: Side| match side {
        Side::First => "White",
        Side::Second => "Black",
    };
    let (winner, loser) = match result {
        GameResult::Win(s) => (colour(s), colour(s.other())),
        GameResult::Draw => ("", ""),
    };
    match termination {
        Termination::Checkmate => format!("{winner} mates"),
        Termination::Stalemate => "Draw by stalemate".to_owned(),
        Termination::ThreefoldRepetition => "Draw by 3-fold repetition".to_owned(),
        Termination::FivefoldRepetition => "Draw by 5-fold repetition".to_owned(),
        Termination::FiftyMoveRule => "Draw by fifty moves rule".to_owned(),
        Termination::SeventyFiveMoveRule => "Draw by 75 moves rule".to_owned(),
        Termination::InsufficientMaterial => "Draw by insufficient mating material".to_owned(),
        Termination::FourInARow => format!("{winner} makes four in a row"),
        Termination::ThreeInARow => format!("{loser} makes three in a row"),
        Termination::BoardFull => "Draw by full board".to_owned(),
        Termination::TwoPasses | Termination::MoveLimit => match result {
            GameResult::Draw => "Draw by area count".to_owned(),
            GameResult::Win(_) => format!("{winner} wins on area count"),
        },
        Termination::Resignation => format!("{loser} resigns"),
        Termination::MaxPlies | Termination::DrawAdjudication => "Draw by adjudication".to_owned(),
        Termination::EngineCrashed => format!("{loser} disconnects"),
        Termination::EngineTimeout => format!("{loser}'s connection stalls"),
        Termination::IllegalMove => format!("{loser} makes an illegal move"),
        Termination::TimeForfeit => format!("{loser} loses on time"),
        Termination::ResignAdjudication => format!("{winner} wins by adjudication"),
        Termination::InvalidClaim => format!("{loser} forfeits by invalid result claim"),
        Termination::TablebaseAdjudication => match result {
            GameResult::Draw => "Draw by adjudication: SyzygyTB".to_owned(),
            GameResult::Win(_) => format!("{winner} wins by adjudication: SyzygyTB"),
        },
    }
}

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
        Pairing::Match => crate::ensure!(names.len() == 2, "a match plays two engines"),
        Pairing::RoundRobin | Pairing::Gauntlet { .. } => {
            crate::ensure!(names.len() >= 2, "a tournament plays two engines or more");
            crate::ensure!(
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
    // SPRT computed from games it would forfeit.
    for def in &m.engines {
        if let Err(fault) = check_starts(def) {
            crate::invalid!(
                "engine {} ({}) cannot start: {fault}; nothing was played or stored",
                def.name,
                def.command
            );
        }
    }
    let plan = match_plan(m, &names)?;
    let location = plan.config().db_path();
    let mut store = session.open_store(&location)?;
    let plan = begin_under_free_name(&mut *store, plan, &location, on)?;
    let rules = <Chess as AppGame>::rules(plan.config().draw_rules);
    let sprt = m.sprt.map(Sprt::new).transpose()?;
    let paired = m.paired();
    // Games stored by an earlier run of the same match count towards the test.
    let mut tally = MatchTally::default();
    for g in store.games(Some(&plan.config().name))? {
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
    let (tx, rx) = crossbeam_channel::unbounded();
    let watcher = Watcher {
        m,
        plan: &plan,
        names: &names,
        sprt: sprt.as_ref(),
        paired,
        session: &session,
    };
    let (summary, tally) = std::thread::scope(|scope| {
        let handle = scope.spawn(|| watcher.watch(rx, tally, on));
        let mut opts = session.run_options();
        opts.events = Some(tx);
        opts.record_games = m.pgn_out.is_some();
        opts.pause_after_game = m.pause_after_game;
        let summary =
            eloworld_tournament::run::<Chess>(&plan, &registry, rules, &mut *store, &opts);
        drop(opts);
        (summary, handle.join())
    });
    // An engine that crashed and then could not be restarted stops the match the same way a
    // broken one does before it.
    let summary = crate::session::cannot_start(
        summary.with_context(|| format!("match {:?} in {location}", plan.config().name))?,
    )?;
    let tally = match tally {
        Ok(t) => t?,
        Err(_) => crate::invalid!("the match's event watcher failed"),
    };
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
    })
}

/// Begins the match in the store: resumes a stored match of its name and plan, else takes
/// the first of `NAME`, `NAME #2`, `NAME #3`, … that is free or holds this plan. fastchess
/// plays a fresh match on every run, and fishtest's worker reruns one `-event` for each SPSA
/// batch with other openings (`start=`) and option values, so a rerun with another plan is a
/// new match, never a plan-mismatch error.
fn begin_under_free_name(
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
struct Watcher<'a> {
    m: &'a MatchSettings,
    plan: &'a Plan,
    names: &'a [String],
    sprt: Option<&'a Sprt>,
    paired: bool,
    session: &'a Session,
}

impl Watcher<'_> {
    /// Counts the games as they finish, tells `on`, writes the PGN, and stops the match
    /// when the SPRT is decided.
    fn watch(
        &self,
        rx: crossbeam_channel::Receiver<Event>,
        mut tally: MatchTally,
        on: &mut (dyn FnMut(MatchEvent<'_>) + Send),
    ) -> AppResult<MatchTally> {
        let mut pgn = match &self.m.pgn_out {
            Some(path) => Some(self.open_pgn(path, tally.games() > 0)?),
            None => None,
        };
        let mut recorded: HashMap<u32, (String, Vec<MoveNote>, Option<String>)> = HashMap::new();
        let total = self.plan.jobs().len();
        for event in rx {
            match event {
                Event::GameStarted { job, white, black } => on(MatchEvent::Started {
                    game: job + 1,
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
                        game: job + 1,
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

    /// Opens the PGN file — added to when asked or when the match resumes (`resumed`),
    /// else emptied — with the CRC-32 of what it holds.
    fn open_pgn(
        &self,
        path: &std::path::Path,
        resumed: bool,
    ) -> AppResult<(std::fs::File, crc32fast::Hasher)> {
        let append = self.m.pgn_append || resumed;
        let context = || format!("opening {} for the PGN", path.display());
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

    /// A finished game as PGN, rebuilt from the runner's record of it.
    #[expect(
        clippy::too_many_arguments,
        reason = "the fields of one finished-game event"
    )]
    fn pgn_of(
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
        let tags = PgnTags {
            comments: CommentFields {
                match_lines: &self.m.pgn_match_lines,
                ..self.m.pgn_comments
            },
            time_control: self.m.time_control.as_deref(),
            chess960: self.m.chess960,
            // In fastchess's words, which OpenBench's client reads for engine errors.
            termination: TerminationWords::Fastchess,
        };
        let site = self.m.site.as_deref().unwrap_or("eloworld match");
        game_to_pgn_annotated(&row, site, &tags, &row.notes)
            .map_err(|e| crate::AppError::Invalid(format!("the PGN of game {}: {e}", job + 1)))
    }
}

/// One engine as the match plays it, in one line for the plan's fingerprint and the
/// stored settings: name, program and arguments, protocol, options, limits and book. Not
/// what only the PGN or the warnings use (kept lines, the mate-PV check) or how long the
/// runner waits for a hung engine.
fn engine_definition(d: &EngineDef) -> String {
    use std::fmt::Write as _;
    let mut line = format!("{} = {:?} {:?} {:?}", d.name, d.command, d.args, d.protocol);
    for (name, value) in &d.options {
        let _ = write!(line, " option.{name}={value}");
    }
    let _ = write!(line, " budget {}", d.budget);
    if let Some(tc) = d.time_control {
        let _ = write!(line, " tc={tc} timemargin={}", d.time_margin_ms);
    }
    if d.ponder {
        line.push_str(" ponder");
    }
    if let Some(book) = &d.book {
        let _ = write!(
            line,
            " book={} bookdepth={:?}",
            book.display(),
            d.book_depth
        );
    }
    line
}

/// Makes the match's plan: `rounds × games` games with colours alternating, engine 1 White
/// first. A round of two or more games plays each two games in a row from one opening with
/// colours swapped (a game pair, cutechess's `-games N -repeat`); a round of one game takes a
/// new opening each round. Openings come in file or shuffled order from `start`.
fn match_plan(m: &MatchSettings, players: &[String]) -> AppResult<Plan> {
    let name = m.name.clone().unwrap_or_else(|| match m.pairing {
        Pairing::Match => format!("{}-vs-{}", players[0], players[1]),
        _ => players.join("-"),
    });
    let Some(total) = m.rounds.checked_mul(m.games) else {
        crate::invalid!("-rounds × -games: too many games");
    };
    let mut config = TournamentConfig::new(&name, GameKind::Chess, players.to_vec());
    // Each pairing plays `total` games, both colours a round: `total / 2` rounds, rounded up.
    config.games_per_pair = total.div_ceil(2);
    config.seed = m.seed;
    config.threads = Some(m.concurrency.max(1));
    config.draw_rules = DrawRules::Claimed;
    if let Some(moves) = m.max_moves {
        config.max_plies = moves.saturating_mul(2);
    }
    config.db.clone_from(&m.db);
    config.time_control.clone_from(&m.time_control);
    config.chess960 = m.chess960;
    config.game_pairs = m.paired();
    config.tablebases.clone_from(&m.tablebases);
    config.tablebase_pieces = m.tablebase_pieces;
    config.sprt = m.sprt.map(Into::into);
    config.adjudication = m.adjudication.clone();
    config.engine_definitions = m.engines.iter().map(engine_definition).collect();
    let shape = PairedMatch {
        games: total,
        paired: m.paired(),
        seed: m.seed,
        colours: m.colours,
    };
    let reached = match m.pairing {
        Pairing::Match => shape.openings_needed(),
        // Round k of every pairing starts from opening k.
        Pairing::RoundRobin | Pairing::Gauntlet { .. } => config.games_per_pair as usize,
    };
    let mut openings = match &m.openings {
        Some(o) => {
            if eloworld_games::chess::input::is_pgn(&o.file) {
                let mut list = eloworld_tournament::openings::load_openings_cut(
                    &o.file,
                    GameKind::Chess,
                    o.plies,
                )?;
                pick_openings(&mut list, o.shuffled, o.start, m.seed, reached);
                list
            } else {
                // An EPD book is taken line by line, and only the lines the match reaches
                // are parsed (the same openings, in the same order, as parsing every line
                // first: the shuffle depends only on the count of lines).
                let mut list = eloworld_tournament::openings::load_epd_lines(&o.file)?;
                pick_openings(&mut list, o.shuffled, o.start, m.seed, reached);
                list.iter()
                    .map(|(line, text)| {
                        eloworld_tournament::openings::epd_opening(&o.file, *line, text)
                    })
                    .collect::<Result<Vec<_>, _>>()?
            }
        }
        None => Vec::new(),
    };
    if m.chess960 && openings.is_empty() {
        openings = (0..reached as u64)
            .map(|r| {
                let n = (splitmix64(m.seed ^ r) % 960) as u16;
                eloworld_games::chess::chess960_fen(n)
            })
            .collect();
    }
    match m.pairing {
        Pairing::Match => Ok(Plan::paired_match(&config, openings, shape)?),
        Pairing::RoundRobin => {
            config.game_pairs = false;
            Ok(Plan::with_openings(&config, openings)?)
        }
        Pairing::Gauntlet { seeds } => {
            config.game_pairs = false;
            config.schedule = Schedule::Gauntlet;
            config.seeds = Some(seeds);
            Ok(Plan::with_openings(&config, openings)?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::Side;

    #[test]
    fn reasons_read_as_fastchess_writes_them() {
        let white = GameResult::Win(Side::First);
        let black = GameResult::Win(Side::Second);
        assert_eq!(reason(white, Termination::Checkmate), "White mates");
        assert_eq!(reason(black, Termination::Checkmate), "Black mates");
        assert_eq!(
            reason(GameResult::Draw, Termination::ThreefoldRepetition),
            "Draw by 3-fold repetition"
        );
        assert_eq!(
            reason(white, Termination::TimeForfeit),
            "Black loses on time"
        );
        assert_eq!(
            reason(black, Termination::EngineCrashed),
            "White disconnects"
        );
        assert_eq!(
            reason(white, Termination::EngineTimeout),
            "Black's connection stalls"
        );
        assert_eq!(
            reason(black, Termination::IllegalMove),
            "White makes an illegal move"
        );
        assert_eq!(
            reason(white, Termination::ResignAdjudication),
            "White wins by adjudication"
        );
        assert_eq!(
            reason(GameResult::Draw, Termination::TablebaseAdjudication),
            "Draw by adjudication: SyzygyTB"
        );
    }
}
