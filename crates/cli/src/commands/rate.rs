//! `eloworld rate`: every rating method side by side, or one in detail, over a tournament
//! database, a PGN file or a CSV file. The ratings come from `eloworld_ratings::rate` /
//! `rate_all`; this file only chooses, loads and renders.

use crate::rating_input;
use crate::rating_table::{Cell, Table};
use anyhow::{bail, Context};
use eloworld_app::report::COPY_PAIRS_SHOWN;
use eloworld_ratings::{
    consistency::consistency,
    elo_world::{EloWorldConfig, EloWorldRatings},
    interpolate,
    mle::{Advantage, DrawModel, MleConfig, MleRatings, Unbounded},
    rate, rate_all,
    rollason::RollasonRatings,
    uscf::{UscfConfig, UscfRatings},
    Anchor, Detail, Flag, Games, Method, Options, PairCounts, RatingError, Ratings,
};
use eloworld_tournament::{Copies, CopyRule, ResultRow};
use std::path::PathBuf;
use std::process::ExitCode;

/// Every method side by side, or one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Every method side by side.
    All,
    /// One method in detail.
    One(Method),
}

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
    /// The method: all (side by side), mle, uscf, elo-world (or elo_world), rollason, markov.
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

/// What to compute and show.
#[derive(Clone, Debug)]
pub struct Settings {
    choice: Choice,
    options: Options,
    consistency: bool,
    los: bool,
    family: Option<String>,
}

impl Settings {
    /// Returns the defaults: every method, no extras.
    pub fn new() -> Settings {
        Settings {
            choice: Choice::All,
            options: Options::default(),
            consistency: false,
            los: false,
            family: None,
        }
    }
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
        None => rating_input::Source::from_args(
            args.db.as_deref(),
            args.tournament.as_deref(),
            args.pgn.as_deref(),
            args.csv.as_deref(),
        )?
        .load(args.case_sensitive, copy_rule)?,
    };
    if let Some(note) = copies
        .as_ref()
        .and_then(|c| c.note(copy_rule, COPY_PAIRS_SHOWN))
    {
        eprintln!("note: {note}");
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
        uscf: UscfConfig {
            initial_rating: args.initial_rating,
            prior_games: args.prior_games,
        },
        elo_world: EloWorldConfig {
            repetitions: args.repetitions,
            seed: args.seed,
            ..EloWorldConfig::new()
        },
        anchor: args
            .anchor
            .clone()
            .map(|(player, rating)| Anchor { player, rating }),
        ..Options::new(match args.method {
            Choice::All => Method::Mle,
            Choice::One(m) => m,
        })
    };
    if let Some(a) = &options.anchor {
        if games.find(&a.player).is_none() {
            bail!("--anchor: no player {:?} in the games", a.player);
        }
    }
    let settings = Settings {
        choice: args.method,
        options,
        consistency: args.consistency,
        los: args.los,
        family: args.family.clone(),
    };
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
    let truth = match &args.truth {
        Some(path) => Some(rating_input::read_truth(path)?),
        None => None,
    };
    let mut periods: Vec<(String, Games)> = vec![(String::new(), games.clone())];
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

/// Returns the side-by-side ratings of stored results (what a tournament prints at its end),
/// a copy of an earlier game counted once, with a note naming the copies.
pub fn tournament_ratings(rows: &[ResultRow]) -> anyhow::Result<String> {
    let games = eloworld_tournament::games_to_rate(rows);
    let (tables, _) = rate_games(&games, &Settings::new())?;
    let mut text = tables
        .iter()
        .map(Table::text)
        .collect::<Vec<_>>()
        .join("\n");
    if let Some(note) = Copies::of(rows).note(CopyRule::CountOnce, COPY_PAIRS_SHOWN) {
        text.push_str(&format!("note: {note}\n"));
    }
    Ok(text)
}

/// Everything computed for one set of games.
struct Rated {
    counts: PairCounts,
    totals: Vec<[u64; 3]>,
    results: Vec<(Method, Result<Ratings, RatingError>)>,
}

