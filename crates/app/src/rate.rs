//! The `rate` use case: a request (where the games are, which methods, their settings) in,
//! the rating tables of each period out, or with `predict` the cross-validation of the
//! models. The ratings come from `eloworld_ratings::rate` / `rate_all` through
//! [`crate::rating`]; the tables from [`crate::rating_tables`]; a front end only renders them.

use crate::error::{AppResult, Context};
use crate::rating::{self, Choice, Period, RateSettings, Source};
use crate::rating_tables::{prediction_table, tables, Table};
use crate::report::COPY_PAIRS_SHOWN;
use eloworld_ratings::predict::CrossValidation;
use eloworld_ratings::{
    elo_world::EloWorldConfig,
    mle::{Advantage, DrawModel, MleConfig},
    uscf::UscfConfig,
    Anchor, Games, Options,
};
use eloworld_tournament::{Copies, CopyRule, ResultRow};
use std::path::Path;

/// What `rate` is asked: the sources (one of them), the method and every setting, as the
/// command line names them.
#[derive(Clone, Debug)]
pub struct RateRequest<'a> {
    /// A ladder (a file, or a shipped name): the W/D/L its ratings rest on.
    pub ladder: Option<&'a str>,
    /// A PGN file (headers only).
    pub pgn: Option<&'a Path>,
    /// A CSV file.
    pub csv: Option<&'a Path>,
    /// A tournament database.
    pub db: Option<&'a str>,
    /// Only this tournament of the database.
    pub tournament: Option<&'a str>,
    /// Keep names that differ only in case apart.
    pub case_sensitive: bool,
    /// Count every stored copy of a game (a database only).
    pub keep_copies: bool,
    /// Every method side by side, or one.
    pub method: Choice,
    /// Rate every year on its own, after all games together.
    pub by_year: bool,
    /// A player held at a rating.
    pub anchor: Option<Anchor>,
    /// Add the consistency check (the Squava article's).
    pub consistency: bool,
    /// Add the likelihood-of-superiority matrix (mle).
    pub los: bool,
    /// Place every player within this diluted family.
    pub family: Option<String>,
    /// A CSV of true strengths to measure each method's error against.
    pub truth: Option<&'a Path>,
    /// mle: how draws count.
    pub draw_model: DrawModel,
    /// mle: the first-move advantage in Elo, or `fit`, as given.
    pub white_advantage: &'a str,
    /// mle: bootstrap samples (0: intervals from the covariance).
    pub bootstrap: u32,
    /// mle: Newton's steps per fit.
    pub newton_steps: u32,
    /// uscf: the incremental Elo settings.
    pub uscf: UscfConfig,
    /// elo-world: repetitions (the median is taken).
    pub repetitions: u32,
    /// Seed of elo-world's sampling and of the bootstrap.
    pub seed: u64,
    /// Instead of ratings: K-fold cross-validation of the models' predictions.
    pub predict: Option<u64>,
}

/// The ratings of one period, as tables.
#[derive(Clone, Debug)]
pub struct RatedPeriod {
    /// The period's title: empty when the games are not split by year.
    pub title: String,
    /// The tables, in the order they are shown.
    pub tables: Vec<Table>,
}

/// What `rate` found.
#[derive(Clone, Debug)]
pub enum Rated {
    /// The rating tables of every period (one unless by year).
    Periods(Vec<RatedPeriod>),
    /// `predict`: the cross-validation and its table, best first.
    Prediction {
        /// The scores of each model.
        cv: CrossValidation,
        /// Its table.
        table: Table,
    },
}

/// What `rate` returns: the tables, and from a database the copies of earlier games.
#[derive(Clone, Debug)]
pub struct RateOutcome {
    /// The ratings, or the prediction scores.
    pub rated: Rated,
    /// From a database: the copies it holds.
    pub copies: Option<Copies>,
}

impl Period {
    /// Returns the period's title: empty for all games unsplit, else `all games`, the
    /// year, or `no date`.
    #[must_use]
    pub fn title(self) -> String {
        match self {
            Period::Whole => String::new(),
            Period::AllYears => "all games".to_owned(),
            Period::Year(y) => y.to_string(),
            Period::Undated => "no date".to_owned(),
        }
    }
}

/// Reads `--white-advantage`: `fit`, or a number of Elo.
///
/// # Errors
/// Neither `fit` nor a number.
pub fn parse_advantage(v: &str) -> AppResult<Advantage> {
    if v == "fit" {
        return Ok(Advantage::Fit);
    }
    v.parse().map(Advantage::Fixed).map_err(|e| {
        crate::AppError::Invalid(format!(
            "--white-advantage {v:?}: expected fit or a number: {e}"
        ))
    })
}

