use crate::adjudication::{Adjudication, Referee};
use crate::tablebase::Tablebases;
use eloworld_games::{Game, GameRng, Outcome, Side, Termination};
use eloworld_players::engine::{Clock, ClockReading, ClockVerdict, Score, SearchInfo};
use eloworld_players::{Claim, Player, PlayerError};
use std::any::Any;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How a game went: its outcome, its length, and what more the store should know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The result and why.
    pub outcome: Outcome,
    /// Plies played.
    pub plies: u32,
    /// More about the end (an engine's illegal move, a crash message).
    pub detail: Option<String>,
}

/// What the runner records of one move: what the mover reported of its search (its score,
/// from its own side, and depth; for a PGN, the rest) and the time it took, measured around
/// the player's answer, and its clock.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveNote {
    /// The time the move took.
    pub elapsed: Duration,
    /// Whether the move came from an opening book (no search).
    pub book: bool,
    /// Everything the mover reported of its search (score, depth, selective depth, nodes,
    /// nps, hash, tablebase hits, its own time), when it reported; the store keeps only
    /// score and depth.
    pub report: Option<SearchInfo>,
    /// The mover's clock after the move, when it plays on one.
    pub time_left: Option<Duration>,
    /// The engine's `info` lines of this search, when its definition keeps them (the PGN's
    /// `pv` and `match_line` comments).
    pub lines: Vec<String>,
}

impl MoveNote {
    /// A searched move's note with only what the store keeps: score, depth and time.
    #[must_use]
    pub fn searched(score: Option<Score>, depth: Option<u32>, elapsed: Duration) -> MoveNote {
        let report = (score.is_some() || depth.is_some()).then(|| {
            let mut r = SearchInfo::default();
            r.score = score;
            r.depth = depth;
            r
        });
        MoveNote {
            elapsed,
            report,
            ..MoveNote::default()
        }
    }

    /// The score the mover reported, from its own side.
    #[must_use]
    pub fn score(&self) -> Option<Score> {
        self.report.and_then(|r| r.score)
    }

    /// The depth the mover reported.
    #[must_use]
    pub fn depth(&self) -> Option<u32> {
        self.report.and_then(|r| r.depth)
    }
}

/// The rules a game is played under beyond the game's own: a length limit and adjudication.
#[derive(Clone, Copy, Debug)]
pub struct GameRules<'a> {
    /// Plies after which the game is a draw (`max-plies`).
    pub max_plies: u32,
    /// Resign and draw adjudication from the engines' scores.
    pub adjudication: Option<&'a Adjudication>,
    /// Syzygy tables that end chess games they know the result of.
    pub tablebases: Option<&'a Tablebases>,
}

/// Plays one game from `game` to its end and returns how it went, or `None` if `stop` was
/// raised first. Moves are appended to `moves`; each side draws from its own stream of
/// `seed`, and both players observe every move. Nothing here allocates per move once
/// `moves` has capacity.
pub fn play_game<G: Game>(
    game: &mut G,
    white: &mut dyn Player<G>,
    black: &mut dyn Player<G>,
    seed: u64,
    max_plies: u32,
    stop: &AtomicBool,
    moves: &mut Vec<G::Move>,
) -> Option<PlayedGame> {
    let rules = GameRules {
        max_plies,
        adjudication: None,
        tablebases: None,
    };
    play_game_with(game, white, black, seed, &rules, stop, moves, None)
}

