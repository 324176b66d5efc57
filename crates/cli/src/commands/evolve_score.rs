//! `eloworld evolve score-imitation`: how often a parameter set's 1-ply search plays the
//! grandmaster's move, on the training and the test positions of `evolve imitate` — the
//! figure of David, Koppel and Netanyahu's phase 1 (section III.B; Fig. 3's parameters match
//! 26.7% of the test moves there, the evolved organism 32.4% of training and 30.4% of test).

use anyhow::Context;
use eloworld_evolution::{score_imitation, ImitationScore, ScoreSettings};
use eloworld_evolve::engine::one_ply::OnePlyScoring;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Where the grandmaster positions come from, for `evolve imitate` and `evolve score-imitation`.
#[derive(clap::Args, Debug)]
pub(crate) struct GmPositions {
    /// Directory of grandmaster games (every *.pgn in it).
    #[arg(long, default_value = "data/pgn")]
    pub(crate) pgn_dir: PathBuf,
    /// Least Elo of both players.
    #[arg(long, default_value_t = 2600)]
    pub(crate) min_elo: u32,
    /// Positions drawn from each game (the paper took 1 from each of 10,000 games; we have ~630 decisive ones).
    #[arg(long, default_value_t = 16)]
    pub(crate) per_game: usize,
}

impl GmPositions {
    pub(crate) fn settings(&self) -> eloworld_evolution::GmPositions {
        eloworld_evolution::GmPositions {
            pgn_dir: self.pgn_dir.clone(),
            min_elo: self.min_elo,
            per_game: self.per_game,
        }
    }
}

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
    source: GmPositions,
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

pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    let scoring = if a.static_eval {
        OnePlyScoring::Static
    } else {
        OnePlyScoring::Quiescence
    };
    let settings = ScoreSettings {
        eval: a.eval.clone(),
        positions: a.positions,
        source: a.source.settings(),
        scoring,
    };
    let started = Instant::now();
    let ImitationScore { loaded, scores } = score_imitation(&settings)?;
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
    eprintln!(
        "{} [{:.1} s]; the paper: Fig. 3's parameters 26.7% of test moves, its evolved organism 32.4% train / 30.4% test",
        settings.describe(),
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
