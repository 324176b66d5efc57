//! `eloworld squava-experiment`: the Squava article's experiment (bediger4000) end to end. Three rating runs of random pairings,
//! each rated with US Chess's incremental Elo (1300 from 14 effective games) in game order,
//! side by side; then a round robin, its P-wins / Q-wins table, and the consistency table
//! (R_P/Q next to 10^(D/400)) computed with the last run's ratings.

use crate::rating_table::shortened;
use crate::standings::column_width;
use eloworld_app::squava::{run_experiment, SquavaSettings};
use eloworld_ratings::consistency::consistency;
use eloworld_ratings::{Games, Wdl};
use eloworld_tournament::GameRow;
use std::path::PathBuf;
use std::process::ExitCode;

/// Run the Squava article's experiment (rating runs, round robin) and print its tables.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The rating runs' tournament file (random pairings).
    #[arg(long, default_value = "tournaments/squava-elo.toml")]
    elo: PathBuf,
    /// The round robin's tournament file.
    #[arg(long, default_value = "tournaments/squava-round-robin.toml")]
    round_robin: PathBuf,
    /// Rating runs; run k is named NAME-runK and uses the file's seed + k − 1.
    #[arg(long, default_value_t = 3)]
    runs: u64,
    /// Games in each rating run (default: the file's, the article's 400).
    #[arg(long, value_name = "N")]
    games: Option<u32>,
    /// Round-robin games per ordered pair, so 2N per pair (default: the file's, the
    /// article's 400). A shorter experiment: `--games 100 --games-per-pair 20`.
    #[arg(long, value_name = "N")]
    games_per_pair: Option<u32>,
    /// Play only the rating runs.
    #[arg(long)]
    skip_round_robin: bool,
    /// Worker threads (default: the files' setting, else all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Show no progress.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let session = crate::session::with_display(crate::session::start(None), args.quiet);
    let e = run_experiment(
        &session,
        &SquavaSettings {
            elo: args.elo.clone(),
            round_robin: args.round_robin.clone(),
            runs: args.runs,
            games: args.games,
            games_per_pair: args.games_per_pair,
            skip_round_robin: args.skip_round_robin,
            threads: args.threads,
        },
    )?;
    println!(
        "\nUS Chess incremental ratings (1300 from 14 effective games), {} games a run",
        e.games_per_run
    );
    print!("{}", ratings_table(&e.players, &e.runs));
    if let Some(rr) = &e.round_robin {
        print!(
            "{}",
            round_robin_tables(&rr.players, &rr.rows, &rr.ratings, args.runs)
        );
    }
    println!("\n{}", first_player_line(&e.first_player));
    Ok(ExitCode::SUCCESS)
}

/// The side-by-side table of the runs' final ratings, like the Squava article's.
fn ratings_table(players: &[String], runs: &[Vec<f64>]) -> String {
    let shown: Vec<String> = players.iter().map(|p| shortened(p)).collect();
    let width = column_width(&shown, "player");
    let mut out = format!("{:<width$}", "player");
    for k in 1..=runs.len() {
        out.push_str(&format!(" {:>6}", format!("run {k}")));
    }
    out.push('\n');
    for (i, p) in shown.iter().enumerate() {
        out.push_str(&format!("{p:<width$}"));
        for run in runs {
            out.push_str(&format!(" {:>6.0}", run[i]));
        }
        out.push('\n');
    }
    out
}

/// The article's R_P/Q (P wins / Q wins of its 800-game pairs), by our player names.
const ARTICLE_RATIOS: [(&str, &str, f64); 6] = [
    ("alphabeta", "alphabeta_better", 0.62),
    ("alphabeta", "mcts", 4.37),
    ("alphabeta", "mcts_uct", 0.65),
    ("alphabeta_better", "mcts", 5.45),
    ("alphabeta_better", "mcts_uct", 0.72),
    ("mcts", "mcts_uct", 0.14),
];

/// Returns the article's R_P/Q for `p` against `q`, if it measured that pair.
fn article_ratio(p: &str, q: &str) -> Option<f64> {
    ARTICLE_RATIOS.iter().find_map(|&(a, b, r)| {
        if (a, b) == (p, q) {
            Some(r)
        } else if (a, b) == (q, p) {
            Some(1.0 / r)
        } else {
            None
        }
    })
}

/// The 95% Wilson score interval (Wilson, JASA 1927) of a score fraction `s` over `n`
/// games, carried to R = s / (1 − s), which grows with s.
fn ratio_interval(s: f64, n: f64) -> (f64, f64) {
    const Z: f64 = 1.959_964;
    if n <= 0.0 {
        return (0.0, f64::INFINITY);
    }
    let z2 = Z * Z;
    let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    let ratio = |p: f64| {
        if p >= 1.0 {
            f64::INFINITY
        } else {
            p / (1.0 - p)
        }
    };
    let low = if s <= 0.0 {
        0.0
    } else {
        ratio((centre - half).max(0.0))
    };
    // A pair that never lost has no upper end (rounding would give a huge finite one).
    let high = if s >= 1.0 {
        f64::INFINITY
    } else {
        ratio((centre + half).min(1.0))
    };
    (low, high)
}

