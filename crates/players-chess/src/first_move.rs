use super::scoring::from_to;
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{
    Flags, Player, PlayerError, PlayerFactory, PlayerInfo, PlayerSpec, Registry, SimpleFactory,
};
use shakmaty::{Color, Move, Position, Role, Square};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// Which reading of a rule of Murphy's Elo World (SIGBOVIK 2019) a player follows: the
/// original program's (tom7misc's `chess/` directory), which is what the paper's table
/// measured, or the paper's text taken literally.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reading {
    /// As the original program plays (the default: what the table measured).
    #[default]
    Program,
    /// As the paper's text reads.
    Text,
}

impl Reading {
    /// The spec parameter that selects the reading (`first_move:reading=text`).
    pub const PARAM: &'static str = "reading";
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reading::Program => "program",
            Reading::Text => "text",
        })
    }
}

impl FromStr for Reading {
    type Err = String;

    fn from_str(s: &str) -> Result<Reading, String> {
        match s {
            "program" => Ok(Reading::Program),
            "text" => Ok(Reading::Text),
            other => Err(format!("{other:?} is neither program nor text")),
        }
    }
}

/// Adds a player whose rule has two readings, built by `make` for the reading a spec asks
/// for (`reading=program|text`, default `program`).
pub(crate) fn add_with_reading(
    r: &mut Registry<Chess>,
    name: &'static str,
    description: &str,
    flags: Flags,
    make: fn(Reading) -> Box<dyn Player<Chess>>,
) {
    let info = PlayerInfo::new(name, description, flags).param(
        Reading::PARAM,
        Reading::Program,
        "program: as the original program plays (what the paper's table measured); text: as the paper's text reads",
    );
    r.add(
        info,
        Box::new(move |spec: &PlayerSpec| {
            spec.params.check_keys(name, &[Reading::PARAM])?;
            let reading: Reading = spec
                .params
                .parse_or(name, Reading::PARAM, Reading::Program)?;
            Ok(Arc::new(SimpleFactory(move || make(reading))) as Arc<dyn PlayerFactory<Chess>>)
        }),
    );
}

/// Makes the lexicographically first legal move (Murphy's Elo World, `first_move`).
///
/// Moves are ordered by ⟨src_row, src_col, dst_row, dst_col, promote_to⟩. The paper's text
/// numbers rows from rank 1 for White and reverses them for Black ([`Reading::Text`]: 1. Na3);
/// the original program numbers rows from rank 8 for White (and from rank 1 for Black), so
/// each side's most advanced piece moves first ([`Reading::Program`], the default: 1. a4 a5).
/// Columns count from the a-file for both. Castling goes from the king's square to the
/// king's destination (`e1g1`); no promotion sorts before N < B < R < Q.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstMove {
    /// How rows are numbered.
    pub reading: Reading,
}

/// Returns the sort key of a move for `first_move` from `color`'s point of view.
#[must_use]
pub fn first_move_key(m: Move, color: Color, reading: Reading) -> (u32, u32, u32, u32, u8) {
    let (from, to) = from_to(m);
    // Row 0 is the mover's own back rank in the text's reading, the opponent's in the
    // program's.
    let from_own_side = matches!(
        (color, reading),
        (Color::White, Reading::Text) | (Color::Black, Reading::Program)
    );
    let row = |sq: Square| {
        if from_own_side {
            u32::from(sq.rank())
        } else {
            7 - u32::from(sq.rank())
        }
    };
    let promo = match m.promotion() {
        None => 0,
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(_) => 4,
    };
    (
        row(from),
        u32::from(from.file()),
        row(to),
        u32::from(to.file()),
        promo,
    )
}

impl Player<Chess> for FirstMove {
    fn choose(&mut self, game: &Chess, _rng: &mut GameRng) -> Result<Move, PlayerError> {
        let color = game.position().turn();
        game.legal_moves()
            .iter()
            .copied()
            .min_by_key(|&m| first_move_key(m, color, self.reading))
            .ok_or(PlayerError::NoMove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::DrawRules;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn choose_as(reading: Reading, fen: &str) -> String {
        let g = Chess::from_position(fen, DrawRules::Automatic).expect("fen");
        let m = FirstMove { reading }
            .choose(&g, &mut GameRng::new(0))
            .expect("move");
        g.move_code(m)
    }

    fn choose(fen: &str) -> String {
        choose_as(Reading::Program, fen)
    }

    #[test]
    fn the_program_opens_with_the_most_advanced_piece() {
        // Rows from rank 8: the a2 pawn (row 6) comes before the b1 knight (row 7), and of
        // its two moves a4 (row 4) comes before a3 (row 5). Black mirrors it: 1... a5.
        assert_eq!(choose(START), "a2a4");
        assert_eq!(choose(&START.replace(" w ", " b ")), "a7a5");
    }

    #[test]
    fn the_program_plays_1_a4_a5_2_b4() {
        let mut g = Chess::from_position(START, DrawRules::Automatic).expect("fen");
        let mut p = FirstMove::default();
        let mut codes = Vec::new();
        for _ in 0..4 {
            let m = p.choose(&g, &mut GameRng::new(0)).expect("move");
            codes.push(g.move_code(m));
            g.play(m);
        }
        // After 1. a4 a5 the a-pawns are blocked; b4 is the next most advanced move, and
        // 2... b5 likewise; 3. axb5 would follow (a4 is now the most advanced white piece).
        assert_eq!(codes, ["a2a4", "a7a5", "b2b4", "a5b4"]);
    }

    #[test]
    fn the_text_opens_with_the_a1_corner_knight_hop() {
        // Rows from rank 1 for White: the first source square with a move is b1 (the a1
        // rook is blocked); b1 to a3 (row 2, col 0) sorts before b1 to c3.
        assert_eq!(choose_as(Reading::Text, START), "b1a3");
        assert_eq!(
            choose_as(Reading::Text, &START.replace(" w ", " b ")),
            "b8a6"
        );
    }

    #[test]
    fn promotion_to_knight_comes_first() {
        // Text: the a7 pawn (row 6) sorts before the king on h8 (row 7). Program: the a7
        // pawn is on row 1, the king on h8 on row 0, so the king moves first.
        assert_eq!(
            choose_as(Reading::Text, "7K/P7/8/8/8/8/8/k7 w - - 0 1"),
            "a7a8n"
        );
        assert_eq!(choose("7K/P7/8/8/8/8/8/k7 w - - 0 1"), "h8g8");
        assert_eq!(choose("8/P6K/8/8/8/8/8/k7 w - - 0 1"), "a7a8n");
    }

    #[test]
    fn readings_parse_and_print() {
        assert_eq!("program".parse::<Reading>(), Ok(Reading::Program));
        assert_eq!("text".parse::<Reading>(), Ok(Reading::Text));
        assert!("literal".parse::<Reading>().is_err());
        assert_eq!(Reading::Text.to_string(), "text");
    }
}
