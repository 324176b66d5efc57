//! Independent games: two players that play by a fixed rule replay one game from one start,
//! so ladders and placements give exactly those pairs openings (each with both colours) and
//! keep Murphy's Elo World's initial position for the pairs that vary; a tournament that
//! would replay copies says so.

use std::collections::{HashMap, HashSet};
use std::path::Path;

mod common;
use common::{eloworld, text};

/// Per ordered pair: (games, distinct (start, moves), games from an opening).
fn pairs(db: &Path) -> HashMap<(String, String), (usize, usize, usize)> {
    let c = rusqlite::Connection::open(db).expect("open db");
    let mut st = c
        .prepare(
            "SELECT pw.spec, pb.spec, COALESCE(j.opening, ''), g.moves FROM games g
             JOIN jobs j ON j.id = g.job_id
             JOIN players pw ON pw.tournament_id = j.tournament_id AND pw.idx = j.white
             JOIN players pb ON pb.tournament_id = j.tournament_id AND pb.idx = j.black",
        )
        .expect("query");
    let rows = st
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                // Text in older files, packed bytes in newer ones: equal games, equal values.
                format!("{:?}", r.get::<_, rusqlite::types::Value>(3)?),
            ))
        })
        .expect("rows");
    let mut games: HashMap<(String, String), Vec<(String, String)>> = HashMap::new();
    for row in rows {
        let (w, b, opening, moves) = row.expect("row");
        games.entry((w, b)).or_default().push((opening, moves));
    }
    games
        .into_iter()
        .map(|(pair, g)| {
            let distinct: HashSet<&(String, String)> = g.iter().collect();
            let from_openings = g.iter().filter(|(o, _)| !o.is_empty()).count();
            (pair, (g.len(), distinct.len(), from_openings))
        })
        .collect()
}

/// Plays a round robin of `players`, two games per ordered pair, into `rr.sqlite`.
fn round_robin(dir: &Path, players: &str) -> std::process::Output {
    eloworld(
        dir,
        &[
            "tournament",
            "--name",
            "rr",
            "--players",
            players,
            "--games-per-pair",
            "2",
            "--seed",
            "3",
            "--db",
            "rr.sqlite",
            "--quiet",
        ],
    )
}

fn fixed(player: &str) -> bool {
    matches!(player, "first_move" | "alphabetical" | "cccp")
}

const LADDER: &str = r#"
name = "lad"
game = "chess"
players = ["first_move", "alphabetical", "cccp", "random_move"]
schedule = "ladder"
games = 48
batch = 24
precision = 1
seed = 5
max_plies = 300
db = "lad.sqlite"
"#;

#[test]
fn a_ladder_gives_openings_to_the_pairs_that_cannot_vary_and_only_to_them() {
    let dir = tempfile::tempdir().expect("tmp");
    // The book is found by its name from any directory (it is compiled in).
    let file = format!(
        "{LADDER}openings = \"data/books/2moves_v1.first2000.epd\"\nopenings_for = \"fixed-pairs\"\n"
    );
    std::fs::write(dir.path().join("lad.toml"), file).expect("write");
    let o = eloworld(dir.path(), &["tournament", "lad.toml", "--quiet"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(!err.contains("copies"), "no copy warning: {err}");
    let pairs = pairs(&dir.path().join("lad.sqlite"));
    let mut fixed_games = 0;
    for ((w, b), (games, distinct, from_openings)) in &pairs {
        assert_eq!(distinct, games, "{w}–{b}: every game distinct");
        if fixed(w) && fixed(b) {
            assert_eq!(from_openings, games, "{w}–{b} starts from openings");
            fixed_games += games;
        } else {
            assert_eq!(*from_openings, 0, "{w}–{b} keeps the initial position");
        }
    }
    assert!(
        fixed_games >= 4,
        "the schedule played fixed pairs: {pairs:?}"
    );
    // The ladder file records the book and its use, for placements.
    let o = eloworld(
        dir.path(),
        &[
            "ladder",
            "build",
            "--db",
            "lad.sqlite",
            "--out",
            "lad-ladder.toml",
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let ladder = std::fs::read_to_string(dir.path().join("lad-ladder.toml")).expect("ladder");
    assert!(
        ladder.contains("openings = \"data/books/2moves_v1.first2000.epd\"")
            && ladder.contains("openings_for = \"fixed-pairs\""),
        "{ladder}"
    );
}

#[test]
fn a_ladder_of_fixed_players_without_openings_warns_of_copies() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("lad.toml"),
        LADDER.replace("games = 48", "games = 24"),
    )
    .expect("write");
    let o = eloworld(dir.path(), &["tournament", "lad.toml", "--quiet"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("warning: 3 players play by a fixed rule (first_move, alphabetical, cccp)")
            && err.contains("copies"),
        "{err}"
    );
    // The same from a round robin that plays each fixed pair twice a colour.
    let o = round_robin(dir.path(), "first_move,cccp,random_move");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("2 ordered pairs of players that play by a fixed rule")
            && err.contains("first_move–cccp"),
        "{err}"
    );
    let rr = pairs(&dir.path().join("rr.sqlite"));
    let (games, distinct, _) = rr[&("first_move".to_owned(), "cccp".to_owned())];
    assert_eq!((games, distinct), (2, 1), "the copy the warning announced");
}

#[test]
fn a_placement_of_a_deterministic_player_plays_distinct_games() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = round_robin(dir.path(), "alphabetical,cccp,random_move,huddle");
    assert!(o.status.success(), "{:?}", text(&o));
    let o = eloworld(
        dir.path(),
        &[
            "ladder",
            "build",
            "--db",
            "rr.sqlite",
            "--out",
            "small.toml",
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let o = eloworld(
        dir.path(),
        &[
            "place",
            "first_move",
            "--ladder",
            "small.toml",
            "--db",
            "place.sqlite",
            "--max-games",
            "40",
            "--batch",
            "4",
            "--seed",
            "2",
            "--quiet",
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let pairs = pairs(&dir.path().join("place.sqlite"));
    let (mut all, mut distinct_all, mut fixed_games) = (0, 0, 0);
    for ((w, b), (games, distinct, from_openings)) in &pairs {
        all += games;
        distinct_all += distinct;
        if fixed(w) && fixed(b) {
            fixed_games += games;
            assert_eq!(from_openings, games, "{w}–{b} starts from openings");
            assert_eq!(distinct, games, "{w}–{b}: every game distinct");
        } else {
            assert_eq!(*from_openings, 0, "{w}–{b} keeps the initial position");
        }
    }
    assert!(all >= 40 && fixed_games >= 8, "{pairs:?}");
    assert!(
        distinct_all * 100 >= all * 95,
        "{distinct_all} of {all} distinct"
    );
}

/// The shipped stores hold distinct games: at least 98% of each store's games differ from
/// every other game of their ordered pair (start and moves), as the rebuilt ladders were made.
#[test]
fn the_shipped_ladder_stores_are_at_least_98_percent_distinct_per_ordered_pair() {
    for store in ["elo-world", "go-9x9", "elo-world-honesty"] {
        let db = common::repo().join(format!("data/ladders/runs/{store}.sqlite"));
        let pairs = pairs(&db);
        let games: usize = pairs.values().map(|p| p.0).sum();
        let distinct: usize = pairs.values().map(|p| p.1).sum();
        assert!(games > 1_000, "{store}: {games} games");
        assert!(
            distinct as f64 >= 0.98 * games as f64,
            "{store}: {distinct} distinct of {games}"
        );
    }
}
