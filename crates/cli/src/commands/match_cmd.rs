//! `eloworld match`: two engines, the command line fastchess and cutechess-cli users already
//! have, an SPRT that stops the match when it is decided, and results in the store.

use super::match_options::{self, EngineOptions, MatchOptions, OpeningOptions, OpeningOrder};
use anyhow::{bail, Context};
use crossbeam_channel::Receiver;
use eloworld_games::rng::{game_seed, splitmix64};
use eloworld_games::{Chess, GameKind};
use eloworld_players::engine::{add_definitions, Budget, EngineDef, OptionValue, Protocol};
use eloworld_players::{PlayableGame as _, PlayerSpec};
use eloworld_ratings::convert::{IntervalKind, MatchStats};
use eloworld_ratings::sprt::{PairStats, Pentanomial, Sprt, SprtDecision};
use eloworld_tournament::adjudication::Adjudication;
use eloworld_tournament::pgn::game_to_pgn_annotated;
use eloworld_tournament::{
    open_store, Event, GameRow, JobSpec, MoveNote, Plan, RunOptions, TournamentConfig,
};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Play a match between two engines with the fastchess / cutechess-cli options
/// (`-engine cmd=… name=… -each tc=10+0.1 -rounds 100 -games 2 -repeat -sprt elo0=0 elo1=5 …`).
#[derive(clap::Args, Debug)]
#[command(disable_help_flag = true)]
pub struct Args {
    /// The options, as fastchess and cutechess-cli take them.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    options: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.options.is_empty() || args.options.iter().any(|o| o == "--help" || o == "-help") {
        println!("{}", HELP.trim());
        return Ok(ExitCode::SUCCESS);
    }
    let options = match_options::parse(&args.options)?;
    play_match(&options)
}

