//! The parametric engine of David–Koppel–Netanyahu as players: `evol` (Fig. 3 evaluation, Table II
//! search), `evol:eval=FILE,search=FILE` (parameters a genetic algorithm wrote),
//! `ab_depth<N>` (fixed depth), `ab_<N>k` (N thousand nodes per move) and `evol_1ply` (the
//! 1-ply search of the grandmaster-imitation phase, section III.B).
//!
//! Every one searches with an exact node or depth limit, so it is deterministic (unless `evol`
//! is given `movetime=`, a time per move for timed matches); it keeps its
//! transposition table across the moves of a game and learns the game's positions through
//! `observe` for repetition detection.

use eloworld_engine::score::mate_in;
use eloworld_engine::search::Techniques;
use eloworld_engine::{Engine, EvalParams, Limits, SearchParams};
use eloworld_games::{Chess, GameRng};
use eloworld_players_core::engine::{Score, SearchInfo};
use eloworld_players_core::{
    Flags, Params, Player, PlayerError, PlayerFactory, PlayerInfo, PlayerSpec, Registry, SpecError,
    Worker,
};
use shakmaty::Move;
use std::sync::Arc;

pub use eloworld_engine as engine;

/// The default node budget of `evol`, per move.
pub const EVOL_DEFAULT_NODES: u64 = 100_000;
/// The default transposition table of a player, MiB.
pub const DEFAULT_HASH_MB: usize = 4;

/// How a player built from a spec searches.
#[derive(Clone, Debug)]
pub struct EvolConfig {
    /// The evaluation parameters.
    pub eval: EvalParams,
    /// The search parameters.
    pub search: SearchParams,
    /// The per-move limit (ignored by the 1-ply player).
    pub limits: Limits,
    /// `Some(quiescence)` for the 1-ply player.
    pub one_ply: Option<bool>,
    /// Transposition table size, MiB.
    pub hash_mb: usize,
    /// The standard techniques beside the paper's genes (`techniques=all`, the default), none
    /// of them (`techniques=paper`: the search as David–Koppel–Netanyahu describe it, which the
    /// first phase-3 parameter files were evolved with), or a list (`techniques=lmr+asp+see`).
    pub techniques: Techniques,
}

impl EvolConfig {
    /// Builds the engine this configuration describes.
    #[must_use]
    pub fn engine(&self) -> Engine {
        let mut engine = Engine::new(self.eval, self.search, self.hash_mb);
        engine.techniques = self.techniques;
        engine
    }
}

/// A player that searches with the parametric engine.
#[derive(Debug)]
pub struct EvolPlayer {
    engine: Engine,
    limits: Limits,
    one_ply: Option<bool>,
    /// Keys of the game's earlier positions, oldest first.
    keys: Vec<u64>,
    /// What the last search found (score, depth, nodes), for the game's notes and
    /// adjudication, as an engine's `info` lines give them.
    last: Option<SearchInfo>,
}

impl EvolPlayer {
    /// Creates a player from a configuration.
    #[must_use]
    pub fn new(config: &EvolConfig) -> EvolPlayer {
        EvolPlayer {
            engine: config.engine(),
            limits: config.limits.clone(),
            one_ply: config.one_ply,
            keys: Vec::new(),
            last: None,
        }
    }
}

impl Player<Chess> for EvolPlayer {
    fn choose(&mut self, game: &Chess, _rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        let (best, report) = match self.one_ply {
            Some(quiescence) => match self.engine.best_move_1ply(pos, quiescence) {
                Some((m, score, evaluations)) => (Some(m), Some(report(1, evaluations, score))),
                None => (None, None),
            },
            None => {
                let r = self
                    .engine
                    .search(pos, &self.keys, &self.limits, &mut |_| {});
                (
                    r.best_move,
                    r.best_move.map(|_| report(r.depth, r.nodes, r.score)),
                )
            }
        };
        self.last = report;
        best.ok_or(PlayerError::NoMove)
    }

    fn last_report(&self) -> Option<SearchInfo> {
        self.last
    }

    fn observe(&mut self, before: &Chess, _mv: Move) {
        self.keys.push(before.hash());
    }
}

/// A search's depth, nodes and score (the engine's, a mate as a mate) as an engine reports it.
fn report(depth: u32, nodes: u64, score: i32) -> SearchInfo {
    let score = mate_in(score).map_or(Score::Centipawns(score), Score::Mate);
    SearchInfo::searched(depth, nodes, score)
}

