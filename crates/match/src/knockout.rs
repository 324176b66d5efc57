//! A knockout of engines (cutechess-cli's `-tournament knockout`), played stage by stage.
//!
//! The bracket is seeded in the order the engines are given ([`schedule::knockout`]): the
//! top seeds have the byes when the field is not a power of two, and the two top seeds can
//! meet only in the final. Each encounter plays `-rounds × -games` games rounded up to
//! whole colour-swapped pairs (at least one pair), each pair from one opening. An encounter
//! that ends level plays one more pair, again and again up to [`TIEBREAK_PAIRS`] pairs; one
//! still level after them goes to the higher seed (cutechess-cli sends the first player of
//! a level encounter through at once).
//!
//! Each stage — a round of the bracket, or one of its tiebreaks — is a tournament of its own
//! in the store, `NAME/round-R` and `NAME/round-R/tiebreak-T`, so a killed knockout resumes
//! as any tournament does: rerun, every stage's plan is made again from the stored results
//! before it, its stored games are kept and only the games left are played.
//!
//! [`schedule::knockout`]: eloworld_schedule::knockout

use super::plan::{match_config, match_openings};
use super::run::{begin_under_free_name, MatchEvent, MatchRun, Stage, Watcher};
use super::{MatchSettings, MatchTally};
use eloworld_app::error::AppResult;
use eloworld_app::session::Session;
use eloworld_games::Chess;
use eloworld_players::Registry;
use eloworld_schedule::knockout::first_round;
use eloworld_tournament::{Plan, ResultRow, RunSummary};
use std::fmt;

/// The most tiebreak pairs an encounter plays before the higher seed goes through.
pub const TIEBREAK_PAIRS: u32 = 4;

/// How an encounter was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The higher seed had no opponent.
    Bye,
    /// By the score of its main games.
    Score,
    /// By the score after this many tiebreak pairs.
    Tiebreak(u32),
    /// Level after every tiebreak pair: the higher seed goes through.
    Seed,
    /// Not decided yet (the knockout was stopped).
    Open,
}

/// One encounter of a bracket: two engines (indices into the engines, the higher seed
/// first) or a seed with a bye.
#[derive(Clone, Debug, PartialEq)]
pub struct Encounter {
    /// The higher seed.
    pub first: usize,
    /// Its opponent, `None` for a bye.
    pub second: Option<usize>,
    /// Points of each, tiebreak pairs included.
    pub points: (f64, f64),
    /// Games played, tiebreak pairs included.
    pub games: u32,
    /// How it was decided.
    pub decision: Decision,
}

impl Encounter {
    /// Who goes on (`None` while it is open).
    #[must_use]
    pub fn winner(&self) -> Option<usize> {
        match (self.decision, self.second) {
            (Decision::Open, _) => None,
            (Decision::Bye | Decision::Seed, _) | (_, None) => Some(self.first),
            (Decision::Score | Decision::Tiebreak(_), Some(second)) => {
                Some(if self.points.0 >= self.points.1 {
                    self.first
                } else {
                    second
                })
            }
        }
    }

    /// Adds the result of a stored game of this encounter (either colour).
    fn count(&mut self, names: &[String], row: &ResultRow) {
        let Some(second) = self.second else { return };
        let (first, other) = (&names[self.first], &names[second]);
        let white_points = row.result.first_score();
        let first_points = if row.white == *first && row.black == *other {
            white_points
        } else if row.white == *other && row.black == *first {
            1.0 - white_points
        } else {
            return;
        };
        self.points.0 += first_points;
        self.points.1 += 1.0 - first_points;
        self.games += 1;
    }

    fn level(&self) -> bool {
        (self.points.0 - self.points.1).abs() < 1e-9
    }
}

/// A knockout's bracket: its rounds in order, each its encounters in draw order.
#[derive(Clone, Debug, PartialEq)]
pub struct Bracket {
    /// The engines' names, in seed order.
    pub names: Vec<String>,
    /// The rounds played or begun.
    pub rounds: Vec<Vec<Encounter>>,
}

