//! `eloworld ladder`: build a ladder file from a results database, list the shipped ones
//! (the building and refitting are `eloworld_app::ladders`'s; this file prints).

use anyhow::Context;
use eloworld_app::ladders;
use eloworld_tournament::TournamentConfig;
use std::path::PathBuf;
use std::process::ExitCode;

/// Ladders: fixed rating scales that `eloworld place` rates new players on.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Write a ladder file from a results database: maximum-likelihood ratings with 95%
    /// intervals, White's advantage, the engines' versions, the W/D/L per ordered pair.
    Build(BuildArgs),
    /// Refit a ladder from the games it ships (W/D/L per ordered pair) and write it in this
    /// version's format: the rungs' covariance and their intervals against their neighbours
    /// added to an older file, its command, note and engines kept.
    Refit {
        /// The ladder (a file or a shipped name).
        ladder: String,
        /// The ladder file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// List the shipped ladders.
    List,
    /// Print a ladder (a file or a shipped name) as its file text.
    Show {
        /// The ladder.
        ladder: String,
    },
    /// A ladder's ratings next to a published table (default: Elo World's), with ranks,
    /// differences from an anchor player and Spearman's rank correlation.
    Compare(super::ladder_compare::CompareArgs),
}

#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// The results database (SQLite file or postgres:// URL).
    #[arg(long)]
    db: String,
    /// Only this tournament of the database (default: every game in it).
    #[arg(long)]
    tournament: Option<String>,
    /// The ladder file to write.
    #[arg(long)]
    out: PathBuf,
    /// The ladder's name (default: the output file's stem).
    #[arg(long)]
    name: Option<String>,
    /// Fix the scale: this rung gets this rating (NAME=ELO); default: the rungs average 1000.
    #[arg(long, value_parser = crate::commands::rate::parse_anchor)]
    anchor: Option<(String, f64)>,
    /// Engine definitions the games were played with (to record their versions).
    #[arg(long, value_name = "FILE")]
    engines: Option<PathBuf>,
    /// A note kept in the file: what the field is, what was scaled down and why, how long it took.
    #[arg(long)]
    note: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Build(b) => build(&b),
        Command::List => {
            for (name, l) in ladders::shipped()? {
                println!(
                    "{name}: {} rungs, {} games ({})",
                    l.rungs.len(),
                    l.game_count(),
                    l.game
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Compare(c) => {
            super::ladder_compare::run(&c)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Refit { ladder, out } => {
            let new = ladders::refit(&ladders::load(&ladder)?)
                .with_context(|| format!("refitting ladder {ladder}"))?;
            new.write(&out)
                .with_context(|| format!("writing the ladder {}", out.display()))?;
            eprintln!(
                "ladder {}: {} rungs from {} games refitted, widest 95% interval ±{:.1}, written to {}",
                new.name,
                new.rungs.len(),
                new.game_count(),
                new.widest_half_width(),
                out.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Show { ladder } => {
            print!("{}", ladders::load(&ladder)?.to_toml());
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn build(args: &BuildArgs) -> anyhow::Result<ExitCode> {
    let built = ladders::build(&ladders::BuildRequest {
        db: &args.db,
        tournament: args.tournament.as_deref(),
        out: &args.out,
        name: args.name.as_deref(),
        anchor: args.anchor.as_ref().map(|(n, e)| (n.as_str(), *e)),
        engines: args.engines.as_deref(),
        note: args.note.as_deref().unwrap_or_default(),
    })?;
    if let Some(note) = built.copies.note(
        eloworld_tournament::CopyRule::CountOnce,
        eloworld_app::report::COPY_PAIRS_SHOWN,
    ) {
        eprintln!("note: {note}");
    }
    for t in &built.other_rules {
        eprintln!(
            "note: tournament {t:?} was played under other rules than {:?}; the ladder records {:?}'s",
            built.rules_of, built.rules_of
        );
    }
    if built.left_out > 0 {
        eprintln!(
            "note: {} players have no games linking them to the largest group; they are not rungs",
            built.left_out
        );
    }
    let ladder = &built.ladder;
    eprintln!(
        "ladder {}: {} rungs from {} games, White's advantage {:+.1} Elo, written to {}",
        ladder.name,
        ladder.rungs.len(),
        ladder.game_count(),
        ladder.advantage,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Plays (or resumes) a ladder schedule and prints where every player stands: rating and
/// 95% half-width, widest first, on standard output; the summary on standard error.
pub fn play_and_report(
    session: &eloworld_app::Session,
    config: &TournamentConfig,
    plan_only: bool,
) -> anyhow::Result<ExitCode> {
    use eloworld_app::ladder_schedule::{play_ladder, Mode};
    let mode = if plan_only {
        Mode::StoreNextBatch
    } else {
        Mode::Play
    };
    let run = play_ladder(session, config, mode)?;
    if let Some(warning) = &run.warning {
        eprintln!("warning: {warning}");
    }
    if let Some((batch, not_here)) = &run.stored_batch {
        for note in not_here {
            eprintln!("note: {note}; only workers that have it will play its games");
        }
        println!(
            "ladder schedule {:?}: batch {batch:?} stored in {} ({} games before it); play it with: eloworld worker --db {}, then run this command again for the next batch",
            config.name, run.location, run.games, run.location
        );
        return Ok(ExitCode::SUCCESS);
    }
    for (player, rating, half_width) in run.by_rating(&config.players) {
        println!("{player:<32} {rating:>7.1} ±{half_width:.1}");
    }
    eprintln!(
        "ladder schedule {:?}: {} batches, {} games of at most {} in {} ({} this run); widest 95% interval ±{:.1} (target ±{:.1})",
        config.name,
        run.batches,
        run.games,
        run.budget,
        run.location,
        run.stored,
        run.status.worst(),
        run.precision
    );
    if run.interrupted {
        eprintln!("interrupted: run the same command again to go on");
        return Ok(ExitCode::from(130));
    }
    if !run.precise() {
        eprintln!(
            "note: the game budget was spent before every player was within ±{:.1}",
            run.precision
        );
    }
    Ok(ExitCode::SUCCESS)
}
