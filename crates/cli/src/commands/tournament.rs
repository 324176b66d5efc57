use crate::standings::{Standings, StandingsText};
use anyhow::Context;
use eloworld_app::tournament;
use eloworld_games::{DrawRules, GameKind};
use eloworld_tournament::{Plan, TournamentConfig};
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

pub fn config_from(args: &Args) -> anyhow::Result<TournamentConfig> {
    let mut c = match &args.file {
        Some(path) => TournamentConfig::from_file(path)?,
        None => {
            let name = args
                .name
                .clone()
                .context("give a tournament FILE, or --name and --players")?;
            TournamentConfig::new(&name, eloworld_games::GameKind::Chess, Vec::new())
        }
    };
    if let Some(v) = &args.name {
        c.name.clone_from(v);
    }
    if let Some(v) = args.game {
        c.game = v;
    }
    if let Some(v) = &args.players {
        c.players = v
            .iter()
            .flat_map(|list| eloworld_players::PlayerSpec::split_list(list))
            .collect();
    }
    if let Some(v) = args.games_per_pair {
        c.games_per_pair = v;
    }
    if let Some(v) = args.seed {
        c.seed = v;
    }
    if let Some(v) = args.threads {
        c.threads = Some(v);
    }
    if let Some(v) = &args.openings {
        c.openings = Some(v.clone());
    }
    if let Some(v) = args.openings_limit {
        c.openings_limit = Some(v);
    }
    if let Some(v) = args.max_plies {
        c.max_plies = v;
    }
    if let Some(v) = args.draw_rules {
        c.draw_rules = v;
    }
    if let Some(v) = &args.db {
        c.db = Some(v.clone());
    }
    if let Some(v) = args.precision {
        c.precision = Some(v);
    }
    if let Some(v) = args.max_games {
        c.games = Some(v);
    }
    Ok(c)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = config_from(&args)?;
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
