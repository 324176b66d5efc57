//! The live tournament display (Elo World's "attractive ANSI graphics", Murphy's Elo World section 3).
//!
//! On a terminal: a progress bar with games/s and ETA, and under it a standings panel (the
//! leading players by current score, and the games in flight), redrawn in place a few times a
//! second by indicatif, so nothing flickers or scrolls. Elsewhere (CI, pipes): a plain log line
//! every few seconds. `--quiet`: nothing.

use crossbeam_channel::{Receiver, RecvTimeoutError};
use eloworld_app::progress::RunTally;
use eloworld_app::standing::Standings;
use eloworld_tournament::Event;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A live bar and standings panel on the terminal.
    Bar,
    /// A log line every few seconds.
    Lines,
    /// Nothing.
    Quiet,
}

impl Mode {
    /// Picks the bar on a terminal and log lines otherwise.
    pub fn detect(quiet: bool) -> Mode {
        if quiet {
            Mode::Quiet
        } else if std::io::stderr().is_terminal() {
            Mode::Bar
        } else {
            Mode::Lines
        }
    }
}

/// Players shown in the standings panel.
const PANEL_PLAYERS: usize = 8;
/// Games in flight named in the panel.
const PANEL_GAMES: usize = 4;
/// How often the panel's text is rebuilt (the bar itself redraws at 8 Hz).
const PANEL_EVERY: Duration = Duration::from_millis(200);
/// How often a log line is written on a non-terminal.
const LINE_EVERY: Duration = Duration::from_secs(5);

/// Renders the standings panel: the leaders by current score, then the games in flight.
fn panel(progress: &RunTally) -> String {
    let ranked = progress.standings.ranked();
    let width = ranked
        .iter()
        .take(PANEL_PLAYERS)
        .map(|(p, _)| p.chars().count().min(32))
        .max()
        .unwrap_or(6)
        .max(6);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  {:>3}  {:<width$}  {:>7}  {:>6}  {:>16}",
        "#", "player", "score", "games", "+win =draw -loss"
    );
    for (i, (p, l)) in ranked.iter().take(PANEL_PLAYERS).enumerate() {
        let name: String = p.chars().take(32).collect();
        let _ = writeln!(
            out,
            "  {:>3}  {name:<width$}  {:>6.1}%  {:>6}  {:>16}",
            i + 1,
            l.score_pct(),
            l.games(),
            format!("+{} ={} -{}", l.wins, l.draws, l.losses)
        );
    }
    if ranked.len() > PANEL_PLAYERS {
        let _ = writeln!(
            out,
            "       … {} more players",
            ranked.len() - PANEL_PLAYERS
        );
    }
    let games: Vec<String> = progress
        .games_in_flight()
        .take(PANEL_GAMES)
        .map(|(w, b)| format!("{w} – {b}"))
        .collect();
    let more = progress.in_flight().saturating_sub(PANEL_GAMES);
    let _ = write!(
        out,
        "  in flight: {}{}{}",
        progress.in_flight(),
        if games.is_empty() {
            String::new()
        } else {
            format!("  ({}", games.join(", "))
        },
        match (games.is_empty(), more) {
            (true, _) => String::new(),
            (false, 0) => ")".to_owned(),
            (false, m) => format!(", … {m} more)"),
        }
    );
    out
}

/// Renders a log line: games done, rate, ETA and the leader.
fn log_line(progress: &RunTally, elapsed: Duration) -> String {
    let pace = progress.pace(elapsed);
    let eta = pace.eta.map_or_else(|| "?".to_owned(), format_duration);
    let leader = progress
        .leader()
        .map(|(p, pct)| format!("; leader {p} {pct:.1}%"))
        .unwrap_or_default();
    format!(
        "{}/{} games ({:.1}%), {:.1} games/s, ETA {eta}, {} in flight{leader}",
        progress.done,
        progress.total,
        pace.percent,
        pace.rate,
        progress.in_flight()
    )
}

/// Formats a duration as `1h02m03s`, `2m03s` or `3s`.
fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, s) => format!("{h}h{m:02}m{s:02}s"),
    }
}

/// Shows events until the channel closes; returns the standings of the games seen.
pub fn show(events: Receiver<Event>, players: Vec<String>, mode: Mode) -> Standings {
    match mode {
        Mode::Bar => show_bar(&events, players),
        Mode::Lines => show_lines(&events, players, &mut std::io::stderr(), LINE_EVERY),
        Mode::Quiet => {
            let mut p = RunTally::new(players);
            for e in events {
                p.apply(&e);
            }
            p.standings
        }
    }
}

fn show_bar(events: &Receiver<Event>, players: Vec<String>) -> Standings {
    let mut progress = RunTally::new(players);
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(8));
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner:.green} [{elapsed_precise}] {bar:40.cyan/blue} {pos}/{len} games  {per_sec}  ETA {eta}\n{msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // The spinner and clock keep moving while long games are being played.
    bar.enable_steady_tick(Duration::from_millis(250));
    let mut last_panel = Instant::now()
        .checked_sub(PANEL_EVERY)
        .unwrap_or_else(Instant::now);
    loop {
        let event = match events.recv_timeout(PANEL_EVERY) {
            Ok(e) => Some(e),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => break,
        };
        if let Some(e) = &event {
            progress.apply(e);
            match e {
                Event::RunStarted {
                    total, done_before, ..
                } => {
                    bar.set_length(*total);
                    bar.set_position(*done_before);
                    bar.reset_eta();
                }
                Event::GameFinished { .. } => bar.set_position(progress.done),
                Event::EngineRestarted { player, reason } => {
                    bar.println(format!("restarted {player}: {reason}"))
                }
                Event::ResultRejected { job, attempt } => {
                    bar.println(rejected_text(*job, *attempt))
                }
                _ => {}
            }
        }
        if last_panel.elapsed() >= PANEL_EVERY {
            last_panel = Instant::now();
            bar.set_message(panel(&progress));
        }
    }
    bar.finish_and_clear();
    progress.standings
}

