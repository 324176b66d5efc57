//! `eloworld ladder`: build a ladder file from a results database, list the shipped ones.

use anyhow::{bail, Context};
use eloworld_app::ladders;
use eloworld_players::engine::{builtin_definitions, read_definitions, EngineDef, Session};
use eloworld_players::PlayerSpec;
use eloworld_ratings::ladder::{EngineVersion, Ladder};
use eloworld_ratings::mle::MleConfig;
use eloworld_tournament::{open_store, TournamentConfig};
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
            for (name, text) in ladders::SHIPPED {
                let l =
                    Ladder::from_toml(text).with_context(|| format!("shipped ladder {name}"))?;
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
            let old = ladders::load(&ladder)?;
            let mut new = Ladder::from_games(&old.name, &old.game, &old.game_list())
                .with_context(|| format!("refitting ladder {ladder}"))?;
            new.draw_rules.clone_from(&old.draw_rules);
            new.max_plies = old.max_plies;
            new.openings.clone_from(&old.openings);
            new.command.clone_from(&old.command);
            new.note.clone_from(&old.note);
            new.engines.clone_from(&old.engines);
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
    let store = open_store(&args.db, false)?;
    let rows = store.results(args.tournament.as_deref())?;
    if rows.is_empty() {
        bail!(
            "{}: no finished games{}",
            args.db,
            args.tournament
                .as_ref()
                .map(|t| format!(" in tournament {t:?}"))
                .unwrap_or_default()
        );
    }
    // A copy of an earlier game of the same ordered pair is counted once.
    let mut games = eloworld_ratings::Games::case_sensitive();
    eloworld_tournament::add_results(&mut games, &rows);
    let copies = eloworld_tournament::Copies::of(&rows);
    if let Some(note) = copies.note(
        eloworld_tournament::CopyRule::CountOnce,
        eloworld_app::report::COPY_PAIRS_SHOWN,
    ) {
        eprintln!("note: {note}");
    }
    let tournaments: Vec<_> = store
        .tournaments()?
        .into_iter()
        .filter(|t| args.tournament.as_ref().is_none_or(|n| *n == t.name))
        .filter(|t| t.done > 0)
        .collect();
    let first = tournaments
        .first()
        .context("the database holds no tournament with finished games")?;
    let settings = TournamentConfig::from_toml(&first.config)
        .map_err(|m| anyhow::anyhow!("stored settings of {:?}: {m}", first.name))?;
    for t in &tournaments[1..] {
        if let Ok(c) = TournamentConfig::from_toml(&t.config) {
            if c.draw_rules != settings.draw_rules
                || c.openings != settings.openings
                || c.setup() != settings.setup()
            {
                eprintln!(
                    "note: tournament {:?} was played under other rules than {:?}; the ladder records {:?}'s",
                    t.name, first.name, first.name
                );
            }
        }
    }
    let mut config = MleConfig::new();
    if let Some((name, elo)) = &args.anchor {
        let id = games
            .find(name)
            .with_context(|| format!("--anchor {name}: not a player of the games"))?;
        config.anchor = Some((id.index(), *elo));
    }
    let name = args.name.clone().unwrap_or_else(|| {
        args.out
            .file_stem()
            .map_or("ladder".to_owned(), |s| s.to_string_lossy().into_owned())
    });
    let mut ladder = Ladder::from_games_with(&name, first.game.name(), &games, &config)?;
    let left_out = games.player_count() - ladder.rungs.len();
    if left_out > 0 {
        eprintln!("note: {left_out} players have no games linking them to the largest group; they are not rungs");
    }
    ladder.draw_rules = settings.draw_rules.name().to_owned();
    ladder.max_plies = Some(settings.max_plies);
    ladder.openings = settings.openings.map(|p| p.display().to_string());
    ladder.size = settings.size;
    ladder.komi = settings.komi;
    let mut command = format!("eloworld ladder build --db {}", args.db);
    if let Some(t) = &args.tournament {
        command.push_str(&format!(" --tournament {t:?}"));
    }
    if let Some((n, e)) = &args.anchor {
        command.push_str(&format!(" --anchor {n}={e}"));
    }
    command.push_str(&format!(" --out {}", args.out.display()));
    ladder.command = command;
    ladder.note = args.note.clone().unwrap_or_default();
    ladder.engines = engine_versions(&ladder, args.engines.as_deref())?;
    ladder
        .write(&args.out)
        .with_context(|| format!("writing the ladder {}", args.out.display()))?;
    eprintln!(
        "ladder {name}: {} rungs from {} games, White's advantage {:+.1} Elo, written to {}",
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
    let mut order: Vec<usize> = (0..config.players.len().min(run.status.ratings.len())).collect();
    order.sort_by(|&a, &b| run.status.ratings[a].total_cmp(&run.status.ratings[b]));
    for i in order {
        println!(
            "{:<32} {:>7.1} ±{:.1}",
            config.players[i], run.status.ratings[i], run.status.half_widths[i]
        );
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

/// Returns the engine definition a rung's player runs on, if it is an engine.
fn definition_of(player: &str, defs: &[EngineDef]) -> Option<EngineDef> {
    let spec: PlayerSpec = player.parse().ok()?;
    let name = match spec.name.as_str() {
        "worstfish" => "stockfish0",
        n if n.starts_with("stockfish") && (n.ends_with('k') || n.ends_with('m')) => "stockfish",
        n => n,
    };
    defs.iter().rev().find(|d| d.name == name).cloned()
}

/// Asks every engine the rungs run on for its name and version (one handshake per program).
fn engine_versions(
    ladder: &Ladder,
    engines: Option<&std::path::Path>,
) -> anyhow::Result<Vec<EngineVersion>> {
    let mut defs = builtin_definitions();
    if let Some(path) = engines {
        defs.extend(read_definitions(path)?);
    }
    let mut versions: Vec<EngineVersion> = Vec::new();
    for rung in &ladder.rungs {
        let Some(def) = definition_of(&rung.player, &defs) else {
            continue;
        };
        if versions.iter().any(|v| v.command == def.command) {
            continue;
        }
        let version = match Session::start(&def) {
            Ok(s) if !s.id_name().is_empty() => s.id_name().to_owned(),
            Ok(_) => "(the engine did not name itself)".to_owned(),
            Err(e) => format!("(not runnable here: {e})"),
        };
        versions.push(EngineVersion {
            command: def.command.clone(),
            version,
        });
    }
    Ok(versions)
}
