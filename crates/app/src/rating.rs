//! The rate step: games to rate read from a tournament database, a PGN file or a CSV file,
//! and every rating method side by side (or one in detail) with the checks that go with
//! them — the likelihood of superiority, the Squava article's consistency check, a diluted
//! family's interpolated places, the error against known strengths — as one typed
//! [`RatingReport`] a front end only formats. The ratings themselves are
//! `eloworld_ratings::rate` / `rate_all`'s.

use crate::error::{AppResult, Context};
use eloworld_ratings::{
    consistency::{consistency, Consistency},
    elo_world::EloWorldRatings,
    interpolate::{self, Placement},
    mle::{MleRatings, Unbounded},
    rate, rate_all,
    rollason::RollasonRatings,
    uscf::UscfRatings,
    Detail, Games, Method, NameCase, Options, PairCounts, RatingError, Ratings, Wdl,
};
use eloworld_ratings_io as io;
use eloworld_tournament::ResultRow;
use eloworld_tournament::{Copies, CopyRule, Distinct};
use std::path::Path;

/// Every method side by side, or one in detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Every method side by side (ranked by mle).
    All,
    /// One method in detail.
    One(Method),
}

impl Choice {
    /// Returns the method the players are ranked by: the one chosen, mle when all are shown.
    #[must_use]
    pub const fn ranked_by(self) -> Method {
        match self {
            Choice::All => Method::Mle,
            Choice::One(m) => m,
        }
    }
}

/// What to compute: the methods, their options and the extra tables.
#[derive(Clone, Debug)]
pub struct RateSettings {
    /// Every method or one.
    pub choice: Choice,
    /// The methods' options.
    pub options: Options,
    /// Add the consistency check of the chosen ratings (the Squava article's).
    pub consistency: bool,
    /// Add the likelihood-of-superiority matrix (mle's).
    pub los: bool,
    /// Place every player within this diluted family (a base name such as `stockfish1m`).
    pub family: Option<String>,
    /// True strengths (name, strength) to measure each method's error against.
    pub truth: Option<Vec<(String, f64)>>,
}

impl RateSettings {
    /// Returns the defaults: every method with default options, no extras.
    #[must_use]
    pub fn new() -> RateSettings {
        RateSettings {
            choice: Choice::All,
            options: Options::default(),
            consistency: false,
            los: false,
            family: None,
            truth: None,
        }
    }
}

impl Default for RateSettings {
    fn default() -> Self {
        RateSettings::new()
    }
}

/// One method's outcome: its ratings, or why they could not be computed.
#[derive(Debug)]
pub struct MethodColumn {
    /// The method.
    pub method: Method,
    /// Its ratings, or why none.
    pub ratings: Result<Ratings, RatingError>,
}

/// The likelihood of superiority between the ranked players (mle's).
#[derive(Clone, Debug, PartialEq)]
pub struct LosMatrix {
    /// `chance[i][j]`: the chance that ranked player `i` is stronger than ranked player `j`
    /// (0–1); `None` on the diagonal.
    pub chance: Vec<Vec<Option<f64>>>,
}

/// The consistency check of one method's ratings (the Squava article's: observed R_P/Q
/// against 10^(D/400)).
#[derive(Clone, Debug, PartialEq)]
pub struct ConsistencyCheck {
    /// The method whose ratings were checked.
    pub method: Method,
    /// The per-pair rows and summary figures.
    pub table: Consistency,
}

/// Every player placed between two members of a diluted family, by one method's ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyPlaces {
    /// The family's base name.
    pub base: String,
    /// The method whose ratings place them.
    pub method: Method,
    /// One place per player, with the player's rating.
    pub places: Vec<(Placement, f64)>,
}

/// One method's error against the true strengths.
#[derive(Clone, Debug, PartialEq)]
pub struct TruthError {
    /// The method.
    pub method: Method,
    /// Players with both a finite rating and a true strength.
    pub players: usize,
    /// RMS of rating − strength after removing their mean difference (the scales' origins
    /// are arbitrary).
    pub rms: f64,
}