/// Plays one game as [`play_game`] under `rules`, keeping the clocks of players on a clock
/// (a move past the flag loses on time) and, when `notes` is given, one [`MoveNote`] per move.
#[expect(
    clippy::too_many_arguments,
    reason = "the game loop's inputs; a struct would only rename them"
)]
pub fn play_game_with<G: Game>(
    game: &mut G,
    white: &mut dyn Player<G>,
    black: &mut dyn Player<G>,
    seed: u64,
    rules: &GameRules<'_>,
    stop: &AtomicBool,
    moves: &mut Vec<G::Move>,
    mut notes: Option<&mut Vec<MoveNote>>,
) -> Option<PlayedGame> {
    let mut rngs = [
        GameRng::for_side(seed, Side::First),
        GameRng::for_side(seed, Side::Second),
    ];
    let plain = notes.is_none()
        && rules.adjudication.is_none()
        && rules.tablebases.is_none()
        && white.time_control().is_none()
        && black.time_control().is_none();
    if plain {
        return play_plain(game, white, black, &mut rngs, rules.max_plies, stop, moves);
    }
    let mut clocks: [Option<(Clock, Duration)>; 2] = [
        white
            .time_control()
            .map(|(tc, margin)| (Clock::new(tc), margin)),
        black
            .time_control()
            .map(|(tc, margin)| (Clock::new(tc), margin)),
    ];
    let mut referee = rules.adjudication.map(Referee::new);
    // Asked once a game, not once a move: whether each side's moves come from the legal list.
    let listed = [
        white.picks_from_legal_moves(),
        black.picks_from_legal_moves(),
    ];
    let start_ply = game.ply();
    loop {
        let plies = game.ply() - start_ply;
        if let ControlFlow::Break(end) = before_move(game, plies, rules.max_plies, stop) {
            return end;
        }
        let side = game.side_to_move();
        let player: &mut dyn Player<G> = if side == Side::First {
            &mut *white
        } else {
            &mut *black
        };
        let forfeit = |termination, detail: String| {
            Some(PlayedGame {
                outcome: Outcome::win(side.other(), termination),
                plies,
                detail: Some(detail),
            })
        };
        if let Some((own, _)) = &clocks[side.index()] {
            let other = clocks[side.other().index()].as_ref().map_or(own, |c| &c.0);
            let (w, b) = if side == Side::First {
                (own, other)
            } else {
                (other, own)
            };
            player.set_clocks(&ClockReading::new(w, b, side == Side::First));
        }
        // Reading the clock costs as much as a random move: only when a clock or a note needs it.
        let timed = clocks[side.index()].is_some() || notes.is_some();
        let asked = timed.then(Instant::now);
        let answer = player.choose(game, &mut rngs[side.index()]);
        let elapsed = asked.map_or(Duration::ZERO, |t| t.elapsed());
        let listed = listed[side.index()];
        // What the player reported is read only when a note or the referee uses it.
        let report = if notes.is_some() || referee.is_some() {
            player.last_report()
        } else {
            None
        };
        let book = notes.is_some() && player.last_move_from_book();
        let lines = if notes.is_some() {
            player.take_search_lines()
        } else {
            Vec::new()
        };
        if let Some((clock, margin)) = &mut clocks[side.index()] {
            let had = clock.remaining();
            let flagged = match (&answer, clock.charge(elapsed, *margin)) {
                (_, ClockVerdict::Flagged { overrun }) => Some(overrun),
                (Err(PlayerError::Timeout { .. }), ClockVerdict::InTime) => {
                    Some(elapsed.saturating_sub(had))
                }
                _ => None,
            };
            if let Some(overrun) = flagged {
                let detail = format!(
                    "used {} ms with {} ms left: {} ms over",
                    elapsed.as_millis(),
                    had.as_millis(),
                    overrun.as_millis()
                );
                // The move that came too late is kept, unplayed on the board, as fastchess
                // keeps it (`Match::playMove` adds its data before judging the clock): the
                // record then ends with the flagging side's own move, and the PGN's detail
                // follows that move rather than the opponent's.
                if let Ok(mv) = answer {
                    if game.is_legal(mv) {
                        moves.push(mv);
                        if let Some(notes) = notes.as_deref_mut() {
                            notes.push(MoveNote {
                                elapsed,
                                book,
                                report,
                                time_left: Some(Duration::ZERO),
                                lines,
                            });
                        }
                        return Some(PlayedGame {
                            outcome: Outcome::win(side.other(), Termination::TimeForfeit),
                            plies: plies + 1,
                            detail: Some(detail),
                        });
                    }
                }
                return forfeit(Termination::TimeForfeit, detail);
            }
        }
        match answer {
            Ok(mv) if (listed && cfg!(not(debug_assertions))) || game.is_legal(mv) => {
                white.observe(game, mv);
                black.observe(game, mv);
                game.play(mv);
                moves.push(mv);
                if let Some(notes) = notes.as_deref_mut() {
                    notes.push(MoveNote {
                        elapsed,
                        book,
                        report,
                        time_left: clocks[side.index()].as_ref().map(|(c, _)| c.remaining()),
                        lines,
                    });
                }
                let probe = rules.tablebases.and_then(|tables| {
                    let chess = (&*game as &dyn Any).downcast_ref::<eloworld_games::Chess>()?;
                    game.outcome().is_none().then_some((tables, chess))
                });
                if let Some((tables, chess)) = probe {
                    if let Some(outcome) = tables.adjudicate(chess.position()) {
                        return Some(PlayedGame {
                            outcome,
                            plies: plies + 1,
                            detail: None,
                        });
                    }
                }
                if let Some(referee) = &mut referee {
                    let full_moves = game.ply() / 2;
                    let judged = referee.after_move(side, report.and_then(|r| r.score), full_moves);
                    if let (Some(outcome), None) = (judged, game.outcome()) {
                        return Some(PlayedGame {
                            outcome,
                            plies: plies + 1,
                            detail: None,
                        });
                    }
                }
            }
            Ok(mv) => return Some(refused(game, side, plies, Refusal::Illegal(mv))),
            Err(e) => return Some(refused(game, side, plies, Refusal::Error(e))),
        }
    }
}

