//! Assembling a report from stored results, once for the static HTML report and the live
//! dashboard: ratings as the report's columns, the US Chess histories of the
//! rating-evolution plot, and a stored game replayed move by move.

use crate::error::{AppError, AppResult, Context};
use crate::with_game;
use eloworld_games::GameKind;
use eloworld_ratings::uscf::{UscfConfig, UscfRatings};
use eloworld_ratings::{rate, Detail, Games, Method, Options, Ratings};
use eloworld_report::{
    ConsistencyRow, Diagram, HtmlReport, ImageFormat, OutcomeTable, RatingColumn, RatingHistory,
    RatingValue, SampleGame,
};
use eloworld_tournament::{open_store, Copies, CopyRule, GameRow, ResultRow, TournamentRow};
use std::collections::BTreeMap;

/// What a method's column shows: the method's source, and what its bar means.
#[must_use]
pub fn column_note(method: Method) -> String {
    let bar = match method {
        Method::Mle | Method::Glicko2 | Method::TrueSkill | Method::Whr | Method::BayesElo => {
            "; bar: 95% interval"
        }
        Method::EloWorld => "; bar: quartiles",
        Method::Markov | Method::AlphaRank => "; log scale",
        Method::Uscf | Method::Rollason | Method::Nash => "",
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
    let mut out = Replay {
        positions: Vec::new(),
        moves: Vec::new(),
        problem: None,
    };
    // Replaying needs no claim: chess under the automatic draw rules; Go on its
    // tournament's board with its komi.
    let rules = match G::rules_with(
        eloworld_games::DrawRules::Automatic,
        g.setup.size,
        g.setup.komi,
    ) {
        Ok(rules) => rules,
        Err(e) => {
            out.problem = Some(format!("the tournament's rules: {e}"));
            return out;
        }
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
    with_game!(g.game, G => replay_as::<G>(g))
}

/// The game's PGN (chess; `site` is its Site tag, the store as `eloworld export` writes it),
/// its SGF (Go, as `eloworld export --sgf` writes it), or its moves with its headers as
/// comments (squava, or a game whose moves do not replay).
#[must_use]
pub fn game_text(g: &GameRow, site: &str) -> String {
    match g.game {
        GameKind::Chess => {
            if let Ok(pgn) = eloworld_tournament::pgn::game_to_pgn(g, site) {
                return pgn;
            }
        }
        GameKind::Go => {
            if let Ok(sgf) = go_sgf(g) {
                return sgf;
            }
        }
        GameKind::Squava => {}
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

/// Writes a stored Go game as SGF on its tournament's board and komi (Black is the stored
/// game's first player, in the `white` field).
///
/// # Errors
/// The tournament's size or komi is out of range, or a move does not replay.
pub fn go_sgf(g: &GameRow) -> AppResult<String> {
    use eloworld_tournament::sgf::{game_to_sgf, SgfHeader};
    let rules = <eloworld_games::Go as crate::AppGame>::rules_with(
        eloworld_games::DrawRules::Automatic,
        g.setup.size,
        g.setup.komi,
    )?;
    let moves: Vec<&str> = g.moves.split_whitespace().collect();
    let date = g.date.replace('.', "-");
    let header = SgfHeader {
        black: &g.white,
        white: &g.black,
        date: &date,
        event: &g.tournament,
    };
    let outcome = eloworld_games::Outcome {
        result: g.result,
        termination: g.termination,
    };
    Ok(game_to_sgf(&header, rules, &moves, Some(outcome))?)
}

/// How many pairs a note on copies names (the pairs with the most copies).
pub const COPY_PAIRS_SHOWN: usize = 5;

/// Stored results of the selected tournaments.
pub struct StoredResults {
    /// The tournaments.
    pub tournaments: Vec<TournamentRow>,
    /// Their results, in the order they were stored.
    pub rows: Vec<ResultRow>,
    /// W/D/L per ordered pair, in the order of the tournaments' players (those who played):
    /// every stored game, copies included (the ratings count a copy once).
    pub table: OutcomeTable,
    /// The copies among the rows.
    pub copies: Copies,
}

/// Reads the results of the tournaments of `db` (one, or all combined).
///
/// # Errors
/// The store cannot be opened, has no such tournament, or no games.
pub fn load_results(db: &str, tournament: Option<&str>) -> AppResult<StoredResults> {
    let store = open_store(db, false).with_context(|| format!("opening {db}"))?;
    let tournaments: Vec<TournamentRow> = store
        .tournaments()?
        .into_iter()
        .filter(|t| tournament.is_none_or(|n| n == t.name))
        .collect();
    if tournaments.is_empty() {
        match tournament {
            Some(n) => crate::invalid!("{db} has no tournament named {n:?}"),
            None => crate::invalid!("{db} has no tournaments"),
        }
    }
    let rows = store
        .results(tournament)
        .with_context(|| format!("reading results from {db}"))?;
    if rows.is_empty() {
        crate::invalid!(
            "{db} has no stored games{}",
            tournament
                .map(|t| format!(" in tournament {t:?}"))
                .unwrap_or_default()
        );
    }
    let order: Vec<String> = tournaments
        .iter()
        .flat_map(|t| t.players.iter().cloned())
        .collect();
    let table = OutcomeTable::from_games(
        &order,
        rows.iter()
            .map(|r| (r.white.as_str(), r.black.as_str(), r.result.first_score())),
    );
    // Players of the plan who have not played yet have nothing to show.
    let played: Vec<usize> = (0..table.len())
        .filter(|&i| table.totals(i).games() > 0)
        .collect();
    let table = if played.len() == table.len() {
        table
    } else {
        keep_players(&table, &played)?
    };
    Ok(StoredResults {
        copies: Copies::of(&rows),
        tournaments,
        rows,
        table,
    })
}

/// Returns the table restricted to some players.
fn keep_players(table: &OutcomeTable, keep: &[usize]) -> AppResult<OutcomeTable> {
    let names: Vec<String> = keep.iter().map(|&i| table.players()[i].clone()).collect();
    let mut out = OutcomeTable::new(&names);
    for (a, &i) in keep.iter().enumerate() {
        for (b, &j) in keep.iter().enumerate() {
            out.add_counts(a, b, table.cell(i, j))?;
        }
    }
    Ok(out)
}

/// Returns the games as the ratings crate takes them: players in the table's order (so ids
/// are table indices), games in finish order, dated by the year they finished, a copy of an
/// earlier game counted once.
#[must_use]
pub fn game_list(table: &OutcomeTable, rows: &[ResultRow]) -> Games {
    let mut list = Games::case_sensitive();
    for p in table.players() {
        list.player(p);
    }
    eloworld_tournament::add_results(&mut list, rows);
    list
}

impl StoredResults {
    /// The games as the ratings crate takes them (ids are the table's indices).
    #[must_use]
    pub fn games(&self) -> Games {
        game_list(&self.table, &self.rows)
    }

    /// Each player's US Chess history over these results (`run` names the run in a plot
    /// of several).
    #[must_use]
    pub fn histories(&self, run: Option<&str>) -> Vec<RatingHistory> {
        histories(&self.table, &self.rows, run)
    }
}

/// Returns each player's uscf history in `rows`: the initial rating, then one after each game.
#[must_use]
pub fn histories(
    table: &OutcomeTable,
    rows: &[ResultRow],
    run: Option<&str>,
) -> Vec<RatingHistory> {
    let Ok(Detail::Uscf(rated)) =
        rate(&game_list(table, rows), &Options::new(Method::Uscf)).map(|r| r.detail)
    else {
        return Vec::new();
    };
    let ids: Vec<Option<usize>> = (0..table.len()).map(Some).collect();
    uscf_histories(
        table.players(),
        &ids,
        &rated,
        UscfConfig::new().initial_rating,
        run,
    )
}

/// Rates by every method; a method that cannot rate these results is left out with a note.
#[must_use]
pub fn rating_columns(list: &Games, notes: &mut Vec<String>) -> Vec<RatingColumn> {
    let ids: Vec<Option<usize>> = (0..list.player_count()).map(Some).collect();
    let mut columns = Vec::new();
    for method in Method::CLASSIC {
        match rate(list, &Options::new(method)) {
            Ok(r) => columns.push(rating_column(method, &r, &ids)),
            Err(e) => notes.push(format!("{}: not shown ({e})", method.name())),
        }
    }
    columns
}

/// Picks up to `per_pair` games of each unordered pair, at most `max` in all, spread over the pairs.
fn sample_games(games: &[GameRow], per_pair: usize, max: usize, db: &str) -> Vec<SampleGame> {
    let mut by_pair: BTreeMap<(&str, &str), Vec<&GameRow>> = BTreeMap::new();
    for g in games {
        let key = if g.white <= g.black {
            (g.white.as_str(), g.black.as_str())
        } else {
            (g.black.as_str(), g.white.as_str())
        };
        let list = by_pair.entry(key).or_default();
        if list.len() < per_pair {
            list.push(g);
        }
    }
    let mut picked: Vec<&GameRow> = Vec::new();
    for round in 0..per_pair {
        for list in by_pair.values() {
            if picked.len() < max {
                if let Some(g) = list.get(round) {
                    picked.push(g);
                }
            }
        }
    }
    picked.sort_by_key(|g| (g.white.clone(), g.black.clone(), g.job_id));
    picked
        .into_iter()
        .map(|g| {
            let text = game_text(g, db);
            let diagram = replay(g).final_diagram();
            SampleGame {
                white: g.white.clone(),
                black: g.black.clone(),
                result: g.result.pgn().to_owned(),
                termination: g.termination.code().to_owned(),
                plies: g.plies,
                text,
                diagram,
            }
        })
        .collect()
}

/// What the HTML report shows and where it reads from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HtmlSettings {
    /// The store.
    pub db: String,
    /// Only this tournament (default: every tournament in the store, results combined).
    pub tournament: Option<String>,
    /// Sample games shown per pair of players.
    pub samples_per_pair: usize,
    /// Most sample games in the page.
    pub max_samples: usize,
    /// How pictures are inlined.
    pub pictures: ImageFormat,
}

/// Assembles the HTML report of stored results: settings, every method's ratings, the
/// crosstable, the rating histories, the consistency table and sample games; with the
/// copies the results hold (the ratings count each once, and the report says so).
///
/// # Errors
/// The store cannot be read or holds no games.
pub fn assemble_html(s: &HtmlSettings) -> AppResult<(HtmlReport, Copies)> {
    let db = &s.db;
    let tournament = s.tournament.as_deref();
    let results = load_results(db, tournament)?;
    // Sample games (the slowest read: every stored move) are read while the ratings run.
    let (samples, (ratings, histories, consistency, notes)) = std::thread::scope(|scope| {
        let reader = scope.spawn(|| -> AppResult<Vec<SampleGame>> {
            if s.samples_per_pair == 0 || s.max_samples == 0 {
                return Ok(Vec::new());
            }
            let games = open_store(db, false)?.games(tournament)?;
            Ok(sample_games(&games, s.samples_per_pair, s.max_samples, db))
        });
        let table = &results.table;
        let list = results.games();
        let mut notes: Vec<String> = results
            .copies
            .note(CopyRule::CountOnce, COPY_PAIRS_SHOWN)
            .into_iter()
            .collect();
        let ratings = rating_columns(&list, &mut notes);
        let uscf = rate(&list, &Options::new(Method::Uscf))
            .map(|r| r.values)
            .unwrap_or_else(|_| vec![f64::NAN; list.player_count()]);
        let consistency: Vec<ConsistencyRow> =
            eloworld_ratings::consistency::consistency(&list.counts(), &uscf)
                .pairs
                .iter()
                .map(|p| ConsistencyRow {
                    first: table.players()[p.p].clone(),
                    second: table.players()[p.q].clone(),
                    games: p.games,
                    observed: p.score / p.games.max(1) as f64,
                    predicted: p.expected_score,
                })
                .collect();
        let histories = results.histories(None);
        let samples = reader.join().unwrap_or_else(|_| {
            Err(AppError::Invalid(
                "reading sample games panicked".to_owned(),
            ))
        });
        (samples, (ratings, histories, consistency, notes))
    });
    let samples = samples.context("reading sample games")?;
    let mut settings = vec![("database".to_owned(), db.clone())];
    for t in &results.tournaments {
        settings.push((
            format!("tournament {}", t.name),
            format!(
                "{}; {} players; {} of {} games stored; created {} by eloworld {}",
                t.game,
                t.players.len(),
                t.done,
                t.total,
                t.created,
                t.program_version
            ),
        ));
    }
    settings.push((
        "games in this report".to_owned(),
        results.table.total_games().to_string(),
    ));
    settings.push((
        "distinct games (the ratings count a copy of an earlier game once)".to_owned(),
        format!(
            "{} of {} ({} copies)",
            results.copies.distinct,
            results.copies.games,
            results.copies.copies()
        ),
    ));
    settings.push((
        "report written by".to_owned(),
        format!("eloworld {}", env!("CARGO_PKG_VERSION")),
    ));
    let config = (results.tournaments.len() == 1).then(|| results.tournaments[0].config.clone());
    let title = format!(
        "eloworld report: {}",
        results
            .tournaments
            .iter()
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let report = HtmlReport {
        title,
        settings,
        config,
        table: results.table,
        ratings,
        histories,
        consistency,
        consistency_source: "uscf".to_owned(),
        samples,
        notes,
        picture_format: s.pictures,
    };
    Ok((report, results.copies))
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::{GameResult, Side, Termination};
    use eloworld_ratings::Score;

    fn row(game: GameKind, moves: &str) -> GameRow {
        GameRow {
            job_id: 1,
            tournament: "t".to_owned(),
            game,
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
            setup: eloworld_tournament::GameSetup::default(),
        }
    }

    #[test]
    fn a_stored_game_replays_to_its_final_position_and_stops_at_a_bad_move() {
        let r = replay(&row(GameKind::Chess, "f2f3 e7e5 g2g4 d8h4"));
        assert_eq!(r.moves, ["f3", "e5", "g4", "Qh4#"]);
        assert!(r.problem.is_none());
        assert!(r.final_diagram().is_some());
        let bad = replay(&row(GameKind::Chess, "f2f3 e2e1"));
        assert_eq!(bad.positions.len(), 2, "the start and the one good move");
        assert!(bad.problem.is_some_and(|p| p.contains("move 2")));
        assert!(game_text(&row(GameKind::Squava, "a1 b2"), "x").starts_with("# a – b (t, squava"));
        assert!(
            game_text(&row(GameKind::Chess, "f2f3 e7e5 g2g4 d8h4"), "x").contains("[Site \"x\"]")
        );
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
