//! `eloworld rate`: every rating method side by side, or one in detail, over a tournament
//! database, a PGN file or a CSV file. The ratings come from `eloworld_ratings::rate` /
//! `rate_all`; this file only chooses, loads and renders.

use crate::rating_table::{Cell, Table};
use anyhow::{bail, Context};
use eloworld_app::rating::{
    self, Choice, ConsistencyCheck, FamilyPlaces, LosMatrix, Period, RateSettings, RatingReport,
    Source, TruthError,
};
use eloworld_app::report::COPY_PAIRS_SHOWN;
use eloworld_ratings::{
    elo_world::EloWorldConfig,
    mle::{Advantage, DrawModel, MleConfig},
    rollason::RollasonRatings,
    uscf::UscfConfig,
    Anchor, Detail, Flag, Games, Method, Options, Ratings,
};
use eloworld_tournament::{Copies, CopyRule, ResultRow};
use std::path::PathBuf;
use std::process::ExitCode;

fn parse_choice(s: &str) -> Result<Choice, String> {
    if s == "all" {
        return Ok(Choice::All);
    }
    s.parse::<Method>()
        .map(Choice::One)
        .map_err(|_| format!("expected all, {}", Method::valid_names()))
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
    /// The method: all (side by side), mle, uscf, elo-world (or elo_world), rollason, markov,
    /// glicko2, trueskill, whr, bayeselo, nash, alpharank.
    #[arg(long, default_value = "all", value_parser = parse_choice)]
    method: Choice,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Rate every year (from the games' dates) on its own, after all games together.
    #[arg(long)]
    by_year: bool,
    /// Fix the scale: this player gets this rating (NAME=ELO).
    #[arg(long, value_parser = parse_anchor)]
    anchor: Option<(String, f64)>,
    /// Also print, per pair, the observed R_P/Q next to the predicted 10^(D/400) (the Squava
    /// article's check).
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
    /// mle: Newton's steps per fit before the fit is reported as not converged.
    #[arg(long, default_value_t = eloworld_ratings::mle::NEWTON_STEPS, value_parser = clap::value_parser!(u32).range(1..))]
    newton_steps: u32,
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
    /// Count every stored copy of a game (default: a game that repeats an earlier game of
    /// the same ordered pair from the same start, move for move, counts once).
    #[arg(long, requires = "db")]
    keep_copies: bool,
    /// A CSV of true strengths (name,strength), e.g. from `eloworld synth`: print each
    /// method's RMS error against it.
    #[arg(long)]
    truth: Option<PathBuf>,
    /// Instead of ratings: which model predicts these games best, by K-fold cross-validation
    /// over the games in order (log loss and Brier score of win/draw/loss, best first).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(2..),
          conflicts_with_all = ["method", "by_year", "anchor", "consistency", "los", "family", "truth", "bootstrap", "draw_model", "white_advantage"])]
    predict: Option<u64>,
}

