//! The live tournament display: a progress bar with games/s and ETA on a terminal, plain
//! periodic log lines elsewhere (CI, pipes), nothing with `--quiet`.

use crate::standings::Standings;
use crossbeam_channel::Receiver;
use eloworld_tournament::Event;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A live bar on the terminal.
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

/// Shows events until the channel closes; returns the standings of the games seen.
pub fn show(events: Receiver<Event>, players: Vec<String>, mode: Mode) -> Standings {
    let mut standings = Standings::new(&players);
    let bar = match mode {
        Mode::Bar => {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(8));
            b.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {bar:40.cyan/blue} {pos}/{len} games  {per_sec}  ETA {eta}\n  {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            Some(b)
        }
        _ => None,
    };
    let started = Instant::now();
    let mut last_line = Instant::now();
    let (mut total, mut done, mut done_before) = (0u64, 0u64, 0u64);
    let mut in_flight = 0i64;
    for e in events {
        match e {
            Event::RunStarted { total: t, done_before: d, pending, threads } => {
                total = t;
                done = d;
                done_before = d;
                if let Some(b) = &bar {
                    b.set_length(t);
                    b.set_position(d);
                    b.reset_eta();
                }
                if mode == Mode::Lines {
                    eprintln!("{pending} games to play ({d} of {t} already stored) on {threads} threads");
                }
            }
            Event::GameStarted { .. } => in_flight += 1,
            Event::GameFinished { white, black, result, .. } => {
                in_flight -= 1;
                done += 1;
                let (w, b) = (players.get(white as usize), players.get(black as usize));
                if let (Some(w), Some(b)) = (w, b) {
                    standings.add(w, b, result);
                }
                if let Some(bar) = &bar {
                    bar.set_position(done);
                    let leaders: Vec<String> = standings
                        .ranked()
                        .iter()
                        .take(4)
                        .map(|(p, l)| format!("{p} {:.0}%", l.score_pct()))
                        .collect();
                    bar.set_message(format!("in flight {in_flight}  leaders: {}", leaders.join(", ")));
                }
                if mode == Mode::Lines && last_line.elapsed() >= Duration::from_secs(5) {
                    last_line = Instant::now();
                    let rate = (done - done_before) as f64 / started.elapsed().as_secs_f64().max(1e-9);
                    eprintln!("{done}/{total} games, {rate:.1} games/s");
                }
            }
            Event::EngineRestarted { player, reason } => {
                let text = format!("restarted {player}: {reason}");
                match &bar {
                    Some(b) => b.println(text),
                    None if mode == Mode::Lines => eprintln!("{text}"),
                    None => {}
                }
            }
            Event::Checkpoint { .. } | Event::Interrupted { .. } => {}
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    standings
}
