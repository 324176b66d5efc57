//! Games simulated from known strengths (`eloworld synth`), written as PGN or CSV with the
//! true strengths beside them, for studying rating methods and for the rating benchmark.
//! The model is `eloworld_ratings::synth`'s (logistic with Davidson's draws, or a cyclic
//! field); this chooses its settings and writes the files.

use crate::error::{AppResult, Context};
use eloworld_ratings::synth::{simulate, SynthConfig};
use eloworld_ratings::{Games, Score};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// What to simulate and where to write it.
#[derive(Clone, Debug, PartialEq)]
pub struct SynthRequest {
    /// Players (named p01, p02, …) when the field is not a cycle.
    pub players: usize,
    /// A cyclic field of this many players instead (rock–paper–scissors for 3).
    pub cycle: Option<u64>,
    /// The cycle's margin in Elo.
    pub cycle_margin: f64,
    /// Games (every ordered pair plays in turn).
    pub games: u64,
    /// Standard deviation of the true strengths in Elo (default 200; 0 with a cycle).
    pub spread: Option<f64>,
    /// Davidson's draw parameter ν.
    pub draw_nu: f64,
    /// White's advantage in Elo.
    pub white_advantage: f64,
    /// The seed.
    pub seed: u64,
    /// The games' file: `.pgn` or `.csv` (`white,black,result`).
    pub out: PathBuf,
    /// The strengths' file (default: the games' file with the extension `truth.csv`).
    pub truth: Option<PathBuf>,
}

/// How the games are written, from the output file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamesFormat {
    /// One PGN game per result, no moves.
    Pgn,
    /// `white,black,result` rows under a header.
    Csv,
}

impl GamesFormat {
    /// Returns the format a file's extension (either case) names.
    ///
    /// # Errors
    /// A name that ends in neither `.pgn` nor `.csv`.
    pub fn of(path: &Path) -> AppResult<GamesFormat> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        match ext.as_str() {
            "pgn" => Ok(GamesFormat::Pgn),
            "csv" => Ok(GamesFormat::Csv),
            _ => crate::invalid!(
                "--out {}: the name must end in .pgn or .csv",
                path.display()
            ),
        }
    }
}

/// What was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SynthWritten {
    /// Games written.
    pub games: u64,
    /// Players.
    pub players: usize,
    /// The games' file.
    pub out: PathBuf,
    /// The strengths' file.
    pub truth: PathBuf,
}

/// Simulates the games `req` asks for and writes them and the strengths (`name,strength`).
///
/// # Errors
/// An output name of neither format, settings the model refuses, a file that cannot be
/// written.
pub fn write_synthetic(req: &SynthRequest) -> AppResult<SynthWritten> {
    let format = GamesFormat::of(&req.out)?;
    let (players, spread_default, cycle_margin) = match req.cycle {
        Some(n) => (
            usize::try_from(n)
                .ok()
                .ok_or_else(|| crate::AppError::Invalid("--cycle: too many players".into()))?,
            0.0,
            req.cycle_margin,
        ),
        None => (req.players, 200.0, 0.0),
    };
    let synth = simulate(&SynthConfig {
        players,
        games: req.games,
        spread: req.spread.unwrap_or(spread_default),
        draw_nu: req.draw_nu,
        advantage: req.white_advantage,
        seed: req.seed,
        cycle_margin,
    })?;
    let file = std::fs::File::create(&req.out)
        .with_context(|| format!("creating {}", req.out.display()))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    write_games(&mut out, &synth.games, format)?;
    out.flush()
        .with_context(|| format!("writing {}", req.out.display()))?;
    let truth = req
        .truth
        .clone()
        .unwrap_or_else(|| req.out.with_extension("truth.csv"));
    let mut text = String::from("name,strength\n");
    for (name, s) in synth.games.names().iter().zip(&synth.strengths) {
        text.push_str(&format!("{name},{s:.3}\n"));
    }
    std::fs::write(&truth, text).with_context(|| format!("writing {}", truth.display()))?;
    Ok(SynthWritten {
        games: req.games,
        players,
        out: req.out.clone(),
        truth,
    })
}

