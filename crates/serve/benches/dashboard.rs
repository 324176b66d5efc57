//! The dashboard on a 100,000-game, 40-player store (the benchmark): rendering a
//! tournament's page, loading it over HTTP from a running server, and one update (one game
//! stored, then what the server does on its next poll: read what is new, count it, rate what
//! is due, render the parts that changed).
//!
//! `cargo bench -p eloworld-serve --bench dashboard` (ELOWORLD_BENCH_DB=FILE keeps the store).
#![expect(clippy::print_stderr, reason = "a benchmark reports its figures")]
#![expect(
    missing_docs,
    reason = "criterion_group! generates an undocumented function"
)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use eloworld_games::{GameKind, GameResult, MoveRecord, Side, Termination};
use eloworld_serve::{Dashboard, ServeConfig, Server};
use eloworld_tournament::{open_store, FinishedGame, Plan, Store, TournamentConfig};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::Duration;

const PLAYERS: usize = 40;
/// 40 × 39 ordered pairs × 70 = 109,200 jobs: 100,000 stored, the rest left for updates.
const GAMES_PER_PAIR: u32 = 70;
const STORED: usize = 100_000;

/// A result that favours the stronger (higher-numbered) player, varied by a hash.
fn result(white: u32, black: u32, round: u32) -> GameResult {
    let h = ((u64::from(white) * 0x9E37_79B9)
        ^ (u64::from(black) * 0x85EB_CA6B)
        ^ (u64::from(round) * 0xC2B2_AE35))
        .wrapping_mul(0x2545_F491_4F6C_DD1D)
        >> 40;
    let edge = i64::from(white) - i64::from(black);
    let roll = i64::try_from(h % 100).unwrap_or(0) + edge;
    if roll > 60 {
        GameResult::Win(Side::First)
    } else if roll < 30 {
        GameResult::Win(Side::Second)
    } else {
        GameResult::Draw
    }
}

fn finish(store: &mut dyn Store, id: i64, max: usize) -> usize {
    let jobs = store.claim(id, "bench", max, None).expect("claim");
    let games: Vec<FinishedGame> = jobs
        .iter()
        .map(|j| FinishedGame {
            job_id: j.id,
            tournament: j.tournament,
            attempt: j.attempt,
            result: result(j.white, j.black, j.round),
            termination: Termination::Checkmate,
            plies: 80,
            moves: MoveRecord::with_capacity(GameKind::Chess, 0),
            detail: None,
            wall_ms: 10.0,
            notes: Vec::new(),
        })
        .collect();
    store.complete("bench", &games).expect("complete").accepted
}

fn build(db: &Path) -> (Box<dyn Store>, i64) {
    let players: Vec<String> = (0..PLAYERS).map(|i| format!("player{i:02}")).collect();
    let mut config = TournamentConfig::new("big", GameKind::Chess, players);
    config.games_per_pair = GAMES_PER_PAIR;
    let plan = Plan::new(&config).expect("plan");
    let fresh = !db.exists();
    let mut store = open_store(db.to_str().expect("utf-8 path"), true).expect("store");
    let id = store.begin(&plan).expect("begin");
    if fresh {
        let mut stored = 0;
        while stored < STORED {
            stored += finish(store.as_mut(), id, (STORED - stored).min(20_000));
        }
    }
    (store, id)
}

fn get(addr: SocketAddr, path: &str) -> usize {
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut body = Vec::with_capacity(1 << 20);
    s.read_to_end(&mut body).expect("read");
    assert!(
        body.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&body[..80.min(body.len())])
    );
    body.len()
}

fn dashboard(c: &mut Criterion) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let db = std::env::var_os("ELOWORLD_BENCH_DB")
        .map_or_else(|| tmp.path().join("big.sqlite"), std::path::PathBuf::from);
    let (mut store, id) = build(&db);
    let location = db.to_str().expect("utf-8 path").to_owned();

    let started = std::time::Instant::now();
    let mut dash = Dashboard::open(&location).expect("dashboard");
    eprintln!(
        "opening the store and rating every method on {STORED} games: {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let mut group = c.benchmark_group("dashboard 100k games 40 players");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("render the tournament page", |b| {
        b.iter(|| dash.tournament_page("big").expect("page").len());
    });
    group.bench_function("one update (one game stored, one poll)", |b| {
        b.iter_batched(
            || assert_eq!(finish(store.as_mut(), id, 1), 1, "a pending job is left"),
            |()| dash.refresh().expect("refresh"),
            BatchSize::PerIteration,
        );
    });
    drop(dash);

    let mut config = ServeConfig::new(&location);
    config.bind = "127.0.0.1:0".parse().expect("address");
    let server = Server::start(config).expect("server");
    let addr = server.addr();
    group.bench_function("load the tournament page over HTTP", |b| {
        b.iter(|| get(addr, "/t/big"));
    });
    group.finish();
    server.stop().expect("stop");
}

criterion_group!(benches, dashboard);
criterion_main!(benches);
