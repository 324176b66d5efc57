//! Engine definitions: what to run, how to speak to it, and how long it may think,
//! read from an `engines.toml` file.
//!
//! ```toml
//! [[engine]]
//! name = "stockfish0"                  # the player's name in specs
//! description = "Stockfish at Skill Level 0"
//! command = "stockfish"                # looked up in PATH, then /usr/games; or a path
//! args = []
//! protocol = "uci"                     # uci | cecp
//! package = "stockfish"                # the Debian package that provides it
//! options = { "Skill Level" = 0 }      # UCI setoption / CECP option=
//! budget = { depth = 10 }              # nodes | depth | movetime (ms), per move
//! timeout_ms = 60000                   # no move within this: engine-timeout
//! ```

use super::process::KeptLines;
use super::time_control::{ClockReading, TimeControl};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The built-in definitions (`engines.toml` beside this file).
pub const BUILTIN_ENGINES: &str = include_str!("engines.toml");

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// The Universal Chess Interface.
    #[default]
    Uci,
    /// The Chess Engine Communication Protocol (xboard/WinBoard), version 2.
    Cecp,
    /// The Go Text Protocol, version 2 (Go programs: GNU Go, Pachi).
    Gtp,
}

/// How much an engine may think per move; the UCI `go` limits. Several limits may be
/// combined; none means `depth` 10.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    /// Nodes per move (`go nodes N`).
    pub nodes: Option<u64>,
    /// Plies of full-width search (`go depth D`, CECP `sd D`).
    pub depth: Option<u32>,
    /// Milliseconds per move (`go movetime T`, CECP `st` in whole seconds).
    pub movetime: Option<u64>,
}

impl Budget {
    /// Returns the budget used when a definition gives none.
    #[must_use]
    pub const fn fallback() -> Budget {
        Budget {
            nodes: None,
            depth: Some(10),
            movetime: None,
        }
    }

    /// Returns whether no limit is set.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.nodes.is_none() && self.depth.is_none() && self.movetime.is_none()
    }

    /// Appends the UCI `go` command for this budget.
    pub fn write_go(&self, out: &mut String) {
        self.write_go_on_clock(out, None);
    }

    /// Appends the UCI `go` command for this budget and, for an engine on a clock, both
    /// clocks (`wtime btime winc binc movestogo`).
    pub fn write_go_on_clock(&self, out: &mut String, clocks: Option<&ClockReading>) {
        use std::fmt::Write;
        out.push_str("go");
        if let Some(c) = clocks {
            c.write_uci(out);
        }
        if let Some(n) = self.nodes {
            let _ = write!(out, " nodes {n}");
        }
        if let Some(d) = self.depth {
            let _ = write!(out, " depth {d}");
        }
        if let Some(t) = self.movetime {
            let _ = write!(out, " movetime {t}");
        }
        out.push('\n');
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("{t} ms"));
        }
        f.write_str(&parts.join(", "))
    }
}

/// An option value as written in the file: a number, a boolean or text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    /// A whole number (`Skill Level = 0`).
    Int(i64),
    /// A check box (`Ponder = false`).
    Bool(bool),
    /// Anything else.
    Text(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Int(v) => write!(f, "{v}"),
            OptionValue::Bool(v) => write!(f, "{v}"),
            OptionValue::Text(v) => f.write_str(v),
        }
    }
}

fn default_timeout_ms() -> u64 {
    60_000
}

/// How long an engine may take to answer its handshake: long enough for a loaded machine
/// running a tournament at the lowest priority (10 s stopped such runs twice), short enough
/// that a program that is no engine is named within half a minute.
fn default_handshake_ms() -> u64 {
    30_000
}