impl Rated {
    fn get(&self, method: Method) -> Option<&Ratings> {
        self.results
            .iter()
            .find(|(m, _)| *m == method)
            .and_then(|(_, r)| r.as_ref().ok())
    }
    fn mle(&self) -> Option<&MleRatings> {
        match &self.get(Method::Mle)?.detail {
            Detail::Mle(m) => Some(m),
            _ => None,
        }
    }
    fn uscf(&self) -> Option<&UscfRatings> {
        match &self.get(Method::Uscf)?.detail {
            Detail::Uscf(u) => Some(u),
            _ => None,
        }
    }
    fn elo_world(&self) -> Option<&EloWorldRatings> {
        match &self.get(Method::EloWorld)?.detail {
            Detail::EloWorld(e) => Some(e),
            _ => None,
        }
    }
    fn rollason(&self) -> Option<&RollasonRatings> {
        match &self.get(Method::Rollason)?.detail {
            Detail::Rollason(r) => Some(r),
            _ => None,
        }
    }
    fn markov(&self) -> Option<&Ratings> {
        self.get(Method::Markov)
    }
}

fn compute(games: &Games, s: &Settings) -> Rated {
    let counts = games.counts();
    let totals = counts.totals();
    let results = match s.choice {
        Choice::All => rate_all(games, &s.options),
        Choice::One(m) => vec![(m, rate(games, &s.options.with_method(m)))],
    };
    Rated {
        counts,
        totals,
        results,
    }
}

/// Returns the flag's word, or an empty cell.
fn flag_cell(flag: Option<Flag>) -> Cell {
    Cell::Text(flag.map_or_else(String::new, |f| f.name().to_owned()))
}

