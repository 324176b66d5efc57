//! The running score of a match and the numbers testers read from it.

use eloworld_ratings::convert::{IntervalKind, MatchStats};
use eloworld_ratings::sprt::{PairStats, Pentanomial, Sprt, SprtDecision};
use eloworld_ratings::{PairedScore, Wdl};

/// The running score of a match, from the first engine's side: games and game pairs
/// ([`PairedScore`]), and the games lost on time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchTally {
    /// Games, and the pentanomial counts of finished pairs.
    pub score: PairedScore,
    /// Games lost on time.
    pub forfeits: u64,
}

impl MatchTally {
    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.score.games()
    }

    /// The log-likelihood ratio of `sprt` on this score.
    #[must_use]
    pub fn llr(&self, sprt: &Sprt, paired: bool) -> f64 {
        self.score.llr(sprt, paired)
    }
}

/// A match's score in the numbers testers read, computed once for `eloworld match`'s report
/// and the dashboard's headline: Elo (and nElo for pairs) with the 95% interval, LOS, the
/// draw and pair ratios, W/D/L, the pentanomial counts, and the LLR against its bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Headline {
    /// Games, from the first player's side.
    pub wdl: Wdl,
    /// The first player's points.
    pub points: f64,
    /// Its score in percent.
    pub percent: f64,
    /// The pairs' statistics (fastchess's figures), when the match is counted in pairs.
    pub pairs: Option<(Pentanomial, PairStats)>,
    /// The Elo difference with its exact 95% bounds (per pair, or per game).
    pub bounds: MatchStats,
    /// The Elo estimate in the form the games allow (the front ends word it).
    pub elo: EloFigure,
    /// The likelihood of superiority, 0 to 1.
    pub los: f64,
    /// Draws (of games, or of pairs' 1–1 results) in percent.
    pub draw_ratio: f64,
    /// The SPRT's state.
    pub llr: Option<LlrLine>,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LlrLine {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// Its lower bound (H0 accepted below).
    pub lower: f64,
    /// Its upper bound (H1 accepted above).
    pub upper: f64,
    /// H0's Elo.
    pub elo0: f64,
    /// H1's Elo.
    pub elo1: f64,
    /// How far towards the bound it heads for, in percent.
    pub progress_percent: f64,
    /// The decision.
    pub decision: SprtDecision,
}

impl Headline {
    /// The headline of `score` (`paired`: counted in game pairs), with `sprt`'s state.
    #[must_use]
    pub fn of(score: &PairedScore, sprt: Option<&Sprt>, paired: bool) -> Headline {
        // In pairs, the games of finished pairs (as fastchess reports them), so that
        // `Games:` is always twice the pentanomial's pairs.
        let wdl = if paired && score.pairs.pairs() > 0 {
            score.paired_wdl
        } else {
            score.wdl
        };
        let points = wdl.points();
        let games = (wdl.games() as f64).max(1.0);
        let percent = 100.0 * points / games;
        let llr = sprt.map(|s| {
            let llr = score.llr(s, paired);
            let c = s.config();
            LlrLine {
                llr,
                lower: s.lower_bound(),
                upper: s.upper_bound(),
                elo0: c.elo0,
                elo1: c.elo1,
                progress_percent: s.progress_percent(llr),
                decision: s.decide(llr),
            }
        });
        if paired && score.pairs.pairs() > 0 {
            let stats = PairStats::new(&score.pairs);
            let bounds = MatchStats::from_pentanomial(score.pairs.counts());
            Headline {
                wdl,
                points,
                percent,
                elo: EloFigure::of(Some(&stats), &bounds, ScoreUnit::Pair),
                los: stats.los,
                draw_ratio: stats.draw_ratio_percent,
                pairs: Some((score.pairs, stats)),
                bounds,
                llr,
            }
        } else {
            let bounds = MatchStats::from_wdl(wdl.wins, wdl.draws, wdl.losses);
            let draw_ratio = 100.0 * wdl.draws as f64 / games;
            Headline {
                wdl,
                points,
                percent,
                elo: EloFigure::of(None, &bounds, ScoreUnit::Game),
                los: bounds.los,
                draw_ratio,
                pairs: None,
                bounds,
                llr,
            }
        }
    }
}

/// What the score is counted in: games, or game pairs (pentanomial).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreUnit {
    /// Single games.
    Game,
    /// Game pairs from one opening with colours swapped.
    Pair,
}

impl ScoreUnit {
    /// The unit's word: "game" or "pair".
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            ScoreUnit::Game => "game",
            ScoreUnit::Pair => "pair",
        }
    }
}

