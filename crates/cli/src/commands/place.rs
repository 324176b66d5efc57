//! `eloworld place SPEC --ladder L`: rates a new player on a ladder whose ratings stay fixed,
//! playing rungs chosen adaptively (see `eloworld_ratings::placement`) through the tournament
//! runner, every game stored and reused.
//!
//! Each batch of games against a rung is a small stored tournament named
//! `place SPEC vs RUNG #J seed S`: its plan depends only on those, so a killed placement
//! resumes, a second placement of the same spec (another precision, another ladder sharing
//! the rung) reuses the games, and `--seed` makes it reproducible.

use crate::games::{with_game, CliGame};
use crate::ladders;
use anyhow::{bail, Context};
use eloworld_games::rng::{fnv1a, splitmix64};
use eloworld_games::{GameKind, GameResult, Side};
use eloworld_ratings::ladder::Ladder;
use eloworld_ratings::placement::{next_rung, place, scoville, start_estimate, Placed, RungGames};
use eloworld_tournament::{open_store, Plan, RunOptions, TournamentConfig};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Output formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Text for a reader.
    Table,
    /// One JSON object: player, rating, low, high, games, between (and more).
    Json,
}

/// Place a player on a ladder: its rating on the ladder's fixed scale, with a 95% interval.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The player to place (a spec: `evol:nodes=20000`, `min_oppt_moves_r0`, an engine from --engines).
    spec: String,
    /// The ladder: a file, or the name of a shipped one (`eloworld ladder list`).
    #[arg(long)]
    ladder: String,
    /// The database the placement games are stored in (and reused from).
    #[arg(long, default_value = "place.sqlite")]
    db: String,
    /// Stop when the 95% interval is at most ± this many Elo.
    #[arg(long, default_value_t = 40.0)]
    precision: f64,
    /// Stop after this many games whatever the interval.
    #[arg(long, default_value_t = 400)]
    max_games: u32,
    /// Games per colour in each batch against one rung.
    #[arg(long, default_value_t = 2)]
    batch: u32,
    /// The seed: the same seed, ladder and spec give the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Engine definitions (TOML, as in the README's "Engines") for your own program.
    #[arg(long, value_name = "FILE")]
    engines: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Print no progress.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let ladder = ladders::load(&args.ladder)?;
    let kind: GameKind = ladder
        .game
        .parse()
        .map_err(|e: eloworld_games::GameError| anyhow::anyhow!("ladder {}: {e}", ladder.name))?;
    if args.precision <= 0.0 || !args.precision.is_finite() {
        bail!("--precision must be a positive number of Elo");
    }
    if args.batch == 0 {
        bail!("--batch must be at least 1");
    }
    with_game!(kind, G => place_on::<G>(&args, &ladder))
}

/// The result of a placement, for printing.
struct Outcome {
    placed: Placed,
    rungs: Vec<RungGames>,
}

