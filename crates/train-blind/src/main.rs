//! `eloworld-train-blind`: fit the blind players' model (Murphy's Elo World, section 2.4)
//! on the positions of PGN games, and report how well it predicts held-out games' positions
//! next to the paper's network. The training is this crate's library; this file reads the
//! options and prints. A program of its own so that the `eloworld` binary carries no ML
//! stack (candle, linfa) it would use only to train.
#![expect(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a program: it prints its report and progress (the library never does)"
)]

use anyhow::{bail, Context};
use clap::Parser;
use eloworld_players::blind::dataset::Sample;
use eloworld_players::blind::{Accuracy, BlindModel, ModelKind};
use eloworld_train_blind::{evaluate, linear, mlp, pgn_files, read_samples, write, PAPER};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Which model `train-blind` fits.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ModelChoice {
    /// A small neural network (candle, AdamW).
    Mlp,
    /// Logistic regressions per square (linfa, L-BFGS).
    Linear,
}

/// Train the blind players' model on PGN games and report its held-out accuracy.
#[derive(Parser, Debug)]
#[command(name = "eloworld-train-blind", version)]
struct Args {
    /// PGN files, or directories whose `*.pgn` files are read.
    #[arg(default_value = "data/pgn", value_name = "PGN")]
    pgn: Vec<PathBuf>,
    /// More PGN files or directories to train on, none of whose games is held out.
    #[arg(long, value_name = "PGN")]
    extra: Vec<PathBuf>,
    /// Where to write the model (give it to a player as `blind_kings:model=FILE`).
    #[arg(long, default_value = "data/blind/model.bin", value_name = "FILE")]
    out: PathBuf,
    /// The model to train.
    #[arg(long, value_enum, default_value_t = ModelChoice::Mlp)]
    model: ModelChoice,
    /// Keep every Nth position of the games (1 keeps all; default 24 for `--model linear`,
    /// else 1).
    #[arg(long)]
    stride: Option<usize>,
    /// Hold out every Nth game for testing (never trained on).
    #[arg(long, default_value_t = 10)]
    hold_out: u32,
    /// Linear: the L2 penalty of the regressions.
    #[arg(long, default_value_t = 1e-3)]
    alpha: f64,
    /// Linear: L-BFGS iterations per regression.
    #[arg(long, default_value_t = 20)]
    iterations: u64,
    /// Linear: threads fitting squares in parallel.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Network: hidden layer widths.
    #[arg(long, value_delimiter = ',', default_value = "256,256")]
    hidden: Vec<usize>,
    /// Network: passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Network: positions per optimiser step.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Network: AdamW's starting learning rate (decayed linearly to a tenth).
    #[arg(long, default_value_t = 2e-3)]
    learning_rate: f64,
    /// Network: AdamW's weight decay.
    #[arg(long, default_value_t = 1e-4)]
    weight_decay: f64,
    /// Network: seeds the initial weights and the order of positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only measure this model on the held-out positions; train nothing.
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    evaluate: Option<PathBuf>,
}

fn report(accuracy: &[Accuracy; 2]) {
    println!(
        "held-out positions: {} ({} occupied squares)",
        accuracy[0].positions, accuracy[0].occupied
    );
    println!(
        "{:<20} {:>9} {:>11} {:>10} {:>9} {:>10} | {:>16} {:>12}",
        "kings",
        "square %",
        "occupied %",
        "mistakes",
        "exact %",
        "to-move %",
        "paper mistakes",
        "paper exact %"
    );
    for (acc, (rule, mistakes, exact)) in accuracy.iter().zip(PAPER) {
        println!(
            "{rule:<20} {:>9.2} {:>11.2} {:>10.2} {:>9.2} {:>10.2} | {mistakes:>16.2} {exact:>12.2}",
            100.0 * acc.square_accuracy(),
            100.0 * acc.occupied_accuracy(),
            acc.mistakes_per_position(),
            100.0 * acc.exact_share(),
            100.0 * acc.turn_share(),
        );
    }
    println!("(square %: all 64 squares, empty ones always right; the paper's network: {:.2}% and {:.2}%)",
        100.0 * (1.0 - PAPER[0].1 / 64.0),
        100.0 * (1.0 - PAPER[1].1 / 64.0));
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.hold_out < 2 {
        bail!("--hold-out must be at least 2 (every Nth game is held out)");
    }
    let stride = args.stride.unwrap_or(
        if args.model == ModelChoice::Linear && args.evaluate.is_none() {
            24
        } else {
            1
        },
    );
    let files = pgn_files(&args.pgn)?;
    let started = Instant::now();
    let (samples, collected) = read_samples(&files, stride)?;
    let (test, mut train): (Vec<&Sample>, Vec<&Sample>) = samples
        .iter()
        .partition(|s| s.game.is_multiple_of(args.hold_out));
    eprintln!(
        "read {} games ({} skipped) from {} file(s): {} training and {} held-out positions (every {} position(s), every {} game(s) held out) in {:.1} s",
        collected.games,
        collected.skipped,
        files.len(),
        train.len(),
        test.len(),
        stride,
        args.hold_out,
        started.elapsed().as_secs_f64()
    );
    let extra_samples = if args.extra.is_empty() || args.evaluate.is_some() {
        Vec::new()
    } else {
        let files = pgn_files(&args.extra)?;
        let (extra, collected) = read_samples(&files, stride)?;
        eprintln!(
            "read {} more games ({} skipped) from {} file(s): {} more training positions",
            collected.games,
            collected.skipped,
            files.len(),
            extra.len()
        );
        extra
    };
    train.extend(extra_samples.iter());
    if let Some(path) = &args.evaluate {
        let model =
            BlindModel::read(path).with_context(|| format!("reading {}", path.display()))?;
        report(&evaluate(&model, &test));
        return Ok(ExitCode::SUCCESS);
    }
    if train.is_empty() || test.is_empty() {
        bail!(
            "too few positions to train and test on ({} games read)",
            collected.games
        );
    }
    let fitting = Instant::now();
    let model = match args.model {
        ModelChoice::Linear => {
            let fitting = linear::Fitting {
                alpha: args.alpha,
                iterations: args.iterations,
                threads: args.threads,
            };
            let model = linear::fit(&train, &fitting, |n| eprint!("\rfitted {n}/64 squares"));
            eprintln!();
            model?
        }
        ModelChoice::Mlp => {
            let training = mlp::Training {
                hidden: args.hidden.clone(),
                epochs: args.epochs,
                batch: args.batch,
                learning_rate: args.learning_rate,
                weight_decay: args.weight_decay,
                seed: args.seed,
            };
            mlp::train(&train, &training, |line| eprintln!("{line}"))?.export()?
        }
    };
    eprintln!("fitted in {:.1} s", fitting.elapsed().as_secs_f64());
    write(&model, &args.out).with_context(|| format!("writing {}", args.out.display()))?;
    println!(
        "wrote {} ({} model, trained on {} positions)",
        args.out.display(),
        match model.kind() {
            ModelKind::Linear => "linear",
            ModelKind::Mlp => "neural network",
        },
        train.len()
    );
    report(&evaluate(&model, &test));
    Ok(ExitCode::SUCCESS)
}