/// Formats a ratio, `inf` for a pair that never lost.
fn fmt_ratio(r: f64) -> String {
    if r.is_finite() {
        format!("{r:.2}")
    } else {
        "inf".to_owned()
    }
}

/// The round robin's P-wins / Q-wins table, the order by wins, and the consistency table
/// with 95% intervals and the article's R_P/Q.
fn round_robin_tables(players: &[String], rows: &[GameRow], ratings: &[f64], run: u64) -> String {
    let mut games = Games::case_sensitive();
    for p in players {
        games.player(p);
    }
    eloworld_tournament::add_results(&mut games, rows);
    let counts = games.counts();
    let shown: Vec<String> = players.iter().map(|p| shortened(p)).collect();
    let width = column_width(&shown, "player P");
    let mut out = format!(
        "\nRound robin ({} games)\n{:<width$} {:<width$} {:>7} {:>7} {:>6}\n",
        rows.len(),
        "player P",
        "player Q",
        "P wins",
        "Q wins",
        "draws"
    );
    let mut wins = vec![0u64; players.len()];
    for p in 0..players.len() {
        for q in p + 1..players.len() {
            let [l, d, w] = counts.pair(p, q);
            wins[p] += w as u64;
            wins[q] += l as u64;
            out.push_str(&format!(
                "{:<width$} {:<width$} {w:>7} {l:>7} {d:>6}\n",
                shown[p], shown[q]
            ));
        }
    }
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(wins[i]));
    let order: Vec<String> = order
        .iter()
        .map(|&i| format!("{} ({} wins)", players[i], wins[i]))
        .collect();
    out.push_str(&format!("order by games won: {}\n", order.join(" > ")));
    let table = consistency(&counts, ratings);
    out.push_str(&format!(
        "\nRatings vs round robin (run {run} ratings; R_P/Q = s/(1 − s), s = P's score fraction, \
         95% Wilson interval; the article's R_P/Q from its 800-game pairs)\n\
         {:<width$} {:<width$} {:>7} {:>15} {:>7} {:>6} {:>10}\n",
        "player P", "player Q", "R_P/Q", "95% interval", "article", "D", "10^(D/400)"
    ));
    for r in &table.pairs {
        let (low, high) = ratio_interval(r.score / r.games as f64, r.games as f64);
        let article = article_ratio(&players[r.p], &players[r.q])
            .map_or_else(|| "-".to_owned(), |a| format!("{a:.2}"));
        let interval = format!("{}–{}", fmt_ratio(low), fmt_ratio(high));
        out.push_str(&format!(
            "{:<width$} {:<width$} {:>7} {:>15} {:>7} {:>6.0} {:>10.2}\n",
            shown[r.p],
            shown[r.q],
            fmt_ratio(r.observed),
            interval,
            article,
            r.difference,
            r.predicted
        ));
    }
    out.push_str(&format!(
        "log-loss per game {:.3}; RMS score error over pairs {:.3}\n",
        table.log_loss, table.rms_score_error
    ));
    out
}

/// The first player's share of the games, as the article reports it.
fn first_player_line(w: &Wdl) -> String {
    let Wdl {
        wins: first,
        draws,
        losses: second,
    } = *w;
    let n = w.games().max(1) as f64;
    format!(
        "first player (x) won {} of {} games ({:.1}%), second player {} ({:.1}%), draws {} ({:.1}%)",
        first,
        w.games(),
        100.0 * first as f64 / n,
        second,
        100.0 * second as f64 / n,
        draws,
        100.0 * draws as f64 / n
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_intervals_follow_wilson() {
        // 651 of 800 (the article's alphabeta vs mcts): s = 0.81375, R = 4.37. Wilson by
        // hand: centre 0.81225, half-width 0.02695, so s in 0.78530..0.83920 and R in
        // 3.6576..5.2191.
        let (low, high) = ratio_interval(651.0 / 800.0, 800.0);
        assert!((low - 3.6576).abs() < 0.001, "{low}");
        assert!((high - 5.2191).abs() < 0.001, "{high}");
        // A pair that never lost has no upper end.
        assert_eq!(ratio_interval(1.0, 10.0).1, f64::INFINITY);
        assert_eq!(article_ratio("mcts", "alphabeta"), Some(1.0 / 4.37));
        assert_eq!(article_ratio("mcts", "random_move"), None);
    }

    #[test]
    fn the_ratings_table_lines_up_runs_side_by_side() {
        let t = ratings_table(
            &["alphabeta".into(), "mcts".into()],
            &[vec![1318.4, 1109.0], vec![1352.0, 1107.6]],
        );
        assert_eq!(
            t,
            "player     run 1  run 2\nalphabeta   1318   1352\nmcts        1109   1108\n"
        );
    }
}
