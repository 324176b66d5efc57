//! The UCI adapter: handshake, options, new games, and one search per move.

use super::definitions::{Budget, EngineDef};
use super::process::{EngineProcess, Fault};
use super::search_info::SearchInfo;
use super::time_control::ClockReading;
use super::Position;
use std::time::Duration;

/// A UCI engine after its handshake.
pub struct UciSession {
    process: EngineProcess,
    /// The engine's `id name`.
    pub id_name: String,
    /// The options the engine declared (`option name …`).
    pub declared_options: Vec<String>,
    handshake: Duration,
    /// Whether the engine thinks on its opponent's time (cutechess-cli's `ponder`).
    ponder: bool,
    /// The reply the engine expects, from its last `bestmove … ponder MOVE`.
    guess: Option<String>,
    /// The position (`position …` line) of the search running on the opponent's time.
    pondering: Option<String>,
    /// The `info` lines of the last search the reader kept ([`super::KeptLines`]).
    search_lines: Vec<String>,
}

impl UciSession {
    /// Starts the engine: `uci` … `uciok`, `setoption` for each option of the definition
    /// (which the engine must have declared), `isready` … `readyok`.
    ///
    /// # Errors
    /// [`Fault`] when the engine does not start, does not answer within the definition's
    /// `handshake_ms`, or lacks an option.
    pub fn start(process: EngineProcess, def: &EngineDef) -> Result<UciSession, Fault> {
        let handshake = Duration::from_millis(def.handshake_ms);
        let mut s = UciSession {
            process,
            id_name: String::new(),
            declared_options: Vec::new(),
            handshake,
            ponder: def.ponder,
            guess: None,
            pondering: None,
            search_lines: Vec::new(),
        };
        s.process.send("uci")?;
        let (mut id_name, mut options) = (String::new(), Vec::new());
        s.process.wait_for(handshake, |line| {
            if let Some(rest) = line.text.strip_prefix("id name ") {
                rest.trim().clone_into(&mut id_name);
            } else if let Some(rest) = line.text.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                options.push(name.to_owned());
            }
            line.text.trim() == "uciok"
        })?;
        s.id_name = id_name;
        s.declared_options = options;
        if def.chess960 {
            s.process.queue("setoption name UCI_Chess960 value true");
        }
        if def.ponder
            && s.declared_options
                .iter()
                .any(|o| o.eq_ignore_ascii_case("Ponder"))
        {
            // UCI: the GUI tells an engine it may be asked to ponder.
            s.process.queue("setoption name Ponder value true");
        }
        for (name, value) in &def.options {
            // UCI option names are case-insensitive.
            if !s
                .declared_options
                .iter()
                .any(|o| o.eq_ignore_ascii_case(name))
            {
                return Err(Fault::Protocol(format!(
                    "the engine has no option {name:?}; it declares: {}",
                    s.declared_options.join(", ")
                )));
            }
            s.process
                .queue(&format!("setoption name {name} value {value}"));
        }
        s.ready()?;
        Ok(s)
    }

    /// Returns the engine's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.process.id()
    }

    /// Sends `isready` and waits for `readyok`.
    fn ready(&mut self) -> Result<(), Fault> {
        self.process.queue("isready");
        self.process.flush()?;
        self.process
            .wait_for(self.handshake, |l| l.text.trim() == "readyok")
            .map(|_| ())
    }

    /// Tells the engine a new game starts (`ucinewgame`) and waits until it is ready.
    ///
    /// # Errors
    /// [`Fault`] as for the handshake.
    pub fn new_game(&mut self) -> Result<(), Fault> {
        self.stop_pondering()?;
        self.guess = None;
        self.process.queue("ucinewgame");
        self.ready()
    }

    /// Ends a search on the opponent's time, if one runs: `stop`, and its `bestmove` read
    /// and dropped.
    fn stop_pondering(&mut self) -> Result<(), Fault> {
        if self.pondering.take().is_some() {
            self.process.send("stop")?;
            self.process
                .wait_for(self.handshake, |l| l.text.starts_with("bestmove"))?;
        }
        Ok(())
    }

    /// Starts thinking on the opponent's time: the engine searches `position` (the game
    /// after its own move) followed by the reply it expects, with `go ponder` and the clocks
    /// it will have (UCI). Nothing happens when pondering is off or no reply was expected.
    ///
    /// # Errors
    /// [`Fault::Crashed`] when the engine's input is closed.
    pub fn ponder(
        &mut self,
        position: &Position<'_>,
        budget: &Budget,
        clocks: Option<&ClockReading>,
    ) -> Result<(), Fault> {
        let Some(guess) = self.guess.take().filter(|_| self.ponder) else {
            return Ok(());
        };
        let mut line = position_line(position);
        line.push_str(if position.moves.is_empty() {
            " moves "
        } else {
            " "
        });
        line.push_str(&guess);
        let mut go = String::new();
        budget.write_go_on_clock(&mut go, clocks);
        let out = self.process.queue_buffer();
        out.push_str(&line);
        out.push('\n');
        out.push_str("go ponder");
        out.push_str(go.strip_prefix("go").unwrap_or(&go));
        self.process.flush()?;
        self.pondering = Some(line);
        Ok(())
    }

    /// Asks for a move: `position …`, `go …` (with both clocks for an engine on a clock), then waits for `bestmove` for at most
    /// `limit`; returns the move's text and what the search reported.
    ///
    /// # Errors
    /// [`Fault::Timeout`] after `limit`, [`Fault::Crashed`] when the engine dies.
    pub fn best_move(
        &mut self,
        position: &Position<'_>,
        budget: &Budget,
        clocks: Option<&ClockReading>,
        limit: Duration,
    ) -> Result<(String, SearchInfo), Fault> {
        let line = position_line(position);
        if self.pondering.as_deref() == Some(line.as_str()) {
            // The opponent played the expected reply: the search goes on, on our time now.
            self.pondering = None;
            self.process.send("ponderhit")?;
        } else {
            self.stop_pondering()?;
            let out = self.process.queue_buffer();
            out.push_str(&line);
            out.push('\n');
            budget.write_go_on_clock(out, clocks);
            self.process.flush()?;
        }
        let line = self
            .process
            .wait_for(limit, |l| l.text.starts_with("bestmove"))?;
        let mut words = line.text.split_ascii_whitespace().skip(1);
        let mv = words.next().unwrap_or("").to_owned();
        self.guess = match (words.next(), words.next()) {
            (Some("ponder"), Some(reply)) => Some(reply.to_owned()),
            _ => None,
        };
        self.search_lines = line.kept;
        Ok((mv, line.info))
    }

    /// Takes the `info` lines of the last search that the reader kept (none unless the
    /// definition asks for them).
    pub fn take_search_lines(&mut self) -> Vec<String> {
        std::mem::take(&mut self.search_lines)
    }
}

/// The `position …` line of `position`.
fn position_line(position: &Position<'_>) -> String {
    let mut out = String::with_capacity(32 + position.moves.len());
    out.push_str("position ");
    match position.start_fen {
        None => out.push_str("startpos"),
        Some(fen) => {
            out.push_str("fen ");
            out.push_str(fen);
        }
    }
    if !position.moves.is_empty() {
        out.push_str(" moves ");
        out.push_str(position.moves);
    }
    out
}
