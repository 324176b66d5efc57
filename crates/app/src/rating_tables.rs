//! The rating tables of `eloworld rate` (and of a tournament's end): a [`RatingReport`] laid
//! out as titled tables of typed cells — the ranking (every method side by side, or one in
//! detail), the likelihood-of-superiority matrix, the Squava article's consistency check,
//! Murphy's comparable interpolated player and the error against true strengths. Which
//! columns, in which order and with how many decimals is decided here once; the command line
//! only renders a [`Table`] as aligned text, CSV or JSON.

use crate::rating::{Choice, ConsistencyCheck, FamilyPlaces, LosMatrix, RatingReport, TruthError};
use eloworld_ratings::predict::CrossValidation;
use eloworld_ratings::{Detail, Flag, Method};

/// One cell of a table.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text, left-aligned.
    Text(String),
    /// A number shown with this many decimals.
    Num(f64, usize),
    /// A signed number (shown with `+`).
    Signed(f64, usize),
    /// A count.
    Int(u64),
    /// No value.
    Missing,
}

impl Cell {
    /// Returns a number cell, or Missing when not finite.
    #[must_use]
    pub fn num(x: f64, decimals: usize) -> Cell {
        if x.is_finite() {
            Cell::Num(x, decimals)
        } else {
            Cell::Missing
        }
    }

    /// Returns a number cell from an optional value.
    #[must_use]
    pub fn opt(x: Option<f64>, decimals: usize) -> Cell {
        x.map_or(Cell::Missing, |x| Cell::num(x, decimals))
    }
}

/// How a table reads as text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// Aligned columns under a header line.
    #[default]
    Columns,
    /// Rollason's computer-Go ratings page: rank, player, rating, points, a bar of stars and
    /// the flag, from the rows' six cells in that order (CSV and JSON keep the columns).
    RollasonPage,
}

/// A titled table of typed cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Shown above the table in text, the key in JSON.
    pub title: String,
    /// Column names.
    pub columns: Vec<String>,
    /// Rows of cells, one per column.
    pub rows: Vec<Vec<Cell>>,
    /// Lines shown under the table in text (and as `notes` in JSON).
    pub notes: Vec<String>,
    /// How the table reads as text.
    pub layout: Layout,
}

impl Table {
    /// Creates an empty table.
    #[must_use]
    pub fn new(title: impl Into<String>, columns: &[&str]) -> Table {
        Table {
            title: title.into(),
            columns: columns.iter().map(|c| (*c).to_owned()).collect(),
            ..Table::default()
        }
    }
}

/// Returns the flag's word, or an empty cell.
fn flag_cell(flag: Option<Flag>) -> Cell {
    Cell::Text(flag.map_or_else(String::new, |f| f.name().to_owned()))
}

/// Returns the report's tables: the ranking, then the extras asked for.
#[must_use]
pub fn tables(r: &RatingReport) -> Vec<Table> {
    let mut main = ranking_table(r);
    main.notes.clone_from(&r.notes);
    let mut tables = vec![main];
    if let Some(los) = &r.los {
        tables.push(los_table(los, r));
    }
    if let Some(c) = &r.consistency {
        tables.push(consistency_table(c, &r.names));
    }
    if let Some(f) = &r.family {
        tables.push(family_table(f, &r.names));
    }
    if let Some(t) = &r.truth {
        tables.push(truth_table(t));
    }
    tables
}

