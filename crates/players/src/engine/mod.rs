//! External engines as players (Murphy's Elo World, section 2.3): programs that speak UCI or CECP,
//! driven over pipes, one process per engine per worker thread, kept across games.
//!
//! A fault costs the game it happens in, never the tournament: a process that dies, hangs
//! past its time limit or answers nonsense is killed and reaped, the player returns a
//! [`PlayerError`] the runner stores as the game's termination, and the next game starts a
//! fresh process.

mod cecp;
mod definitions;
pub mod gtp;
pub mod polyglot;
pub(crate) mod process;
mod pv_check;
mod search_info;
mod time_control;
mod uci;
mod worstfish;

pub use definitions::{
    builtin_definitions, parse_definitions, read_definitions, Budget, EngineDef, EngineFileError,
    OptionValue, Protocol, BUILTIN_ENGINES,
};
pub use process::{kill_all, tap_traffic, Fault, KeptLines};
pub use pv_check::{check_mate_pv, tap_warnings, PvFault, PvWarning};
pub use search_info::{Score, SearchInfo};
pub use time_control::{Clock, ClockReading, ClockVerdict, TimeControl};
pub use worstfish::Worstfish;

use crate::{
    Claim, FactoryFn, Flags, Player, PlayerError, PlayerFactory, PlayerInfo, PlayerSpec, Registry,
    SpecError, Worker,
};
use cecp::CecpSession;
use eloworld_games::{Chess, Game, GameRng};
use polyglot::PolyglotBook;
use process::EngineProcess;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use uci::UciSession;

/// The FEN of the initial position, sent as `startpos`.
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A position as sent to an engine: a start (`None` for the initial position) and the moves
/// since, as space-separated UCI codes.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The FEN the game started from, or `None` for the initial position.
    pub start_fen: Option<&'a str>,
    /// The moves played since, space-separated.
    pub moves: &'a str,
}

/// A running engine that has finished its handshake.
pub enum Session {
    /// A UCI engine.
    Uci(UciSession),
    /// A CECP engine.
    Cecp(CecpSession),
}

impl Session {
    /// Starts the program of `def` and performs the protocol's handshake.
    ///
    /// # Errors
    /// [`Fault`] when the program is missing, dies, or does not answer in time.
    pub fn start(def: &EngineDef) -> Result<Session, Fault> {
        let program = def.locate().map_err(|e| Fault::Crashed(e.to_string()))?;
        let process = EngineProcess::spawn_keeping(&program, &def.args, def.lines_to_keep())?;
        Ok(match def.protocol {
            Protocol::Uci => Session::Uci(UciSession::start(process, def)?),
            Protocol::Cecp => Session::Cecp(CecpSession::start(process, def)?),
            Protocol::Gtp => {
                return Err(Fault::Protocol(format!(
                    "{} speaks GTP, a Go protocol: it plays Go, not chess",
                    def.name
                )))
            }
        })
    }

    /// Prepares the engine for a new game.
    ///
    /// # Errors
    /// [`Fault`] when the engine does not become ready.
    pub fn new_game(&mut self, budget: &Budget, clock: Option<TimeControl>) -> Result<(), Fault> {
        match self {
            Session::Uci(s) => s.new_game(),
            Session::Cecp(s) => s.new_game(budget, clock),
        }
    }

    /// Asks for a move; returns its text as the engine gave it and the search report.
    ///
    /// # Errors
    /// [`Fault`] when the engine dies, hangs past `limit`, or breaks the protocol.
    pub fn best_move(
        &mut self,
        position: &Position<'_>,
        budget: &Budget,
        clocks: Option<&ClockReading>,
        limit: Duration,
    ) -> Result<(String, SearchInfo), Fault> {
        match self {
            Session::Uci(s) => s.best_move(position, budget, clocks, limit),
            Session::Cecp(s) => s.best_move(position, budget, clocks, limit),
        }
    }

    /// Takes the `info` lines of the last search kept as text (UCI engines whose definition
    /// asks for them; none otherwise).
    pub fn take_search_lines(&mut self) -> Vec<String> {
        match self {
            Session::Uci(s) => s.take_search_lines(),
            Session::Cecp(_) => Vec::new(),
        }
    }

