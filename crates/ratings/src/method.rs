//! Rating as a service: one [`Method`] type, one [`Options`] bundle and one entry point,
//! [`rate`], that every caller (the CLI's `rate`, tournaments, reports, the dashboard) goes
//! through; [`rate_all`] computes every method for the side-by-side table.
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{rate, rate_all, Games, Method, Options, Score};
//! let mut games = Games::new();
//! games.add("strong", "weak", Score::Win, true, None);
//! games.add("weak", "strong", Score::Draw, true, None);
//! let mle = rate(&games, &Options::new(Method::Mle))?;
//! assert!(mle.values[0] > mle.values[1]);
//! let every = rate_all(&games, &Options::default());
//! assert_eq!(every.len(), Method::ALL.len());
//! let method: Method = "elo_world".parse()?;
//! assert_eq!(method, Method::EloWorld);
//! # Ok::<_, eloworld_ratings::RatingError>(())
//! ```

use crate::{
    alpharank::{alpha_rank, AlphaRankConfig},
    bayeselo::{BayesElo, BayesEloConfig, BayesEloRatings},
    elo_world::{EloWorld, EloWorldConfig, EloWorldRatings},
    games::{Games, PairCounts},
    glicko2::{Glicko2, Glicko2Config, Glicko2Ratings},
    markov,
    mle::{Mle, MleConfig, MleRatings, Unbounded},
    nash::{nash_average, NashRatings},
    rollason::{Rollason, RollasonConfig, RollasonRatings},
    trueskill::{TrueSkill, TrueSkillConfig, TrueSkillRatings},
    uscf::{Uscf, UscfConfig, UscfRatings},
    whr::{Whr, WhrConfig, WhrRatings},
    RatingError,
};
use rayon::prelude::*;
use std::fmt;
use std::str::FromStr;

/// A rating method, named as on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// Maximum likelihood (Bradley–Terry) with error bars, as BayesElo and Ordo fit.
    Mle,
    /// Incremental Elo in game order, K = 800/N (US Chess, as the Squava article rates).
    Uscf,
    /// Balanced multi-pass Elo, median of 19 runs (Murphy's Elo World, SIGBOVIK 2019).
    EloWorld,
    /// Iterative points sharing (Rollason's computer-Go ratings).
    Rollason,
    /// p(Champion) of the trophy chain (Murphy's Elo World, section 4).
    Markov,
    /// Glicko-2 over rating periods (Glickman; lichess).
    Glicko2,
    /// TrueSkill, game by game (Herbrich, Minka and Graepel 2006).
    TrueSkill,
    /// Whole-History Rating (Coulom 2008).
    Whr,
    /// BayesElo's model: eloAdvantage, eloDraw, virtual draws, MM fit (Coulom's bayeselo).
    BayesElo,
    /// Nash averaging: payoff against the maximum-entropy Nash equilibrium (Balduzzi et al.
    /// 2018).
    Nash,
    /// α-Rank's stationary mass (Omidshafiei et al. 2019).
    AlphaRank,
}

impl Method {
    /// Every method, in the order of the side-by-side table.
    pub const ALL: [Method; 11] = [
        Method::Mle,
        Method::Uscf,
        Method::EloWorld,
        Method::Rollason,
        Method::Markov,
        Method::Glicko2,
        Method::TrueSkill,
        Method::Whr,
        Method::BayesElo,
        Method::Nash,
        Method::AlphaRank,
    ];

    /// The methods of the source papers and maximum likelihood: the columns of reports and
    /// the dashboard.
    pub const CLASSIC: [Method; 5] = [
        Method::Mle,
        Method::Uscf,
        Method::EloWorld,
        Method::Rollason,
        Method::Markov,
    ];