/// Returns the ranking: every method's column side by side, or one method's in detail.
fn ranking_table(r: &RatingReport) -> Table {
    let names = &r.names;
    // The rank, the player, and (but for Rollason's) games and score.
    let lead = |rank: usize, p: usize| {
        let wdl = r.totals[p];
        vec![
            Cell::Int(rank as u64 + 1),
            Cell::Text(names[p].clone()),
            Cell::Int(wdl.games()),
            Cell::num(wdl.score_pct(), 1),
        ]
    };
    let lead_columns = ["rank", "player", "games", "score%"];
    let rows = |columns: &[&str], cells: &dyn Fn(usize) -> Vec<Cell>| {
        let mut t = Table::new("", &[&lead_columns[..], columns].concat());
        for (rank, &p) in r.order.iter().enumerate() {
            let mut row = lead(rank, p);
            row.extend(cells(p));
            t.rows.push(row);
        }
        t
    };
    let mle = r.mle();
    let elo_world = r.elo_world();
    let value = |m: Method, p: usize| r.get(m).and_then(|x| x.value(p));
    let half = |m: Method, p: usize| {
        r.get(m)
            .and_then(|x| x.interval(p))
            .map(|(low, high)| (high - low) / 2.0)
    };
    match r.choice {
        Choice::All => rows(
            &[
                "mle",
                "±95%",
                "uscf",
                "elo-world",
                "ew-q25",
                "ew-q75",
                "rollason",
                "p(champion)",
                "glicko2",
                "g2±95%",
                "trueskill",
                "ts±95%",
                "whr",
                "whr±95%",
                "bayeselo",
                "be±95%",
                "nash",
                "alpharank",
                "flag",
            ],
            &|p| {
                vec![
                    Cell::opt(mle.map(|m| m.ratings[p]), 1),
                    Cell::opt(mle.map(|m| (m.high[p] - m.low[p]) / 2.0), 1),
                    Cell::opt(r.uscf().map(|u| u.ratings[p]), 1),
                    Cell::opt(elo_world.map(|e| e.median[p]), 1),
                    Cell::opt(elo_world.map(|e| e.q25[p]), 1),
                    Cell::opt(elo_world.map(|e| e.q75[p]), 1),
                    Cell::opt(r.rollason().map(|x| x.ratings[p]), 0),
                    Cell::opt(r.markov().and_then(|m| m.value(p)), 8),
                    Cell::opt(value(Method::Glicko2, p), 1),
                    Cell::opt(half(Method::Glicko2, p), 1),
                    Cell::opt(value(Method::TrueSkill, p), 2),
                    Cell::opt(half(Method::TrueSkill, p), 2),
                    Cell::opt(value(Method::Whr, p), 1),
                    Cell::opt(half(Method::Whr, p), 1),
                    Cell::opt(value(Method::BayesElo, p), 1),
                    Cell::opt(half(Method::BayesElo, p), 1),
                    Cell::opt(value(Method::Nash, p), 1),
                    Cell::opt(value(Method::AlphaRank, p), 8),
                    flag_cell(r.get(Method::Mle).and_then(|m| m.flag(p))),
                ]
            },
        ),
        Choice::One(Method::Mle) => match (mle, r.get(Method::Mle)) {
            (Some(m), Some(x)) => rows(&["elo", "error", "low95", "high95", "flag"], &|p| {
                vec![
                    Cell::num(m.ratings[p], 1),
                    Cell::num(m.errors[p], 1),
                    Cell::num(m.low[p], 1),
                    Cell::num(m.high[p], 1),
                    flag_cell(x.flag(p)),
                ]
            }),
            _ => Table::new(
                "",
                &[
                    "rank", "player", "games", "score%", "elo", "error", "low95", "high95", "flag",
                ],
            ),
        },
        Choice::One(Method::Uscf) => match r.uscf() {
            Some(u) => rows(&["elo"], &|p| vec![Cell::num(u.ratings[p], 1)]),
            None => Table::new("", &["rank", "player", "games", "score%", "elo"]),
        },
        Choice::One(Method::EloWorld) => match elo_world {
            Some(e) => rows(&["elo", "q25", "q75"], &|p| {
                vec![
                    Cell::num(e.median[p], 2),
                    Cell::num(e.q25[p], 2),
                    Cell::num(e.q75[p], 2),
                ]
            }),
            None => Table::new(
                "",
                &["rank", "player", "games", "score%", "elo", "q25", "q75"],
            ),
        },
        Choice::One(Method::Rollason) => {
            let mut t = Table::new("", &["rank", "player", "rating", "points", "bar", "flag"]);
            if let (Some(x), Some(rated)) = (r.rollason(), r.get(Method::Rollason)) {
                for (rank, &p) in r.order.iter().enumerate() {
                    t.rows.push(vec![
                        Cell::Int(rank as u64 + 1),
                        Cell::Text(names[p].clone()),
                        Cell::num(x.ratings[p], 0),
                        Cell::num(x.points[p], 1),
                        Cell::Text("*".repeat(x.stars(p))),
                        flag_cell(rated.flag(p)),
                    ]);
                }
                t.layout = Layout::RollasonPage;
            }
            t
        }
        Choice::One(Method::Markov) => match r.markov() {
            Some(m) => rows(&["p(champion)"], &|p| vec![Cell::opt(m.value(p), 8)]),
            None => Table::new("", &["rank", "player", "games", "score%", "p(champion)"]),
        },
        Choice::One(method) => model_table(method, r),
    }
}

