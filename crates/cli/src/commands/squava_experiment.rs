//! `eloworld squava-experiment`: the Squava article's experiment (bediger4000) end to end. Three rating runs of random pairings,
//! each rated with US Chess's incremental Elo (1300 from 14 effective games) in game order,
//! side by side; then a round robin, its P-wins / Q-wins table, and the consistency table
//! (R_P/Q next to 10^(D/400)) computed with the last run's ratings.

use crate::rating_table::shortened;
use crate::standings::column_width;
use eloworld_app::squava::{run_experiment, RoundRobin, SquavaSettings};
use eloworld_ratings::Wdl;
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
        print!("{}", round_robin_tables(rr, args.runs));
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
fn round_robin_tables(rr: &RoundRobin, run: u64) -> String {
    let players = &rr.players;
    let check = rr.check();
    let shown: Vec<String> = players.iter().map(|p| shortened(p)).collect();
    let width = column_width(&shown, "player P");
    let mut out = format!(
        "\nRound robin ({} games)\n{:<width$} {:<width$} {:>7} {:>7} {:>6}\n",
        rr.rows.len(),
        "player P",
        "player Q",
        "P wins",
        "Q wins",
        "draws"
    );
    for (p, q, wdl) in &check.pairs {
        let Wdl {
            wins: w,
            draws: d,
            losses: l,
        } = *wdl;
        out.push_str(&format!(
            "{:<width$} {:<width$} {w:>7} {l:>7} {d:>6}\n",
            shown[*p], shown[*q]
        ));
    }
    let order: Vec<String> = check
        .by_wins
        .iter()
        .map(|&(i, wins)| format!("{} ({wins} wins)", players[i]))
        .collect();
    out.push_str(&format!("order by games won: {}\n", order.join(" > ")));
    let table = &check.consistency;
    out.push_str(&format!(
        "\nRatings vs round robin (run {run} ratings; R_P/Q = s/(1 − s), s = P's score fraction, \
         95% Wilson interval; the article's R_P/Q from its 800-game pairs)\n\
         {:<width$} {:<width$} {:>7} {:>15} {:>7} {:>6} {:>10}\n",
        "player P", "player Q", "R_P/Q", "95% interval", "article", "D", "10^(D/400)"
    ));
    for (r, ratio) in table.pairs.iter().zip(&check.ratios) {
        let (low, high) = ratio.interval;
        let article = ratio
            .article
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