impl Bracket {
    /// The knockout's winner, once its final is decided.
    #[must_use]
    pub fn champion(&self) -> Option<&str> {
        match self.rounds.last().map(Vec::as_slice) {
            Some([last]) => last.winner().map(|w| self.names[w].as_str()),
            _ => None,
        }
    }
}

/// The bracket as text, a round a block: `new (1) 1.5 - 0.5 base (4)`, `sf (2) bye`, with
/// how a level encounter was decided, then the winner.
impl fmt::Display for Bracket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seeded = |i: usize| format!("{} ({})", self.names[i], i + 1);
        for (r, round) in self.rounds.iter().enumerate() {
            writeln!(f, "Round {}", r + 1)?;
            for e in round {
                let Some(second) = e.second else {
                    writeln!(f, "  {} bye", seeded(e.first))?;
                    continue;
                };
                let how = match e.decision {
                    Decision::Tiebreak(n) => {
                        format!(
                            " (after {n} tiebreak pair{})",
                            if n == 1 { "" } else { "s" }
                        )
                    }
                    Decision::Seed => format!(
                        " (level after {TIEBREAK_PAIRS} tiebreak pairs: the higher seed goes on)"
                    ),
                    Decision::Open => " (not finished)".to_owned(),
                    Decision::Bye | Decision::Score => String::new(),
                };
                writeln!(
                    f,
                    "  {} {} - {} {}{how}",
                    seeded(e.first),
                    e.points.0,
                    e.points.1,
                    seeded(second)
                )?;
            }
        }
        if let Some(champion) = self.champion() {
            writeln!(f, "Winner: {champion}")?;
        }
        Ok(())
    }
}

/// What the stages add up to.
struct Totals {
    summary: Option<RunSummary>,
    tally: MatchTally,
    rows: Vec<ResultRow>,
    games: u32,
}

impl Totals {
    fn add(&mut self, summary: RunSummary, tally: &MatchTally) {
        self.tally.forfeits += tally.forfeits;
        self.summary = Some(match self.summary.take() {
            None => summary,
            Some(mut total) => {
                total.planned += summary.planned;
                total.done_before += summary.done_before;
                total.stored += summary.stored;
                total.interrupted |= summary.interrupted;
                total.elapsed += summary.elapsed;
                total.playing += summary.playing;
                total
            }
        });
    }

    fn interrupted(&self) -> bool {
        self.summary.as_ref().is_some_and(|s| s.interrupted)
    }
}

/// The store name of a knockout's stage: `BASE/round-R`, or `BASE/round-R/tiebreak-T`.
#[must_use]
pub fn stage_name(base: &str, round: u32, tiebreak: u32) -> String {
    if tiebreak == 0 {
        format!("{base}/round-{round}")
    } else {
        format!("{base}/round-{round}/tiebreak-{tiebreak}")
    }
}

/// The knockout a stored tournament is a stage of: `BASE` of `BASE/round-R` or
/// `BASE/round-R/tiebreak-T` (R and T whole numbers), `None` for any other name.
#[must_use]
pub fn knockout_base(name: &str) -> Option<&str> {
    let whole = |n: &str| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit());
    let (base, stage) = name.rsplit_once("/round-")?;
    let ok = match stage.split_once("/tiebreak-") {
        Some((round, tiebreak)) => whole(round) && whole(tiebreak),
        None => whole(stage),
    };
    (ok && !base.is_empty()).then_some(base)
}

/// A stage of a knockout as the store holds it.
#[derive(Clone, Debug, Default)]
pub struct StoredStage {
    /// Its stored results.
    pub rows: Vec<ResultRow>,
    /// Whether every game of its plan is stored.
    pub complete: bool,
}

/// A round's encounters before any game: each pairing of `field`, open, or a bye.
fn open_round(field: &[(usize, Option<usize>)]) -> Vec<Encounter> {
    field
        .iter()
        .map(|&(first, second)| Encounter {
            first,
            second,
            points: (0.0, 0.0),
            games: 0,
            decision: if second.is_none() {
                Decision::Bye
            } else {
                Decision::Open
            },
        })
        .collect()
}

