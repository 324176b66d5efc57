//! The `eloworld` command: the only part of eloworld that prints or exits.

mod commands;
mod display;
mod games;
mod standings;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// eloworld measures how well game-playing algorithms play, from the weakest to the
/// strongest: it runs tournaments between players, rates them, and draws what it found.
#[derive(Parser, Debug)]
#[command(name = "eloworld", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the players a game knows, with what each does.
    Players(commands::players::Args),
    /// Play one game between two players and print it.
    Play(commands::play::Args),
    /// Run (or resume) a tournament from a TOML file and/or flags.
    Tournament(commands::tournament::Args),
    /// Show the results stored in a database: W/D/L per ordered pair and the standings.
    Results(commands::results::Args),
    /// Export stored chess games as PGN.
    Export(commands::export::Args),
    /// Measure games per second of the runner against a bare game loop.
    Bench(commands::bench::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Players(a) => commands::players::run(a),
        Command::Play(a) => commands::play::run(a),
        Command::Tournament(a) => commands::tournament::run(a),
        Command::Results(a) => commands::results::run(a),
        Command::Export(a) => commands::export::run(a),
        Command::Bench(a) => commands::bench::run(a),
    }
}
