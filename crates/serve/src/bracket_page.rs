//! A knockout's bracket (`/knockout/BASE`): its stages (`BASE/round-R`,
//! `BASE/round-R/tiebreak-T`) read from the store and decided as `eloworld match -tournament
//! knockout` decides them ([`Bracket::from_stages`]), drawn a round a column.

use crate::pages::{layout, tournament_path, SEGMENT};
use eloworld_match::{knockout_base, stage_name, Bracket, Decision, StoredStage};
use eloworld_tournament::{Store, StoreError};
use maud::{html, Markup};
use percent_encoding::utf8_percent_encode;

/// Returns the absolute path of a knockout's bracket page.
pub(crate) fn knockout_path(base: &str) -> String {
    format!("/knockout/{}", utf8_percent_encode(base, SEGMENT))
}

/// Reads the knockout `base` from the store: `None` when it holds no stage of it. The seeds
/// are the players of its first round, stored in the order the engines were given.
///
/// # Errors
/// Store errors.
pub(crate) fn read_bracket(store: &dyn Store, base: &str) -> Result<Option<Bracket>, StoreError> {
    let stages: Vec<_> = store
        .tournaments()?
        .into_iter()
        .filter(|t| knockout_base(&t.name) == Some(base))
        .collect();
    let first = stage_name(base, 1, 0);
    let Some(names) = stages
        .iter()
        .find(|t| t.name == first)
        .map(|t| t.players.clone())
    else {
        return Ok(None);
    };
    let mut error = None;
    let bracket = Bracket::from_stages(names, base, |name| {
        let t = stages.iter().find(|t| t.name == name)?;
        match store.results(Some(name)) {
            Ok(rows) => Some(StoredStage {
                rows,
                complete: t.done >= t.total,
            }),
            Err(e) => {
                error.get_or_insert(e);
                None
            }
        }
    });
    match error {
        Some(e) => Err(e),
        None => Ok(Some(bracket)),
    }
}

/// How an encounter was decided, in words.
fn decided(decision: Decision) -> String {
    match decision {
        Decision::Bye => "bye".to_owned(),
        Decision::Score => "decided by score".to_owned(),
        Decision::Tiebreak(n) => {
            format!(
                "decided after {n} tiebreak pair{}",
                if n == 1 { "" } else { "s" }
            )
        }
        Decision::Seed => "level after every tiebreak pair: the higher seed goes on".to_owned(),
        Decision::Open => "not finished".to_owned(),
    }
}

/// The bracket page of the knockout `base`.
pub(crate) fn bracket_page(base: &str, bracket: &Bracket) -> Markup {
    let seeded = |i: usize| format!("{} ({})", bracket.names[i], i + 1);
    let body = html! {
        h1 { "Knockout " (base) }
        p.note { "Each encounter's points and games include its tiebreak pairs; the seed is in brackets; ✓ marks who goes on. "
            "Decided as " code { "eloworld match -tournament knockout" } " decides it, from the stages stored." }
        @if let Some(champion) = bracket.champion() {
            p #champion { "Winner: " strong.winner { (champion) } }
        }
        div.bracket {
            @for (r, round) in bracket.rounds.iter().enumerate() {
                @let number = r as u32 + 1;
                section.round {
                    h2 { a href=(tournament_path(&stage_name(base, number, 0))) { "Round " (number) } }
                    @for e in round {
                        @let winner = e.winner();
                        table.encounter data-decision=(decided(e.decision)) {
                            tr class=[(winner == Some(e.first)).then_some("winner")] {
                                td.name { (seeded(e.first)) }
                                td { @if e.second.is_some() { (e.points.0) } }
                                td { @if winner == Some(e.first) { "✓" } }
                            }
                            @if let Some(second) = e.second {
                                tr class=[(winner == Some(second)).then_some("winner")] {
                                    td.name { (seeded(second)) }
                                    td { (e.points.1) }
                                    td { @if winner == Some(second) { "✓" } }
                                }
                                tr.note { td colspan="3" { (e.games) " games, " (decided(e.decision)) } }
                            } @else {
                                tr.note { td colspan="3" { "bye" } }
                            }
                        }
                    }
                }
            }
        }
    };
    layout(&format!("{base} — knockout — eloworld"), None, 0, body)
}

/// The knockouts among a store's tournament names, each once, in the order first seen.
pub(crate) fn knockouts<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut bases: Vec<&str> = Vec::new();
    for base in names.filter_map(knockout_base) {
        if !bases.contains(&base) {
            bases.push(base);
        }
    }
    bases
}

/// The index's list of knockouts with a link to each bracket (nothing when there is none).
pub(crate) fn knockouts_section<'a>(names: impl Iterator<Item = &'a str>) -> Markup {
    let bases = knockouts(names);
    html! {
        @if !bases.is_empty() {
            section #knockouts {
                h2 { "Knockouts" }
                ul { @for b in &bases { li { a href=(knockout_path(b)) { "bracket of " (b) } } } }
            }
        }
    }
}
