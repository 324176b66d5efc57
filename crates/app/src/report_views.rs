//! What each view of `eloworld report` shows, computed from stored results: the order of
//! the outcome matrix (by a rating, or by score when the rating cannot order everyone),
//! the rows of the asterisk tables (Rollason's page's, one per year with `--by-year`), and
//! the runs of the rating-evolution plot. The front end draws and writes them.

use crate::error::{AppError, AppResult, Context};
use crate::report::{histories, load_results, rating_value, StoredResults};
use eloworld_ratings::{rate, Games, Method, Options};
use eloworld_report::{
    asterisk_table, AsteriskOptions, AsteriskRow, OutcomeTable, RatingHistory, RatingValue,
};
use eloworld_tournament::{Copies, ResultRow};

/// What a view is ordered or rated by: a rating method, or the plain score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    /// A rating method's ratings.
    Rating(Method),
    /// Points per game.
    Score,
}

impl SortKey {
    /// The key's name on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SortKey::Rating(m) => m.name(),
            SortKey::Score => "score",
        }
    }
}

impl std::str::FromStr for SortKey {
    type Err = String;

    fn from_str(s: &str) -> Result<SortKey, String> {
        if s == "score" {
            return Ok(SortKey::Score);
        }
        s.parse::<Method>()
            .map(SortKey::Rating)
            .map_err(|_| format!("expected {} or score", Method::valid_names()))
    }
}

/// Rates the games of `list` by `key`: one value per player of the list (None where the
/// method rates no one, or for a player without games by score), with intervals where the
/// method gives them.
///
/// # Errors
/// The method cannot rate these games.
pub fn rate_by(key: SortKey, list: &Games) -> AppResult<Vec<Option<RatingValue>>> {
    let n = list.player_count();
    let method = match key {
        SortKey::Rating(m) => m,
        SortKey::Score => {
            let mut points = vec![(0.0f64, 0u64); n];
            for g in list.games() {
                let s = g.score.points();
                points[g.first.index()].0 += s;
                points[g.first.index()].1 += 1;
                points[g.second.index()].0 += 1.0 - s;
                points[g.second.index()].1 += 1;
            }
            return Ok(points
                .into_iter()
                .map(|(p, g)| (g > 0).then(|| RatingValue::point(p / g as f64)))
                .collect());
        }
    };
    let r = rate(list, &Options::new(method))?;
    Ok((0..n).map(|i| rating_value(&r, i)).collect())
}

/// The outcome matrix's order: the table sorted weakest first, what it was sorted by, and
/// why the asked rating could not order every player (then it is sorted by score).
pub struct MatrixOrder {
    /// The table, weakest first.
    pub sorted: OutcomeTable,
    /// "`METHOD` rating" or "score".
    pub sorted_by: String,
    /// Why the matrix fell back to the score, if it did.
    pub fallback: Option<Fallback>,
}

/// Why the outcome matrix is sorted by score instead of the asked rating.
pub enum Fallback {
    /// The method leaves some player unrated.
    Unrated,
    /// The method cannot rate these results.
    Failed(AppError),
}

/// Sorts the results' outcome table by `key` (falling back to the score, with a note).
///
/// # Errors
/// The table and its keys disagree (never for a table of these results).
pub fn matrix_order(results: &StoredResults, key: SortKey) -> AppResult<MatrixOrder> {
    let table = &results.table;
    let (keys, sorted_by, fallback) = match rate_by(key, &results.games()) {
        Ok(values) if values.iter().all(Option::is_some) => (
            values
                .iter()
                .map(|v| v.map_or(f64::NEG_INFINITY, |v| v.value))
                .collect(),
            format!("{} rating", key.name()),
            None,
        ),
        Ok(_) => (
            table.score_fractions(),
            "score".to_owned(),
            Some(Fallback::Unrated),
        ),
        Err(e) => (
            table.score_fractions(),
            "score".to_owned(),
            Some(Fallback::Failed(e)),
        ),
    };
    let sorted_by = if key == SortKey::Score {
        "score".to_owned()
    } else {
        sorted_by
    };
    Ok(MatrixOrder {
        sorted: table.reordered(&table.weakest_first(&keys)?)?,
        sorted_by,
        fallback,
    })
}