/// The Elo estimate of a match in the form its games allow: fastchess's `x +/- e` (with nElo
/// for pairs) when the interval is two-sided and finite; else what the games bound, as
/// `match-stats` says it (a one-sided 95% bound when every unit was won or lost, the exact
/// interval when all had the same result or the `+/-` form is not finite). An end of an
/// interval past 0 or 100% is infinite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EloFigure {
    /// The estimate and its 95% half-width, with nElo and its half-width for pairs
    /// (fastchess's `Elo: x +/- e, nElo: n +/- ne`).
    PlusMinus {
        /// The Elo difference.
        elo: f64,
        /// The 95% half-width.
        error: f64,
        /// nElo and its 95% half-width, when counted in pairs.
        normalized: Option<(f64, f64)>,
    },
    /// The estimate with its exact 95% interval.
    Interval {
        /// The Elo difference.
        elo: f64,
        /// The interval's ends.
        low: f64,
        /// The interval's upper end.
        high: f64,
    },
    /// Every unit won: unbounded above, a one-sided 95% lower bound.
    AllWon {
        /// What was counted.
        unit: ScoreUnit,
        /// The lower bound.
        low: f64,
    },
    /// Every unit lost: unbounded below, a one-sided 95% upper bound.
    AllLost {
        /// What was counted.
        unit: ScoreUnit,
        /// The upper bound.
        high: f64,
    },
    /// Every unit had the same (drawn or split) result: the estimate and its exact interval.
    NoSpread {
        /// What was counted.
        unit: ScoreUnit,
        /// The Elo difference.
        elo: f64,
        /// The interval's lower end.
        low: f64,
        /// The interval's upper end.
        high: f64,
    },
}

impl EloFigure {
    /// The figure of `bounds` (and of `pairs`' statistics when counted in pairs).
    fn of(pairs: Option<&PairStats>, bounds: &MatchStats, unit: ScoreUnit) -> EloFigure {
        match bounds.interval {
            IntervalKind::LowerBoundOnly => {
                return EloFigure::AllWon {
                    unit,
                    low: bounds.elo_low,
                }
            }
            IntervalKind::UpperBoundOnly => {
                return EloFigure::AllLost {
                    unit,
                    high: bounds.elo_high,
                }
            }
            IntervalKind::NoSpread => {
                return EloFigure::NoSpread {
                    unit,
                    elo: bounds.elo,
                    low: bounds.elo_low,
                    high: bounds.elo_high,
                }
            }
            IntervalKind::TwoSided => {}
        }
        let interval = EloFigure::Interval {
            elo: bounds.elo,
            low: bounds.elo_low,
            high: bounds.elo_high,
        };
        match pairs {
            Some(s) => {
                if [s.elo, s.elo_error, s.nelo, s.nelo_error]
                    .iter()
                    .all(|x| x.is_finite())
                {
                    EloFigure::PlusMinus {
                        elo: s.elo,
                        error: s.elo_error,
                        normalized: Some((s.nelo, s.nelo_error)),
                    }
                } else {
                    interval
                }
            }
            None => {
                let half = (bounds.elo_high - bounds.elo_low) / 2.0;
                if half.is_finite() && bounds.elo.is_finite() {
                    EloFigure::PlusMinus {
                        elo: bounds.elo,
                        error: half,
                        normalized: None,
                    }
                } else {
                    interval
                }
            }
        }
    }
}

/// The figure as fastchess writes it after `Elo: ` (`12.34 +/- 5.67, nElo: 20.00 +/- 9.50`),
/// or what the games bound as `match-stats` says it: "unbounded" for an end of the interval
/// past 0 or 100%. `eloworld match` prints it after `Elo: `; the dashboard shows it alone.
impl std::fmt::Display for EloFigure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let signed = |x: f64| {
            if x.is_finite() {
                format!("{x:+.2}")
            } else {
                "unbounded".to_owned()
            }
        };
        match *self {
            EloFigure::PlusMinus {
                elo,
                error,
                normalized: Some((nelo, nerror)),
            } => write!(
                f,
                "{elo:.2} +/- {error:.2}, nElo: {nelo:.2} +/- {nerror:.2}"
            ),
            EloFigure::PlusMinus {
                elo,
                error,
                normalized: None,
            } => write!(f, "{elo:.2} +/- {error:.2}"),
            EloFigure::Interval { elo, low, high } => write!(
                f,
                "{elo:.2} (95% interval {} .. {})",
                signed(low),
                signed(high)
            ),
            EloFigure::AllWon { unit, low } => write!(
                f,
                "unbounded above (every {} won), one-sided 95% lower bound {}",
                unit.word(),
                signed(low)
            ),
            EloFigure::AllLost { unit, high } => write!(
                f,
                "unbounded below (every {} lost), one-sided 95% upper bound {}",
                unit.word(),
                signed(high)
            ),
            EloFigure::NoSpread {
                unit,
                elo,
                low,
                high,
            } => write!(
                f,
                "{elo:.2} (95% interval {} .. {}: every {} had the same result)",
                signed(low),
                signed(high),
                unit.word()
            ),
        }
    }
}
