//! Placement intervals that mean what they say: 100 new players of known strength, each
//! placed on its own small ladder of players of known strength (the model of `eloworld
//! synth`, eight games per ordered pair, so the rungs themselves are uncertain). The interval
//! that adds the rungs' covariance covers the true strength on the ladder's scale for at
//! least 90 of them; the interval with the rungs held fixed covers fewer.

use eloworld_ladder::ladder::Ladder;
use eloworld_ladder::placement::{combined, next_rung, place, start_estimate, RungGames};
use eloworld_ratings::convert::Z95;
use eloworld_ratings::synth::{draw_result, simulate, SynthConfig};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const RUNGS: usize = 10;
const GAMES_PER_PAIR: usize = 8;
const ADVANTAGE: f64 = 30.0;
// No draws: with draws, Davidson's curve is flatter than the logistic curve the ratings are
// fitted with, and the fitted scale is narrower than the true strengths'.
const DRAW_NU: f64 = 0.0;

/// Places one player of `strength` on ladder `seed`; returns (inside combined, inside fixed,
/// combined half-width, fixed half-width).
fn one_placement(seed: u64, rng: &mut Xoshiro256PlusPlus) -> (bool, bool, f64, f64) {
    let s = simulate(&SynthConfig {
        players: RUNGS,
        games: (RUNGS * (RUNGS - 1) * GAMES_PER_PAIR) as u64,
        spread: 200.0,
        draw_nu: DRAW_NU,
        advantage: ADVANTAGE,
        seed,
        cycle_margin: 0.0,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let ladder = Ladder::from_games(
        "synthetic",
        eloworld_ladder::ladder::LadderGame::Chess,
        &s.games,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ladder.rungs.len(), RUNGS, "every player is a rung");
    let names = s.games.names();
    let truth_of = |player: &str| s.strengths[names.iter().position(|n| n == player).unwrap_or(0)];
    let truths: Vec<f64> = ladder.rungs.iter().map(|r| truth_of(&r.player)).collect();
    let mean = s.strengths.iter().sum::<f64>() / RUNGS as f64;
    // The new player: somewhere among the rungs' true strengths.
    let lowest = truths.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = truths.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let strength = lowest + (highest - lowest) * rng.random::<f64>();
    let ratings: Vec<f64> = ladder.rungs.iter().map(|r| r.rating).collect();
    let usable = vec![true; RUNGS];
    let mut games = RungGames::none_against(&ratings);
    let mut played = vec![0u32; RUNGS];
    let mut estimate = start_estimate(&ratings, &usable);
    let mut placed = place(&games, ladder.advantage);
    while placed.games < 600 && (placed.flagged || placed.half_width() > 25.0) {
        let Some(k) = next_rung(&ratings, &played, &usable, estimate) else {
            break;
        };
        for white in [true, false] {
            let d = strength - truths[k];
            if white {
                let score = draw_result(d + ADVANTAGE, DRAW_NU, rng);
                games[k].as_white.add(score.points());
            } else {
                let score = draw_result(-d + ADVANTAGE, DRAW_NU, rng);
                games[k].as_black.add(1.0 - score.points());
            }
        }
        played[k] += 2;
        placed = place(&games, ladder.advantage);
        estimate = placed.rating;
    }
    let truth = strength - mean + 1000.0;
    let both = combined(
        &games,
        &placed,
        ladder.advantage,
        &ladder.covariance_matrix(),
    );
    (
        (placed.rating - truth).abs() <= Z95 * both.error,
        (placed.rating - truth).abs() <= Z95 * placed.error,
        0.5 * (both.high - both.low),
        placed.half_width(),
    )
}

#[test]
fn the_combined_interval_covers_the_true_strength_and_the_fixed_one_does_not() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
    let (mut combined_in, mut fixed_in) = (0, 0);
    let (mut combined_width, mut fixed_width) = (0.0, 0.0);
    let trials = 100;
    for seed in 0..trials {
        let (c, f, cw, fw) = one_placement(1000 + seed, &mut rng);
        combined_in += usize::from(c);
        fixed_in += usize::from(f);
        combined_width += cw / trials as f64;
        fixed_width += fw / trials as f64;
    }
    println!(
        "{trials} placements on ladders of {RUNGS} rungs ({GAMES_PER_PAIR} games per ordered pair): the combined \
         interval (mean ±{combined_width:.0}) covers the true strength {combined_in} times, the \
         fixed-rung interval (mean ±{fixed_width:.0}) {fixed_in} times"
    );
    assert!(
        combined_in >= 90,
        "combined covers {combined_in} of {trials}"
    );
    assert!(
        fixed_in < combined_in && fixed_in < 90,
        "fixed covers {fixed_in}"
    );
}