/// One engine player: the program, its protocol and settings, and its budget.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineDef {
    /// The player's name in specs (`stockfish0`).
    pub name: String,
    /// One line saying what it is.
    #[serde(default)]
    pub description: String,
    /// The program: a name looked up in `PATH` and then `/usr/games`, or a path (relative
    /// paths are relative to the definitions file).
    pub command: String,
    /// Arguments, passed as they are (no shell).
    #[serde(default)]
    pub args: Vec<String>,
    /// The protocol.
    #[serde(default)]
    pub protocol: Protocol,
    /// The Debian package that provides the program, named when it is missing.
    #[serde(default)]
    pub package: Option<String>,
    /// How to install the program where no Debian package carries it (`scripts/crafty`),
    /// named when it is missing.
    #[serde(default)]
    pub install: Option<String>,
    /// Engine options, set after the handshake.
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    /// The budget per move.
    #[serde(default)]
    pub budget: Budget,
    /// The longest wait for one move, in milliseconds.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    /// The longest wait for the handshake and for readiness, in milliseconds.
    #[serde(default = "default_handshake_ms")]
    pub handshake_ms: u64,
    /// Sends only the current position (`position fen …`) without the moves that led to
    /// it, as Elo World did (Murphy's Elo World, section 2.3): the engine cannot see repetitions.
    #[serde(default)]
    pub fen_only: bool,
    /// The CECP command that limits the search depth: `sd` (the protocol's), or what the
    /// engine reads instead (`depth` for phalanx and gnuchess).
    #[serde(default)]
    pub depth_command: Option<String>,
    /// Sends a CECP `st` in fractions of a second (`st 0.1` for 100 ms), for engines that
    /// read it so (Crafty); the protocol's `st` is whole seconds, rounded up.
    #[serde(default)]
    pub fractional_st: bool,
    /// The time control (`tc = "40/60+0.6"`), when the engine plays on a clock; the budget
    /// then only adds limits (nodes, depth) to it.
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    /// Milliseconds an engine on a clock may overrun its time before it loses on time
    /// (cutechess's `timemargin`).
    #[serde(default)]
    pub time_margin_ms: u64,
    /// Plays Fischer random chess: the engine is told `UCI_Chess960` and castles king takes rook.
    #[serde(default)]
    pub chess960: bool,
    /// Thinks on the opponent's time (cutechess-cli's `ponder`), UCI engines: `go ponder`
    /// on the reply it expects, `ponderhit` when that reply is played, `stop` otherwise.
    #[serde(default)]
    pub ponder: bool,
    /// A Polyglot opening book the runner plays from for this engine (cutechess's `book=`).
    #[serde(default)]
    pub book: Option<PathBuf>,
    /// Full moves of the game played from the book at most (cutechess's `bookdepth=`).
    #[serde(default)]
    pub book_depth: Option<u32>,
    /// Whether the engine gives the same move from the same position every time (`true`)
    /// or varies (`false`); none: judged from the definition ([`EngineDef::determinism`]).
    #[serde(default)]
    pub deterministic: Option<bool>,
    /// The directory of the file it came from, for relative commands.
    #[serde(skip)]
    pub base_dir: Option<PathBuf>,
    /// Which `info` lines of each search the player keeps as text (for the PGN's `pv` and
    /// `match_line` comments); set by the match, not by a definitions file.
    #[serde(skip)]
    pub kept_lines: KeptLines,
    /// Whether each mate score's principal variation is checked (fastchess's
    /// `-check-mate-pvs`); faults go to [`super::tap_warnings`]'s sink.
    #[serde(skip)]
    pub check_mate_pvs: bool,
}

impl EngineDef {
    /// Whether the engine replays its moves: as the definition says (`deterministic =`), else
    /// deterministic when it searches a node or depth budget alone (no clock, no movetime, no
    /// pondering) on one thread, without a book, a Stockfish skill level below 20 (which picks
    /// among its best moves at random) or `UCI_LimitStrength`. A GTP program is taken not to
    /// vary unless its definition says so: GNU Go seeds its few random choices from the
    /// clock, but most of its moves in a position are the same every time.
    #[must_use]
    pub fn determinism(&self) -> crate::Determinism {
        let fixed = self.deterministic.unwrap_or_else(|| {
            let budget = self.effective_budget();
            let int = |key: &str| match self.options.get(key) {
                Some(OptionValue::Int(v)) => Some(*v),
                _ => None,
            };
            let limited_strength = matches!(
                self.options.get("UCI_LimitStrength"),
                Some(OptionValue::Bool(true))
            );
            self.time_control.is_none()
                && budget.movetime.is_none()
                && (budget.nodes.is_some() || budget.depth.is_some())
                && !self.ponder
                && self.book.is_none()
                && int("Threads").is_none_or(|t| t <= 1)
                && int("Skill Level").is_none_or(|s| s >= 20)
                && !limited_strength
        });
        if fixed {
            crate::Determinism::Deterministic
        } else {
            crate::Determinism::Randomised
        }
    }

    /// The `info` lines the engine's reader keeps: those the PGN asks for, and at least
    /// the mate scores when they are checked.
    #[must_use]
    pub fn lines_to_keep(&self) -> KeptLines {
        match self.kept_lines {
            KeptLines::Nothing if self.check_mate_pvs => KeptLines::MateScores,
            kept => kept,
        }
    }

    /// Returns the budget, or the fallback when none is given.
    #[must_use]
    pub fn effective_budget(&self) -> Budget {
        if self.budget.is_empty() && self.time_control.is_none() {
            Budget::fallback()
        } else {
            self.budget
        }
    }