struct EvolFactory(EvolConfig);

impl PlayerFactory<Chess> for EvolFactory {
    fn create(&self, _worker: &mut Worker) -> Result<Box<dyn Player<Chess>>, PlayerError> {
        Ok(Box::new(EvolPlayer::new(&self.0)))
    }
}

fn read_params<T>(
    player: &str,
    params: &Params,
    key: &str,
    default: T,
    parse: impl Fn(&str, &str) -> Result<T, eloworld_engine::EngineError>,
) -> Result<T, SpecError> {
    let Some(path) = params.get(key) else {
        return Ok(default);
    };
    let text = std::fs::read_to_string(path).map_err(|e| SpecError::Unavailable {
        player: player.to_owned(),
        reason: format!("cannot read {key} file {path}: {e}"),
    })?;
    parse(&text, path).map_err(|e| SpecError::BadParam {
        player: player.to_owned(),
        reason: e.to_string(),
    })
}

/// Returns the number in a family name: `ab_depth6` → 6 with prefix `ab_depth`, suffix "".
fn family_number(name: &str, prefix: &str, suffix: &str) -> Option<u64> {
    let digits = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|&n| n > 0)
}

/// Builds the configuration of an `evol`-family spec (`evol`, `evol_1ply`, `ab_depth<N>`,
/// `ab_<N>k`), reading its parameter files.
///
/// # Errors
/// [`SpecError::Unknown`] for another name; [`SpecError::BadParam`] for unknown keys, bad
/// values or a bad parameter file (naming file and line); [`SpecError::Unavailable`] when a
/// file cannot be read.
pub fn evol_config(spec: &PlayerSpec) -> Result<EvolConfig, SpecError> {
    let name = spec.name.as_str();
    let p = &spec.params;
    let mut limits = Limits::infinite();
    let mut one_ply = None;
    let mut keys = vec!["eval", "search", "hash", "techniques"];
    if name == "evol" {
        keys.extend(["nodes", "depth", "genome", "movetime"]);
    } else if name == "evol_1ply" {
        keys = vec!["eval", "qs"];
    }
    if name == "evol" {
        // A time per move replaces the default node budget (a node budget given with it
        // stays); the moves then depend on the machine's speed, as an engine's do.
        let nodes = p
            .get("nodes")
            .map(|_| p.parse_or(name, "nodes", EVOL_DEFAULT_NODES))
            .transpose()?;
        match p
            .get("movetime")
            .map(|_| p.parse_or(name, "movetime", 0u64))
            .transpose()?
        {
            Some(0) => {
                return Err(SpecError::BadParam {
                    player: name.to_owned(),
                    reason: "movetime must be at least 1 ms".to_owned(),
                })
            }
            Some(ms) => {
                limits.time = Some(std::time::Duration::from_millis(ms));
                limits.nodes = nodes;
            }
            None => limits.nodes = Some(nodes.unwrap_or(EVOL_DEFAULT_NODES)),
        }
        if let Some(d) = p.get("depth") {
            limits.depth = Some(d.parse().map_err(|_| SpecError::BadParam {
                player: name.to_owned(),
                reason: format!("depth={d:?} is not a number of plies"),
            })?);
        }
    } else if name == "evol_1ply" {
        let qs: u8 = p.parse_or(name, "qs", 1)?;
        one_ply = Some(qs != 0);
    } else if let Some(d) = family_number(name, "ab_depth", "") {
        limits.depth = Some(
            u32::try_from(d)
                .unwrap_or(u32::MAX)
                .min(eloworld_engine::MAX_DEPTH),
        );
    } else if let Some(k) = family_number(name, "ab_", "k") {
        limits.nodes = Some(k.saturating_mul(1000));
    } else {
        return Err(SpecError::Unknown {
            game: "chess".to_owned(),
            name: name.to_owned(),
            suggestions: Vec::new(),
        });
    }
    // The family first, then its parameters: a player of no evol family is `Unknown`, whatever
    // parameters it carries (the suite hands those to an engine).
    p.check_keys(name, &keys)?;
    let eval = match p.get("genome") {
        Some(hex) if p.get("eval").is_none() => genome_eval(name, hex)?,
        Some(_) => {
            return Err(SpecError::BadParam {
                player: name.to_owned(),
                reason: "give eval=FILE or genome=HEX, not both".to_owned(),
            })
        }
        None => read_params(
            name,
            p,
            "eval",
            EvalParams::default(),
            EvalParams::from_text,
        )?,
    };
    let search = if p.get("search") == Some("plain") {
        SearchParams::plain()
    } else {
        read_params(
            name,
            p,
            "search",
            SearchParams::default(),
            SearchParams::from_text,
        )?
    };
    let hash_mb = p.parse_or(name, "hash", DEFAULT_HASH_MB)?.clamp(1, 4096);
    let techniques = match p.get("techniques") {
        None => Techniques::default(),
        Some(text) => Techniques::from_names(text).ok_or_else(|| SpecError::BadParam {
            player: name.to_owned(),
            reason: format!(
                "techniques={text:?}: all (the standard techniques beside the genes), paper (none of them) or names joined by + from {}",
                Techniques::known_names().collect::<Vec<_>>().join(", ")
            ),
        })?,
    };
    Ok(EvolConfig {
        eval,
        search,
        limits,
        one_ply,
        hash_mb,
        techniques,
    })
}

