//! `export`: stored games as text, chess as PGN (each tournament's `TimeControl` and
//! Chess960 tags) and Go as SGF (each on its tournament's board and komi). A front end
//! writes the texts where it likes.

use crate::error::{AppResult, Context};
use eloworld_games::GameKind;
use eloworld_tournament::{
    open_store,
    pgn::{game_to_pgn_annotated, PgnTags},
    GameRow, TournamentConfig,
};
use std::collections::HashMap;

/// The stored games of one kind, ready to be written one by one.
#[derive(Clone, Debug)]
pub struct Export {
    /// The store's location, the PGN `Site`.
    db: String,
    /// The kind exported: chess as PGN, Go as SGF.
    kind: GameKind,
    /// The games of that kind.
    games: Vec<GameRow>,
    /// Stored games of other kinds, left out.
    pub skipped: usize,
    /// Each tournament's `TimeControl` tag (played on a clock) and whether it is Chess960.
    time_controls: HashMap<String, (Option<String>, bool)>,
}

/// Reads the games of `kind` (chess or Go) stored in `db`, of one tournament or all.
///
/// # Errors
/// The store cannot be opened or read.
pub fn load(db: &str, tournament: Option<&str>, kind: GameKind) -> AppResult<Export> {
    let store = open_store(db, false)?;
    let all = store.games(tournament)?;
    let time_controls = if kind == GameKind::Chess {
        store
            .tournaments()?
            .into_iter()
            .filter_map(|t| {
                let config = TournamentConfig::from_toml(&t.config).ok()?;
                Some((t.name, (config.time_control, config.chess960)))
            })
            .collect()
    } else {
        HashMap::new()
    };
    let skipped = all.iter().filter(|g| g.game != kind).count();
    Ok(Export {
        db: db.to_owned(),
        kind,
        games: all.into_iter().filter(|g| g.game == kind).collect(),
        skipped,
        time_controls,
    })
}

impl Export {
    /// Returns how many games are exported.
    #[must_use]
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Returns true when no game of the kind is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Returns each game's text, in stored order: PGN for chess, an SGF game tree for Go.
    ///
    /// # Errors
    /// (Each item.) A game whose moves do not replay, or a Go tournament's size or komi out
    /// of range.
    pub fn texts(&self) -> impl Iterator<Item = AppResult<String>> + '_ {
        self.games.iter().map(|g| match self.kind {
            GameKind::Go => crate::report::go_sgf(g)
                .with_context(|| format!("game {} of {:?}", g.job_id, g.tournament)),
            _ => {
                let tags = self.time_controls.get(&g.tournament).map_or_else(
                    PgnTags::default,
                    |(tc, chess960)| PgnTags {
                        time_control: tc.as_deref(),
                        chess960: *chess960,
                        ..PgnTags::default()
                    },
                );
                game_to_pgn_annotated(g, &self.db, &tags, &g.notes)
                    .map_err(crate::AppError::Invalid)
            }
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use eloworld_tournament::Plan;

    /// Plays 2 games of `kind` between two quick players into `db`.
    pub(crate) fn play(db: &str, name: &str, kind: GameKind, players: [&str; 2]) {
        let mut c = TournamentConfig::new(name, kind, players.map(str::to_owned).to_vec());
        c.games_per_pair = 1;
        c.max_plies = 20;
        c.db = Some(db.to_owned());
        let plan = Plan::new(&c).expect("plan");
        crate::tournament::run_tournament(&crate::Session::default(), &plan).expect("played");
    }

    /// Plays a chess tournament `c` and a squava tournament `s` (two games each) into `db`.
    pub(crate) fn chess_and_squava(db: &str) {
        play(db, "c", GameKind::Chess, ["random_move", "first_move"]);
        play(
            db,
            "s",
            GameKind::Squava,
            ["random_move", "mcts:playouts=10"],
        );
    }

    #[test]
    fn chess_is_exported_as_pgn_and_other_games_are_counted_as_skipped() {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = dir.path().join("e.sqlite").display().to_string();
        chess_and_squava(&db);
        let export = load(&db, None, GameKind::Chess).expect("loaded");
        assert_eq!((export.len(), export.skipped), (2, 2));
        let texts: Vec<String> = export.texts().collect::<AppResult<_>>().expect("texts");
        assert!(
            texts.iter().all(|t| t.starts_with("[Event \"c\"]")),
            "{texts:?}"
        );
        let only = load(&db, Some("s"), GameKind::Chess).expect("loaded");
        assert!(only.is_empty());
        assert_eq!(only.skipped, 2);
        let go = load(&db, None, GameKind::Go).expect("loaded");
        assert_eq!((go.len(), go.skipped), (0, 4));
    }
}
