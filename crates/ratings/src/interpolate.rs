//! Comparable interpolated player (Murphy's Elo World, section 4, the Scoville reading).
//!
//! A family is one player diluted with random moves at several strengths: `BASE` and
//! `BASE_rN`, where N/65536 is the chance of a random move. Like the Scoville scale, a player is
//! placed between the two family members whose ratings bracket its own ("blind_spycheck
//! performs between stockfish1m_r63488 and _r61440, so it is approximately a 93.75–96.875%
//! diluted Stockfish").
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::interpolate::place;
//! let names = ["sf_r61440", "sf_r63488", "blind", "sf"].map(String::from);
//! let ratings = [521.0, 482.0, 547.0, 2644.0];
//! let p = place("sf", &names, &ratings);
//! assert_eq!(p.len(), 1);
//! assert_eq!((p[0].weaker, p[0].stronger), (Some((0, 61440)), Some((3, 0))));
//! ```

/// Where a player falls among a family's members.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The player.
    pub player: usize,
    /// The strongest member rated at or below the player: (index, dilution N).
    pub weaker: Option<(usize, u32)>,
    /// The weakest member rated above the player: (index, dilution N).
    pub stronger: Option<(usize, u32)>,
}

/// Returns the dilution N of `name` if it is `base` (N = 0) or `base_rN`.
#[must_use]
pub fn dilution(base: &str, name: &str) -> Option<u32> {
    if name == base {
        return Some(0);
    }
    name.strip_prefix(base)?.strip_prefix("_r")?.parse().ok()
}

/// Places every player outside the family `base` between two of its members; players or
/// members with a non-finite rating are left out.
#[must_use]
pub fn place(base: &str, names: &[String], ratings: &[f64]) -> Vec<Placement> {
    let mut members: Vec<(usize, u32)> = names
        .iter()
        .enumerate()
        .filter(|(i, _)| ratings[*i].is_finite())
        .filter_map(|(i, n)| dilution(base, n).map(|d| (i, d)))
        .collect();
    members.sort_by(|a, b| ratings[a.0].total_cmp(&ratings[b.0]));
    (0..names.len())
        .filter(|&i| ratings[i].is_finite() && dilution(base, &names[i]).is_none())
        .map(|i| {
            let r = ratings[i];
            Placement {
                player: i,
                weaker: members.iter().rev().find(|m| ratings[m.0] <= r).copied(),
                stronger: members.iter().find(|m| ratings[m.0] > r).copied(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_002_blind_spycheck() {
        // Elo World's table: _r63488 482.44, _r61440 521.45, blind_spycheck 546.91,
        // swarm 534.03, _r57344 600.54, random_move 439.21 (below the whole family here).
        let names = [
            "stockfish1m_r63488",
            "stockfish1m_r61440",
            "blind_spycheck",
            "stockfish1m_r57344",
            "random_move",
            "stockfish1m_rx",
        ]
        .map(String::from);
        let ratings = [482.44, 521.45, 546.91, 600.54, 439.21, 0.0];
        let p = place("stockfish1m", &names, &ratings);
        assert_eq!(p.len(), 3);
        assert_eq!(
            p[0],
            Placement {
                player: 2,
                weaker: Some((1, 61440)),
                stronger: Some((3, 57344))
            }
        );
        assert_eq!(
            p[1],
            Placement {
                player: 4,
                weaker: None,
                stronger: Some((0, 63488))
            }
        );
        assert_eq!(dilution("stockfish1m", "stockfish1m_r0"), Some(0));
        assert_eq!(dilution("stockfish1m", "stockfish1m5"), None);
    }
}
