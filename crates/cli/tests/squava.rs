//! The `human` player through the real binary, with moves on piped stdin.

mod common;

use std::io::Write;
use std::process::Stdio;

/// Runs `eloworld play` with `input` on stdin and returns (stdout, stderr, success).
fn play_with_input(args: &[&str], input: &str) -> (String, String, bool) {
    let mut child = common::command()
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("the binary ends");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn a_human_plays_squava_from_piped_stdin() {
    // The human tries c3 twice (the second time it is taken), a malformed square, then
    // every square in order; occupied ones are refused until the game ends.
    let mut input = String::from("c3\nc3\nz9\n");
    for rank in '1'..='5' {
        for file in 'a'..='e' {
            input.push_str(&format!("{file}{rank}\n"));
        }
    }
    let (out, err, ok) = play_with_input(
        &[
            "--game",
            "squava",
            "--white",
            "human",
            "--black",
            "alphabeta:depth=1",
            "--seed",
            "3",
        ],
        &input,
    );
    assert!(ok, "{err}");
    assert!(out.contains("   a b c d e"), "the board is drawn: {out}");
    assert!(out.contains("your move as x"), "the human is asked: {out}");
    assert!(
        out.contains("c3 is illegal") || out.contains("illegal move"),
        "a taken square is refused: {out}"
    );
    assert!(
        out.contains("expected a square a1..e5"),
        "a malformed entry is refused: {out}"
    );
    assert!(
        out.contains("o plays "),
        "the opponent's moves are announced: {out}"
    );
    assert!(out.contains("result: "), "the result is announced: {out}");
}

#[test]
fn a_human_whose_input_ends_loses_without_hanging() {
    let (out, err, ok) = play_with_input(
        &[
            "--game",
            "squava",
            "--white",
            "mcts_uct:playouts=200",
            "--black",
            "human",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("result: 1-0 (engine-crashed)"), "{out}");
}

#[test]
fn a_human_plays_chess_in_san_and_uci() {
    // Fool's mate, 1. f3 e5 2. g4 Qh4#, with a human on each side sharing stdin, in SAN and
    // UCI, and an illegal Ke2 refused on the way.
    let (out, err, ok) = play_with_input(
        &["--white", "human", "--black", "human"],
        "f3\ne7e5\nKe2?\ng2g4\nQh4#\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("your move as White"), "{out}");
    assert!(
        out.contains("try again"),
        "an illegal entry is refused: {out}"
    );
    assert!(out.contains("result: 0-1 (checkmate)"), "{out}");
}

#[test]
fn players_shows_the_authors_defaults() {
    let out = common::command()
        .args(["players", "--game", "squava"])
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.contains("depth=schedule (8 from 0 stones, 10 from 4 stones, 12 from 11 stones)"),
        "{text}"
    );
    assert!(text.contains("playouts=500000"), "{text}");
    assert!(text.contains("c=1.414"), "{text}");
}

#[test]
fn a_shorter_experiment_prints_its_order_and_intervals() {
    let dir = tempfile::tempdir().expect("tmp");
    let players = r#"players = ["alphabeta:depth=1", "mcts:playouts=30", "mcts_uct:playouts=30"]"#;
    std::fs::write(
        dir.path().join("elo.toml"),
        format!(
            "name = \"e\"\ngame = \"squava\"\n{players}\nschedule = \"random\"\ngames = 400\nseed = 1\ndb = \"s.sqlite\"\n"
        ),
    )
    .expect("write");
    std::fs::write(
        dir.path().join("rr.toml"),
        format!(
            "name = \"rr\"\ngame = \"squava\"\n{players}\ngames_per_pair = 400\nseed = 1\ndb = \"s.sqlite\"\n"
        ),
    )
    .expect("write");
    let out = common::command()
        .current_dir(dir.path())
        .args([
            "squava-experiment",
            "--elo",
            "elo.toml",
            "--round-robin",
            "rr.toml",
            "--runs",
            "1",
            "--games",
            "12",
            "--games-per-pair",
            "3",
            "--quiet",
        ])
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // 3 pairs × 2 colours × 3 games, not the files' 400 per ordered pair.
    assert!(text.contains("Round robin (18 games)"), "{text}");
    assert!(text.contains("order by games won: "), "{text}");
    assert!(text.contains("95% interval"), "{text}");
    // The rating run was 12 games, under its own name.
    assert!(text.contains("12 games a run"), "{text}");
    assert!(
        common::command()
            .current_dir(dir.path())
            .args(["squava-experiment", "--games-per-pair", "0"])
            .output()
            .is_ok_and(|o| !o.status.success()),
        "zero games per pair is refused"
    );
}
