//! `eloworld train-blind`: fit the blind players' model (Murphy's Elo World, section 2.4;
//! "Color- and piece-blind chess", SIGBOVIK 2019) on the positions of PGN games, and report
//! how well it predicts held-out games' positions next to the paper's network.
//!
//! Two models: `--model mlp` (the default), a small neural network trained with candle
//! (see [`mlp`]); `--model linear`, per square a multinomial logistic regression
//! (linfa-logistic, L-BFGS with an L2 penalty) predicting the piece on the square from the
//! 64 occupancy bits, fitted on the training positions where the square is occupied, and one
//! binary logistic regression for the side to move.

mod mlp;

use anyhow::{bail, Context};
use eloworld_games::chess::input::{self, PgnReader};
use eloworld_players::blind::dataset::{collect, Collected, Sample};
use eloworld_players::blind::model::{class_of, CLASSES, INPUTS, NEVER, ROW};
use eloworld_players::blind::{Accuracy, BlindModel, KingRule, ModelKind};
use linfa::prelude::*;
use linfa_logistic::{LogisticRegression, MultiLogisticRegression};
use ndarray::{Array1, Array2, Axis};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Murphy's network on 50,000 held-out lichess positions ("Color- and piece-blind chess"):
/// piece mistakes per position and positions predicted exactly, without and with the rule
/// of one king per side.
const PAPER: [(&str, f64, f64); 2] = [("free", 3.22, 19.17), ("one king per side", 3.26, 19.28)];

/// Which model `train-blind` fits.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelChoice {
    /// A small neural network (candle, AdamW).
    Mlp,
    /// Logistic regressions per square (linfa, L-BFGS).
    Linear,
}

/// Train the blind players' model on PGN games and report its held-out accuracy.
#[derive(clap::Args, Debug)]
pub struct Args {
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

/// Returns the PGN files `paths` name: files as they are, directories' `*.pgn` sorted.
fn pgn_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            files.extend(input::pgn_files(path)?);
        } else {
            files.push(path.clone());
        }
    }
    if files.is_empty() {
        bail!(
            "no PGN file in {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(files)
}

fn read_samples(files: &[PathBuf], stride: usize) -> anyhow::Result<(Vec<Sample>, Collected)> {
    let mut collected = Collected::default();
    let mut samples = Vec::new();
    for path in files {
        collect(PgnReader::open(path)?, stride, &mut collected, &mut samples)?;
    }
    Ok((samples, collected))
}

/// The occupancy bits of samples, one row each.
fn masks(samples: &[&Sample]) -> Array2<f64> {
    let mut x = Array2::zeros((samples.len(), INPUTS));
    for (i, s) in samples.iter().enumerate() {
        for sq in s.board.occupied() {
            x[[i, usize::from(sq)]] = 1.0;
        }
    }
    x
}

/// Fits the classifier of one square; returns its 12 rows of 64 weights and an intercept.
fn fit_square(
    square: usize,
    x: &Array2<f64>,
    samples: &[&Sample],
    args: &Args,
) -> anyhow::Result<Vec<f32>> {
    let sq = shakmaty::Square::new(square as u32);
    let rows: Vec<usize> = (0..samples.len())
        .filter(|&i| samples[i].board.occupied().contains(sq))
        .collect();
    let targets: Array1<usize> = rows
        .iter()
        .map(|&i| samples[i].board.piece_at(sq).map_or(0, class_of))
        .collect();
    let mut weights = vec![0.0f32; CLASSES * ROW];
    for class in 0..CLASSES {
        weights[class * ROW + INPUTS] = NEVER;
    }
    let mut seen: Vec<usize> = targets.to_vec();
    seen.sort_unstable();
    seen.dedup();
    match seen.as_slice() {
        [] => return Ok(weights),
        [only] => {
            weights[only * ROW + INPUTS] = 0.0;
            return Ok(weights);
        }
        _ => {}
    }
    let records = x.select(Axis(0), &rows);
    let dataset = Dataset::new(records, targets);
    let fitted = MultiLogisticRegression::default()
        .alpha(args.alpha)
        .max_iterations(args.iterations)
        .fit(&dataset)
        .with_context(|| format!("fitting square {sq}"))?;
    for (k, &class) in fitted.classes().iter().enumerate() {
        for j in 0..INPUTS {
            weights[class * ROW + j] = fitted.params()[[j, k]] as f32;
        }
        weights[class * ROW + INPUTS] = fitted.intercept()[k] as f32;
    }
    Ok(weights)
}

/// Fits the side-to-move classifier: the logit of White to move.
fn fit_turn(x: &Array2<f64>, samples: &[&Sample], args: &Args) -> anyhow::Result<[f32; ROW]> {
    let targets: Array1<usize> = samples
        .iter()
        .map(|s| usize::from(s.turn == shakmaty::Color::White))
        .collect();
    let fitted = LogisticRegression::default()
        .alpha(args.alpha)
        .max_iterations(args.iterations)
        .fit(&Dataset::new(x.clone(), targets))
        .context("fitting the side to move")?;
    // linfa labels the larger class (1, White) positive.
    let sign = if fitted.labels().pos.class == 1 {
        1.0
    } else {
        -1.0
    };
    let mut row = [0.0f32; ROW];
    for (w, &p) in row.iter_mut().zip(fitted.params().iter()) {
        *w = (sign * p) as f32;
    }
    row[INPUTS] = (sign * fitted.intercept()) as f32;
    Ok(row)
}

fn fit_model(train: &[&Sample], args: &Args) -> anyhow::Result<BlindModel> {
    let x = masks(train);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Vec<f32>>>> = Mutex::new(vec![None; 64]);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| loop {
                let square = next.fetch_add(1, Ordering::Relaxed);
                if square >= 64 {
                    break;
                }
                match fit_square(square, &x, train, args) {
                    Ok(w) => {
                        if let Ok(mut r) = results.lock() {
                            r[square] = Some(w);
                        }
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        eprint!("\rfitted {n}/64 squares");
                    }
                    Err(e) => {
                        if let Ok(mut f) = failure.lock() {
                            f.get_or_insert(e);
                        }
                        next.store(64, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    eprintln!();
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut squares = Vec::with_capacity(64 * CLASSES * ROW);
    for w in results.into_inner().unwrap_or_default() {
        squares.extend(w.context("a square was not fitted")?);
    }
    let turn = fit_turn(&x, train, args)?;
    let positions = u32::try_from(train.len()).unwrap_or(u32::MAX);
    BlindModel::new(positions, squares, turn).context("the fitted model")
}

fn evaluate(model: &BlindModel, test: &[&Sample]) -> [Accuracy; 2] {
    let mut out = [Accuracy::default(); 2];
    for (acc, rule) in out.iter_mut().zip([KingRule::Free, KingRule::OnePerSide]) {
        for s in test {
            let p = model.unblind(s.board.occupied(), rule);
            acc.add(&s.board, s.turn, p.as_ref());
        }
    }
    out
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

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
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
        ModelChoice::Linear => fit_model(&train, &args)?,
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
    write(&model, &args.out)?;
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

fn write(model: &BlindModel, path: &Path) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    model
        .write(path)
        .with_context(|| format!("writing {}", path.display()))
}