/// The encounters that play stage `tiebreak` of a round (0: the main games): the open ones,
/// and after the main games only the level ones.
fn playing_in(encounters: &[Encounter], tiebreak: u32) -> Vec<usize> {
    (0..encounters.len())
        .filter(|&i| encounters[i].decision == Decision::Open)
        .filter(|&i| tiebreak == 0 || encounters[i].level())
        .collect()
}

/// Decides the encounters that played a finished stage: by their score once not level, by
/// the seed once level after the last tiebreak pair.
fn settle(encounters: &mut [Encounter], playing: &[usize], tiebreak: u32) {
    for &i in playing {
        let e = &mut encounters[i];
        if !e.level() {
            e.decision = if tiebreak == 0 {
                Decision::Score
            } else {
                Decision::Tiebreak(tiebreak)
            };
        } else if tiebreak == TIEBREAK_PAIRS {
            e.decision = Decision::Seed;
        }
    }
}

/// The next round's pairings from a decided round's winners (in draw order, adjacent
/// winners meet, the higher seed first); `None` while a winner is open or after the final.
fn next_field(encounters: &[Encounter]) -> Option<Vec<(usize, Option<usize>)>> {
    let winners: Vec<usize> = encounters
        .iter()
        .map(Encounter::winner)
        .collect::<Option<_>>()?;
    (winners.len() > 1).then(|| {
        winners
            .chunks(2)
            .map(|p| match p {
                [a, b] => ((*a).min(*b), Some((*a).max(*b))),
                [a] | [a, ..] => (*a, None),
                [] => (0, None),
            })
            .collect()
    })
}

impl Bracket {
    /// Rebuilds a knockout's bracket from its stored stages, as [`run_knockout`] decides
    /// it: `names` are the engines in seed order (the players of any of its stages, which
    /// are stored in the order the engines were given), `stage` returns the stage of a
    /// name ([`stage_name`]) if the store holds it. A stage not stored, or not complete,
    /// leaves its encounters open and ends the bracket there.
    pub fn from_stages(
        names: Vec<String>,
        base: &str,
        mut stage: impl FnMut(&str) -> Option<StoredStage>,
    ) -> Bracket {
        let mut rounds = Vec::new();
        let mut field = first_round(names.len());
        for round in 1_u32.. {
            let mut encounters = open_round(&field);
            let mut stopped = false;
            for tiebreak in 0..=TIEBREAK_PAIRS {
                let playing = playing_in(&encounters, tiebreak);
                if playing.is_empty() {
                    break;
                }
                let Some(stored) = stage(&stage_name(base, round, tiebreak)) else {
                    stopped = true;
                    break;
                };
                for &i in &playing {
                    for row in &stored.rows {
                        encounters[i].count(&names, row);
                    }
                }
                if !stored.complete {
                    stopped = true;
                    break;
                }
                settle(&mut encounters, &playing, tiebreak);
            }
            let next = if stopped {
                None
            } else {
                next_field(&encounters)
            };
            rounds.push(encounters);
            match next {
                Some(f) => field = f,
                None => break,
            }
        }
        Bracket { names, rounds }
    }
}