/// The table of one of the models beyond the seeds' methods: the value, its 95% interval
/// where the model has one, and the model's own extra (Nash averaging's mass).
fn model_table(method: Method, r: &RatingReport) -> Table {
    let value = match method {
        Method::TrueSkill => "mu",
        Method::Nash => "nash",
        Method::AlphaRank => "mass",
        _ => "elo",
    };
    let mut columns = vec!["rank", "player", "games", "score%", value];
    let x = r.get(method);
    let intervals = x.is_some_and(|x| x.intervals.is_some());
    if intervals {
        columns.extend(["low95", "high95"]);
    }
    let mass = match x.map(|x| &x.detail) {
        Some(Detail::Nash(n)) => {
            columns.push("mass");
            Some(&n.mass)
        }
        _ => None,
    };
    let mut t = Table::new("", &columns);
    let Some(x) = x else {
        return t;
    };
    let decimals = if method.is_elo() || method == Method::Nash {
        1
    } else if method == Method::TrueSkill {
        2
    } else {
        8
    };
    for (rank, &p) in r.order.iter().enumerate() {
        let wdl = r.totals[p];
        let mut row = vec![
            Cell::Int(rank as u64 + 1),
            Cell::Text(r.names[p].clone()),
            Cell::Int(wdl.games()),
            Cell::num(wdl.score_pct(), 1),
            Cell::opt(x.value(p), decimals),
        ];
        if intervals {
            let (low, high) = x.interval(p).unwrap_or((f64::NAN, f64::NAN));
            row.extend([Cell::num(low, decimals), Cell::num(high, decimals)]);
        }
        if let Some(mass) = mass {
            row.push(Cell::num(mass[p], 8));
        }
        t.rows.push(row);
    }
    match &x.detail {
        Detail::Glicko2(g) => t.notes.push(format!(
            "glicko2: {} rating periods (one per date, else {} games each)",
            g.periods,
            5 * r.names.len()
        )),
        Detail::Whr(w) => t.notes.push(format!(
            "whr: {} cycles of Newton's steps",
            w.iterations
        )),
        Detail::BayesElo(b) => t.notes.push(format!(
            "bayeselo: eloAdvantage {:.1}, eloDraw {:.1}, scale {:.4}, {} MM passes",
            b.advantage, b.draw_elo, b.scale, b.iterations
        )),
        Detail::Nash(_) => t.notes.push(
            "nash: log-odds margin (Elo scale) against the maximum-entropy Nash mixture; 0 in its support, the mass column is the mixture".to_owned(),
        ),
        _ => {}
    }
    t
}

/// Returns the cross-validation's table (`rate --predict K`), best first, with a note saying
/// how the folds were scored.
#[must_use]
pub fn prediction_table(cv: &CrossValidation) -> Table {
    let mut t = Table::new(
        "",
        &["rank", "method", "log_loss", "brier", "probabilities"],
    );
    for (rank, p) in cv.scores.iter().enumerate() {
        t.rows.push(vec![
            Cell::Int(rank as u64 + 1),
            Cell::Text(p.method.name().to_owned()),
            Cell::num(p.log_loss, 4),
            Cell::num(p.brier, 4),
            Cell::Text(p.draw_model.to_owned()),
        ]);
    }
    t.notes.push(format!(
        "{} folds of consecutive games; {} games scored (every block but the first); order-free methods trained on the other blocks, time-ordered ones (uscf, glicko2, trueskill, whr) on the games before the block; a uniform guess scores log loss {:.4}",
        cv.folds,
        cv.test_games,
        3f64.ln()
    ));
    for (m, why) in &cv.skipped {
        t.notes.push(format!("{m}: not scored: {why}"));
    }
    t
}

