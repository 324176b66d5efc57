//! `eloworld-train-blind` end to end: the program run in a temp dir on a few PGN games,
//! training each model, measuring it again from its file, and training on `--extra` games.

use eloworld_players::blind::BlindModel;
use std::path::Path;
use std::process::{Command, Output};

/// Runs `eloworld-train-blind` with `args` in `dir`.
fn train_blind(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eloworld-train-blind"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run eloworld-train-blind")
}

/// The standard output and error of a run, as text.
fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const GAMES: &str = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n\n\
[Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 0-1\n\n\
[Event \"c\"]\n[Result \"1/2-1/2\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 1/2-1/2\n\n\
[Event \"d\"]\n[Result \"1-0\"]\n\n1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 d5 5. cxd5 Nxd5 1-0\n";

#[test]
fn writes_a_model_that_a_blind_player_loads() {
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
        let mut command = vec!["g.pgn", "--out", model, "--stride", "1", "--hold-out", "2"];
        command.extend_from_slice(options);
        let o = train_blind(dir.path(), &command);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{out}{err}");
        assert!(err.contains("read 4 games (0 skipped)"), "{err}");
        assert!(out.contains(kind), "{out}");
        assert!(out.contains("held-out positions: 22"), "{out}");
        assert!(out.contains("one king per side"), "{out}");
        let o = train_blind(
            dir.path(),
            &["g.pgn", "--evaluate", model, "--hold-out", "2"],
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
    let o = train_blind(
        dir.path(),
        &[
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
    // The model it wrote loads as a blind player's model; a copy with a byte changed does not.
    let model = dir.path().join("m.bin");
    BlindModel::read(&model).expect("the trained model loads");
    let mut bytes = std::fs::read(&model).expect("read");
    bytes[100] ^= 0xff;
    let damaged = dir.path().join("bad.bin");
    std::fs::write(&damaged, bytes).expect("write");
    let err = BlindModel::read(&damaged).expect_err("a damaged model is refused");
    assert!(err.to_string().contains("checksum"), "{err}");
}
