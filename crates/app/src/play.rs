//! `play`: one game between two players, from the start or a given position, and its
//! record — PGN for chess, the result and (asked for) SGF for Go.

use crate::error::{AppError, AppResult, Context};
use crate::game::AppGame;
use crate::with_game;
use eloworld_games::{DrawRules, GameKind, GameResult, Termination};
use eloworld_players::human::{Human, HUMAN};
use eloworld_players::{Player, PlayerSpec, Registry, Worker};
use eloworld_tournament::{pgn::game_to_pgn, play_game, GameRow};
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// What the human player reads its moves from and writes the board and prompts to.
pub struct HumanIo {
    /// The moves typed.
    pub input: Box<dyn BufRead + Send>,
    /// The board and prompts.
    pub output: Box<dyn Write + Send>,
}

/// The game to play.
#[derive(Clone, Debug)]
pub struct PlayRequest<'a> {
    /// The game.
    pub game: GameKind,
    /// White's spec (the first player in chess and squava, the second in Go).
    pub white: &'a str,
    /// Black's spec (the second player in chess and squava; in Go, Black moves first).
    pub black: &'a str,
    /// The game's seed.
    pub seed: u64,
    /// The start position (FEN for chess), if not the game's own.
    pub position: Option<&'a str>,
    /// A draw is adjudicated after this many plies.
    pub max_plies: u32,
    /// Chess draw rules.
    pub draw_rules: DrawRules,
    /// Go: the board size.
    pub size: Option<u8>,
    /// Go: the komi.
    pub komi: Option<f64>,
    /// Go: also make the game's SGF.
    pub sgf: bool,
    /// Engine definitions to add to the built-in players.
    pub engines: Option<&'a Path>,
}

/// The record of a game played, by game.
#[derive(Clone, Debug)]
pub enum Record {
    /// Chess: the PGN; `human` when a human played (who is also shown the end).
    Chess {
        /// The game as PGN.
        pgn: String,
        /// A human played.
        human: bool,
    },
    /// Go: the result as SGF writes it (`B+3.5`), and the SGF (FF\[4\]) if asked for.
    Go {
        /// The result, `B+…`, `W+…` or `0`.
        result: String,
        /// The game as SGF.
        sgf: Option<String>,
    },
    /// Squava: the moves and board say it all.
    Plain,
}

/// A game played.
#[derive(Clone, Debug)]
pub struct OneGame {
    /// The player who moved first (White in chess, Black in Go).
    pub first: PlayerSpec,
    /// The player who moved second.
    pub second: PlayerSpec,
    /// The moves, in the game's notation.
    pub moves: Vec<String>,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// The final position, drawn as text.
    pub board: String,
    /// The game's record.
    pub record: Record,
}

/// Plays one game; `human` gives the terminal to a `human` player.
///
/// # Errors
/// Go settings for another game, a player that cannot be made or started, a position that
/// does not parse, a game stopped, or a record that cannot be written.
pub fn play_one(
    request: &PlayRequest<'_>,
    human: &mut dyn FnMut() -> HumanIo,
) -> AppResult<OneGame> {
    with_game!(request.game, G => play::<G>(request, human))
}

