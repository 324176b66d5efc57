use super::*;
use crate::GameResult;

fn rules(size: u8, komi: f64) -> GoRules {
    GoRules::new(size, Komi::from_points(komi).expect("komi")).expect("size")
}

fn position(text: &str, size: u8, komi: f64) -> Go {
    Go::from_position(text, rules(size, komi)).expect("a legal position")
}

fn play(g: &mut Go, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = g.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        g.play(mv);
    }
}

fn at(g: &Go, vertex: &str) -> Point {
    g.parse_vertex(vertex).expect("a vertex")
}

#[test]
fn a_surrounded_stone_is_captured() {
    let mut g = position("...../..x../.xo../..x../..... b", 5, 0.5);
    assert_eq!(g.captures_by(at(&g, "D3")), 1);
    play(&mut g, "D3");
    assert_eq!(g.stone(at(&g, "C3")), None, "C3 was captured");
    assert!(g.empty_points().contains(&at(&g, "C3")));
    assert_eq!(g.position_text(), "...../..x../.x.x./..x../..... w");
}

#[test]
fn a_group_of_several_stones_is_captured_at_once() {
    // White's two stones C3–C2 have one liberty left, C1.
    let mut g = position("...../..x../.xox./.xox./..... b", 5, 0.5);
    assert_eq!(g.stones_in_atari(Side::Second), 2);
    assert_eq!(g.captures_by(at(&g, "C1")), 2);
    play(&mut g, "C1");
    assert_eq!(g.stones_in_atari(Side::Second), 0);
    assert_eq!(g.position_text(), "...../..x../.x.x./.x.x./..x.. w");
}

#[test]
fn suicide_is_illegal_but_a_capture_that_looks_like_it_is_not() {
    let g = position("...../...../...../x..../.x... w", 5, 0.5);
    assert!(!g.is_legal(GoMove::Place(at(&g, "A1"))));
    assert!(matches!(
        g.parse_move("A1"),
        Err(GameError::IllegalMove { .. })
    ));
    assert!(!g.legal_moves().contains(&GoMove::Place(at(&g, "A1"))));
    // Two stones: White's A1 takes the last liberty of Black's B1 and lives by capturing.
    let g = position("...../...../...../xo.../.xo.. w", 5, 0.5);
    assert!(g.is_legal(GoMove::Place(at(&g, "A1"))));
    assert_eq!(g.captures_by(at(&g, "A1")), 1);
    let mut g = g;
    play(&mut g, "A1");
    assert_eq!(g.stone(at(&g, "B1")), None);
}

/// Black B4, A3, B2 against White C4, B3, D3, C2: Black takes B3 at C3, and White may not
/// retake at B3 at once (the board would repeat), but may after a move elsewhere each.
const KO: &str = "...../.xo../xo.o./.xo../..... b";

#[test]
fn a_simple_ko_cannot_be_retaken_at_once() {
    let mut g = position(KO, 5, 0.5);
    play(&mut g, "C3");
    assert_eq!(g.stone(at(&g, "B3")), None);
    assert!(!g.is_legal(GoMove::Place(at(&g, "B3"))), "immediate retake");
    play(&mut g, "E5 A5");
    assert!(
        g.is_legal(GoMove::Place(at(&g, "B3"))),
        "retake after a ko threat"
    );
    play(&mut g, "B3");
    assert_eq!(g.stone(at(&g, "C3")), None);
}

/// Three kos (two White stones Black can take, one Black stone White can take): after six
/// captures, none an immediate retake, the sixth would bring back the starting board.
const TRIPLE_KO: &str = concat!(
    "........./.ox....../ox.x...../.ox....../........./",
    ".xo...xo./xo.o.xo.o/.xo...xo./......... b"
);

#[test]
fn positional_superko_forbids_a_triple_ko_cycle() {
    let mut g = position(TRIPLE_KO, 9, 7.0);
    let start = g.position_text();
    play(&mut g, "C3 C7 H3 B3 B7");
    let last = at(&g, "G3");
    assert_eq!(
        g.captures_by(last),
        1,
        "G3 takes a stone back: no simple ko stops it"
    );
    assert!(
        !g.is_legal(GoMove::Place(last)),
        "the board would repeat the start"
    );
    assert!(!g.legal_moves().contains(&GoMove::Place(last)));
    // The same capture from another history is legal: it is the repetition that is not.
    let mut fresh = Go::from_position(&g.position_text(), g.rules()).expect("position");
    assert!(fresh.is_legal(GoMove::Place(last)));
    fresh.play(GoMove::Place(last));
    assert_eq!(
        fresh.position_text().split(' ').next(),
        start.split(' ').next()
    );
}

#[test]
fn area_counts_stones_and_regions_that_reach_one_colour_only() {
    // Black: column a (empty) and b; White: c, d, e (d and e empty): 10 against 15.
    let mut g = position(".xo../.xo../.xo../.xo../.xo.. b", 5, 0.5);
    let area = g.area();
    assert_eq!((area.black, area.white), (10, 15));
    assert_eq!(area.result_text(), "W+5.5");
    play(&mut g, "pass pass");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::Second, Termination::TwoPasses))
    );
    assert_eq!(g.result_text(), "W+5.5");
    assert!(g.legal_moves().is_empty());
}

/// A seki down the middle of a 7×7 board: White's C-column group and Black's E-column group
/// share their last two liberties, D1 and D7; whoever plays either is captured.
const SEKI: &str = ".xo.xo./.xooxo./.xooxo./.xooxo./.xooxo./.xooxo./.xo.xo. b";

