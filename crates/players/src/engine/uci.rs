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
        let (mut id_name, mut options, mut kinds) = (String::new(), Vec::new(), Vec::new());
        s.process
            .wait_for(handshake, |line| {
                if let Some(rest) = line.text.strip_prefix("id name ") {
                    rest.trim().clone_into(&mut id_name);
                } else if let Some(rest) = line.text.strip_prefix("option name ") {
                    let name = rest.split(" type ").next().unwrap_or(rest).trim();
                    options.push(name.to_owned());
                    kinds.push(OptionKind::of_declaration(rest));
                }
                line.text.trim() == "uciok"
            })
            .map_err(|f| unanswered(f, "uciok", "uci"))?;
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
            let Some(at) = s
                .declared_options
                .iter()
                .position(|o| o.eq_ignore_ascii_case(name))
            else {
                return Err(Fault::Protocol(format!(
                    "the engine has no option {name:?}; it declares: {}",
                    s.declared_options.join(", ")
                )));
            };
            // A value of the wrong type is named before it is sent (an engine may crash on
            // it, as Stockfish does on a spin's value that is not an integer).
            let value = value.to_string();
            if let Some(why) = kinds[at].refuses(&value) {
                return Err(Fault::Protocol(format!(
                    "setoption name {name} value {value}: {why}"
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
            .map_err(|f| unanswered(f, "readyok", "isready"))
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
/// Names what a silent engine did not answer: a timeout waiting for `expected` after `sent`.
fn unanswered(fault: Fault, expected: &str, sent: &str) -> Fault {
    match fault {
        Fault::Timeout(limit) => Fault::Protocol(format!(
            "no {expected} within {} ms of {sent}",
            limit.as_millis()
        )),
        other => other,
    }
}

/// A declared option's type, as far as its values are checked (UCI's `type spin`, `check`,
/// `combo`; `string` and `button` take anything).
#[derive(Clone, Debug, PartialEq)]
enum OptionKind {
    /// An integer, within the bounds when declared.
    Spin { min: Option<i64>, max: Option<i64> },
    /// `true` or `false`.
    Check,
    /// One of the declared `var` values.
    Combo(Vec<String>),
    /// Any value.
    Other,
}

impl OptionKind {
    /// The kind declared by an `option name …` line (`rest`: after `option name `).
    fn of_declaration(rest: &str) -> OptionKind {
        let Some((_, tail)) = rest.split_once(" type ") else {
            return OptionKind::Other;
        };
        let words: Vec<&str> = tail.split_whitespace().collect();
        let after = |key: &str| {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
                .and_then(|v| v.parse().ok())
        };
        match words.first().copied() {
            Some("spin") => OptionKind::Spin {
                min: after("min"),
                max: after("max"),
            },
            Some("check") => OptionKind::Check,
            Some("combo") => {
                // `var` values may hold spaces: each runs to the next keyword.
                let mut vars: Vec<String> = Vec::new();
                let mut current: Option<Vec<&str>> = None;
                for w in &words[1..] {
                    match *w {
                        "var" | "default" | "min" | "max" => {
                            if let Some(v) = current.take() {
                                vars.push(v.join(" "));
                            }
                            if *w == "var" {
                                current = Some(Vec::new());
                            }
                        }
                        _ => {
                            if let Some(v) = current.as_mut() {
                                v.push(w);
                            }
                        }
                    }
                }
                if let Some(v) = current {
                    vars.push(v.join(" "));
                }
                OptionKind::Combo(vars)
            }
            _ => OptionKind::Other,
        }
    }

    /// Why `value` is not one of this kind's values, or `None` when it is.
    fn refuses(&self, value: &str) -> Option<String> {
        match self {
            OptionKind::Spin { min, max } => {
                let range = match (min, max) {
                    (Some(lo), Some(hi)) => format!(" from {lo} to {hi}"),
                    _ => String::new(),
                };
                match value.trim().parse::<i64>() {
                    Err(_) => Some(format!(
                        "the option is a spin (an integer{range}) and {value:?} is not an integer"
                    )),
                    Ok(v) if min.is_some_and(|lo| v < lo) || max.is_some_and(|hi| v > hi) => Some(
                        format!("the option is a spin (an integer{range}): {v} is out of range"),
                    ),
                    Ok(_) => None,
                }
            }
            OptionKind::Check => (!value.eq_ignore_ascii_case("true")
                && !value.eq_ignore_ascii_case("false"))
            .then(|| format!("the option is a check (true or false), not {value:?}")),
            OptionKind::Combo(vars) => (!vars.is_empty()
                && !vars.iter().any(|v| v.eq_ignore_ascii_case(value)))
            .then(|| {
                format!(
                    "the option is a combo of {}; {value:?} is none of them",
                    vars.join(", ")
                )
            }),
            OptionKind::Other => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_option_types_check_values_before_they_are_sent() {
        let hash = OptionKind::of_declaration("Hash type spin default 16 min 1 max 33554432");
        assert_eq!(
            hash,
            OptionKind::Spin {
                min: Some(1),
                max: Some(33_554_432)
            }
        );
        assert_eq!(hash.refuses("64"), None);
        assert_eq!(
            hash.refuses("notanumber").as_deref(),
            Some(
                "the option is a spin (an integer from 1 to 33554432) and \"notanumber\" is not \
                 an integer"
            )
        );
        assert!(hash
            .refuses("0")
            .is_some_and(|w| w.ends_with("0 is out of range")));
        let ponder = OptionKind::of_declaration("Ponder type check default false");
        assert_eq!(ponder.refuses("TRUE"), None);
        assert!(ponder.refuses("yes").is_some());
        let style = OptionKind::of_declaration(
            "Style type combo default Normal var Solid var Normal var Very Risky",
        );
        assert_eq!(
            style,
            OptionKind::Combo(vec![
                "Solid".to_owned(),
                "Normal".to_owned(),
                "Very Risky".to_owned()
            ])
        );
        assert_eq!(style.refuses("very risky"), None);
        assert!(style.refuses("Wild").is_some());
        assert_eq!(
            OptionKind::of_declaration("SyzygyPath type string default <empty>").refuses("x"),
            None
        );
    }

    #[test]
    fn a_silent_engine_is_told_what_it_did_not_answer() {
        let f = unanswered(
            Fault::Timeout(Duration::from_millis(10_000)),
            "uciok",
            "uci",
        );
        assert_eq!(
            f.to_string(),
            "protocol error: no uciok within 10000 ms of uci"
        );
    }
}