    /// Lets the engine think on its opponent's time after its own move (`position`: the
    /// game after it), when its definition asks for pondering: a UCI engine searches the
    /// reply it expects ([`UciSession::ponder`]); a CECP engine is not asked to.
    ///
    /// # Errors
    /// [`Fault`] when the engine's input is closed.
    pub fn ponder(
        &mut self,
        position: &Position<'_>,
        budget: &Budget,
        clocks: Option<&ClockReading>,
    ) -> Result<(), Fault> {
        match self {
            Session::Uci(s) => s.ponder(position, budget, clocks),
            Session::Cecp(_) => Ok(()),
        }
    }

    /// Returns the name the engine gave itself.
    #[must_use]
    pub fn id_name(&self) -> &str {
        match self {
            Session::Uci(s) => &s.id_name,
            Session::Cecp(s) => &s.id_name,
        }
    }

    /// Returns the engine's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        match self {
            Session::Uci(s) => s.pid(),
            Session::Cecp(s) => s.pid(),
        }
    }

    /// Returns the options a UCI engine declared (empty for CECP).
    #[must_use]
    pub fn declared_options(&self) -> &[String] {
        match self {
            Session::Uci(s) => &s.declared_options,
            Session::Cecp(_) => &[],
        }
    }
}

/// Starts the program of `def`, performs the protocol's handshake with every option of the
/// definition set (an option the engine does not declare is a fault), waits until it is
/// ready, and ends it: a check before a run that a broken engine would otherwise turn into
/// lost games.
///
/// # Errors
/// [`Fault`] naming why the engine cannot start: the program is missing or not an engine,
/// it does not answer the handshake in time, lacks an option, or dies on one's value.
pub fn check_starts(def: &EngineDef) -> Result<(), Fault> {
    let mut session = Session::start(def)?;
    // A value the engine rejects often shows only once it is asked to be ready again.
    session.new_game(&def.budget, def.time_control)
}

/// An engine process kept by a worker: `None` after a fault, until the next game restarts it.
pub type Slot = Arc<Mutex<Option<Session>>>;

fn lock(slot: &Slot) -> MutexGuard<'_, Option<Session>> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Returns a slot of `worker` for the process `key` that no live player holds: the first
/// game's player gets `key#0`, and an engine playing itself gets `key#1` for its other side.
fn free_slot(worker: &mut Worker, key: &str) -> Slot {
    for i in 0.. {
        let k = format!("{key}#{i}");
        let made: Result<&mut Slot, std::convert::Infallible> =
            worker.resource(&k, || Ok(Arc::new(Mutex::new(None))));
        let slot = match made {
            Ok(s) => s,
            Err(never) => match never {},
        };
        if Arc::strong_count(slot) == 1 {
            return Arc::clone(slot);
        }
    }
    unreachable!("an unbounded range always finds a free slot")
}

/// Turns a protocol fault into the player error the runner stores.
fn player_error(engine: &str, fault: Fault) -> PlayerError {
    match fault {
        Fault::Timeout(limit) => PlayerError::Timeout {
            engine: engine.to_owned(),
            millis: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
        },
        Fault::Crashed(detail) => PlayerError::Crashed {
            engine: engine.to_owned(),
            detail,
        },
        Fault::Protocol(detail) => PlayerError::Crashed {
            engine: engine.to_owned(),
            detail,
        },
        // Read by `EnginePlayer::ask`, which knows the claimer's side.
        Fault::ResultClaim(text) => PlayerError::ResultClaim {
            player: engine.to_owned(),
            claim: claim_of(&text, true),
            text,
        },
    }
}

/// What the result claim `text` of the side to move (`white`) claims for it.
fn claim_of(text: &str, white: bool) -> Claim {
    let own_win = if white { "1-0" } else { "0-1" };
    if text.starts_with("1/2-1/2") {
        Claim::Draw
    } else if text.starts_with(own_win) {
        Claim::Win
    } else {
        Claim::Loss
    }
}

