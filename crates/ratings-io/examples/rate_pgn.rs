//! Reads a PGN file's headers and rates it, timing each step in process:
//! `cargo run --profile quick -p eloworld-ratings-io --example rate_pgn FILE.pgn [mle]`
//! (with `mle`, only the file and mle, as `ordo -p FILE.pgn` does).
//! For the side-by-side comparison with Ordo on the same file (whole-process figures are
//! taken outside this program).
#![expect(
    clippy::print_stdout,
    reason = "an example program reports its timings"
)]

use eloworld_ratings::{rate, rate_all, Method, NameCase, Options};
use eloworld_ratings_io as io;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("give a PGN file")?;
    let start = Instant::now();
    let read = io::read_pgn(std::fs::File::open(&path)?, NameCase::Fold)?;
    let read_time = start.elapsed().as_secs_f64();
    let t = Instant::now();
    let mle = rate(&read.games, &Options::new(Method::Mle))?;
    let mle_time = t.elapsed().as_secs_f64();
    if std::env::args().nth(2).as_deref() == Some("mle") {
        println!(
            "{} games, {} players: read {read_time:.3} s, mle {mle_time:.3} s; first player {:.1}",
            read.games.len(),
            read.games.player_count(),
            mle.values[0]
        );
        return Ok(());
    }
    let t = Instant::now();
    let all = rate_all(&read.games, &Options::default());
    let all_time = t.elapsed().as_secs_f64();
    println!(
        "{} games, {} players: read {read_time:.3} s, mle {mle_time:.3} s, every method {all_time:.3} s ({} computed), total {:.3} s",
        read.games.len(),
        read.games.player_count(),
        all.iter().filter(|(_, r)| r.is_ok()).count(),
        start.elapsed().as_secs_f64()
    );
    println!("first player's mle rating {:.1}", mle.values[0]);
    Ok(())
}
