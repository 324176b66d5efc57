//! Time controls and chess clocks as cutechess-cli and fastchess state them: `moves/seconds+increment`
//! (`40/60+0.6`), `seconds+increment` (`10+0.1`), or sudden death (`60`, `1:30`).
//!
//! The runner keeps one [`Clock`] per side and measures each move around the engine's answer;
//! the engine is told both clocks (UCI `wtime btime winc binc movestogo`, CECP `level`,
//! `time`, `otim`).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time control: a period of `base` time for `moves` moves (or the whole game), and an
/// increment after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Moves per period (`None`: one period for the whole game).
    pub moves: Option<u32>,
    /// The time of a period.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// Parses seconds written as `12`, `0.25` or `m:ss` (`1:30`).
fn parse_seconds(text: &str) -> Option<Duration> {
    let seconds = match text.split_once(':') {
        Some((minutes, seconds)) => {
            minutes.parse::<u64>().ok()? as f64 * 60.0 + seconds.parse::<f64>().ok()?
        }
        None => text.parse::<f64>().ok()?,
    };
    (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
}

/// Writes a duration in seconds with no more decimals than it needs (`10`, `0.1`, `2.25`).
fn write_seconds(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        write!(f, "{}", ms / 1000)
    } else {
        let text = format!("{:.3}", d.as_secs_f64());
        f.write_str(text.trim_end_matches('0'))
    }
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!("time control {text:?}: expected moves/seconds+increment, seconds+increment or seconds (e.g. 40/60+0.6, 10+0.1)")
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (Some(m.parse::<u32>().map_err(|_| bad())?), rest),
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (
                parse_seconds(b).ok_or_else(bad)?,
                parse_seconds(i).ok_or_else(bad)?,
            ),
            None => (parse_seconds(rest).ok_or_else(bad)?, Duration::ZERO),
        };
        if (base.is_zero() && increment.is_zero()) || moves == Some(0) {
            return Err(bad());
        }
        Ok(TimeControl {
            moves,
            base,
            increment,
        })
    }
}

impl TryFrom<String> for TimeControl {
    type Error = String;

    fn try_from(text: String) -> Result<TimeControl, String> {
        text.parse()
    }
}

impl<'de> serde::Deserialize<'de> for TimeControl {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TimeControl, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for TimeControl {
    /// Writes the form of the PGN `TimeControl` tag as cutechess writes it: `40/60+0.6`,
    /// `10+0.1`, `60`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write_seconds(f, self.base)?;
        if !self.increment.is_zero() {
            f.write_str("+")?;
            write_seconds(f, self.increment)?;
        }
        Ok(())
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Time left (negative overruns are kept as zero with `overrun`).
    remaining: Duration,
    /// Moves left in the period, if periods have a move count.
    moves_to_go: Option<u32>,
}

/// What a clock says after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockVerdict {
    /// The move was in time.
    InTime,
    /// The flag fell: the move took this much longer than the time left (beyond the margin).
    Flagged {
        /// Time used beyond what was left.
        overrun: Duration,
    },
}

impl Clock {
    /// Starts a clock with a full first period.
    #[must_use]
    pub const fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining: control.base,
            moves_to_go: control.moves,
        }
    }

    /// Returns the time control.
    #[must_use]
    pub const fn control(&self) -> TimeControl {
        self.control
    }

    /// Returns the time left for the rest of the period.
    #[must_use]
    pub const fn remaining(&self) -> Duration {
        self.remaining
    }

    /// Returns the moves left to the end of the period, if periods have a move count.
    #[must_use]
    pub const fn moves_to_go(&self) -> Option<u32> {
        self.moves_to_go
    }

    /// Charges a move that took `used`: the flag falls when `used` exceeds the time left by
    /// more than `margin`; otherwise the increment is added, and a new period starts when the
    /// period's moves are made.
    pub fn charge(&mut self, used: Duration, margin: Duration) -> ClockVerdict {
        if used > self.remaining + margin {
            let overrun = used - self.remaining;
            self.remaining = Duration::ZERO;
            return ClockVerdict::Flagged { overrun };
        }
        self.remaining = self.remaining.saturating_sub(used) + self.control.increment;
        if let Some(left) = self.moves_to_go {
            if left <= 1 {
                self.remaining += self.control.base;
                self.moves_to_go = self.control.moves;
            } else {
                self.moves_to_go = Some(left - 1);
            }
        }
        ClockVerdict::InTime
    }
}

/// Both clocks as an engine is told them before it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// White's time left.
    pub white: Duration,
    /// Black's time left.
    pub black: Duration,
    /// White's increment.
    pub white_increment: Duration,
    /// Black's increment.
    pub black_increment: Duration,
    /// Moves to the end of the mover's period, if periods have a move count.
    pub moves_to_go: Option<u32>,
    /// Whether White is to move.
    pub white_to_move: bool,
}