/// Takes the slot's session for a new game, starting (or restarting) the process when there
/// is none or it has died.
fn ready_session<'a>(
    slot: &'a Slot,
    def: &EngineDef,
    budget: &Budget,
    engine: &str,
) -> Result<MutexGuard<'a, Option<Session>>, PlayerError> {
    let mut guard = lock(slot);
    if let Some(session) = guard.as_mut() {
        if session.new_game(budget, def.time_control).is_ok() {
            return Ok(guard);
        }
        // A dead or confused process: end it and start another.
        *guard = None;
    }
    let setup_error = |f: Fault| PlayerError::Crashed {
        engine: engine.to_owned(),
        detail: format!("starting: {f}"),
    };
    let mut session = Session::start(def).map_err(setup_error)?;
    session
        .new_game(budget, def.time_control)
        .map_err(setup_error)?;
    *guard = Some(session);
    Ok(guard)
}

/// The moves of the game a player is in, as an engine is told them.
#[derive(Clone, Debug, Default)]
struct History {
    /// Castling is written king-takes-rook (the engine plays Chess960).
    chess960: bool,
    started: bool,
    start_fen: Option<String>,
    moves: String,
}

impl History {
    fn begin(&mut self, game: &Chess) {
        if !self.started {
            self.started = true;
            let fen = game.fen();
            self.start_fen = (fen != START_FEN).then_some(fen);
        }
    }

    fn push(&mut self, before: &Chess, mv: shakmaty::Move) {
        self.begin(before);
        if !self.moves.is_empty() {
            self.moves.push(' ');
        }
        if self.chess960 {
            // A Chess960 engine reads castling as the king taking its rook, whatever the start.
            shakmaty::uci::UciMove::from_move(mv, shakmaty::CastlingMode::Chess960)
                .append_to_string(&mut self.moves);
        } else {
            before.write_move_code(mv, &mut self.moves);
        }
    }

    /// Returns the number of moves played since the game started.
    fn plies(&self) -> usize {
        if self.moves.is_empty() {
            0
        } else {
            self.moves.split_ascii_whitespace().count()
        }
    }

    fn position(&self) -> Position<'_> {
        Position {
            start_fen: self.start_fen.as_deref(),
            moves: &self.moves,
        }
    }
}

/// How an engine player runs: its definition (with the spec's parameters applied).
#[derive(Clone, Debug)]
struct Setup {
    /// The name errors report (the spec's name).
    name: String,
    def: EngineDef,
    budget: Budget,
    limit: Duration,
    key: String,
    /// The opening book, read once for all games.
    book: Option<Arc<PolyglotBook>>,
}

impl Setup {
    fn new(name: &str, def: EngineDef) -> Setup {
        Setup {
            name: name.to_owned(),
            budget: def.effective_budget(),
            limit: Duration::from_millis(def.timeout_ms),
            key: def.process_key(),
            def,
            book: None,
        }
    }

    /// Reads the definition's book, if it names one.
    fn with_book(mut self) -> Result<Setup, polyglot::BookError> {
        if let Some(path) = &self.def.book {
            let path = match (&self.def.base_dir, path.is_relative()) {
                (Some(dir), true) => dir.join(path),
                _ => path.clone(),
            };
            self.book = Some(Arc::new(PolyglotBook::open(&path)?));
        }
        Ok(self)
    }

    /// Returns a book move for `game` when the game is still within the book depth.
    fn book_move(&self, game: &Chess, plies: usize, rng: &mut GameRng) -> Option<shakmaty::Move> {
        let book = self.book.as_ref()?;
        let depth = self.def.book_depth.map_or(usize::MAX, |d| 2 * d as usize);
        if plies >= depth {
            return None;
        }
        book.choose(game.position(), rng.unit())
    }
}

/// Builds [`EnginePlayer`]s on a worker's engine process.
pub struct EngineFactory {
    setup: Setup,
}