impl RateRequest<'_> {
    /// Returns the copy rule asked for: every copy counts with `keep_copies`, else once.
    fn copy_rule(&self) -> CopyRule {
        if self.keep_copies {
            CopyRule::CountEach
        } else {
            CopyRule::CountOnce
        }
    }

    /// Returns elo-world's settings.
    fn elo_world(&self) -> EloWorldConfig {
        EloWorldConfig {
            repetitions: self.repetitions,
            seed: self.seed,
            ..EloWorldConfig::new()
        }
    }

    /// Returns the methods' options (ranked by the method chosen).
    ///
    /// # Errors
    /// A `white_advantage` that is neither `fit` nor a number.
    pub fn options(&self) -> AppResult<Options> {
        Ok(Options {
            mle: MleConfig {
                draw_model: self.draw_model,
                advantage: parse_advantage(self.white_advantage)?,
                bootstrap: self.bootstrap,
                seed: self.seed,
                newton_steps: self.newton_steps,
                ..MleConfig::new()
            },
            uscf: self.uscf,
            elo_world: self.elo_world(),
            anchor: self.anchor.clone(),
            ..Options::new(self.method.ranked_by())
        })
    }

    /// Reads the games from the one source given: (games, unfinished, copies).
    fn load(&self) -> AppResult<(Games, u64, Option<Copies>)> {
        if self.keep_copies && self.db.is_none() {
            crate::invalid!("--keep-copies: copies are found in a database (--db) only; --pgn, --csv and --ladder take every game as given");
        }
        if let (Some(t), None) = (self.tournament, self.db) {
            crate::invalid!("--tournament {t:?}: tournaments are found in a database (--db) only; --pgn, --csv and --ladder have none");
        }
        if let Some(ladder) = self.ladder {
            return Ok((crate::ladders::load(ladder)?.game_list(), 0, None));
        }
        let source = match (self.pgn, self.csv, self.db) {
            (Some(p), _, _) => Source::Pgn(p),
            (None, Some(c), _) => Source::Csv(c),
            (None, None, Some(db)) => Source::Db {
                db,
                tournament: self.tournament,
            },
            (None, None, None) => crate::invalid!("give --db, --pgn or --csv"),
        };
        let read = source.load(self.case_sensitive, self.copy_rule())?;
        Ok((read.games, read.unfinished, read.copies))
    }
}

/// Runs `rate`: reads the games, then rates every period (or cross-validates the models).
/// `note` hears, as they arise, what the reader should know: the copies counted once,
/// names merged across case, games skipped.
///
/// # Errors
/// A source that cannot be read, a setting that does not fit (an anchor not among the
/// players, a bad `white_advantage`), or a method that fails.
pub fn rate(request: &RateRequest<'_>, note: &mut dyn FnMut(&str)) -> AppResult<RateOutcome> {
    let (games, unfinished, copies) = request.load()?;
    if let Some(text) = copies
        .as_ref()
        .and_then(|c| c.note(request.copy_rule(), COPY_PAIRS_SHOWN))
    {
        note(&text);
    }
    if let Some(folds) = request.predict {
        let rated = predict(&games, request, folds)?;
        return Ok(RateOutcome { rated, copies });
    }
    let options = request.options()?;
    if let Some(a) = &options.anchor {
        if games.find(&a.player).is_none() {
            crate::invalid!("--anchor: no player {:?} in the games", a.player);
        }
    }
    for (kept, merged) in games.merged_spellings() {
        note(&format!(
            "{:?} is taken as {:?} (names differing only in case are one player; --case-sensitive keeps them apart)",
            eloworld_ratings::shown_name(merged),
            eloworld_ratings::shown_name(kept)
        ));
    }
    if unfinished > 0 {
        note(&format!(
            "{unfinished} {} without a result (*) or players skipped",
            if unfinished == 1 { "game" } else { "games" }
        ));
    }
    let settings = RateSettings {
        choice: request.method,
        options,
        consistency: request.consistency,
        los: request.los,
        family: request.family.clone(),
        truth: request.truth.map(rating::read_truth).transpose()?,
    };
    let periods = rating::rate_periods(&games, request.by_year, &settings)?
        .iter()
        .map(|(period, report)| RatedPeriod {
            title: period.title(),
            tables: tables(report),
        })
        .collect();
    Ok(RateOutcome {
        rated: Rated::Periods(periods),
        copies,
    })
}

/// `predict`: the cross-validation over `folds` blocks of the games in order.
fn predict(games: &Games, request: &RateRequest<'_>, folds: u64) -> AppResult<Rated> {
    let options = Options {
        uscf: request.uscf,
        elo_world: request.elo_world(),
        ..Options::default()
    };
    let folds = usize::try_from(folds)
        .map_err(|e| crate::AppError::Invalid(format!("--predict: too many folds: {e}")))?;
    let cv = eloworld_ratings::predict::cross_validate(games, &options, folds)
        .with_context(|| format!("--predict {folds}"))?;
    let table = prediction_table(&cv);
    Ok(Rated::Prediction { cv, table })
}

/// The side-by-side ratings of stored results (what a tournament prints at its end), a copy
/// of an earlier game counted once.
#[derive(Clone, Debug)]
pub struct ResultsRated {
    /// The tables, in the order they are shown.
    pub tables: Vec<Table>,
    /// Names the copies counted once, if the results hold any.
    pub copies_note: Option<String>,
}

