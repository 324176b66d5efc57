//! `eloworld synth`: games simulated from known strengths, as PGN or CSV, with the strengths
//! beside them (for studying rating methods and for the rating benchmark).

use anyhow::{bail, Context};
use eloworld_ratings::synth::{simulate, SynthConfig};
use eloworld_ratings::Score;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Simulate games between players of known strength (logistic/Davidson model).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Number of players (named p01, p02, …).
    #[arg(long, default_value_t = 50, conflicts_with = "cycle")]
    players: usize,
    /// A cyclic field of N players (rock–paper–scissors for 3): seated round a circle, each
    /// beats the players that follow it within half the circle by --cycle-margin Elo and
    /// loses to those that precede it; the strengths' spread is 0 unless --spread is given.
    #[arg(long, value_parser = clap::value_parser!(u64).range(3..))]
    cycle: Option<u64>,
    /// The cycle's margin in Elo (400: the next player is beaten 10 games in 11).
    #[arg(long, default_value_t = 400.0, requires = "cycle")]
    cycle_margin: f64,
    /// Number of games (every ordered pair plays in turn, so cells differ by at most one).
    #[arg(long, default_value_t = 1_000_000)]
    games: u64,
    /// Standard deviation of the true strengths (drawn from N(0, S²)), in Elo (default 200;
    /// 0 with --cycle).
    #[arg(long)]
    spread: Option<f64>,
    /// Davidson's draw parameter ν (0: no draws; 1 gives about a third of draws between equals).
    #[arg(long, default_value_t = 0.0)]
    draw_nu: f64,
    /// White's advantage, in Elo.
    #[arg(long, default_value_t = 0.0)]
    white_advantage: f64,
    /// The seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The output: FILE.pgn or FILE.csv (white,black,result).
    #[arg(long)]
    out: PathBuf,
    /// Where to write the true strengths (name,strength; default: FILE.truth.csv beside the
    /// games).
    #[arg(long)]
    truth: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let ext = args
        .out
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if ext != "pgn" && ext != "csv" {
        bail!(
            "--out {}: the name must end in .pgn or .csv",
            args.out.display()
        );
    }
    let (players, spread_default, cycle_margin) = match args.cycle {
        Some(n) => (
            usize::try_from(n).context("--cycle: too many players")?,
            0.0,
            args.cycle_margin,
        ),
        None => (args.players, 200.0, 0.0),
    };
    let config = SynthConfig {
        players,
        games: args.games,
        spread: args.spread.unwrap_or(spread_default),
        draw_nu: args.draw_nu,
        advantage: args.white_advantage,
        seed: args.seed,
        cycle_margin,
    };
    let synth = simulate(&config)?;
    let names = synth.games.names();
    let file = std::fs::File::create(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    if ext == "csv" {
        writeln!(out, "white,black,result")?;
    }
    for (round, g) in synth.games.games().iter().enumerate() {
        let result = match g.score {
            Score::Win => "1-0",
            Score::Draw => "1/2-1/2",
            Score::Loss => "0-1",
        };
        let (white, black) = (&names[g.first.index()], &names[g.second.index()]);
        if ext == "csv" {
            writeln!(out, "{white},{black},{result}")?;
        } else {
            write!(
                out,
                "[Event \"synth\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"{}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n{result}\n\n",
                round + 1
            )?;
        }
    }
    out.flush()
        .with_context(|| format!("writing {}", args.out.display()))?;
    let truth_path = args
        .truth
        .unwrap_or_else(|| args.out.with_extension("truth.csv"));
    let mut truth = String::from("name,strength\n");
    for (name, s) in names.iter().zip(&synth.strengths) {
        truth.push_str(&format!("{name},{s:.3}\n"));
    }
    std::fs::write(&truth_path, truth)
        .with_context(|| format!("writing {}", truth_path.display()))?;
    eprintln!(
        "wrote {} games among {} players to {} and their strengths to {}",
        args.games,
        players,
        args.out.display(),
        truth_path.display()
    );
    Ok(ExitCode::SUCCESS)
}