impl EngineFactory {
    /// Creates an engine player for one game on `worker`'s process (started when needed).
    ///
    /// # Errors
    /// [`PlayerError::Crashed`] when the engine cannot start or does not become ready.
    pub fn create_engine(&self, worker: &mut Worker) -> Result<EnginePlayer, PlayerError> {
        let slot = free_slot(worker, &self.setup.key);
        drop(ready_session(
            &slot,
            &self.setup.def,
            &self.setup.budget,
            &self.setup.name,
        )?);
        Ok(EnginePlayer {
            setup: self.setup.clone(),
            slot,
            history: History {
                chess960: self.setup.def.chess960,
                ..History::default()
            },
            last_search: None,
            search_lines: Vec::new(),
            from_book: false,
            clocks: None,
            ponder_clocks: None,
        })
    }
}

impl PlayerFactory<Chess> for EngineFactory {
    fn create(&self, worker: &mut Worker) -> Result<Box<dyn Player<Chess>>, PlayerError> {
        Ok(Box::new(self.create_engine(worker)?))
    }

    fn determinism(&self) -> Option<crate::Determinism> {
        Some(self.setup.def.determinism())
    }
}

/// A chess player that asks an external engine for each move.
pub struct EnginePlayer {
    setup: Setup,
    slot: Slot,
    history: History,
    last_search: Option<(shakmaty::Move, SearchInfo)>,
    /// The `info` lines of the last search kept as text ([`EngineDef::kept_lines`]).
    search_lines: Vec<String>,
    /// Whether the last move came from the opening book.
    from_book: bool,
    clocks: Option<ClockReading>,
    /// After its own move, until it is observed: the clocks the engine will have on its
    /// next turn (its time less the move's, plus its increment), for pondering.
    ponder_clocks: Option<Option<ClockReading>>,
}

impl EnginePlayer {
    /// Returns the process id of the engine serving this player, if it runs.
    #[must_use]
    pub fn engine_pid(&self) -> Option<u32> {
        lock(&self.slot).as_ref().map(Session::pid)
    }

    /// Returns the engine's last move and what it reported of the search.
    #[must_use]
    pub fn last_search(&self) -> Option<(shakmaty::Move, SearchInfo)> {
        self.last_search
    }

    /// Asks the engine for its move in `game` and returns it with the search report; on any
    /// fault the process is ended (and restarted by the next game).
    fn ask(&mut self, game: &Chess) -> Result<(shakmaty::Move, SearchInfo), PlayerError> {
        self.history.begin(game);
        let fen_now;
        let position = if self.setup.def.fen_only {
            fen_now = game.fen();
            Position {
                start_fen: Some(&fen_now),
                moves: "",
            }
        } else {
            self.history.position()
        };
        let mut guard = lock(&self.slot);
        let Some(session) = guard.as_mut() else {
            return Err(PlayerError::Crashed {
                engine: self.setup.name.clone(),
                detail: "not running".to_owned(),
            });
        };
        // On a clock the runner judges the time; the wait only ends a hung engine, a second
        // after its flag would fall.
        let limit = match &self.clocks {
            Some(c) => {
                c.own_and_opponent().0
                    + Duration::from_millis(self.setup.def.time_margin_ms)
                    + Duration::from_secs(1)
            }
            None => self.setup.limit,
        };
        let asked = Instant::now();
        let searched =
            session.best_move(&position, &self.setup.budget, self.clocks.as_ref(), limit);
        let lines = session.take_search_lines();
        match searched {
            Ok((text, info)) => match game.parse_move(&text) {
                Ok(mv) if game.is_legal(mv) => {
                    if self.setup.def.check_mate_pvs {
                        check_mating_lines(&self.setup.name, game, &self.history, &lines);
                    }
                    self.search_lines = lines;
                    if self.setup.def.ponder {
                        self.ponder_clocks =
                            Some(self.clocks.map(|c| c.after_move(asked.elapsed())));
                    }
                    Ok((mv, info))
                }
                _ => {
                    *guard = None;
                    Err(PlayerError::IllegalMove {
                        player: self.setup.name.clone(),
                        text,
                    })
                }
            },
            // The engine thinks the game is over; it is ready for the next one.
            Err(Fault::ResultClaim(text)) => Err(PlayerError::ResultClaim {
                player: self.setup.name.clone(),
                claim: claim_of(&text, shakmaty::Position::turn(game.position()).is_white()),
                text,
            }),
            Err(fault) => {
                *guard = None;
                Err(player_error(&self.setup.name, fault))
            }
        }
    }
}

