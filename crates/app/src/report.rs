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

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::{GameResult, Side, Termination};
    use eloworld_ratings::{rate, Games, Options, Score};

    fn row(game: &str, moves: &str) -> GameRow {
        GameRow {
            job_id: 1,
            tournament: "t".to_owned(),
            game: game.to_owned(),
            white: "a".to_owned(),
            black: "b".to_owned(),
            round: 0,
            result: GameResult::Win(Side::Second),
            termination: Termination::Checkmate,
            plies: 4,
            moves: moves.to_owned(),
            opening: None,
            seed: 1,
            wall_ms: 0.0,
            detail: None,
            date: "2026.01.01".to_owned(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn a_stored_game_replays_to_its_final_position_and_stops_at_a_bad_move() {
        let r = replay(&row("chess", "f2f3 e7e5 g2g4 d8h4"));
        assert_eq!(r.moves, ["f3", "e5", "g4", "Qh4#"]);
        assert!(r.problem.is_none());
        assert!(r.final_diagram().is_some());
        let bad = replay(&row("chess", "f2f3 e2e1"));
        assert_eq!(bad.positions.len(), 2, "the start and the one good move");
        assert!(bad.problem.is_some_and(|p| p.contains("move 2")));
        let unknown = replay(&row("tic-tac-toe", "a1"));
        assert_eq!(unknown.moves, ["a1"]);
        assert!(unknown.problem.is_some());
        assert!(game_text(&row("squava", "a1 b2"), "x").starts_with("# a – b (t, squava"));
        assert!(game_text(&row("chess", "f2f3 e7e5 g2g4 d8h4"), "x").contains("[Site \"x\"]"));
    }

    #[test]
    fn columns_follow_the_report_players_and_histories_start_at_the_initial_rating() {
        let mut games = Games::case_sensitive();
        for (w, b, s) in [
            ("a", "b", Score::Win),
            ("b", "a", Score::Draw),
            ("a", "b", Score::Loss),
        ] {
            games.add(w, b, s, true, None);
        }
        let r = rate(&games, &Options::new(Method::Mle)).expect("rates");
        // The report shows c (no game yet), then b, then a.
        let ids = [
            None,
            games.find("b").map(|p| p.index()),
            games.find("a").map(|p| p.index()),
        ];
        let col = rating_column(Method::Mle, &r, &ids);
        assert_eq!(col.values.len(), 3);
        assert!(col.values[0].is_none());
        let (b, a) = (col.values[1].expect("b"), col.values[2].expect("a"));
        assert!(
            (a.value - b.value).abs() < 1e-6,
            "one win each and a draw: {a:?} {b:?}"
        );
        assert!(col.note.contains("95% interval") && !col.probability);
        assert!(rating_column(Method::Markov, &r, &ids).probability);
        let u = rate(&games, &Options::new(Method::Uscf)).expect("rates");
        let eloworld_ratings::Detail::Uscf(uscf) = &u.detail else {
            panic!("uscf detail")
        };
        let players = ["c".to_owned(), "b".to_owned(), "a".to_owned()];
        let h = uscf_histories(&players, &ids, uscf, 1300.0, Some("run"));
        assert_eq!(h.len(), 2, "c has no history");
        assert_eq!(h[0].player, "b");
        assert_eq!(h[0].ratings.len(), 4, "the start and three games");
        assert_eq!(h[0].ratings[0], 1300.0);
        assert_eq!(h[0].run.as_deref(), Some("run"));
    }
}
