//! `eloworld bench`: games per second of the tournament runner against a bare game loop in
//! the same process, on one and on two threads (the backbone issue's benchmark).

use crate::games::parse_kind;
use eloworld_games::rng::splitmix64;
use eloworld_games::squava::{line_made, FULL};
use eloworld_games::{Chess, DrawRules, GameKind, GameRng, Side, Squava};
use eloworld_players::PlayableGame;
use eloworld_tournament::{open_store, Plan, RunOptions, TournamentConfig};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{EnPassantMode, Position};
use std::process::ExitCode;
use std::time::Instant;

/// Measure the runner against a bare loop. The runner's rate counts the playing phase (every
/// game played and committed to a real SQLite file), not the one-time storing of the plan.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game to measure (both when absent).
    #[arg(long, value_parser = parse_kind)]
    game: Option<GameKind>,
    /// Games per measurement (default: 2000 for chess, 200000 for squava).
    #[arg(long)]
    games: Option<u64>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let kinds = args.game.map_or_else(|| GameKind::ALL.to_vec(), |k| vec![k]);
    for kind in kinds {
        match kind {
            GameKind::Chess => {
                let n = args.games.unwrap_or(2000);
                report::<Chess>(kind, n, bare_chess)?;
            }
            GameKind::Squava => {
                let n = args.games.unwrap_or(200_000);
                report::<Squava>(kind, n, bare_squava)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn report<G: PlayableGame>(kind: GameKind, n: u64, bare: fn(u64) -> u32) -> anyhow::Result<()>
where
    G::Rules: Default,
{
    println!("{kind}: random_move vs random_move, {n} games per measurement");
    let t = Instant::now();
    let mut plies = 0u64;
    for i in 0..n {
        plies += u64::from(bare(splitmix64(i)));
    }
    let bare_rate = n as f64 / t.elapsed().as_secs_f64();
    println!(
        "  bare loop, 1 thread:   {bare_rate:>12.0} games/s  ({:.0} plies/s, {:.1} plies/game)",
        plies as f64 / t.elapsed().as_secs_f64(),
        plies as f64 / n as f64
    );
    let one = runner_rate::<G>(kind, n, 1)?;
    println!("  runner, 1 thread:      {one:>12.0} games/s  ratio to bare loop {:.2} (target >= 0.8)", one / bare_rate);
    let two = runner_rate::<G>(kind, n, 2)?;
    println!("  runner, 2 threads:     {two:>12.0} games/s  ratio to 1 thread {:.2} (target >= 1.8)", two / one);
    Ok(())
}

fn runner_rate<G: PlayableGame>(kind: GameKind, n: u64, threads: usize) -> anyhow::Result<f64>
where
    G::Rules: Default,
{
    let dir = std::env::temp_dir().join(format!("eloworld-bench-{}-{kind}-{threads}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let db = dir.join("bench.sqlite");
    let mut config = TournamentConfig::new("bench", kind, vec!["random_move".to_owned()]);
    config.self_play = true;
    config.games_per_pair = u32::try_from(n)?;
    config.seed = 1;
    let plan = Plan::new(&config)?;
    let mut store = open_store(&db.to_string_lossy(), true)?;
    let opts = RunOptions { threads, checkpoint_games: 256, ..RunOptions::default() };
    let summary = eloworld_tournament::run::<G>(&plan, &G::builtin_players(), G::Rules::default(), &mut *store, &opts)?;
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
    anyhow::ensure!(summary.stored == n, "runner stored {} of {n} games", summary.stored);
    Ok(n as f64 / summary.playing.as_secs_f64())
}

/// A random chess game on bare shakmaty with the same end checks as [`Chess`] under the
/// automatic draw rules; returns its plies.
fn bare_chess(seed: u64) -> u32 {
    let mut rngs = [GameRng::for_side(seed, Side::First), GameRng::for_side(seed, Side::Second)];
    let mut pos = shakmaty::Chess::default();
    let mut hash = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal);
    let mut history: Vec<u64> = Vec::with_capacity(256);
    history.push(hash.0);
    let mut plies = 0;
    let _ = DrawRules::Automatic;
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.is_insufficient_material() || pos.halfmoves() >= 150 || plies >= 2000 {
            return plies;
        }
        if history.len() > 8 && (0..history.len()).rev().step_by(2).filter(|&i| history[i] == hash.0).count() >= 5 {
            return plies;
        }
        let side = usize::from(pos.turn().is_black());
        let m = moves[rngs[side].below(moves.len())];
        if pos.is_irreversible(m) {
            history.clear();
            pos.play_unchecked(m);
            hash = pos.zobrist_hash(EnPassantMode::Legal);
        } else {
            let next = pos.update_zobrist_hash(hash, m, EnPassantMode::Legal);
            pos.play_unchecked(m);
            hash = next.unwrap_or_else(|| pos.zobrist_hash(EnPassantMode::Legal));
        }
        history.push(hash.0);
        plies += 1;
    }
}

/// A random squava game on bare bitboards; returns its plies.
fn bare_squava(seed: u64) -> u32 {
    let mut rngs = [GameRng::for_side(seed, Side::First), GameRng::for_side(seed, Side::Second)];
    let mut stones = [0u32; 2];
    let mut plies = 0;
    loop {
        let side = (plies % 2) as usize;
        let empty = !(stones[0] | stones[1]) & FULL;
        let k = rngs[side].below(empty.count_ones() as usize);
        let mut e = empty;
        for _ in 0..k {
            e &= e - 1;
        }
        let sq = e.trailing_zeros() as usize;
        stones[side] |= 1 << sq;
        plies += 1;
        if line_made(stones[side], sq).is_some() || (stones[0] | stones[1]) == FULL {
            return plies;
        }
    }
}
