//! The report of the evolution: EVOL* (coevolved evaluation and evolved search) against
//! EVOL0 (phase 1's evaluation, the same search) and the defaults, suite solve counts, and
//! EVOL* against reference players (David–Koppel–Netanyahu, section VI, Tables III–IV).

use super::{play_plan, read_eval, GamesStore, PhaseEnd, PhaseEvent};
use eloworld_app::Session;
use eloworld_app::{AppResult, Context};
use eloworld_engine::{EvalParams, SearchParams};
use eloworld_evolve::coevolve::{fen_of, read_book};
use eloworld_evolve::search_phase::SearchFitness;
use eloworld_games::Chess;
use eloworld_players::PlayableGame;
use eloworld_schedule::coevolution::pair_openings;
use eloworld_schedule::paired::{first_player_points, PairedMatch};
use eloworld_tournament::{Plan, Store, TournamentConfig};
use std::path::{Path, PathBuf};

/// The report's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportSettings {
    /// The directory the phases wrote to.
    pub out: PathBuf,
    /// EVOL*'s evaluation (default OUT/coevolve.params).
    pub star_eval: Option<PathBuf>,
    /// EVOL0's evaluation (default OUT/imitate-run1.params).
    pub zero_eval: Option<PathBuf>,
    /// The evolved search parameters both use (default OUT/search.params).
    pub search: Option<PathBuf>,
    /// Games per match (pairs of games from one opening, colours swapped).
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// The opening book.
    pub book: PathBuf,
    /// The test suite for solve counts.
    pub epd: PathBuf,
    /// Suite positions used (first K).
    pub positions: usize,
    /// Nodes per suite position.
    pub cap: u64,
    /// Reference players EVOL* also meets (engines missing here are skipped).
    pub reference: Vec<String>,
    /// Games against each reference player.
    pub reference_games: usize,
    /// Where the games are stored.
    pub games_store: GamesStore,
}

/// Plays the report's matches and counts the suite's solutions.
///
/// # Errors
/// A missing parameter file, a bad book or suite, or the store.
pub fn report(
    session: &Session,
    s: &ReportSettings,
    on: &mut dyn FnMut(PhaseEvent),
) -> AppResult<PhaseEnd> {
    let pick = |given: &Option<PathBuf>, name: &str| -> AppResult<PathBuf> {
        let p = given.clone().unwrap_or_else(|| s.out.join(name));
        eloworld_app::ensure!(
            p.exists(),
            "{} not found: run the earlier phases (or give the file)",
            p.display()
        );
        Ok(p)
    };
    let star_path = pick(&s.star_eval, "coevolve.params")?;
    let zero_path = pick(&s.zero_eval, "imitate-run1.params")?;
    let search_path = pick(&s.search, "search.params")?;
    let search_text = std::fs::read_to_string(&search_path)
        .with_context(|| format!("reading {}", search_path.display()))?;
    let search = SearchParams::from_text(&search_text, &search_path.display().to_string())?;
    let players: [(&str, EvalParams, SearchParams); 3] = [
        ("EVOL*", read_eval(Some(&star_path))?, search),
        ("EVOL0", read_eval(Some(&zero_path))?, search),
        (
            "DEFAULTS (Fig. 3 + Table II)",
            EvalParams::default(),
            SearchParams::default(),
        ),
    ];
    let spec_of = |eval: Option<&Path>| match eval {
        Some(e) => format!(
            "evol:eval={},nodes={},search={}",
            e.display(),
            s.nodes,
            search_path.display()
        ),
        None => format!("evol:nodes={}", s.nodes),
    };
    let specs = [
        spec_of(Some(&star_path)),
        spec_of(Some(&zero_path)),
        spec_of(None),
    ];
    // The matches' names in the store carry a fingerprint of the parameter files, so that
    // a report after a new coevolution plays new games rather than resuming old ones.
    let contents: String = [&star_path, &zero_path, &search_path]
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect();
    let files_key = eloworld_games::rng::fnv1a(&contents);
    on(PhaseEvent::Note(format!(
        "EVOL* = {} + {}; EVOL0 = {} + the same search",
        star_path.display(),
        search_path.display(),
        zero_path.display()
    )));
    let book_text = std::fs::read_to_string(&s.book)
        .with_context(|| format!("reading {}", s.book.display()))?;
    let book = read_book(&book_text, &s.book.display().to_string())?;
    let mut store = s.games_store.open(session, &s.out)?;
    on(PhaseEvent::Note(format!("\nMatches: {} games each, {} nodes per move, openings from {} (each opening played with colours swapped), games stored in {}", s.games, s.nodes, s.book.display(), store.location())));
    on(PhaseEvent::Note(format!(
        "{:<40} {:>14} {:>7} {:>8}",
        "Match", "Result", "W%", "RD"
    )));
    for opponent in [1, 2] {
        let label = format!("{} - {}", players[0].0, players[opponent].0);
        let name = format!("evolve-match-{opponent}-{files_key:016x}-{}", s.games);
        let pairing = Pairing {
            name: &name,
            first: &specs[0],
            second: &specs[opponent],
            games: s.games,
            seed: 7,
            slot: opponent,
        };
        if play_match(session, &pairing, &book, &mut *store, label, on)? == PhaseEnd::Stopped {
            return Ok(PhaseEnd::Stopped);
        }
    }
    let suite = eloworld_app::suite::read_suite(&s.epd)?;
    let take = s.positions.min(suite.positions.len());
    on(PhaseEvent::Note(format!(
        "\nSuite: first {take} positions of {}, {} nodes each",
        s.epd.display(),
        s.cap
    )));
    for (name, eval, search) in &players {
        let cost = SearchFitness::new(&suite.positions[..take], *eval, s.cap, 1).cost(search);
        on(PhaseEvent::Note(format!(
            "{name:<40} {:>4}/{take} solved, {} nodes to solution in all",
            cost.solved, cost.total_nodes
        )));
    }
    if s.reference.is_empty() || s.reference_games == 0 {
        return Ok(PhaseEnd::Done);
    }
    // EVOL* against reference players, pairs of games from one opening with colours swapped
    // (Tables IV–VI in form).
    let registry = Chess::builtin_players();
    on(PhaseEvent::Note(format!(
        "\nAgainst reference players: {} games each, EVOL* = {}",
        s.reference_games, specs[0]
    )));
    for other in &s.reference {
        let label = format!("EVOL* - {other}");
        if let Err(e) = registry.resolve_str(other) {
            on(PhaseEvent::Note(format!("{label:<40} skipped: {e}")));
            continue;
        }
        let name = format!(
            "evolve-match-{other}-{files_key:016x}-{}",
            s.reference_games
        );
        let pairing = Pairing {
            name: &name,
            first: &specs[0],
            second: other,
            games: s.reference_games,
            seed: eloworld_games::rng::fnv1a(other),
            slot: 0,
        };
        if play_match(session, &pairing, &book, &mut *store, label, on)? == PhaseEnd::Stopped {
            return Ok(PhaseEnd::Stopped);
        }
    }
    Ok(PhaseEnd::Done)
}

