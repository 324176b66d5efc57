//! `eloworld report`: pictures and reports from a results database — the outcome matrix, the
//! rating-evolution plot, the asterisk table and the HTML report. Reads results and rates
//! them; never plays a game.

use anyhow::{bail, Context};
use eloworld_app::report::{assemble_html, histories, load_results, rating_value, HtmlSettings};
use eloworld_ratings::{rate as rate_games, Games, Method, Options};
use eloworld_report::{
    asterisk_table, evolution_plot, html_report, outcome_matrix, AsteriskOptions, AsteriskRow,
    EvolutionOptions, ImageFormat, MatrixOptions, OutcomeTable, RatingValue,
};
use eloworld_tournament::ResultRow;
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

/// Says on standard error how many copies of earlier games the results hold (the ratings
/// count each once; the outcome tables count every stored game).
fn note_copies(copies: &eloworld_tournament::Copies) {
    if let Some(note) = copies.note(
        eloworld_tournament::CopyRule::CountOnce,
        eloworld_app::report::COPY_PAIRS_SHOWN,
    ) {
        eprintln!("note: {note}");
    }
}

fn write(out: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(out, bytes).with_context(|| format!("writing {}", out.display()))
}

fn matrix(args: &MatrixArgs) -> anyhow::Result<ExitCode> {
    let format = picture_format(&args.out)?;
    let results = load_results(&args.source.db, args.source.tournament.as_deref())?;
    note_copies(&results.copies);
    let table = &results.table;
    let list = results.games();
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

fn evolution(args: &EvolutionArgs) -> anyhow::Result<ExitCode> {
    let format = picture_format(&args.out)?;
    let mut runs: Vec<(String, Vec<ResultRow>)> = Vec::new();
    for db in &args.db {
        let results = load_results(db, args.tournament.as_deref())?;
        note_copies(&results.copies);
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
    let results = load_results(&args.source.db, args.source.tournament.as_deref())?;
    note_copies(&results.copies);
    let mut text = String::new();
    if args.by_year {
        let list = results.games();
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
        let list = results.games();
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

fn html(args: &HtmlArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let pictures = match args.pictures.as_str() {
        "svg" => ImageFormat::Svg,
        "png" => ImageFormat::Png,
        other => bail!("--pictures {other:?}: expected svg or png"),
    };
    let (report, copies) = assemble_html(&HtmlSettings {
        db: args.source.db.clone(),
        tournament: args.source.tournament.clone(),
        samples_per_pair: args.samples_per_pair,
        max_samples: args.max_samples,
        pictures,
    })?;
    note_copies(&copies);
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