    /// Finds the program: a path as given (relative to the definitions file), or a name
    /// in `PATH` and then in `/usr/games` (where Debian installs its chess engines).
    ///
    /// # Errors
    /// [`EngineFileError::Missing`] naming the program and the package to install.
    pub fn locate(&self) -> Result<PathBuf, EngineFileError> {
        let missing = || EngineFileError::Missing {
            engine: self.name.clone(),
            command: self.command.clone(),
            package: self.package.clone(),
            install: self.install.clone(),
        };
        if self.command.contains('/') {
            let path = Path::new(&self.command);
            let path = match (&self.base_dir, path.is_relative()) {
                (Some(dir), true) => dir.join(path),
                _ => path.to_path_buf(),
            };
            return if path.is_file() {
                Ok(path)
            } else {
                Err(missing())
            };
        }
        let path_dirs =
            std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect::<Vec<_>>());
        path_dirs
            .unwrap_or_default()
            .into_iter()
            .chain(std::iter::once(PathBuf::from("/usr/games")))
            .map(|dir| dir.join(&self.command))
            .find(|p| p.is_file())
            .ok_or_else(missing)
    }

    /// Returns the key of the process this definition runs: definitions that differ only
    /// in budget (`stockfish10k`, `stockfish1m`) share one process per worker.
    #[must_use]
    pub fn process_key(&self) -> String {
        format!(
            "engine|{:?}|{}|{:?}|{:?}|{:?}",
            self.protocol,
            self.command,
            self.args,
            self.options,
            self.lines_to_keep()
        )
    }
}

/// A definitions file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineFile {
    #[serde(default)]
    engine: Vec<EngineDef>,
}

/// Errors in engine definitions.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum EngineFileError {
    /// The file cannot be read.
    #[error("cannot read engine definitions {path}: {reason}")]
    Read {
        /// The file.
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// The file is not valid.
    #[error("bad engine definitions in {path}: {reason}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong, with the line.
        reason: String,
    },
    /// An engine's program is not installed.
    #[error("engine {engine}: program {command:?} not found in PATH or /usr/games{}", install_hint(.package, .install))]
    Missing {
        /// The engine's name.
        engine: String,
        /// The program as given.
        command: String,
        /// The Debian package that provides it.
        package: Option<String>,
        /// How to install it otherwise.
        install: Option<String>,
    },
}

fn install_hint(package: &Option<String>, install: &Option<String>) -> String {
    match (package, install) {
        (Some(p), _) => format!("; install the Debian package {p} (apt-get install {p})"),
        (None, Some(how)) => format!("; build and install it with {how}"),
        (None, None) => String::new(),
    }
}

/// Parses definitions from TOML text; `origin` names it in errors and `base_dir` anchors
/// relative commands.
///
/// # Errors
/// [`EngineFileError::Invalid`] for bad TOML, unknown keys, a bad name or a CECP engine
/// with a node budget.
pub fn parse_definitions(
    text: &str,
    origin: &str,
    base_dir: Option<&Path>,
) -> Result<Vec<EngineDef>, EngineFileError> {
    let invalid = |reason: String| EngineFileError::Invalid {
        path: origin.to_owned(),
        reason,
    };
    let file: EngineFile = toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
    let mut defs = file.engine;
    for d in &mut defs {
        d.base_dir = base_dir.map(Path::to_path_buf);
        let name_ok = !d.name.is_empty()
            && d.name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
            && !d.name.contains("_r");
        if !name_ok {
            return Err(invalid(format!(
                "engine name {:?}: use letters, digits, '_', '-', '.', and not \"_r\" (it marks dilution)",
                d.name
            )));
        }
        if d.command.is_empty() {
            return Err(invalid(format!("engine {}: command is empty", d.name)));
        }
        if d.protocol == Protocol::Cecp && d.budget.nodes.is_some() {
            return Err(invalid(format!(
                "engine {}: CECP engines take a depth or movetime budget, not nodes",
                d.name
            )));
        }
    }
    Ok(defs)
}

