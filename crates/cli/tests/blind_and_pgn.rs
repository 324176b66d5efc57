//! The blind players end to end (playing with a model; the training is `eloworld-train-blind`'s,
//! tested in its crate) and the PGN headers
//! of `play` and `export`. They run the real binary in a temp dir.

use std::process::Command;

mod common;
use common::{eloworld, text};

/// Today's date as `date -u` prints it in PGN form, computed outside eloworld.
fn today() -> String {
    let o = Command::new("date")
        .args(["-u", "+%Y.%m.%d"])
        .output()
        .expect("date");
    String::from_utf8_lossy(&o.stdout).trim().to_owned()
}

#[test]
fn play_writes_todays_date_an_event_and_a_round() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = eloworld(
        dir.path(),
        &[
            "play",
            "--white",
            "first_move",
            "--black",
            "cccp",
            "--seed",
            "1",
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let pgn = text(&o).0;
    assert!(pgn.contains(&format!("[Date \"{}\"]", today())), "{pgn}");
    assert!(pgn.contains("[Event \"eloworld play\"]"), "{pgn}");
    assert!(pgn.contains("[Round \"1\"]"), "{pgn}");
    // The original program's openings: 1. a4 d5 (cccp prefers the central files).
    assert!(pgn.contains("1. a4 d5"), "{pgn}");
}

#[test]
fn export_names_the_tournament_the_day_and_each_pairs_round() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "headers",
            "--players",
            "random_move,first_move",
            "--games-per-pair",
            "2",
            "--db",
            "h.sqlite",
            "--quiet",
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let o = eloworld(
        dir.path(),
        &["export", "--db", "h.sqlite", "--pgn", "h.pgn"],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let pgn = std::fs::read_to_string(dir.path().join("h.pgn")).expect("pgn");
    assert_eq!(pgn.matches("[Event \"headers\"]").count(), 4, "{pgn}");
    assert_eq!(
        pgn.matches(&format!("[Date \"{}\"]", today())).count(),
        4,
        "{pgn}"
    );
    // Each ordered pair plays rounds 1 and 2.
    assert_eq!(pgn.matches("[Round \"1\"]").count(), 2, "{pgn}");
    assert_eq!(pgn.matches("[Round \"2\"]").count(), 2, "{pgn}");
}

/// Plays with the model `m.bin` in `dir`, and refuses a copy of it with a byte changed.
fn play_with_model_and_refuse_a_damaged_one(dir: &std::path::Path) {
    let o = eloworld(
        dir,
        &[
            "play",
            "--white",
            "blind_spycheck:nodes=300,model=m.bin",
            "--black",
            "random_move",
            "--max-plies",
            "30",
            "--seed",
            "2",
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(
        text(&o).0.contains("[White \"blind_spycheck"),
        "{:?}",
        text(&o)
    );
    // A damaged model is refused, naming the file.
    let mut bytes = std::fs::read(dir.join("m.bin")).expect("read");
    bytes[100] ^= 0xff;
    std::fs::write(dir.join("bad.bin"), bytes).expect("write");
    let o = eloworld(
        dir,
        &[
            "play",
            "--white",
            "blind_kings:model=bad.bin",
            "--black",
            "random_move",
        ],
    );
    assert!(!o.status.success());
    let err = text(&o).1;
    assert!(err.contains("bad.bin") && err.contains("checksum"), "{err}");
}

#[test]
fn a_blind_player_plays_with_the_shipped_model() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::copy(
        common::repo().join("data/blind/model.bin"),
        dir.path().join("m.bin"),
    )
    .expect("copy");
    play_with_model_and_refuse_a_damaged_one(dir.path());
}

#[test]
fn train_blind_says_which_program_trains() {
    let dir = tempfile::tempdir().expect("tmp");
    let err = common::fails(dir.path(), &["train-blind", "g.pgn", "--model", "linear"]);
    assert!(err.contains("-p eloworld-train-blind"), "{err}");
}
