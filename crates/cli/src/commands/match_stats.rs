//! `eloworld match-stats`: what a match result says (David–Koppel–Netanyahu's appendix B).

use anyhow::bail;
use eloworld_ratings::convert::{IntervalKind, MatchStats};
use std::process::ExitCode;

/// Score, Elo difference with a 95% interval and likelihood of superiority of a match result.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Wins, draws and losses of the first player: W D L.
    #[arg(num_args = 3, value_names = ["W", "D", "L"])]
    wdl: Vec<u64>,
    /// Colour-swapped game pairs instead: counts of pairs in which the first player scored
    /// 0, ½, 1, 1½ and 2 points.
    #[arg(long, num_args = 5, value_names = ["P0", "P1", "P2", "P3", "P4"], conflicts_with_all = ["wdl", "points"])]
    pentanomial: Option<Vec<u64>>,
    /// The points of the two players instead (e.g. 181.5 118.5): score and Elo difference only.
    #[arg(long, num_args = 2, value_names = ["P", "Q"], conflicts_with = "wdl")]
    points: Option<Vec<f64>>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(p) = &args.points {
        let (a, b) = (p[0], p[1]);
        if !(a >= 0.0 && b >= 0.0 && a + b > 0.0) {
            bail!("--points {a} {b}: expected two points totals, at least one above 0");
        }
        let s = a / (a + b);
        println!("score {a} - {b} ({:.1}%)", 100.0 * s);
        println!(
            "Elo difference {:+.1}",
            eloworld_ratings::convert::elo_difference(s)
        );
        return Ok(ExitCode::SUCCESS);
    }
    let (m, unit) = if let Some(p) = &args.pentanomial {
        let pairs = [p[0], p[1], p[2], p[3], p[4]];
        println!(
            "game pairs: {} (pair scores 0/½/1/1½/2: {} {} {} {} {})",
            pairs.iter().sum::<u64>(),
            p[0],
            p[1],
            p[2],
            p[3],
            p[4]
        );
        (MatchStats::from_pentanomial(pairs), "pairs")
    } else if args.wdl.len() == 3 {
        let (w, d, l) = (args.wdl[0], args.wdl[1], args.wdl[2]);
        println!("games: {} ({w} wins, {d} draws, {l} losses)", w + d + l);
        (MatchStats::from_wdl(w, d, l), "games")
    } else {
        bail!("give W D L, --pentanomial P0 P1 P2 P3 P4 or --points P Q");
    };
    if m.games == 0 {
        bail!("no {unit}: nothing to measure");
    }
    println!(
        "score {} - {} ({:.1}%)",
        m.points,
        m.opponent_points,
        100.0 * m.score
    );
    let bound = |x: f64| {
        if x.is_finite() {
            format!("{x:+.1}")
        } else {
            "unbounded".to_owned()
        }
    };
    match m.interval {
        IntervalKind::TwoSided => println!(
            "Elo difference {} (95% interval {} .. {})",
            bound(m.elo),
            bound(m.elo_low),
            bound(m.elo_high)
        ),
        IntervalKind::LowerBoundOnly => println!(
            "Elo difference unbounded above (every one of the {unit} won); one-sided 95% lower bound {}",
            bound(m.elo_low)
        ),
        IntervalKind::UpperBoundOnly => println!(
            "Elo difference unbounded below (every one of the {unit} lost); one-sided 95% upper bound {}",
            bound(m.elo_high)
        ),
        IntervalKind::NoSpread => println!(
            "Elo difference {} (95% interval {} .. {}: all {unit} had the same result; the exact bound on how many could have gone otherwise)",
            bound(m.elo),
            bound(m.elo_low),
            bound(m.elo_high)
        ),
    }
    println!("LOS {:.3}%", 100.0 * m.los);
    Ok(ExitCode::SUCCESS)
}
