//! `eloworld report`: pictures and reports from a results database — the outcome matrix, the
//! rating-evolution plot, the asterisk table and the HTML report. Reads results and rates
//! them; never plays a game.

use anyhow::{bail, Context};
use eloworld_app::report::{game_text, rating_column, rating_value, replay, uscf_histories};
use eloworld_ratings::uscf::UscfConfig;
use eloworld_ratings::{rate as rate_games, Detail, Games, Method, Options};
use eloworld_report::{
    asterisk_table, evolution_plot, html_report, outcome_matrix, AsteriskOptions, AsteriskRow,
    ConsistencyRow, EvolutionOptions, HtmlReport, ImageFormat, MatrixOptions, OutcomeTable,
    RatingColumn, RatingHistory, RatingValue, SampleGame,
};
use eloworld_tournament::{open_store, GameRow, ResultRow, TournamentRow};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Draw pictures and reports from stored results.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand, Debug)]
enum What {
    /// The outcome matrix: a coloured cell per ordered pair (rows White, columns Black).
    Matrix(MatrixArgs),
    /// Each player's uscf rating after every game it played; one run per tournament.
    Evolution(EvolutionArgs),
    /// The asterisk table: rank, player, rating, points and a bar of asterisks.
    Table(TableArgs),
    /// One self-contained HTML page: settings, ratings, crosstable, pictures, sample games.
    Html(HtmlArgs),
}

/// Where the results come from.
#[derive(clap::Args, Debug)]
struct Source {
    /// The database.
    #[arg(long)]
    db: String,
    /// Only this tournament (default: every tournament in the database, results combined).
    #[arg(long)]
    tournament: Option<String>,
}

#[derive(clap::Args, Debug)]
struct MatrixArgs {
    #[command(flatten)]
    source: Source,
    /// The picture: `.png` or `.svg`.
    #[arg(long)]
    out: PathBuf,
    /// Sort players by this: elo-world (or elo_world), mle, uscf, rollason, markov or score.
    #[arg(long, default_value = "elo-world")]
    by: SortKey,
    /// A cell's side in pixels (default: from the number of players).
    #[arg(long)]
    cell: Option<u32>,
}

#[derive(clap::Args, Debug)]
struct EvolutionArgs {
    /// The database; repeat to overlay runs stored in several databases.
    #[arg(long, required = true)]
    db: Vec<String>,
    /// Only this tournament (default: each tournament is a run of its own).
    #[arg(long)]
    tournament: Option<String>,
    /// The picture: `.png` or `.svg`.
    #[arg(long)]
    out: PathBuf,
    /// Picture width in pixels.
    #[arg(long, default_value_t = 1000)]
    width: u32,
    /// Picture height in pixels.
    #[arg(long, default_value_t = 600)]
    height: u32,
}

#[derive(clap::Args, Debug)]
struct TableArgs {
    #[command(flatten)]
    source: Source,
    /// The rating: rollason (Rollason's page's), uscf, elo-world or mle.
    #[arg(long, default_value = "rollason")]
    method: SortKey,
    /// Also print one table per year the games finished in.
    #[arg(long)]
    by_year: bool,
    /// Asterisks of the best player.
    #[arg(long, default_value_t = 40)]
    width: usize,
    /// The rating that gets one asterisk (default: the lowest in each table).
    #[arg(long)]
    floor: Option<f64>,
    /// Write here instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct HtmlArgs {
    #[command(flatten)]
    source: Source,
    /// The page to write.
    #[arg(long)]
    out: PathBuf,
    /// Sample games shown per pair of players.
    #[arg(long, default_value_t = 2)]
    samples_per_pair: usize,
    /// Most sample games in the page.
    #[arg(long, default_value_t = 60)]
    max_samples: usize,
    /// Inline pictures as svg or png.
    #[arg(long, default_value = "svg")]
    pictures: String,
}

/// A rating method, or the plain score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SortKey {
    Rating(Method),
    Score,
}

