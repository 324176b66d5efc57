//! Go programs as players over the Go Text Protocol (GTP 2): GNU Go at its levels, Pachi
//! at playout budgets on one thread, and any program an engine definition names with
//! `protocol = "gtp"`.
//!
//! One process per program per worker thread is kept across games. Each game starts with
//! `boardsize`, `clear_board`, `komi` (and `time_settings` for a per-move time); the moves
//! played since the player last moved go over as `play`, then `genmove` asks for its move.
//! A program that dies, hangs past its time limit, refuses a legal `play`, or answers a move
//! that is not legal loses the game (`engine-crashed`, `engine-timeout`, `illegal-move`);
//! `resign` is a move and ends the game by resignation. A program that cannot start (or
//! does not answer `protocol_version`) is a configuration error before any game is played.

use crate::engine::process::EngineProcess;
use crate::engine::{EngineDef, EngineFileError, Fault, Protocol};
use crate::{
    FactoryFn, Flags, Player, PlayerError, PlayerFactory, PlayerInfo, PlayerSpec, Registry,
    SpecError, Worker,
};
use eloworld_games::{Game, GameRng, Go, GoMove, Side};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// GNU Go's levels.
pub const GNUGO_LEVELS: std::ops::RangeInclusive<u32> = 0..=10;
/// GNU Go's default level.
pub const GNUGO_DEFAULT_LEVEL: u32 = 10;
/// Pachi's default playouts per move.
pub const PACHI_DEFAULT_PLAYOUTS: u64 = 2000;

/// A running GTP program that answered `protocol_version`.
pub struct GtpSession {
    process: EngineProcess,
    /// What `name` answered.
    pub id_name: String,
}

impl GtpSession {
    /// Starts the program of `def` and checks that it speaks GTP.
    ///
    /// # Errors
    /// [`Fault`] when the program is missing, dies, or does not answer in time.
    pub fn start(def: &EngineDef) -> Result<GtpSession, Fault> {
        let program = def.locate().map_err(|e| Fault::Crashed(e.to_string()))?;
        let process = EngineProcess::spawn(&program, &def.args)?;
        let mut session = GtpSession {
            process,
            id_name: String::new(),
        };
        let limit = Duration::from_millis(def.handshake_ms);
        session
            .command("protocol_version", limit)
            .map_err(|f| match f {
                Fault::Timeout(_) => Fault::Protocol(format!(
                    "{} does not answer GTP's protocol_version within {} ms (is it a GTP program?)",
                    program.display(),
                    def.handshake_ms
                )),
                other => other,
            })?;
        session.id_name = session.command("name", limit)?;
        Ok(session)
    }

    /// Sends one command and returns its answer (the text after `= `).
    ///
    /// # Errors
    /// [`Fault::Protocol`] for a `?` answer, or the process's faults.
    pub fn command(&mut self, command: &str, limit: Duration) -> Result<String, Fault> {
        self.process.send(command)?;
        let deadline = std::time::Instant::now() + limit;
        let first = loop {
            let line = self.process.next_line(deadline, limit)?;
            let text = line.text.trim();
            if text.starts_with('=') || text.starts_with('?') {
                break text.to_owned();
            }
        };
        let mut answer = first[1..].trim().to_owned();
        // The answer ends with an empty line; further lines belong to it.
        loop {
            let line = self.process.next_line(deadline, limit)?;
            if line.text.trim().is_empty() {
                break;
            }
            answer.push('\n');
            answer.push_str(line.text.trim());
        }
        if first.starts_with('?') {
            return Err(Fault::Protocol(format!("{command}: {answer}")));
        }
        Ok(answer)
    }

    /// Starts a game of `game`'s size and komi, with its stones, and the per-move time.
    fn new_game(
        &mut self,
        start: &Go,
        movetime: Option<u64>,
        limit: Duration,
    ) -> Result<(), Fault> {
        let rules = start.rules();
        self.command(&format!("boardsize {}", rules.size), limit)?;
        self.command("clear_board", limit)?;
        self.command(&format!("komi {}", rules.komi), limit)?;
        if let Some(ms) = movetime {
            let seconds = ms.div_ceil(1000).max(1);
            if self
                .command(&format!("time_settings 0 {seconds} 1"), limit)
                .is_err()
            {
                self.command(&format!("kgs-time_settings byoyomi 0 {seconds} 1"), limit)?;
            }
        }
        let n = usize::from(rules.size);
        for row in 0..n {
            for column in 0..n {
                let Some(p) = start.point(column, row) else {
                    continue;
                };
                if let Some(side) = start.stone(p) {
                    self.command(&format!("play {} {}", colour(side), start.vertex(p)), limit)?;
                }
            }
        }
        Ok(())
    }
}