    /// Returns the method's one spelling on the command line and in tables.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Method::Mle => "mle",
            Method::Uscf => "uscf",
            Method::EloWorld => "elo-world",
            Method::Rollason => "rollason",
            Method::Markov => "markov",
            Method::Glicko2 => "glicko2",
            Method::TrueSkill => "trueskill",
            Method::Whr => "whr",
            Method::BayesElo => "bayeselo",
            Method::Nash => "nash",
            Method::AlphaRank => "alpharank",
        }
    }

    /// Returns a one-line description naming the method's source.
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            Method::Mle => {
                "maximum likelihood (Bradley–Terry) with error bars, as BayesElo and Ordo"
            }
            Method::Uscf => {
                "incremental Elo in game order, K = 800/N (US Chess, as the Squava article)"
            }
            Method::EloWorld => "balanced multi-pass Elo, median of 19 runs (Murphy's Elo World)",
            Method::Rollason => "iterative points sharing (Rollason's computer-Go ratings)",
            Method::Markov => {
                "p(Champion), the trophy chain's stationary distribution (Murphy's Elo World)"
            }
            Method::Glicko2 => "Glicko-2 over rating periods, ± 1.96 RD (Glickman; lichess)",
            Method::TrueSkill => {
                "TrueSkill mean μ on its own scale (25 ± 25/3 at the start), ± 1.96σ (Herbrich, Minka, Graepel)"
            }
            Method::Whr => "Whole-History Rating, last rating ± 1.96σ (Coulom 2008)",
            Method::BayesElo => {
                "BayesElo's model: eloAdvantage, eloDraw, 2 virtual draws, MM fit (Coulom's bayeselo)"
            }
            Method::Nash => {
                "Nash averaging: Elo-scale margin against the max-entropy Nash mixture, 0 in its support (Balduzzi et al.)"
            }
            Method::AlphaRank => {
                "α-Rank mass, the stationary distribution of the evolutionary chain (Omidshafiei et al.)"
            }
        }
    }

    /// Returns the valid names, comma-separated (for help and error texts).
    #[must_use]
    pub fn valid_names() -> String {
        Method::ALL.map(Method::name).join(", ")
    }

    /// Returns true when the method gives a rating on the Elo scale, one an anchor can shift
    /// (p(Champion) and α-Rank are probabilities, TrueSkill has its own scale, Nash averaging
    /// a margin that is 0 in the equilibrium's support).
    #[must_use]
    pub const fn is_elo(self) -> bool {
        !matches!(
            self,
            Method::Markov | Method::TrueSkill | Method::Nash | Method::AlphaRank
        )
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = RatingError;

    /// Reads a method's name; `elo_world` is accepted for `elo-world`.
    fn from_str(s: &str) -> Result<Method, RatingError> {
        match s {
            "elo_world" => Ok(Method::EloWorld),
            _ => Method::ALL
                .into_iter()
                .find(|m| m.name() == s)
                .ok_or_else(|| RatingError::UnknownMethod {
                    given: s.to_owned(),
                    valid: Method::valid_names(),
                }),
        }
    }
}

/// A player held at a rating: every method's scale is shifted so that it gets this value.
#[derive(Clone, Debug, PartialEq)]
pub struct Anchor {
    /// The player's name (matched as [`Games::find`] matches).
    pub player: String,
    /// Its rating.
    pub rating: f64,
}

/// What to compute and every method's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The method [`rate`] runs ([`rate_all`] runs every one).
    pub method: Method,
    /// Settings of [`Method::Mle`] (its `anchor` is set from [`Options::anchor`]).
    pub mle: MleConfig,
    /// Settings of [`Method::Uscf`].
    pub uscf: UscfConfig,
    /// Settings of [`Method::EloWorld`].
    pub elo_world: EloWorldConfig,
    /// Settings of [`Method::Rollason`].
    pub rollason: RollasonConfig,
    /// Settings of [`Method::Glicko2`].
    pub glicko2: Glicko2Config,
    /// Settings of [`Method::TrueSkill`].
    pub trueskill: TrueSkillConfig,
    /// Settings of [`Method::Whr`].
    pub whr: WhrConfig,
    /// Settings of [`Method::BayesElo`].
    pub bayeselo: BayesEloConfig,
    /// Settings of [`Method::AlphaRank`].
    pub alpharank: AlphaRankConfig,
    /// A player held at a rating (the Elo-scale methods).
    pub anchor: Option<Anchor>,
}

impl Options {
    /// Returns every method's defaults, to run `method`.
    #[must_use]
    pub const fn new(method: Method) -> Options {
        Options {
            method,
            mle: MleConfig::new(),
            uscf: UscfConfig::new(),
            elo_world: EloWorldConfig::new(),
            rollason: RollasonConfig::new(),
            glicko2: Glicko2Config::new(),
            trueskill: TrueSkillConfig::new(),
            whr: WhrConfig::new(),
            bayeselo: BayesEloConfig::new(),
            alpharank: AlphaRankConfig::new(),
            anchor: None,
        }
    }

