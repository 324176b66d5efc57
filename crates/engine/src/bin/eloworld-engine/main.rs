//! `eloworld-engine`: the parametric engine behind the UCI protocol, so fastchess, cutechess
//! or a GUI can play it. Every evaluation and search parameter is a UCI spin option named as
//! in David, Koppel and Netanyahu's evolution paper (`KNIGHT_VALUE`, `NULL_MOVE_REDUCTION`, …).
//!
//! Besides the UCI commands it understands `bench [depth]` (also as a command-line argument:
//! `eloworld-engine bench`), which prints the node signature and nodes per second (with a
//! 2 MiB table, or the `Hash` set before it), and `eval`,
//! which prints the static evaluation of the current position. Two more command-line tools fit
//! the piece-square, mobility and tempo terms ([`eloworld_engine::pst`]): `positions` lists the
//! quiet positions of PGN games, `fit-tables` fits the terms to a stronger engine's scores of
//! them. At the end of its input it
//! lets a running search finish (so `echo "position startpos\ngo depth 8" | eloworld-engine`
//! prints a move); `quit` stops at once.
#![expect(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a UCI engine speaks on standard output"
)]

use eloworld_engine::bench::{run_bench_with, BENCH_DEPTH, BENCH_FENS, BENCH_HASH_MB};
use eloworld_engine::search::mate_in;
use eloworld_engine::search::Techniques;
use eloworld_engine::tt::TranspositionTable;
use eloworld_engine::{evaluate, Engine, EvalParams, InfoEvent, Limits, SearchInfo, SearchParams};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

mod tables;

const DEFAULT_HASH_MB: usize = 16;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("bench") {
        let depth = args
            .get(1)
            .and_then(|d| d.parse().ok())
            .unwrap_or(BENCH_DEPTH);
        bench(
            EvalParams::default(),
            SearchParams::default(),
            Techniques::default(),
            depth,
            BENCH_HASH_MB,
        );
        return ExitCode::SUCCESS;
    }
    let tool = match args.first().map(String::as_str) {
        Some("positions") => Some(tables::positions as fn(&[String]) -> Result<(), String>),
        Some("fit-tables") => Some(tables::fit_tables as fn(&[String]) -> Result<(), String>),
        _ => None,
    };
    if let Some(tool) = tool {
        return match tool(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("eloworld-engine: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if let Some(other) = args.first() {
        eprintln!("usage: eloworld-engine [bench [DEPTH] | positions … | fit-tables …]  (got {other:?}); without arguments it speaks UCI");
        return ExitCode::from(2);
    }
    let mut uci = Uci::new();
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if !uci.command(line.trim()) {
            uci.stop_search();
            return ExitCode::SUCCESS;
        }
    }
    // End of input (a script piped in): let a bounded search finish and print its move.
    uci.finish_search();
    ExitCode::SUCCESS
}

/// Prints the bench: nodes per position, the total (the signature) and nodes per second.
fn bench(
    eval: EvalParams,
    search: SearchParams,
    techniques: Techniques,
    depth: u32,
    hash_mb: usize,
) {
    let r = run_bench_with(eval, search, techniques, depth, hash_mb);
    for (i, (fen, nodes)) in BENCH_FENS.iter().zip(&r.nodes_per_position).enumerate() {
        println!("position {:>2}: {nodes:>10} nodes  {fen}", i + 1);
    }
    println!("depth {depth}");
    println!("hash {hash_mb} MB");
    println!("Total time (ms) : {}", r.elapsed.as_millis());
    println!("Nodes searched  : {}", r.total_nodes);
    println!("Nodes/second    : {:.0}", r.nodes_per_second());
    if let Some(cpu) = r.nodes_per_cpu_second() {
        println!("Nodes/CPU second: {cpu:.0}");
    }
}

