//! The CECP (xboard, protocol version 2) adapter, for engines that speak only that, such as
//! Debian's `fairymax`, `phalanx` and `gnuchess`.
//!
//! The engine is kept in `force` mode (it only records moves) except while it searches:
//! each request sends the moves it has not seen, then `go`, reads `move …`, and the next
//! request starts with `force` again.

use super::definitions::{Budget, EngineDef};
use super::process::{EngineProcess, Fault};
use super::search_info::SearchInfo;
use super::time_control::{ClockReading, TimeControl};
use super::Position;
use std::time::Duration;

/// A CECP engine after its handshake.
pub struct CecpSession {
    process: EngineProcess,
    /// The engine's `myname` feature.
    pub id_name: String,
    usermove: bool,
    setboard: bool,
    ping: bool,
    depth_command: String,
    fractional_st: bool,
    handshake: Duration,
    /// The game the engine's board holds: its start, and how many moves of it it has.
    start: Option<Option<String>>,
    known: usize,
    pings: u32,
    /// The time control of the game, sent with `level`.
    level: Option<TimeControl>,
}

/// The CECP `st` command for a movetime: whole seconds, rounded up, as the protocol says; in
/// fractions of a second for engines that read them (Crafty's `st 0.1`).
fn st_command(ms: u64, fractional: bool) -> String {
    if fractional {
        format!("st {}", ms as f64 / 1000.0)
    } else {
        format!("st {}", ms.div_ceil(1000).max(1))
    }
}

fn feature_on(line: &str, key: &str) -> bool {
    line.split_ascii_whitespace()
        .any(|w| w == format!("{key}=1"))
}

impl CecpSession {
    /// Starts the engine: `xboard`, `protover 2`, reads its `feature` lines up to
    /// `done=1`, accepts the features used, sets the definition's options.
    ///
    /// # Errors
    /// [`Fault`] when the engine does not answer within `handshake_ms`.
    pub fn start(process: EngineProcess, def: &EngineDef) -> Result<CecpSession, Fault> {
        let handshake = Duration::from_millis(def.handshake_ms);
        let mut s = CecpSession {
            process,
            id_name: String::new(),
            usermove: false,
            setboard: false,
            ping: false,
            depth_command: def.depth_command.clone().unwrap_or_else(|| "sd".to_owned()),
            fractional_st: def.fractional_st,
            handshake,
            start: None,
            known: 0,
            pings: 0,
            level: None,
        };
        s.process.queue("xboard");
        s.process.send("protover 2")?;
        let (mut usermove, mut setboard, mut ping, mut name) = (false, false, false, String::new());
        s.process.wait_for(handshake, |line| {
            let t = line.text.trim();
            if !t.starts_with("feature ") {
                return false;
            }
            usermove |= feature_on(t, "usermove");
            setboard |= feature_on(t, "setboard");
            ping |= feature_on(t, "ping");
            if let Some(rest) = t.split("myname=\"").nth(1) {
                rest.split('"').next().unwrap_or("").clone_into(&mut name);
            }
            feature_on(t, "done")
        })?;
        (s.usermove, s.setboard, s.ping, s.id_name) = (usermove, setboard, ping, name);
        for f in ["usermove", "setboard", "ping"]
            .iter()
            .zip([usermove, setboard, ping])
        {
            if f.1 {
                s.process.queue(&format!("accepted {}", f.0));
            }
        }
        for (name, value) in &def.options {
            s.process.queue(&format!("option {name}={value}"));
        }
        s.sync()?;
        Ok(s)
    }