    /// Returns the options with another method.
    #[must_use]
    pub fn with_method(&self, method: Method) -> Options {
        Options {
            method,
            ..self.clone()
        }
    }

    /// Returns the options with another method and no anchor.
    #[must_use]
    pub fn without_anchor(&self, method: Method) -> Options {
        Options {
            method,
            anchor: None,
            ..self.clone()
        }
    }
}

impl Default for Options {
    /// Runs [`Method::Mle`] with every method's defaults.
    fn default() -> Options {
        Options::new(Method::Mle)
    }
}

/// Why a rating is not an ordinary estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flag {
    /// The likelihood grows without end as the rating rises (the player, or its subgroup,
    /// never lost to the rest): the value shown is a lower bound.
    UnboundedAbove,
    /// The rating falls without end (never scored against the rest): an upper bound.
    UnboundedBelow,
    /// The iteration stopped at its documented bound (Rollason: an unbeaten player absorbs
    /// every point).
    AtBound,
    /// The player is in a group that never met the largest one: its rating is on its own
    /// scale.
    SeparateGroup,
}

impl Flag {
    /// Returns the flag's one word, as the CSV and JSON `flag` columns print it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Flag::UnboundedAbove => "unbounded-above",
            Flag::UnboundedBelow => "unbounded-below",
            Flag::AtBound => "at-bound",
            Flag::SeparateGroup => "separate-group",
        }
    }
}

impl fmt::Display for Flag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a method computed beyond the common columns.
#[derive(Clone, Debug, PartialEq)]
pub enum Detail {
    /// Maximum likelihood: errors, groups, first-move advantage, likelihood of superiority.
    Mle(MleRatings),
    /// US Chess: games counted and each player's history.
    Uscf(UscfRatings),
    /// Elo World: quartiles and the sampling.
    EloWorld(EloWorldRatings),
    /// Rollason: points and the iteration.
    Rollason(RollasonRatings),
    /// p(Champion): no more than the values.
    Markov,
    /// Glicko-2: deviations, volatilities, periods.
    Glicko2(Glicko2Ratings),
    /// TrueSkill: means and deviations.
    TrueSkill(TrueSkillRatings),
    /// WHR: errors and each player's history.
    Whr(WhrRatings),
    /// BayesElo: the model's own ratings, advantage, draw Elo and scale.
    BayesElo(BayesEloRatings),
    /// Nash averaging: the equilibrium mass and the skills.
    Nash(NashRatings),
    /// α-Rank: no more than the values (the mass).
    AlphaRank,
}

/// The ratings of one method, one entry per player of the [`Games`] (indexed by
/// [`crate::PlayerId`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// The method.
    pub method: Method,
    /// The rating (a probability for [`Method::Markov`] and [`Method::AlphaRank`], μ for
    /// [`Method::TrueSkill`], the margin against the Nash mixture for [`Method::Nash`]); NaN
    /// where the method rates no one.
    pub values: Vec<f64>,
    /// A 95% interval (MLE, Glicko-2, TrueSkill, WHR, BayesElo) or the quartiles (Elo World),
    /// where the method gives one.
    pub intervals: Option<Vec<(f64, f64)>>,
    /// Why a value is not an ordinary estimate, per player.
    pub flags: Vec<Option<Flag>>,
    /// Notes on the whole computation (why a field collapsed, a bound reached), for the user.
    pub notes: Vec<String>,
    /// The method's own results.
    pub detail: Detail,
}

impl Ratings {
    /// Returns the value of a player, if the method rated it.
    #[must_use]
    pub fn value(&self, player: usize) -> Option<f64> {
        self.values.get(player).copied().filter(|v| v.is_finite())
    }

    /// Returns the interval of a player, if the method gives one.
    #[must_use]
    pub fn interval(&self, player: usize) -> Option<(f64, f64)> {
        self.intervals.as_ref()?.get(player).copied()
    }

    /// Returns the flag of a player.
    #[must_use]
    pub fn flag(&self, player: usize) -> Option<Flag> {
        self.flags.get(player).copied().flatten()
    }
}

/// Rates `games` by `options.method`.
///
/// # Errors
/// [`RatingError::NoGames`] without games between two different players;
/// [`RatingError::UnknownPlayer`] for an anchor not in the games; a method's own errors
/// (an empty cell for Elo World, a singular system).
pub fn rate(games: &Games, options: &Options) -> Result<Ratings, RatingError> {
    let counts = games.counts();
    rate_counted(games, &counts, options)
}