/// Plays (or resumes) the knockout of `m`'s engines, stage by stage.
///
/// # Errors
/// As [`super::run_match`].
pub(super) fn run_knockout(
    session: &Session,
    m: &MatchSettings,
    names: &[String],
    registry: &Registry<Chess>,
    on: &mut (dyn FnMut(MatchEvent<'_>) + Send),
) -> AppResult<MatchRun> {
    let pairs = m.games_per_pairing()?.div_ceil(2).max(1);
    let config = match_config(m, names);
    let (openings, book) = match_openings(m, (pairs + TIEBREAK_PAIRS) as usize)?;
    let location = config.db_path();
    let mut store = session.open_store(&location)?;
    let session = session.clone().threads(Some(m.concurrency.max(1)));
    let mut bracket = Bracket {
        names: names.to_vec(),
        rounds: Vec::new(),
    };
    let mut totals = Totals {
        summary: None,
        tally: MatchTally::default(),
        rows: Vec::new(),
        games: 0,
    };
    let mut field: Vec<(usize, Option<usize>)> = first_round(names.len());
    for round in 1_u32.. {
        let mut encounters = open_round(&field);
        // The round's main games, then a tiebreak pair at a time for the level encounters.
        for tiebreak in 0..=TIEBREAK_PAIRS {
            let playing = playing_in(&encounters, tiebreak);
            if playing.is_empty() || totals.interrupted() {
                break;
            }
            let mut stage_config = config.clone();
            stage_config.name = stage_name(&config.name, round, tiebreak);
            let pairings: Vec<(u32, u32)> = playing
                .iter()
                .filter_map(|&i| {
                    let e = &encounters[i];
                    Some((e.first as u32, e.second? as u32))
                })
                .collect();
            let (stage_pairs, first_round) = if tiebreak == 0 {
                (pairs, 0)
            } else {
                (1, pairs + tiebreak - 1)
            };
            let plan = Plan::knockout_stage(
                &stage_config,
                openings.clone(),
                &pairings,
                stage_pairs,
                first_round,
            )?;
            let plan = begin_under_free_name(&mut *store, plan, &location, on)?;
            let stored = store.games(Some(&plan.config().name))?;
            let watcher = Watcher {
                m,
                plan: &plan,
                names,
                sprt: None,
                paired: false,
                session: &session,
                stored: &stored,
                book: &book,
                stage: Stage {
                    games_before: totals.games,
                    first: totals.summary.is_none(),
                },
            };
            let (summary, tally) =
                watcher.run(registry, &mut *store, &location, MatchTally::default(), on)?;
            totals.add(summary, &tally);
            totals.games += plan.jobs().len() as u32;
            let rows = store.results(Some(&plan.config().name))?;
            for &i in &playing {
                for row in &rows {
                    encounters[i].count(names, row);
                }
            }
            totals.rows.extend(rows);
            if totals.interrupted() {
                break;
            }
            settle(&mut encounters, &playing, tiebreak);
        }
        let next = next_field(&encounters);
        bracket.rounds.push(encounters);
        match next {
            Some(f) if !totals.interrupted() => field = f,
            _ => break,
        }
    }
    let Some(summary) = totals.summary else {
        eloworld_app::invalid!("a knockout of {} engines plays no games", names.len());
    };
    Ok(MatchRun {
        names: names.to_vec(),
        tally: totals.tally,
        sprt: None,
        decision: None,
        decided_before: false,
        summary,
        location,
        rows: totals.rows,
        bracket: Some(bracket),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::{GameKind, GameResult, Side, Termination};
    use eloworld_tournament::GameIdentity;

    fn encounter(
        first: usize,
        second: Option<usize>,
        points: (f64, f64),
        d: Decision,
    ) -> Encounter {
        Encounter {
            first,
            second,
            points,
            games: 2,
            decision: d,
        }
    }

    #[test]
    fn the_winner_is_the_better_score_or_else_the_higher_seed() {
        assert_eq!(
            encounter(0, None, (0.0, 0.0), Decision::Bye).winner(),
            Some(0)
        );
        assert_eq!(
            encounter(3, Some(4), (0.5, 1.5), Decision::Score).winner(),
            Some(4)
        );
        assert_eq!(
            encounter(1, Some(2), (2.5, 1.5), Decision::Tiebreak(1)).winner(),
            Some(1)
        );
        assert_eq!(
            encounter(1, Some(2), (5.0, 5.0), Decision::Seed).winner(),
            Some(1)
        );
        assert_eq!(
            encounter(1, Some(2), (1.0, 0.0), Decision::Open).winner(),
            None
        );
    }

    #[test]
    fn the_bracket_reads_round_by_round() {
        let names: Vec<String> = ["a", "b", "c", "d", "e"].map(str::to_owned).to_vec();
        let bracket = Bracket {
            names,
            rounds: vec![
                vec![
                    encounter(0, None, (0.0, 0.0), Decision::Bye),
                    encounter(3, Some(4), (1.5, 2.5), Decision::Tiebreak(1)),
                    encounter(1, None, (0.0, 0.0), Decision::Bye),
                    encounter(2, None, (0.0, 0.0), Decision::Bye),
                ],
                vec![
                    encounter(0, Some(4), (2.0, 0.0), Decision::Score),
                    encounter(1, Some(2), (5.0, 5.0), Decision::Seed),
                ],
                vec![encounter(0, Some(1), (1.5, 0.5), Decision::Score)],
            ],
        };
        assert_eq!(bracket.champion(), Some("a"));
        let text = bracket.to_string();
        assert!(
            text.starts_with(
                "Round 1\n  a (1) bye\n  d (4) 1.5 - 2.5 e (5) (after 1 tiebreak pair)\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "  b (2) 5 - 5 c (3) (level after 4 tiebreak pairs: the higher seed goes on)\n"
            ),
            "{text}"
        );
        assert!(
            text.ends_with("Round 3\n  a (1) 1.5 - 0.5 b (2)\nWinner: a\n"),
            "{text}"
        );
    }

    fn row(white: &str, black: &str, result: GameResult) -> ResultRow {
        ResultRow {
            tournament: String::new(),
            white: white.to_owned(),
            black: black.to_owned(),
            result,
            termination: Termination::Checkmate,
            plies: 2,
            date: String::new(),
            identity: GameIdentity::of_codes(GameKind::Chess, None, ""),
        }
    }

    #[test]
    fn a_stage_name_gives_its_knockout() {
        assert_eq!(knockout_base("ko/round-1"), Some("ko"));
        assert_eq!(knockout_base("a/b/round-12/tiebreak-3"), Some("a/b"));
        assert_eq!(knockout_base(&stage_name("x", 2, 4)), Some("x"));
        assert_eq!(knockout_base("ko/round-one"), None);
        assert_eq!(knockout_base("ko/round-1/tiebreak-"), None);
        assert_eq!(knockout_base("/round-1"), None);
        assert_eq!(knockout_base("plain"), None);
    }

    #[test]
    fn the_bracket_is_rebuilt_from_its_stored_stages() {
        let (white_wins, black_wins) =
            (GameResult::Win(Side::First), GameResult::Win(Side::Second));
        let names: Vec<String> = ["a", "b", "c"].map(str::to_owned).to_vec();
        // Round 1: a bye, b-c level after the main pair, c wins the tiebreak pair;
        // the final a-c is stored but not complete.
        let stages = |name: &str| -> Option<StoredStage> {
            let (rows, complete) = match name {
                "ko/round-1" => (
                    vec![row("b", "c", white_wins), row("c", "b", white_wins)],
                    true,
                ),
                "ko/round-1/tiebreak-1" => (
                    vec![row("b", "c", GameResult::Draw), row("c", "b", white_wins)],
                    true,
                ),
                "ko/round-2" => (vec![row("a", "c", black_wins)], false),
                _ => return None,
            };
            Some(StoredStage { rows, complete })
        };
        let bracket = Bracket::from_stages(names, "ko", stages);
        assert_eq!(bracket.rounds.len(), 2);
        assert_eq!(bracket.rounds[0][0].decision, Decision::Bye);
        let tiebroken = &bracket.rounds[0][1];
        assert_eq!((tiebroken.first, tiebroken.second), (1, Some(2)));
        assert_eq!(tiebroken.points, (1.5, 2.5));
        assert_eq!(tiebroken.games, 4);
        assert_eq!(tiebroken.decision, Decision::Tiebreak(1));
        assert_eq!(tiebroken.winner(), Some(2));
        let last = &bracket.rounds[1][0];
        assert_eq!((last.first, last.second), (0, Some(2)));
        assert_eq!(
            (last.points, last.games, last.decision),
            ((0.0, 1.0), 1, Decision::Open)
        );
        assert_eq!(bracket.champion(), None);
    }
}
