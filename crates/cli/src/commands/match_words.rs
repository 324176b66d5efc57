//! The words fastchess writes, which the tools that drive it (OpenBench's client,
//! fishtest's worker) read: the `Elo:` line of a match's report and the reason on each
//! `Finished game` line.

use eloworld_match::EloFigure;

/// The `Elo:` line of a match's report: fastchess's `Elo: 12.34 +/- 5.67[, nElo: … +/- …]`,
/// or what the games bound (the figure's own words, which the dashboard shows too).
pub(crate) fn elo_line(figure: &EloFigure) -> String {
    format!("Elo: {figure}")
}
use eloworld_games::{GameResult, Termination};

/// Why a game ended, in fastchess's words on its `Finished game N (A vs B): RESULT {reason}`
/// line ("White mates", "Draw by 3-fold repetition", "Black loses on time", "White
/// disconnects", "Black's connection stalls", "White makes an illegal move", "White wins by
/// adjudication", "Draw by adjudication: SyzygyTB"), the words by which the tools that drive
/// fastchess (OpenBench's client, fishtest's worker) count crashes, stalls, time losses and
/// illegal moves.
#[must_use]
pub(crate) fn reason(result: GameResult, termination: Termination) -> String {
    use eloworld_games::Side;
    let colour = |side: Side| match side {
        Side::First => "White",
        Side::Second => "Black",
    };
    let (winner, loser) = match result {
        GameResult::Win(s) => (colour(s), colour(s.other())),
        GameResult::Draw => ("", ""),
    };
    match termination {
        Termination::Checkmate => format!("{winner} mates"),
        Termination::Stalemate => "Draw by stalemate".to_owned(),
        Termination::ThreefoldRepetition => "Draw by 3-fold repetition".to_owned(),
        Termination::FivefoldRepetition => "Draw by 5-fold repetition".to_owned(),
        Termination::FiftyMoveRule => "Draw by fifty moves rule".to_owned(),
        Termination::SeventyFiveMoveRule => "Draw by 75 moves rule".to_owned(),
        Termination::InsufficientMaterial => "Draw by insufficient mating material".to_owned(),
        Termination::FourInARow => format!("{winner} makes four in a row"),
        Termination::ThreeInARow => format!("{loser} makes three in a row"),
        Termination::BoardFull => "Draw by full board".to_owned(),
        Termination::TwoPasses | Termination::MoveLimit => match result {
            GameResult::Draw => "Draw by area count".to_owned(),
            GameResult::Win(_) => format!("{winner} wins on area count"),
        },
        Termination::Resignation => format!("{loser} resigns"),
        Termination::MaxPlies | Termination::DrawAdjudication => "Draw by adjudication".to_owned(),
        Termination::EngineCrashed => format!("{loser} disconnects"),
        Termination::EngineTimeout => format!("{loser}'s connection stalls"),
        Termination::IllegalMove => format!("{loser} makes an illegal move"),
        Termination::TimeForfeit => format!("{loser} loses on time"),
        Termination::ResignAdjudication => format!("{winner} wins by adjudication"),
        Termination::InvalidClaim => format!("{loser} forfeits by invalid result claim"),
        Termination::TablebaseAdjudication => match result {
            GameResult::Draw => "Draw by adjudication: SyzygyTB".to_owned(),
            GameResult::Win(_) => format!("{winner} wins by adjudication: SyzygyTB"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::Side;

    #[test]
    fn elo_lines_read_as_fastchess_writes_them() {
        use eloworld_match::ScoreUnit;
        let pairs = EloFigure::PlusMinus {
            elo: 12.3456,
            error: 5.678,
            normalized: Some((20.0, 9.5)),
        };
        assert_eq!(
            elo_line(&pairs),
            "Elo: 12.35 +/- 5.68, nElo: 20.00 +/- 9.50"
        );
        let won = EloFigure::AllWon {
            unit: ScoreUnit::Pair,
            low: 100.0,
        };
        assert_eq!(
            elo_line(&won),
            "Elo: unbounded above (every pair won), one-sided 95% lower bound +100.00"
        );
        let interval = EloFigure::Interval {
            elo: 3.0,
            low: -1.0,
            high: f64::INFINITY,
        };
        assert_eq!(
            elo_line(&interval),
            "Elo: 3.00 (95% interval -1.00 .. unbounded)"
        );
    }

    #[test]
    fn reasons_read_as_fastchess_writes_them() {
        let white = GameResult::Win(Side::First);
        let black = GameResult::Win(Side::Second);
        assert_eq!(reason(white, Termination::Checkmate), "White mates");
        assert_eq!(reason(black, Termination::Checkmate), "Black mates");
        assert_eq!(
            reason(GameResult::Draw, Termination::ThreefoldRepetition),
            "Draw by 3-fold repetition"
        );
        assert_eq!(
            reason(white, Termination::TimeForfeit),
            "Black loses on time"
        );
        assert_eq!(
            reason(black, Termination::EngineCrashed),
            "White disconnects"
        );
        assert_eq!(
            reason(white, Termination::EngineTimeout),
            "Black's connection stalls"
        );
        assert_eq!(
            reason(black, Termination::IllegalMove),
            "White makes an illegal move"
        );
        assert_eq!(
            reason(white, Termination::ResignAdjudication),
            "White wins by adjudication"
        );
        assert_eq!(
            reason(GameResult::Draw, Termination::TablebaseAdjudication),
            "Draw by adjudication: SyzygyTB"
        );
    }
}
