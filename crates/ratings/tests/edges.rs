//! The rating methods at the edges of their data, through the one entry point, with
//! expectations computed by hand or independently (`fixtures/unbounded_field.py`).

use eloworld_ratings::{
    mle::{Advantage, MleConfig},
    rate, Detail, Flag, Games, Method, Options, Score,
};

/// The field of `fixtures/unbounded_field.py`: S beats everyone, Z loses to everyone, a, b
/// and c take points from one another. Colours unknown.
fn unbounded_field() -> Games {
    let mut g = Games::new();
    let mut add = |a: &str, b: &str, s: Score, times: usize| {
        for _ in 0..times {
            g.add(a, b, s, false, None);
        }
    };
    add("S", "a", Score::Win, 2);
    add("S", "b", Score::Win, 2);
    add("S", "c", Score::Win, 1);
    add("S", "Z", Score::Win, 1);
    add("a", "b", Score::Win, 2);
    add("a", "b", Score::Loss, 1);
    add("a", "b", Score::Draw, 1);
    add("b", "c", Score::Win, 1);
    add("b", "c", Score::Loss, 2);
    add("a", "c", Score::Win, 1);
    add("a", "c", Score::Draw, 2);
    add("a", "c", Score::Loss, 1);
    add("a", "Z", Score::Win, 2);
    add("b", "Z", Score::Win, 1);
    add("c", "Z", Score::Win, 1);
    g
}

fn rated(games: &Games, options: &Options) -> eloworld_ratings::Ratings {
    rate(games, options).unwrap_or_else(|e| panic!("{}: {e}", options.method))
}

#[test]
fn one_unbeaten_and_one_winless_player_in_one_field() {
    let g = unbounded_field();
    assert_eq!(g.names(), ["S", "a", "b", "c", "Z"]);
    let r = rated(&g, &Options::new(Method::Mle));
    // From fixtures/unbounded_field.py (the joint equations solved directly).
    let expected = [
        1385.328532,
        1028.848131,
        933.823260,
        1037.328609,
        659.024473,
    ];
    for (k, want) in expected.into_iter().enumerate() {
        assert!(
            (r.values[k] - want).abs() < 1e-5,
            "{}: {} against {want}",
            g.names()[k],
            r.values[k]
        );
    }
    assert_eq!(
        r.flags,
        [
            Some(Flag::UnboundedAbove),
            None,
            None,
            None,
            Some(Flag::UnboundedBelow)
        ]
    );
    // The bound is one end of the interval; the other is open.
    assert_eq!(r.interval(0).map(|(_, high)| high), Some(f64::INFINITY));
    assert_eq!(r.interval(4).map(|(low, _)| low), Some(f64::NEG_INFINITY));
    let Detail::Mle(m) = &r.detail else {
        panic!("not mle")
    };
    assert!(m.converged);
    assert!(m.errors[1].is_finite() && m.errors[0].is_nan());
    // The unbeaten player is surely above the rest, the winless one surely below.
    assert_eq!(m.los(0, 1), 1.0);
    assert_eq!(m.los(4, 3), 0.0);
}

#[test]
fn rollason_collapses_onto_the_unbeaten_player_and_says_so() {
    // S never lost a point: points sharing gives it every point in the limit. Σ N = 42 game
    // ends, N_S = 6: its share tends to 500·42/6 = 3500 (rating 5000) and the rest to 1500.
    let r = rated(&unbounded_field(), &Options::new(Method::Rollason));
    assert!((r.values[0] - 5000.0).abs() < 1e-3, "{:?}", r.values);
    assert!(r.values[1..].iter().all(|&v| (v - 1500.0).abs() < 1e-3));
    assert_eq!(r.flags[0], Some(Flag::AtBound));
    assert!(r.flags[1..].iter().all(Option::is_none));
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("collapsed") && n.contains("S")),
        "{:?}",
        r.notes
    );
}

#[test]
fn a_disconnected_field_is_rated_per_group_with_each_advantage() {
    // Group 1: x, y, z (largest). Group 2: p scores 3 of 4 against q, all as White except
    // one game: with the advantage fixed at 0 the gap is 400·log10(3).
    let mut g = Games::new();
    for (a, b, s) in [
        ("x", "y", Score::Win),
        ("y", "x", Score::Draw),
        ("y", "z", Score::Win),
        ("z", "y", Score::Loss),
        ("z", "x", Score::Win),
        ("x", "z", Score::Loss),
        ("p", "q", Score::Win),
        ("p", "q", Score::Win),
        ("q", "p", Score::Loss),
        ("p", "q", Score::Loss),
    ] {
        g.add(a, b, s, true, None);
    }
    let mut options = Options::new(Method::Mle);
    options.mle = MleConfig {
        advantage: Advantage::Fixed(0.0),
        ..MleConfig::new()
    };
    let r = rated(&g, &options);
    let [x, y, z, p, q] = [0, 1, 2, 3, 4];
    assert_eq!(r.flags[p], Some(Flag::SeparateGroup));
    assert_eq!(r.flags[q], Some(Flag::SeparateGroup));
    assert!([x, y, z].iter().all(|&k| r.flags[k].is_none()));
    let gap = 400.0 * 3f64.log10();
    assert!((r.values[p] - r.values[q] - gap).abs() < 1e-6);
    assert!((r.values[p] + r.values[q] - 2000.0).abs() < 1e-6);
    // Fitted, each group has its own first-move advantage, reported for both.
    let fitted = rated(&g, &Options::new(Method::Mle));
    let Detail::Mle(m) = &fitted.detail else {
        panic!("not mle")
    };
    assert_eq!(m.group_advantages.len(), 2);
    assert!(m.group_advantages[1].0 != m.group_advantages[0].0);
}

#[test]
fn the_bootstrap_counts_resamples_without_a_finite_maximum_and_drops_none() {
    // a scores 19 of 20 against b and c, who split their games: many resamples give a
    // perfect score; each is rated with a at its bound and counted.
    let mut g = Games::new();
    for k in 0..20 {
        let s = if k == 0 { Score::Loss } else { Score::Win };
        g.add("a", if k % 2 == 0 { "b" } else { "c" }, s, false, None);
        g.add(
            "b",
            "c",
            if k % 2 == 0 { Score::Win } else { Score::Loss },
            false,
            None,
        );
    }
    let mut options = Options::new(Method::Mle);
    options.mle.bootstrap = 200;
    let r = rated(&g, &options);
    let Detail::Mle(m) = &r.detail else {
        panic!("not mle")
    };
    // P(a wins all 20 resampled games) = 0.95^20 ≈ 0.36 per resample, up to colour splits:
    // far from none and far from all of 200.
    assert!(
        m.undefined_resamples > 20 && m.undefined_resamples < 150,
        "{}",
        m.undefined_resamples
    );
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains(&format!("{} of 200", m.undefined_resamples))),
        "{:?}",
        r.notes
    );
    // Every resample counts: the upper end reaches far above the rating.
    assert!(m.low[0] < m.ratings[0] && m.high[0] > m.ratings[0] + 100.0);
}

#[test]
fn the_three_dispatchers_agreed_on_nothing_and_now_there_is_one() {
    // One spelling per method; elo_world is an alias; an unknown name lists the valid ones.
    assert_eq!("elo-world".parse::<Method>().ok(), Some(Method::EloWorld));
    assert_eq!("elo_world".parse::<Method>().ok(), Some(Method::EloWorld));
    let e = "Elo-World".parse::<Method>().err().map(|e| e.to_string());
    assert!(e.is_some_and(|e| e.contains("mle, uscf, elo-world, rollason, markov")));
}