struct Uci {
    engine: Arc<Mutex<Engine>>,
    eval: EvalParams,
    search: SearchParams,
    techniques: Techniques,
    /// The table set by `setoption name Hash`, in MiB; until then games search with
    /// `DEFAULT_HASH_MB` and `bench` with [`BENCH_HASH_MB`] (the signature's).
    hash_mb: Option<usize>,
    position: Chess,
    /// Keys of the positions before the current one, oldest first.
    keys: Vec<u64>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

fn key_of(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

fn uci_text(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Standard).to_string()
}

impl Uci {
    fn new() -> Uci {
        let eval = EvalParams::default();
        let search = SearchParams::default();
        Uci {
            engine: Arc::new(Mutex::new(Engine::new(eval, search, DEFAULT_HASH_MB))),
            eval,
            search,
            techniques: Techniques::default(),
            hash_mb: None,
            position: Chess::default(),
            keys: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
            thread: None,
        }
    }

    /// Handles one command; returns false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return true };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => self.identify(),
            "isready" => say("readyok"),
            "ucinewgame" => {
                self.stop_search();
                self.with_engine(Engine::clear);
            }
            "setoption" => self.set_option(&rest),
            "position" => {
                self.stop_search();
                if let Err(e) = self.set_position(&rest) {
                    say(&format!("info string error: {e}"));
                }
            }
            "go" => self.go(&rest),
            "stop" => self.stop_search(),
            "bench" => {
                self.stop_search();
                let depth = rest
                    .first()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(BENCH_DEPTH);
                bench(
                    self.eval,
                    self.search,
                    self.techniques,
                    depth,
                    self.hash_mb.unwrap_or(BENCH_HASH_MB),
                );
            }
            "eval" => say(&format!(
                "info string static eval {} cp (side to move)",
                evaluate(&self.position, &self.eval)
            )),
            "quit" => return false,
            other => say(&format!("info string unknown command {other:?}")),
        }
        true
    }

    fn identify(&self) {
        say("id name eloworld-engine");
        say("id author the eloworld project (parameters: David, Koppel, Netanyahu)");
        say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 4096"
        ));
        for (name, on) in Techniques::default().uci_options() {
            say(&format!("option name {name} type check default {on}"));
        }
        for d in EvalParams::DEFS.iter().chain(SearchParams::DEFS) {
            say(&format!(
                "option name {} type spin default {} min {} max {}",
                d.name, d.default, d.min, d.max
            ));
        }
        say("uciok");
    }

    fn with_engine(&self, f: impl FnOnce(&mut Engine)) {
        let mut guard = self.engine.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut guard);
    }

    fn set_option(&mut self, words: &[&str]) {
        self.stop_search();
        // setoption name <NAME> value <V>
        let name_at = words.iter().position(|w| *w == "name").map(|i| i + 1);
        let value_at = words.iter().position(|w| *w == "value");
        let (Some(n), Some(v)) = (name_at, value_at) else {
            say("info string expected: setoption name NAME value V");
            return;
        };
        let name = words[n..v].join(" ");
        if let Some(switch) = self.techniques.uci_switch(&name) {
            match words.get(v + 1).copied() {
                Some("true") => *switch = true,
                Some("false") => *switch = false,
                _ => {
                    say(&format!(
                        "info string option {name}: value is not true or false"
                    ));
                    return;
                }
            }
            let techniques = self.techniques;
            self.with_engine(|e| e.techniques = techniques);
            return;
        }
        let Some(value) = words.get(v + 1).and_then(|x| x.parse::<i64>().ok()) else {
            say(&format!(
                "info string option {name}: value is not an integer"
            ));
            return;
        };
        let value = i32::try_from(value).unwrap_or(if value < 0 { i32::MIN } else { i32::MAX });
        if name.eq_ignore_ascii_case("Hash") {
            let mb = usize::try_from(value.clamp(1, 4096)).unwrap_or(DEFAULT_HASH_MB);
            self.hash_mb = Some(mb);
            let (eval, search) = (self.eval, self.search);
            let techniques = self.techniques;
            self.with_engine(|e| {
                *e = Engine::with_table(eval, search, TranspositionTable::new(mb));
                e.techniques = techniques;
            });
            return;
        }
        if self.eval.set(&name, value).is_err() && self.search.set(&name, value).is_err() {
            say(&format!("info string unknown option {name:?}"));
            return;
        }
        let (eval, search) = (self.eval, self.search);
        self.with_engine(|e| {
            e.eval = eval;
            e.search = search;
        });
    }

    fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        let moves_at = words.iter().position(|w| *w == "moves");
        let setup = &words[..moves_at.unwrap_or(words.len())];
        let mut pos = match setup.first() {
            Some(&"startpos") => Chess::default(),
            Some(&"fen") => {
                let fen = setup[1..].join(" ");
                fen.parse::<Fen>()
                    .map_err(|e| format!("bad FEN {fen:?}: {e}"))?
                    .into_position(CastlingMode::Standard)
                    .map_err(|e| format!("illegal position {fen:?}: {e}"))?
            }
            _ => return Err("expected `position startpos|fen FEN [moves …]`".to_owned()),
        };
        let mut keys = Vec::new();
        for text in moves_at.map_or(&[][..], |i| &words[i + 1..]) {
            let m = text
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
                .ok_or_else(|| format!("illegal move {text:?}"))?;
            keys.push(key_of(&pos));
            pos.play_unchecked(m);
        }
        self.position = pos;
        self.keys = keys;
        Ok(())
    }

    fn go(&mut self, words: &[&str]) {
        self.stop_search();
        let mut limits = Limits::infinite();
        let num = |key: &str| -> Option<u64> {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
                .and_then(|v| v.parse().ok())
        };
        limits.depth = num("depth").map(|d| u32::try_from(d).unwrap_or(u32::MAX));
        limits.nodes = num("nodes");
        if let Some(ms) = num("movetime") {
            limits.time = Some(Duration::from_millis(ms));
        }
        let white = self.position.turn().is_white();
        if let Some(left) = num(if white { "wtime" } else { "btime" }) {
            let inc = num(if white { "winc" } else { "binc" }).unwrap_or(0);
            let moves_to_go = num("movestogo").unwrap_or(30).max(1);
            let budget = left / moves_to_go + inc * 3 / 4;
            limits.time = Some(Duration::from_millis(
                budget.min(left.saturating_sub(50)).max(1),
            ));
        }
        self.stop.store(false, Ordering::Relaxed);
        limits.stop = Some(Arc::clone(&self.stop));
        let engine = Arc::clone(&self.engine);
        let pos = self.position.clone();
        let keys = self.keys.clone();
        self.thread = Some(std::thread::spawn(move || {
            let start = Instant::now();
            let mut guard = engine.lock().unwrap_or_else(PoisonError::into_inner);
            let mut report = |info: &SearchInfo| {
                if info.event == InfoEvent::Iteration {
                    let ms = start.elapsed().as_millis().max(1);
                    let score = match mate_in(info.score) {
                        Some(n) => format!("mate {n}"),
                        None => format!("cp {}", info.score),
                    };
                    let pv: Vec<String> = info.pv.iter().map(|&m| uci_text(m)).collect();
                    say(&format!(
                        "info depth {} score {score} nodes {} nps {} time {ms} pv {}",
                        info.depth,
                        info.nodes,
                        u128::from(info.nodes) * 1000 / ms,
                        pv.join(" ")
                    ));
                }
            };
            let result = guard.search(&pos, &keys, &limits, &mut report);
            match result.best_move {
                Some(m) => say(&format!("bestmove {}", uci_text(m))),
                None => say("bestmove 0000"),
            }
        }));
    }

    fn finish_search(&mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join(); // a panicked search already printed its message
        }
    }

    fn stop_search(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join(); // a panicked search already printed its message
        }
    }
}

fn say(text: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{text}"); // a closed pipe: the GUI is gone, nothing to tell it
    let _ = out.flush();
}