fn place_on<G: CliGame>(args: &Args, ladder: &Ladder) -> anyhow::Result<ExitCode> {
    let registry = G::registry_with(args.engines.as_deref())?;
    let spec: eloworld_players::PlayerSpec = args.spec.parse()?;
    let spec = spec.to_string();
    registry
        .resolve_str(&spec)
        .with_context(|| format!("the player to place, {spec:?}"))?;
    let rules = G::rules(ladder.draw_rules.parse().map_err(anyhow::Error::msg)?);
    // Rungs that cannot run here are skipped, each with a note.
    let mut usable = vec![true; ladder.rungs.len()];
    for (i, rung) in ladder.rungs.iter().enumerate() {
        if rung.player == spec {
            usable[i] = false;
            eprintln!(
                "note: rung {} is the player being placed; it is skipped (give another spec, e.g. {}_r0, to place it again)",
                rung.player, rung.player
            );
        } else if let Err(e) = registry.resolve_str(&rung.player) {
            usable[i] = false;
            eprintln!("note: rung {} skipped: {e}", rung.player);
        }
    }
    if !usable.iter().any(|&u| u) {
        bail!("no rung of ladder {} can run here", ladder.name);
    }
    let mut store = open_store(&args.db, true)?;
    let stop = crate::interrupt::stop_on_ctrl_c(None);
    let mut opts = RunOptions {
        stop: Arc::clone(&stop),
        ..RunOptions::default()
    };
    if let Some(t) = args.threads {
        opts.threads = t.max(1);
    }
    let ratings: Vec<f64> = ladder.rungs.iter().map(|r| r.rating).collect();
    let mut games: Vec<RungGames> = ratings
        .iter()
        .map(|&rating| RungGames {
            rating,
            ..RungGames::default()
        })
        .collect();
    let mut batches = vec![0u32; ladder.rungs.len()];
    let mut played = vec![0u32; ladder.rungs.len()];
    let mut estimate = start_estimate(&ratings, &usable);
    let per_batch = 2 * args.batch;
    let minimum = (2 * per_batch).min(args.max_games);
    loop {
        let placed = place(&games, ladder.advantage);
        let precise = !placed.flagged && placed.half_width() <= args.precision;
        if (precise && placed.games >= minimum) || placed.games + per_batch > args.max_games {
            break;
        }
        let Some(k) = next_rung(&ratings, &played, &usable, estimate) else {
            break;
        };
        let rung = &ladder.rungs[k].player;
        let config = batch_config(args, ladder, &spec, rung, batches[k], G::KIND);
        let plan = Plan::new(&config)?;
        let summary = eloworld_tournament::run::<G>(&plan, &registry, rules, &mut *store, &opts)
            .with_context(|| format!("placement games {:?} in {}", config.name, args.db))?;
        if summary.interrupted {
            eprintln!(
                "interrupted after {} games: run the same command again to go on (stored games are reused)",
                placed.games
            );
            return Ok(ExitCode::from(130));
        }
        for row in store.results(Some(&config.name))? {
            let (side, wdl) = if row.white == spec {
                (Side::First, &mut games[k].as_white)
            } else {
                (Side::Second, &mut games[k].as_black)
            };
            let slot = match row.result {
                GameResult::Draw => 1,
                GameResult::Win(s) if s == side => 2,
                GameResult::Win(_) => 0,
            };
            wdl[slot] += 1;
            played[k] += 1;
        }
        batches[k] += 1;
        let now = place(&games, ladder.advantage);
        estimate = now.rating;
        if !args.quiet {
            eprintln!(
                "{} games: {:.0} ± {:.0} (batch {} against {rung}{})",
                now.games,
                now.rating,
                now.half_width(),
                batches[k],
                if summary.stored == 0 {
                    ", stored before"
                } else {
                    ""
                }
            );
        }
    }
    let outcome = Outcome {
        placed: place(&games, ladder.advantage),
        rungs: games,
    };
    match args.format {
        Format::Table => print!("{}", table(&spec, ladder, &outcome, args.precision)),
        Format::Json => println!("{}", json(&spec, ladder, &outcome)),
    }
    Ok(ExitCode::SUCCESS)
}

/// The settings of batch `index` of games between `spec` and `rung`.
fn batch_config(
    args: &Args,
    ladder: &Ladder,
    spec: &str,
    rung: &str,
    index: u32,
    kind: GameKind,
) -> TournamentConfig {
    let name = format!("place {spec} vs {rung} #{index} seed {}", args.seed);
    let mut c = TournamentConfig::new(&name, kind, vec![spec.to_owned(), rung.to_owned()]);
    c.games_per_pair = args.batch;
    // Below 2^63: the settings are stored as TOML, whose integers are signed 64-bit.
    c.seed = splitmix64(args.seed ^ fnv1a(&name)) >> 1;
    c.openings = ladder.openings.as_ref().map(PathBuf::from);
    if let Some(m) = ladder.max_plies {
        c.max_plies = m;
    }
    c.draw_rules = ladder.draw_rules.parse().unwrap_or_default(); // checked when the ladder was read (line 96)
    c.db = Some(args.db.clone());
    c.threads = args.threads;
    c
}