impl Drop for GtpSession {
    fn drop(&mut self) {
        // Ask politely; the process is killed and reaped when `process` drops.
        let _ = self.process.send("quit");
    }
}

fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "b",
        Side::Second => "w",
    }
}

/// How a GTP player runs: the name errors report, its definition, and its time limit.
#[derive(Clone, Debug)]
struct Setup {
    name: String,
    def: EngineDef,
    limit: Duration,
    key: String,
}

type Slot = Arc<Mutex<Option<GtpSession>>>;

fn lock(slot: &Slot) -> MutexGuard<'_, Option<GtpSession>> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Returns a slot of `worker` for the process `key` that no live player holds (a program
/// playing itself gets a second process).
fn free_slot(worker: &mut Worker, key: &str) -> Slot {
    let mut i = 0usize;
    loop {
        let k = format!("{key}#{i}");
        let made: Result<&mut Slot, std::convert::Infallible> =
            worker.resource(&k, || Ok(Arc::new(Mutex::new(None))));
        let Ok(slot) = made;
        if Arc::strong_count(slot) == 1 {
            return Arc::clone(slot);
        }
        i += 1;
    }
}

fn player_error(engine: &str, fault: Fault) -> PlayerError {
    match fault {
        Fault::Timeout(limit) => PlayerError::Timeout {
            engine: engine.to_owned(),
            millis: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
        },
        // A result claim is CECP's; a GTP program never makes one.
        Fault::Crashed(detail) | Fault::Protocol(detail) | Fault::ResultClaim(detail) => {
            PlayerError::Crashed {
                engine: engine.to_owned(),
                detail,
            }
        }
    }
}

/// Builds [`GtpPlayer`]s on a worker's process of the program.
pub struct GtpFactory {
    setup: Setup,
}

impl PlayerFactory<Go> for GtpFactory {
    fn create(&self, worker: &mut Worker) -> Result<Box<dyn Player<Go>>, PlayerError> {
        let slot = free_slot(worker, &self.setup.key);
        {
            let mut guard = lock(&slot);
            if guard.is_none() {
                let session = GtpSession::start(&self.setup.def).map_err(|f| {
                    PlayerError::Setup(format!("{} cannot start: {f}", self.setup.name))
                })?;
                *guard = Some(session);
            }
        }
        Ok(Box::new(GtpPlayer {
            setup: self.setup.clone(),
            slot,
            start: None,
            moves: Vec::new(),
            sent: 0,
            started: false,
        }))
    }

    fn determinism(&self) -> Option<crate::Determinism> {
        Some(self.setup.def.determinism())
    }
}

/// A Go player that asks a GTP program for each move.
pub struct GtpPlayer {
    setup: Setup,
    slot: Slot,
    /// The position the game started from (the first one seen).
    start: Option<Go>,
    /// Every move of the game, as `play` arguments.
    moves: Vec<String>,
    /// How many of `moves` the program's board already has.
    sent: usize,
    started: bool,
}

impl GtpPlayer {
    fn ask(&mut self, game: &Go) -> Result<GoMove, PlayerError> {
        let start = self.start.get_or_insert_with(|| game.clone()).clone();
        let mut guard = lock(&self.slot);
        let Some(session) = guard.as_mut() else {
            return Err(PlayerError::Crashed {
                engine: self.setup.name.clone(),
                detail: "not running (it failed in an earlier game)".to_owned(),
            });
        };
        let limit = self.setup.limit;
        let mut talk = || -> Result<String, Fault> {
            if !self.started {
                session.new_game(&start, self.setup.def.budget.movetime, limit)?;
                self.started = true;
            }
            for m in &self.moves[self.sent..] {
                session.command(&format!("play {m}"), limit)?;
            }
            self.sent = self.moves.len();
            session.command(&format!("genmove {}", colour(game.side_to_move())), limit)
        };
        let answer = match talk() {
            Ok(a) => a,
            Err(fault) => {
                *guard = None;
                return Err(player_error(&self.setup.name, fault));
            }
        };
        // The program's board has its own move: `observe` adds it to `moves`.
        self.sent += 1;
        match game.parse_move(&answer) {
            Ok(mv) => Ok(mv),
            Err(_) => {
                *guard = None;
                Err(PlayerError::IllegalMove {
                    player: self.setup.name.clone(),
                    text: answer,
                })
            }
        }
    }
}