/// Everything computed for one set of games: what `eloworld rate` shows for a period, and
/// what a tournament shows at its end.
#[derive(Debug)]
pub struct RatingReport {
    /// Every method or one.
    pub choice: Choice,
    /// The players' names, indexed as everywhere in the report.
    pub names: Vec<String>,
    /// Each player's games in all (self-play left out).
    pub totals: Vec<Wdl>,
    /// The players with games, best first: by the ranking method's rating, then by score.
    pub order: Vec<usize>,
    /// The methods computed, in the order the ratings crate lists them.
    pub methods: Vec<MethodColumn>,
    /// Notes on the main table: left-out games, methods not computed, how each was fitted.
    pub notes: Vec<String>,
    /// The likelihood-of-superiority matrix, when asked for and mle was computed.
    pub los: Option<LosMatrix>,
    /// The consistency check, when asked for.
    pub consistency: Option<ConsistencyCheck>,
    /// The family's places, when asked for.
    pub family: Option<FamilyPlaces>,
    /// Each method's error against the true strengths, when given.
    pub truth: Option<Vec<TruthError>>,
}

impl RatingReport {
    /// Returns a method's ratings, if computed.
    #[must_use]
    pub fn get(&self, method: Method) -> Option<&Ratings> {
        self.methods
            .iter()
            .find(|c| c.method == method)
            .and_then(|c| c.ratings.as_ref().ok())
    }

    /// Returns mle's details, if computed.
    #[must_use]
    pub fn mle(&self) -> Option<&MleRatings> {
        match &self.get(Method::Mle)?.detail {
            Detail::Mle(m) => Some(m),
            _ => None,
        }
    }

    /// Returns the USCF method's details, if computed.
    #[must_use]
    pub fn uscf(&self) -> Option<&UscfRatings> {
        match &self.get(Method::Uscf)?.detail {
            Detail::Uscf(u) => Some(u),
            _ => None,
        }
    }

    /// Returns Murphy's Elo World details, if computed.
    #[must_use]
    pub fn elo_world(&self) -> Option<&EloWorldRatings> {
        match &self.get(Method::EloWorld)?.detail {
            Detail::EloWorld(e) => Some(e),
            _ => None,
        }
    }

    /// Returns Rollason's details, if computed.
    #[must_use]
    pub fn rollason(&self) -> Option<&RollasonRatings> {
        match &self.get(Method::Rollason)?.detail {
            Detail::Rollason(r) => Some(r),
            _ => None,
        }
    }

    /// Returns the Markov chain's chances of being champion, if computed.
    #[must_use]
    pub fn markov(&self) -> Option<&Ratings> {
        self.get(Method::Markov)
    }
}

/// Rates `games` as `settings` asks.
///
/// # Errors
/// The consistency check or a family asked for without a method that could be computed;
/// a family no player belongs to.
pub fn rate_games(games: &Games, settings: &RateSettings) -> AppResult<RatingReport> {
    let counts = games.counts();
    let totals = counts.totals();
    let options = &settings.options;
    let methods: Vec<MethodColumn> = match settings.choice {
        Choice::All => rate_all(games, options),
        Choice::One(m) => vec![(m, rate(games, &options.with_method(m)))],
    }
    .into_iter()
    .map(|(method, ratings)| MethodColumn { method, ratings })
    .collect();
    let names = games.names().to_vec();
    let mut report = RatingReport {
        choice: settings.choice,
        order: Vec::new(),
        names,
        totals,
        methods,
        notes: Vec::new(),
        los: None,
        consistency: None,
        family: None,
        truth: None,
    };
    report.order = ranking(&report);
    report.notes = notes(&report, &counts, options);
    if settings.los {
        report.los = report.mle().map(|m| LosMatrix {
            chance: report
                .order
                .iter()
                .map(|&p| {
                    report
                        .order
                        .iter()
                        .map(|&q| (p != q).then(|| m.los(p, q)))
                        .collect()
                })
                .collect(),
        });
    }
    let chosen = chosen_ratings(&report);
    if settings.consistency {
        let Some((method, ratings)) = chosen.clone() else {
            crate::invalid!("--consistency needs a rating method (mle, uscf, elo-world or rollason) that could be computed");
        };
        report.consistency = Some(ConsistencyCheck {
            method,
            table: consistency(&counts, &ratings),
        });
    }
    if let Some(base) = &settings.family {
        let Some((method, ratings)) = chosen else {
            crate::invalid!("--family needs a rating method that could be computed");
        };
        report.family = Some(family_places(base, &report.names, &ratings, method)?);
    }
    if let Some(truth) = &settings.truth {
        report.truth = Some(truth_errors(games, &report, truth));
    }
    Ok(report)
}

