//! `eloworld report`: pictures and reports from a results database — the outcome matrix, the
//! rating-evolution plot, the asterisk table and the HTML report. Reads results and rates
//! them; never plays a game.

use anyhow::{bail, Context};
use eloworld_app::report::{assemble_html, load_results, HtmlSettings};
use eloworld_app::report_views::{
    asterisk_tables, evolution_runs, matrix_order, Fallback, SortKey,
};
use eloworld_report::{
    evolution_plot, html_report, outcome_matrix, AsteriskOptions, EvolutionOptions, ImageFormat,
    MatrixOptions,
};
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

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.what {
        What::Matrix(a) => matrix(&a),
        What::Evolution(a) => evolution(&a),
        What::Table(a) => table(&a),
        What::Html(a) => html(&a),
    }
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
    let order = matrix_order(&results, args.by)?;
    match order.fallback {
        Some(Fallback::Unrated) => eprintln!(
            "note: {} does not rate every player; sorting by score",
            args.by.name()
        ),
        Some(Fallback::Failed(e)) => eprintln!(
            "note: {} cannot rate these results ({:#}); sorting by score",
            args.by.name(),
            anyhow::Error::from(e)
        ),
        None => {}
    }
    let (bytes, layout) = outcome_matrix(
        &order.sorted,
        &MatrixOptions {
            cell: args.cell,
            sorted_by: order.sorted_by,
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
    let runs = evolution_runs(&args.db, args.tournament.as_deref())?;
    runs.copies.iter().for_each(note_copies);
    let options = EvolutionOptions {
        width: args.width,
        height: args.height,
        ..EvolutionOptions::new()
    };
    let bytes = evolution_plot(&runs.histories, &options, format)?;
    write(&args.out, &bytes)?;
    eprintln!(
        "rating evolution of {} run{} written to {}",
        runs.runs,
        if runs.runs == 1 { "" } else { "s" },
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn table(args: &TableArgs) -> anyhow::Result<ExitCode> {
    let options = AsteriskOptions {
        width: args.width,
        floor: args.floor,
    };
    let results = load_results(&args.source.db, args.source.tournament.as_deref())?;
    note_copies(&results.copies);
    let text = asterisk_tables(&results, args.method, args.by_year, &options)?;
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
