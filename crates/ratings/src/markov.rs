//! p(Champion): the stationary distribution of the trophy chain of Murphy's Elo World, section 4.
//!
//! A Champion trophy is held by one player. From the holder i, it passes to opponent j with the
//! probability that j takes it in a game between them, (j's wins + draws/2)/games (a draw
//! passes it on a coin flip), times 1/(P − 1) for picking the opponent among the other P − 1
//! players; the remainder (i's wins, and opponents i never met) keeps it with i. The game is
//! played with a random colour, so when the pair met with both colours the rate is the mean
//! of j's rate as White and as Black (unequal colour counts would otherwise tilt it); games
//! with unknown colours join that mean in proportion to their number.
//!
//! A pair that never met keeps the trophy with its holder: a newcomer that won its only game
//! can hold it for ever (p = 1). [`missing_pairs`] lists such pairs so that a caller can warn.
//! p(Champion) is the stationary distribution π = π·T, solved directly as a linear system
//! with Σπ = 1. The chain is built over the largest group of players linked by games; players
//! outside it have no p(Champion).
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{markov::champion, Games, Score};
//! let mut games = Games::new();
//! games.add("a", "b", Score::Win, true, None);
//! games.add("b", "a", Score::Loss, true, None);
//! games.add("a", "b", Score::Loss, true, None);
//! // b takes the trophy from a at ½(0 + ½) = ¼ (as White it lost its one game, as Black it
//! // won one of two), a from b at ½(½ + 1) = ¾: π_a·¼ = π_b·¾, π = (¾, ¼).
//! let p = champion(&games.counts())?;
//! assert!((p[0].unwrap_or(0.0) - 0.75).abs() < 1e-12);
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
            if let Some(rate) = taking_rate(counts, i, j) {
                let pass = rate / others;
                t[a * m + b] = pass;
                stay -= pass;
            }
        }
        t[a * m + a] = stay;
    }
    let pi = linalg::stationary(&t, m).ok_or(RatingError::Singular("p(Champion)"))?;
    let mut out = vec![None; counts.n()];
    for (a, &i) in members.iter().enumerate() {
        // Round-off can leave −0 or −1e-17 where the probability is 0.
        out[i] = Some(if pi[a] > 0.0 { pi[a] } else { 0.0 });
    }
    Ok(out)
}

/// Returns the rate at which `challenger` takes the trophy from `holder` in a game between
/// them (colours balanced; see the module's notes), or `None` if they never met.
fn taking_rate(counts: &PairCounts, holder: usize, challenger: usize) -> Option<f64> {
    let points = |wdl: [u32; 3], taker_index: usize| {
        let n = f64::from(wdl[0] + wdl[1] + wdl[2]);
        (n > 0.0).then(|| {
            (
                (f64::from(wdl[taker_index]) + 0.5 * f64::from(wdl[1])) / n,
                n,
            )
        })
    };
    // The challenger as White (its wins are index 2) and as Black (the holder's losses, 0).
    let white = points(counts.coloured(challenger, holder), 2);
    let black = points(counts.coloured(holder, challenger), 0);
    let unknown = {
        let a = counts.uncoloured(challenger, holder);
        let b = counts.uncoloured(holder, challenger);
        points([a[0] + b[2], a[1] + b[1], a[2] + b[0]], 2)
    };
    let coloured = match (white, black) {
        (Some((w, nw)), Some((b, nb))) => Some((0.5 * (w + b), nw + nb)),
        (Some((w, nw)), None) => Some((w, nw)),
        (None, Some((b, nb))) => Some((b, nb)),
        (None, None) => None,
    };
    match (coloured, unknown) {
        (Some((c, nc)), Some((u, nu))) => Some((c * nc + u * nu) / (nc + nu)),
        (Some((c, _)), None) => Some(c),
        (None, Some((u, _))) => Some(u),
        (None, None) => None,
    }
}

/// Returns the pairs of the largest group who never met (where the trophy cannot pass).
#[must_use]
pub fn missing_pairs(counts: &PairCounts) -> Vec<(usize, usize)> {
    let groups = counts.groups();
    let Some(members) = groups.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (a, &i) in members.iter().enumerate() {
        for &j in &members[a + 1..] {
            if counts.games_between(i, j) == 0 {
                out.push((i, j));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Games, Score};

    #[test]
    fn three_players_by_hand() {
        // a beats b twice; b and c draw; a and c: one win each.
        // From a: to b 0/2·½ = 0, to c ½·½ = ¼, stay ¾.
        // From b: to a 1·½ = ½, to c ½·½ = ¼, stay ¼.
        // From c: to a ½·½ = ¼, to b ½·½ = ¼, stay ½.
        // π_b = ¼π_b + ¼π_c ⇒ π_c = 3π_b; π_a = ¾π_a + ½π_b + ¼π_c ⇒ π_a = 2π_b + 3π_b = 5π_b.
        // π = (5, 1, 3)/9.
        let mut g = Games::new();
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
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("c", "a", Score::Loss, true, None);
        g.add("b", "c", Score::Draw, true, None);
        let p = champion(&g.counts()).unwrap_or_default();
        assert!((p[0].unwrap_or(0.0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn unequal_colour_counts_are_averaged() {
        // b meets a three times as White (wins 1 of 3) and once as Black (wins it): pooled,
        // b takes 2/4 = ½; balanced, ½(⅓ + 1) = ⅔. With two players, from a to b: ⅔, from b
        // to a: ⅓ (a as White: 0 of 1; as Black: 2 of 3 → ½(0 + ⅔)).
        // π_a·⅔ = π_b·⅓ ⇒ π = (⅓, ⅔).
        let mut g = Games::new();
        g.add("b", "a", Score::Win, true, None);
        g.add("b", "a", Score::Loss, true, None);
        g.add("b", "a", Score::Loss, true, None);
        g.add("a", "b", Score::Loss, true, None);
        // b was named first: p = (b, a) = (⅔, ⅓); pooled colours would give (½, ½).
        let p = champion(&g.counts()).unwrap_or_default();
        assert!((p[0].unwrap_or(0.0) - 2.0 / 3.0).abs() < 1e-12, "{p:?}");
        assert!((p[1].unwrap_or(0.0) - 1.0 / 3.0).abs() < 1e-12, "{p:?}");
    }

    #[test]
    fn a_newcomer_who_never_met_the_others_is_a_missing_pair() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("b", "a", Score::Win, true, None);
        g.add("new", "a", Score::Win, true, None);
        let c = g.counts();
        assert_eq!(missing_pairs(&c), vec![(1, 2)]);
        // Nobody takes the trophy from the newcomer: it holds it for ever.
        let p = champion(&c).unwrap_or_default();
        assert!((p[2].unwrap_or(0.0) - 1.0).abs() < 1e-12, "{p:?}");
    }

    #[test]
    fn players_outside_the_largest_group_have_none() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("b", "c", Score::Draw, true, None);
        g.add("d", "e", Score::Draw, true, None);
        let p = champion(&g.counts()).unwrap_or_default();
        assert!(p[0].is_some() && p[3].is_none() && p[4].is_none());
    }
}
