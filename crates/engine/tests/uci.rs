//! The `eloworld-engine` binary speaks UCI: options for every parameter, positions, searches
//! with limits, and the bench.

use std::io::Write;
use std::process::{Command, Stdio};

fn session(input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_eloworld-engine"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("engine starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("engine ends");
    assert!(out.status.success());
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn uci_lists_every_parameter_as_an_option() {
    let out = session("uci\nisready\nquit\n");
    assert!(out.contains("id name eloworld-engine"));
    assert!(out.contains("option name KNIGHT_VALUE type spin default 521 min 0 max 2047"));
    assert!(out.contains("option name MATE_THREAT_EXTENSION type spin default 2 min 0 max 4"));
    assert!(out.contains("option name LateMoveReductions type check default true"));
    assert!(out.contains("option name KingPlacement type check default true"));
    assert!(out.contains("option name StaticNullMove type check default false"));
    assert!(out.contains("option name HashMoveFirst type check default false"));
    assert!(out.contains("option name ContinuationHistory type check default false"));
    assert_eq!(
        out.matches("option name").count(),
        35 + 18 + 1 + 29,
        "35 eval, 18 search, Hash, 29 fixed techniques"
    );
    assert!(out.contains("uciok") && out.contains("readyok"));
}

#[test]
fn go_finds_a_mate_and_options_take_effect() {
    let out = session("position fen 6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1\ngo depth 3\n");
    assert!(out.contains("score mate 1"), "{out}");
    assert!(out.contains("bestmove e1e8"), "{out}");
    // The static evaluation of a lone rook drops by exactly ROOK_VALUE when it is set to 0.
    let out = session(
        "position fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1\neval\nsetoption name ROOK_VALUE value 0\neval\n\
         position startpos moves e2e4 e7e5\ngo nodes 3000\n",
    );
    let evals: Vec<i32> = out
        .lines()
        .filter_map(|l| l.strip_prefix("info string static eval "))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(evals.len(), 2, "{out}");
    assert_eq!(evals[0] - evals[1], 824, "{out}");
    assert!(out.contains("bestmove "), "{out}");
}

#[test]
fn bench_prints_the_signature_line() {
    let out = session("bench 3\nquit\n");
    let line = out
        .lines()
        .find(|l| l.starts_with("Nodes searched"))
        .expect("signature line");
    let nodes: u64 = line
        .rsplit(':')
        .next()
        .and_then(|n| n.trim().parse().ok())
        .expect("a number");
    assert_eq!(nodes, eloworld_engine::bench::run_bench(3).total_nodes);
    assert!(out.contains("Nodes/second"));
}

/// `bench` searches with the options set before it, techniques included (it once took the
/// default techniques whatever `setoption` said).
#[test]
fn bench_searches_with_the_options_set_before_it() {
    let signature = |script: &str| -> u64 {
        let out = session(script);
        out.lines()
            .find_map(|l| l.strip_prefix("Nodes searched"))
            .and_then(|l| l.rsplit(':').next()?.trim().parse().ok())
            .unwrap_or_else(|| panic!("no signature line in {out}"))
    };
    let default = signature("bench 5\nquit\n");
    for option in [
        "Improving value false",
        "ContinuationHistory value true",
        "ROOK_VALUE value 600",
    ] {
        let set = signature(&format!("setoption name {option}\nbench 5\nquit\n"));
        assert_ne!(set, default, "bench ignored `setoption name {option}`");
    }
    // The table: the signature's 2 MiB until `Hash` sets another.
    let table = |script: &str| -> String {
        let out = session(script);
        out.lines()
            .find(|l| l.starts_with("hash "))
            .unwrap_or_else(|| panic!("no table line in {out}"))
            .to_owned()
    };
    assert_eq!(table("bench 1\nquit\n"), "hash 2 MB");
    assert_eq!(
        table("setoption name Hash value 16\nbench 1\nquit\n"),
        "hash 16 MB"
    );
    // And searches with it: at depth 6 a 1 MiB table replaces entries the 2 MiB one keeps.
    assert_ne!(
        signature("setoption name Hash value 1\nbench 6\nquit\n"),
        signature("bench 6\nquit\n"),
        "bench ignored `setoption name Hash`"
    );
}

/// Nodes of the last `info depth` line of a session.
fn last_nodes(out: &str) -> u64 {
    out.lines()
        .rev()
        .filter(|l| l.starts_with("info depth"))
        .find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|w| *w == "nodes")?;
            words.get(i + 1)?.parse().ok()
        })
        .expect("an info line with nodes")
}

#[test]
fn technique_switches_take_effect_and_reject_other_values() {
    let go = "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10\ngo depth 6\n";
    let all = last_nodes(&session(go));
    for name in [
        "LateMoveReductions",
        "AspirationWindows",
        "StaticExchange",
        "ReverseFutility",
        "LateMovePruning",
        "KingPlacement",
        "PassedPawnRanks",
        "PvRecaptures",
        "SafeCheckExtensions",
    ] {
        let off = last_nodes(&session(&format!(
            "setoption name {name} value false\n{go}"
        )));
        assert_ne!(off, all, "{name} off searched the same tree");
        let on = last_nodes(&session(&format!(
            "setoption name {name} value false\nsetoption name {name} value true\n{go}"
        )));
        assert_eq!(on, all, "{name} switched back on");
    }
    // The techniques off by default change the tree when switched on.
    for name in [
        "PawnThreats",
        "InternalIterativeReduction",
        "CutNodeReductions",
        "StaticNullMove",
    ] {
        let on = last_nodes(&session(&format!("setoption name {name} value true\n{go}")));
        assert_ne!(on, all, "{name} on searched the same tree");
    }
    let out = session("setoption name StaticExchange value 0\nquit\n");
    assert!(
        out.contains("option StaticExchange: value is not true or false"),
        "{out}"
    );
}
