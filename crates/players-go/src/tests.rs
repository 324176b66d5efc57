use super::*;
use eloworld_games::{GoRules, Komi};

fn position(text: &str) -> Go {
    let rows = text.split('/').count();
    let rules = GoRules::new(u8::try_from(rows).expect("size"), Komi::DEFAULT).expect("rules");
    Go::from_position(text, rules).expect("a legal position")
}

fn vertex(g: &Go, mv: GoMove) -> String {
    g.move_code(mv)
}

#[test]
fn random_never_fills_its_own_eye_and_passes_when_only_eyes_are_left() {
    // Black owns the board but for two single-point eyes (A1, E5) and C3.
    let g = position("xxxx./xxxxx/xx.xx/xxxxx/.xxxx b");
    let mut rng = GameRng::new(1);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..200 {
        seen.insert(vertex(&g, RandomGo::default().pick(&g, &mut rng)));
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        vec!["pass".to_owned()]
    );
    // White may play into them (each captures nothing and is suicide but for … none):
    // every empty point is suicide for White here, so White passes too.
    let w = position("xxxx./xxxxx/xx.xx/xxxxx/.xxxx w");
    assert_eq!(RandomGo::default().pick(&w, &mut rng), GoMove::Pass);
}

#[test]
fn random_spreads_over_every_acceptable_point() {
    let g = Go::new(GoRules::new(3, Komi::DEFAULT).expect("rules"));
    let mut rng = GameRng::new(2);
    let mut counts = std::collections::HashMap::new();
    for _ in 0..9000 {
        *counts
            .entry(vertex(&g, RandomGo::default().pick(&g, &mut rng)))
            .or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 9, "all nine points, never a pass");
    assert!(
        counts.values().all(|&c| (800..1200).contains(&c)),
        "{counts:?}"
    );
}

#[test]
fn first_legal_plays_the_first_point_that_is_not_its_eye() {
    // A1 is Black's eye; B1 is taken; C1 is the first acceptable point.
    let g = position("...../...../...../xx.../.x... b");
    let mv = FirstLegal.choose(&g, &mut GameRng::new(0)).expect("a move");
    assert_eq!(vertex(&g, mv), "C1");
}

#[test]
fn greedy_capture_takes_the_bigger_group() {
    // White's one stone at A5 and two stones at D1–E1 are each in atari: E2 takes two.
    let g = position("o..../x..../...../...x./..xoo b");
    let mv = Greedy(Greed::Captures)
        .choose(&g, &mut GameRng::new(0))
        .expect("a move");
    assert_eq!(vertex(&g, mv), "E2");
}

#[test]
fn greedy_atari_puts_the_most_stones_in_atari() {
    // White's C4–E4 has two liberties (B4, E3), its A1 stone two (A2, B1): B4 or E3
    // leave three stones in atari, A2 or B1 only one.
    let g = position("..xxx/..ooo/..xx./...../o.... b");
    for seed in 0..20 {
        let mv = Greedy(Greed::Atari)
            .choose(&g, &mut GameRng::new(seed))
            .expect("a move");
        assert!(
            ["B4", "E3"].contains(&vertex(&g, mv).as_str()),
            "{}",
            vertex(&g, mv)
        );
    }
}

#[test]
fn greedy_liberties_saves_its_group_in_atari() {
    // Black's C3 stone is in atari (White on B3, D3, C4); extending to C2 gives it three
    // liberties, more than any other move leaves its weakest group.
    let g = position("...../..o../.oxo./...../..... b");
    let mv = Greedy(Greed::Liberties)
        .choose(&g, &mut GameRng::new(0))
        .expect("a move");
    assert_eq!(vertex(&g, mv), "C2");
}

#[test]
fn the_registry_lists_the_players_and_dilutes_any() {
    let r = crate::builtin_players();
    let mut worker = eloworld_players_core::Worker::new(0);
    for spec in [
        "random",
        "first_legal",
        "greedy_capture",
        "greedy_atari",
        "greedy_liberties",
        "greedy_capture_r32768",
    ] {
        let f = r
            .resolve_str(spec)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        let mut p = f.create(&mut worker).expect("in-process");
        let g = Go::new(GoRules::default());
        assert!(g.is_legal(p.choose(&g, &mut GameRng::new(3)).expect("a move")));
    }
    assert!(r.resolve_str("gnugo:level=11").is_err());
    assert!(r.resolve_str("gnugo:depth=3").is_err());
}

#[test]
fn the_in_process_players_keep_their_promise_of_legal_moves() {
    // The runner skips its legality check for a player that `picks_from_legal_moves` (in a
    // release build): every move of theirs, over whole games with captures, kos and
    // suicides on small boards, must then pass the game's own check.
    let players: Vec<(&str, Box<dyn Player<Go>>)> = vec![
        ("random", Box::new(RandomGo::default())),
        ("first legal", Box::new(FirstLegal)),
        ("greedy captures", Box::new(Greedy(Greed::Captures))),
        ("greedy atari", Box::new(Greedy(Greed::Atari))),
        ("greedy liberties", Box::new(Greedy(Greed::Liberties))),
    ];
    let mut moves_checked = 0u32;
    for (name, mut player) in players {
        assert!(player.picks_from_legal_moves(), "{name}");
        for (size, seed) in [(5u8, 1u64), (5, 2), (7, 3), (9, 4)] {
            let rules = GoRules::new(size, Komi::DEFAULT).expect("rules");
            let mut g = Go::new(rules);
            let mut rng = GameRng::new(seed);
            while g.outcome().is_none() && g.ply() < 400 {
                let mv = player.choose(&g, &mut rng).expect("a move");
                assert!(g.is_legal(mv), "{name} chose {} illegally", g.move_code(mv));
                g.play(mv);
                moves_checked += 1;
            }
        }
    }
    assert!(moves_checked > 500, "{moves_checked} moves");
}