#[test]
fn seki_liberties_count_for_neither_side() {
    let g = position(SEKI, 7, 0.0);
    for (side, vertex) in [(Side::First, "D1"), (Side::First, "D7")] {
        let mut after = g.clone();
        play(&mut after, vertex);
        assert_eq!(
            after.stones_in_atari(side),
            8,
            "{vertex} puts Black's group in atari"
        );
    }
    let mut white_first = position(&SEKI.replace(" b", " w"), 7, 0.0);
    play(&mut white_first, "D7");
    assert_eq!(white_first.stones_in_atari(Side::Second), 13);
    // Black: B column and E column (14 stones) and the A column (7); White: C, D2–D6 and
    // F (19 stones) and the G column (7). D1 and D7 reach both colours.
    let area = g.area();
    assert_eq!((area.black, area.white), (21, 26));
    assert_eq!(area.result_text(), "W+5.0");
}

#[test]
fn komi_decides_a_close_game() {
    // Black has 15 points, White 10: komi 4.5 leaves Black half a point ahead, 5.5 gives
    // White the game, and 5 is a tie.
    let board = ".ox../.ox../.ox../.ox../.ox.. b";
    for (komi, result, text) in [
        (4.5, GameResult::Win(Side::First), "B+0.5"),
        (5.5, GameResult::Win(Side::Second), "W+0.5"),
        (5.0, GameResult::Draw, "0"),
    ] {
        let mut g = position(board, 5, komi);
        play(&mut g, "pass pass");
        let outcome = g.outcome().expect("two passes end the game");
        assert_eq!(
            (outcome.result, outcome.termination),
            (result, Termination::TwoPasses),
            "komi {komi}"
        );
        assert_eq!(g.result_text(), text);
    }
}

#[test]
fn a_stone_between_passes_keeps_the_game_going_and_resigning_ends_it() {
    let mut g = Go::new(rules(9, 7.0));
    play(&mut g, "pass E5 pass");
    assert_eq!(g.outcome(), None);
    assert_eq!(g.passes_in_a_row(), 1);
    play(&mut g, "resign");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::First, Termination::Resignation)),
        "White resigned"
    );
    assert_eq!(g.result_text(), "B+R");
}

#[test]
fn the_move_cap_ends_and_scores_the_game() {
    let mut r = rules(5, 0.5);
    r.max_moves = Some(3);
    let mut g = Go::new(r);
    play(&mut g, "C3 pass");
    assert_eq!(g.outcome(), None);
    play(&mut g, "D3");
    // Black's two stones own the whole board.
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::First, Termination::MoveLimit))
    );
    assert_eq!(g.result_text(), "B+24.5");
}

#[test]
fn vertices_skip_i_and_read_both_cases() {
    let g = Go::new(rules(19, 7.5));
    let p = at(&g, "j10");
    assert_eq!(g.coordinates(p), (8, 9));
    assert_eq!(g.vertex(p), "J10");
    assert_eq!(g.parse_vertex("I5"), None);
    assert_eq!(g.parse_vertex("U1"), None, "U is beyond a 19 board");
    assert_eq!(g.parse_vertex("A20"), None);
    assert_eq!(g.parse_vertex("A0"), None);
    let mut code = String::new();
    g.write_move_code(GoMove::Place(at(&g, "T19")), &mut code);
    assert_eq!(code, "T19");
    assert!(matches!(g.parse_move("Z9"), Err(GameError::BadMove { .. })));
}

#[test]
fn board_sizes_outside_two_to_twenty_five_are_refused() {
    assert!(GoRules::new(1, Komi::DEFAULT).is_err());
    assert!(GoRules::new(26, Komi::DEFAULT).is_err());
    let tiny = Go::new(rules(2, 0.5));
    assert_eq!(tiny.legal_moves().len(), 5, "four points and a pass");
    let big = Go::new(rules(25, 7.5));
    assert_eq!(big.legal_moves().len(), 626);
    assert!(Komi::from_points(7.25).is_err());
    assert_eq!(Komi::from_points(-3.5).expect("komi").to_string(), "-3.5");
}

#[test]
fn position_text_round_trips_and_bad_boards_are_named() {
    let mut g = Go::new(rules(5, 0.5));
    play(&mut g, "C3 D4 B2");
    let text = g.position_text();
    assert_eq!(text, "...../...o./..x../.x.../..... w");
    assert_eq!(position(&text, 5, 0.5), g);
    for bad in ["...../... w", "xo/ox b", "...../...../..z../...../..... b"] {
        assert!(Go::from_position(bad, rules(5, 0.5)).is_err(), "{bad}");
    }
    // A stone without liberties cannot stand on the board.
    assert!(Go::from_position("xo/o. b", rules(2, 0.5)).is_err());
}

#[test]
fn random_games_keep_the_group_bookkeeping_exact() {
    // Plays random legal moves and checks, after each, that the pseudo-liberty atari test
    // agrees with a flood fill, and that the Zobrist key matches a fresh count.
    let mut rng = crate::GameRng::new(7);
    for _ in 0..20 {
        let mut g = Go::new(rules(7, 7.0));
        while g.outcome().is_none() && g.ply() < 200 {
            let moves: Vec<GoMove> = g.legal_moves().to_vec();
            let mv = rng.pick(&moves);
            g.play(mv);
            let fresh = Go::from_position(&g.position_text(), g.rules()).expect("legal board");
            assert_eq!(fresh.key, g.key);
            for side in [Side::First, Side::Second] {
                let by_fill = g.group_liberties(side).iter().filter(|&&l| l == 1).count();
                let c = stone_of(side);
                let by_sums = (0..g.color.len())
                    .filter(|&p| g.color[p] == c && usize::from(g.head[p]) == p && g.in_atari(p))
                    .count();
                assert_eq!(by_fill, by_sums, "{}", g.position_text());
            }
        }
    }
}