/// Writes `games` in `format`: a CSV header and a row per game, or a PGN game per result
/// (round numbers from 1, no moves).
fn write_games(out: &mut impl Write, games: &Games, format: GamesFormat) -> std::io::Result<()> {
    let names = games.names();
    if format == GamesFormat::Csv {
        writeln!(out, "white,black,result")?;
    }
    for (round, g) in games.games().iter().enumerate() {
        let result = match g.score {
            Score::Win => "1-0",
            Score::Draw => "1/2-1/2",
            Score::Loss => "0-1",
        };
        let (white, black) = (&names[g.first.index()], &names[g.second.index()]);
        match format {
            GamesFormat::Csv => writeln!(out, "{white},{black},{result}")?,
            GamesFormat::Pgn => write!(
                out,
                "[Event \"synth\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"{}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n{result}\n\n",
                round + 1
            )?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(out: PathBuf) -> SynthRequest {
        SynthRequest {
            players: 3,
            cycle: None,
            cycle_margin: 400.0,
            games: 6,
            spread: None,
            draw_nu: 0.0,
            white_advantage: 0.0,
            seed: 1,
            out,
            truth: None,
        }
    }

    #[test]
    fn the_format_follows_the_extension_in_either_case() {
        assert_eq!(
            GamesFormat::of(Path::new("a.PGN")).ok(),
            Some(GamesFormat::Pgn)
        );
        assert_eq!(
            GamesFormat::of(Path::new("a.csv")).ok(),
            Some(GamesFormat::Csv)
        );
        let err = GamesFormat::of(Path::new("a.txt"))
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("--out a.txt: the name must end in .pgn or .csv")
        );
    }

    #[test]
    fn csv_games_and_the_truth_beside_them() -> AppResult<()> {
        let dir = tempfile::tempdir()?;
        let written = write_synthetic(&request(dir.path().join("g.csv")))?;
        assert_eq!(written.truth, dir.path().join("g.truth.csv"));
        assert_eq!((written.games, written.players), (6, 3));
        let games = std::fs::read_to_string(dir.path().join("g.csv"))?;
        let rows: Vec<&str> = games.lines().collect();
        assert_eq!(rows.len(), 7, "{games}");
        assert_eq!(rows[0], "white,black,result");
        // Every ordered pair of the three plays once in six games.
        let mut pairs: Vec<&str> = rows[1..]
            .iter()
            .filter_map(|r| r.rsplit_once(',').map(|(pair, _)| pair))
            .collect();
        pairs.sort_unstable();
        assert_eq!(
            pairs,
            ["p01,p02", "p01,p03", "p02,p01", "p02,p03", "p03,p01", "p03,p02"]
        );
        let truth = std::fs::read_to_string(&written.truth)?;
        assert_eq!(truth.lines().next(), Some("name,strength"));
        assert_eq!(truth.lines().count(), 4);
        Ok(())
    }

    #[test]
    fn pgn_games_are_numbered_rounds_without_moves() -> AppResult<()> {
        let dir = tempfile::tempdir()?;
        let mut req = request(dir.path().join("g.pgn"));
        req.truth = Some(dir.path().join("strengths.csv"));
        let written = write_synthetic(&req)?;
        assert_eq!(written.truth, dir.path().join("strengths.csv"));
        let pgn = std::fs::read_to_string(dir.path().join("g.pgn"))?;
        assert_eq!(pgn.matches("[Event \"synth\"]").count(), 6);
        assert!(pgn.starts_with(
            "[Event \"synth\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n"
        ));
        assert!(pgn.contains("[Round \"6\"]"));
        Ok(())
    }

    #[test]
    fn a_cycle_has_no_spread_unless_asked() -> AppResult<()> {
        let dir = tempfile::tempdir()?;
        let mut req = request(dir.path().join("c.csv"));
        req.cycle = Some(4);
        let written = write_synthetic(&req)?;
        assert_eq!(written.players, 4);
        let truth = std::fs::read_to_string(&written.truth)?;
        for row in truth.lines().skip(1) {
            assert!(row.ends_with(",0.000"), "{row}");
        }
        Ok(())
    }
}