/// Returns (name, rating, points, games) of the nearest rungs below and above `rating`.
fn nearest(
    ladder: &Ladder,
    games: &[RungGames],
    rating: f64,
) -> [Option<(String, f64, f64, u32)>; 2] {
    let row = |i: usize| {
        (
            ladder.rungs[i].player.clone(),
            ladder.rungs[i].rating,
            games[i].points(),
            games[i].games(),
        )
    };
    let below = (0..ladder.rungs.len())
        .filter(|&i| ladder.rungs[i].rating <= rating)
        .max_by(|&a, &b| ladder.rungs[a].rating.total_cmp(&ladder.rungs[b].rating))
        .map(row);
    let above = (0..ladder.rungs.len())
        .filter(|&i| ladder.rungs[i].rating > rating)
        .min_by(|&a, &b| ladder.rungs[a].rating.total_cmp(&ladder.rungs[b].rating))
        .map(row);
    [below, above]
}

fn scovilles(ladder: &Ladder, rating: f64) -> Vec<eloworld_ratings::placement::Scoville> {
    let names: Vec<&str> = ladder.rungs.iter().map(|r| r.player.as_str()).collect();
    let ratings: Vec<f64> = ladder.rungs.iter().map(|r| r.rating).collect();
    scoville(&names, &ratings, rating)
}

fn table(spec: &str, ladder: &Ladder, o: &Outcome, precision: f64) -> String {
    use std::fmt::Write as _;
    let p = &o.placed;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{spec} on ladder {}: {:.0} ± {:.0} (95%: {:.0} to {:.0}), {} games{}",
        ladder.name,
        p.rating,
        p.half_width(),
        p.low,
        p.high,
        p.games,
        if p.flagged {
            "; every game won or every game lost: beyond the ladder's reach, the rating rests on a prior"
        } else if p.half_width() > precision {
            "; --max-games reached before the interval was ±precision"
        } else {
            ""
        }
    );
    for s in scovilles(ladder, p.rating) {
        let _ = writeln!(out, "  Scoville: {}", s.describe());
    }
    let [below, above] = nearest(ladder, &o.rungs, p.rating);
    for (word, rung) in [("above", above), ("below", below)] {
        match rung {
            Some((name, rating, points, games)) if games > 0 => {
                let _ = writeln!(
                    out,
                    "  nearest rung {word}: {name} ({rating:.0}), scored {points}/{games} ({:.0}%) against it",
                    100.0 * points / f64::from(games)
                );
            }
            Some((name, rating, _, _)) => {
                let _ = writeln!(
                    out,
                    "  nearest rung {word}: {name} ({rating:.0}), not played"
                );
            }
            None => {
                let _ = writeln!(out, "  no rung {word}");
            }
        }
    }
    let _ = writeln!(out, "  games against each rung played:");
    for (r, g) in ladder
        .rungs
        .iter()
        .zip(&o.rungs)
        .filter(|(_, g)| g.games() > 0)
    {
        let _ = writeln!(
            out,
            "    {:<28} {:>7.1}  {}/{}",
            r.player,
            r.rating,
            g.points(),
            g.games()
        );
    }
    out
}

fn json(spec: &str, ladder: &Ladder, o: &Outcome) -> serde_json::Value {
    let p = &o.placed;
    let families = scovilles(ladder, p.rating);
    let member = |m: &Option<(String, f64, u32)>| {
        m.as_ref().map(|(name, rating, n)| {
            serde_json::json!({"player": name, "rating": rating, "dilution": n})
        })
    };
    let [below, above] = nearest(ladder, &o.rungs, p.rating);
    let rung = |r: Option<(String, f64, f64, u32)>| {
        r.map(|(name, rating, points, games)| {
            serde_json::json!({"player": name, "rating": rating, "points": points, "games": games})
        })
    };
    serde_json::json!({
        "player": spec,
        "ladder": ladder.name,
        "rating": p.rating,
        "low": p.low,
        "high": p.high,
        "games": p.games,
        "between": families.first().map(eloworld_ratings::placement::Scoville::describe),
        "flagged": p.flagged,
        "scoville": families.iter().map(|s| serde_json::json!({
            "family": s.base,
            "below": member(&s.below),
            "above": member(&s.above),
            "text": s.describe(),
        })).collect::<Vec<_>>(),
        "nearest": {"below": rung(below), "above": rung(above)},
    })
}
