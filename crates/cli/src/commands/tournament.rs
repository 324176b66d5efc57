use crate::standings::{Standings, StandingsText};
use eloworld_app::tournament;
use eloworld_games::{DrawRules, GameKind};
use eloworld_tournament::Plan;
use std::path::PathBuf;
use std::process::ExitCode;

/// Run (or resume) a tournament. Settings come from FILE, and flags override them.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A tournament file (TOML): name, game, players, games_per_pair, seed, threads,
    /// openings, max_plies, draw_rules, db.
    file: Option<PathBuf>,
    /// The tournament's name (default: the file's name).
    #[arg(long)]
    name: Option<String>,
    /// The game.
    #[arg(long, value_parser = crate::games::parse_kind)]
    game: Option<GameKind>,
    /// Player specs, comma-separated (`stockfish:nodes=1000,hash=16` stays one player).
    #[arg(long)]
    players: Option<Vec<String>>,
    /// Games per ordered pair.
    #[arg(long)]
    games_per_pair: Option<u32>,
    /// The tournament seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// An openings file: EPD lines or PGN games.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Use at most this many openings.
    #[arg(long)]
    openings_limit: Option<usize>,
    /// Adjudicate a draw after this many plies.
    #[arg(long)]
    max_plies: Option<u32>,
    /// Chess draw rules: automatic (Elo World's fivefold, 75 moves) or claimed (cutechess-style threefold, fifty moves).
    #[arg(long)]
    draw_rules: Option<DrawRules>,
    /// The database (default: NAME.sqlite).
    #[arg(long)]
    db: Option<String>,
    /// A `ladder` schedule's target: stop once every player's 95% half-width is within this
    /// many Elo (default 50).
    #[arg(long, value_name = "ELO")]
    precision: Option<f64>,
    /// A `ladder` schedule's game budget, or a `random` schedule's games.
    #[arg(long, value_name = "N")]
    max_games: Option<u32>,
    /// Show no progress.
    #[arg(long, short)]
    quiet: bool,
    /// Seconds a claim lasts without renewal on a shared (PostgreSQL) store.
    #[arg(long, default_value_t = 30.0)]
    lease: f64,
    /// Store the plan and stop: workers (`eloworld worker --db …`) play it, on any number of machines.
    #[arg(long)]
    plan_only: bool,
    /// Engine definitions (TOML, as in `docs/engines.md`) to add to the built-in players.
    #[arg(long, value_name = "FILE")]
    engines: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = tournament::config_from(
        args.file.as_deref(),
        tournament::Overrides {
            name: args.name.clone(),
            game: args.game,
            players: args.players.clone(),
            games_per_pair: args.games_per_pair,
            seed: args.seed,
            threads: args.threads,
            openings: args.openings.clone(),
            openings_limit: args.openings_limit,
            max_plies: args.max_plies,
            draw_rules: args.draw_rules,
            db: args.db.clone(),
            precision: args.precision,
            max_games: args.max_games,
        },
    )?;
    let session = crate::session::start(None)
        .threads(config.threads)
        .engines(args.engines.clone())
        .lease(std::time::Duration::from_secs_f64(args.lease.max(1.0)));
    if config.schedule == eloworld_tournament::Schedule::Ladder {
        let session = crate::session::with_display(session, args.quiet);
        return super::ladder::play_and_report(&session, &config, args.plan_only);
    }
    let planned = eloworld_app::independent::independent(&session, Plan::new(&config)?)?;
    if let Some(warning) = planned.warning() {
        eprintln!("warning: {warning}");
    }
    let plan = planned.plan;
    if args.plan_only {
        let stored = tournament::store_plan(&session, &plan)?;
        for note in &stored.not_here {
            eprintln!("note: {note}; only workers that have it will play its games");
        }
        println!(
            "tournament {:?}: {} jobs stored in {} ({} done); play them with: eloworld worker --db {}",
            plan.config().name, stored.total, stored.location, stored.done, stored.location
        );
        return Ok(ExitCode::SUCCESS);
    }
    let session = crate::session::with_display(session, args.quiet);
    // On a shared store this also waits for jobs other workers hold, and plays those whose
    // worker died, so the command ends with the plan done.
    let run = tournament::run_tournament(&session, &plan)?;
    // The ratings, every method side by side (`eloworld rate`); bare scores if none applies.
    print!(
        "{}",
        Standings::from_rows(plan.players(), &run.rows).table()
    );
    if let Ok(table) = crate::commands::rate::tournament_ratings(&run.rows) {
        println!();
        print!("{table}");
    }
    let summary = &run.summary;
    let secs = summary.elapsed.as_secs_f64();
    println!(
        "{} of {} games stored in {} ({} this run, {:.1} s, {:.1} games/s)",
        summary.done_before + summary.stored,
        summary.planned,
        run.location,
        summary.stored,
        secs,
        summary.stored as f64 / secs.max(1e-9)
    );
    if summary.interrupted {
        eprintln!(
            "interrupted: run the same command again to play the {} games left",
            run.games_left()
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
