//! `eloworld-engine positions` and `eloworld-engine fit-tables`: the two steps of fitting the
//! piece-square, mobility and tempo terms ([`eloworld_engine::pst`]) that need no engine but
//! this one. Between them `scripts/label-positions` has a stronger engine score each position.

use eloworld_engine::evaluate::{Evaluator, PhaseTerms};
use eloworld_engine::pst::{fit, mean_squared_error, FitOptions, FittedTerms, Sample};
use eloworld_engine::see::see;
use eloworld_engine::EvalParams;
use eloworld_games::chess::input::PgnReader;
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position};
use std::io::{BufRead, Write};
use std::path::Path;

/// Whether the side to move is not in check and has no capture or promotion that wins
/// material by static exchange: a position whose static score means what it says.
fn is_quiet(pos: &Chess) -> bool {
    !pos.is_check()
        && pos
            .legal_moves()
            .iter()
            .all(|m| !(m.is_capture() || m.is_promotion()) || see(pos, *m) <= 0)
}

/// Prints the FEN of every `every`-th position of each game of the PGN files (standard chess,
/// from the start or a `FEN` tag) from ply `from_ply` on that is quiet and not over.
pub fn positions(args: &[String]) -> Result<(), String> {
    let mut every = 3usize;
    let mut from_ply = 16usize;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--every" => every = number(it.next(), "--every")?.max(1),
            "--from-ply" => from_ply = number(it.next(), "--from-ply")?,
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            file => files.push(file.to_owned()),
        }
    }
    if files.is_empty() {
        return Err("usage: eloworld-engine positions [--every N] [--from-ply P] PGN…".to_owned());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (mut games, mut kept) = (0u64, 0u64);
    for file in &files {
        let mut reader = PgnReader::open(Path::new(file)).map_err(|e| e.to_string())?;
        while let Some(game) = reader.next_game().map_err(|e| e.to_string())? {
            if game.variant {
                continue;
            }
            games += 1;
            let mut pos = game.start(file).map_err(|e| e.to_string())?;
            for (ply, san) in game.sans.iter().enumerate() {
                let Ok(m) = san.to_move(&pos) else {
                    return Err(game
                        .error(file, format!("illegal move {san} at ply {}", ply + 1))
                        .to_string());
                };
                pos.play_unchecked(m);
                let at = ply + 1;
                if at >= from_ply
                    && (at - from_ply).is_multiple_of(every)
                    && !pos.is_game_over()
                    && is_quiet(&pos)
                {
                    let fen = Fen::from_position(&pos, EnPassantMode::Legal);
                    if writeln!(out, "{fen}").is_err() {
                        return Ok(());
                    }
                    kept += 1;
                }
            }
        }
    }
    eprintln!("{kept} quiet positions from {games} games");
    Ok(())
}

fn number(value: Option<&String>, flag: &str) -> Result<usize, String> {
    value
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("{flag} needs a number"))
}

/// Reads `FEN;CP` lines (CP: the stronger engine's score from White's side) and prints the
/// fitted terms; the fit's figures, every tenth position held out, go to standard error.
pub fn fit_tables(args: &[String]) -> Result<(), String> {
    let mut options = FitOptions::default();
    let mut file = None;
    let mut params = EvalParams::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--epochs" => options.epochs = number(it.next(), "--epochs")?,
            "--free-means" => options.centred = false,
            "--l2" => {
                options.l2 = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--l2 needs a number")?;
            }
            "--params" => {
                let path = it.next().ok_or("--params needs a file")?;
                let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
                params = EvalParams::from_text(&text, path).map_err(|e| e.to_string())?;
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            f => file = Some(f.to_owned()),
        }
    }
    let Some(file) = file else {
        return Err("usage: eloworld-engine fit-tables [--epochs N] [--l2 X] [--free-means] [--params EVAL.params] LABELLED (lines FEN;CP)".to_owned());
    };
    let reader =
        std::io::BufReader::new(std::fs::File::open(&file).map_err(|e| format!("{file}: {e}"))?);
    let mut evaluator = Evaluator::new(params);
    evaluator.set_phase_terms(PhaseTerms {
        king_placement: true,
        passed_pawn_ranks: true,
        ..PhaseTerms::default()
    });
    let mut samples = Vec::new();
    for (n, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| format!("{file}: {e}"))?;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (fen, cp) = line
            .rsplit_once(';')
            .ok_or_else(|| format!("{file}:{}: expected FEN;CP", n + 1))?;
        let cp: i32 = cp
            .trim()
            .parse()
            .map_err(|_| format!("{file}:{}: bad score {cp:?}", n + 1))?;
        let pos =
            eloworld_games::chess::parse_fen(fen).map_err(|e| format!("{file}:{}: {e}", n + 1))?;
        let base = match pos.turn() {
            shakmaty::Color::White => evaluator.evaluate(&pos),
            shakmaty::Color::Black => -evaluator.evaluate(&pos),
        };
        samples.push(Sample::new(pos.board(), pos.turn(), base, cp));
    }
    // Every tenth position is held out of the fit, to show the terms hold beyond it.
    let (mut held, mut fitted) = (Vec::new(), Vec::new());
    for (i, sample) in samples.into_iter().enumerate() {
        if i % 10 == 9 {
            held.push(sample);
        } else {
            fitted.push(sample);
        }
    }
    let (tables, report) = fit(&fitted, options);
    let zero = FittedTerms::zero().weights();
    eprintln!(
        "{} positions fitted, {} held out; scale {:.3}; mean squared error of the win probabilities without the terms / with: fitted {:.6} / {:.6}, held out {:.6} / {:.6}",
        fitted.len(),
        held.len(),
        report.scale,
        report.error_before,
        report.error_after,
        mean_squared_error(&held, report.scale, &zero),
        mean_squared_error(&held, report.scale, &tables.weights()),
    );
    print!("{}", tables.to_text());
    Ok(())
}