impl Player<Go> for GtpPlayer {
    fn choose(&mut self, game: &Go, _rng: &mut GameRng) -> Result<GoMove, PlayerError> {
        self.ask(game)
    }

    fn observe(&mut self, before: &Go, mv: GoMove) {
        if self.start.is_none() {
            self.start = Some(before.clone());
        }
        self.moves.push(format!(
            "{} {}",
            colour(before.side_to_move()),
            before.move_code(mv)
        ));
    }

    fn reports_searches(&self) -> bool {
        false
    }
}

/// Sends a whole game to a GTP program and asks for its score: the referee's view of a
/// game (`final_score`, after `play` of every move).
///
/// # Errors
/// [`Fault`] when a move is refused or the program fails.
pub fn referee_score(
    session: &mut GtpSession,
    start: &Go,
    moves: &[(Side, String)],
    limit: Duration,
) -> Result<String, Fault> {
    session.new_game(start, None, limit)?;
    for (side, code) in moves {
        session.command(&format!("play {} {code}", colour(*side)), limit)?;
    }
    session.command("final_score", limit)
}

fn bad(player: &str, reason: String) -> SpecError {
    SpecError::BadParam {
        player: player.to_owned(),
        reason,
    }
}

fn factory(spec: &PlayerSpec, def: EngineDef) -> Result<Arc<dyn PlayerFactory<Go>>, SpecError> {
    def.locate().map_err(|e| SpecError::Unavailable {
        player: spec.to_string(),
        reason: e.to_string(),
    })?;
    let setup = Setup {
        name: spec.name.clone(),
        limit: Duration::from_millis(def.timeout_ms),
        key: format!("gtp|{}|{:?}", def.command, def.args),
        def,
    };
    Ok(Arc::new(GtpFactory { setup }))
}

fn apply_common(def: &mut EngineDef, spec: &PlayerSpec) -> Result<(), SpecError> {
    def.timeout_ms = spec
        .params
        .parse_or(&spec.name, "timeout", def.timeout_ms)?;
    if let Some(ms) = spec.params.get("movetime") {
        let ms: u64 = ms
            .parse()
            .map_err(|_| bad(&spec.name, format!("movetime={ms} is not a number of ms")))?;
        def.budget.movetime = Some(ms);
    }
    Ok(())
}

fn base_def(name: &str, command: &str, package: &str, args: Vec<String>) -> EngineDef {
    let text = format!(
        "[[engine]]\nname = \"{name}\"\ncommand = \"{command}\"\nprotocol = \"gtp\"\npackage = \"{package}\"\n"
    );
    let mut def = crate::engine::parse_definitions(&text, "built-in", None)
        .ok()
        .and_then(|mut d| d.pop())
        .unwrap_or_else(|| unreachable!("the built-in GTP definition is valid"));
    def.args = args;
    def
}

