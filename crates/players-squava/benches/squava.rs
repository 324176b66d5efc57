//! Squava speed: random playouts per second on one core (target ≥ 5,000,000), the Squava
//! article's heavy playouts per second, alpha-beta nodes per second at the author's
//! depths, and MCTS iterations per second inside `mcts_uct`.
//!
//! `cargo bench -p eloworld-players-squava --bench squava`: criterion's throughput column is the
//! figure (playouts/s, nodes/s, iterations/s). Each benchmark first checks its answer: the
//! playouts' mean score, the alpha-beta node count (a fixed signature of the search), and
//! the MCTS root visit total.
#![expect(clippy::print_stdout, reason = "a benchmark reports its figures")]
#![expect(
    missing_docs,
    reason = "criterion_group! generates an undocumented function"
)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use eloworld_games::{Game, GameRng, Squava};
use eloworld_players_squava::board::{heavy_playout, random_playout, Position};
use eloworld_players_squava::{AlphaBeta, Depth, Evaluation, Mcts, Selection};
use std::hint::black_box;
use std::time::Duration;

/// A position after six plies (x: c3 b2 d5; o: a1 e5 b4), x to move.
const MIDGAME: &str = "...xo/.o.../..x../.x.../o.... x";

fn bench_squava(c: &mut Criterion) {
    let start = Position::of(&Squava::new(()));
    let midgame = Position::of(&Squava::from_position(MIDGAME, ()).expect("a legal position"));

    // Random playouts from the empty board: each is at most 25 placements.
    let mut rng = GameRng::new(1);
    let mean = (0..10_000)
        .map(|_| random_playout(start, &mut rng))
        .sum::<f64>()
        / 10_000.0;
    assert!(
        (0.35..0.65).contains(&mean),
        "random squava is roughly even, got {mean}"
    );
    let mut group = c.benchmark_group("squava");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    group.throughput(Throughput::Elements(1));
    group.bench_function("random playout (playouts/s)", |b| {
        b.iter(|| random_playout(black_box(start), &mut rng))
    });

    group.bench_function("heavy playout (playouts/s)", |b| {
        b.iter(|| heavy_playout(black_box(start), &mut rng))
    });

    // Alpha-beta: the midgame (six stones) at the author's depth 10, both evaluations.
    for (name, evaluation) in [
        ("alphabeta", Evaluation::OpenThrees),
        ("alphabeta_better", Evaluation::AvoidTraps),
    ] {
        let mut searcher = AlphaBeta::new(Depth::Schedule, evaluation);
        let found = searcher.search(midgame);
        assert_eq!(
            searcher.search(midgame).nodes,
            found.nodes,
            "the search is deterministic"
        );
        println!(
            "{name} depth 10 on {MIDGAME}: {} nodes (signature), effective branching factor {:.2}",
            found.nodes,
            found.branching_factor().unwrap_or(f64::NAN)
        );
        group.throughput(Throughput::Elements(found.nodes));
        group.bench_function(format!("{name} depth 10 (nodes/s)"), |b| {
            b.iter(|| searcher.search(black_box(midgame)))
        });
    }

    // MCTS with UCT: one move's search of 20,000 iterations from the midgame.
    let mut mcts = Mcts::new(20_000, Selection::Uct { c: 1.414 });
    let (_, stats) = mcts.search(midgame, &mut rng);
    assert_eq!(stats.iterations, 20_000);
    group.throughput(Throughput::Elements(u64::from(stats.iterations)));
    group.sample_size(10);
    group.bench_function("mcts_uct 20000 (iterations/s)", |b| {
        b.iter(|| mcts.search(black_box(midgame), &mut rng))
    });
    group.finish();
}

criterion_group!(benches, bench_squava);
criterion_main!(benches);