    /// Returns the engine's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.process.id()
    }

    /// Waits until the engine has read everything sent (`ping N` … `pong N`), when it
    /// supports `ping`.
    fn sync(&mut self) -> Result<(), Fault> {
        if !self.ping {
            return self.process.flush();
        }
        self.pings += 1;
        let expect = format!("pong {}", self.pings);
        self.process.queue(&format!("ping {}", self.pings));
        self.process.flush()?;
        self.process
            .wait_for(self.handshake, |l| l.text.trim() == expect)
            .map(|_| ())
    }

    /// Queues `new`, no pondering, thinking output (for scores and depths), `force`, the
    /// time control (`level MOVES MIN:SEC INC`) and the budget.
    fn queue_reset(&mut self, budget: &Budget) {
        self.process.queue("new");
        self.process.queue("easy");
        self.process.queue("post");
        self.process.queue("force");
        if let Some(tc) = self.level {
            let base = tc.base.as_secs();
            let increment = tc.increment.as_secs_f64();
            self.process.queue(&format!(
                "level {} {}:{:02} {increment}",
                tc.moves.unwrap_or(0),
                base / 60,
                base % 60
            ));
        }
        if let Some(d) = budget.depth {
            let command = format!("{} {d}", self.depth_command);
            self.process.queue(&command);
        }
        if let Some(ms) = budget.movetime {
            self.process.queue(&st_command(ms, self.fractional_st));
        }
    }

    /// Queues the protocol's older way to set up a position, for engines without `setboard`
    /// (fairymax), as xboard does it: after `new`, the move a2a3 when Black is to move,
    /// then `edit`, `#` (clear), the White pieces, `c`, the Black pieces, `.`. The engine
    /// assumes castling rights where king and rook stand on their squares, and no en-passant
    /// square.
    fn queue_edit(&mut self, fen: &str) -> Result<(), Fault> {
        let mut fields = fen.split_ascii_whitespace();
        let board = fields.next().unwrap_or("");
        let bad = || Fault::Protocol(format!("cannot set up {fen:?}: not a FEN board"));
        let (mut white, mut black) = (Vec::new(), Vec::new());
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(bad());
        }
        for (row, rank) in ranks.iter().enumerate() {
            let rank_digit = char::from(b'8' - u8::try_from(row).map_err(|_| bad())?);
            let mut file = 0u8;
            for c in rank.chars() {
                if let Some(skip) = c.to_digit(10) {
                    file += u8::try_from(skip).map_err(|_| bad())?;
                    continue;
                }
                if file >= 8 || !"pnbrqkPNBRQK".contains(c) {
                    return Err(bad());
                }
                let square = format!(
                    "{}{}{rank_digit}",
                    c.to_ascii_uppercase(),
                    char::from(b'a' + file)
                );
                if c.is_ascii_uppercase() {
                    white.push(square)
                } else {
                    black.push(square)
                }
                file += 1;
            }
        }
        if fields.next() == Some("b") {
            self.process.queue(if self.usermove {
                "usermove a2a3"
            } else {
                "a2a3"
            });
        }
        self.process.queue("edit");
        self.process.queue("#");
        for sq in &white {
            self.process.queue(sq);
        }
        self.process.queue("c");
        for sq in &black {
            self.process.queue(sq);
        }
        self.process.queue(".");
        Ok(())
    }

    /// Starts a new game from the initial position and waits until the engine is ready.
    ///
    /// # Errors
    /// [`Fault`] as for the handshake.
    pub fn new_game(&mut self, budget: &Budget, clock: Option<TimeControl>) -> Result<(), Fault> {
        self.level = clock;
        self.queue_reset(budget);
        self.start = Some(None);
        self.known = 0;
        self.sync()
    }

    /// Asks for a move in `position`: sends the moves the engine has not seen (setting the
    /// board up anew when it holds another game), `go`, and waits for `move …` for at most
    /// `limit`.
    ///
    /// # Errors
    /// [`Fault::Timeout`] after `limit`, [`Fault::Crashed`] when the engine dies,
    /// [`Fault::ResultClaim`] when it claims a result instead of moving, [`Fault::Protocol`]
    /// when it rejects a move or the position is not a FEN.
    pub fn best_move(
        &mut self,
        position: &Position<'_>,
        budget: &Budget,
        clocks: Option<&ClockReading>,
        limit: Duration,
    ) -> Result<(String, SearchInfo), Fault> {
        let moves: Vec<&str> = position.moves.split_ascii_whitespace().collect();
        let start = position.start_fen.map(str::to_owned);
        self.process.queue("force");
        if self.start.as_ref() != Some(&start) || self.known > moves.len() {
            self.queue_reset(budget);
            if let Some(fen) = &start {
                if self.setboard {
                    self.process.queue(&format!("setboard {fen}"));
                } else {
                    self.queue_edit(fen)?;
                }
            }
            self.start = Some(start);
            self.known = 0;
        }
        for mv in &moves[self.known..] {
            let line = if self.usermove {
                format!("usermove {mv}")
            } else {
                (*mv).to_owned()
            };
            self.process.queue(&line);
        }
        self.known = moves.len();
        if let Some(c) = clocks {
            // `time` and `otim` take centiseconds.
            let (own, opponent) = c.own_and_opponent();
            self.process
                .queue(&format!("time {}", own.as_millis() / 10));
            self.process
                .queue(&format!("otim {}", opponent.as_millis() / 10));
        }
        self.process.queue("go");
        self.process.flush()?;
        let mut thinking = SearchInfo::default();
        let line = self.process.wait_for(limit, |l| {
            let t = l.text.trim();
            thinking.absorb_cecp(t);
            t.starts_with("move ")
                || t.starts_with("My move is")
                || t.starts_with("Illegal move")
                || t.starts_with("Error")
                || t.starts_with("resign")
                || t.starts_with("1-0")
                || t.starts_with("0-1")
                || t.starts_with("1/2-1/2")
        })?;
        let t = line.text.trim();
        let mv = if let Some(rest) = t.strip_prefix("move ") {
            rest.trim()
        } else if let Some(rest) = t.strip_prefix("My move is") {
            rest.trim_start_matches([' ', ':']).trim()
        } else if ["resign", "1-0", "0-1", "1/2-1/2"]
            .iter()
            .any(|claim| t.starts_with(claim))
        {
            return Err(Fault::ResultClaim(t.to_owned()));
        } else {
            return Err(Fault::Protocol(format!("expected a move, got {t:?}")));
        };
        // The engine played it on its own board.
        self.known += 1;
        Ok((mv.to_owned(), thinking))
    }
}

#[cfg(test)]
mod st_tests {
    use super::st_command;

    #[test]
    fn st_is_whole_seconds_rounded_up_unless_the_engine_reads_fractions() {
        assert_eq!(st_command(100, false), "st 1");
        assert_eq!(st_command(1500, false), "st 2");
        assert_eq!(st_command(3000, false), "st 3");
        assert_eq!(st_command(100, true), "st 0.1");
        assert_eq!(st_command(1500, true), "st 1.5");
    }
}
