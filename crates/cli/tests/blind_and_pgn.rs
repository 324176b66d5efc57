//! The blind players end to end (training the model, playing with it) and the PGN headers
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

#[cfg(feature = "train-blind")]
const GAMES: &str = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n\n\
[Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 0-1\n\n\
[Event \"c\"]\n[Result \"1/2-1/2\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 1/2-1/2\n\n\
[Event \"d\"]\n[Result \"1-0\"]\n\n1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 d5 5. cxd5 Nxd5 1-0\n";

#[cfg(feature = "train-blind")]
#[test]
fn train_blind_writes_a_model_that_a_blind_player_plays_with() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("g.pgn"), GAMES).expect("write");
    // The linear model, then the network (the default) on the same held-out positions.
    for (model, options, kind) in [
        (
            "linear.bin",
            &["--model", "linear", "--iterations", "10"][..],
            "linear model",
        ),
        (
            "m.bin",
            &["--hidden", "16", "--epochs", "3"][..],
            "neural network model",
        ),
    ] {
        let mut command = vec![
            "train-blind",
            "g.pgn",
            "--out",
            model,
            "--stride",
            "1",
            "--hold-out",
            "2",
        ];
        command.extend_from_slice(options);
        let o = eloworld(dir.path(), &command);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{out}{err}");
        assert!(err.contains("read 4 games (0 skipped)"), "{err}");
        assert!(out.contains(kind), "{out}");
        assert!(out.contains("held-out positions: 22"), "{out}");
        assert!(out.contains("one king per side"), "{out}");
        let o = eloworld(
            dir.path(),
            &[
                "train-blind",
                "g.pgn",
                "--evaluate",
                model,
                "--hold-out",
                "2",
            ],
        );
        assert!(o.status.success(), "{:?}", text(&o));
        assert_eq!(
            text(&o).0,
            out.lines()
                .skip(1)
                .map(|l| format!("{l}\n"))
                .collect::<String>()
        );
    }
    // Positions of games given with --extra are trained on, never held out.
    let o = eloworld(
        dir.path(),
        &[
            "train-blind",
            "g.pgn",
            "--extra",
            "g.pgn",
            "--out",
            "x.bin",
            "--hold-out",
            "2",
            "--hidden",
            "8",
            "--epochs",
            "1",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(err.contains("22 held-out positions"), "{err}");
    assert!(err.contains("44 more training positions"), "{err}");
    assert!(out.contains("held-out positions: 22"), "{out}");
    play_with_model_and_refuse_a_damaged_one(dir.path());
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

#[cfg(not(feature = "train-blind"))]
#[test]
fn train_blind_without_the_feature_says_how_to_build_it() {
    let dir = tempfile::tempdir().expect("tmp");
    let err = common::fails(dir.path(), &["train-blind", "g.pgn", "--model", "linear"]);
    assert!(err.contains("--features train-blind"), "{err}");
}
