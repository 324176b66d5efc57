//! `eloworld rate`: every rating method side by side, or one in detail, over a tournament
//! database, a PGN file or a CSV file.

use crate::rating_input::{self, ReadNotes};
use crate::rating_table::{Cell, Table};
use anyhow::{bail, Context};
use eloworld_ratings::{
    consistency::consistency,
    elo_world::{EloWorld, EloWorldConfig, EloWorldRatings},
    interpolate, markov,
    mle::{Advantage, DrawModel, Mle, MleConfig, MleRatings},
    rollason::{Rollason, RollasonConfig, RollasonRatings},
    uscf::{Uscf, UscfConfig, UscfRatings},
    GameList, PairCounts,
};
use eloworld_tournament::{open_store, ResultRow};
use std::path::PathBuf;
use std::process::ExitCode;

/// The rating methods.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Every method side by side.
    All,
    /// Maximum likelihood (Bradley–Terry) with error bars.
    Mle,
    /// Incremental Elo in game order, K = 800/N (seed 000).
    Uscf,
    /// Balanced multi-pass Elo, median of 19 runs (seed 002).
    EloWorld,
    /// Iterative points sharing (seed 001).
    Rollason,
    /// p(Champion) of the trophy chain (seed 002).
    Markov,
}

/// Output formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned text.
    Table,
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON document.
    Json,
}

/// How draws count in `mle`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawModelArg {
    /// A draw is half a win and half a loss.
    Half,
    /// Davidson's model with a fitted draw rate.
    Davidson,
}

/// Rate players from stored results, a PGN file or a CSV file.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A tournament database.
    #[arg(long, conflicts_with_all = ["pgn", "csv", "ladder"], required_unless_present_any = ["pgn", "csv", "ladder"])]
    db: Option<String>,
    /// Only this tournament of the database (default: all).
    #[arg(long, requires = "db")]
    tournament: Option<String>,
    /// A PGN file: only the White, Black, Result (and Date) headers are read.
    #[arg(long, conflicts_with_all = ["csv", "ladder"])]
    pgn: Option<PathBuf>,
    /// A ladder (a file, or a shipped name): the W/D/L per ordered pair its ratings rest on.
    #[arg(long, conflicts_with = "csv")]
    ladder: Option<String>,
    /// A CSV file: columns white,black,result (1-0, 0-1, 1/2-1/2) or player1,player2,score1
    /// (1, 0, 0.5; colours unknown), optionally date.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// The method.
    #[arg(long, value_enum, default_value = "all")]
    method: Method,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Rate every year (from the games' dates) on its own, after all games together.
    #[arg(long)]
    by_year: bool,
    /// Fix the scale: this player gets this rating (NAME=ELO).
    #[arg(long, value_parser = parse_anchor)]
    anchor: Option<(String, f64)>,
    /// Also print, per pair, the observed R_P/Q next to the predicted 10^(D/400) (seed 000).
    #[arg(long)]
    consistency: bool,
    /// Also print the likelihood-of-superiority matrix (mle).
    #[arg(long)]
    los: bool,
    /// Place every player between two members of this diluted family (e.g. stockfish1m for
    /// stockfish1m, stockfish1m_r32768, …).
    #[arg(long)]
    family: Option<String>,
    /// mle: bootstrap samples for percentile intervals (default: intervals from the covariance).
    #[arg(long, default_value_t = 0)]
    bootstrap: u32,
    /// mle: how draws count.
    #[arg(long, value_enum, default_value = "half")]
    draw_model: DrawModelArg,
    /// mle: first-move advantage in Elo, or "fit".
    #[arg(long, default_value = "fit")]
    white_advantage: String,
    /// uscf: every player's initial rating.
    #[arg(long, default_value_t = 1300.0)]
    initial_rating: f64,
    /// uscf: effective games a new player is taken to have played.
    #[arg(long, default_value_t = 14.0)]
    prior_games: f64,
    /// elo-world: repetitions (the median is taken).
    #[arg(long, default_value_t = 19)]
    repetitions: u32,
    /// Seed of elo-world's sampling and of the bootstrap.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keep names that differ only in case apart (default: one player, first spelling kept).
    #[arg(long)]
    case_sensitive: bool,
    /// A CSV of true strengths (name,strength), e.g. from `eloworld synth`: print each
    /// method's RMS error against it.
    #[arg(long)]
    truth: Option<PathBuf>,
}