impl Player<Chess> for EnginePlayer {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<shakmaty::Move, PlayerError> {
        let plies = self.history.plies();
        if let Some(mv) = self.setup.book_move(game, plies, rng) {
            self.last_search = None;
            self.search_lines.clear();
            self.from_book = true;
            return Ok(mv);
        }
        self.from_book = false;
        let (mv, info) = self.ask(game)?;
        self.last_search = Some((mv, info));
        Ok(mv)
    }

    fn observe(&mut self, before: &Chess, mv: shakmaty::Move) {
        self.history.push(before, mv);
        // Its own move was just played: it may think on the opponent's time.
        if let Some(clocks) = self.ponder_clocks.take() {
            let position = self.history.position();
            let mut guard = lock(&self.slot);
            if let Some(session) = guard.as_mut() {
                if session
                    .ponder(&position, &self.setup.budget, clocks.as_ref())
                    .is_err()
                {
                    // A dead engine is found, and restarted, at its next move.
                    *guard = None;
                }
            }
        }
    }

    fn time_control(&self) -> Option<(TimeControl, Duration)> {
        let def = &self.setup.def;
        def.time_control
            .map(|tc| (tc, Duration::from_millis(def.time_margin_ms)))
    }

    fn set_clocks(&mut self, clocks: &ClockReading) {
        self.clocks = Some(*clocks);
    }

    fn last_report(&self) -> Option<SearchInfo> {
        self.last_search.map(|(_, info)| info)
    }

    fn last_move_from_book(&self) -> bool {
        self.from_book
    }

    fn take_search_lines(&mut self) -> Vec<String> {
        std::mem::take(&mut self.search_lines)
    }
}

/// Runs the mate-PV check on the kept lines of a search from `game` and reports each fault
/// with the game so far, as fastchess does under `-check-mate-pvs`.
fn check_mating_lines(engine: &str, game: &Chess, history: &History, lines: &[String]) {
    for line in lines.iter().filter(|l| l.contains(" score mate ")) {
        if let Some(fault) = check_mate_pv(game, line) {
            pv_check::report(PvWarning {
                engine: engine.to_owned(),
                fault,
                info_line: line.clone(),
                start_fen: history.start_fen.clone(),
                moves: history.moves.clone(),
            });
        }
    }
}

/// The parameters every engine spec accepts.
const ENGINE_PARAMS: [&str; 7] = [
    "nodes", "depth", "movetime", "timeout", "fen_only", "hash", "threads",
];

/// Applies a spec's parameters to a definition: any of `nodes`, `depth`, `movetime`
/// replaces the whole budget; `timeout` (ms) and `fen_only` override the definition's.
fn apply_params(def: &mut EngineDef, spec: &PlayerSpec) -> Result<(), SpecError> {
    let p = &spec.params;
    let name = spec.name.as_str();
    p.check_keys(name, &ENGINE_PARAMS)?;
    let budget = Budget {
        nodes: p
            .get("nodes")
            .map(|_| p.parse_or(name, "nodes", 0u64))
            .transpose()?,
        depth: p
            .get("depth")
            .map(|_| p.parse_or(name, "depth", 0u32))
            .transpose()?,
        movetime: p
            .get("movetime")
            .map(|_| p.parse_or(name, "movetime", 0u64))
            .transpose()?,
    };
    if !budget.is_empty() {
        if def.protocol == Protocol::Cecp && budget.nodes.is_some() {
            return Err(SpecError::BadParam {
                player: name.to_owned(),
                reason: "a CECP engine takes depth or movetime, not nodes".to_owned(),
            });
        }
        def.budget = budget;
    }
    for (key, option) in [("hash", "Hash"), ("threads", "Threads")] {
        if p.get(key).is_some() {
            let value: i64 = p.parse_or(name, key, 0)?;
            def.options
                .insert(option.to_owned(), OptionValue::Int(value));
        }
    }
    def.timeout_ms = p.parse_or(name, "timeout", def.timeout_ms)?;
    def.fen_only = p.parse_or(name, "fen_only", def.fen_only)?;
    Ok(())
}