fn play<G: AppGame>(r: &PlayRequest<'_>, human: &mut dyn FnMut() -> HumanIo) -> AppResult<OneGame> {
    let go = G::KIND == GameKind::Go;
    crate::ensure!(
        go || (r.size.is_none() && r.komi.is_none() && !r.sgf),
        "--size, --komi and --sgf are Go settings; this is a {} game",
        G::KIND
    );
    let rules = G::rules_with(r.draw_rules, r.size, r.komi)?;
    let mut reg = G::builtin_players();
    if let Some(path) = r.engines {
        eloworld_players::engine::add_definitions_file(&mut reg, path)?;
    }
    let mut worker = Worker::new(0);
    // The first player is White in chess and Black in Go.
    let (first, second) = if go {
        (r.black, r.white)
    } else {
        (r.white, r.black)
    };
    let first: PlayerSpec = first.parse()?;
    let second: PlayerSpec = second.parse()?;
    let mut white = make_player::<G>(&reg, &first, &mut worker, human)
        .with_context(|| format!("starting {first}"))?;
    let mut black = make_player::<G>(&reg, &second, &mut worker, human)
        .with_context(|| format!("starting {second}"))?;
    let start = match r.position {
        Some(f) => G::from_position(f, rules)?,
        None => G::new(rules),
    };
    let mut game = start.clone();
    let mut moves = Vec::new();
    let stop = AtomicBool::new(false);
    let played = play_game(
        &mut game,
        &mut *white,
        &mut *black,
        r.seed,
        r.max_plies,
        &stop,
        &mut moves,
    )
    .ok_or_else(|| AppError::Invalid("game stopped".to_owned()))?;
    let codes: Vec<String> = moves.iter().map(|&m| start.move_code(m)).collect();
    let outcome = played.outcome;
    let record = match G::KIND {
        GameKind::Chess => {
            let row = GameRow {
                job_id: 0,
                tournament: "eloworld play".to_owned(),
                game: GameKind::Chess,
                white: first.to_string(),
                black: second.to_string(),
                round: 0,
                result: outcome.result,
                termination: outcome.termination,
                plies: played.plies,
                moves: codes.join(" "),
                opening: r.position.map(|_| start.position_text()),
                seed: r.seed,
                wall_ms: 0.0,
                detail: played.detail.clone(),
                date: eloworld_tournament::pgn::pgn_date_today(),
                notes: Vec::new(),
                setup: eloworld_tournament::GameSetup::default(),
            };
            Record::Chess {
                pgn: game_to_pgn(&row, "local").map_err(AppError::Invalid)?,
                human: [&first, &second].iter().any(|s| s.name == HUMAN),
            }
        }
        GameKind::Go => {
            let go_game = (&game as &dyn std::any::Any).downcast_ref::<eloworld_games::Go>();
            let result = go_game.map_or_else(String::new, |g| {
                eloworld_tournament::sgf::result_value(g, outcome)
            });
            let sgf = match go_game.filter(|_| r.sgf) {
                Some(g) => {
                    let refs: Vec<&str> = codes.iter().map(String::as_str).collect();
                    let date = eloworld_tournament::pgn::pgn_date_today().replace('.', "-");
                    let header = eloworld_tournament::sgf::SgfHeader {
                        black: &first.to_string(),
                        white: &second.to_string(),
                        date: &date,
                        event: "eloworld play",
                    };
                    Some(eloworld_tournament::sgf::game_to_sgf(
                        &header,
                        g.rules(),
                        &refs,
                        Some(outcome),
                    )?)
                }
                None => None,
            };
            Record::Go { result, sgf }
        }
        GameKind::Squava => Record::Plain,
    };
    Ok(OneGame {
        first,
        second,
        moves: codes,
        result: outcome.result,
        termination: outcome.termination,
        board: game.board_text(),
        record,
    })
}

/// Builds a player: `human` plays through the terminal `human_io` gives; every other spec
/// comes from the registry.
fn make_player<G: AppGame>(
    reg: &Registry<G>,
    spec: &PlayerSpec,
    worker: &mut Worker,
    human_io: &mut dyn FnMut() -> HumanIo,
) -> AppResult<Box<dyn Player<G>>> {
    if spec.name == HUMAN {
        crate::ensure!(
            spec.params.is_empty() && spec.dilution.is_none(),
            "the human player takes no parameters: {spec}"
        );
        let io = human_io();
        return Ok(Box::new(Human::<G>::new(io.input, io.output)));
    }
    Ok(reg.resolve(spec)?.create(worker)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(game: GameKind) -> PlayRequest<'static> {
        PlayRequest {
            game,
            white: "first_move",
            black: "random_move",
            seed: 1,
            position: None,
            max_plies: 12,
            draw_rules: DrawRules::Automatic,
            size: None,
            komi: None,
            sgf: false,
            engines: None,
        }
    }

    fn no_human() -> HumanIo {
        panic!("no human plays here")
    }

    #[test]
    fn a_chess_game_is_recorded_as_pgn_with_white_first() {
        let g = play_one(&request(GameKind::Chess), &mut no_human).expect("played");
        assert_eq!(
            (g.first.name.as_str(), g.second.name.as_str()),
            ("first_move", "random_move")
        );
        assert_eq!(g.moves.len(), 12, "drawn at the ply limit");
        let Record::Chess { pgn, human } = &g.record else {
            panic!("a chess record")
        };
        assert!(!human);
        assert!(pgn.contains("[White \"first_move\"]"), "{pgn}");
    }

    #[test]
    fn in_go_black_moves_first_and_the_sgf_is_made_when_asked() {
        let mut r = request(GameKind::Go);
        r.white = "first_legal";
        r.size = Some(5);
        r.sgf = true;
        let g = play_one(&r, &mut no_human).expect("played");
        assert_eq!(g.first.name, "random_move", "--black moves first in Go");
        let Record::Go { sgf: Some(sgf), .. } = &g.record else {
            panic!("a Go record with its SGF")
        };
        assert!(
            sgf.contains("SZ[5]") && sgf.contains("PB[random_move]"),
            "{sgf}"
        );
    }

    #[test]
    fn go_settings_in_another_game_are_an_error_naming_them() {
        let mut r = request(GameKind::Squava);
        r.komi = Some(6.5);
        let e = play_one(&r, &mut no_human).expect_err("komi in squava");
        assert_eq!(
            e.to_string(),
            "--size, --komi and --sgf are Go settings; this is a squava game"
        );
        let mut r = request(GameKind::Squava);
        r.white = "human:x=1";
        let e = play_one(&r, &mut no_human).expect_err("a human with parameters");
        assert_eq!(e.to_string(), "starting human:x=1");
    }
}