fn parse_anchor(s: &str) -> Result<(String, f64), String> {
    let (name, elo) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("{s:?}: expected NAME=ELO"))?;
    let elo = elo
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("{s:?}: {elo:?} is not a number"))?;
    Ok((name.trim().to_owned(), elo))
}

/// Settings every rating run shares.
#[derive(Clone, Debug)]
pub struct Settings {
    method: Method,
    anchor: Option<(String, f64)>,
    bootstrap: u32,
    draw_model: DrawModel,
    advantage: Advantage,
    uscf: UscfConfig,
    elo_world: EloWorldConfig,
    consistency: bool,
    los: bool,
    family: Option<String>,
}

impl Settings {
    /// Returns the defaults: every method, no extras.
    pub fn new() -> Settings {
        Settings {
            method: Method::All,
            anchor: None,
            bootstrap: 0,
            draw_model: DrawModel::HalfPoint,
            advantage: Advantage::Fit,
            uscf: UscfConfig::new(),
            elo_world: EloWorldConfig::new(),
            consistency: false,
            los: false,
            family: None,
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (games, notes) = load(&args)?;
    let advantage = match args.white_advantage.as_str() {
        "fit" => Advantage::Fit,
        v => Advantage::Fixed(
            v.parse()
                .with_context(|| format!("--white-advantage {v:?}: expected fit or a number"))?,
        ),
    };
    let settings = Settings {
        method: args.method,
        anchor: args.anchor.clone(),
        bootstrap: args.bootstrap,
        draw_model: match args.draw_model {
            DrawModelArg::Half => DrawModel::HalfPoint,
            DrawModelArg::Davidson => DrawModel::Davidson,
        },
        advantage,
        uscf: UscfConfig {
            initial_rating: args.initial_rating,
            prior_games: args.prior_games,
        },
        elo_world: EloWorldConfig {
            repetitions: args.repetitions,
            seed: args.seed,
            ..EloWorldConfig::new()
        },
        consistency: args.consistency,
        los: args.los,
        family: args.family.clone(),
    };
    for (kept, merged) in games.merged_spellings() {
        eprintln!("note: {merged:?} is taken as {kept:?} (names differing only in case are one player; --case-sensitive keeps them apart)");
    }
    if notes.unfinished > 0 {
        eprintln!(
            "note: {} games without a result (*) or players were skipped",
            notes.unfinished
        );
    }
    let truth = match &args.truth {
        Some(path) => Some(rating_input::read_truth(path)?),
        None => None,
    };
    let mut periods: Vec<(String, GameList)> = vec![(String::new(), games.clone())];
    if args.by_year {
        periods[0].0 = "all games".to_owned();
        let mut years = games.periods();
        years.sort_by(|a, b| b.cmp(a));
        for year in years {
            let title = year.map_or_else(|| "no date".to_owned(), |y| y.to_string());
            periods.push((title, games.period(year)));
        }
    }
    let mut documents = Vec::new();
    for (k, (title, games)) in periods.iter().enumerate() {
        let (mut tables, rated) = rate_games(games, &settings)?;
        if let Some(truth) = &truth {
            tables.push(truth_table(games, &rated, truth));
        }
        match args.format {
            Format::Table => {
                if k > 0 {
                    println!();
                }
                if !title.is_empty() {
                    println!("== {title} ==\n");
                }
                for (i, t) in tables.iter().enumerate() {
                    if i > 0 {
                        println!();
                    }
                    print!("{}", t.text());
                }
            }
            Format::Csv => {
                for t in &tables {
                    if !title.is_empty() {
                        println!("# {title}");
                    }
                    print!("{}", t.csv());
                    for n in &t.notes {
                        eprintln!("{n}");
                    }
                }
            }
            Format::Json => {
                let tables: Vec<serde_json::Value> = tables.iter().map(Table::json).collect();
                documents.push(serde_json::json!({ "period": title, "tables": tables }));
            }
        }
    }
    if args.format == Format::Json {
        let doc = if args.by_year {
            serde_json::json!(documents)
        } else {
            documents.pop().unwrap_or_default()
        };
        println!("{}", serde_json::to_string_pretty(&doc)?);
    }
    Ok(ExitCode::SUCCESS)
}

fn load(args: &Args) -> anyhow::Result<(GameList, ReadNotes)> {
    if let Some(path) = &args.pgn {
        return rating_input::read_pgn(path, args.case_sensitive);
    }
    if let Some(path) = &args.csv {
        return rating_input::read_csv(path, args.case_sensitive);
    }
    if let Some(ladder) = &args.ladder {
        return Ok((
            crate::ladders::load(ladder)?.game_list(),
            ReadNotes::default(),
        ));
    }
    let db = args
        .db
        .as_deref()
        .context("give --db, --pgn, --csv or --ladder")?;
    let store = open_store(db, false).with_context(|| format!("opening {db}"))?;
    if let Some(t) = &args.tournament {
        if !store.tournaments()?.iter().any(|x| &x.name == t) {
            bail!("{db} has no tournament {t:?}");
        }
    }
    let rows = store.results(args.tournament.as_deref())?;
    Ok((
        rating_input::from_rows(&rows, args.case_sensitive),
        ReadNotes::default(),
    ))
}

/// Returns the side-by-side ratings of stored results (what a tournament prints at its end).
pub fn tournament_ratings(rows: &[ResultRow]) -> anyhow::Result<String> {
    let games = rating_input::from_rows(rows, true);
    let (tables, _) = rate_games(&games, &Settings::new())?;
    Ok(tables
        .iter()
        .map(Table::text)
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Everything computed for one set of games.
struct Rated {
    counts: PairCounts,
    totals: Vec<[u64; 3]>,
    mle: Option<Result<MleRatings, String>>,
    uscf: Option<UscfRatings>,
    elo_world: Option<Result<EloWorldRatings, String>>,
    rollason: Option<RollasonRatings>,
    markov: Option<Result<Vec<Option<f64>>, String>>,
}

fn compute(games: &GameList, s: &Settings) -> anyhow::Result<Rated> {
    let counts = games.counts();
    let totals = counts.totals();
    let anchor = match &s.anchor {
        Some((name, elo)) => {
            let id = games
                .find(name)
                .with_context(|| format!("--anchor: no player {name:?} in the games"))?;
            Some((id.index(), *elo))
        }
        None => None,
    };
    let want = |m: Method| s.method == Method::All || s.method == m;
    let shift = |ratings: &mut [f64]| {
        if let Some((k, elo)) = anchor {
            let d = elo - ratings[k];
            ratings.iter_mut().for_each(|r| *r += d);
        }
    };
    let mle = want(Method::Mle).then(|| {
        let config = MleConfig {
            draw_model: s.draw_model,
            advantage: s.advantage,
            anchor,
            bootstrap: s.bootstrap,
            seed: s.elo_world.seed,
            ..MleConfig::new()
        };
        Mle::new(config).rate(&counts).map_err(|e| e.to_string())
    });
    let uscf = want(Method::Uscf).then(|| {
        let mut r = Uscf::new(s.uscf).rate(games);
        shift(&mut r.ratings);
        r
    });
    let elo_world = want(Method::EloWorld).then(|| {
        EloWorld::new(s.elo_world)
            .rate(&counts, games.names())
            .map_err(|e| e.to_string())
            .map(|mut r| {
                if let Some((k, elo)) = anchor {
                    let d = elo - r.median[k];
                    for v in [&mut r.median, &mut r.q25, &mut r.q75] {
                        v.iter_mut().for_each(|x| *x += d);
                    }
                }
                r
            })
    });
    let rollason = want(Method::Rollason).then(|| {
        let mut r = Rollason::new(RollasonConfig {
            max_iterations: 100_000,
            ..RollasonConfig::new()
        })
        .rate(&counts);
        shift(&mut r.ratings);
        r
    });
    let markov = want(Method::Markov).then(|| markov::champion(&counts).map_err(|e| e.to_string()));
    Ok(Rated {
        counts,
        totals,
        mle,
        uscf,
        elo_world,
        rollason,
        markov,
    })
}

fn rate_games(games: &GameList, s: &Settings) -> anyhow::Result<(Vec<Table>, Rated)> {
    let r = compute(games, s)?;
    let names = games.names();
    let n = names.len();
    let score = |p: usize| {
        let [l, d, w] = r.totals[p];
        let g = l + d + w;
        (
            g,
            if g > 0 {
                100.0 * (w as f64 + 0.5 * d as f64) / g as f64
            } else {
                f64::NAN
            },
        )
    };
    let mle = r.mle.as_ref().and_then(|x| x.as_ref().ok());
    let elo_world = r.elo_world.as_ref().and_then(|x| x.as_ref().ok());
    let markov = r.markov.as_ref().and_then(|x| x.as_ref().ok());
    // Rank by the method shown (mle when all), then by score.
    let key: Vec<f64> = (0..n)
        .map(|p| match s.method {
            Method::All | Method::Mle => mle.map_or(f64::NAN, |m| m.ratings[p]),
            Method::Uscf => r.uscf.as_ref().map_or(f64::NAN, |u| u.ratings[p]),
            Method::EloWorld => elo_world.map_or(f64::NAN, |e| e.median[p]),
            Method::Rollason => r.rollason.as_ref().map_or(f64::NAN, |x| x.ratings[p]),
            Method::Markov => markov.and_then(|m| m[p]).unwrap_or(f64::NAN),
        })
        .collect();
    let mut order: Vec<usize> = (0..n).filter(|&p| score(p).0 > 0).collect();
    order.sort_by(|&a, &b| {
        let (ka, kb) = (key[a], key[b]);
        match (ka.is_nan(), kb.is_nan()) {
            (false, false) => kb.total_cmp(&ka),
            (true, false) => std::cmp::Ordering::Greater,
            (false, true) => std::cmp::Ordering::Less,
            (true, true) => score(b).1.total_cmp(&score(a).1),
        }
        .then(a.cmp(&b))
    });
    let mut notes = Vec::new();
    if r.counts.self_play() > 0 {
        notes.push(format!(
            "{} games of a player against itself are left out",
            r.counts.self_play()
        ));
    }
    let failed = |name: &str, e: &Option<Result<_, String>>, notes: &mut Vec<String>| {
        if let Some(Err(e)) = e {
            notes.push(format!("{name}: not computed: {e}"));
        }
    };
    failed(
        "mle",
        &r.mle
            .as_ref()
            .map(|x| x.as_ref().map(|_| ()).map_err(Clone::clone)),
        &mut notes,
    );
    failed(
        "elo-world",
        &r.elo_world
            .as_ref()
            .map(|x| x.as_ref().map(|_| ()).map_err(Clone::clone)),
        &mut notes,
    );
    failed(
        "markov",
        &r.markov
            .as_ref()
            .map(|x| x.as_ref().map(|_| ()).map_err(Clone::clone)),
        &mut notes,
    );
    if let Some(m) = mle {
        mle_notes(m, names, &order, &mut notes);
    }
    let mut tables = Vec::new();
    let mut main = match s.method {
        Method::All => {
            let mut t = Table::new(
                "",
                &[
                    "rank",
                    "player",
                    "games",
                    "score%",
                    "mle",
                    "±95%",
                    "uscf",
                    "elo-world",
                    "ew-q25",
                    "ew-q75",
                    "rollason",
                    "p(champion)",
                ],
            );
            for (rank, &p) in order.iter().enumerate() {
                let (g, pct) = score(p);
                t.rows.push(vec![
                    Cell::Int(rank as u64 + 1),
                    Cell::Text(player_label(names, p, mle)),
                    Cell::Int(g),
                    Cell::num(pct, 1),
                    Cell::opt(mle.map(|m| m.ratings[p]), 1),
                    Cell::opt(mle.map(|m| (m.high[p] - m.low[p]) / 2.0), 1),
                    Cell::opt(r.uscf.as_ref().map(|u| u.ratings[p]), 1),
                    Cell::opt(elo_world.map(|e| e.median[p]), 1),
                    Cell::opt(elo_world.map(|e| e.q25[p]), 1),
                    Cell::opt(elo_world.map(|e| e.q75[p]), 1),
                    Cell::opt(r.rollason.as_ref().map(|x| x.ratings[p]), 0),
                    Cell::opt(markov.and_then(|m| m[p]), 8),
                ]);
            }
            if let Some(e) = elo_world {
                notes.push(format!(
                    "elo-world: n = {} games per cell of {} cells, {} passes, median of {} runs",
                    e.games_per_cell, e.cells, s.elo_world.passes, s.elo_world.repetitions
                ));
            }
            t
        }
        Method::Mle => {
            let mut t = Table::new(
                "",
                &[
                    "rank", "player", "games", "score%", "elo", "error", "low95", "high95", "note",
                ],
            );
            if let Some(m) = mle {
                for (rank, &p) in order.iter().enumerate() {
                    let (g, pct) = score(p);
                    t.rows.push(vec![
                        Cell::Int(rank as u64 + 1),
                        Cell::Text(names[p].clone()),
                        Cell::Int(g),
                        Cell::num(pct, 1),
                        Cell::num(m.ratings[p], 1),
                        Cell::num(m.errors[p], 1),
                        Cell::num(m.low[p], 1),
                        Cell::num(m.high[p], 1),
                        Cell::Text(note(m, p)),
                    ]);
                }
            }
            t
        }
        Method::Uscf => {
            let mut t = Table::new("", &["rank", "player", "games", "score%", "elo"]);
            if let Some(u) = &r.uscf {
                for (rank, &p) in order.iter().enumerate() {
                    let (g, pct) = score(p);
                    t.rows.push(vec![
                        Cell::Int(rank as u64 + 1),
                        Cell::Text(names[p].clone()),
                        Cell::Int(g),
                        Cell::num(pct, 1),
                        Cell::num(u.ratings[p], 1),
                    ]);
                }
                notes.push(format!(
                    "uscf: K = 800/N, initial {} from {} effective games, games in order",
                    s.uscf.initial_rating, s.uscf.prior_games
                ));
            }
            t
        }
        Method::EloWorld => {
            let mut t = Table::new(
                "",
                &["rank", "player", "games", "score%", "elo", "q25", "q75"],
            );
            if let Some(e) = elo_world {
                for (rank, &p) in order.iter().enumerate() {
                    let (g, pct) = score(p);
                    t.rows.push(vec![
                        Cell::Int(rank as u64 + 1),
                        Cell::Text(names[p].clone()),
                        Cell::Int(g),
                        Cell::num(pct, 1),
                        Cell::num(e.median[p], 2),
                        Cell::num(e.q25[p], 2),
                        Cell::num(e.q75[p], 2),
                    ]);
                }
                notes.push(format!(
                    "elo-world: n = {} games per cell of {} cells, {} passes, median of {} runs",
                    e.games_per_cell, e.cells, s.elo_world.passes, s.elo_world.repetitions
                ));
            }
            t
        }
        Method::Rollason => {
            let mut t = Table::new("", &["rank", "player", "rating", "points", "bar"]);
            if let Some(x) = &r.rollason {
                for (rank, &p) in order.iter().enumerate() {
                    t.rows.push(vec![
                        Cell::Int(rank as u64 + 1),
                        Cell::Text(names[p].clone()),
                        Cell::num(x.ratings[p], 0),
                        Cell::num(x.points[p], 1),
                        Cell::Text("*".repeat(x.stars(p))),
                    ]);
                }
                t.custom_text = Some(rollason_text(&order, names, x));
                if !x.converged {
                    notes.push(format!(
                        "rollason: not settled after {} iterations",
                        x.iterations
                    ));
                }
            }
            t
        }
        Method::Markov => {
            let mut t = Table::new("", &["rank", "player", "games", "score%", "p(champion)"]);
            if let Some(m) = markov {
                for (rank, &p) in order.iter().enumerate() {
                    let (g, pct) = score(p);
                    t.rows.push(vec![
                        Cell::Int(rank as u64 + 1),
                        Cell::Text(names[p].clone()),
                        Cell::Int(g),
                        Cell::num(pct, 1),
                        Cell::opt(m[p], 8),
                    ]);
                }
            }
            t
        }
    };
    main.notes = notes;
    tables.push(main);
    if s.los {
        if let Some(m) = mle {
            tables.push(los_table(m, names, &order));
        }
    }
    let chosen = chosen_ratings(&r, s.method);
    if s.consistency {
        let (label, ratings) = chosen.clone().context("--consistency needs a rating method (mle, uscf, elo-world or rollason) that could be computed")?;
        tables.push(consistency_table(&r.counts, &ratings, names, &label));
    }
    if let Some(base) = &s.family {
        let (label, ratings) =
            chosen.context("--family needs a rating method that could be computed")?;
        tables.push(family_table(base, names, &ratings, &label)?);
    }
    Ok((tables, r))
}

/// Renders Rollason's table as seed 001's page prints it.
fn rollason_text(order: &[usize], names: &[String], x: &RollasonRatings) -> String {
    let w = order
        .iter()
        .map(|&p| names[p].chars().count())
        .max()
        .unwrap_or(6)
        .max(14);
    let mut out = format!("     {:<w$}  Rating    Points\n\n", "Player");
    for (rank, &p) in order.iter().enumerate() {
        out.push_str(&format!(
            "{:>3}. {:<w$} {:>6.0}  ({:>7.1} pts) {}\n",
            rank + 1,
            names[p],
            x.ratings[p],
            x.points[p],
            "*".repeat(x.stars(p))
        ));
    }
    out
}

/// Returns the ratings the extras use: the chosen method's, or mle's when all are shown.
fn chosen_ratings(r: &Rated, method: Method) -> Option<(String, Vec<f64>)> {
    match method {
        Method::All | Method::Mle => r
            .mle
            .as_ref()?
            .as_ref()
            .ok()
            .map(|m| ("mle".to_owned(), m.ratings.clone())),
        Method::Uscf => r
            .uscf
            .as_ref()
            .map(|u| ("uscf".to_owned(), u.ratings.clone())),
        Method::EloWorld => r
            .elo_world
            .as_ref()?
            .as_ref()
            .ok()
            .map(|e| ("elo-world".to_owned(), e.median.clone())),
        Method::Rollason => r
            .rollason
            .as_ref()
            .map(|x| ("rollason".to_owned(), x.ratings.clone())),
        Method::Markov => None,
    }
}

/// Returns the name, with `*` when mle rated it from its prior and `[gN]` when it is in a group
/// that never met the main one.
fn player_label(names: &[String], p: usize, mle: Option<&MleRatings>) -> String {
    match mle {
        Some(m) => {
            let mut label = names[p].clone();
            if m.flagged[p] {
                label.push('*');
            }
            if m.group[p] > 0 && m.group[p] != usize::MAX {
                label.push_str(&format!(" [g{}]", m.group[p] + 1));
            }
            label
        }
        None => names[p].clone(),
    }
}

fn note(m: &MleRatings, p: usize) -> String {
    let mut parts = Vec::new();
    if m.group[p] > 0 && m.group[p] != usize::MAX {
        parts.push(format!("group {}", m.group[p] + 1));
    }
    if m.flagged[p] {
        parts.push("prior".to_owned());
    }
    parts.join(", ")
}

fn mle_notes(m: &MleRatings, names: &[String], order: &[usize], notes: &mut Vec<String>) {
    let (a, se) = m.advantage;
    if se > 0.0 {
        notes.push(format!(
            "mle: first-move advantage {a:+.1} ± {:.1} Elo (fitted)",
            1.96 * se
        ));
    } else if a != 0.0 {
        notes.push(format!("mle: first-move advantage {a:+.1} Elo (fixed)"));
    }
    if let Some(nu) = m.draw_nu {
        notes.push(format!("mle: Davidson draw parameter ν = {nu:.4}"));
    }
    notes.push(format!(
        "mle: 95% intervals from {}",
        if m.bootstrapped {
            "bootstrap percentiles"
        } else {
            "the covariance (±1.96σ)"
        }
    ));
    if order.iter().any(|&p| m.flagged[p]) {
        let flagged: Vec<&str> = order
            .iter()
            .filter(|&&p| m.flagged[p])
            .map(|&p| names[p].as_str())
            .collect();
        notes.push(format!(
            "mle: no finite maximum for {} (all wins, all losses, or such a subgroup; marked * or prior): rated with a weak prior of virtual draws",
            flagged.join(", ")
        ));
    }
    if m.group_count() > 1 {
        for g in 1..m.group_count() {
            let members: Vec<&str> = order
                .iter()
                .filter(|&&p| m.group[p] == g)
                .map(|&p| names[p].as_str())
                .collect();
            notes.push(format!(
                "mle: group {} ({}; marked [g{}]) never played the main group: its ratings are on their own scale and not comparable",
                g + 1,
                members.join(", "),
                g + 1
            ));
        }
    }
}

fn los_table(m: &MleRatings, names: &[String], order: &[usize]) -> Table {
    let mut columns: Vec<String> = vec!["LOS%".to_owned()];
    columns.extend(order.iter().map(|&p| names[p].clone()));
    let mut t = Table {
        title: "likelihood of superiority (row over column, %)".to_owned(),
        columns,
        ..Table::default()
    };
    for &p in order {
        let mut row = vec![Cell::Text(names[p].clone())];
        row.extend(order.iter().map(|&q| {
            if p == q {
                Cell::Missing
            } else {
                Cell::num(100.0 * m.los(p, q), 0)
            }
        }));
        t.rows.push(row);
    }
    t
}

fn consistency_table(counts: &PairCounts, ratings: &[f64], names: &[String], label: &str) -> Table {
    let c = consistency(counts, ratings);
    let mut t = Table::new(
        format!("consistency with {label} ratings (seed 000): observed R_P/Q = s/(1−s) against 10^(D/400)"),
        &["P", "Q", "games", "P score", "R_P/Q", "D", "10^(D/400)", "observed%", "expected%"],
    );
    for row in &c.pairs {
        t.rows.push(vec![
            Cell::Text(names[row.p].clone()),
            Cell::Text(names[row.q].clone()),
            Cell::Int(row.games),
            Cell::num(row.score, 1),
            Cell::num(row.observed, 2),
            Cell::Signed(row.difference, 0),
            Cell::num(row.predicted, 2),
            Cell::num(100.0 * row.score / row.games as f64, 1),
            Cell::num(100.0 * row.expected_score, 1),
        ]);
    }
    t.notes.push(format!(
        "log-loss per game {:.4}; RMS of expected − observed score per pair (weighted by games) {:.4}",
        c.log_loss, c.rms_score_error
    ));
    t
}

fn family_table(
    base: &str,
    names: &[String],
    ratings: &[f64],
    label: &str,
) -> anyhow::Result<Table> {
    let placements = interpolate::place(base, names, ratings);
    if !names
        .iter()
        .any(|n| interpolate::dilution(base, n).is_some())
    {
        bail!("--family {base}: no player is named {base} or {base}_rN");
    }
    let mut t = Table::new(
        format!("comparable interpolated player: the {base} family by {label} rating (dilution = chance of a random move)"),
        &["player", "rating", "between", "and", "dilution"],
    );
    let describe =
        |m: Option<(usize, u32)>| m.map_or(Cell::Missing, |(i, _)| Cell::Text(names[i].clone()));
    for pl in placements {
        let pct = |m: Option<(usize, u32)>| m.map(|(_, d)| 100.0 * f64::from(d) / 65536.0);
        let dilution = match (pct(pl.stronger), pct(pl.weaker)) {
            (Some(a), Some(b)) => format!("{a:.3}–{b:.3}%"),
            (Some(a), None) => format!("above {a:.3}%"),
            (None, Some(b)) => format!("below {b:.3}% (stronger than the whole family)"),
            (None, None) => String::new(),
        };
        t.rows.push(vec![
            Cell::Text(names[pl.player].clone()),
            Cell::num(ratings[pl.player], 1),
            describe(pl.weaker),
            describe(pl.stronger),
            Cell::Text(dilution),
        ]);
    }
    Ok(t)
}

/// Compares each computed method with true strengths: RMS error after removing the mean
/// difference (the scales' origins are arbitrary).
fn truth_table(games: &GameList, r: &Rated, truth: &[(String, f64)]) -> Table {
    let mut t = Table::new(
        "error against the true strengths",
        &["method", "players", "rms error"],
    );
    let mut candidates: Vec<(&str, Vec<f64>)> = Vec::new();
    if let Some(Ok(m)) = &r.mle {
        candidates.push(("mle", m.ratings.clone()));
    }
    if let Some(u) = &r.uscf {
        candidates.push(("uscf", u.ratings.clone()));
    }
    if let Some(Ok(e)) = &r.elo_world {
        candidates.push(("elo-world", e.median.clone()));
    }
    for (label, ratings) in candidates {
        let pairs: Vec<(f64, f64)> = truth
            .iter()
            .filter_map(|(name, x)| games.find(name).map(|id| (ratings[id.index()], *x)))
            .filter(|(r, _)| r.is_finite())
            .collect();
        let k = pairs.len() as f64;
        let mean = pairs.iter().map(|(r, x)| r - x).sum::<f64>() / k;
        let rms = (pairs
            .iter()
            .map(|(r, x)| (r - x - mean).powi(2))
            .sum::<f64>()
            / k)
            .sqrt();
        t.rows.push(vec![
            Cell::Text(label.to_owned()),
            Cell::Int(pairs.len() as u64),
            Cell::num(rms, 2),
        ]);
    }
    t
}
