//! The per-generation checkpoint: one SQLite file (e.g. `evolve.sqlite`) holding every finished
//! generation of every named run, so a killed run resumes after its last finished generation.
//!
//! Every generation is written in its own transaction once its fitnesses are known; a
//! generation in flight when the process dies is simply computed again on resume. Because the
//! random stream of generation `g` is derived from `(seed, g)` alone (see [`crate::ga`]), the
//! resumed run is bit-for-bit the uninterrupted one.

use crate::ga::{Generation, Genome};
use crate::EvolveError;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;

/// A checkpoint database.
#[derive(Debug)]
pub struct Checkpoint {
    conn: Connection,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS runs (
    name TEXT PRIMARY KEY,
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS generations (
    run TEXT NOT NULL REFERENCES runs(name),
    generation INTEGER NOT NULL,
    genomes TEXT NOT NULL,
    fitness TEXT NOT NULL,
    extras TEXT NOT NULL,
    PRIMARY KEY (run, generation)
);";

impl Checkpoint {
    /// Opens (creating if needed) a checkpoint file.
    ///
    /// # Errors
    /// [`EvolveError::Sqlite`] when the file cannot be opened or is not a checkpoint.
    pub fn open(path: &Path) -> Result<Checkpoint, EvolveError> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.execute_batch(SCHEMA)?;
        Ok(Checkpoint { conn })
    }

    /// Opens a checkpoint in memory (for tests and throw-away runs).
    ///
    /// # Errors
    /// [`EvolveError::Sqlite`].
    pub fn in_memory() -> Result<Checkpoint, EvolveError> {
        let conn = Connection::open_in_memory()?;
        conn.execute_batch(SCHEMA)?;
        Ok(Checkpoint { conn })
    }

    /// Registers run `name` with its settings, or checks that an existing run has the same.
    ///
    /// # Errors
    /// [`EvolveError::SettingsMismatch`] when the stored settings differ.
    pub fn start_run(&self, name: &str, settings: &str) -> Result<(), EvolveError> {
        let stored: Option<String> = self
            .conn
            .query_row("SELECT settings FROM runs WHERE name = ?1", [name], |r| {
                r.get(0)
            })
            .optional()?;
        match stored {
            Some(s) if s != settings => Err(EvolveError::SettingsMismatch {
                run: name.to_owned(),
                stored: s,
                given: settings.to_owned(),
            }),
            Some(_) => Ok(()),
            None => {
                self.conn.execute(
                    "INSERT INTO runs (name, settings) VALUES (?1, ?2)",
                    params![name, settings],
                )?;
                Ok(())
            }
        }
    }

    /// Returns the names of the runs stored, in name order.
    ///
    /// # Errors
    /// [`EvolveError::Sqlite`].
    pub fn runs(&self) -> Result<Vec<String>, EvolveError> {
        let mut st = self.conn.prepare("SELECT name FROM runs ORDER BY name")?;
        let names = st
            .query_map([], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(names)
    }

    /// Stores a finished generation of run `name` (replacing one of the same number).
    ///
    /// # Errors
    /// [`EvolveError::Sqlite`].
    pub fn save(&self, name: &str, g: &Generation) -> Result<(), EvolveError> {
        let genomes: Vec<String> = g.genomes.iter().map(|x| bits_text(x)).collect();
        self.conn.execute(
            "INSERT OR REPLACE INTO generations (run, generation, genomes, fitness, extras) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                name,
                i64::try_from(g.index).unwrap_or(i64::MAX),
                genomes.join(","),
                numbers_text(&g.fitness),
                numbers_text(&g.extras)
            ],
        )?;
        Ok(())
    }

    /// Loads every stored generation of run `name`, oldest first (empty for a new run).
    ///
    /// # Errors
    /// [`EvolveError::Corrupt`] for a row that does not read back; [`EvolveError::Sqlite`].
    pub fn load(&self, name: &str) -> Result<Vec<Generation>, EvolveError> {
        let mut st = self.conn.prepare(
            "SELECT generation, genomes, fitness, extras FROM generations WHERE run = ?1 ORDER BY generation",
        )?;
        let rows = st
            .query_map([name], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = Vec::with_capacity(rows.len());
        for (index, genomes, fitness, extras) in rows {
            let index = usize::try_from(index).unwrap_or(0);
            let corrupt = |reason: String| EvolveError::Corrupt {
                run: name.to_owned(),
                generation: index,
                reason,
            };
            if index != out.len() {
                return Err(corrupt(format!("expected generation {}", out.len())));
            }
            let genomes: Vec<Genome> = genomes
                .split(',')
                .map(parse_bits)
                .collect::<Result<_, _>>()
                .map_err(corrupt)?;
            let fitness = parse_numbers(&fitness).map_err(corrupt)?;
            let extras = parse_numbers(&extras).map_err(corrupt)?;
            if fitness.len() != genomes.len() {
                return Err(corrupt(format!(
                    "{} genomes but {} fitnesses",
                    genomes.len(),
                    fitness.len()
                )));
            }
            out.push(Generation {
                index,
                genomes,
                fitness,
                extras,
            });
        }
        Ok(out)
    }
}

/// Writes a genome as `0`/`1` characters.
#[must_use]
pub fn bits_text(bits: &[bool]) -> String {
    bits.iter().map(|&b| if b { '1' } else { '0' }).collect()
}

/// Reads a genome written by [`bits_text`].
///
/// # Errors
/// A message naming the bad character.
pub fn parse_bits(text: &str) -> Result<Genome, String> {
    text.chars()
        .map(|c| match c {
            '0' => Ok(false),
            '1' => Ok(true),
            other => Err(format!("bad bit {other:?} in genome")),
        })
        .collect()
}

/// Rust's `Display` of an `f64` is the shortest text that reads back to the same value.
fn numbers_text(values: &[f64]) -> String {
    values
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn parse_numbers(text: &str) -> Result<Vec<f64>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|t| {
            t.parse::<f64>()
                .map_err(|e| format!("bad number {t:?}: {e}"))
        })
        .collect()
}