const HELP: &str = "
eloworld match: two engines, with the options fastchess and cutechess-cli share.

  -engine cmd=PROGRAM name=NAME [dir=DIR] [args=\"…\"] [proto=uci|xboard]
          [tc=[MOVES/]SECONDS[+INC]] [st=SECONDS] [nodes=N] [depth=N] [timemargin=MS]
          [option.NAME=VALUE …]                 (give -engine twice)
  -each   the same settings, for both engines
  -rounds N  -games N  -repeat  -concurrency N  -srand SEED
  -openings file=FILE format=epd|pgn order=sequential|random start=N plies=N
  -sprt elo0=E0 elo1=E1 alpha=A beta=B model=normalized|logistic
  -resign movecount=N score=CP [twosided=true]   -draw movenumber=N movecount=N score=CP
  -maxmoves N   -tb DIR[:DIR…] [-tbpieces N]   -pgnout file=FILE   -ratinginterval N   -recover
  -db FILE (eloworld's store; default: the match name .sqlite)   -event NAME
";

/// Makes the engine definition of one `-engine`.
fn engine_def(e: &EngineOptions, chess960: bool) -> anyhow::Result<EngineDef> {
    let name = e.name.clone().unwrap_or_default();
    let valid = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        && !name.contains("_r");
    if !valid {
        bail!("engine name {name:?}: use letters, digits, '_', '-', '.' (and not \"_r\", which marks dilution)");
    }
    let cmd = e.cmd.clone().unwrap_or_default();
    let command = match &e.dir {
        Some(dir) if !cmd.starts_with('/') => dir.join(&cmd).display().to_string(),
        _ => cmd,
    };
    let options = e
        .options
        .iter()
        .map(|(k, v)| (k.clone(), OptionValue::Text(v.clone())))
        .collect();
    let protocol = e.proto.unwrap_or(Protocol::Uci);
    if protocol == Protocol::Cecp && e.nodes.is_some() {
        bail!("engine {name}: an xboard engine takes tc=, st= or depth=, not nodes=");
    }
    let def = EngineDef {
        name: name.clone(),
        description: format!("{command} in eloworld match"),
        command,
        args: e.args.clone().unwrap_or_default(),
        protocol,
        package: None,
        options,
        budget: Budget {
            nodes: e.nodes,
            depth: e.depth,
            movetime: e.movetime_ms,
        },
        timeout_ms: 60_000,
        handshake_ms: 10_000,
        fen_only: false,
        depth_command: None,
        time_control: e.tc,
        time_margin_ms: e.time_margin_ms.unwrap_or(0),
        chess960,
        book: e.book.clone(),
        book_depth: e.book_depth,
        base_dir: None,
    };
    def.locate()?;
    Ok(def)
}

/// Shuffles in place with a SplitMix64 chain from `seed` (Fisher–Yates).
/// Orders a book as the match plays it (shuffled by the seed with `order=random`, from
/// `start=`) and keeps the first `reached` openings: only those are checked by the runner.
fn pick_openings<T>(list: &mut Vec<T>, o: &OpeningOptions, seed: u64, reached: usize) {
    if o.order == OpeningOrder::Random {
        shuffle(list, seed);
    }
    let skip = (o.start - 1).min(list.len().saturating_sub(1));
    list.rotate_left(skip);
    list.truncate(reached);
}

fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = splitmix64(seed ^ 0x6f70_656e_696e_6773);
    for i in (1..items.len()).rev() {
        state = splitmix64(state);
        let j = ((u128::from(state) * (i as u128 + 1)) >> 64) as usize;
        items.swap(i, j);
    }
}

/// Makes the match's plan: `rounds × games` games with colours alternating, engine 1 White
/// first. A round of two or more games plays each two games in a row from one opening with
/// colours swapped (a game pair, cutechess's `-games N -repeat`); a round of one game takes a
/// new opening each round. Openings come in file or shuffled order from `start=`.
fn match_plan(m: &MatchOptions, players: &[String]) -> anyhow::Result<Plan> {
    let name = m
        .name
        .clone()
        .unwrap_or_else(|| format!("{}-vs-{}", players[0], players[1]));
    let total = m
        .rounds
        .checked_mul(m.games)
        .context("-rounds × -games: too many games")?;
    let mut config = TournamentConfig::new(&name, GameKind::Chess, players.to_vec());
    config.games_per_pair = total.div_ceil(2);
    config.seed = m.seed;
    config.threads = Some(m.concurrency.max(1));
    config.draw_rules = eloworld_games::DrawRules::Claimed;
    if let Some(moves) = m.max_moves {
        config.max_plies = moves.saturating_mul(2);
    }
    config.db.clone_from(&m.db);
    config.time_control = time_control_tag(m);
    config.tablebases.clone_from(&m.tablebases);
    config.tablebase_pieces = m.tablebase_pieces;
    config.sprt = m.sprt.map(Into::into);
    config.adjudication = Adjudication {
        resign: m.resign,
        draw: m.draw,
    };
    let paired = m.games >= 2;
    // The opening of game `i`: one per pair, or one per game when rounds are single games.
    let slot = |i: u32| if paired { i / 2 } else { i };
    let mut openings = match &m.openings {
        Some(o) => {
            let reached = slot(total.saturating_sub(1)) as usize + 1;
            let is_pgn = o
                .file
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
            if is_pgn {
                let mut list = eloworld_tournament::openings::load_openings_cut(
                    &o.file,
                    GameKind::Chess,
                    o.plies,
                )?;
                pick_openings(&mut list, o, m.seed, reached);
                list
            } else {
                // An EPD book is taken line by line, and only the lines the match reaches
                // are parsed (the same openings, in the same order, as parsing every line
                // first: the shuffle depends only on the count of lines).
                let mut list = eloworld_tournament::openings::load_epd_lines(&o.file)?;
                pick_openings(&mut list, o, m.seed, reached);
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
        openings = (0..=slot(total.saturating_sub(1)))
            .map(|r| {
                let n = (splitmix64(m.seed ^ u64::from(r)) % 960) as u16;
                eloworld_games::chess::chess960_fen(n)
            })
            .collect();
    }
    let mut jobs = Vec::new();
    for i in 0..total {
        let opening = (!openings.is_empty()).then(|| slot(i) % openings.len() as u32);
        let text = opening.map_or("", |o| openings[o as usize].as_str());
        let (white, black) = if i % 2 == 0 { (0, 1) } else { (1, 0) };
        // Each engine's games as White are numbered in order; the two games of a pair
        // share that number, which keys the pair.
        let round = i / 2;
        let seed = game_seed(
            m.seed,
            &players[white as usize],
            &players[black as usize],
            round,
            text,
        );
        jobs.push(JobSpec {
            key: i,
            white,
            black,
            round,
            opening,
            seed,
        });
    }
    Ok(Plan {
        config,
        game: GameKind::Chess,
        players: players.to_vec(),
        openings,
        jobs,
    })
}

/// The running score of the match, from the first engine's side.
#[derive(Default)]
struct Tally {
    wins: u64,
    draws: u64,
    losses: u64,
    pairs: Pentanomial,
    /// First-engine points of the first finished game of each pair, by pair.
    open_pairs: HashMap<u32, f64>,
    forfeits: u64,
}

impl Tally {
    /// Counts a game; `pair` is set when the match is played in pairs.
    fn add(&mut self, first_points: f64, pair: Option<u32>) {
        match first_points {
            p if p > 0.75 => self.wins += 1,
            p if p < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
        if let Some(pair) = pair {
            if let Some(other) = self.open_pairs.remove(&pair) {
                self.pairs.add_pair(other, first_points);
            } else {
                self.open_pairs.insert(pair, first_points);
            }
        }
    }

    fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// Writes the results block in fastchess's layout.
fn results_block(
    m: &MatchOptions,
    names: &[String],
    tally: &Tally,
    sprt: Option<&Sprt>,
    paired: bool,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "--------------------------------------------------");
    let limit = describe_limit(&m.engines[0]);
    let other = describe_limit(&m.engines[1]);
    let limits = if limit == other {
        limit
    } else {
        format!("{limit} - {other}")
    };
    let book = m.openings.as_ref().map_or(String::new(), |o| {
        format!(
            ", {}",
            o.file
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        )
    });
    let option = |key: &str, unit: &str| -> String {
        let value = |e: &EngineOptions| {
            e.options
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map_or("NULL".to_owned(), |(_, v)| format!("{v}{unit}"))
        };
        let (a, b) = (value(&m.engines[0]), value(&m.engines[1]));
        if a == b {
            a
        } else {
            format!("{a} - {b}")
        }
    };
    let _ = writeln!(
        out,
        "Results of {} vs {} ({limits}, {}, {}{book}):",
        names[0],
        names[1],
        option("Threads", "t"),
        option("Hash", "MB")
    );
    let points = tally.wins as f64 + tally.draws as f64 / 2.0;
    let games = tally.games();
    let percent = 100.0 * points / (games as f64).max(1.0);
    if paired && tally.pairs.pairs() > 0 {
        let s = PairStats::new(&tally.pairs);
        let bounds = MatchStats::from_pentanomial(tally.pairs.counts());
        let _ = writeln!(out, "{}", elo_line(Some(&s), &bounds, "pair"));
        let _ = writeln!(
            out,
            "LOS: {:.2} %, DrawRatio: {:.2} %, PairsRatio: {:.2}",
            100.0 * s.los,
            s.draw_ratio_percent,
            s.pairs_ratio
        );
        let _ = writeln!(
            out,
            "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {points:.1} ({percent:.2} %)",
            tally.wins, tally.losses, tally.draws
        );
        let _ = writeln!(
            out,
            "Ptnml(0-2): {}, WL/DD Ratio: {:.2}",
            tally.pairs, s.wl_dd_ratio
        );
    } else {
        let s = MatchStats::from_wdl(tally.wins, tally.draws, tally.losses);
        let _ = writeln!(out, "{}", elo_line(None, &s, "game"));
        let _ = writeln!(
            out,
            "LOS: {:.2} %, DrawRatio: {:.2} %",
            100.0 * s.los,
            100.0 * tally.draws as f64 / (games as f64).max(1.0)
        );
        let _ = writeln!(
            out,
            "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {points:.1} ({percent:.2} %)",
            tally.wins, tally.losses, tally.draws
        );
    }
    if let Some(sprt) = sprt {
        let llr = llr_of(sprt, tally, paired);
        let c = sprt.config();
        let _ = writeln!(
            out,
            "LLR: {llr:.2} ({:.2}, {:.2}) [{:.2}, {:.2}]",
            sprt.lower_bound(),
            sprt.upper_bound(),
            c.elo0,
            c.elo1
        );
    }
    let _ = writeln!(out, "--------------------------------------------------");
    out
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

fn llr_of(sprt: &Sprt, tally: &Tally, paired: bool) -> f64 {
    if paired {
        sprt.llr(&tally.pairs)
    } else {
        sprt.llr_trinomial(tally.wins, tally.draws, tally.losses)
    }
}

/// Describes an engine's limit as fastchess does: `10+0.1`, `0.1/move`, `1000 nodes`.
fn describe_limit(e: &EngineOptions) -> String {
    if let Some(tc) = e.tc {
        tc.to_string()
    } else if let Some(ms) = e.movetime_ms {
        format!("{}/move", ms as f64 / 1000.0)
    } else if let Some(n) = e.nodes {
        format!("{n} nodes")
    } else if let Some(d) = e.depth {
        format!("depth {d}")
    } else {
        String::new()
    }
}

/// The PGN `TimeControl` tag of the match, when both engines play the same clock.
fn time_control_tag(m: &MatchOptions) -> Option<String> {
    let tag = |e: &EngineOptions| {
        e.tc.map(|t| t.to_string()).or_else(|| {
            e.movetime_ms
                .map(|ms| format!("{}/move", ms as f64 / 1000.0))
        })
    };
    let (a, b) = (tag(&m.engines[0]), tag(&m.engines[1]));
    match (a, b) {
        (Some(a), Some(b)) if a == b => Some(a),
        (Some(a), Some(b)) => Some(format!("{a}:{b}")),
        _ => None,
    }
}

fn play_match(m: &MatchOptions) -> anyhow::Result<ExitCode> {
    let defs: Vec<EngineDef> = m
        .engines
        .iter()
        .map(|e| engine_def(e, m.chess960))
        .collect::<anyhow::Result<_>>()?;
    let names: Vec<String> = defs.iter().map(|d| d.name.clone()).collect();
    for n in &names {
        n.parse::<PlayerSpec>()
            .with_context(|| format!("engine name {n:?}"))?;
    }
    let mut registry = Chess::builtin_players();
    add_definitions(&mut registry, defs);
    for n in &names {
        registry.resolve_str(n)?;
    }
    let plan = match_plan(m, &names)?;
    let db = plan.config.db_path();
    let mut store = open_store(&db, true)?;
    let rules = <Chess as eloworld_app::AppGame>::rules(plan.config.draw_rules);
    let sprt = m.sprt.map(Sprt::new).transpose()?;
    let paired = m.games >= 2;
    let stop = crate::interrupt::stop_on_ctrl_c(None);
    let (tx, rx) = crossbeam_channel::unbounded();
    let opts = RunOptions {
        threads: m.concurrency.max(1),
        stop: Arc::clone(&stop),
        events: Some(tx),
        record_games: m.pgn_out.is_some(),
        ..RunOptions::default()
    };
    // Games stored by an earlier run of the same match count towards the test.
    let mut tally = Tally::default();
    store
        .begin(&plan)
        .with_context(|| format!("match {:?} in {db}", plan.config.name))?;
    for g in store.games(Some(&plan.config.name))? {
        let first_points = if g.white == names[0] {
            g.result.first_score()
        } else {
            1.0 - g.result.first_score()
        };
        tally.add(first_points, paired.then_some(g.round));
    }
    // A test decided by the games already stored plays no more: its report is final.
    let decided_before = sprt
        .as_ref()
        .is_some_and(|s| s.decide(llr_of(s, &tally, paired)) != SprtDecision::Continue);
    if decided_before {
        stop.store(true, Ordering::Relaxed);
        eprintln!(
            "the SPRT was decided by the {} games stored in {db}: no more games are played",
            tally.games()
        );
    }
    let context = Watch {
        m,
        plan: &plan,
        names: &names,
        sprt: sprt.as_ref(),
        paired,
        stop: &stop,
    };
    let watcher = std::thread::scope(|scope| {
        let handle = scope.spawn(|| watch(&context, rx, tally));
        let summary =
            eloworld_tournament::run::<Chess>(&plan, &registry, rules, &mut *store, &opts);
        drop(opts);
        let tally = handle.join();
        (summary, tally)
    });
    let (summary, tally) = watcher;
    let summary = summary.with_context(|| format!("match {:?} in {db}", plan.config.name))?;
    let tally = match tally {
        Ok(t) => t?,
        Err(_) => bail!("the match display failed"),
    };
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(results_block(m, &names, &tally, sprt.as_ref(), paired).as_bytes());
    let decision = sprt
        .as_ref()
        .map(|s| (s, s.decide(llr_of(s, &tally, paired))));
    if let Some((s, d)) = decision {
        if d != SprtDecision::Continue {
            let c = s.config();
            let _ = writeln!(
                out,
                "SPRT ([{:.2}, {:.2}]) completed - {} was accepted",
                c.elo0,
                c.elo1,
                if d == SprtDecision::AcceptH1 {
                    "H1"
                } else {
                    "H0"
                }
            );
        }
    }
    let _ = writeln!(
        out,
        "Finished match: {} games stored in {db} ({} this run, {:.1} s); time forfeits: {}",
        summary.done_before + summary.stored,
        summary.stored,
        summary.elapsed.as_secs_f64(),
        tally.forfeits
    );
    let decided = decision.is_some_and(|(_, d)| d != SprtDecision::Continue);
    if summary.interrupted && !decided {
        eprintln!("interrupted: run the same command again to play the games left");
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// What the event watcher needs to know of the match.
struct Watch<'a> {
    m: &'a MatchOptions,
    plan: &'a Plan,
    names: &'a [String],
    sprt: Option<&'a Sprt>,
    paired: bool,
    stop: &'a AtomicBool,
}

/// Prints the games as they start and finish, the results every `ratinginterval` games,
/// writes the PGN, and stops the match when the SPRT is decided.
fn watch(c: &Watch<'_>, rx: Receiver<Event>, mut tally: Tally) -> anyhow::Result<Tally> {
    let mut pgn = match &c.m.pgn_out {
        Some(path) => Some(open_pgn(path)?),
        None => None,
    };
    let tc_tag = time_control_tag(c.m);
    let mut recorded: HashMap<u32, (String, Vec<MoveNote>, Option<String>)> = HashMap::new();
    let total = c.plan.jobs.len();
    let quiet = c.m.quiet;
    for event in rx {
        match event {
            Event::GameStarted { job, white, black } if !quiet => {
                println!(
                    "Started game {} of {total} ({} vs {})",
                    job + 1,
                    c.names[white as usize],
                    c.names[black as usize]
                );
            }
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
                if termination == eloworld_games::Termination::TimeForfeit {
                    tally.forfeits += 1;
                }
                if !quiet {
                    println!(
                        "Finished game {} ({} vs {}): {} {{{termination}}}",
                        job + 1,
                        c.names[white as usize],
                        c.names[black as usize],
                        result.pgn()
                    );
                }
                let white_points = result.first_score();
                let first_points = if white == 0 {
                    white_points
                } else {
                    1.0 - white_points
                };
                let spec = &c.plan.jobs[job as usize];
                tally.add(first_points, c.paired.then_some(spec.round));
                if let (Some(file), Some((moves, notes, detail))) =
                    (&mut pgn, recorded.remove(&job))
                {
                    let row = GameRow {
                        job_id: i64::from(job) + 1,
                        tournament: c.plan.config.name.clone(),
                        game: "chess".to_owned(),
                        white: c.names[white as usize].clone(),
                        black: c.names[black as usize].clone(),
                        round: spec.round,
                        result,
                        termination,
                        plies,
                        moves,
                        opening: spec.opening.map(|o| c.plan.openings[o as usize].clone()),
                        seed: spec.seed,
                        wall_ms: 0.0,
                        detail,
                        date: eloworld_tournament::pgn::pgn_date_today(),
                        notes,
                    };
                    let text = game_to_pgn_annotated(
                        &row,
                        "eloworld match",
                        tc_tag.as_deref(),
                        &row.notes,
                    )
                    .map_err(anyhow::Error::msg)?;
                    file.write_all(text.as_bytes())
                        .and_then(|()| file.flush())
                        .context("writing the PGN")?;
                }
                let games = tally.games();
                if !quiet && c.m.rating_interval > 0 && games.is_multiple_of(c.m.rating_interval) {
                    print!("{}", results_block(c.m, c.names, &tally, c.sprt, c.paired));
                }
                if let Some(sprt) = c.sprt {
                    if sprt.decide(llr_of(sprt, &tally, c.paired)) != SprtDecision::Continue {
                        c.stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(tally)
}

fn open_pgn(path: &std::path::Path) -> anyhow::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {} for the PGN", path.display()))
}