fn unavailable(spec: &PlayerSpec, e: &EngineFileError) -> SpecError {
    SpecError::Unavailable {
        player: spec.to_string(),
        reason: e.to_string(),
    }
}

/// Returns the registry entry of one definition: it checks the spec's parameters and that
/// the program is installed, so a tournament fails before it starts, naming the package.
fn engine_entry(def: EngineDef) -> FactoryFn<Chess> {
    Box::new(move |spec: &PlayerSpec| {
        let mut def = def.clone();
        apply_params(&mut def, spec)?;
        def.locate().map_err(|e| unavailable(spec, &e))?;
        let setup =
            Setup::new(&spec.name, def)
                .with_book()
                .map_err(|e| SpecError::Unavailable {
                    player: spec.to_string(),
                    reason: e.to_string(),
                })?;
        Ok(Arc::new(EngineFactory { setup }) as Arc<dyn PlayerFactory<Chess>>)
    })
}

fn engine_info(def: &EngineDef) -> PlayerInfo {
    let budget = def.effective_budget();
    let description = if def.description.is_empty() {
        format!(
            "{} engine {} at {budget}",
            if def.protocol == Protocol::Uci {
                "UCI"
            } else {
                "CECP"
            },
            def.command
        )
    } else {
        def.description.clone()
    };
    PlayerInfo::new(&def.name, &description, Flags::EXTERNAL)
        .param(
            "nodes",
            budget.nodes.map_or("-".to_owned(), |n| n.to_string()),
            "nodes per move (replaces the budget)",
        )
        .param(
            "depth",
            budget.depth.map_or("-".to_owned(), |n| n.to_string()),
            "search depth (replaces the budget)",
        )
        .param(
            "movetime",
            budget.movetime.map_or("-".to_owned(), |n| n.to_string()),
            "ms per move (replaces the budget)",
        )
        .param("hash", "-", "the engine's Hash option, MB (UCI)")
        .param("threads", "-", "the engine's Threads option (UCI)")
        .param(
            "timeout",
            def.timeout_ms,
            "ms without a move before engine-timeout",
        )
        .param(
            "fen_only",
            def.fen_only,
            "send only the FEN, without the moves (Elo World)",
        )
}

/// Adds engine definitions to a registry, replacing entries of the same name.
pub fn add_definitions(r: &mut Registry<Chess>, defs: impl IntoIterator<Item = EngineDef>) {
    for def in defs {
        r.add(engine_info(&def), engine_entry(def));
    }
}

/// Reads a node budget from a name of the `stockfish<N>k` / `stockfish<N>m` family.
fn node_budget(name: &str) -> Option<u64> {
    let rest = name.strip_prefix("stockfish")?;
    let (digits, scale) = match rest.as_bytes().last()? {
        b'k' => (&rest[..rest.len() - 1], 1_000),
        b'm' => (&rest[..rest.len() - 1], 1_000_000),
        _ => return None,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits
        .parse::<u64>()
        .ok()?
        .checked_mul(scale)
        .filter(|&n| n > 0)
}

/// Adds the built-in engines: Stockfish's levels, `stockfish<N>k`/`<N>m`, `worstfish`, and
/// Debian's CECP engines at fixed depths.
pub fn register(r: &mut Registry<Chess>) {
    let defs = builtin_definitions();
    let base = defs.iter().find(|d| d.name == "stockfish").cloned();
    let evaluator = defs.iter().find(|d| d.name == "stockfish0").cloned();
    add_definitions(r, defs);
    if let Some(base) = base {
        let info = PlayerInfo::new(
            "stockfish<N>k",
            "Stockfish at full strength with N thousand (<N>m: million) nodes per move",
            Flags::EXTERNAL,
        );
        r.add_family(
            info,
            |name| node_budget(name).is_some(),
            Box::new(move |spec: &PlayerSpec| {
                let mut def = base.clone();
                def.name.clone_from(&spec.name);
                def.budget = Budget {
                    nodes: node_budget(&spec.name),
                    depth: None,
                    movetime: None,
                };
                engine_entry(def)(spec)
            }),
        );
    }
    if let Some(evaluator) = evaluator {
        worstfish::register(r, evaluator);
    }
}

#[cfg(test)]
mod tests;