/// The game loop of [`play_game_with`] when nothing but the moves is wanted: no clocks, no
/// notes, no adjudication, no tablebases (Elo World's in-process games, the benchmark).
/// Each ply is the outcome check, the mover's choice and the move, with the same checks and
/// the same results as the full loop; the players' observers are called only if they
/// observe.
fn play_plain<G: Game>(
    game: &mut G,
    white: &mut dyn Player<G>,
    black: &mut dyn Player<G>,
    rngs: &mut [GameRng; 2],
    max_plies: u32,
    stop: &AtomicBool,
    moves: &mut Vec<G::Move>,
) -> Option<PlayedGame> {
    let listed = [
        white.picks_from_legal_moves() && cfg!(not(debug_assertions)),
        black.picks_from_legal_moves() && cfg!(not(debug_assertions)),
    ];
    let observers = (white.observes_moves(), black.observes_moves());
    let start_ply = game.ply();
    if white.is_random_move() && black.is_random_move() {
        // The game draws both sides' moves itself; the loop below then sees its end.
        game.play_random(rngs, moves, |plies| {
            plies < max_plies && !stop.load(Ordering::Relaxed)
        });
    }
    loop {
        let plies = game.ply() - start_ply;
        if let ControlFlow::Break(end) = before_move(game, plies, max_plies, stop) {
            return end;
        }
        let side = game.side_to_move();
        let i = side.index();
        let answer = if side == Side::First {
            white.choose(game, &mut rngs[i])
        } else {
            black.choose(game, &mut rngs[i])
        };
        match answer {
            Ok(mv) if listed[i] || game.is_legal(mv) => {
                if observers.0 {
                    white.observe(game, mv);
                }
                if observers.1 {
                    black.observe(game, mv);
                }
                game.play(mv);
                moves.push(mv);
            }
            Ok(mv) => return Some(refused(game, side, plies, Refusal::Illegal(mv))),
            Err(e) => return Some(refused(game, side, plies, Refusal::Error(e))),
        }
    }
}

/// The checks before each move, after `plies` plies: the game's own end and the length limit
/// end it (`Break(Some)`), a raised stop abandons it (`Break(None)`).
#[inline]
fn before_move<G: Game>(
    game: &G,
    plies: u32,
    max_plies: u32,
    stop: &AtomicBool,
) -> ControlFlow<Option<PlayedGame>> {
    let outcome = match game.outcome() {
        Some(outcome) => outcome,
        None if plies >= max_plies => Outcome::draw(Termination::MaxPlies),
        None if stop.load(Ordering::Relaxed) => return ControlFlow::Break(None),
        None => return ControlFlow::Continue(()),
    };
    ControlFlow::Break(Some(PlayedGame {
        outcome,
        plies,
        detail: None,
    }))
}

