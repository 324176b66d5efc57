//! Times every method on simulated games, in process (no file reading):
//! `cargo run --release -p eloworld-ratings-io --example rate_1m [GAMES] [PLAYERS]`.
//! The end-to-end benchmark with PGN reading is `crates/ratings/benches/rate_1m.sh`.
#![expect(
    clippy::print_stdout,
    reason = "an example program reports its timings"
)]

use eloworld_ratings::{
    rate, rate_all,
    synth::{simulate, SynthConfig},
    Detail, Method, Options,
};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `rate_1m predict [GAMES]`: simulate, then only the cross-validation (its whole-process
    // figure); `rate_1m bayeselo FILE.pgn`: read a PGN and fit BayesElo's model.
    let first = std::env::args().nth(1);
    if first.as_deref() == Some("predict") {
        let games = std::env::args()
            .nth(2)
            .map(|a| a.parse())
            .transpose()?
            .unwrap_or(1_000_000);
        let s = simulate(&SynthConfig {
            games,
            ..SynthConfig::new()
        })?;
        let t = Instant::now();
        let cv = eloworld_ratings::predict::cross_validate(&s.games, &Options::default(), 5)?;
        println!(
            "predict, 5 folds, {games} games: {:.3} s, best {}",
            t.elapsed().as_secs_f64(),
            cv.scores.first().map_or("", |p| p.method.name())
        );
        return Ok(());
    }
    if first.as_deref() == Some("bayeselo") {
        let path = std::env::args().nth(2).ok_or("bayeselo FILE.pgn")?;
        let read = eloworld_ratings_io::read_pgn(
            std::fs::File::open(&path)?,
            eloworld_ratings::NameCase::Exact,
        )?;
        let r = rate(&read.games, &Options::new(Method::BayesElo))?;
        println!("bayeselo: {} players rated", r.values.len());
        return Ok(());
    }
    let mut args = std::env::args().skip(1);
    let games = args
        .next()
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(1_000_000);
    let players = args.next().map(|a| a.parse()).transpose()?.unwrap_or(50);
    let t = Instant::now();
    let s = simulate(&SynthConfig {
        players,
        games,
        ..SynthConfig::new()
    })?;
    println!(
        "simulate {games} games among {players}: {:.3} s",
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let counts = s.games.counts();
    println!("counts: {:.3} s", t.elapsed().as_secs_f64());
    let mut games_per_cell = 0;
    for method in Method::ALL {
        let t = Instant::now();
        let r = rate(&s.games, &Options::new(method))?;
        let took = t.elapsed().as_secs_f64();
        match &r.detail {
            Detail::Mle(m) => {
                let mean = s.strengths.iter().sum::<f64>() / players as f64;
                let rms = (m
                    .ratings
                    .iter()
                    .zip(&s.strengths)
                    .map(|(r, x)| (r - 1000.0 - (x - mean)).powi(2))
                    .sum::<f64>()
                    / players as f64)
                    .sqrt();
                println!("mle: {took:.3} s, rms error {rms:.2} Elo");
            }
            Detail::Rollason(x) => {
                println!("rollason: {took:.3} s ({} iterations)", x.iterations);
            }
            Detail::EloWorld(e) => {
                games_per_cell = e.games_per_cell;
                println!(
                    "elo-world: {took:.3} s (n = {}, {} cells, {} threads)",
                    e.games_per_cell,
                    e.cells,
                    rayon::current_num_threads()
                );
            }
            Detail::Whr(w) => println!(
                "whr: {took:.3} s ({} cycles, converged {})",
                w.iterations, w.converged
            ),
            _ => println!("{method}: {took:.3} s"),
        }
    }
    let t = Instant::now();
    let all = rate_all(&s.games, &Options::default());
    println!(
        "every method together (rate_all, in parallel): {:.3} s, {} computed",
        t.elapsed().as_secs_f64(),
        all.iter().filter(|(_, r)| r.is_ok()).count()
    );
    let t = Instant::now();
    let cv = eloworld_ratings::predict::cross_validate(&s.games, &Options::default(), 5)?;
    println!(
        "predict, 5 folds, {} methods scored on {} games: {:.3} s",
        cv.scores.len(),
        cv.test_games,
        t.elapsed().as_secs_f64()
    );
    for p in &cv.scores {
        println!(
            "  {}: log loss {:.4}, Brier {:.4}",
            p.method, p.log_loss, p.brier
        );
    }
    // Baseline: the direct single-thread implementation (a vector of games per pass, a full
    // shuffle, a power of ten per game), one repetition timed and scaled to the 19.
    let t = Instant::now();
    naive_repetition(&counts, games_per_cell, players);
    let naive = t.elapsed().as_secs_f64() * 19.0;
    println!("elo-world direct single-thread baseline (1 run × 19): {naive:.3} s");
    Ok(())
}

fn naive_repetition(counts: &eloworld_ratings::PairCounts, n: u32, players: usize) -> Vec<f64> {
    use rand::{seq::SliceRandom, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
    let mut ratings = vec![1000.0; players];
    for pass in 0..20 {
        let k = 10.0 - 9.5 * f64::from(pass) / 19.0;
        let mut games: Vec<(usize, usize, f64)> = Vec::new();
        for w in 0..players {
            for b in 0..players {
                if w == b {
                    continue;
                }
                let [l, d, x] = counts.coloured(w, b);
                let mut cell: Vec<f64> = std::iter::repeat_n(0.0, l as usize)
                    .chain(std::iter::repeat_n(0.5, d as usize))
                    .chain(std::iter::repeat_n(1.0, x as usize))
                    .collect();
                cell.shuffle(&mut rng);
                games.extend(cell[..n as usize].iter().map(|&s| (w, b, s)));
            }
        }
        games.shuffle(&mut rng);
        for (w, b, s) in games {
            let e = 1.0 / (1.0 + 10f64.powf((ratings[b] - ratings[w]) / 400.0));
            ratings[w] += k * (s - e);
            ratings[b] -= k * (s - e);
        }
    }
    ratings
}
