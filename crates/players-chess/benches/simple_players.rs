//! Times `choose` of every simple player (Murphy's Elo World section 2.1) on a middlegame position
//! and reports the time per legal move (the budget: a few microseconds).
//!
//! `cargo bench -p eloworld-players-chess --bench simple_players` (criterion's table: the
//! throughput is legal moves scored per second), then a summary line per player, slowest
//! first, from a short timing of its own.
#![expect(clippy::print_stdout, reason = "a benchmark reports its figures")]

use criterion::{criterion_main, Criterion, Throughput};
use eloworld_games::{Chess, DrawRules, Game, GameRng};
use eloworld_players_chess::SIMPLE_PLAYERS;
use eloworld_players_core::{Player, Worker};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// "Kiwipete" (Peter McKenzie's perft position): a busy middlegame with 48 legal moves,
/// castling both ways, pins, captures and an en-passant-free pawn tangle.
const MIDDLEGAME: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn players() -> Vec<(&'static str, Box<dyn Player<Chess>>)> {
    let registry = eloworld_players_chess::builtin_players();
    let mut worker = Worker::new(0);
    SIMPLE_PLAYERS
        .iter()
        .map(|&name| {
            let factory = registry.resolve_str(name).expect("a registered player");
            (
                name,
                factory.create(&mut worker).expect("an in-process player"),
            )
        })
        .collect()
}

fn bench_simple_players(c: &mut Criterion) {
    let game = Chess::from_position(MIDDLEGAME, DrawRules::Automatic).expect("a legal FEN");
    let legal = game.legal_moves().len();
    assert_eq!(legal, 48, "Kiwipete has 48 legal moves");
    let mut group = c.benchmark_group("choose");
    group.throughput(Throughput::Elements(legal as u64));
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    let mut summary = Vec::new();
    for (name, mut player) in players() {
        // The answer is a legal move (the benchmark checks what it times).
        let m = player.choose(&game, &mut GameRng::new(1)).expect("a move");
        assert!(game.is_legal(m), "{name} chose an illegal move");
        group.bench_function(name, |b| {
            b.iter(|| player.choose(black_box(&game), &mut GameRng::new(1)));
        });
        summary.push((name, per_legal_move(&mut *player, &game, legal)));
    }
    group.finish();
    summary.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!("\ntime per legal move on Kiwipete ({legal} moves), slowest first:");
    for (name, ns) in &summary {
        println!("  {name:<18} {ns:>8.1} ns/move");
    }
}

/// Returns the mean time of `choose` per legal move, in nanoseconds, over about 0.2 s.
fn per_legal_move(player: &mut dyn Player<Chess>, game: &Chess, legal: usize) -> f64 {
    let start = Instant::now();
    let mut calls = 0u32;
    while start.elapsed() < Duration::from_millis(200) {
        for _ in 0..16 {
            black_box(
                player
                    .choose(black_box(game), &mut GameRng::new(u64::from(calls)))
                    .ok(),
            );
            calls += 1;
        }
    }
    start.elapsed().as_nanos() as f64 / f64::from(calls) / legal as f64
}

mod group {
    criterion::criterion_group!(benches, super::bench_simple_players);
}

criterion_main!(group::benches);