/// Rates `games` by every method (in parallel), in the order of [`Method::ALL`]; a method
/// that cannot rate these games gives its error in place.
#[must_use]
pub fn rate_all(games: &Games, options: &Options) -> Vec<(Method, Result<Ratings, RatingError>)> {
    let counts = games.counts();
    Method::ALL
        .par_iter()
        .map(|&m| (m, rate_counted(games, &counts, &options.with_method(m))))
        .collect()
}

/// Fits the maximum-likelihood ratings with all their detail (groups, intervals, bounds):
/// the one place [`Mle`] is constructed, for [`rate`] and the ladder builder alike.
///
/// # Errors
/// As [`Mle::rate`].
pub fn fit_mle(counts: &PairCounts, config: MleConfig) -> Result<MleRatings, RatingError> {
    Mle::new(config).rate(counts)
}

/// Rates with the counts already made (the one place each method is constructed).
pub(crate) fn rate_counted(
    games: &Games,
    counts: &PairCounts,
    options: &Options,
) -> Result<Ratings, RatingError> {
    let n = games.player_count();
    if counts.groups().iter().all(|g| g.len() < 2) {
        return Err(RatingError::NoGames);
    }
    let anchor = match &options.anchor {
        Some(a) => Some((
            games
                .find(&a.player)
                .ok_or_else(|| RatingError::UnknownPlayer(a.player.clone()))?
                .index(),
            a.rating,
        )),
        None => None,
    };
    let shift = |values: &mut [f64]| {
        if let Some((k, elo)) = anchor {
            let d = elo - values[k];
            values.iter_mut().for_each(|v| *v += d);
        }
    };
    let mut ratings = match options.method {
        Method::Mle => mle_ratings(counts, options, anchor, n)?,
        Method::Uscf => {
            let mut r = Uscf::new(options.uscf).rate(games);
            shift(&mut r.ratings);
            Ratings {
                method: Method::Uscf,
                values: r.ratings.clone(),
                intervals: None,
                flags: vec![None; n],
                notes: Vec::new(),
                detail: Detail::Uscf(r),
            }
        }
        Method::EloWorld => {
            let mut r = EloWorld::new(options.elo_world).rate(counts, games.names())?;
            if let Some((k, elo)) = anchor {
                let d = elo - r.median[k];
                for v in [&mut r.median, &mut r.q25, &mut r.q75] {
                    v.iter_mut().for_each(|x| *x += d);
                }
            }
            Ratings {
                method: Method::EloWorld,
                values: r.median.clone(),
                intervals: Some(r.q25.iter().copied().zip(r.q75.iter().copied()).collect()),
                flags: vec![None; n],
                notes: Vec::new(),
                detail: Detail::EloWorld(r),
            }
        }
        Method::Rollason => rollason_ratings(games, counts, options, anchor, n),
        Method::Markov => markov_ratings(games, counts, n)?,
        Method::Glicko2 => {
            let mut r = Glicko2::new(options.glicko2).rate(games);
            shift(&mut r.ratings);
            Ratings {
                method: Method::Glicko2,
                values: r.ratings.clone(),
                intervals: Some(within(&r.ratings, &r.deviations)),
                flags: vec![None; n],
                notes: Vec::new(),
                detail: Detail::Glicko2(r),
            }
        }
        Method::TrueSkill => {
            let r = TrueSkill::new(options.trueskill).rate(games);
            Ratings {
                method: Method::TrueSkill,
                values: r.means.clone(),
                intervals: Some(within(&r.means, &r.deviations)),
                flags: vec![None; n],
                notes: Vec::new(),
                detail: Detail::TrueSkill(r),
            }
        }
        Method::Whr => {
            let mut r = Whr::new(options.whr).rate(games);
            shift(&mut r.ratings);
            let mut notes = Vec::new();
            if !r.converged {
                notes.push(format!(
                    "whr: not settled after {} cycles of Newton's steps; the ratings are the last iterate's",
                    r.iterations
                ));
            }
            Ratings {
                method: Method::Whr,
                values: r.ratings.clone(),
                intervals: Some(within(&r.ratings, &r.errors)),
                flags: vec![None; n],
                notes,
                detail: Detail::Whr(r),
            }
        }
        Method::BayesElo => {
            let mut r = BayesElo::new(options.bayeselo).rate(counts);
            shift(&mut r.ratings);
            let mut notes = Vec::new();
            if !r.converged {
                notes.push(format!(
                    "bayeselo: the MM iteration did not settle in {} passes",
                    r.iterations
                ));
            }
            Ratings {
                method: Method::BayesElo,
                values: r.ratings.clone(),
                intervals: Some(within(&r.ratings, &r.errors)),
                flags: vec![None; n],
                notes,
                detail: Detail::BayesElo(r),
            }
        }
        Method::Nash => {
            let r = nash_average(counts)?;
            Ratings {
                method: Method::Nash,
                values: r.skill.clone(),
                intervals: None,
                flags: vec![None; n],
                notes: Vec::new(),
                detail: Detail::Nash(r),
            }
        }
        Method::AlphaRank => {
            let p = alpha_rank(counts, options.alpharank)?;
            Ratings {
                method: Method::AlphaRank,
                values: p.iter().map(|v| v.unwrap_or(f64::NAN)).collect(),
                intervals: None,
                flags: vec![None; n],
                notes: Vec::new(),
                detail: Detail::AlphaRank,
            }
        }
    };
    ratings.values.resize(n, f64::NAN);
    ratings.flags.resize(n, None);
    Ok(ratings)
}