/// Returns the side-by-side ratings of stored results (what a tournament shows at its end).
///
/// # Errors
/// None in practice: the defaults ask for no extra table.
pub fn rate_results(rows: &[ResultRow]) -> AppResult<RatingReport> {
    rate_games(
        &eloworld_tournament::games_to_rate(rows),
        &RateSettings::new(),
    )
}

/// A stretch of time the games are rated over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Period {
    /// Every game, not split by year.
    Whole,
    /// Every game, the first of the years after it.
    AllYears,
    /// The games of one year.
    Year(i32),
    /// The games without a date.
    Undated,
}

/// Rates all games, and with `by_year` every year on its own after them (latest first).
///
/// # Errors
/// As [`rate_games`].
pub fn rate_periods(
    games: &Games,
    by_year: bool,
    settings: &RateSettings,
) -> AppResult<Vec<(Period, RatingReport)>> {
    let mut periods = vec![(
        if by_year {
            Period::AllYears
        } else {
            Period::Whole
        },
        rate_games(games, settings)?,
    )];
    if by_year {
        let mut years = games.periods();
        years.sort_by(|a, b| b.cmp(a));
        for year in years {
            let period = year.map_or(Period::Undated, Period::Year);
            periods.push((period, rate_games(&games.period(year), settings)?));
        }
    }
    Ok(periods)
}

/// Ranks the players with games by the ranking method's rating (players without one after
/// those with one), then by score, then by index.
fn ranking(r: &RatingReport) -> Vec<usize> {
    let shown = r.choice.ranked_by();
    let key: Vec<f64> = (0..r.names.len())
        .map(|p| r.get(shown).and_then(|x| x.value(p)).unwrap_or(f64::NAN))
        .collect();
    let mut order: Vec<usize> = (0..r.names.len())
        .filter(|&p| r.totals[p].games() > 0)
        .collect();
    order.sort_by(|&a, &b| {
        let (ka, kb) = (key[a], key[b]);
        match (ka.is_nan(), kb.is_nan()) {
            (false, false) => kb.total_cmp(&ka),
            (true, false) => std::cmp::Ordering::Greater,
            (false, true) => std::cmp::Ordering::Less,
            (true, true) => r.totals[b].score_pct().total_cmp(&r.totals[a].score_pct()),
        }
        .then(a.cmp(&b))
    });
    order
}