/// The log line for a result the store refused (a late report after a lost lease).
fn rejected_text(job: i64, attempt: u32) -> String {
    format!("rejected late result for job {job} (attempt {attempt}): its claim was lost, the game is not counted")
}

fn show_lines(
    events: &Receiver<Event>,
    players: Vec<String>,
    out: &mut dyn Write,
    every: Duration,
) -> Standings {
    let mut progress = RunTally::new(players);
    let started = Instant::now();
    let mut last_line = Instant::now();
    for e in events {
        progress.apply(&e);
        match &e {
            Event::RunStarted {
                total,
                done_before,
                pending,
                threads,
            } => {
                let _ = writeln!(out, "{pending} games to play ({done_before} of {total} already stored) on {threads} threads");
            }
            Event::EngineRestarted { player, reason } => {
                let _ = writeln!(out, "restarted {player}: {reason}");
            }
            Event::ResultRejected { job, attempt } => {
                let _ = writeln!(out, "{}", rejected_text(*job, *attempt));
            }
            Event::GameFinished { .. } if last_line.elapsed() >= every => {
                last_line = Instant::now();
                let _ = writeln!(out, "{}", log_line(&progress, started.elapsed()));
            }
            _ => {}
        }
    }
    if progress.done > progress.done_before {
        let _ = writeln!(out, "{}", log_line(&progress, started.elapsed()));
    }
    progress.standings
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::{GameResult, Side, Termination};

    fn finished(job: u32, white: u32, black: u32, result: GameResult) -> Event {
        Event::GameFinished {
            job,
            white,
            black,
            result,
            termination: Termination::Checkmate,
            plies: 10,
        }
    }

    fn names() -> Vec<String> {
        ["random_move", "first_move", "stockfish1m"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect()
    }

    #[test]
    fn panel_ranks_by_current_score_and_names_games_in_flight() {
        let mut p = RunTally::new(names());
        p.apply(&Event::RunStarted {
            total: 10,
            done_before: 0,
            pending: 10,
            threads: 2,
        });
        for (job, w, b) in [(0, 2, 0), (1, 1, 2), (2, 0, 1), (3, 2, 1)] {
            p.apply(&Event::GameStarted {
                job,
                white: w,
                black: b,
            });
        }
        p.apply(&finished(0, 2, 0, GameResult::Win(Side::First)));
        p.apply(&finished(1, 1, 2, GameResult::Win(Side::Second)));
        p.apply(&finished(2, 0, 1, GameResult::Draw));
        let text = panel(&p);
        let expected = concat!(
            "    #  player         score   games  +win =draw -loss\n",
            "    1  stockfish1m   100.0%       2          +2 =0 -0\n",
            "    2  first_move     25.0%       2          +0 =1 -1\n",
            "    3  random_move    25.0%       2          +0 =1 -1\n",
            "  in flight: 1  (stockfish1m – first_move)"
        );
        assert_eq!(text, expected);
        assert_eq!(p.done, 3);
    }

    #[test]
    fn log_lines_report_progress_rate_and_leader() {
        let (tx, rx) = crossbeam_channel::unbounded();
        tx.send(Event::RunStarted {
            total: 4,
            done_before: 1,
            pending: 3,
            threads: 2,
        })
        .expect("send");
        tx.send(Event::GameStarted {
            job: 1,
            white: 0,
            black: 1,
        })
        .expect("send");
        tx.send(finished(1, 0, 1, GameResult::Win(Side::First)))
            .expect("send");
        tx.send(Event::EngineRestarted {
            player: "stockfish1m".to_owned(),
            reason: "crashed".to_owned(),
        })
        .expect("send");
        drop(tx);
        let mut out = Vec::new();
        let standings = show_lines(&rx, names(), &mut out, Duration::ZERO);
        let text = String::from_utf8(out).expect("UTF-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "3 games to play (1 of 4 already stored) on 2 threads"
        );
        assert!(lines[1].starts_with("2/4 games (50.0%), "), "{}", lines[1]);
        assert!(
            lines[1].ends_with(" 0 in flight; leader random_move 100.0%"),
            "{}",
            lines[1]
        );
        assert_eq!(lines[2], "restarted stockfish1m: crashed");
        assert_eq!(lines.len(), 4, "a closing line: {text}");
        assert_eq!(standings.ranked()[0].0, "random_move");
    }

    #[test]
    fn durations_read_like_a_clock() {
        assert_eq!(format_duration(Duration::from_secs(7)), "7s");
        assert_eq!(format_duration(Duration::from_secs(125)), "2m05s");
        assert_eq!(format_duration(Duration::from_secs(3723)), "1h02m03s");
    }
}
