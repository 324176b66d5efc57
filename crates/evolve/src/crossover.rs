//! Uniform crossover (David–Koppel–Netanyahu: "uniform crossover with crossover rate of 0.75"): with
//! probability `rate` the two parents exchange each bit independently with probability ½;
//! otherwise the children are copies of the parents.

use eloworld_games::GameRng;

/// Returns two children of `a` and `b` (which must have the same length).
///
/// # Panics
/// Panics if the parents' lengths differ.
#[must_use]
pub fn uniform(a: &[bool], b: &[bool], rate: f64, rng: &mut GameRng) -> (Vec<bool>, Vec<bool>) {
    assert_eq!(a.len(), b.len(), "parents of different lengths");
    let mut x = a.to_vec();
    let mut y = b.to_vec();
    if rng.unit() < rate {
        for i in 0..x.len() {
            if rng.unit() < 0.5 {
                std::mem::swap(&mut x[i], &mut y[i]);
            }
        }
    }
    (x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_take_each_bit_from_one_parent_and_rate_zero_copies() {
        let a = vec![true; 64];
        let b = vec![false; 64];
        let mut rng = GameRng::new(1);
        let (x, y) = uniform(&a, &b, 1.0, &mut rng);
        for i in 0..64 {
            assert_ne!(x[i], y[i], "bit {i} comes from one parent each");
        }
        let from_a = x.iter().filter(|&&v| v).count();
        assert!(
            (16..=48).contains(&from_a),
            "about half from each parent: {from_a}"
        );
        let (x, y) = uniform(&a, &b, 0.0, &mut rng);
        assert_eq!((x, y), (a, b));
    }

    #[test]
    fn the_rate_is_the_share_of_crossed_pairs() {
        let a = vec![true; 32];
        let b = vec![false; 32];
        let mut rng = GameRng::new(2);
        let crossed = (0..10_000)
            .filter(|_| uniform(&a, &b, 0.75, &mut rng).0 != a)
            .count();
        assert!((7_300..=7_700).contains(&crossed), "{crossed}");
    }
}
