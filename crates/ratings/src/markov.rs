//! p(Champion): the stationary distribution of the trophy chain of seed 002, section 4.
//!
//! A Champion trophy is held by one player. From the holder i, it passes to opponent j with the
//! probability that j takes it in a game between them, (j's wins + draws/2)/games over both
//! colours (a draw passes it on a coin flip), times 1/(P − 1) for picking the opponent among the
//! other P − 1 players; the remainder (i's wins, and opponents i never met) keeps it with i.
//! p(Champion) is the stationary distribution π = π·T, solved directly as a linear system
//! with Σπ = 1. The chain is built over the largest group of players linked by games; players
//! outside it have no p(Champion).
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{markov::champion, GameList, Score};
//! let mut games = GameList::new();
//! games.add("a", "b", Score::Win, true, None);
//! games.add("b", "a", Score::Loss, true, None);
//! games.add("a", "b", Score::Loss, true, None);
//! // b takes the trophy from a with ⅓, a from b with ⅔: π = (⅔, ⅓).
//! let p = champion(&games.counts())?;
//! assert!((p[0].unwrap_or(0.0) - 2.0 / 3.0).abs() < 1e-12);
//! # Ok::<_, eloworld_ratings::RatingError>(())
//! ```

use crate::{games::PairCounts, linalg, RatingError};

/// Returns each player's p(Champion); `None` for players outside the largest group.
///
/// # Errors
/// [`RatingError::NoGames`] without games, [`RatingError::Singular`] if the chain has no single
/// stationary distribution.
pub fn champion(counts: &PairCounts) -> Result<Vec<Option<f64>>, RatingError> {
    let groups = counts.groups();
    let members = groups
        .first()
        .filter(|g| g.len() >= 2)
        .ok_or(RatingError::NoGames)?;
    let m = members.len();
    // transition[i][j]: from holder i to j.
    let mut t = vec![0.0; m * m];
    let others = (m - 1) as f64;
    for (a, &i) in members.iter().enumerate() {
        let mut stay = 1.0;
        for (b, &j) in members.iter().enumerate() {
            if a == b {
                continue;
            }
            let [l, d, w] = counts.pair(i, j);
            let games = f64::from(l + d + w);
            if games > 0.0 {
                let pass = (f64::from(l) + 0.5 * f64::from(d)) / games / others;
                t[a * m + b] = pass;
                stay -= pass;
            }
        }
        t[a * m + a] = stay;
    }
    // π(T − I) = 0  ⇔  (Tᵀ − I)πᵀ = 0; the last equation is replaced by Σπ = 1.
    let mut a = vec![0.0; m * m];
    for r in 0..m {
        for c in 0..m {
            a[r * m + c] = t[c * m + r] - if r == c { 1.0 } else { 0.0 };
        }
    }
    for c in 0..m {
        a[(m - 1) * m + c] = 1.0;
    }
    let mut b = vec![0.0; m];
    b[m - 1] = 1.0;
    let pi = linalg::solve(a, b).ok_or(RatingError::Singular("p(Champion)"))?;
    let mut out = vec![None; counts.n()];
    for (a, &i) in members.iter().enumerate() {
        // Round-off can leave −0 or −1e-17 where the probability is 0.
        out[i] = Some(if pi[a] > 0.0 { pi[a] } else { 0.0 });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameList, Score};

    #[test]
    fn three_players_by_hand() {
        // a beats b twice; b and c draw; a and c: one win each.
        // From a: to b 0/2·½ = 0, to c ½·½ = ¼, stay ¾.
        // From b: to a 1·½ = ½, to c ½·½ = ¼, stay ¼.
        // From c: to a ½·½ = ¼, to b ½·½ = ¼, stay ½.
        // π_b = ¼π_b + ¼π_c ⇒ π_c = 3π_b; π_a = ¾π_a + ½π_b + ¼π_c ⇒ π_a = 2π_b + 3π_b = 5π_b.
        // π = (5, 1, 3)/9.
        let mut g = GameList::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("b", "a", Score::Loss, true, None);
        g.add("b", "c", Score::Draw, true, None);
        g.add("a", "c", Score::Win, true, None);
        g.add("c", "a", Score::Win, true, None);
        let p: Vec<f64> = champion(&g.counts())
            .unwrap_or_default()
            .into_iter()
            .flatten()
            .collect();
        let want = [5.0 / 9.0, 1.0 / 9.0, 3.0 / 9.0];
        assert!(
            p.iter().zip(want).all(|(x, y)| (x - y).abs() < 1e-12),
            "{p:?}"
        );
    }

    #[test]
    fn a_perfect_player_holds_the_trophy_for_ever() {
        let mut g = GameList::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("c", "a", Score::Loss, true, None);
        g.add("b", "c", Score::Draw, true, None);
        let p = champion(&g.counts()).unwrap_or_default();
        assert!((p[0].unwrap_or(0.0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn players_outside_the_largest_group_have_none() {
        let mut g = GameList::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("b", "c", Score::Draw, true, None);
        g.add("d", "e", Score::Draw, true, None);
        let p = champion(&g.counts()).unwrap_or_default();
        assert!(p[0].is_some() && p[3].is_none() && p[4].is_none());
    }
}