/// GNU Go's GTP command line at `level`: it captures all dead stones before passing (so
/// Tromp–Taylor can score its games) and plays under area scoring and positional superko.
#[must_use]
pub fn gnugo_args(level: u32) -> Vec<String> {
    [
        "--mode",
        "gtp",
        "--level",
        &level.to_string(),
        "--capture-all-dead",
        "--chinese-rules",
        "--positional-superko",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect()
}

fn gnugo_entry() -> FactoryFn<Go> {
    Box::new(|spec: &PlayerSpec| {
        spec.params
            .check_keys(&spec.name, &["level", "timeout", "movetime"])?;
        let level: u32 = spec
            .params
            .parse_or(&spec.name, "level", GNUGO_DEFAULT_LEVEL)?;
        if !GNUGO_LEVELS.contains(&level) {
            return Err(bad(&spec.name, format!("level={level} is outside 0..=10")));
        }
        let mut def = base_def(&spec.name, "gnugo", "gnugo", gnugo_args(level));
        apply_common(&mut def, spec)?;
        factory(spec, def)
    })
}

/// The smallest playout budget Pachi accepts: below it, its search stops on an assertion
/// (`GJ_MINGAMES` in Pachi 11.99's UCT engine).
const PACHI_MIN_PLAYOUTS: u64 = 500;

fn pachi_entry() -> FactoryFn<Go> {
    Box::new(|spec: &PlayerSpec| {
        spec.params
            .check_keys(&spec.name, &["playouts", "timeout", "movetime"])?;
        let playouts: u64 = spec
            .params
            .parse_or(&spec.name, "playouts", PACHI_DEFAULT_PLAYOUTS)?;
        if playouts < PACHI_MIN_PLAYOUTS {
            return Err(bad(
                &spec.name,
                format!("playouts must be at least {PACHI_MIN_PLAYOUTS} (Pachi aborts on a smaller budget)"),
            ));
        }
        // One thread, and no pass while a dead stone is left on the board: Tromp–Taylor
        // counts every stone there (the Computer Go Server runs Pachi so).
        let args = vec![
            "-t".to_owned(),
            format!("={playouts}"),
            "threads=1,pass_all_alive".to_owned(),
        ];
        let mut def = base_def(&spec.name, "pachi", "pachi (the Go program)", args);
        // Monte-Carlo playouts from a generator Pachi seeds from the clock: every game differs.
        def.deterministic = Some(false);
        apply_common(&mut def, spec)?;
        factory(spec, def)
    })
}

/// Adds GNU Go and Pachi.
pub fn register(r: &mut Registry<Go>) {
    r.add(
        PlayerInfo::new(
            "gnugo",
            "GNU Go over GTP (--capture-all-dead, Chinese rules, positional superko)",
            Flags::EXTERNAL,
        )
        .param("level", GNUGO_DEFAULT_LEVEL, "strength, 0..=10")
        .param(
            "movetime",
            "-",
            "seconds per move, as ms (GTP time_settings)",
        )
        .param("timeout", 60_000, "ms without a move before engine-timeout"),
        gnugo_entry(),
    );
    r.add(
        PlayerInfo::new(
            "pachi",
            "Pachi (the Monte-Carlo Go program, not Debian's platform game of that name) on one thread",
            Flags::EXTERNAL,
        )
        .param("playouts", PACHI_DEFAULT_PLAYOUTS, "playouts per move (-t =N)")
        .param("movetime", "-", "seconds per move, as ms (GTP time_settings)")
        .param("timeout", 60_000, "ms without a move before engine-timeout"),
        pachi_entry(),
    );
}

/// Adds the definitions of an engines file to the Go registry: each must speak GTP.
///
/// # Errors
/// [`EngineFileError::Invalid`] naming a definition that does not.
pub fn add_definitions(
    r: &mut Registry<Go>,
    defs: Vec<EngineDef>,
    path: &Path,
) -> Result<(), EngineFileError> {
    for def in defs {
        if def.protocol != Protocol::Gtp {
            return Err(EngineFileError::Invalid {
                path: path.display().to_string(),
                reason: format!(
                    "engine {} speaks {:?}, a chess protocol; Go engines speak GTP (protocol = \"gtp\")",
                    def.name, def.protocol
                ),
            });
        }
        let description = if def.description.is_empty() {
            format!("GTP program {}", def.command)
        } else {
            def.description.clone()
        };
        let info = PlayerInfo::new(&def.name, &description, Flags::EXTERNAL)
            .param(
                "movetime",
                "-",
                "seconds per move, as ms (GTP time_settings)",
            )
            .param(
                "timeout",
                def.timeout_ms,
                "ms without a move before engine-timeout",
            );
        r.add(
            info,
            Box::new(move |spec: &PlayerSpec| {
                spec.params
                    .check_keys(&spec.name, &["timeout", "movetime"])?;
                let mut def = def.clone();
                apply_common(&mut def, spec)?;
                factory(spec, def)
            }),
        );
    }
    Ok(())
}
