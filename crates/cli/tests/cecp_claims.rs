//! A CECP engine that answers with a result instead of a move is scored as cutechess-cli
//! scores it: a true draw claim ends the game drawn (Debian's `phalanx` claims
//! `1/2-1/2 {Drawn game}` after the move that repeats a position a third time), a false
//! claim forfeits, a claim of its own loss is a resignation. None ends `engine-crashed`.

use std::path::Path;

mod common;

/// Rows `(termination, result, detail)` of the store `db`, in job order.
fn games(db: &Path) -> Vec<(String, String, Option<String>)> {
    let c = rusqlite::Connection::open(db).expect("open db");
    let mut st = c
        .prepare(
            "SELECT g.termination, g.result, g.detail FROM games g JOIN jobs j ON j.id = g.job_id \
             ORDER BY j.key",
        )
        .expect("query");
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("rows")
        .map(|r| r.expect("row"))
        .collect()
}

/// Under Elo World's draw rules (a game goes on past a threefold repetition) phalanx claims
/// the draw after its move; the claim is true, so the game ends drawn by threefold
/// repetition, the claim in the PGN's last comment.
#[test]
fn phalanx_true_draw_claims_end_the_game_drawn() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Locked pawns: nothing for either king to win, so the kings shuffle.
    common::write(
        dir.path(),
        "locked.epd",
        "8/8/2k5/p1p1p1p1/P1P1P1P1/2K5/8/8 w - - 0 1\n8/8/1k6/1p1p1p1p/1P1P1P1P/1K6/8/8 w - - 0 1\n",
    );
    common::ok(
        dir.path(),
        &[
            "tournament",
            "--name",
            "claims",
            "--game",
            "chess",
            "--players",
            "phalanx_d3,phalanx_d6",
            "--openings",
            "locked.epd",
            "--games-per-pair",
            "2",
            "--draw-rules",
            "automatic",
            "--threads",
            "1",
            "--db",
            "c.sqlite",
        ],
    );
    let rows = games(&dir.path().join("c.sqlite"));
    assert_eq!(rows.len(), 4);
    for (termination, result, detail) in &rows {
        assert_eq!(
            (termination.as_str(), result.as_str()),
            ("threefold-repetition", "1/2-1/2"),
            "{rows:?}"
        );
        assert_eq!(detail.as_deref(), Some("1/2-1/2 {Drawn game}"), "{rows:?}");
    }
}

/// A CECP engine (a small script) answering `go` with `ANSWER`.
fn claimer(dir: &Path, name: &str, answer: &str) {
    let script = format!(
        "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n    \
         protover) echo 'feature myname=\"{name}\" ping=1 setboard=1 usermove=1 done=1' ;;\n    \
         ping) echo \"pong $rest\" ;;\n    \
         go) echo '{answer}' ;;\n    \
         quit) exit 0 ;;\n  esac\ndone\n"
    );
    let path = dir.join(name);
    std::fs::write(&path, script).expect("write");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// Plays two games of the script `engine` against Stockfish into `db`; returns the output.
fn against_stockfish(dir: &Path, engine: &str, db: &str) -> String {
    let cmd = format!("cmd=./{engine}");
    let name = format!("name={engine}");
    let o = common::eloworld(
        dir,
        &[
            "match",
            "-engine",
            &cmd,
            &name,
            "proto=xboard",
            "st=1",
            "-engine",
            "cmd=stockfish",
            "name=sf",
            "nodes=50",
            "-rounds",
            "1",
            "-games",
            "2",
            "-db",
            db,
        ],
    );
    let (out, err) = common::text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    out
}

/// A draw claimed in the opening is false: the claimer forfeits, with cutechess-cli's
/// words; `resign` is a resignation. Both engines stay up (no crash, no restart).
#[test]
fn false_claims_forfeit_and_resignations_lose() {
    let dir = tempfile::tempdir().expect("tempdir");
    claimer(dir.path(), "drawer", "1/2-1/2 {I claim a draw}");
    claimer(dir.path(), "resigner", "resign");
    let out = against_stockfish(dir.path(), "drawer", "d.sqlite");
    assert!(
        out.contains(
            "Finished game 1 (drawer vs sf): 0-1 {White forfeits by invalid result claim}"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "Finished game 2 (sf vs drawer): 1-0 {Black forfeits by invalid result claim}"
        ),
        "{out}"
    );
    let rows = games(&dir.path().join("d.sqlite"));
    assert!(
        rows.iter()
            .all(|(t, _, d)| t == "invalid-claim"
                && d.as_deref() == Some("1/2-1/2 {I claim a draw}")),
        "{rows:?}"
    );
    let out = against_stockfish(dir.path(), "resigner", "r.sqlite");
    assert!(
        out.contains("Finished game 1 (resigner vs sf): 0-1 {White resigns}"),
        "{out}"
    );
    let rows = games(&dir.path().join("r.sqlite"));
    assert!(rows.iter().all(|(t, _, _)| t == "resignation"), "{rows:?}");
}