fn rate_games(games: &Games, s: &Settings) -> anyhow::Result<(Vec<Table>, Rated)> {
    let r = compute(games, s);
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
    let mle = r.mle();
    let elo_world = r.elo_world();
    let markov = r.markov();
    let shown = match s.choice {
        Choice::All => Method::Mle,
        Choice::One(m) => m,
    };
    // Rank by the method shown (mle when all), then by score.
    let key: Vec<f64> = (0..n)
        .map(|p| r.get(shown).and_then(|x| x.value(p)).unwrap_or(f64::NAN))
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
    for (m, result) in &r.results {
        match result {
            Err(e) => notes.push(format!("{m}: not computed: {e}")),
            Ok(x) => notes.extend(x.notes.iter().cloned()),
        }
    }
    if let Some(m) = mle {
        mle_notes(m, names, &order, &mut notes);
    }
    let elo_world_note = |e: &EloWorldRatings| {
        format!(
            "elo-world: n = {} games per cell of {} cells, {} passes, median of {} runs",
            e.games_per_cell, e.cells, s.options.elo_world.passes, s.options.elo_world.repetitions
        )
    };
    let mut tables = Vec::new();
    let mut main = match s.choice {
        Choice::All => {
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
                    "flag",
                ],
            );
            let mle_flag = r.get(Method::Mle);
            for (rank, &p) in order.iter().enumerate() {
                let (g, pct) = score(p);
                t.rows.push(vec![
                    Cell::Int(rank as u64 + 1),
                    Cell::Text(names[p].clone()),
                    Cell::Int(g),
                    Cell::num(pct, 1),
                    Cell::opt(mle.map(|m| m.ratings[p]), 1),
                    Cell::opt(mle.map(|m| (m.high[p] - m.low[p]) / 2.0), 1),
                    Cell::opt(r.uscf().map(|u| u.ratings[p]), 1),
                    Cell::opt(elo_world.map(|e| e.median[p]), 1),
                    Cell::opt(elo_world.map(|e| e.q25[p]), 1),
                    Cell::opt(elo_world.map(|e| e.q75[p]), 1),
                    Cell::opt(r.rollason().map(|x| x.ratings[p]), 0),
                    Cell::opt(markov.and_then(|m| m.value(p)), 8),
                    flag_cell(mle_flag.and_then(|m| m.flag(p))),
                ]);
            }
            if let Some(e) = elo_world {
                notes.push(elo_world_note(e));
            }
            t
        }
        Choice::One(Method::Mle) => {
            let mut t = Table::new(
                "",
                &[
                    "rank", "player", "games", "score%", "elo", "error", "low95", "high95", "flag",
                ],
            );
            if let (Some(m), Some(x)) = (mle, r.get(Method::Mle)) {
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
                        flag_cell(x.flag(p)),
                    ]);
                }
            }
            t
        }
        Choice::One(Method::Uscf) => {
            let mut t = Table::new("", &["rank", "player", "games", "score%", "elo"]);
            if let Some(u) = r.uscf() {
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
                    s.options.uscf.initial_rating, s.options.uscf.prior_games
                ));
            }
            t
        }
        Choice::One(Method::EloWorld) => {
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
                notes.push(elo_world_note(e));
            }
            t
        }
        Choice::One(Method::Rollason) => {
            let mut t = Table::new("", &["rank", "player", "rating", "points", "bar", "flag"]);
            if let (Some(x), Some(rated)) = (r.rollason(), r.get(Method::Rollason)) {
                for (rank, &p) in order.iter().enumerate() {
                    t.rows.push(vec![
                        Cell::Int(rank as u64 + 1),
                        Cell::Text(names[p].clone()),
                        Cell::num(x.ratings[p], 0),
                        Cell::num(x.points[p], 1),
                        Cell::Text("*".repeat(x.stars(p))),
                        flag_cell(rated.flag(p)),
                    ]);
                }
                t.custom_text = Some(rollason_text(&order, names, x, rated));
            }
            t
        }
        Choice::One(Method::Markov) => {
            let mut t = Table::new("", &["rank", "player", "games", "score%", "p(champion)"]);
            if let Some(m) = markov {
                for (rank, &p) in order.iter().enumerate() {
                    let (g, pct) = score(p);
                    t.rows.push(vec![
                        Cell::Int(rank as u64 + 1),
                        Cell::Text(names[p].clone()),
                        Cell::Int(g),
                        Cell::num(pct, 1),
                        Cell::opt(m.value(p), 8),
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
    let chosen = chosen_ratings(&r, s.choice);
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

/// Returns the ratings the extras use: the chosen method's, or mle's when all are shown.
fn chosen_ratings(r: &Rated, choice: Choice) -> Option<(String, Vec<f64>)> {
    let method = match choice {
        Choice::All => Method::Mle,
        Choice::One(Method::Markov) => return None,
        Choice::One(m) => m,
    };
    r.get(method)
        .map(|x| (method.name().to_owned(), x.values.clone()))
}

fn mle_notes(m: &MleRatings, names: &[String], order: &[usize], notes: &mut Vec<String>) {
    let advantage = |(a, se): (f64, f64)| {
        // Shown to 0.1 Elo: a value that rounds to zero is +0.0, never -0.0.
        let a = if a.abs() < 0.05 { 0.0 } else { a };
        if se > 0.0 {
            format!("{a:+.1} ± {:.1} Elo (fitted)", 1.96 * se)
        } else {
            format!("{a:+.1} Elo (fixed)")
        }
    };
    let groups = m.group_count();
    if groups > 1 {
        for (g, &a) in m.group_advantages.iter().enumerate() {
            notes.push(format!(
                "mle: first-move advantage in group {}: {}",
                g + 1,
                advantage(a)
            ));
        }
    } else if m.advantage.1 > 0.0 || m.advantage.0 != 0.0 {
        notes.push(format!(
            "mle: first-move advantage {}",
            advantage(m.advantage)
        ));
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
    for (side, word, bound) in [
        (Unbounded::Above, "unbounded-above", "a lower bound"),
        (Unbounded::Below, "unbounded-below", "an upper bound"),
    ] {
        let players: Vec<_> = order
            .iter()
            .filter(|&&p| m.unbounded[p] == Some(side))
            .map(|&p| eloworld_ratings::shown_name(&names[p]))
            .collect();
        if !players.is_empty() {
            notes.push(format!(
                "mle: no finite maximum for {} ({word}: {} the rest); each is shown at the rating it would have if one of its games had been a draw, {bound}, as Ordo does; the others are rated with it held there",
                players.join(", "),
                if side == Unbounded::Above {
                    "never conceded a point to"
                } else {
                    "never scored against"
                }
            ));
        }
    }
    if groups > 1 {
        for g in 1..groups {
            let members: Vec<_> = order
                .iter()
                .filter(|&&p| m.group[p] == g)
                .map(|&p| eloworld_ratings::shown_name(&names[p]))
                .collect();
            notes.push(format!(
                "mle: group {} ({}; flag separate-group) never played the main group: its ratings are on their own scale and not comparable",
                g + 1,
                members.join(", "),
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
        format!("consistency with {label} ratings (the Squava article's check): observed R_P/Q = s/(1−s) against 10^(D/400)"),
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
fn truth_table(games: &Games, r: &Rated, truth: &[(String, f64)]) -> Table {
    let mut t = Table::new(
        "error against the true strengths",
        &["method", "players", "rms error"],
    );
    let candidates: Vec<(&str, Vec<f64>)> = [Method::Mle, Method::Uscf, Method::EloWorld]
        .into_iter()
        .filter_map(|m| r.get(m).map(|x| (m.name(), x.values.clone())))
        .collect();
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