/// Writes evaluation parameters as the `genome=HEX` of an `evol` spec: their Gray-coded
/// chromosome (the genetic algorithm's genome, David–Koppel–Netanyahu's encoding), four bits a digit, so
/// that an organism is a spec any worker can build without files.
#[must_use]
pub fn genome_hex(eval: &EvalParams) -> String {
    let bits = eval.encode(eloworld_engine::Coding::Gray);
    bits.chunks(4)
        .map(|c| {
            let v = c
                .iter()
                .enumerate()
                .fold(0u32, |v, (i, &b)| v | (u32::from(b) << (3 - i)));
            char::from_digit(v, 16).unwrap_or('0')
        })
        .collect()
}

/// Reads the evaluation parameters of a `genome=HEX` value (see [`genome_hex`]).
fn genome_eval(player: &str, hex: &str) -> Result<EvalParams, SpecError> {
    let bad = |reason: String| SpecError::BadParam {
        player: player.to_owned(),
        reason,
    };
    let len = EvalParams::default()
        .encode(eloworld_engine::Coding::Gray)
        .len();
    if hex.len() != len.div_ceil(4) {
        return Err(bad(format!(
            "genome= takes {} hexadecimal digits ({len} bits), got {}",
            len.div_ceil(4),
            hex.len()
        )));
    }
    let mut bits = Vec::with_capacity(hex.len() * 4);
    for c in hex.chars() {
        let v = c
            .to_digit(16)
            .ok_or_else(|| bad(format!("genome= has {c:?}, not a hexadecimal digit")))?;
        bits.extend((0..4).rev().map(|i| v >> i & 1 == 1));
    }
    bits.truncate(len);
    EvalParams::decode(&bits, eloworld_engine::Coding::Gray).map_err(|e| bad(e.to_string()))
}

fn build(spec: &PlayerSpec) -> Result<Arc<dyn PlayerFactory<Chess>>, SpecError> {
    Ok(Arc::new(EvolFactory(evol_config(spec)?)))
}

