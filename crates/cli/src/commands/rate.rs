//! `eloworld rate`: every rating method side by side, or one in detail, over a tournament
//! database, a PGN file or a CSV file. The ratings come from `eloworld_ratings::rate` /
//! `rate_all`; the request and its tables are `eloworld_app::rate`'s; this file
//! only parses and renders.

use crate::rating_table::Render;
use eloworld_app::rate::{rate, rate_stored, RateRequest, Rated, RatedPeriod};
use eloworld_app::rating::Choice;
use eloworld_app::rating_tables::Table;
use eloworld_ratings::predict::CrossValidation;
use eloworld_ratings::{mle::DrawModel, uscf::UscfConfig, Anchor, Method};
use eloworld_tournament::ResultRow;
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
    #[arg(long)]
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
    #[arg(long)]
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
    let request = RateRequest {
        ladder: args.ladder.as_deref(),
        pgn: args.pgn.as_deref(),
        csv: args.csv.as_deref(),
        db: args.db.as_deref(),
        tournament: args.tournament.as_deref(),
        case_sensitive: args.case_sensitive,
        keep_copies: args.keep_copies,
        method: args.method,
        by_year: args.by_year,
        anchor: args
            .anchor
            .clone()
            .map(|(player, rating)| Anchor { player, rating }),
        consistency: args.consistency,
        los: args.los,
        family: args.family.clone(),
        truth: args.truth.as_deref(),
        draw_model: match args.draw_model {
            DrawModelArg::Half => DrawModel::HalfPoint,
            DrawModelArg::Davidson => DrawModel::Davidson,
        },
        white_advantage: &args.white_advantage,
        bootstrap: args.bootstrap,
        newton_steps: args.newton_steps,
        uscf: UscfConfig {
            initial_rating: args.initial_rating,
            prior_games: args.prior_games,
        },
        repetitions: args.repetitions,
        seed: args.seed,
        predict: args.predict,
    };
    let outcome = rate(&request, &mut |note| eprintln!("note: {note}"))?;
    let periods = match outcome.rated {
        Rated::Prediction { cv, table } => return print_prediction(&cv, &table, args.format),
        Rated::Periods(periods) => periods,
    };
    let mut documents = Vec::new();
    for (k, RatedPeriod { title, tables }) in periods.iter().enumerate() {
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
                for t in tables {
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
                for t in tables {
                    for n in &t.notes {
                        eprintln!("{n}");
                    }
                }
                let tables: Vec<serde_json::Value> = tables.iter().map(Table::json).collect();
                let mut document = serde_json::json!({ "period": title, "tables": tables });
                if let (Some(copies), false) = (&outcome.copies, args.by_year) {
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

/// `rate --predict K`: the cross-validation table, best first.
fn print_prediction(cv: &CrossValidation, t: &Table, format: Format) -> anyhow::Result<ExitCode> {
    match format {
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
    let rated = rate_stored(rows)?;
    let mut text = rated
        .tables
        .iter()
        .map(Table::text)
        .collect::<Vec<_>>()
        .join("\n");
    if let Some(note) = rated.copies_note {
        text.push_str(&format!("note: {note}\n"));
    }
    Ok(text)
}
