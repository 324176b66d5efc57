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
