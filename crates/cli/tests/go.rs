//! Go end to end through the binary: the players list, a tournament of in-process players
//! stored and exported as SGF, and Go settings refused for chess.

use std::process::Command;

fn eloworld(dir: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_eloworld"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn players_list_the_go_players() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (ok, out, err) = eloworld(dir.path(), &["players", "--game", "go"]);
    assert!(ok, "{err}");
    for name in [
        "random",
        "first_legal",
        "greedy_capture",
        "greedy_atari",
        "greedy_liberties",
        "gnugo",
        "pachi",
    ] {
        assert!(out.contains(name), "{name} missing:\n{out}");
    }
}

#[test]
fn a_go_tournament_is_stored_and_exported_as_sgf() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("go.toml"),
        "name = \"go7\"\ngame = \"go\"\nsize = 7\nkomi = 8.5\nplayers = [\"random\", \"greedy_capture\", \"first_legal\"]\ngames_per_pair = 2\nseed = 3\n",
    )
    .expect("write");
    let (ok, out, err) = eloworld(dir.path(), &["tournament", "go.toml"]);
    assert!(ok, "{out}\n{err}");
    let (ok, _, err) = eloworld(
        dir.path(),
        &["export", "--db", "go7.sqlite", "--sgf", "go7.sgf"],
    );
    assert!(ok, "{err}");
    let sgf = std::fs::read_to_string(dir.path().join("go7.sgf")).expect("written");
    assert_eq!(sgf.matches("(;FF[4]GM[1]").count(), 12, "{sgf}");
    assert_eq!(sgf.matches("SZ[7]KM[8.5]RU[Tromp-Taylor]").count(), 12);
    assert!(
        !sgf.contains("RE[Void]"),
        "every game ends by the rules: {sgf}"
    );
}

#[test]
fn go_settings_are_refused_for_chess() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("c.toml"),
        "name = \"c\"\nplayers = [\"random_move\", \"first_move\"]\nsize = 9\n",
    )
    .expect("write");
    let (ok, _, err) = eloworld(dir.path(), &["tournament", "c.toml"]);
    assert!(!ok && err.contains("Go settings"), "{err}");
    let (ok, _, err) = eloworld(
        dir.path(),
        &[
            "play",
            "--white",
            "random_move",
            "--black",
            "first_move",
            "--komi",
            "7",
        ],
    );
    assert!(!ok && err.contains("Go settings"), "{err}");
    assert!(!dir.path().join("c.sqlite").exists(), "nothing stored");
}