/// Rates stored results with every method side by side, a copy counted once.
///
/// # Errors
/// As [`rating::rate_results`].
pub fn rate_stored(rows: &[ResultRow]) -> AppResult<ResultsRated> {
    let report = rating::rate_results(rows)?;
    Ok(ResultsRated {
        tables: tables(&report),
        copies_note: Copies::of(rows).note(CopyRule::CountOnce, COPY_PAIRS_SHOWN),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_ratings::Method;
    use std::io::Write;

    /// A CSV of six games: a beats b twice, b beats c twice, a and c draw twice; one game
    /// unfinished; `A` is a second spelling of `a`.
    fn csv() -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().expect("temp file");
        writeln!(
            f,
            "white,black,result\na,b,1-0\nb,A,0-1\nb,c,1-0\nc,b,0-1\na,c,1/2-1/2\nc,a,1/2-1/2\na,c,*"
        )
        .expect("write");
        f
    }

    fn request(csv: &Path) -> RateRequest<'_> {
        RateRequest {
            ladder: None,
            pgn: None,
            csv: Some(csv),
            db: None,
            tournament: None,
            case_sensitive: false,
            keep_copies: false,
            method: Choice::All,
            by_year: false,
            anchor: None,
            consistency: false,
            los: false,
            family: None,
            truth: None,
            draw_model: DrawModel::HalfPoint,
            white_advantage: "fit",
            bootstrap: 0,
            newton_steps: eloworld_ratings::mle::NEWTON_STEPS,
            uscf: UscfConfig {
                initial_rating: 1300.0,
                prior_games: 14.0,
            },
            repetitions: 3,
            seed: 1,
            predict: None,
        }
    }

    #[test]
    fn a_csv_is_rated_as_one_untitled_period_with_its_notes() {
        let f = csv();
        let mut notes = Vec::new();
        let out = rate(&request(f.path()), &mut |n| notes.push(n.to_owned())).expect("rated");
        assert_eq!(
            notes,
            [
                "\"A\" is taken as \"a\" (names differing only in case are one player; --case-sensitive keeps them apart)",
                "1 game without a result (*) or players skipped"
            ]
        );
        assert!(out.copies.is_none(), "a CSV has no copies");
        let Rated::Periods(periods) = out.rated else {
            panic!("ratings, not a prediction")
        };
        assert_eq!(periods.len(), 1);
        assert_eq!(periods[0].title, "");
        assert_eq!(periods[0].tables[0].rows.len(), 3, "three players");
    }

    #[test]
    fn settings_that_do_not_fit_are_errors_naming_the_option() {
        let f = csv();
        let mut r = request(f.path());
        r.keep_copies = true;
        let e = rate(&r, &mut |_| {}).expect_err("no database").to_string();
        assert!(
            e.starts_with("--keep-copies: copies are found in a database"),
            "{e}"
        );
        let mut r = request(f.path());
        r.tournament = Some("t");
        let e = rate(&r, &mut |_| {}).expect_err("no database").to_string();
        assert!(
            e.starts_with("--tournament \"t\": tournaments are found in a database"),
            "{e}"
        );
        let mut r = request(f.path());
        r.anchor = Some(Anchor {
            player: "zed".to_owned(),
            rating: 1000.0,
        });
        let e = rate(&r, &mut |_| {})
            .expect_err("no such player")
            .to_string();
        assert_eq!(e, "--anchor: no player \"zed\" in the games");
        let mut r = request(f.path());
        r.white_advantage = "lots";
        let e = rate(&r, &mut |_| {}).expect_err("not a number").to_string();
        assert_eq!(
            e,
            "--white-advantage \"lots\": expected fit or a number: invalid float literal"
        );
    }

    #[test]
    fn the_white_advantage_is_fit_or_a_number_of_elo() {
        assert_eq!(parse_advantage("fit").ok(), Some(Advantage::Fit));
        assert_eq!(parse_advantage("35").ok(), Some(Advantage::Fixed(35.0)));
        let f = csv();
        let mut r = request(f.path());
        r.white_advantage = "-20";
        r.method = Choice::One(Method::Uscf);
        let options = r.options().expect("options");
        assert_eq!(options.mle.advantage, Advantage::Fixed(-20.0));
        assert_eq!(options.method, Method::Uscf);
        assert_eq!(options.elo_world.repetitions, 3);
    }

    #[test]
    fn periods_are_titled_by_year() {
        assert_eq!(Period::Whole.title(), "");
        assert_eq!(Period::AllYears.title(), "all games");
        assert_eq!(Period::Year(1997).title(), "1997");
        assert_eq!(Period::Undated.title(), "no date");
    }

    #[test]
    fn predict_cross_validates_instead_of_rating() {
        let f = csv();
        let mut r = request(f.path());
        r.predict = Some(2);
        let out = rate(&r, &mut |_| {}).expect("cross-validated");
        let Rated::Prediction { cv, table } = out.rated else {
            panic!("a prediction, not ratings")
        };
        assert_eq!(cv.folds, 2);
        assert_eq!(table.rows.len(), cv.scores.len());
    }
}