/// The maximum-likelihood ratings with their flags, and notes when the fit did not converge
/// or bootstrap resamples had no finite maximum.
fn mle_ratings(
    counts: &PairCounts,
    options: &Options,
    anchor: Option<(usize, f64)>,
    n: usize,
) -> Result<Ratings, RatingError> {
    let config = MleConfig {
        anchor,
        ..options.mle
    };
    let r = fit_mle(counts, config)?;
    let flags = (0..n)
        .map(|p| match r.unbounded[p] {
            Some(Unbounded::Above) => Some(Flag::UnboundedAbove),
            Some(Unbounded::Below) => Some(Flag::UnboundedBelow),
            None if r.group[p] > 0 && r.group[p] != usize::MAX => Some(Flag::SeparateGroup),
            None => None,
        })
        .collect();
    let mut notes = Vec::new();
    if !r.converged {
        let steps = options.mle.newton_steps;
        notes.push(format!(
            "mle: not converged: Newton's iterations did not settle within {steps} step{}; the ratings and intervals are the last iterate's, not the maximum",
            if steps == 1 { "" } else { "s" }
        ));
    }
    if r.bootstrapped && r.undefined_resamples > 0 {
        notes.push(format!(
            "mle: {} of {} bootstrap resamples had no finite maximum for some player; those players were placed at their bounds in them (none dropped)",
            r.undefined_resamples, options.mle.bootstrap
        ));
    }
    Ok(Ratings {
        method: Method::Mle,
        values: r.ratings.clone(),
        intervals: Some(r.low.iter().copied().zip(r.high.iter().copied()).collect()),
        flags,
        notes,
        detail: Detail::Mle(r),
    })
}

/// Rollason's ratings with their at-bound flags, and a note when the field collapsed or the
/// iteration did not settle.
fn rollason_ratings(
    games: &Games,
    counts: &PairCounts,
    options: &Options,
    anchor: Option<(usize, f64)>,
    n: usize,
) -> Ratings {
    let mut r = Rollason::new(options.rollason).rate(counts);
    if let Some((k, elo)) = anchor {
        r.shift(elo - r.ratings[k]);
    }
    let mut notes = Vec::new();
    if r.collapsed {
        let top: Vec<_> = (0..n)
            .filter(|&p| r.at_bound[p])
            .map(|p| crate::shown_name(&games.names()[p]))
            .collect();
        notes.push(format!(
            "rollason: the field collapsed: {} never lost a point to the rest, and points sharing gives such players every point in the limit (the algorithm's own fixed point) while the rest fall towards {:.0}; {} (flag at-bound), so their value is not a rating",
            top.join(", "),
            r.offset(),
            if r.converged {
                format!("the iteration settled there after {} iterations", r.iterations)
            } else {
                format!(
                    "the iteration stopped after {} iterations when their share reached {} times the starting share",
                    r.iterations,
                    crate::rollason::COLLAPSE_BOUND
                )
            }
        ));
    } else if !r.converged {
        notes.push(format!(
            "rollason: not settled after {} iterations",
            r.iterations
        ));
    }
    Ratings {
        method: Method::Rollason,
        values: r.ratings.clone(),
        intervals: None,
        flags: r
            .at_bound
            .iter()
            .map(|&b| b.then_some(Flag::AtBound))
            .collect(),
        notes,
        detail: Detail::Rollason(r),
    }
}