/// Reads `NAME=ELO` (`--anchor`), for `rate` and `ladder build`.
pub(crate) fn parse_anchor(s: &str) -> Result<(String, f64), String> {
    let (name, elo) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("{s:?}: expected NAME=ELO"))?;
    let elo = elo
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("{s:?}: {elo:?} is not a number"))?;
    Ok((name.trim().to_owned(), elo))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.keep_copies && args.db.is_none() {
        bail!("--keep-copies: copies are found in a database (--db) only; --pgn, --csv and --ladder take every game as given");
    }
    let copy_rule = if args.keep_copies {
        CopyRule::CountEach
    } else {
        CopyRule::CountOnce
    };
    let (games, unfinished, copies) = match &args.ladder {
        Some(ladder) => (eloworld_app::ladders::load(ladder)?.game_list(), 0, None),
        None => {
            let source = match (&args.pgn, &args.csv, &args.db) {
                (Some(p), _, _) => Source::Pgn(p),
                (None, Some(c), _) => Source::Csv(c),
                (None, None, Some(db)) => Source::Db {
                    db,
                    tournament: args.tournament.as_deref(),
                },
                (None, None, None) => bail!("give --db, --pgn or --csv"),
            };
            let read = source.load(args.case_sensitive, copy_rule)?;
            (read.games, read.unfinished, read.copies)
        }
    };
    if let Some(note) = copies
        .as_ref()
        .and_then(|c| c.note(copy_rule, COPY_PAIRS_SHOWN))
    {
        eprintln!("note: {note}");
    }
    if let Some(k) = args.predict {
        return predict(&games, &args, k);
    }
    let advantage = match args.white_advantage.as_str() {
        "fit" => Advantage::Fit,
        v => Advantage::Fixed(
            v.parse()
                .with_context(|| format!("--white-advantage {v:?}: expected fit or a number"))?,
        ),
    };
    let options = Options {
        mle: MleConfig {
            draw_model: match args.draw_model {
                DrawModelArg::Half => DrawModel::HalfPoint,
                DrawModelArg::Davidson => DrawModel::Davidson,
            },
            advantage,
            bootstrap: args.bootstrap,
            seed: args.seed,
            newton_steps: args.newton_steps,
            ..MleConfig::new()
        },
        uscf: uscf_config(&args),
        elo_world: elo_world_config(&args),
        anchor: args
            .anchor
            .clone()
            .map(|(player, rating)| Anchor { player, rating }),
        ..Options::new(args.method.ranked_by())
    };
    if let Some(a) = &options.anchor {
        if games.find(&a.player).is_none() {
            bail!("--anchor: no player {:?} in the games", a.player);
        }
    }
    for (kept, merged) in games.merged_spellings() {
        eprintln!(
            "note: {:?} is taken as {:?} (names differing only in case are one player; --case-sensitive keeps them apart)",
            eloworld_ratings::shown_name(merged),
            eloworld_ratings::shown_name(kept)
        );
    }
    if unfinished > 0 {
        eprintln!(
            "note: {unfinished} {} without a result (*) or players skipped",
            if unfinished == 1 { "game" } else { "games" }
        );
    }
    let settings = RateSettings {
        choice: args.method,
        options,
        consistency: args.consistency,
        los: args.los,
        family: args.family.clone(),
        truth: match &args.truth {
            Some(path) => Some(rating::read_truth(path)?),
            None => None,
        },
    };
    let mut documents = Vec::new();
    for (k, (period, report)) in rating::rate_periods(&games, args.by_year, &settings)?
        .iter()
        .enumerate()
    {
        let title = match period {
            Period::Whole => String::new(),
            Period::AllYears => "all games".to_owned(),
            Period::Year(y) => y.to_string(),
            Period::Undated => "no date".to_owned(),
        };
        let tables = tables(report);
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
                    print!("{}", &t.text());
                }
            }
            Format::Csv => {
                for t in &tables {
                    if !title.is_empty() {
                        eprintln!("# {title}");
                    }
                    print!("{}", &t.csv());
                    for n in &t.notes {
                        eprintln!("{n}");
                    }
                }
            }
            Format::Json => {
                for t in &tables {
                    for n in &t.notes {
                        eprintln!("{n}");
                    }
                }
                let tables: Vec<serde_json::Value> = tables.iter().map(Table::json).collect();
                let mut document = serde_json::json!({ "period": title, "tables": tables });
                if let (Some(copies), false) = (&copies, args.by_year) {
                    document["copies"] = serde_json::to_value(copies)?;
                }
                documents.push(document);
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

/// The incremental Elo settings of the command line.
fn uscf_config(args: &Args) -> UscfConfig {
    UscfConfig {
        initial_rating: args.initial_rating,
        prior_games: args.prior_games,
    }
}

/// Elo World's settings of the command line.
fn elo_world_config(args: &Args) -> EloWorldConfig {
    EloWorldConfig {
        repetitions: args.repetitions,
        seed: args.seed,
        ..EloWorldConfig::new()
    }
}

/// `rate --predict K`: the cross-validation table, best first.
fn predict(games: &Games, args: &Args, folds: u64) -> anyhow::Result<ExitCode> {
    let options = Options {
        uscf: uscf_config(args),
        elo_world: elo_world_config(args),
        ..Options::default()
    };
    let folds = usize::try_from(folds).context("--predict: too many folds")?;
    let cv = eloworld_ratings::predict::cross_validate(games, &options, folds)
        .with_context(|| format!("--predict {folds}"))?;
    let mut t = Table::new(
        "",
        &["rank", "method", "log_loss", "brier", "probabilities"],
    );
    for (rank, p) in cv.scores.iter().enumerate() {
        t.rows.push(vec![
            Cell::Int(rank as u64 + 1),
            Cell::Text(p.method.name().to_owned()),
            Cell::num(p.log_loss, 4),
            Cell::num(p.brier, 4),
            Cell::Text(p.draw_model.to_owned()),
        ]);
    }
    t.notes.push(format!(
        "{} folds of consecutive games; {} games scored (every block but the first); order-free methods trained on the other blocks, time-ordered ones (uscf, glicko2, trueskill, whr) on the games before the block; a uniform guess scores log loss {:.4}",
        cv.folds,
        cv.test_games,
        3f64.ln()
    ));
    for (m, why) in &cv.skipped {
        t.notes.push(format!("{m}: not scored: {why}"));
    }
    match args.format {
        Format::Table => print!("{}", t.text()),
        Format::Csv => {
            print!("{}", t.csv());
            t.notes.iter().for_each(|n| eprintln!("{n}"));
        }
        Format::Json => {
            t.notes.iter().for_each(|n| eprintln!("{n}"));
            let mut doc = serde_json::Map::new();
            for (rank, p) in cv.scores.iter().enumerate() {
                doc.insert(
                    p.method.name().to_owned(),
                    serde_json::json!({
                        "rank": rank + 1,
                        "log_loss": p.log_loss,
                        "brier": p.brier,
                        "probabilities": p.draw_model,
                    }),
                );
            }
            println!("{}", serde_json::to_string_pretty(&doc)?);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Returns the side-by-side ratings of stored results (what a tournament prints at its end),
/// a copy of an earlier game counted once, with a note naming the copies.
pub fn tournament_ratings(rows: &[ResultRow]) -> anyhow::Result<String> {
    let report = rating::rate_results(rows)?;
    let mut text = tables(&report)
        .iter()
        .map(Table::text)
        .collect::<Vec<_>>()
        .join("\n");
    if let Some(note) = Copies::of(rows).note(CopyRule::CountOnce, COPY_PAIRS_SHOWN) {
        text.push_str(&format!("note: {note}\n"));
    }
    Ok(text)
}

/// Returns the flag's word, or an empty cell.
fn flag_cell(flag: Option<Flag>) -> Cell {
    Cell::Text(flag.map_or_else(String::new, |f| f.name().to_owned()))
}

/// Returns the report's tables: the ranking, then the extras asked for.
fn tables(r: &RatingReport) -> Vec<Table> {
    let mut main = ranking_table(r);
    main.notes.clone_from(&r.notes);
    let mut tables = vec![main];
    if let Some(los) = &r.los {
        tables.push(los_table(los, r));
    }
    if let Some(c) = &r.consistency {
        tables.push(consistency_table(c, &r.names));
    }
    if let Some(f) = &r.family {
        tables.push(family_table(f, &r.names));
    }
    if let Some(t) = &r.truth {
        tables.push(truth_table(t));
    }
    tables
}

/// Returns the ranking: every method's column side by side, or one method's in detail.
fn ranking_table(r: &RatingReport) -> Table {
    let names = &r.names;
    // The rank, the player, and (but for Rollason's) games and score.
    let lead = |rank: usize, p: usize| {
        let wdl = r.totals[p];
        vec![
            Cell::Int(rank as u64 + 1),
            Cell::Text(names[p].clone()),
            Cell::Int(wdl.games()),
            Cell::num(wdl.score_pct(), 1),
        ]
    };
    let lead_columns = ["rank", "player", "games", "score%"];
    let rows = |columns: &[&str], cells: &dyn Fn(usize) -> Vec<Cell>| {
        let mut t = Table::new("", &[&lead_columns[..], columns].concat());
        for (rank, &p) in r.order.iter().enumerate() {
            let mut row = lead(rank, p);
            row.extend(cells(p));
            t.rows.push(row);
        }
        t
    };
    let mle = r.mle();
    let elo_world = r.elo_world();
    let value = |m: Method, p: usize| r.get(m).and_then(|x| x.value(p));
    let half = |m: Method, p: usize| {
        r.get(m)
            .and_then(|x| x.interval(p))
            .map(|(low, high)| (high - low) / 2.0)
    };
    match r.choice {
        Choice::All => rows(
            &[
                "mle",
                "±95%",
                "uscf",
                "elo-world",
                "ew-q25",
                "ew-q75",
                "rollason",
                "p(champion)",
                "glicko2",
                "g2±95%",
                "trueskill",
                "ts±95%",
                "whr",
                "whr±95%",
                "bayeselo",
                "be±95%",
                "nash",
                "alpharank",
                "flag",
            ],
            &|p| {
                vec![
                    Cell::opt(mle.map(|m| m.ratings[p]), 1),
                    Cell::opt(mle.map(|m| (m.high[p] - m.low[p]) / 2.0), 1),
                    Cell::opt(r.uscf().map(|u| u.ratings[p]), 1),
                    Cell::opt(elo_world.map(|e| e.median[p]), 1),
                    Cell::opt(elo_world.map(|e| e.q25[p]), 1),
                    Cell::opt(elo_world.map(|e| e.q75[p]), 1),
                    Cell::opt(r.rollason().map(|x| x.ratings[p]), 0),
                    Cell::opt(r.markov().and_then(|m| m.value(p)), 8),
                    Cell::opt(value(Method::Glicko2, p), 1),
                    Cell::opt(half(Method::Glicko2, p), 1),
                    Cell::opt(value(Method::TrueSkill, p), 2),
                    Cell::opt(half(Method::TrueSkill, p), 2),
                    Cell::opt(value(Method::Whr, p), 1),
                    Cell::opt(half(Method::Whr, p), 1),
                    Cell::opt(value(Method::BayesElo, p), 1),
                    Cell::opt(half(Method::BayesElo, p), 1),
                    Cell::opt(value(Method::Nash, p), 1),
                    Cell::opt(value(Method::AlphaRank, p), 8),
                    flag_cell(r.get(Method::Mle).and_then(|m| m.flag(p))),
                ]
            },
        ),
        Choice::One(Method::Mle) => match (mle, r.get(Method::Mle)) {
            (Some(m), Some(x)) => rows(&["elo", "error", "low95", "high95", "flag"], &|p| {
                vec![
                    Cell::num(m.ratings[p], 1),
                    Cell::num(m.errors[p], 1),
                    Cell::num(m.low[p], 1),
                    Cell::num(m.high[p], 1),
                    flag_cell(x.flag(p)),
                ]
            }),
            _ => Table::new(
                "",
                &[
                    "rank", "player", "games", "score%", "elo", "error", "low95", "high95", "flag",
                ],
            ),
        },
        Choice::One(Method::Uscf) => match r.uscf() {
            Some(u) => rows(&["elo"], &|p| vec![Cell::num(u.ratings[p], 1)]),
            None => Table::new("", &["rank", "player", "games", "score%", "elo"]),
        },
        Choice::One(Method::EloWorld) => match elo_world {
            Some(e) => rows(&["elo", "q25", "q75"], &|p| {
                vec![
                    Cell::num(e.median[p], 2),
                    Cell::num(e.q25[p], 2),
                    Cell::num(e.q75[p], 2),
                ]
            }),
            None => Table::new(
                "",
                &["rank", "player", "games", "score%", "elo", "q25", "q75"],
            ),
        },
        Choice::One(Method::Rollason) => {
            let mut t = Table::new("", &["rank", "player", "rating", "points", "bar", "flag"]);
            if let (Some(x), Some(rated)) = (r.rollason(), r.get(Method::Rollason)) {
                for (rank, &p) in r.order.iter().enumerate() {
                    t.rows.push(vec![
                        Cell::Int(rank as u64 + 1),
                        Cell::Text(names[p].clone()),
                        Cell::num(x.ratings[p], 0),
                        Cell::num(x.points[p], 1),
                        Cell::Text("*".repeat(x.stars(p))),
                        flag_cell(rated.flag(p)),
                    ]);
                }
                t.custom_text = Some(rollason_text(&r.order, names, x, rated));
            }
            t
        }
        Choice::One(Method::Markov) => match r.markov() {
            Some(m) => rows(&["p(champion)"], &|p| vec![Cell::opt(m.value(p), 8)]),
            None => Table::new("", &["rank", "player", "games", "score%", "p(champion)"]),
        },
        Choice::One(method) => model_table(method, r),
    }
}

/// The table of one of the models beyond the seeds' methods: the value, its 95% interval
/// where the model has one, and the model's own extra (Nash averaging's mass).
fn model_table(method: Method, r: &RatingReport) -> Table {
    let value = match method {
        Method::TrueSkill => "mu",
        Method::Nash => "nash",
        Method::AlphaRank => "mass",
        _ => "elo",
    };
    let mut columns = vec!["rank", "player", "games", "score%", value];
    let x = r.get(method);
    let intervals = x.is_some_and(|x| x.intervals.is_some());
    if intervals {
        columns.extend(["low95", "high95"]);
    }
    let mass = match x.map(|x| &x.detail) {
        Some(Detail::Nash(n)) => {
            columns.push("mass");
            Some(&n.mass)
        }
        _ => None,
    };
    let mut t = Table::new("", &columns);
    let Some(x) = x else {
        return t;
    };
    let decimals = if method.is_elo() || method == Method::Nash {
        1
    } else if method == Method::TrueSkill {
        2
    } else {
        8
    };
    for (rank, &p) in r.order.iter().enumerate() {
        let wdl = r.totals[p];
        let mut row = vec![
            Cell::Int(rank as u64 + 1),
            Cell::Text(r.names[p].clone()),
            Cell::Int(wdl.games()),
            Cell::num(wdl.score_pct(), 1),
            Cell::opt(x.value(p), decimals),
        ];
        if intervals {
            let (low, high) = x.interval(p).unwrap_or((f64::NAN, f64::NAN));
            row.extend([Cell::num(low, decimals), Cell::num(high, decimals)]);
        }
        if let Some(mass) = mass {
            row.push(Cell::num(mass[p], 8));
        }
        t.rows.push(row);
    }
    match &x.detail {
        Detail::Glicko2(g) => t.notes.push(format!(
            "glicko2: {} rating periods (one per date, else {} games each)",
            g.periods,
            5 * r.names.len()
        )),
        Detail::Whr(w) => t.notes.push(format!(
            "whr: {} cycles of Newton's steps",
            w.iterations
        )),
        Detail::BayesElo(b) => t.notes.push(format!(
            "bayeselo: eloAdvantage {:.1}, eloDraw {:.1}, scale {:.4}, {} MM passes",
            b.advantage, b.draw_elo, b.scale, b.iterations
        )),
        Detail::Nash(_) => t.notes.push(
            "nash: log-odds margin (Elo scale) against the maximum-entropy Nash mixture; 0 in its support, the mass column is the mixture".to_owned(),
        ),
        _ => {}
    }
    t
}

/// Renders Rollason's table as his computer-Go ratings page prints it.
fn rollason_text(
    order: &[usize],
    names: &[String],
    x: &RollasonRatings,
    rated: &Ratings,
) -> String {
    use crate::rating_table::{pad, shortened};
    let shown: Vec<String> = names.iter().map(|n| shortened(n)).collect();
    let w = order
        .iter()
        .map(|&p| shown[p].chars().count())
        .max()
        .unwrap_or(6)
        .max(14);
    let mut out = String::from("     ");
    pad(&mut out, "Player", w, true);
    out.push_str("  Rating    Points\n\n");
    for (rank, &p) in order.iter().enumerate() {
        out.push_str(&format!("{:>3}. ", rank + 1));
        pad(&mut out, &shown[p], w, true);
        out.push_str(&format!(
            " {:>6.0}  ({:>7.1} pts) {}{}\n",
            x.ratings[p],
            x.points[p],
            "*".repeat(x.stars(p)),
            rated
                .flag(p)
                .map_or_else(String::new, |f| format!(" ({f})"))
        ));
    }
    out
}

fn los_table(los: &LosMatrix, r: &RatingReport) -> Table {
    let mut columns: Vec<String> = vec!["LOS%".to_owned()];
    columns.extend(r.order.iter().map(|&p| r.names[p].clone()));
    let mut t = Table {
        title: "likelihood of superiority (row over column, %)".to_owned(),
        columns,
        ..Table::default()
    };
    for (&p, chances) in r.order.iter().zip(&los.chance) {
        let mut row = vec![Cell::Text(r.names[p].clone())];
        row.extend(chances.iter().map(|c| Cell::opt(c.map(|c| 100.0 * c), 0)));
        t.rows.push(row);
    }
    t
}

fn consistency_table(check: &ConsistencyCheck, names: &[String]) -> Table {
    let c = &check.table;
    let mut t = Table::new(
        format!("consistency with {} ratings (the Squava article's check): observed R_P/Q = s/(1−s) against 10^(D/400)", check.method.name()),
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

fn family_table(f: &FamilyPlaces, names: &[String]) -> Table {
    let base = &f.base;
    let mut t = Table::new(
        format!("comparable interpolated player: the {base} family by {} rating (dilution = chance of a random move)", f.method.name()),
        &["player", "rating", "between", "and", "dilution"],
    );
    let describe =
        |m: Option<(usize, u32)>| m.map_or(Cell::Missing, |(i, _)| Cell::Text(names[i].clone()));
    for (pl, rating) in &f.places {
        let pct = |m: Option<(usize, u32)>| m.map(|(_, d)| 100.0 * f64::from(d) / 65536.0);
        let dilution = match (pct(pl.stronger), pct(pl.weaker)) {
            (Some(a), Some(b)) => format!("{a:.3}–{b:.3}%"),
            (Some(a), None) => format!("above {a:.3}%"),
            (None, Some(b)) => format!("below {b:.3}% (stronger than the whole family)"),
            (None, None) => String::new(),
        };
        t.rows.push(vec![
            Cell::Text(names[pl.player].clone()),
            Cell::num(*rating, 1),
            describe(pl.weaker),
            describe(pl.stronger),
            Cell::Text(dilution),
        ]);
    }
    t
}

fn truth_table(errors: &[TruthError]) -> Table {
    let mut t = Table::new(
        "error against the true strengths",
        &["method", "players", "rms error"],
    );
    for e in errors {
        t.rows.push(vec![
            Cell::Text(e.method.name().to_owned()),
            Cell::Int(e.players as u64),
            Cell::num(e.rms, 2),
        ]);
    }
    t
}
