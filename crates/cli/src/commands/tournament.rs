use crate::display::{self, Mode};
use crate::games::{with_game, CliGame};
use crate::standings::Standings;
use anyhow::Context;
use eloworld_games::{DrawRules, GameKind};
use eloworld_tournament::{open_store, Plan, RunOptions, TournamentConfig};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

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
    /// Show no progress.
    #[arg(long, short)]
    quiet: bool,
    /// Seconds a claim lasts without renewal on a shared (PostgreSQL) store.
    #[arg(long, default_value_t = 30.0)]
    lease: f64,
    /// Store the plan and stop: workers (`eloworld worker --db …`) play it, on any number of machines.
    #[arg(long)]
    plan_only: bool,
    /// Engine definitions (TOML, as in the README's "Engines") to add to the built-in players.
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
    Ok(c)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = config_from(&args)?;
    let plan = Plan::new(&config)?;
    if args.plan_only {
        with_game!(plan.game, G => check_specs_for_workers::<G>(&plan, args.engines.as_deref()))?;
        return store_plan(&plan);
    }
    with_game!(plan.game, G => run_plan::<G>(&plan, Mode::detect(args.quiet), args.engines.as_deref(), args.lease))
}

/// Checks every player spec of a plan that workers will play elsewhere: a misspelt name or a
/// wrong parameter is an error before anything is stored; a player that only cannot run on
/// this machine (its engine is not installed here) is a note, since the workers may have it.
fn check_specs_for_workers<G: CliGame>(
    plan: &Plan,
    engines: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    let registry = G::registry_with(engines)?;
    for p in &plan.players {
        match registry.resolve_str(p) {
            Ok(_) => {}
            Err(eloworld_players::SpecError::Unavailable { player, reason }) => eprintln!(
                "note: {player} cannot run on this machine ({reason}); only workers that have it will play its games"
            ),
            Err(e) => {
                return Err(e).with_context(|| format!("tournament {:?}", plan.config.name))
            }
        }
    }
    Ok(())
}

/// Stores a plan for workers to play, without playing any of it here.
fn store_plan(plan: &Plan) -> anyhow::Result<ExitCode> {
    let db = plan.config.db_path();
    let mut store = open_store(&db, true)?;
    store
        .begin(plan)
        .with_context(|| format!("storing tournament {:?}", plan.config.name))?;
    let row = store
        .tournaments()?
        .into_iter()
        .find(|t| t.name == plan.config.name);
    let (done, total) = row.map_or((0, plan.jobs.len() as u64), |t| (t.done, t.total));
    println!(
        "tournament {:?}: {total} jobs stored in {} ({done} done); play them with: eloworld worker --db {}",
        plan.config.name,
        store.location(),
        store.location()
    );
    Ok(ExitCode::SUCCESS)
}

fn run_plan<G: CliGame>(
    plan: &Plan,
    mode: Mode,
    engines: Option<&std::path::Path>,
    lease: f64,
) -> anyhow::Result<ExitCode> {
    let rules = G::rules(plan.config.draw_rules);
    let registry = G::registry_with(engines)?;
    // Check every player before touching the database.
    for p in &plan.players {
        registry.resolve_str(p)?;
    }
    let db = plan.config.db_path();
    let mut store = open_store(&db, true)?;
    store.set_lease(std::time::Duration::from_secs_f64(lease.max(1.0)));
    let stop = crate::interrupt::stop_on_ctrl_c(None);
    let (tx, rx) = crossbeam_channel::unbounded();
    let mut opts = RunOptions {
        stop: Arc::clone(&stop),
        events: Some(tx),
        ..RunOptions::default()
    };
    if let Some(t) = plan.config.threads {
        opts.threads = t.max(1);
    }
    let players = plan.players.clone();
    let shower = std::thread::spawn(move || display::show(rx, players, mode));
    // On a shared store this also waits for jobs other workers hold, and plays those whose
    // worker died, so the command ends with the plan done.
    let summary = eloworld_tournament::run::<G>(plan, &registry, rules, &mut *store, &opts);
    drop(opts);
    let _ = shower.join();
    let summary = summary.with_context(|| format!("tournament {:?} in {db}", plan.config.name))?;
    let rows = store.results(Some(&plan.config.name))?;
    // The ratings, every method side by side (`eloworld rate`); bare scores if none applies.
    print!("{}", Standings::from_rows(&plan.players, &rows).table());
    if let Ok(table) = crate::commands::rate::tournament_ratings(&rows) {
        println!();
        print!("{table}");
    }
    let secs = summary.elapsed.as_secs_f64();
    println!(
        "{} of {} games stored in {db} ({} this run, {:.1} s, {:.1} games/s)",
        summary.done_before + summary.stored,
        summary.planned,
        summary.stored,
        secs,
        summary.stored as f64 / secs.max(1e-9)
    );
    if summary.interrupted {
        eprintln!(
            "interrupted: run the same command again to play the {} games left",
            summary.planned - summary.done_before - summary.stored
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