impl SortKey {
    fn name(self) -> &'static str {
        match self {
            SortKey::Rating(m) => m.name(),
            SortKey::Score => "score",
        }
    }
}

impl std::str::FromStr for SortKey {
    type Err = String;

    fn from_str(s: &str) -> Result<SortKey, String> {
        if s == "score" {
            return Ok(SortKey::Score);
        }
        s.parse::<Method>()
            .map(SortKey::Rating)
            .map_err(|_| format!("expected {} or score", Method::valid_names()))
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.what {
        What::Matrix(a) => matrix(&a),
        What::Evolution(a) => evolution(&a),
        What::Table(a) => table(&a),
        What::Html(a) => html(&a),
    }
}

/// Stored results of the selected tournaments.
struct Results {
    tournaments: Vec<TournamentRow>,
    rows: Vec<ResultRow>,
    table: OutcomeTable,
}

fn load(db: &str, tournament: Option<&str>) -> anyhow::Result<Results> {
    let store = open_store(db, false).with_context(|| format!("opening {db}"))?;
    let tournaments: Vec<TournamentRow> = store
        .tournaments()?
        .into_iter()
        .filter(|t| tournament.is_none_or(|n| n == t.name))
        .collect();
    if tournaments.is_empty() {
        match tournament {
            Some(n) => bail!("{db} has no tournament named {n:?}"),
            None => bail!("{db} has no tournaments"),
        }
    }
    let rows = store
        .results(tournament)
        .with_context(|| format!("reading results from {db}"))?;
    if rows.is_empty() {
        bail!(
            "{db} has no stored games{}",
            tournament
                .map(|t| format!(" in tournament {t:?}"))
                .unwrap_or_default()
        );
    }
    let order: Vec<String> = tournaments
        .iter()
        .flat_map(|t| t.players.iter().cloned())
        .collect();
    let table = OutcomeTable::from_games(
        &order,
        rows.iter()
            .map(|r| (r.white.as_str(), r.black.as_str(), r.result.first_score())),
    );
    // Players of the plan who have not played yet have nothing to show.
    let played: Vec<usize> = (0..table.len())
        .filter(|&i| table.totals(i).games() > 0)
        .collect();
    let table = if played.len() == table.len() {
        table
    } else {
        keep_players(&table, &played)?
    };
    Ok(Results {
        tournaments,
        rows,
        table,
    })
}

/// Returns the table restricted to some players.
fn keep_players(table: &OutcomeTable, keep: &[usize]) -> anyhow::Result<OutcomeTable> {
    let names: Vec<String> = keep.iter().map(|&i| table.players()[i].clone()).collect();
    let mut out = OutcomeTable::new(&names);
    for (a, &i) in keep.iter().enumerate() {
        for (b, &j) in keep.iter().enumerate() {
            out.add_counts(a, b, table.cell(i, j))?;
        }
    }
    Ok(out)
}

/// Returns the games as the ratings crate takes them: players in the table's order (so ids
/// are table indices), games in finish order, dated by the year they finished.
fn game_list(table: &OutcomeTable, rows: &[ResultRow]) -> Games {
    let mut list = Games::case_sensitive();
    for p in table.players() {
        list.player(p);
    }
    eloworld_tournament::add_results(&mut list, rows);
    list
}

/// Rates the games of `list` by `key`: one value per player of the list (None where the
/// method rates no one), with intervals where the method gives them.
fn rate(key: SortKey, list: &Games) -> anyhow::Result<Vec<Option<RatingValue>>> {
    let n = list.player_count();
    let method = match key {
        SortKey::Rating(m) => m,
        SortKey::Score => {
            let mut points = vec![(0.0f64, 0u64); n];
            for g in list.games() {
                let s = g.score.points();
                points[g.first.index()].0 += s;
                points[g.first.index()].1 += 1;
                points[g.second.index()].0 += 1.0 - s;
                points[g.second.index()].1 += 1;
            }
            #[allow(clippy::cast_precision_loss)] // game counts stay far below 2^52
            return Ok(points
                .into_iter()
                .map(|(p, g)| (g > 0).then(|| RatingValue::point(p / g as f64)))
                .collect());
        }
    };
    let r = rate_games(list, &Options::new(method))?;
    Ok((0..n).map(|i| rating_value(&r, i)).collect())
}

fn picture_format(out: &Path) -> anyhow::Result<ImageFormat> {
    ImageFormat::from_path(out)
        .with_context(|| format!("{}: give a file ending in .png or .svg", out.display()))
}

fn write(out: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(out, bytes).with_context(|| format!("writing {}", out.display()))
}

fn matrix(args: &MatrixArgs) -> anyhow::Result<ExitCode> {
    let format = picture_format(&args.out)?;
    let results = load(&args.source.db, args.source.tournament.as_deref())?;
    let table = &results.table;
    let list = game_list(table, &results.rows);
    let (keys, sorted_by) = match rate(args.by, &list) {
        Ok(values) if values.iter().all(Option::is_some) => (
            values
                .iter()
                .map(|v| v.map_or(f64::NEG_INFINITY, |v| v.value))
                .collect(),
            format!("{} rating", args.by.name()),
        ),
        Ok(_) => {
            eprintln!(
                "note: {} does not rate every player; sorting by score",
                args.by.name()
            );
            (table.score_fractions(), "score".to_owned())
        }
        Err(e) => {
            eprintln!(
                "note: {} cannot rate these results ({e:#}); sorting by score",
                args.by.name()
            );
            (table.score_fractions(), "score".to_owned())
        }
    };
    let sorted_by = if args.by == SortKey::Score {
        "score".to_owned()
    } else {
        sorted_by
    };
    let sorted = table.reordered(&table.weakest_first(&keys)?)?;
    let (bytes, layout) = outcome_matrix(
        &sorted,
        &MatrixOptions {
            cell: args.cell,
            sorted_by,
        },
        format,
    )?;
    write(&args.out, &bytes)?;
    eprintln!(
        "outcome matrix of {} players ({} games) written to {} ({}×{} px)",
        table.len(),
        table.total_games(),
        args.out.display(),
        layout.width,
        layout.height
    );
    Ok(ExitCode::SUCCESS)
}

/// Returns each player's uscf history in `rows`: the initial rating, then one after each game.
fn histories(table: &OutcomeTable, rows: &[ResultRow], run: Option<&str>) -> Vec<RatingHistory> {
    let Ok(Detail::Uscf(rated)) =
        rate_games(&game_list(table, rows), &Options::new(Method::Uscf)).map(|r| r.detail)
    else {
        return Vec::new();
    };
    let ids: Vec<Option<usize>> = (0..table.len()).map(Some).collect();
    uscf_histories(
        table.players(),
        &ids,
        &rated,
        UscfConfig::new().initial_rating,
        run,
    )
}

fn evolution(args: &EvolutionArgs) -> anyhow::Result<ExitCode> {
    let format = picture_format(&args.out)?;
    let mut runs: Vec<(String, Vec<ResultRow>)> = Vec::new();
    for db in &args.db {
        let results = load(db, args.tournament.as_deref())?;
        for t in &results.tournaments {
            let rows: Vec<ResultRow> = results
                .rows
                .iter()
                .filter(|r| r.tournament == t.name)
                .cloned()
                .collect();
            if !rows.is_empty() {
                let name = if args.db.len() > 1 {
                    format!("{db}: {}", t.name)
                } else {
                    t.name.clone()
                };
                runs.push((name, rows));
            }
        }
    }
    let several = runs.len() > 1;
    let mut all = Vec::new();
    for (name, rows) in &runs {
        let table = OutcomeTable::from_games(
            &[],
            rows.iter()
                .map(|r| (r.white.as_str(), r.black.as_str(), r.result.first_score())),
        );
        all.extend(histories(&table, rows, several.then_some(name.as_str())));
    }
    let options = EvolutionOptions {
        width: args.width,
        height: args.height,
        ..EvolutionOptions::new()
    };
    let bytes = evolution_plot(&all, &options, format)?;
    write(&args.out, &bytes)?;
    eprintln!(
        "rating evolution of {} run{} written to {}",
        runs.len(),
        if runs.len() == 1 { "" } else { "s" },
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Returns the asterisk table of the games of `list`.
fn asterisk_text(
    title: &str,
    list: &Games,
    method: SortKey,
    options: &AsteriskOptions,
) -> anyhow::Result<String> {
    let ratings =
        rate(method, list).with_context(|| format!("rating {title} by {}", method.name()))?;
    let mut points = vec![0.0; list.player_count()];
    for g in list.games() {
        points[g.first.index()] += g.score.points();
        points[g.second.index()] += 1.0 - g.score.points();
    }
    let rows: Vec<AsteriskRow> = list
        .names()
        .iter()
        .zip(ratings)
        .zip(points)
        .filter_map(|((name, r), points)| {
            r.map(|r| AsteriskRow {
                player: name.clone(),
                rating: r.value,
                points,
            })
        })
        .collect();
    Ok(asterisk_table(title, &rows, options))
}

fn table(args: &TableArgs) -> anyhow::Result<ExitCode> {
    let options = AsteriskOptions {
        width: args.width,
        floor: args.floor,
    };
    let results = load(&args.source.db, args.source.tournament.as_deref())?;
    let mut text = String::new();
    if args.by_year {
        let list = game_list(&results.table, &results.rows);
        let periods: Vec<i32> = list.periods().into_iter().flatten().collect();
        let title = match (periods.first(), periods.last()) {
            (Some(a), Some(b)) if a != b => format!("{a}-{b} combined"),
            (Some(a), _) => format!("{a}"),
            _ => "all games".to_owned(),
        };
        text.push_str(&asterisk_text(&title, &list, args.method, &options)?);
        if periods.len() > 1 {
            for y in periods.iter().rev() {
                text.push('\n');
                text.push_str(&asterisk_text(
                    &y.to_string(),
                    &list.period(Some(*y)),
                    args.method,
                    &options,
                )?);
            }
        }
    } else {
        let list = game_list(&results.table, &results.rows);
        let names: Vec<&str> = results
            .tournaments
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        text.push_str(&asterisk_text(
            &names.join(", "),
            &list,
            args.method,
            &options,
        )?);
    }
    match &args.out {
        Some(path) => write(path, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Rates by every method; a method that cannot rate these results is left out with a note.
fn rating_columns(list: &Games, notes: &mut Vec<String>) -> Vec<RatingColumn> {
    let ids: Vec<Option<usize>> = (0..list.player_count()).map(Some).collect();
    let mut columns = Vec::new();
    for method in Method::ALL {
        match rate_games(list, &Options::new(method)) {
            Ok(r) => columns.push(rating_column(method, &r, &ids)),
            Err(e) => notes.push(format!("{}: not shown ({e:#})", method.name())),
        }
    }
    columns
}

/// Picks up to `per_pair` games of each unordered pair, at most `max` in all, spread over the pairs.
fn sample_games(games: &[GameRow], per_pair: usize, max: usize, db: &str) -> Vec<SampleGame> {
    let mut by_pair: BTreeMap<(&str, &str), Vec<&GameRow>> = BTreeMap::new();
    for g in games {
        let key = if g.white <= g.black {
            (g.white.as_str(), g.black.as_str())
        } else {
            (g.black.as_str(), g.white.as_str())
        };
        let list = by_pair.entry(key).or_default();
        if list.len() < per_pair {
            list.push(g);
        }
    }
    let mut picked: Vec<&GameRow> = Vec::new();
    for round in 0..per_pair {
        for list in by_pair.values() {
            if picked.len() < max {
                if let Some(g) = list.get(round) {
                    picked.push(g);
                }
            }
        }
    }
    picked.sort_by_key(|g| (g.white.clone(), g.black.clone(), g.job_id));
    picked
        .into_iter()
        .map(|g| {
            let text = game_text(g, db);
            let diagram = replay(g).final_diagram();
            SampleGame {
                white: g.white.clone(),
                black: g.black.clone(),
                result: g.result.pgn().to_owned(),
                termination: g.termination.code().to_owned(),
                plies: g.plies,
                text,
                diagram,
            }
        })
        .collect()
}

fn html(args: &HtmlArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let picture_format = match args.pictures.as_str() {
        "svg" => ImageFormat::Svg,
        "png" => ImageFormat::Png,
        other => bail!("--pictures {other:?}: expected svg or png"),
    };
    let db = &args.source.db;
    let tournament = args.source.tournament.as_deref();
    let results = load(db, tournament)?;
    let table = results.table;
    // Sample games (the slowest read: every stored move) are read while the ratings run.
    let (samples, (ratings, histories, consistency, notes)) = std::thread::scope(|scope| {
        let reader = scope.spawn(|| -> anyhow::Result<Vec<SampleGame>> {
            if args.samples_per_pair == 0 || args.max_samples == 0 {
                return Ok(Vec::new());
            }
            let games = open_store(db, false)?.games(tournament)?;
            Ok(sample_games(
                &games,
                args.samples_per_pair,
                args.max_samples,
                db,
            ))
        });
        let list = game_list(&table, &results.rows);
        let mut notes = Vec::new();
        let ratings = rating_columns(&list, &mut notes);
        let uscf = rate_games(&list, &Options::new(Method::Uscf))
            .map(|r| r.values)
            .unwrap_or_else(|_| vec![f64::NAN; list.player_count()]);
        let consistency: Vec<ConsistencyRow> =
            eloworld_ratings::consistency::consistency(&list.counts(), &uscf)
                .pairs
                .iter()
                .map(|p| ConsistencyRow {
                first: table.players()[p.p].clone(),
                second: table.players()[p.q].clone(),
                games: p.games,
                #[allow(clippy::cast_precision_loss)] // game counts stay far below 2^52
                observed: p.score / p.games.max(1) as f64,
                predicted: p.expected_score,
            })
                .collect();
        let histories = histories(&table, &results.rows, None);
        let samples = reader
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("reading sample games panicked")));
        (samples, (ratings, histories, consistency, notes))
    });
    let samples = samples.context("reading sample games")?;
    let mut settings = vec![("database".to_owned(), db.clone())];
    for t in &results.tournaments {
        settings.push((
            format!("tournament {}", t.name),
            format!(
                "{}; {} players; {} of {} games stored; created {} by eloworld {}",
                t.game,
                t.players.len(),
                t.done,
                t.total,
                t.created,
                t.program_version
            ),
        ));
    }
    settings.push((
        "games in this report".to_owned(),
        table.total_games().to_string(),
    ));
    settings.push((
        "report written by".to_owned(),
        format!("eloworld {}", env!("CARGO_PKG_VERSION")),
    ));
    let config = (results.tournaments.len() == 1).then(|| results.tournaments[0].config.clone());
    let title = format!(
        "eloworld report: {}",
        results
            .tournaments
            .iter()
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let report = HtmlReport {
        title,
        settings,
        config,
        table,
        ratings,
        histories,
        consistency,
        consistency_source: "uscf".to_owned(),
        samples,
        notes,
        picture_format,
    };
    let page = html_report(&report)?;
    write(&args.out, page.as_bytes())?;
    eprintln!(
        "report of {} players and {} games written to {} ({} KiB, {:.2} s)",
        report.table.len(),
        report.table.total_games(),
        args.out.display(),
        page.len() / 1024,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
