//! `eloworld evolve score-imitation`: how often a parameter set's 1-ply search plays the
//! grandmaster's move, on the training and the test positions of `evolve imitate` — the
//! figure of David, Koppel and Netanyahu's phase 1 (section III.B; Fig. 3's parameters match
//! 26.7% of the test moves there, the evolved organism 32.4% of training and 30.4% of test).

use anyhow::{bail, Context};
use eloworld_evolve::engine::one_ply::{OnePlyScoring, Weights};
use eloworld_evolve::engine::EvalParams;
use eloworld_evolve::imitate::{self, DatasetConfig, PositionSet};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Score one evaluation (default Fig. 3's) on the phase-1 positions: match % on train and test.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The evaluation parameters (`NAME = value` lines, as `evolve imitate` writes them);
    /// default: Fig. 3's.
    #[arg(long)]
    eval: Option<PathBuf>,
    /// Most positions in each of the training and test sets (the paper: 5,000 each).
    #[arg(long, default_value_t = 5000)]
    positions: usize,
    #[command(flatten)]
    source: crate::commands::evolve::GmPositions,
    /// Score each move by the static evaluation instead of quiescence.
    #[arg(long = "static")]
    static_eval: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: ScoreFormat,
}

/// How the two lines are printed.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ScoreFormat {
    /// One line per set.
    Text,
    /// A header and one row per set.
    Csv,
    /// One JSON object.
    Json,
}

/// The score of one set.
struct SetScore {
    name: &'static str,
    matched: usize,
    positions: usize,
}

impl SetScore {
    fn percent(&self) -> f64 {
        #[allow(clippy::cast_precision_loss)] // position counts are small
        let (m, n) = (self.matched as f64, self.positions.max(1) as f64);
        100.0 * m / n
    }
}

pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    if a.positions == 0 {
        bail!("--positions must be at least 1");
    }
    let params = match &a.eval {
        None => EvalParams::default(),
        Some(p) => {
            let text =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            EvalParams::from_text(&text, &p.display().to_string())?
        }
    };
    let config = DatasetConfig {
        min_elo: a.source.min_elo,
        per_game: a.source.per_game,
        max_train: a.positions,
        max_test: a.positions,
        ..DatasetConfig::new()
    };
    let started = Instant::now();
    let loaded = imitate::load_dataset(&a.source.pgn_dir, &config)?;
    eprintln!(
        "{} games read, {} decisive with both players rated >= {}: {} training positions (from {} games), {} test (from {} other games)",
        loaded.report.games,
        loaded.report.decisive,
        a.source.min_elo,
        loaded.data.train.len(),
        loaded.data.train_games,
        loaded.data.test.len(),
        loaded.data.test_games
    );
    let scoring = if a.static_eval {
        OnePlyScoring::Static
    } else {
        OnePlyScoring::Quiescence
    };
    let weights = [Weights::new(&params)];
    let score = |name, set: &PositionSet| SetScore {
        name,
        matched: set.matches_each(&weights, scoring)[0],
        positions: set.len(),
    };
    let scores = [
        score("train", &loaded.data.train),
        score("test", &loaded.data.test),
    ];
    let what = a.eval.as_ref().map_or_else(
        || "Fig. 3's parameters".to_owned(),
        |p| p.display().to_string(),
    );
    let how = match scoring {
        OnePlyScoring::Quiescence => "1-ply search with quiescence",
        OnePlyScoring::Static => "1-ply search, static evaluation",
    };
    eprintln!(
        "{what}, {how} [{:.1} s]; the paper: Fig. 3's parameters 26.7% of test moves, its evolved organism 32.4% train / 30.4% test",
        started.elapsed().as_secs_f64()
    );
    let mut out = String::new();
    match a.format {
        ScoreFormat::Text => {
            for s in &scores {
                out.push_str(&format!(
                    "{:<5}  {:>5} of {:>5} grandmaster moves matched  {:>5.1}%\n",
                    s.name,
                    s.matched,
                    s.positions,
                    s.percent()
                ));
            }
        }
        ScoreFormat::Csv => {
            out.push_str("set,matched,positions,percent\n");
            for s in &scores {
                out.push_str(&format!(
                    "{},{},{},{:.2}\n",
                    s.name,
                    s.matched,
                    s.positions,
                    s.percent()
                ));
            }
        }
        ScoreFormat::Json => {
            let mut doc = serde_json::Map::new();
            for s in &scores {
                doc.insert(
                    s.name.to_owned(),
                    serde_json::json!({
                        "matched": s.matched,
                        "positions": s.positions,
                        "percent": (s.percent() * 100.0).round() / 100.0,
                    }),
                );
            }
            out.push_str(&serde_json::Value::Object(doc).to_string());
            out.push('\n');
        }
    }
    match std::io::stdout().lock().write_all(out.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        r => {
            r.context("writing to standard output")?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