/// The likelihood-of-superiority matrix, rows and columns in ranking order.
fn los_table(los: &LosMatrix, r: &RatingReport) -> Table {
    let mut columns: Vec<String> = vec!["LOS%".to_owned()];
    columns.extend(r.order.iter().map(|&p| r.names[p].clone()));
    let mut t = Table {
        title: "likelihood of superiority (row over column, %)".to_owned(),
        columns,
        ..Table::default()
    };
    for (&p, chances) in r.order.iter().zip(&los.chance) {
        let mut row = vec![Cell::Text(r.names[p].clone())];
        row.extend(chances.iter().map(|c| Cell::opt(c.map(|c| 100.0 * c), 0)));
        t.rows.push(row);
    }
    t
}

/// The Squava article's check: observed R_P/Q next to the ratings' 10^(D/400), per pair.
fn consistency_table(check: &ConsistencyCheck, names: &[String]) -> Table {
    let c = &check.table;
    let mut t = Table::new(
        format!("consistency with {} ratings (the Squava article's check): observed R_P/Q = s/(1−s) against 10^(D/400)", check.method.name()),
        &["P", "Q", "games", "P score", "R_P/Q", "D", "10^(D/400)", "observed%", "expected%"],
    );
    for row in &c.pairs {
        t.rows.push(vec![
            Cell::Text(names[row.p].clone()),
            Cell::Text(names[row.q].clone()),
            Cell::Int(row.games),
            Cell::num(row.score, 1),
            Cell::num(row.observed, 2),
            Cell::Signed(row.difference, 0),
            Cell::num(row.predicted, 2),
            Cell::num(100.0 * row.score / row.games as f64, 1),
            Cell::num(100.0 * row.expected_score, 1),
        ]);
    }
    t.notes.push(format!(
        "log-loss per game {:.4}; RMS of expected − observed score per pair (weighted by games) {:.4}",
        c.log_loss, c.rms_score_error
    ));
    t
}

/// Every player placed between two members of a diluted family (Murphy's comparable
/// interpolated player).
fn family_table(f: &FamilyPlaces, names: &[String]) -> Table {
    let base = &f.base;
    let mut t = Table::new(
        format!("comparable interpolated player: the {base} family by {} rating (dilution = chance of a random move)", f.method.name()),
        &["player", "rating", "between", "and", "dilution"],
    );
    let describe =
        |m: Option<(usize, u32)>| m.map_or(Cell::Missing, |(i, _)| Cell::Text(names[i].clone()));
    for (pl, rating) in &f.places {
        let pct = |m: Option<(usize, u32)>| m.map(|(_, d)| 100.0 * f64::from(d) / 65536.0);
        let dilution = match (pct(pl.stronger), pct(pl.weaker)) {
            (Some(a), Some(b)) => format!("{a:.3}–{b:.3}%"),
            (Some(a), None) => format!("above {a:.3}%"),
            (None, Some(b)) => format!("below {b:.3}% (stronger than the whole family)"),
            (None, None) => String::new(),
        };
        t.rows.push(vec![
            Cell::Text(names[pl.player].clone()),
            Cell::num(*rating, 1),
            describe(pl.weaker),
            describe(pl.stronger),
            Cell::Text(dilution),
        ]);
    }
    t
}

/// Every method's RMS error against the true strengths.
fn truth_table(errors: &[TruthError]) -> Table {
    let mut t = Table::new(
        "error against the true strengths",
        &["method", "players", "rms error"],
    );
    for e in errors {
        t.rows.push(vec![
            Cell::Text(e.method.name().to_owned()),
            Cell::Int(e.players as u64),
            Cell::num(e.rms, 2),
        ]);
    }
    t
}
