//! TEMPORARY: the shape of the ratings crate's coming one entry point, over today's modules.
#![allow(missing_docs, clippy::missing_errors_doc)]

use eloworld_ratings::{
    elo_world::{EloWorld, EloWorldConfig},
    markov,
    mle::{Mle, MleConfig},
    rollason::{Rollason, RollasonConfig},
    uscf::{Uscf, UscfConfig, UscfRatings},
};
pub use eloworld_ratings::{GameList as Games, Score};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Mle,
    Uscf,
    EloWorld,
    Rollason,
    Markov,
}

impl Method {
    pub const ALL: [Method; 5] = [
        Method::Mle,
        Method::Uscf,
        Method::EloWorld,
        Method::Rollason,
        Method::Markov,
    ];
    pub const fn name(self) -> &'static str {
        match self {
            Method::Mle => "mle",
            Method::Uscf => "uscf",
            Method::EloWorld => "elo-world",
            Method::Rollason => "rollason",
            Method::Markov => "markov",
        }
    }
    pub const fn description(self) -> &'static str {
        self.name()
    }
    pub const fn is_elo(self) -> bool {
        !matches!(self, Method::Markov)
    }
}

pub struct Options {
    pub method: Method,
    pub uscf: UscfConfig,
}

impl Options {
    pub const fn new(method: Method) -> Options {
        Options {
            method,
            uscf: UscfConfig::new(),
        }
    }
}

#[derive(Debug)]
pub enum Detail {
    Uscf(UscfRatings),
    Other,
}

#[derive(Debug)]
pub struct Ratings {
    pub values: Vec<f64>,
    pub intervals: Option<Vec<(f64, f64)>>,
    pub detail: Detail,
}

impl Ratings {
    pub fn value(&self, p: usize) -> Option<f64> {
        self.values.get(p).copied().filter(|v| v.is_finite())
    }
    pub fn interval(&self, p: usize) -> Option<(f64, f64)> {
        self.intervals.as_ref()?.get(p).copied()
    }
}

pub fn rate(games: &Games, options: &Options) -> Result<Ratings, String> {
    let counts = games.counts();
    let plain = |values: Vec<f64>| Ratings {
        values,
        intervals: None,
        detail: Detail::Other,
    };
    Ok(match options.method {
        Method::Mle => {
            let r = Mle::new(MleConfig::new())
                .rate(&counts)
                .map_err(|e| e.to_string())?;
            Ratings {
                values: r.ratings.clone(),
                intervals: Some(r.low.iter().copied().zip(r.high.iter().copied()).collect()),
                detail: Detail::Other,
            }
        }
        Method::Uscf => {
            let r = Uscf::new(options.uscf).rate(games);
            Ratings {
                values: r.ratings.clone(),
                intervals: None,
                detail: Detail::Uscf(r),
            }
        }
        Method::EloWorld => {
            let r = EloWorld::new(EloWorldConfig::new())
                .rate(&counts, games.names())
                .map_err(|e| e.to_string())?;
            Ratings {
                values: r.median.clone(),
                intervals: Some(r.q25.iter().copied().zip(r.q75.iter().copied()).collect()),
                detail: Detail::Other,
            }
        }
        Method::Rollason => plain(
            Rollason::new(RollasonConfig {
                max_iterations: 100_000,
                ..RollasonConfig::new()
            })
            .rate(&counts)
            .ratings,
        ),
        Method::Markov => plain(
            markov::champion(&counts)
                .map_err(|e| e.to_string())?
                .into_iter()
                .map(|v| v.unwrap_or(f64::NAN))
                .collect(),
        ),
    })
}
