//! Assembling a report from stored results, once for the static HTML report and the live
//! dashboard: ratings as the report's columns, the US Chess histories of the
//! rating-evolution plot, and a stored game replayed move by move.

use crate::with_game;
use eloworld_games::GameKind;
use eloworld_ratings::uscf::UscfRatings;
use eloworld_ratings::{Method, Ratings};
use eloworld_report::{Diagram, RatingColumn, RatingHistory, RatingValue};
use eloworld_tournament::GameRow;

/// What a method's column shows: the method's source, and what its bar means.
#[must_use]
pub fn column_note(method: Method) -> String {
    let bar = match method {
        Method::Mle => "; bar: 95% interval",
        Method::EloWorld => "; bar: quartiles",
        Method::Markov => "; log scale",
        Method::Uscf | Method::Rollason => "",
    };
    format!("{}{bar}", method.description())
}

/// One player's value from rated games: the rating with its interval where the method gives
/// a finite one.
#[must_use]
pub fn rating_value(r: &Ratings, id: usize) -> Option<RatingValue> {
    let v = r.value(id)?;
    Some(match r.interval(id) {
        Some((low, high)) if low.is_finite() && high.is_finite() => {
            RatingValue::with_interval(v, low, high)
        }
        _ => RatingValue::point(v),
    })
}

/// A method's column: a value per player, `ids` mapping each of the report's players to its
/// id in the rated games (`None`: no game yet).
#[must_use]
pub fn rating_column(method: Method, r: &Ratings, ids: &[Option<usize>]) -> RatingColumn {
    RatingColumn {
        method: method.name().to_owned(),
        note: column_note(method),
        probability: !method.is_elo(),
        values: ids
            .iter()
            .map(|id| id.and_then(|id| rating_value(r, id)))
            .collect(),
    }
}

/// Each player's US Chess rating before its first game and after each game (the
/// rating-evolution plot); `players[i]` has id `ids[i]` in the rated games.
#[must_use]
pub fn uscf_histories(
    players: &[String],
    ids: &[Option<usize>],
    uscf: &UscfRatings,
    initial: f64,
    run: Option<&str>,
) -> Vec<RatingHistory> {
    players
        .iter()
        .zip(ids)
        .filter_map(|(player, id)| {
            let h = uscf.history.get((*id)?)?;
            (!h.is_empty()).then(|| RatingHistory {
                player: player.clone(),
                run: run.map(str::to_owned),
                ratings: std::iter::once(initial)
                    .chain(h.iter().map(|&(_, r)| r))
                    .collect(),
            })
        })
        .collect()
}

/// A stored game replayed: the position after each ply and each move's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Position texts: before the first move, then after each.
    pub positions: Vec<String>,
    /// Each move in human notation (SAN for chess).
    pub moves: Vec<String>,
    /// Why the replay stopped early, if it did.
    pub problem: Option<String>,
}

impl Replay {
    /// The final position's diagram (or where the replay stopped).
    #[must_use]
    pub fn final_diagram(&self) -> Option<Diagram> {
        self.positions
            .last()
            .and_then(|p| Diagram::from_position_text(p).ok())
    }
}

fn replay_as<G: crate::AppGame>(g: &GameRow) -> Replay {
    // Replaying needs no claim: chess under the automatic draw rules.
    let rules = G::rules(eloworld_games::DrawRules::Automatic);
    let mut out = Replay {
        positions: Vec::new(),
        moves: Vec::new(),
        problem: None,
    };
    let mut game = match &g.opening {
        Some(p) => match G::from_position(p, rules) {
            Ok(game) => game,
            Err(e) => {
                out.problem = Some(format!("opening position: {e}"));
                return out;
            }
        },
        None => G::new(rules),
    };
    out.positions.push(game.position_text());
    for (i, code) in g.moves.split_whitespace().enumerate() {
        match game.parse_move(code) {
            Ok(mv) => {
                out.moves.push(game.move_text(mv));
                game.play(mv);
                out.positions.push(game.position_text());
            }
            Err(e) => {
                out.problem = Some(format!("move {} {code:?}: {e}", i + 1));
                break;
            }
        }
    }
    out
}

/// Replays a stored game from its opening through its stored moves.
#[must_use]
pub fn replay(g: &GameRow) -> Replay {
    match g.game.parse::<GameKind>() {
        Ok(kind) => with_game!(kind, G => replay_as::<G>(g)),
        Err(e) => Replay {
            positions: Vec::new(),
            moves: g.moves.split_whitespace().map(str::to_owned).collect(),
            problem: Some(e.to_string()),
        },
    }
}

/// The game's PGN (chess; `site` is its Site tag, the store as `eloworld export` writes it),
/// or its moves with its headers as comments (other games).
#[must_use]
pub fn game_text(g: &GameRow, site: &str) -> String {
    if g.game == GameKind::Chess.name() {
        if let Ok(pgn) = eloworld_tournament::pgn::game_to_pgn(g, site) {
            return pgn;
        }
    }
    format!(
        "# {} – {} ({}, {}, round {})\n{}\n{}\n",
        g.white,
        g.black,
        g.tournament,
        g.game,
        g.round + 1,
        g.moves,
        g.result.pgn()
    )
}
