//! What each [`PhaseEvent`] tells a reader, as the lines of a phase's log beside its
//! [`PhaseEvent::Note`]s: a generation's best and mean (of a run resumed from its checkpoint,
//! only every 50th imitation or 10th search generation and the last), a match's score and
//! the Elo difference it means (David–Koppel–Netanyahu, appendix B), a run's pace.

use super::{pct, PhaseEvent};
use eloworld_ratings::convert::elo_difference;

/// Of a run resumed from its checkpoint, the imitation generations named: every 50th.
const LOADED_IMITATION_EVERY: usize = 50;
/// Of a run resumed from its checkpoint, the search generations named: every 10th.
const LOADED_SEARCH_EVERY: usize = 10;

impl PhaseEvent {
    /// Returns the lines this event tells the reader, for standard output: none for a
    /// skipped input (a front end shows [`PhaseEvent::Skipped`] apart, as a warning), a
    /// generation loaded from the checkpoint that is not worth a line, or a run that
    /// computed nothing and was not stopped.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        match self {
            PhaseEvent::Note(line) => vec![line.clone()],
            PhaseEvent::Skipped(_) => Vec::new(),
            PhaseEvent::Imitation {
                run,
                name,
                summary: g,
                positions: (ntrain, ntest),
                last,
                loaded,
                secs,
            } => {
                if *loaded {
                    if g.index != *last && !g.index.is_multiple_of(LOADED_IMITATION_EVERY) {
                        return Vec::new();
                    }
                    return vec![format!(
                        "run {run} ({name}) generation {:>3}: from the checkpoint, best {:.1}% train",
                        g.index,
                        pct(g.best_train, *ntrain)
                    )];
                }
                vec![format!(
                    "run {run} generation {:>3}/{last}: best {:.0} matches = {:.1}% train, {:.1}% test; population mean {:.1}% [{secs:.2} s]",
                    g.index,
                    g.best_train,
                    pct(g.best_train, *ntrain),
                    pct(g.best_test, *ntest),
                    pct(g.mean_train, *ntrain),
                )]
            }
            PhaseEvent::Search {
                summary: g,
                positions,
                last,
                loaded,
                secs,
            } => {
                if *loaded {
                    if g.index != *last && !g.index.is_multiple_of(LOADED_SEARCH_EVERY) {
                        return Vec::new();
                    }
                    return vec![format!(
                        "generation {:>3}: from the checkpoint, best {:.0} nodes",
                        g.index, g.best_nodes
                    )];
                }
                vec![format!(
                    "generation {:>3}/{last}: best {:.0} nodes ({:.0}/{positions} solved), population mean {:.0} nodes [{secs:.1} s]",
                    g.index, g.best_nodes, g.best_solved, g.mean_nodes
                )]
            }
            PhaseEvent::Coevolution {
                index,
                standings,
                last,
                secs,
            } => {
                let standings: Vec<String> = standings
                    .iter()
                    .map(|(i, points)| format!("#{i} {points}"))
                    .collect();
                vec![format!(
                    "generation {index:>2}/{last}: standings {} [{secs:.1} s]",
                    standings.join(", ")
                )]
            }
            PhaseEvent::Match {
                label,
                points,
                games,
            } => {
                let n = (*games).max(1) as f64;
                let rate = points / n;
                // A clean sweep has no finite Elo difference: it is shown as the nearest one.
                let rd = elo_difference(rate.clamp(1e-6, 1.0 - 1e-6));
                vec![format!(
                    "{label:<40} {:>14} {:>6.1}% {:>+8.1}",
                    format!("{points:.1} - {:.1}", n - points),
                    100.0 * rate,
                    rd
                )]
            }
            PhaseEvent::RunEnd {
                prefix,
                computed,
                secs,
                stopped_at,
            } => {
                let mut lines = Vec::new();
                if *computed > 0 {
                    let rate = *computed as f64 / secs * 60.0;
                    lines.push(format!(
                        "{prefix}{computed} generations computed in {secs:.1} s = {rate:.1} generations/min"
                    ));
                }
                if let Some(at) = stopped_at {
                    lines.push(format!(
                        "stopped at generation {at}; run the same command to resume"
                    ));
                }
                lines
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_evolve::imitate::ImitationSummary;
    use eloworld_evolve::search_phase::SearchSummary;

    fn imitation(index: usize, loaded: bool) -> PhaseEvent {
        PhaseEvent::Imitation {
            run: 2,
            name: "imitate-run2".into(),
            summary: ImitationSummary {
                index,
                best_train: 30.0,
                best_test: 25.0,
                mean_train: 20.0,
            },
            positions: (120, 100),
            last: 99,
            loaded,
            secs: 1.234,
        }
    }

    #[test]
    fn a_computed_imitation_generation_reads_in_percent_of_the_positions() {
        assert_eq!(
            imitation(7, false).lines(),
            ["run 2 generation   7/99: best 30 matches = 25.0% train, 25.0% test; population mean 16.7% [1.23 s]"]
        );
    }

    #[test]
    fn a_resumed_run_names_every_50th_imitation_generation_and_the_last() {
        assert!(imitation(7, true).lines().is_empty());
        assert_eq!(
            imitation(50, true).lines(),
            ["run 2 (imitate-run2) generation  50: from the checkpoint, best 25.0% train"]
        );
        assert_eq!(imitation(99, true).lines().len(), 1);
    }

    #[test]
    fn a_resumed_search_names_every_10th_generation() {
        let search = |index| PhaseEvent::Search {
            summary: SearchSummary {
                index,
                best_nodes: 1234.4,
                best_solved: 12.0,
                mean_nodes: 2000.6,
            },
            positions: 20,
            last: 25,
            loaded: true,
            secs: 0.5,
        };
        assert!(search(11).lines().is_empty());
        assert_eq!(
            search(20).lines(),
            ["generation  20: from the checkpoint, best 1234 nodes"]
        );
    }

    #[test]
    fn a_match_line_gives_the_elo_difference_of_its_score() {
        // 30 points of 40 games is 75%: 400·log10(3) = +190.8 Elo (appendix B).
        let line = PhaseEvent::Match {
            label: "EVOL* vs EVOL0".into(),
            points: 30.0,
            games: 40,
        }
        .lines();
        assert_eq!(
            line,
            [format!(
                "{:<40} {:>14} {:>6.1}% {:>+8.1}",
                "EVOL* vs EVOL0", "30.0 - 10.0", 75.0, 190.8
            )]
        );
    }

    #[test]
    fn a_run_end_tells_its_pace_and_where_it_stopped() {
        let end = PhaseEvent::RunEnd {
            prefix: "run 1: ".into(),
            computed: 3,
            secs: 30.0,
            stopped_at: Some(4),
        };
        assert_eq!(
            end.lines(),
            [
                "run 1: 3 generations computed in 30.0 s = 6.0 generations/min",
                "stopped at generation 4; run the same command to resume"
            ]
        );
        let nothing = PhaseEvent::RunEnd {
            prefix: String::new(),
            computed: 0,
            secs: 0.0,
            stopped_at: None,
        };
        assert!(nothing.lines().is_empty());
        assert!(PhaseEvent::Skipped("line 3".into()).lines().is_empty());
    }
}
