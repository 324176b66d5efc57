//! Per-bit mutation (David–Koppel–Netanyahu: mutation rate 0.005 for the evaluation, 0.05 for the search):
//! each bit flips independently with probability `rate`.

use eloworld_games::GameRng;

/// Flips each bit of `genome` with probability `rate`; returns how many flipped.
pub fn flip_bits(genome: &mut [bool], rate: f64, rng: &mut GameRng) -> usize {
    let mut flipped = 0;
    for bit in genome.iter_mut() {
        if rng.unit() < rate {
            *bit = !*bit;
            flipped += 1;
        }
    }
    flipped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flips_about_rate_times_length() {
        let mut rng = GameRng::new(3);
        let mut g = vec![false; 100_000];
        let n = flip_bits(&mut g, 0.005, &mut rng);
        assert_eq!(n, g.iter().filter(|&&b| b).count());
        assert!((400..=600).contains(&n), "{n}");
        let before = g.clone();
        assert_eq!(flip_bits(&mut g, 0.0, &mut rng), 0);
        assert_eq!(g, before);
    }
}