/// Returns the main table's notes.
fn notes(r: &RatingReport, counts: &PairCounts, options: &Options) -> Vec<String> {
    let mut notes = Vec::new();
    if counts.self_play() > 0 {
        notes.push(format!(
            "{} games of a player against itself are left out",
            counts.self_play()
        ));
    }
    for c in &r.methods {
        match &c.ratings {
            Err(e) => notes.push(format!("{}: not computed: {e}", c.method)),
            Ok(x) => notes.extend(x.notes.iter().cloned()),
        }
    }
    if let Some(m) = r.mle() {
        mle_notes(m, &r.names, &r.order, &mut notes);
    }
    let elo_world_note = |e: &EloWorldRatings| {
        format!(
            "elo-world: n = {} games per cell of {} cells, {} passes, median of {} runs",
            e.games_per_cell, e.cells, options.elo_world.passes, options.elo_world.repetitions
        )
    };
    match r.choice {
        Choice::All | Choice::One(Method::EloWorld) => {
            if let Some(e) = r.elo_world() {
                notes.push(elo_world_note(e));
            }
        }
        Choice::One(Method::Uscf) => {
            if r.uscf().is_some() {
                notes.push(format!(
                    "uscf: K = 800/N, initial {} from {} effective games, games in order",
                    options.uscf.initial_rating, options.uscf.prior_games
                ));
            }
        }
        Choice::One(_) => {}
    }
    notes
}

/// Returns the ratings the extra tables use: the chosen method's, or mle's when all are
/// shown; none for the Markov chain (a chance, not a rating).
fn chosen_ratings(r: &RatingReport) -> Option<(Method, Vec<f64>)> {
    let method = match r.choice {
        Choice::One(Method::Markov) => return None,
        choice => choice.ranked_by(),
    };
    r.get(method).map(|x| (method, x.values.clone()))
}

fn mle_notes(m: &MleRatings, names: &[String], order: &[usize], notes: &mut Vec<String>) {
    let advantage = |(a, se): (f64, f64)| {
        // Shown to 0.1 Elo: a value that rounds to zero is +0.0, never -0.0.
        let a = if a.abs() < 0.05 { 0.0 } else { a };
        if se > 0.0 {
            format!("{a:+.1} ± {:.1} Elo (fitted)", 1.96 * se)
        } else {
            format!("{a:+.1} Elo (fixed)")
        }
    };
    let groups = m.group_count();
    if groups > 1 {
        for (g, &a) in m.group_advantages.iter().enumerate() {
            notes.push(format!(
                "mle: first-move advantage in group {}: {}",
                g + 1,
                advantage(a)
            ));
        }
    } else if m.advantage.1 > 0.0 || m.advantage.0 != 0.0 {
        notes.push(format!(
            "mle: first-move advantage {}",
            advantage(m.advantage)
        ));
    }
    if let Some(nu) = m.draw_nu {
        notes.push(format!("mle: Davidson draw parameter ν = {nu:.4}"));
    }
    notes.push(format!(
        "mle: 95% intervals from {}",
        if m.bootstrapped {
            "bootstrap percentiles"
        } else {
            "the covariance (±1.96σ)"
        }
    ));
    for (side, word, bound) in [
        (Unbounded::Above, "unbounded-above", "a lower bound"),
        (Unbounded::Below, "unbounded-below", "an upper bound"),
    ] {
        let players: Vec<_> = order
            .iter()
            .filter(|&&p| m.unbounded[p] == Some(side))
            .map(|&p| eloworld_ratings::shown_name(&names[p]))
            .collect();
        if !players.is_empty() {
            notes.push(format!(
                "mle: no finite maximum for {} ({word}: {} the rest); each is shown at the rating it would have if one of its games had been a draw, {bound}, as Ordo does; the others are rated with it held there",
                players.join(", "),
                if side == Unbounded::Above {
                    "never conceded a point to"
                } else {
                    "never scored against"
                }
            ));
        }
    }
    for g in 1..groups {
        let members: Vec<_> = order
            .iter()
            .filter(|&&p| m.group[p] == g)
            .map(|&p| eloworld_ratings::shown_name(&names[p]))
            .collect();
        notes.push(format!(
            "mle: group {} ({}; flag separate-group) never played the main group: its ratings are on their own scale and not comparable",
            g + 1,
            members.join(", "),
        ));
    }
}

