//! The adaptive ladder schedule against random pairings and the round robin, on players of
//! known strength (the model of `eloworld synth`: Davidson's draws, White's advantage): 52
//! players spread evenly over 2,600 Elo, as many as Elo World's field here. Pure math — the
//! games' results are drawn from the model, nothing is played.

use eloworld_ladder::adaptive::{next_batch, status, Status};
use eloworld_ratings::synth::draw_result;
use eloworld_ratings::{PairCounts, PlayerId};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

const PLAYERS: usize = 52;
const SPREAD: f64 = 2600.0;
const ADVANTAGE: f64 = 20.0;
const DRAW_NU: f64 = 0.5;
const PRECISION: f64 = 100.0;

struct Field {
    strengths: Vec<f64>,
    counts: PairCounts,
    games: u64,
    rng: Xoshiro256PlusPlus,
}

impl Field {
    fn new(seed: u64) -> Field {
        Field {
            strengths: (0..PLAYERS)
                .map(|i| i as f64 * SPREAD / (PLAYERS - 1) as f64)
                .collect(),
            counts: PairCounts::new(PLAYERS),
            games: 0,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    fn play(&mut self, white: usize, black: usize) {
        let d = self.strengths[white] - self.strengths[black] + ADVANTAGE;
        let score = draw_result(d, DRAW_NU, &mut self.rng);
        self.counts.add(
            PlayerId(white as u32),
            PlayerId(black as u32),
            score,
            true,
            1,
        );
        self.games += 1;
    }

    fn status(&self) -> Status {
        status(&self.counts)
    }
}

/// Games the adaptive schedule needs to bring every player within `PRECISION`.
fn adaptive(seed: u64, budget: u64) -> (u64, f64) {
    let mut field = Field::new(seed);
    loop {
        let now = field.status();
        if now.precise(PRECISION) || field.games >= budget {
            return (field.games, now.worst());
        }
        for (w, b) in next_batch(&field.counts, &now, PRECISION, 4 * PLAYERS as u32) {
            field.play(w, b);
        }
    }
}

/// Games random pairings need (checked every `step` games).
fn random(seed: u64, step: u64, budget: u64) -> (u64, f64) {
    use rand::Rng;
    let mut field = Field::new(seed);
    let mut pairs = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0xABCD);
    loop {
        for _ in 0..step {
            let w = pairs.random_range(0..PLAYERS);
            let b = (w + pairs.random_range(1..PLAYERS)) % PLAYERS;
            field.play(w, b);
        }
        let now = field.status();
        if now.precise(PRECISION) || field.games >= budget {
            return (field.games, now.worst());
        }
    }
}

/// Games the round robin needs: whole rounds of every ordered pair once.
fn round_robin(seed: u64, budget: u64) -> (u64, f64) {
    let mut field = Field::new(seed);
    loop {
        for w in 0..PLAYERS {
            for b in 0..PLAYERS {
                if w != b {
                    field.play(w, b);
                }
            }
        }
        let now = field.status();
        if now.precise(PRECISION) || field.games >= budget {
            return (field.games, now.worst());
        }
    }
}

#[test]
fn the_adaptive_schedule_needs_half_the_games_of_random_pairings_and_fewer_than_a_round_robin() {
    let budget = 60_000;
    let (a, a_worst) = adaptive(1, budget);
    let (r, r_worst) = random(1, 1040, budget);
    let (rr, rr_worst) = round_robin(1, budget);
    println!(
        "{PLAYERS} players over {SPREAD} Elo, every 95% half-width within ±{PRECISION}: \
         adaptive {a} games (worst ±{a_worst:.1}), random pairings {r} (±{r_worst:.1}), \
         round robin {rr} (±{rr_worst:.1})"
    );
    assert!(
        a_worst <= PRECISION,
        "the adaptive schedule did not get there"
    );
    assert!(2 * a <= r, "adaptive {a} games, random {r}");
    assert!(a < rr, "adaptive {a} games, round robin {rr}");
    assert!(a <= 8_000, "adaptive {a} games");
}