/// Adds the `evol` players to a chess registry.
pub fn register(r: &mut Registry<Chess>) {
    let flags = Flags {
        deterministic: true,
        stateful: true,
        ..Flags::NONE
    };
    let files = |info: PlayerInfo| {
        info.param(
            "eval",
            "Fig. 3",
            "file of `NAME = value` lines: evaluation parameters",
        )
        .param(
            "search",
            "Table II",
            "file of `NAME = value` lines: search parameters, or `plain` (alpha-beta without selective methods)",
        )
        .param("hash", DEFAULT_HASH_MB, "transposition table, MiB")
        .param(
            "techniques",
            "all",
            "all: every standard technique beside the genes (lmr late move reductions, asp aspiration windows, see static exchange, rfp reverse futility, lmp late move pruning, king the king's placement by phase, passers passed pawns by rank in the endgame, iir internal iterative reduction, cutnode deeper reductions at cut nodes); paper: none of them (the search as the paper describes it); or names joined by + (lmr+asp+see+rfp+lmp: the first re-run's five)",
        )
    };
    r.add(
        files(PlayerInfo::new(
            "evol",
            "David–Koppel–Netanyahu's parametric alpha-beta engine (Fig. 3 evaluation, Table II selective search), a node budget per move",
            flags,
        ))
        .param("nodes", EVOL_DEFAULT_NODES, "nodes per move")
        .param(
            "genome",
            "none",
            "evaluation parameters as hexadecimal Gray-coded bits (what `evolve coevolve` plays), instead of eval=FILE",
        )
        .param("depth", "none", "plies per move")
        .param(
            "movetime",
            "none",
            "ms per move, instead of the node budget (moves then depend on the machine's speed)",
        ),
        Box::new(build),
    );
    r.add(
        PlayerInfo::new(
            "evol_1ply",
            "the evol evaluation over a 1-ply search (David–Koppel–Netanyahu's grandmaster-imitation phase)",
            flags,
        )
        .param(
            "eval",
            "Fig. 3",
            "file of `NAME = value` lines: evaluation parameters",
        )
        .param(
            "qs",
            1,
            "1: score each move by quiescence; 0: by the static evaluation",
        ),
        Box::new(build),
    );
    r.add_family(
        files(PlayerInfo::new(
            "ab_depth<N>",
            "the evol engine searching N plies per move",
            flags,
        )),
        |n| family_number(n, "ab_depth", "").is_some(),
        Box::new(build),
    );
    r.add_family(
        files(PlayerInfo::new(
            "ab_<N>k",
            "the evol engine searching N thousand nodes per move",
            flags,
        )),
        |n| family_number(n, "ab_", "k").is_some(),
        Box::new(build),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::{DrawRules, Game};

    fn registry() -> Registry<Chess> {
        let mut r = Registry::new();
        register(&mut r);
        r
    }

    fn choose(spec: &str, fen: &str) -> String {
        let factory = registry().resolve_str(spec).expect("resolves");
        let mut player = factory.create(&mut Worker::new(0)).expect("creates");
        let game = Chess::from_position(fen, DrawRules::Automatic).expect("fen");
        let m = player.choose(&game, &mut GameRng::new(1)).expect("a move");
        game.move_code(m)
    }

    #[test]
    fn every_family_finds_a_mate_in_one() {
        let fen = "6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1";
        for spec in [
            "evol",
            "evol:nodes=5000",
            "ab_depth2",
            "ab_5k",
            "evol_1ply",
            "evol_1ply:qs=0",
        ] {
            assert_eq!(choose(spec, fen), "e1e8", "{spec}");
        }
    }

    /// Each search's depth, nodes and score are kept for the game's notes (PGN comments) and
    /// for adjudication, as an engine's `info` lines are: a mate in one as a mate, the 1-ply
    /// players at depth 1, and nothing before the first move.
    #[test]
    fn the_last_search_is_reported_as_an_engine_reports_it() {
        let mate = "6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1";
        let quiet = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let report = |spec: &str, fen: &str| {
            let factory = registry().resolve_str(spec).expect("resolves");
            let mut player = factory.create(&mut Worker::new(0)).expect("creates");
            assert_eq!(player.last_report(), None, "{spec}: before any move");
            let game = Chess::from_position(fen, DrawRules::Automatic).expect("fen");
            player.choose(&game, &mut GameRng::new(1)).expect("a move");
            player.last_report().expect("a report")
        };
        let r = report("ab_depth3", mate);
        assert_eq!((r.depth, r.score), (Some(3), Some(Score::Mate(1))));
        assert!(r.nodes.is_some_and(|n| n > 0));
        let r = report("ab_depth3", quiet);
        assert_eq!(r.depth, Some(3));
        assert!(
            matches!(r.score, Some(Score::Centipawns(cp)) if cp.abs() < 300),
            "{r:?}"
        );
        let r = report("evol_1ply", quiet);
        assert_eq!(r.depth, Some(1));
        assert!(r.nodes.is_some_and(|n| n > 0), "{r:?}");
    }

    #[test]
    fn the_1ply_player_takes_a_hanging_queen() {
        assert_eq!(
            choose("evol_1ply", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1"),
            "d2d5"
        );
    }

    #[test]
    fn parameter_files_change_the_player() {
        let dir = std::env::temp_dir().join(format!("eloworld-evol-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let eval = dir.join("eval.txt");
        // Rd1 can take a knight, Rh1 a pawn; with the knight worth nothing the pawn is taken.
        let fen = "4k3/8/8/3n3p/8/8/8/3RK2R w - - 0 1";
        assert_eq!(choose("evol_1ply:qs=0", fen), "d1d5");
        std::fs::write(&eval, "# GA output\nKNIGHT_VALUE = 0\n").expect("write");
        let spec = format!("evol_1ply:eval={},qs=0", eval.display());
        assert_eq!(choose(&spec, fen), "h1h5");
        let cfg = evol_config(&spec.parse().expect("spec")).expect("config");
        assert_eq!(cfg.eval.knight_value, 0);
        assert_eq!(cfg.eval.bishop_value, 572, "unnamed parameters keep Fig. 3");
        std::fs::write(&eval, "KNIGHT_VALUE = 99999\n").expect("write");
        let e = evol_config(&spec.parse().expect("spec")).expect_err("out of range");
        assert!(e.to_string().contains("line 1"), "{e}");
        let e = evol_config(&"evol:search=/nonexistent/x.txt".parse().expect("spec"))
            .expect_err("missing");
        assert!(e.to_string().contains("/nonexistent/x.txt"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_genome_spec_carries_the_evaluation_without_files() {
        let mut eval = EvalParams::default();
        eval.set("KNIGHT_VALUE", 0).expect("known");
        let hex = genome_hex(&eval);
        let spec = format!("evol:genome={hex},search=plain,nodes=500");
        let cfg = evol_config(&spec.parse().expect("spec")).expect("config");
        assert_eq!(cfg.eval, eval);
        assert_eq!(cfg.search, SearchParams::plain());
        assert_eq!(cfg.limits.nodes, Some(500));
        let short = format!("evol:genome={}", &hex[1..]);
        let e = evol_config(&short.parse().expect("spec")).expect_err("too short");
        assert!(e.to_string().contains("hexadecimal digits"), "{e}");
        let e = evol_config(&format!("evol:genome={hex},eval=x").parse().expect("spec"))
            .expect_err("both");
        assert!(e.to_string().contains("not both"), "{e}");
    }

    #[test]
    fn a_movetime_replaces_the_node_budget() {
        let cfg = evol_config(&"evol:movetime=250".parse().expect("spec")).expect("config");
        assert_eq!(cfg.limits.time, Some(std::time::Duration::from_millis(250)));
        assert_eq!(cfg.limits.nodes, None);
        let both =
            evol_config(&"evol:movetime=250,nodes=900".parse().expect("spec")).expect("config");
        assert_eq!(both.limits.nodes, Some(900));
        assert!(evol_config(&"evol:movetime=0".parse().expect("spec")).is_err());
        assert!(evol_config(&"evol:movetime=soon".parse().expect("spec")).is_err());
        // A mate in one is found within the time.
        assert_eq!(
            choose("evol:movetime=200", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"),
            "a1a8"
        );
    }

    #[test]
    fn family_names_and_bad_keys() {
        let r = registry();
        assert!(
            r.knows("ab_depth3") && r.knows("ab_250k") && !r.knows("ab_k") && !r.knows("ab_depth")
        );
        assert_eq!(
            evol_config(&"ab_250k".parse().expect("spec"))
                .expect("ok")
                .limits
                .nodes,
            Some(250_000)
        );
        assert_eq!(
            evol_config(&"ab_depth7".parse().expect("spec"))
                .expect("ok")
                .limits
                .depth,
            Some(7)
        );
        assert!(r.resolve_str("evol:playouts=3").is_err());
    }

    #[test]
    fn a_spec_names_its_techniques_and_an_unknown_one_is_an_error() {
        let techniques =
            |spec: &str| evol_config(&spec.parse().expect("spec")).map(|c| c.techniques);
        assert_eq!(techniques("evol").expect("ok"), Techniques::default());
        assert_eq!(
            techniques("evol:techniques=all").expect("ok"),
            Techniques::default()
        );
        assert_eq!(
            techniques("evol:techniques=paper").expect("ok"),
            Techniques::none()
        );
        let two = techniques("evol:techniques=see+king").expect("ok");
        assert!(two.static_exchange && two.king_placement && !two.late_move_reductions);
        let err = techniques("evol:techniques=see+nmp").expect_err("nmp is no technique");
        let text = err.to_string();
        assert!(
            text.contains("\"see+nmp\"") && text.contains("lmr, asp, see"),
            "{text}"
        );
    }
}
