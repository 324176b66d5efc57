//! SGF (FF[4]) records of Go games: the game tree format every Go program and board reads.
//! One main line; `RU` names the rule set (Tromp–Taylor), `RE` the result (`B+3.5`, `W+R`,
//! `0` for a tie, `Void` for a game ended by a fault or the move cap before two passes).

use eloworld_games::{Game, GameError, Go, GoMove, GoRules, Outcome, Side, Termination};

/// What an SGF record says besides the moves.
#[derive(Clone, Debug)]
pub struct SgfHeader<'a> {
    /// Black's name (the first player).
    pub black: &'a str,
    /// White's name.
    pub white: &'a str,
    /// The date, `YYYY-MM-DD`.
    pub date: &'a str,
    /// Where the game comes from (the tournament).
    pub event: &'a str,
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Returns the SGF `RE` value of a game that ended with `outcome` on `game`'s board.
#[must_use]
pub fn result_value(game: &Go, outcome: Outcome) -> String {
    match outcome.termination {
        Termination::Resignation | Termination::TwoPasses | Termination::MoveLimit => {
            game.result_text()
        }
        _ => match outcome.result {
            eloworld_games::GameResult::Win(Side::First) => "B+F".to_owned(),
            eloworld_games::GameResult::Win(Side::Second) => "W+F".to_owned(),
            eloworld_games::GameResult::Draw => "Void".to_owned(),
        },
    }
}

/// Writes the SGF of a game from the empty board under `rules`, given its moves in
/// `move_code` form (GTP vertices, `pass`, `resign`), and its outcome.
///
/// # Errors
/// [`GameError`] when a move cannot be replayed.
pub fn game_to_sgf(
    header: &SgfHeader<'_>,
    rules: GoRules,
    moves: &[&str],
    outcome: Option<Outcome>,
) -> Result<String, GameError> {
    let mut game = Go::try_new(rules)?;
    let n = usize::from(rules.size);
    let mut body = String::new();
    for code in moves {
        let mv = game.parse_move(code)?;
        let colour = if game.side_to_move() == Side::First {
            'B'
        } else {
            'W'
        };
        match mv {
            GoMove::Place(p) => {
                let (column, row) = game.coordinates(p);
                body.push_str(&format!(
                    ";{colour}[{}{}]",
                    char::from(b'a' + column as u8),
                    char::from(b'a' + (n - 1 - row) as u8)
                ));
            }
            GoMove::Pass => body.push_str(&format!(";{colour}[]")),
            GoMove::Resign => {}
        }
        game.play(mv);
    }
    let result = match outcome.or(game.outcome()) {
        Some(o) => result_value(&game, o),
        None => "Void".to_owned(),
    };
    Ok(format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[eloworld]SZ[{n}]KM[{}]RU[{}]PB[{}]PW[{}]DT[{}]EV[{}]RE[{result}]\n{body})\n",
        rules.komi,
        GoRules::NAME,
        escape(header.black),
        escape(header.white),
        escape(header.date),
        escape(header.event),
    ))
}
