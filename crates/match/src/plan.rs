//! The schedule a match's settings become: its games, their colours and openings.

use super::fingerprint::engine_definition;
use super::{MatchSettings, Pairing};
use eloworld_app::error::AppResult;
use eloworld_games::rng::splitmix64;
use eloworld_games::{DrawRules, GameKind};
use eloworld_schedule::paired::{pick_openings, PairedMatch};
use eloworld_tournament::openings::BookLine;
use eloworld_tournament::{Plan, Schedule, TournamentConfig};
use std::collections::HashMap;

/// The book lines of a PGN book's openings, by the position each reaches (the opening the
/// plan and the store hold), so that the match's PGN writes their moves.
pub(super) type BookLines = HashMap<String, BookLine>;

/// Makes the match's plan: `rounds × games` games with colours alternating, engine 1 White
/// first. A round of two or more games plays each two games in a row from one opening with
/// colours swapped (a game pair, cutechess's `-games N -repeat`); a round of one game takes a
/// new opening each round. Openings come in file or shuffled order from `start`.
pub(super) fn match_plan(m: &MatchSettings, players: &[String]) -> AppResult<(Plan, BookLines)> {
    let total = m.games_per_pairing()?;
    let mut config = match_config(m, players);
    let shape = PairedMatch {
        games: total,
        paired: m.paired(),
        seed: m.seed,
        colours: m.colours,
    };
    let reached = match m.pairing {
        Pairing::Match => shape.openings_needed(),
        // Round k of every pairing starts from opening k.
        Pairing::RoundRobin | Pairing::Gauntlet { .. } => config.games_per_pair as usize,
        Pairing::Knockout => eloworld_app::invalid!("a knockout is planned stage by stage"),
    };
    let (openings, book) = match_openings(m, reached)?;
    let plan = match m.pairing {
        Pairing::Match => Plan::paired_match(&config, openings, shape)?,
        Pairing::RoundRobin | Pairing::Knockout => {
            config.game_pairs = false;
            Plan::with_openings(&config, openings)?
        }
        Pairing::Gauntlet { seeds } => {
            config.game_pairs = false;
            config.schedule = Schedule::Gauntlet;
            config.seeds = Some(seeds);
            Plan::with_openings(&config, openings)?
        }
    };
    Ok((plan, book))
}

/// The tournament settings of a match: its name (default `A-vs-B`, or `A-B-C…` for more
/// engines), its engines, draw rules, adjudication, store and clocks.
pub(super) fn match_config(m: &MatchSettings, players: &[String]) -> TournamentConfig {
    let name = m.name.clone().unwrap_or_else(|| match m.pairing {
        Pairing::Match => format!("{}-vs-{}", players[0], players[1]),
        _ => players.join("-"),
    });
    let total = m.rounds.saturating_mul(m.games);
    let mut config = TournamentConfig::new(&name, GameKind::Chess, players.to_vec());
    // Each pairing plays `total` games, both colours a round: `total / 2` rounds, rounded up.
    config.games_per_pair = total.div_ceil(2);
    config.seed = m.seed;
    config.threads = Some(m.concurrency.max(1));
    config.draw_rules = DrawRules::Claimed;
    if let Some(moves) = m.max_moves {
        config.max_plies = moves.saturating_mul(2);
    }
    config.db.clone_from(&m.db);
    config.time_control.clone_from(&m.time_control);
    config.chess960 = m.chess960;
    config.game_pairs = m.paired();
    config.tablebases.clone_from(&m.tablebases);
    config.tablebase_pieces = m.tablebase_pieces;
    config.sprt = m.sprt.map(Into::into);
    config.adjudication = m.adjudication.clone();
    config.engine_definitions = m.engines.iter().map(engine_definition).collect();
    config
}

/// The match's openings, the first `reached` of them in the order asked for (with the book
/// lines of a PGN book), or Chess960 start positions drawn by the seed when no file is
/// given.
pub(super) fn match_openings(
    m: &MatchSettings,
    reached: usize,
) -> AppResult<(Vec<String>, BookLines)> {
    let mut book = BookLines::new();
    let mut openings = match &m.openings {
        Some(o) => {
            if eloworld_games::chess::input::is_pgn(&o.file) {
                let mut lines = eloworld_tournament::openings::load_book_lines(&o.file, o.plies)?;
                pick_openings(&mut lines, o.shuffled, o.start, m.seed, reached);
                let list = lines.iter().map(|l| l.fen.clone()).collect();
                book = lines.into_iter().map(|l| (l.fen.clone(), l)).collect();
                list
            } else {
                // An EPD book is taken line by line, and only the lines the match reaches
                // are parsed (the same openings, in the same order, as parsing every line
                // first: the shuffle depends only on the count of lines).
                let mut list = eloworld_tournament::openings::load_epd_lines(&o.file)?;
                pick_openings(&mut list, o.shuffled, o.start, m.seed, reached);
                list.iter()
                    .map(|(line, text)| {
                        eloworld_tournament::openings::epd_opening(&o.file, *line, text)
                    })
                    .collect::<Result<Vec<_>, _>>()?
            }
        }
        None => Vec::new(),
    };
    if m.chess960 && openings.is_empty() {
        openings = (0..reached as u64)
            .map(|r| {
                let n = (splitmix64(m.seed ^ r) % 960) as u16;
                eloworld_games::chess::chess960_fen(n)
            })
            .collect();
    }
    Ok((openings, book))
}