/// A mover's answer that is not a legal move.
enum Refusal<M> {
    /// A move that is not legal here.
    Illegal(M),
    /// No move: an error, a timeout or a result claim.
    Error(PlayerError),
}

/// How a game ends when the mover `side` answers with no legal move after `plies` plies.
/// As cutechess-cli: a claim of the claimer's own loss is a resignation, a draw claim the
/// position allows (chess: threefold repetition, fifty moves) ends the game drawn, and any
/// other claim is false: the claimer forfeits, as for an illegal move, a timeout or a crash.
fn refused<G: Game>(game: &G, side: Side, plies: u32, answer: Refusal<G::Move>) -> PlayedGame {
    let forfeit = |termination, detail: String| PlayedGame {
        outcome: Outcome::win(side.other(), termination),
        plies,
        detail: Some(detail),
    };
    match answer {
        Refusal::Illegal(mv) => forfeit(Termination::IllegalMove, format!("{mv:?}")),
        Refusal::Error(PlayerError::IllegalMove { text, .. }) => {
            forfeit(Termination::IllegalMove, text)
        }
        Refusal::Error(PlayerError::Timeout { engine, millis }) => forfeit(
            Termination::EngineTimeout,
            format!("{engine}: no move within {millis} ms"),
        ),
        Refusal::Error(PlayerError::ResultClaim { text, claim, .. }) => {
            let claimable = (game as &dyn Any)
                .downcast_ref::<eloworld_games::Chess>()
                .and_then(eloworld_games::Chess::claimable_draw);
            match (claim, claimable) {
                (Claim::Loss, _) => forfeit(Termination::Resignation, text),
                (Claim::Draw, Some(termination)) => PlayedGame {
                    outcome: Outcome::draw(termination),
                    plies,
                    detail: Some(text),
                },
                _ => forfeit(Termination::InvalidClaim, text),
            }
        }
        Refusal::Error(e) => forfeit(Termination::EngineCrashed, e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::{Chess, DrawRules, GameResult, Squava};
    use eloworld_players::RandomMove;

    /// A player that answers with a fixed outcome: a move that is not legal, or an error.
    struct Faulty(Result<u8, PlayerError>);

    impl Player<Squava> for Faulty {
        fn choose(&mut self, _game: &Squava, _rng: &mut GameRng) -> Result<u8, PlayerError> {
            self.0.clone()
        }
    }

    fn play_squava(white: &mut dyn Player<Squava>, black: &mut dyn Player<Squava>) -> PlayedGame {
        let mut g = Squava::new(());
        let stop = AtomicBool::new(false);
        play_game(&mut g, white, black, 1, 100, &stop, &mut Vec::new()).expect("not stopped")
    }

    /// A random mover that counts the moves it is shown.
    #[derive(Default)]
    struct Watcher {
        seen: u32,
    }

    impl Player<Chess> for Watcher {
        fn choose(
            &mut self,
            game: &Chess,
            rng: &mut GameRng,
        ) -> Result<shakmaty::Move, PlayerError> {
            RandomMove.choose(game, rng)
        }

        fn observe(&mut self, _before: &Chess, _mv: shakmaty::Move) {
            self.seen += 1;
        }
    }

    /// A random mover on a 10 ms clock that takes 40 ms a move: it flags on its first.
    struct Slow;

    impl Player<Chess> for Slow {
        fn choose(
            &mut self,
            game: &Chess,
            rng: &mut GameRng,
        ) -> Result<shakmaty::Move, PlayerError> {
            std::thread::sleep(Duration::from_millis(40));
            RandomMove.choose(game, rng)
        }

        fn time_control(&self) -> Option<(eloworld_players::engine::TimeControl, Duration)> {
            Some(("0.01".parse().expect("a time control"), Duration::ZERO))
        }
    }

    /// A move that comes too late ends the game on time, and is kept with its note (as
    /// fastchess keeps it) so that the forfeit's detail follows the flagging side's move,
    /// not the opponent's last one.
    #[test]
    fn a_late_move_is_kept_as_the_flagging_sides_last() {
        let stop = AtomicBool::new(false);
        let rules = GameRules {
            max_plies: 200,
            adjudication: None,
            tablebases: None,
        };
        let mut g = Chess::new(DrawRules::Automatic);
        let (mut moves, mut notes) = (Vec::new(), Vec::new());
        let (w, b): (&mut dyn Player<Chess>, &mut dyn Player<Chess>) = (&mut RandomMove, &mut Slow);
        let played = play_game_with(&mut g, w, b, 3, &rules, &stop, &mut moves, Some(&mut notes))
            .expect("not stopped");
        assert_eq!(
            played.outcome,
            Outcome::win(Side::First, Termination::TimeForfeit)
        );
        // White's move, then Black's late one: two plies, two notes, the detail last.
        assert_eq!((played.plies, moves.len(), notes.len()), (2, 2, 2));
        assert!(
            notes[1].elapsed >= Duration::from_millis(40),
            "{:?}",
            notes[1]
        );
        let detail = played.detail.expect("a detail");
        assert!(detail.contains("ms left"), "{detail}");
    }

    #[test]
    fn the_plain_loop_plays_the_games_the_full_loop_plays() {
        // Notes force the full loop; without them and with no clock, referee or tables the
        // plain loop runs. Same seed, same moves, same end.
        let stop = AtomicBool::new(false);
        let rules = GameRules {
            max_plies: 2000,
            adjudication: None,
            tablebases: None,
        };
        let play = |seed, moves: &mut Vec<shakmaty::Move>, notes: Option<&mut Vec<MoveNote>>| {
            let mut g = Chess::new(DrawRules::Automatic);
            let (w, b): (&mut dyn Player<Chess>, &mut dyn Player<Chess>) =
                (&mut RandomMove, &mut RandomMove);
            play_game_with(&mut g, w, b, seed, &rules, &stop, moves, notes)
        };
        for seed in 0..20 {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let mut notes = Vec::new();
            let plain = play(seed, &mut a, None);
            let full = play(seed, &mut b, Some(&mut notes));
            assert_eq!(plain, full, "seed {seed}");
            assert_eq!(a, b, "seed {seed}");
            assert_eq!(notes.len(), b.len());
        }
    }

    /// `random_move` in all but name: it does not say it is, so the loop asks it every move.
    struct AskedRandomMove;

    impl<G: Game> Player<G> for AskedRandomMove {
        fn choose(&mut self, game: &G, rng: &mut GameRng) -> Result<G::Move, PlayerError> {
            RandomMove.choose(game, rng)
        }

        fn observes_moves(&self) -> bool {
            false
        }

        fn picks_from_legal_moves(&self) -> bool {
            true
        }
    }

    /// Plays seeds 0..20 under `max_plies` twice, the game drawing both sides' moves and
    /// the players asked for each, and requires the same games to the same final state.
    fn drawn_and_asked_agree<G: Game>(rules: G::Rules, max_plies: u32) -> Vec<PlayedGame> {
        let stop = AtomicBool::new(false);
        let play = |seed, white: &mut dyn Player<G>, black: &mut dyn Player<G>| {
            let mut game = G::new(rules);
            let mut moves = Vec::new();
            let played = play_game(&mut game, white, black, seed, max_plies, &stop, &mut moves)
                .expect("not stopped");
            (
                played,
                moves,
                game.position_text(),
                game.ply(),
                game.legal_moves().len(),
            )
        };
        (0..20)
            .map(|seed| {
                let drawn = play(seed, &mut RandomMove, &mut RandomMove);
                let asked = play(seed, &mut AskedRandomMove, &mut AskedRandomMove);
                assert_eq!(drawn, asked, "{} seed {seed}", G::KIND);
                drawn.0
            })
            .collect()
    }

    #[test]
    fn games_the_game_draws_itself_are_the_games_the_players_would_choose() {
        // Chess by its own loop, to its ends and cut short by the length limit; squava and
        // Go by the trait's loop.
        let ended = drawn_and_asked_agree::<Chess>(DrawRules::Automatic, 2000);
        let ends: std::collections::HashSet<_> =
            ended.iter().map(|p| p.outcome.termination).collect();
        assert!(ends.len() >= 3, "varied ends: {ends:?}");
        assert!(!ends.contains(&Termination::MaxPlies));
        let cut = drawn_and_asked_agree::<Chess>(DrawRules::Automatic, 37);
        assert!(cut
            .iter()
            .all(|p| p.plies == 37 && p.outcome.termination == Termination::MaxPlies));
        drawn_and_asked_agree::<Squava>((), 100);
        drawn_and_asked_agree::<eloworld_games::Go>(eloworld_games::GoRules::default(), 200);
        assert!(Player::<Chess>::is_random_move(&RandomMove));
        assert!(!Player::<Chess>::is_random_move(&AskedRandomMove));
    }

    #[test]
    fn observers_see_every_move_and_the_random_mover_is_not_asked() {
        let stop = AtomicBool::new(false);
        let mut g = Chess::new(DrawRules::Automatic);
        let mut watcher = Watcher::default();
        let mut moves = Vec::new();
        let p = play_game(
            &mut g,
            &mut watcher,
            &mut RandomMove,
            7,
            2000,
            &stop,
            &mut moves,
        )
        .expect("played");
        assert_eq!(watcher.seen, p.plies);
        assert!(p.plies > 0);
        assert!(!Player::<Chess>::observes_moves(&RandomMove));
        assert!(Player::<Chess>::observes_moves(&watcher));
    }

    #[test]
    fn max_plies_adjudicates_a_draw() {
        let mut g = Chess::new(DrawRules::Automatic);
        let stop = AtomicBool::new(false);
        let mut moves = Vec::new();
        let p = play_game(
            &mut g,
            &mut RandomMove,
            &mut RandomMove,
            3,
            10,
            &stop,
            &mut moves,
        )
        .expect("played");
        assert_eq!(p.outcome, Outcome::draw(Termination::MaxPlies));
        assert_eq!((p.plies, moves.len()), (10, 10));
    }

    #[test]
    fn an_illegal_move_loses_and_is_kept() {
        // Square 25 does not exist on a 5×5 board.
        let p = play_squava(&mut RandomMove, &mut Faulty(Ok(25)));
        assert_eq!(
            p.outcome,
            Outcome::win(Side::First, Termination::IllegalMove)
        );
        assert_eq!(p.plies, 1);
        assert_eq!(p.detail.as_deref(), Some("25"));
    }

    #[test]
    fn engine_errors_map_to_their_terminations() {
        let cases = [
            (
                PlayerError::Crashed {
                    engine: "e".into(),
                    detail: "exit 1".into(),
                },
                Termination::EngineCrashed,
            ),
            (
                PlayerError::Timeout {
                    engine: "e".into(),
                    millis: 5,
                },
                Termination::EngineTimeout,
            ),
            (
                PlayerError::IllegalMove {
                    player: "e".into(),
                    text: "zz9".into(),
                },
                Termination::IllegalMove,
            ),
        ];
        for (err, termination) in cases {
            let p = play_squava(&mut Faulty(Err(err)), &mut RandomMove);
            assert_eq!(
                p.outcome,
                Outcome {
                    result: GameResult::Win(Side::Second),
                    termination
                }
            );
            assert_eq!(p.plies, 0);
            assert!(p.detail.is_some());
        }
    }

    #[test]
    fn a_raised_stop_abandons_the_game() {
        let mut g = Chess::new(DrawRules::Automatic);
        let stop = AtomicBool::new(true);
        assert_eq!(
            play_game(
                &mut g,
                &mut RandomMove,
                &mut RandomMove,
                3,
                10,
                &stop,
                &mut Vec::new()
            ),
            None
        );
    }

    #[test]
    fn each_side_draws_from_its_own_stream() {
        // Diluting Black completely changes Black's moves but not White's random choices.
        let stop = AtomicBool::new(false);
        let run = |black: &mut dyn Player<Chess>| {
            let mut g = Chess::new(DrawRules::Automatic);
            let mut moves = Vec::new();
            let _ = play_game(&mut g, &mut RandomMove, black, 42, 2, &stop, &mut moves);
            moves
        };
        let a = run(&mut RandomMove);
        let b = run(&mut eloworld_players::chess::FirstMove::default());
        assert_eq!(
            a[0], b[0],
            "White's first move depends only on White's stream"
        );
    }
}