fn family_places(
    base: &str,
    names: &[String],
    ratings: &[f64],
    method: Method,
) -> AppResult<FamilyPlaces> {
    if !names
        .iter()
        .any(|n| interpolate::dilution(base, n).is_some())
    {
        crate::invalid!("--family {base}: no player is named {base} or {base}_rN");
    }
    let places = interpolate::place(base, names, ratings)
        .into_iter()
        .map(|pl| {
            let rating = ratings[pl.player];
            (pl, rating)
        })
        .collect();
    Ok(FamilyPlaces {
        base: base.to_owned(),
        method,
        places,
    })
}

/// Compares mle, USCF and Elo World with true strengths: RMS error after removing the mean
/// difference (the scales' origins are arbitrary).
fn truth_errors(games: &Games, r: &RatingReport, truth: &[(String, f64)]) -> Vec<TruthError> {
    [Method::Mle, Method::Uscf, Method::EloWorld]
        .into_iter()
        .filter_map(|method| r.get(method).map(|x| (method, &x.values)))
        .map(|(method, ratings)| {
            let pairs: Vec<(f64, f64)> = truth
                .iter()
                .filter_map(|(name, x)| games.find(name).map(|id| (ratings[id.index()], *x)))
                .filter(|(r, _)| r.is_finite())
                .collect();
            let k = pairs.len() as f64;
            let mean = pairs.iter().map(|(r, x)| r - x).sum::<f64>() / k;
            let rms = (pairs
                .iter()
                .map(|(r, x)| (r - x - mean).powi(2))
                .sum::<f64>()
                / k)
                .sqrt();
            TruthError {
                method,
                players: pairs.len(),
                rms,
            }
        })
        .collect()
}

/// A source of games to rate.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// Stored results, of one tournament or all.
    Db {
        /// The database.
        db: &'a str,
        /// Only this tournament.
        tournament: Option<&'a str>,
    },
    /// A PGN file (headers only).
    Pgn(&'a Path),
    /// A CSV file.
    Csv(&'a Path),
}

/// Games read from a source, with the unfinished games skipped.
#[derive(Clone, Debug)]
pub struct SourceGames {
    /// The games.
    pub games: Games,
    /// Games without a result, or with a player skipped.
    pub unfinished: u64,
    /// From a database, the copies of earlier games it holds (a copy counts once under
    /// [`CopyRule::CountOnce`]); PGN and CSV input is taken game by game as it is.
    pub copies: Option<Copies>,
}

impl Source<'_> {
    /// Reads the games; `case_sensitive` keeps names that differ only in case apart.
    ///
    /// # Errors
    /// A file that cannot be read or parsed, a database without the tournament asked for,
    /// or a source without a game to rate (naming it and what it holds).
    pub fn load(&self, case_sensitive: bool, copy_rule: CopyRule) -> AppResult<SourceGames> {
        let mut copies = None;
        let names = if case_sensitive {
            NameCase::Exact
        } else {
            NameCase::Fold
        };
        let open = |path: &Path| {
            std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))
        };
        let read = match *self {
            Source::Pgn(path) => {
                io::read_pgn(open(path)?, names).with_context(|| path.display().to_string())?
            }
            Source::Csv(path) => {
                io::read_csv(open(path)?, names).with_context(|| path.display().to_string())?
            }
            Source::Db { db, tournament } => {
                let store = eloworld_tournament::open_store(db, false)
                    .with_context(|| format!("opening {db}"))?;
                if let Some(t) = tournament {
                    if !store.tournaments()?.iter().any(|x| x.name == *t) {
                        crate::invalid!("{db} has no tournament {t:?}");
                    }
                }
                let rows = store.results(tournament)?;
                if rows.is_empty() {
                    crate::invalid!(
                        "{db}: no games to rate: no stored results{}",
                        tournament
                            .map(|t| format!(" in tournament {t:?}"))
                            .unwrap_or_default()
                    );
                }
                let mut games = Games::with_names(names);
                eloworld_tournament::add_results_with(
                    &mut games,
                    &rows,
                    &mut Distinct::new(copy_rule),
                );
                copies = Some(Copies::of(&rows));
                io::ReadGames {
                    games,
                    unfinished: 0,
                }
            }
        };
        Ok(SourceGames {
            games: read.games,
            unfinished: read.unfinished,
            copies,
        })
    }
}