impl ClockReading {
    /// The reading the mover will have at its next turn after a move that took `elapsed`:
    /// its time less that, plus its increment (the opponent's clock as it is); for an
    /// engine thinking on its opponent's time.
    #[must_use]
    pub fn after_move(self, elapsed: Duration) -> ClockReading {
        let mut c = self;
        if c.white_to_move {
            c.white = c.white.saturating_sub(elapsed) + c.white_increment;
        } else {
            c.black = c.black.saturating_sub(elapsed) + c.black_increment;
        }
        c.moves_to_go = c.moves_to_go.map(|n| if n > 1 { n - 1 } else { n });
        c
    }

    /// Reads both clocks for `white_to_move`'s side.
    #[must_use]
    pub fn new(white: &Clock, black: &Clock, white_to_move: bool) -> ClockReading {
        ClockReading {
            white: white.remaining,
            black: black.remaining,
            white_increment: white.control.increment,
            black_increment: black.control.increment,
            moves_to_go: if white_to_move {
                white.moves_to_go
            } else {
                black.moves_to_go
            },
            white_to_move,
        }
    }

    /// Returns the mover's time left and the opponent's.
    #[must_use]
    pub const fn own_and_opponent(&self) -> (Duration, Duration) {
        if self.white_to_move {
            (self.white, self.black)
        } else {
            (self.black, self.white)
        }
    }

    /// Appends the UCI `go` arguments ` wtime … btime … winc … binc … [movestogo …]`.
    pub fn write_uci(&self, out: &mut String) {
        use std::fmt::Write;
        let _ = write!(
            out,
            " wtime {} btime {} winc {} binc {}",
            self.white.as_millis(),
            self.black.as_millis(),
            self.white_increment.as_millis(),
            self.black_increment.as_millis()
        );
        if let Some(m) = self.moves_to_go {
            let _ = write!(out, " movestogo {m}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(text: &str) -> TimeControl {
        text.parse().expect("valid time control")
    }

    #[test]
    fn parses_the_cutechess_forms() {
        assert_eq!(
            tc("40/60+0.6"),
            TimeControl {
                moves: Some(40),
                base: Duration::from_secs(60),
                increment: Duration::from_millis(600)
            }
        );
        assert_eq!(tc("10+0.1").base, Duration::from_secs(10));
        assert_eq!(tc("1:30").base, Duration::from_secs(90));
        assert_eq!(tc("2+0.02").increment, Duration::from_millis(20));
        for text in ["40/60+0.6", "10+0.1", "60", "2+0.02", "0.5+0.05"] {
            assert_eq!(tc(text).to_string(), text);
        }
        for bad in ["", "x", "0", "0/10", "10+y", "-5"] {
            let e = bad.parse::<TimeControl>().expect_err(bad);
            assert!(e.contains(&format!("{bad:?}")), "{e}");
        }
    }

    #[test]
    fn clocks_add_increments_and_periods() {
        let mut c = Clock::new(tc("2/10+1"));
        let margin = Duration::ZERO;
        assert_eq!(
            c.charge(Duration::from_secs(3), margin),
            ClockVerdict::InTime
        );
        // 10 − 3 + 1 = 8 s, one move left in the period.
        assert_eq!(c.remaining(), Duration::from_secs(8));
        assert_eq!(c.moves_to_go(), Some(1));
        assert_eq!(
            c.charge(Duration::from_secs(2), margin),
            ClockVerdict::InTime
        );
        // 8 − 2 + 1, and a new period of 10 s for 2 moves.
        assert_eq!(c.remaining(), Duration::from_secs(17));
        assert_eq!(c.moves_to_go(), Some(2));
    }

    #[test]
    fn the_flag_falls_beyond_the_margin() {
        let mut c = Clock::new(tc("1"));
        let margin = Duration::from_millis(100);
        assert_eq!(
            c.charge(Duration::from_millis(1050), margin),
            ClockVerdict::InTime
        );
        let mut c = Clock::new(tc("1"));
        assert_eq!(
            c.charge(Duration::from_millis(1250), margin),
            ClockVerdict::Flagged {
                overrun: Duration::from_millis(250)
            }
        );
    }

    #[test]
    fn uci_go_arguments() {
        let white = Clock::new(tc("40/60+0.5"));
        let black = Clock::new(tc("30+0"));
        let mut s = String::from("go");
        ClockReading::new(&white, &black, true).write_uci(&mut s);
        assert_eq!(s, "go wtime 60000 btime 30000 winc 500 binc 0 movestogo 40");
    }
}