/// Reads definitions from a file.
///
/// # Errors
/// [`EngineFileError::Read`] when it cannot be read, or as [`parse_definitions`].
pub fn read_definitions(path: &Path) -> Result<Vec<EngineDef>, EngineFileError> {
    let text = std::fs::read_to_string(path).map_err(|e| EngineFileError::Read {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    parse_definitions(&text, &path.display().to_string(), path.parent())
}

/// Returns the built-in definitions.
///
/// # Panics
/// Never: the built-in file is checked by the tests.
#[must_use]
pub fn builtin_definitions() -> Vec<EngineDef> {
    parse_definitions(BUILTIN_ENGINES, "built-in engines.toml", None)
        .expect("built-in engines.toml is valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_is_deterministic_at_a_node_or_depth_budget_alone() {
        use crate::Determinism::{Deterministic, Randomised};
        let defs = builtin_definitions();
        let def = |name: &str| defs.iter().find(|d| d.name == name).cloned().expect(name);
        // Full skill at depth 10, and a node budget: the same move every time.
        assert_eq!(def("stockfish20").determinism(), Deterministic);
        assert_eq!(def("stockfish1m").determinism(), Deterministic);
        // A skill level below 20 picks among the best moves at random.
        assert_eq!(def("stockfish5").determinism(), Randomised);
        let mut timed = def("stockfish1m");
        timed.budget = Budget {
            nodes: None,
            depth: None,
            movetime: Some(50),
        };
        assert_eq!(timed.determinism(), Randomised, "a time budget varies");
        let mut threads = def("stockfish1m");
        threads
            .options
            .insert("Threads".into(), OptionValue::Int(4));
        assert_eq!(threads.determinism(), Randomised, "several threads vary");
        let mut said = threads.clone();
        said.deterministic = Some(true);
        assert_eq!(
            said.determinism(),
            Deterministic,
            "the definition's word wins"
        );
        let file = "[[engine]]\nname = \"g\"\ncommand = \"gnugo\"\nprotocol = \"gtp\"\n";
        let gtp = parse_definitions(file, "f.toml", None).expect("gtp");
        assert_eq!(
            gtp[0].determinism(),
            Deterministic,
            "GTP programs are fixed unless told"
        );
        let file = "[[engine]]\nname = \"g\"\ncommand = \"gnugo\"\nprotocol = \"gtp\"\ndeterministic = false\n";
        let gtp = parse_definitions(file, "f.toml", None).expect("gtp");
        assert_eq!(gtp[0].determinism(), Randomised);
    }

    #[test]
    fn builtin_file_parses() {
        let defs = builtin_definitions();
        for name in [
            "stockfish",
            "stockfish0",
            "stockfish5",
            "stockfish10",
            "stockfish15",
            "stockfish20",
            "stockfish1m",
        ] {
            assert!(defs.iter().any(|d| d.name == name), "{name} is built in");
        }
        let sf0 = defs
            .iter()
            .find(|d| d.name == "stockfish0")
            .expect("stockfish0");
        assert_eq!(sf0.options.get("Skill Level"), Some(&OptionValue::Int(0)));
        let sf1m = defs
            .iter()
            .find(|d| d.name == "stockfish1m")
            .expect("stockfish1m");
        assert_eq!(sf1m.budget.nodes, Some(1_000_000));
    }

    #[test]
    fn bad_files_name_the_problem() {
        let e = parse_definitions(
            "[[engine]]\nname = \"x\"\ncommand = \"x\"\nbogus = 1\n",
            "f.toml",
            None,
        )
        .expect_err("unknown key");
        assert!(
            e.to_string().contains("bogus") && e.to_string().contains("f.toml"),
            "{e}"
        );
        let e = parse_definitions(
            "[[engine]]\nname = \"x_r5\"\ncommand = \"x\"\n",
            "f.toml",
            None,
        )
        .expect_err("bad name");
        assert!(e.to_string().contains("x_r5"), "{e}");
        let e = parse_definitions("[[engine]]\nname = \"x\"\ncommand = \"x\"\nprotocol = \"cecp\"\nbudget = { nodes = 5 }\n", "f.toml", None)
            .expect_err("cecp nodes");
        assert!(e.to_string().contains("CECP"), "{e}");
    }

    #[test]
    fn a_missing_program_names_its_package() {
        let d = parse_definitions(
            "[[engine]]\nname = \"nope\"\ncommand = \"no-such-engine-xyz\"\npackage = \"nope-chess\"\n",
            "f.toml",
            None,
        )
        .expect("valid");
        let e = d[0].locate().expect_err("missing");
        assert!(e.to_string().contains("apt-get install nope-chess"), "{e}");
    }

    #[test]
    fn go_commands_follow_the_budget() {
        let mut s = String::new();
        Budget {
            nodes: Some(1000),
            depth: None,
            movetime: None,
        }
        .write_go(&mut s);
        Budget {
            nodes: None,
            depth: Some(3),
            movetime: Some(50),
        }
        .write_go(&mut s);
        assert_eq!(s, "go nodes 1000\ngo depth 3 movetime 50\n");
    }
}
