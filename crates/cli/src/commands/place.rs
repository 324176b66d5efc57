//! `eloworld place SPEC --ladder L`: rates a new player on a ladder whose ratings stay fixed,
//! playing rungs chosen adaptively (see `eloworld_ladder::placement`) through the tournament
//! runner, every game stored and reused.
//!
//! The placement itself is `eloworld_app::placement`; this prints it.

use eloworld_app::ladders;
use eloworld_app::placement::{place_on_ladder, BatchDone, Placement, PlacementSettings, Reach};
use eloworld_ladder::ladder::Ladder;
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// The game the player plays: checked against the ladder's (which decides it).
    #[arg(long, value_parser = crate::games::parse_kind)]
    game: Option<eloworld_games::GameKind>,
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
    /// Engine definitions (TOML, as in `docs/engines.md`) for your own program.
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
    let session = crate::session::start(None)
        .threads(args.threads)
        .engines(args.engines.clone());
    let settings = PlacementSettings {
        spec: args.spec.clone(),
        game: args.game,
        db: args.db.clone(),
        precision: args.precision,
        max_games: args.max_games,
        batch: args.batch,
        seed: args.seed,
    };
    let quiet = args.quiet;
    let mut progress = |b: &BatchDone| {
        if !quiet {
            eprintln!(
                "{} games: {:.0} ± {:.0} (batch {} against {}{})",
                b.placed.games,
                b.placed.rating,
                b.placed.half_width(),
                b.batches,
                b.rung,
                if b.reused { ", stored before" } else { "" }
            );
        }
    };
    let placement = place_on_ladder(&session, &ladder, &settings, &mut progress)?;
    for note in &placement.skipped {
        eprintln!("note: {note}");
    }
    if let Some(note) = placement.copies.note(
        eloworld_tournament::CopyRule::CountOnce,
        eloworld_app::report::COPY_PAIRS_SHOWN,
    ) {
        eprintln!("note: {note}");
    }
    if placement.interrupted {
        eprintln!(
            "interrupted after {} games: run the same command again to go on (stored games are reused)",
            placement.placed.games
        );
        return Ok(ExitCode::from(130));
    }
    match args.format {
        Format::Table => print!("{}", table(&ladder, &placement, args.precision)),
        Format::Json => println!("{}", json(&ladder, &placement)),
    }
    Ok(ExitCode::SUCCESS)
}

fn table(ladder: &Ladder, o: &Placement, precision: f64) -> String {
    let spec = &o.spec;
    use std::fmt::Write as _;
    let p = &o.placed;
    let c = &o.combined;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{spec} on ladder {}: {:.0} ± {:.0} (95%: {:.0} to {:.0}), {} games{}",
        ladder.name,
        p.rating,
        0.5 * (c.high - c.low),
        c.low,
        c.high,
        p.games,
        match o.reach(precision) {
            Reach::BeyondLadder => "; every game won or every game lost: beyond the ladder's reach, the rating rests on a prior",
            Reach::OutOfGames => "; --max-games reached before the interval was ±precision",
            Reach::Precise => "",
        }
    );
    let _ = writeln!(
        out,
        "  interval {:.0} to {:.0} counts the rungs' own uncertainty; with the rungs held fixed it is {:.0} to {:.0} (± {:.0})",
        c.low,
        c.high,
        p.low,
        p.high,
        p.half_width()
    );
    for s in o.scovilles(ladder) {
        let _ = writeln!(out, "  Scoville: {}", s.describe());
    }
    let [below, above] = o.nearest(ladder);
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
    for (player, rating, g) in o.rungs_played(ladder) {
        let _ = writeln!(
            out,
            "    {player:<28} {rating:>7.1}  {}/{}",
            g.points(),
            g.games()
        );
    }
    out
}

fn json(ladder: &Ladder, o: &Placement) -> serde_json::Value {
    let spec = &o.spec;
    let p = &o.placed;
    let families = o.scovilles(ladder);
    let member = |m: &Option<(String, f64, u32)>| {
        m.as_ref().map(|(name, rating, n)| {
            serde_json::json!({"player": name, "rating": rating, "dilution": n})
        })
    };
    let [below, above] = o.nearest(ladder);
    let rung = |r: Option<(String, f64, f64, u32)>| {
        r.map(|(name, rating, points, games)| {
            serde_json::json!({"player": name, "rating": rating, "points": points, "games": games})
        })
    };
    serde_json::json!({
        "player": spec,
        "ladder": ladder.name,
        "rating": p.rating,
        "low": o.combined.low,
        "high": o.combined.high,
        "fixed_low": p.low,
        "fixed_high": p.high,
        "interval": "low/high: 95% with the rungs' own uncertainty (the ladder's covariance); fixed_low/fixed_high: with the rungs held fixed",
        "games": p.games,
        "between": families.first().map(eloworld_ladder::placement::Scoville::describe),
        "flagged": p.flagged,
        "scoville": families.iter().map(|s| serde_json::json!({
            "family": s.base,
            "below": member(&s.below),
            "above": member(&s.above),
            "text": s.describe(),
        })).collect::<Vec<_>>(),
        "nearest": {"below": rung(below), "above": rung(above)},
        "copies": o.copies,
    })
}
