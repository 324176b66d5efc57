//! The `eloworld` command: the only part of eloworld that prints or exits.
#![expect(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::exit,
    reason = "the command is the one part of eloworld that prints and exits"
)]

mod closed_pipe;
mod commands;
mod display;
mod games;
mod interrupt;
mod rating_table;
mod session;
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
    /// Export stored games: chess as PGN, Go as SGF.
    Export(commands::export::Args),
    /// Measure games per second of the runner against a bare game loop.
    Bench(commands::bench::Args),
    /// Run the Squava article's experiment (bediger4000) (three rating runs, a round robin) and print its tables.
    SquavaExperiment(commands::squava_experiment::Args),
    /// Play jobs of the tournaments in a shared database until none is left (many machines).
    Worker(commands::worker::Args),
    /// Show done / running / pending jobs per tournament and what each worker did.
    Status(commands::status::Args),
    /// Rate players (every method side by side, or one) from a database, PGN or CSV.
    Rate(commands::rate::Args),
    /// Play two engines with the fastchess / cutechess-cli options: time controls, SPRT,
    /// adjudication, openings, PGN with clocks (`eloworld match -help`).
    Match(commands::match_cmd::Args),
    /// Score, Elo difference with a 95% interval, and LOS of a match result.
    MatchStats(commands::match_stats::Args),
    /// Simulate games between players of known strength (PGN or CSV).
    Synth(commands::synth::Args),
    /// Draw pictures and reports: outcome matrix, rating evolution, asterisk table, HTML.
    Report(commands::report::Args),
    /// Count where each piece ends games (alive or dead) over PGN files: the fate players' table.
    Fates(commands::fates::Args),
    /// Run an EPD test suite (bm/am) with an evol-family player: solved positions, nodes to solution.
    Suite(commands::suite::Args),
    /// Serve a live, read-only web dashboard of the tournaments in a store.
    Serve(commands::serve::Args),
    /// Evolve chess players with a genetic algorithm (David–Koppel–Netanyahu's papers): imitate, search, coevolve, report.
    Evolve(commands::evolve::Args),
    /// Train the blind players' model: a program of its own, `eloworld-train-blind`.
    TrainBlind(NotBuiltIn),
    /// Build a ladder (a fixed rating scale in a file) from a database; list the shipped ones.
    Ladder(commands::ladder::Args),
    /// Place a player on a ladder: its rating on the fixed scale, playing the rungs that tell most.
    Place(commands::place::Args),
}

/// The arguments of a command this binary leaves out: taken whole, so that the command
/// says what to run instead of a parse error.
#[derive(clap::Args, Debug)]
struct NotBuiltIn {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    args: Vec<String>,
}

fn main() -> ExitCode {
    closed_pipe::install_hook();
    let cli = Cli::parse();
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(cli))) {
        Ok(Ok(code)) => code,
        Ok(Err(e)) if closed_pipe::is_closed_stdout_error(&e) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
        Err(payload) if closed_pipe::is_closed_pipe_panic(&*payload) => ExitCode::SUCCESS,
        Err(payload) => std::panic::resume_unwind(payload),
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
        Command::SquavaExperiment(a) => commands::squava_experiment::run(a),
        Command::Worker(a) => commands::worker::run(a),
        Command::Status(a) => commands::status::run(a),
        Command::Rate(a) => commands::rate::run(a),
        Command::Match(a) => commands::match_cmd::run(a),
        Command::MatchStats(a) => commands::match_stats::run(a),
        Command::Synth(a) => commands::synth::run(a),
        Command::Report(a) => commands::report::run(a),
        Command::Fates(a) => commands::fates::run(a),
        Command::Suite(a) => commands::suite::run(a),
        Command::Evolve(a) => commands::evolve::run(a),
        Command::Serve(a) => commands::serve::run(a),
        Command::TrainBlind(_) => anyhow::bail!(
            "train-blind is a program of its own (it carries candle and linfa): run `cargo run --release -p eloworld-train-blind -- ARGS`"
        ),
        Command::Ladder(a) => commands::ladder::run(a),
        Command::Place(a) => commands::place::run(a),
    }
}
