//! A person at a terminal: the `human` player of `eloworld play` (chess and squava).
//!
//! The library never prints on its own: the player writes its board, prompts and messages
//! to the writer it was given and reads moves from the reader it was given. The command
//! line hands it standard input and output; tests hand it in-memory buffers.

use crate::{Player, PlayerError};
use eloworld_games::{Game, GameRng, Side};
use std::io::{BufRead, Write};
use std::marker::PhantomData;

/// The spec name the command line resolves to a [`Human`].
pub const HUMAN: &str = "human";

/// Reads moves from a person: shows the board, asks for a move in the game's notation
/// (`c3` in squava; SAN such as `Nf3` or UCI such as `g1f3` in chess), and asks again with
/// a message when the entry is malformed or illegal. `?` lists the legal moves.
pub struct Human<G: Game> {
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
    /// The side this player moves, learnt at its first move.
    side: Option<Side>,
    game: PhantomData<fn() -> G>,
}

impl<G: Game> Human<G> {
    /// Creates a player that reads moves from `input` and writes to `output`.
    #[must_use]
    pub fn new(input: Box<dyn BufRead + Send>, output: Box<dyn Write + Send>) -> Human<G> {
        Human {
            input,
            output,
            side: None,
            game: PhantomData,
        }
    }

    fn io_error(e: &std::io::Error) -> PlayerError {
        PlayerError::Crashed {
            engine: HUMAN.to_owned(),
            detail: format!("terminal: {e}"),
        }
    }
}

/// The name of a side in the game's own words (White/Black, x/o).
fn side_name<G: Game>(side: Side) -> &'static str {
    match (G::KIND, side) {
        (eloworld_games::GameKind::Chess, Side::First) => "White",
        (eloworld_games::GameKind::Chess, Side::Second) => "Black",
        (_, Side::First) => "x",
        (_, Side::Second) => "o",
    }
}

impl<G: Game> Player<G> for Human<G> {
    fn choose(&mut self, game: &G, _rng: &mut GameRng) -> Result<G::Move, PlayerError> {
        if game.legal_moves().is_empty() {
            return Err(PlayerError::NoMove);
        }
        let side = game.side_to_move();
        self.side = Some(side);
        let out = &mut self.output;
        write!(out, "\n{}", game.board_text()).map_err(|e| Self::io_error(&e))?;
        let mut line = String::new();
        loop {
            write!(
                out,
                "your move as {} (? lists the legal moves): ",
                side_name::<G>(side)
            )
            .and_then(|()| out.flush())
            .map_err(|e| Self::io_error(&e))?;
            line.clear();
            let read = self
                .input
                .read_line(&mut line)
                .map_err(|e| Self::io_error(&e))?;
            if read == 0 {
                writeln!(out).map_err(|e| Self::io_error(&e))?;
                return Err(PlayerError::Crashed {
                    engine: HUMAN.to_owned(),
                    detail: "the input ended before a move was given".to_owned(),
                });
            }
            let text = line.trim();
            let reply = match text {
                "" => continue,
                "?" | "help" => {
                    let moves: Vec<String> = game
                        .legal_moves()
                        .iter()
                        .map(|&m| game.move_text(m))
                        .collect();
                    format!("legal moves: {}", moves.join(" "))
                }
                _ => match game.parse_move(text) {
                    Ok(mv) => return Ok(mv),
                    Err(e) => format!("{e}; try again"),
                },
            };
            writeln!(out, "{reply}").map_err(|e| Self::io_error(&e))?;
        }
    }

    fn observe(&mut self, before: &G, mv: G::Move) {
        let mover = before.side_to_move();
        if self.side != Some(mover) {
            // A failed write only loses a courtesy line; the next prompt reports the error.
            let _ = writeln!(
                self.output,
                "{} plays {}",
                side_name::<G>(mover),
                before.move_text(mv)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::{Chess, Squava};
    use std::io::Cursor;
    use std::sync::{Arc, Mutex};

    /// A writer whose text the test can read afterwards.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("lock").extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().expect("lock")).into_owned()
        }
    }

    fn human<G: Game>(input: &str) -> (Human<G>, Shared) {
        let out = Shared::default();
        (
            Human::new(
                Box::new(Cursor::new(input.to_owned())),
                Box::new(out.clone()),
            ),
            out,
        )
    }

    #[test]
    fn squava_rejects_bad_entries_and_asks_again() {
        let mut g = Squava::new(());
        g.play(12); // x on c3
        let (mut h, out) = human::<Squava>("c3\nz9\n\n?\nb2\n");
        let mv = h.choose(&g, &mut GameRng::new(0)).expect("move");
        assert_eq!(mv, 6, "b2 is square 6");
        let text = out.text();
        assert!(text.contains("3  . . x . ."), "the board is drawn: {text}");
        assert!(text.contains("illegal"), "c3 is taken: {text}");
        assert!(
            text.contains("expected a square"),
            "z9 is malformed: {text}"
        );
        assert!(text.contains("legal moves: a1 b1"), "? lists moves: {text}");
        assert_eq!(
            text.matches("your move").count(),
            5,
            "asked again after each entry but the move: {text}"
        );
    }

    #[test]
    fn chess_takes_san_and_uci_and_announces_the_opponent() {
        let g = Chess::new(Default::default());
        let (mut h, out) = human::<Chess>("e5\nNf3\n");
        let mv = h.choose(&g, &mut GameRng::new(0)).expect("move");
        assert_eq!(g.move_text(mv), "Nf3");
        let mut after = g.clone();
        h.observe(&g, mv);
        after.play(mv);
        let reply = after.parse_move("e7e5").expect("uci");
        h.observe(&after, reply);
        let text = out.text();
        assert!(text.contains("your move as White"), "{text}");
        assert!(
            text.contains("try again"),
            "e5 is illegal for White: {text}"
        );
        assert!(text.contains("Black plays e5"), "{text}");
        assert!(
            !text.contains("White plays"),
            "its own move is not echoed: {text}"
        );
        let (mut h, _) = human::<Chess>("g1f3\n");
        assert_eq!(
            g.move_text(h.choose(&g, &mut GameRng::new(0)).expect("uci")),
            "Nf3"
        );
    }

    #[test]
    fn the_end_of_input_is_an_error_not_a_loop() {
        let (mut h, _) = human::<Squava>("z9\n");
        let e = h
            .choose(&Squava::new(()), &mut GameRng::new(0))
            .expect_err("no move");
        assert!(e.to_string().contains("input ended"), "{e}");
    }
}