/// Returns the asterisk table of the games of `list`, rated by `key`.
fn asterisk_text(
    title: &str,
    list: &Games,
    key: SortKey,
    options: &AsteriskOptions,
) -> AppResult<String> {
    let ratings =
        rate_by(key, list).with_context(|| format!("rating {title} by {}", key.name()))?;
    let mut points = vec![0.0; list.player_count()];
    for g in list.games() {
        points[g.first.index()] += g.score.points();
        points[g.second.index()] += 1.0 - g.score.points();
    }
    let rows: Vec<AsteriskRow> = list
        .names()
        .iter()
        .zip(ratings)
        .zip(points)
        .filter_map(|((name, r), points)| {
            r.map(|r| AsteriskRow {
                player: name.clone(),
                rating: r.value,
                points,
            })
        })
        .collect();
    Ok(asterisk_table(title, &rows, options))
}

/// The asterisk tables of the results, rated by `key`: one of all games (titled by the
/// tournaments' names), or with `by_year` one of all years then one per year, latest first.
///
/// # Errors
/// The method cannot rate these games.
pub fn asterisk_tables(
    results: &StoredResults,
    key: SortKey,
    by_year: bool,
    options: &AsteriskOptions,
) -> AppResult<String> {
    let list = results.games();
    if !by_year {
        let names: Vec<&str> = results
            .tournaments
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        return asterisk_text(&names.join(", "), &list, key, options);
    }
    let periods: Vec<i32> = list.periods().into_iter().flatten().collect();
    let title = match (periods.first(), periods.last()) {
        (Some(a), Some(b)) if a != b => format!("{a}-{b} combined"),
        (Some(a), _) => format!("{a}"),
        _ => "all games".to_owned(),
    };
    let mut text = asterisk_text(&title, &list, key, options)?;
    if periods.len() > 1 {
        for y in periods.iter().rev() {
            text.push('\n');
            text.push_str(&asterisk_text(
                &y.to_string(),
                &list.period(Some(*y)),
                key,
                options,
            )?);
        }
    }
    Ok(text)
}

/// The runs of a rating-evolution plot: each player's US Chess history per tournament.
pub struct EvolutionRuns {
    /// How many runs (tournaments with games).
    pub runs: usize,
    /// The histories of every run.
    pub histories: Vec<RatingHistory>,
    /// The copies among each database's results.
    pub copies: Vec<Copies>,
}

/// Collects the runs of `dbs` (each tournament a run, or only `tournament`); with several
/// databases a run is named "DB: TOURNAMENT".
///
/// # Errors
/// A database cannot be read or holds no such tournament or no games.
pub fn evolution_runs(dbs: &[String], tournament: Option<&str>) -> AppResult<EvolutionRuns> {
    let mut runs: Vec<(String, Vec<ResultRow>)> = Vec::new();
    let mut copies = Vec::new();
    for db in dbs {
        let results = load_results(db, tournament)?;
        for t in &results.tournaments {
            let rows: Vec<ResultRow> = results
                .rows
                .iter()
                .filter(|r| r.tournament == t.name)
                .cloned()
                .collect();
            if !rows.is_empty() {
                let name = if dbs.len() > 1 {
                    format!("{db}: {}", t.name)
                } else {
                    t.name.clone()
                };
                runs.push((name, rows));
            }
        }
        copies.push(results.copies);
    }
    let several = runs.len() > 1;
    let mut all = Vec::new();
    for (name, rows) in &runs {
        let table = OutcomeTable::from_games(
            &[],
            rows.iter()
                .map(|r| (r.white.as_str(), r.black.as_str(), r.result.first_score())),
        );
        all.extend(histories(&table, rows, several.then_some(name.as_str())));
    }
    Ok(EvolutionRuns {
        runs: runs.len(),
        histories: all,
        copies,
    })
}
