//! Plays squava games between two of the Squava article's players at their defaults (or
//! any specs) and prints, per game, the moves, the result and the time; with `--stats`, each
//! alpha-beta move's depth, nodes, nodes/s and effective branching factor. For measuring
//! whole games side by side with the author's Go program (`playoff -1 A -2 A -n 2`):
//!
//! `cargo run --profile quick -p eloworld-players-squava --example squava_game -- alphabeta alphabeta 2 [--stats]`

#![expect(
    clippy::print_stdout,
    reason = "an example is a small program: it prints, and reports bad arguments by panicking"
)]

use eloworld_games::squava::square_name;
use eloworld_games::{Game, GameRng, Side, Squava};
use eloworld_players_core::Worker;
use eloworld_players_squava::board::Position;
use eloworld_players_squava::{AlphaBeta, Depth, Evaluation};
use std::time::Instant;

/// This thread's CPU time in seconds (`/proc/thread-self/schedstat`, Linux): the machine is
/// shared, so rates are per CPU second, not per wall second.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns / 1e9)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stats = args.iter().any(|a| a == "--stats");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--stats").collect();
    let (first, second) = (
        rest.first().map_or("alphabeta", |s| s.as_str()),
        rest.get(1).map_or("alphabeta", |s| s.as_str()),
    );
    let games: u64 = rest.get(2).map_or(1, |n| n.parse().expect("a game count"));
    let registry = eloworld_players_squava::builtin_players();
    let mut worker = Worker::new(0);
    for seed in 1..=games {
        let mut players = [
            registry
                .resolve_str(first)
                .expect("first player")
                .create(&mut worker)
                .expect("create"),
            registry
                .resolve_str(second)
                .expect("second player")
                .create(&mut worker)
                .expect("create"),
        ];
        let mut rngs = [
            GameRng::for_side(seed, Side::First),
            GameRng::for_side(seed, Side::Second),
        ];
        let mut game = Squava::new(());
        let mut moves = Vec::new();
        let start = Instant::now();
        let cpu_start = cpu_seconds();
        while game.outcome().is_none() {
            let side = game.side_to_move().index();
            if stats {
                let name = if side == 0 { first } else { second };
                let evaluation = match name {
                    "alphabeta" => Some(Evaluation::OpenThrees),
                    "alphabeta_better" => Some(Evaluation::AvoidTraps),
                    _ => None,
                };
                if let Some(evaluation) = evaluation {
                    let mut probe = AlphaBeta::new(Depth::Schedule, evaluation);
                    let t = cpu_seconds();
                    let r = probe.search(Position::of(&game));
                    let secs = cpu_seconds() - t;
                    println!(
                        "  move {:>2}: {} plies reached of {}, {:>9} nodes, {:>5.2} M nodes per CPU second, branching factor {}",
                        moves.len() + 1,
                        r.iteration_nodes.len(),
                        Depth::Schedule.plies(moves.len() as u32),
                        r.nodes,
                        r.nodes as f64 / secs / 1e6,
                        r.branching_factor().map_or("-".to_owned(), |b| format!("{b:.2}"))
                    );
                }
            }
            let mv = players[side]
                .choose(&game, &mut rngs[side])
                .expect("a move");
            game.play(mv);
            moves.push(square_name(mv));
        }
        println!(
            "{seed}\t{first}\t{second}\t{}\t{:?}\t{:.2}s wall\t{:.2}s cpu\t{}",
            moves.len(),
            game.outcome(),
            start.elapsed().as_secs_f64(),
            cpu_seconds() - cpu_start,
            moves.join(" ")
        );
    }
}