/// One of the report's matches: its stored name, the two specs, its games, and where its
/// openings are drawn from (a seed and a slot, so no two matches share a draw).
struct Pairing<'a> {
    name: &'a str,
    first: &'a str,
    second: &'a str,
    games: usize,
    seed: u64,
    slot: usize,
}

/// Plays a match (pairs from one opening, colours swapped, openings drawn without repeats
/// from `book`) through the runner and tells `on` its score under `label`.
fn play_match(
    session: &Session,
    m: &Pairing<'_>,
    book: &[shakmaty::Chess],
    store: &mut dyn Store,
    label: String,
    on: &mut dyn FnMut(PhaseEvent),
) -> AppResult<PhaseEnd> {
    let pairs = m.games.div_ceil(2).min(book.len());
    let Some(chosen) = pair_openings(m.seed, 0, 0, m.slot, pairs, book.len()) else {
        eloworld_app::invalid!(
            "{} needs {pairs} openings; the book has {}",
            m.name,
            book.len()
        );
    };
    let openings: Vec<String> = chosen.into_iter().map(|i| fen_of(&book[i])).collect();
    let games = m.games.min(2 * pairs);
    let mut config = TournamentConfig::new(
        m.name,
        eloworld_games::GameKind::Chess,
        vec![m.first.to_owned(), m.second.to_owned()],
    );
    config.games_per_pair = u32::try_from(pairs).unwrap_or(u32::MAX);
    config.max_plies = 300;
    config.draw_rules = crate::PHASE_DRAW_RULES;
    let shape = PairedMatch {
        games: u32::try_from(games).unwrap_or(u32::MAX),
        paired: true,
        seed: 0,
        colours: eloworld_schedule::paired::Colours::ALTERNATE,
    };
    let plan = Plan::paired_match(&config, openings, shape)?;
    let Some(results) = play_plan(session, &plan, store)? else {
        return Ok(PhaseEnd::Stopped);
    };
    let (points, games) = first_player_points(&results);
    on(PhaseEvent::Match {
        label,
        points,
        games,
    });
    Ok(PhaseEnd::Done)
}
