//! `eloworld match`: two engines, the command line fastchess and cutechess-cli users already
//! have, an SPRT that stops the match when it is decided, and results in the store.

use super::match_words::{elo_line, reason};
use crate::standings::{Standings, StandingsText};
use eloworld_match::options::{self as match_options, EngineOptions, MatchOptions};
use eloworld_match::{run_match, Headline, MatchEvent, MatchTally, Pairing};
use eloworld_players::engine::PvWarning;
use eloworld_ratings::sprt::{Sprt, SprtDecision};
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

/// Play a match between two engines with the fastchess / cutechess-cli options
/// (`-engine cmd=… name=… -each tc=10+0.1 -rounds 100 -games 2 -repeat -sprt elo0=0 elo1=5 …`).
#[derive(clap::Args, Debug)]
#[command(disable_help_flag = true)]
pub struct Args {
    /// The options, as fastchess and cutechess-cli take them.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    options: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.options.is_empty() || args.options.iter().any(|o| o == "--help" || o == "-help") {
        println!("{}", HELP.trim());
        return Ok(ExitCode::SUCCESS);
    }
    let options = match_options::parse(&args.options)?;
    for o in &options.without_effect {
        eprintln!("note: {o} is accepted and has no effect in eloworld match");
    }
    play_match(&options)
}