/// p(Champion) of every player, with a note naming the pairs that never met.
fn markov_ratings(games: &Games, counts: &PairCounts, n: usize) -> Result<Ratings, RatingError> {
    let p = markov::champion(counts)?;
    let missing = markov::missing_pairs(counts);
    let mut notes = Vec::new();
    if let Some(&(a, b)) = missing.first() {
        let names = games.names();
        notes.push(format!(
            "markov: {} pairs never met (first {} and {}); the trophy stays with its holder when the opponent picked never met it, so players who met few others hold it longer than their strength says",
            missing.len(),
            crate::shown_name(&names[a]),
            crate::shown_name(&names[b])
        ));
    }
    Ok(Ratings {
        method: Method::Markov,
        values: p.iter().map(|v| v.unwrap_or(f64::NAN)).collect(),
        intervals: None,
        flags: vec![None; n],
        notes,
        detail: Detail::Markov,
    })
}

/// Returns the 95% intervals value ± 1.96·error.
fn within(values: &[f64], errors: &[f64]) -> Vec<(f64, f64)> {
    values
        .iter()
        .zip(errors)
        .map(|(v, e)| (v - 1.96 * e, v + 1.96 * e))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;

    #[test]
    fn every_method_has_one_spelling_and_elo_world_an_alias() {
        for m in Method::ALL {
            assert_eq!(m.name().parse::<Method>(), Ok(m));
            assert_eq!(m.to_string(), m.name());
        }
        assert_eq!("elo_world".parse::<Method>(), Ok(Method::EloWorld));
        let e = "ELO".parse::<Method>().err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("unknown rating method \"ELO\": expected one of mle, uscf, elo-world, rollason, markov, glicko2, trueskill, whr, bayeselo, nash, alpharank")
        );
    }

    #[test]
    fn rate_all_gives_every_method_in_order() {
        let mut g = Games::new();
        for _ in 0..3 {
            g.add("a", "b", Score::Win, true, None);
            g.add("b", "a", Score::Draw, true, None);
            g.add("b", "c", Score::Win, true, None);
            g.add("c", "b", Score::Loss, true, None);
            g.add("a", "c", Score::Draw, true, None);
            g.add("c", "a", Score::Loss, true, None);
        }
        let all = rate_all(&g, &Options::default());
        assert_eq!(all.iter().map(|(m, _)| *m).collect::<Vec<_>>(), Method::ALL);
        for (m, r) in &all {
            let r = r.as_ref().unwrap_or_else(|e| panic!("{m}: {e}"));
            assert_eq!(r.method, *m);
            assert_eq!(r.values.len(), 3);
            assert!(r.values[0] > r.values[2], "{m}: {:?}", r.values);
        }
    }

    #[test]
    fn an_anchor_shifts_every_elo_method() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("b", "a", Score::Draw, true, None);
        g.add("a", "b", Score::Loss, false, None);
        let mut options = Options::new(Method::Uscf);
        options.anchor = Some(Anchor {
            player: "B".to_owned(),
            rating: 2000.0,
        });
        for m in [
            Method::Mle,
            Method::Uscf,
            Method::Rollason,
            Method::Glicko2,
            Method::Whr,
            Method::BayesElo,
        ] {
            let r = rate(&g, &options.with_method(m)).unwrap_or_else(|e| panic!("{m}: {e}"));
            assert!((r.values[1] - 2000.0).abs() < 1e-9, "{m}: {:?}", r.values);
        }
        options.anchor = Some(Anchor {
            player: "nobody".to_owned(),
            rating: 0.0,
        });
        assert_eq!(
            rate(&g, &options),
            Err(RatingError::UnknownPlayer("nobody".to_owned()))
        );
    }

    #[test]
    fn games_of_a_player_against_itself_only_are_no_games() {
        let mut g = Games::new();
        g.add("a", "a", Score::Win, true, None);
        for m in Method::ALL {
            assert_eq!(rate(&g, &Options::new(m)), Err(RatingError::NoGames), "{m}");
        }
    }
}
