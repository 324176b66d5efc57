//! Measures 1-ply searches over grandmaster positions (David, Koppel and Netanyahu's
//! evolution paper, section III.B: "one thousand positions can be processed in one second"):
//! every position after the 10th ply of the games in the given PGN files whose players are
//! both rated 2600 or more. Then the phase-1 fitness's way: 100 parameter sets on each of
//! the first positions through one shared [`OnePlyTree`], against the engine's
//! `best_move_1ply` per set, and the CPU time a full phase 1 (100 organisms, 200 generations,
//! 5,000 positions) would take on one core at that rate.
//!
//! `cargo run --profile quick -p eloworld-engine --example eval_speed -- data/pgn/*.pgn`
#![expect(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "an example program reports and exits"
)]

use eloworld_engine::bench::thread_cpu_time;
use eloworld_engine::one_ply::{OnePlyScoring, OnePlyTree, Weights};
use eloworld_engine::{Engine, EvalParams, SearchParams};
use eloworld_games::chess::input::PgnReader;
use shakmaty::{Chess, Position};
use std::path::Path;
use std::time::Instant;

fn main() {
    let mut positions: Vec<Chess> = Vec::new();
    for path in std::env::args().skip(1) {
        let reader = match PgnReader::open(Path::new(&path)) {
            Ok(reader) => reader,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        // Games that cannot be read or replayed are passed over.
        for game in reader.map_while(Result::ok) {
            if !(game.white_elo.is_some_and(|e| e >= 2600)
                && game.black_elo.is_some_and(|e| e >= 2600))
            {
                continue;
            }
            let mut pos = Chess::default();
            for (ply, san) in game.sans.iter().enumerate() {
                let Ok(m) = san.to_move(&pos) else { break };
                pos.play_unchecked(m);
                if ply >= 10 && !pos.legal_moves().is_empty() {
                    positions.push(pos.clone());
                }
            }
        }
    }
    println!(
        "{} positions (both players 2600+, after ply 10)",
        positions.len()
    );
    let mut engine = Engine::new(EvalParams::default(), SearchParams::default(), 1);
    for (label, quiescence) in [("static eval", false), ("quiescence", true)] {
        let wall = Instant::now();
        let cpu = thread_cpu_time();
        let mut evals = 0u64;
        for p in &positions {
            if let Some((_, _, n)) = engine.best_move_1ply(p, quiescence) {
                evals += n;
            }
        }
        let secs = cpu
            .zip(thread_cpu_time())
            .map_or(wall.elapsed().as_secs_f64(), |(a, b)| (b - a).as_secs_f64());
        println!(
            "1-ply, {label:<11}: {:>9.0} positions/s, {:>10.0} evaluations (nodes)/s, {evals} nodes, {secs:.2} s CPU",
            positions.len() as f64 / secs,
            evals as f64 / secs
        );
    }
    let mut random = vec![EvalParams::default()];
    random.extend((1..100).map(EvalParams::random));
    let mut state = 3;
    println!("-- a first generation: Fig. 3's parameters and 99 random sets");
    shared_tree(&positions, &random);
    let near: Vec<EvalParams> = (0..100).map(|_| near_fig3(&mut state)).collect();
    println!("-- an evolved-like generation: 100 sets within ±25% of Fig. 3's values");
    shared_tree(&positions, &near);
}

/// Fig. 3's parameters, each moved by up to ±25%.
fn near_fig3(state: &mut u64) -> EvalParams {
    let base = EvalParams::default().to_array();
    let values: Vec<i32> = EvalParams::DEFS
        .iter()
        .zip(base)
        .map(|(d, v)| {
            *state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let spread = (v / 4).max(1);
            let delta = ((*state >> 33) % (2 * spread as u64 + 1)) as i32 - spread;
            (v + delta).clamp(d.min, d.max)
        })
        .collect();
    EvalParams::from_values(&values).expect("35 values")
}

fn cpu_seconds(run: impl FnOnce()) -> f64 {
    let wall = Instant::now();
    let cpu = thread_cpu_time();
    run();
    cpu.zip(thread_cpu_time())
        .map_or(wall.elapsed().as_secs_f64(), |(a, b)| (b - a).as_secs_f64())
}

/// 100 parameter sets on the first 1,000 positions: one shared tree per position against
/// one engine search per set and position.
fn shared_tree(positions: &[Chess], params: &[EvalParams]) {
    let positions = &positions[..positions.len().min(1000)];
    let weights: Vec<Weights> = params.iter().map(Weights::new).collect();
    let mut tree = OnePlyTree::new();
    let mut shared_choices = Vec::new();
    let mut nodes = 0;
    let shared = cpu_seconds(|| {
        for p in positions {
            tree.reset(p);
            for w in &weights {
                shared_choices.push(tree.best(w, OnePlyScoring::Quiescence).map(|b| b.0));
            }
            nodes += tree.nodes();
        }
    });
    // The same searches once more on each tree already grown: what the searches cost alone.
    let mut warm = 0.0;
    for p in positions {
        tree.reset(p);
        for w in &weights {
            tree.best(w, OnePlyScoring::Quiescence);
        }
        warm += cpu_seconds(|| {
            for w in &weights {
                tree.best(w, OnePlyScoring::Quiescence);
            }
        });
    }
    println!(
        "of which searching a grown tree: {:.2} µs per position and set",
        warm / (positions.len() * params.len()) as f64 * 1e6
    );
    let mut engines: Vec<Engine> = params
        .iter()
        .map(|p| Engine::new(*p, SearchParams::default(), 1))
        .collect();
    let mut engine_choices = Vec::new();
    let some = positions.len().min(100);
    let each = cpu_seconds(|| {
        for p in &positions[..some] {
            let moves = p.legal_moves();
            for e in &mut engines {
                let best = e.best_move_1ply(p, true).map(|b| b.0);
                engine_choices.push(best.and_then(|m| moves.iter().position(|x| *x == m)));
            }
        }
    });
    assert_eq!(
        engine_choices[..],
        shared_choices[..engine_choices.len()],
        "the shared tree chose otherwise than the engine"
    );
    let per_shared = shared / (positions.len() * params.len()) as f64;
    let per_engine = each / (some * params.len()) as f64;
    println!(
        "1-ply + quiescence, 100 parameter sets: shared tree {:.2} µs per position and set ({} tree nodes per position), engine per set {:.2} µs: {:.1}x",
        per_shared * 1e6,
        nodes / positions.len(),
        per_engine * 1e6,
        per_engine / per_shared
    );
    let phase_one = 100.0 * 200.0 * 5000.0;
    println!(
        "a full phase 1 (100 organisms x 200 generations x 5,000 positions): {:.0} CPU minutes shared, {:.0} with the engine per set",
        phase_one * per_shared / 60.0,
        phase_one * per_engine / 60.0
    );
}
