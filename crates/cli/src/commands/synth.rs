//! `eloworld synth`: games simulated from known strengths, as PGN or CSV, with the strengths
//! beside them (for studying rating methods and for the rating benchmark). The simulating and
//! writing are `eloworld_app::synth`'s; this reads the options and says what was written.

use eloworld_app::synth::{write_synthetic, SynthRequest};
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
    let written = write_synthetic(&SynthRequest {
        players: args.players,
        cycle: args.cycle,
        cycle_margin: args.cycle_margin,
        games: args.games,
        spread: args.spread,
        draw_nu: args.draw_nu,
        white_advantage: args.white_advantage,
        seed: args.seed,
        out: args.out,
        truth: args.truth,
    })?;
    eprintln!(
        "wrote {} games among {} players to {} and their strengths to {}",
        written.games,
        written.players,
        written.out.display(),
        written.truth.display()
    );
    Ok(ExitCode::SUCCESS)
}
