//! The shipped ladders judge their own uncertainty: each carries the rungs' covariance, whose
//! diagonal gives every rung's 95% interval on the scale; and the rebuilt `elo-world` ladder
//! holds every rung within ±100 Elo (95%) on at most 8,000 games; the 9×9 Go ladder runs
//! from the simple players through GNU Go's levels to Pachi, within ±150 Elo on distinct games.

use eloworld_ladder::ladder::Ladder;
use eloworld_ratings::convert::Z95;
use std::path::Path;

fn shipped(name: &str) -> Ladder {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/ladders")
        .join(format!("{name}.toml"));
    Ladder::read(&path).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_shipped_ladder_carries_a_covariance_matching_its_intervals() {
    for name in ["elo-world", "elo-world-in-process", "go-9x9"] {
        let ladder = shipped(name);
        let n = ladder.rungs.len();
        assert_eq!(ladder.covariance.len(), n, "{name}");
        let c = ladder.covariance_matrix();
        for (k, r) in ladder.rungs.iter().enumerate() {
            let half = 0.5 * (r.high - r.low);
            assert!(
                (half - Z95 * c[k * n + k].sqrt()).abs() < 0.2,
                "{name} {}: ±{half} against the covariance's ±{}",
                r.player,
                Z95 * c[k * n + k].sqrt()
            );
            assert_eq!(r.vs_below.is_some(), k > 0, "{name} {}", r.player);
        }
    }
}

/// The `elo-world` ladder rebuilt by the adaptive schedule (`tournaments/elo-world.toml`,
/// `schedule = "ladder"`, precision 100, budget 8,000): it stopped by itself after 33 batches,
/// 6,864 games, with the widest rung at ±99.6 on the scale.
#[test]
fn the_elo_world_ladder_is_within_100_elo_on_every_rung_in_at_most_8000_games() {
    let ladder = shipped("elo-world");
    assert_eq!(ladder.rungs.len(), 52);
    assert!(
        ladder.game_count() <= 8_000,
        "{} games",
        ladder.game_count()
    );
    for r in &ladder.rungs {
        let half = 0.5 * (r.high - r.low);
        assert!(half <= 100.0, "{}: ±{half:.1}", r.player);
    }
}

/// The Go ladder's adaptive schedule (`tournaments/go-9x9-ladder.toml`), rebuilt on distinct
/// games (its fixed pairs from four random stones), stopped by itself after 1,072 games with
/// every rung within ±150 Elo (95%) on the scale; every program (GNU
/// Go's levels, Pachi's budgets) stands above every in-process player and every dilution of
/// GNU Go level 10, and Pachi at 2,000 playouts is the top rung.
#[test]
fn the_go_ladder_spans_the_simple_players_to_pachi_within_150_elo() {
    let ladder = shipped("go-9x9");
    assert_eq!(ladder.game, eloworld_ladder::ladder::LadderGame::Go);
    assert_eq!((ladder.size, ladder.komi), (Some(9), Some(7.0)));
    assert_eq!(ladder.rungs.len(), 18);
    assert_eq!(ladder.game_count(), 1_072);
    for r in &ladder.rungs {
        let half = 0.5 * (r.high - r.low);
        assert!(half <= 150.0, "{}: ±{half:.1}", r.player);
    }
    let rating = |p: &str| ladder.rung(p).map_or(f64::NAN, |r| r.rating);
    let is_program =
        |p: &str| (p.starts_with("gnugo:") && !p.contains("_r")) || p.starts_with("pachi:");
    let weakest_program = ladder
        .rungs
        .iter()
        .filter(|r| is_program(&r.player))
        .map(|r| r.rating)
        .fold(f64::INFINITY, f64::min);
    assert!(weakest_program.is_finite());
    for r in &ladder.rungs {
        if !is_program(&r.player) {
            assert!(
                r.rating < weakest_program,
                "{} at {} is not below the weakest program at {weakest_program}",
                r.player,
                r.rating
            );
        }
    }
    let top = ladder
        .rungs
        .iter()
        .max_by(|a, b| a.rating.total_cmp(&b.rating))
        .map(|r| r.player.as_str());
    assert_eq!(top, Some("pachi:playouts=2000"));
    // Each dilution of GNU Go level 10 by more random moves stands lower.
    let diluted: Vec<f64> = [16384, 32768, 49152, 57344, 61440]
        .iter()
        .map(|n| rating(&format!("gnugo:level=10_r{n}")))
        .collect();
    assert!(diluted.windows(2).all(|w| w[0] > w[1]), "{diluted:?}");
}
