//! Measures 1-ply searches over grandmaster positions (seed 003, section III.B: "one thousand
//! positions can be processed in one second"): every position after the 10th ply of the
//! games in the given PGN files whose players are both rated 2600 or more.
//!
//! `cargo run --release -p eloworld-engine --example eval_speed -- data/pgn/*.pgn`
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)] // reason: an example program reports and exits

use eloworld_engine::bench::thread_cpu_time;
use eloworld_engine::{Engine, EvalParams, SearchParams};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Chess, Position};
use std::ops::ControlFlow;
use std::time::Instant;

struct Collect {
    positions: Vec<Chess>,
}

struct Game {
    pos: Chess,
    ply: u32,
    keep: bool,
}

impl Visitor for Collect {
    type Tags = [u32; 2];
    type Movetext = Game;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), [u32; 2]> {
        ControlFlow::Continue([0, 0])
    }

    fn tag(&mut self, tags: &mut [u32; 2], name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        let elo = || value.decode_utf8_lossy().trim().parse().unwrap_or(0);
        match name {
            b"WhiteElo" => tags[0] = elo(),
            b"BlackElo" => tags[1] = elo(),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: [u32; 2]) -> ControlFlow<(), Game> {
        ControlFlow::Continue(Game {
            pos: Chess::default(),
            ply: 0,
            keep: tags[0] >= 2600 && tags[1] >= 2600,
        })
    }

    fn san(&mut self, g: &mut Game, san: SanPlus) -> ControlFlow<()> {
        if !g.keep {
            return ControlFlow::Continue(());
        }
        match san.san.to_move(&g.pos) {
            Ok(m) => {
                g.pos.play_unchecked(m);
                g.ply += 1;
                if g.ply > 10 && !g.pos.legal_moves().is_empty() {
                    self.positions.push(g.pos.clone());
                }
            }
            Err(_) => g.keep = false,
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _g: Game) {}
}

fn main() {
    let mut collect = Collect {
        positions: Vec::new(),
    };
    for path in std::env::args().skip(1) {
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("cannot read {path}");
            std::process::exit(2);
        };
        let mut reader = Reader::new(&bytes[..]);
        while let Ok(Some(())) = reader.read_game(&mut collect) {}
    }
    let positions = collect.positions;
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
}