/// Reads `name,strength` lines (a header line is allowed) of true strengths, e.g. the file
/// `eloworld synth` writes beside its games.
///
/// # Errors
/// The file cannot be read, or a line is not a name and a number.
pub fn read_truth(path: &Path) -> AppResult<Vec<(String, f64)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    io::parse_strengths(&text).with_context(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_ratings::Score;

    /// Three players, each pair once with each colour: a beats b twice, b beats c twice,
    /// a and c draw twice.
    fn games() -> Games {
        let mut g = Games::case_sensitive();
        g.add("a", "b", Score::Win, true, None);
        g.add("b", "a", Score::Loss, true, None);
        g.add("b", "c", Score::Win, true, None);
        g.add("c", "b", Score::Loss, true, None);
        g.add("a", "c", Score::Draw, true, None);
        g.add("c", "a", Score::Draw, true, None);
        g
    }

    #[test]
    fn totals_are_wdl_and_the_order_follows_mle() {
        let r = rate_games(&games(), &RateSettings::new()).unwrap();
        assert_eq!(r.names, ["a", "b", "c"]);
        // a: 2 wins, 2 draws; b: 2 wins, 2 losses; c: 2 draws, 2 losses.
        assert_eq!(
            r.totals,
            [Wdl::new(2, 2, 0), Wdl::new(2, 0, 2), Wdl::new(0, 2, 2)]
        );
        assert_eq!(r.order, [0, 1, 2]);
        assert!(r.los.is_none() && r.consistency.is_none() && r.family.is_none());
    }

    #[test]
    fn the_los_matrix_is_over_the_ranked_players_with_an_empty_diagonal() {
        let settings = RateSettings {
            los: true,
            ..RateSettings::new()
        };
        let r = rate_games(&games(), &settings).unwrap();
        let los = r.los.unwrap().chance;
        assert_eq!(los.len(), 3);
        assert!(los[0][0].is_none());
        let (ab, ba) = (los[0][1].unwrap(), los[1][0].unwrap());
        assert!(ab > 0.5, "a over b: {ab}");
        assert!((ab + ba - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_family_without_members_is_an_error_naming_it() {
        let settings = RateSettings {
            family: Some("stockfish1m".to_owned()),
            ..RateSettings::new()
        };
        let e = rate_games(&games(), &settings).unwrap_err().to_string();
        assert!(e.contains("--family stockfish1m: no player"), "{e}");
    }

    #[test]
    fn the_consistency_check_needs_a_rating_method() {
        let settings = RateSettings {
            choice: Choice::One(Method::Markov),
            consistency: true,
            ..RateSettings::new()
        };
        let e = rate_games(&games(), &settings).unwrap_err().to_string();
        assert!(e.contains("--consistency needs a rating method"), "{e}");
    }

    #[test]
    fn truth_errors_remove_the_mean_difference() {
        // Ratings shifted by a constant from the truth have no error.
        let settings = RateSettings {
            choice: Choice::One(Method::Mle),
            ..RateSettings::new()
        };
        let r = rate_games(&games(), &settings).unwrap();
        let mle = r.get(Method::Mle).unwrap().values.clone();
        let truth: Vec<(String, f64)> = r
            .names
            .iter()
            .zip(&mle)
            .map(|(n, x)| (n.clone(), x + 123.0))
            .collect();
        let errors = truth_errors(&games(), &r, &truth);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].players, 3);
        assert!(errors[0].rms.abs() < 1e-9);
    }
}