const HELP: &str = "
eloworld match: two engines or more, with the options fastchess and cutechess-cli share.

  -engine cmd=PROGRAM name=NAME [dir=DIR] [args=\"…\"] [proto=uci|xboard]
          [tc=[MOVES/]SECONDS[+INC]] [st=SECONDS] [nodes=N] [depth=N] [timemargin=MS]
          [option.NAME=VALUE …]                 (give -engine for each engine)
  -each   the same settings, for every engine
  -rounds N  -games N  -repeat  -concurrency N  -srand SEED  -noswap  -reverse  -wait MS
  -tournament roundrobin|gauntlet|knockout [-seeds N]   (more than two engines)
  -openings file=FILE format=epd|pgn order=sequential|random start=N plies=N
  -sprt elo0=E0 elo1=E1 alpha=A beta=B model=normalized|logistic   (two engines)
  -resign movecount=N score=CP [twosided=true]   -draw movenumber=N movecount=N score=CP
  -maxmoves N   -tb DIR[:DIR…] [-tbpieces N]   -pgnout file=FILE [append=false]
          [seldepth= nodes= nps= hashfull= tbhits= timeleft= latency= pv=true|false]
          [match_line=REGEX …] [min=true]      (fastchess's per-move comment fields)
  -check-mate-pvs (warn of mate scores whose PV does not reach the mate)   -testEnv
  -crc32 pgn=true   -site TEXT   -event NAME   -variant standard|fischerandom
  -ratinginterval N   -outcomeinterval N   -recover   -debug (engine traffic to stderr)
  -db FILE (eloworld's store; default: the match name .sqlite)
";

/// Writes the results block in fastchess's layout.
fn results_block(
    m: &MatchOptions,
    names: &[String],
    tally: &MatchTally,
    sprt: Option<&Sprt>,
    paired: bool,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "--------------------------------------------------");
    let limit = m.engines[0].describe_limit();
    let other = m.engines[1].describe_limit();
    let limits = if limit == other {
        limit
    } else {
        format!("{limit} - {other}")
    };
    let book = m.openings.as_ref().map_or(String::new(), |o| {
        format!(
            ", {}",
            o.file
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        )
    });
    let option = |key: &str, unit: &str| -> String {
        let value = |e: &EngineOptions| {
            e.options
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map_or("NULL".to_owned(), |(_, v)| format!("{v}{unit}"))
        };
        let (a, b) = (value(&m.engines[0]), value(&m.engines[1]));
        if a == b {
            a
        } else {
            format!("{a} - {b}")
        }
    };
    let _ = writeln!(
        out,
        "Results of {} vs {} ({limits}, {}, {}{book}):",
        names[0],
        names[1],
        option("Threads", "t"),
        option("Hash", "MB")
    );
    let h = Headline::of(&tally.score, sprt, paired);
    let wdl = h.wdl;
    let games = wdl.games();
    let _ = writeln!(out, "{}", elo_line(&h.elo));
    match &h.pairs {
        Some((pairs, s)) => {
            let _ = writeln!(
                out,
                "LOS: {:.2} %, DrawRatio: {:.2} %, PairsRatio: {:.2}",
                100.0 * h.los,
                h.draw_ratio,
                s.pairs_ratio
            );
            let _ = writeln!(
                out,
                "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)",
                wdl.wins, wdl.losses, wdl.draws, h.points, h.percent
            );
            let _ = writeln!(
                out,
                "Ptnml(0-2): {pairs}, WL/DD Ratio: {:.2}",
                s.wl_dd_ratio
            );
        }
        None => {
            let _ = writeln!(
                out,
                "LOS: {:.2} %, DrawRatio: {:.2} %",
                100.0 * h.los,
                h.draw_ratio
            );
            let _ = writeln!(
                out,
                "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)",
                wdl.wins, wdl.losses, wdl.draws, h.points, h.percent
            );
        }
    }
    if let Some(l) = h.llr {
        let _ = writeln!(
            out,
            "LLR: {:.2} ({:.2}, {:.2}) [{:.2}, {:.2}]",
            l.llr, l.lower, l.upper, l.elo0, l.elo1
        );
    }
    let _ = writeln!(out, "--------------------------------------------------");
    out
}

/// Shows every engine's traffic on standard error (`-debug`), from a thread of its own.
fn show_engine_traffic() {
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    eloworld_players::engine::tap_traffic(tx);
    let _ = std::thread::Builder::new()
        .name("engine-traffic".to_owned())
        .spawn(move || {
            let start = std::time::Instant::now();
            for line in rx {
                eprintln!("{} {line}", start.elapsed().as_millis());
            }
        });
}

/// Prints each fault the mate-PV check finds on standard output, from a thread of its own,
/// as fastchess prints it (fishtest's worker stops a test on these words): the warning, the
/// `info` line, the start position and the moves, on lines of their own or, under
/// `-testEnv`, on one line joined by ` :: `.
fn show_pv_warnings(test_env: bool) {
    let (tx, rx) = std::sync::mpsc::channel::<PvWarning>();
    eloworld_players::engine::tap_warnings(tx);
    let _ = std::thread::Builder::new()
        .name("pv-warnings".to_owned())
        .spawn(move || {
            for w in rx {
                println!("{}", pv_warning_text(&w, test_env));
            }
        });
}

/// A mate-PV fault in fastchess's words (`Match::verifyPvLines`).
fn pv_warning_text(w: &PvWarning, test_env: bool) -> String {
    let separator = if test_env { " :: " } else { "\n" };
    let position = w
        .start_fen
        .as_ref()
        .map_or_else(|| "startpos".to_owned(), |fen| format!("fen {fen}"));
    format!(
        "{}{separator}Info; {}{separator}Position; {position}{separator}Moves; {}",
        w.fault.warning(&w.engine),
        w.info_line,
        w.moves
    )
}

fn play_match(m: &MatchOptions) -> anyhow::Result<ExitCode> {
    if m.debug {
        show_engine_traffic();
    }
    if m.check_mate_pvs {
        show_pv_warnings(m.test_env);
    }
    let settings = m.settings()?;
    let pairing = settings.pairing;
    let crc32 = m.pgn_out.as_ref().is_some_and(|p| p.crc32);
    let paired = settings.paired();
    let sprt = m.sprt.map(Sprt::new).transpose()?;
    let names: Vec<String> = settings.engines.iter().map(|d| d.name.clone()).collect();
    let session = crate::session::start(None);
    let (mut pairs_shown, mut games_shown) = (0, 0);
    let mut show = |event: MatchEvent<'_>| {
        if let MatchEvent::NewName { asked, name } = event {
            eprintln!(
                "note: the store holds match {asked:?} with other openings or settings; \
                 this run plays a new match, {name:?}"
            );
            return;
        }
        if let MatchEvent::Copies { warning } = event {
            eprintln!("warning: {warning} (eloworld match: -openings file=… order=random)");
            return;
        }
        if m.quiet {
            return;
        }
        match event {
            MatchEvent::Started {
                game,
                total,
                white,
                black,
            } => println!("Started game {game} of {total} ({white} vs {black})"),
            MatchEvent::Finished {
                game,
                white,
                black,
                result,
                termination,
                tally,
            } => {
                if u64::from(game).is_multiple_of(m.outcome_interval) {
                    println!(
                        "Finished game {game} ({white} vs {black}): {} {{{}}}",
                        result.pgn(),
                        reason(result, termination)
                    );
                }
                // In pairs, as fastchess reports them: when a pair closes, every
                // `-ratinginterval` pairs (so `Games:` is always twice the pairs).
                let (count, counted) = if paired {
                    (tally.score.pairs.pairs(), &mut pairs_shown)
                } else {
                    (tally.games(), &mut games_shown)
                };
                if pairing == Pairing::Match
                    && m.rating_interval > 0
                    && count > *counted
                    && count.is_multiple_of(m.rating_interval)
                {
                    *counted = count;
                    print!("{}", results_block(m, &names, tally, sprt.as_ref(), paired));
                }
            }
            MatchEvent::NewName { .. } | MatchEvent::Copies { .. } => {}
            MatchEvent::PgnWritten { path, crc32: crc } => {
                if crc32 {
                    println!("File {} has CRC32: {crc:#x}", path.display());
                }
            }
        }
    };
    let run = run_match(&session, &settings, &mut show)?;
    if run.decided_before {
        eprintln!(
            "the SPRT was decided by the {} games stored in {}: no more games are played",
            run.summary.done_before, run.location
        );
    }
    let mut out = std::io::stdout().lock();
    if let Some(bracket) = &run.bracket {
        eprint!("{bracket}");
    }
    if pairing == Pairing::Match {
        let block = results_block(m, &run.names, &run.tally, run.sprt.as_ref(), paired);
        let _ = out.write_all(block.as_bytes());
    } else {
        // Every engine's score, then the ratings side by side, as `eloworld rate` prints them
        // from the store.
        let _ = write!(
            out,
            "{}",
            Standings::from_rows(&run.names, &run.rows).table()
        );
        if let Ok(table) = crate::commands::rate::tournament_ratings(&run.rows) {
            let _ = write!(out, "{table}");
        }
    }
    if let (Some(s), Some(d)) = (&run.sprt, run.decision) {
        if d != SprtDecision::Continue {
            let c = s.config();
            let _ = writeln!(
                out,
                "SPRT ([{:.2}, {:.2}]) completed - {} was accepted",
                c.elo0,
                c.elo1,
                if d == SprtDecision::AcceptH1 {
                    "H1"
                } else {
                    "H0"
                }
            );
        }
    }
    let summary = &run.summary;
    let _ = writeln!(
        out,
        "Finished match: {} games stored in {} ({} this run, {:.1} s); time forfeits: {}",
        summary.done_before + summary.stored,
        run.location,
        summary.stored,
        summary.elapsed.as_secs_f64(),
        run.tally.forfeits
    );
    if summary.interrupted && !run.decided() {
        eprintln!("interrupted: run the same command again to play the games left");
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
