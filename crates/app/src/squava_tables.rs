//! The Squava article's tables (bediger4000), as its experiment prints them: the rating runs'
//! final ratings side by side, the round robin's P-wins / Q-wins table and order by wins, the
//! consistency table (R_P/Q with its 95% interval and the article's own, next to
//! 10^(D/400)), and the first player's share of the games. Names are cut to
//! [`eloworld_ratings::SHOWN_NAME_CHARS`] characters so the columns line up.

use crate::squava::{RoundRobin, SquavaExperiment};
use eloworld_ratings::{shown_name, Wdl};

impl SquavaExperiment {
    /// Returns the side-by-side table of the runs' final ratings, a column per run.
    #[must_use]
    pub fn ratings_table(&self) -> String {
        let shown = shown_names(&self.players);
        let width = name_width(&shown, "player");
        let mut out = format!("{:<width$}", "player");
        for k in 1..=self.runs.len() {
            out.push_str(&format!(" {:>6}", format!("run {k}")));
        }
        out.push('\n');
        for (i, p) in shown.iter().enumerate() {
            out.push_str(&format!("{p:<width$}"));
            for run in &self.runs {
                out.push_str(&format!(" {:>6.0}", run[i]));
            }
            out.push('\n');
        }
        out
    }

    /// Returns the first player's share of the games, as the article reports it.
    #[must_use]
    pub fn first_player_line(&self) -> String {
        let w = &self.first_player;
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
}

impl RoundRobin {
    /// Returns the round robin's P-wins / Q-wins table, the order by wins, and the
    /// consistency table with 95% intervals and the article's R_P/Q, the predictions taken
    /// from rating run `run`.
    #[must_use]
    pub fn tables(&self, run: u64) -> String {
        let players = &self.players;
        let check = self.check();
        let shown = shown_names(players);
        let width = name_width(&shown, "player P");
        let mut out = format!(
            "\nRound robin ({} games)\n{:<width$} {:<width$} {:>7} {:>7} {:>6}\n",
            self.rows.len(),
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
}

/// The names as the tables show them.
fn shown_names(players: &[String]) -> Vec<String> {
    players.iter().map(|p| shown_name(p).into_owned()).collect()
}

/// The width of a column of shown names: the widest, in characters, or the header's.
fn name_width(shown: &[String], header: &str) -> usize {
    shown
        .iter()
        .chain(std::iter::once(&header.to_owned()))
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0)
}

/// Formats a ratio, `inf` for a pair that never lost.
fn fmt_ratio(r: f64) -> String {
    if r.is_finite() {
        format!("{r:.2}")
    } else {
        "inf".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn experiment(first_player: Wdl) -> SquavaExperiment {
        SquavaExperiment {
            players: vec!["alphabeta".into(), "mcts".into()],
            games_per_run: 400,
            runs: vec![vec![1318.4, 1109.0], vec![1352.0, 1107.6]],
            round_robin: None,
            first_player,
        }
    }

    #[test]
    fn the_ratings_table_lines_up_runs_side_by_side() {
        assert_eq!(
            experiment(Wdl::default()).ratings_table(),
            "player     run 1  run 2\nalphabeta   1318   1352\nmcts        1109   1108\n"
        );
    }

    #[test]
    fn the_first_players_share_in_percent_of_every_game() {
        let line = experiment(Wdl {
            wins: 3,
            draws: 1,
            losses: 4,
        })
        .first_player_line();
        assert_eq!(
            line,
            "first player (x) won 3 of 8 games (37.5%), second player 4 (50.0%), draws 1 (12.5%)"
        );
    }

    #[test]
    fn a_ratio_without_losses_reads_inf() {
        assert_eq!(fmt_ratio(2.0 / 3.0), "0.67");
        assert_eq!(fmt_ratio(f64::INFINITY), "inf");
    }
}
