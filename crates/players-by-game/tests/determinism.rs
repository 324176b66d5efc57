//! Which players play by a fixed rule, as the registries of the built-in players say: what
//! decides whether a pair needs openings for its games to be independent.

use eloworld_games::{Chess, Go};
use eloworld_players::{Determinism, PlayableGame, SpecError};

#[test]
fn the_registry_says_who_plays_by_a_fixed_rule() {
    let chess = Chess::builtin_players();
    let of = |spec: &str| chess.determinism(&spec.parse().expect("spec")).expect(spec);
    assert_eq!(of("first_move"), Determinism::Deterministic);
    assert_eq!(of("cccp"), Determinism::Deterministic);
    assert_eq!(of("cccp_r0"), Determinism::Deterministic);
    assert_eq!(of("alphabetical_r100"), Determinism::Diluted(100));
    // Random tie-breaks and random moves vary.
    assert_eq!(of("huddle"), Determinism::Randomised);
    assert_eq!(of("random_move"), Determinism::Randomised);
    assert!(matches!(
        chess.determinism(&"no_such_player".parse().expect("spec")),
        Err(SpecError::Unknown { .. })
    ));
    let go = Go::builtin_players();
    assert_eq!(
        go.determinism(&"first_legal".parse().expect("spec"))
            .expect("first_legal"),
        Determinism::Deterministic
    );
    assert_eq!(
        go.determinism(&"random".parse().expect("spec"))
            .expect("random"),
        Determinism::Randomised
    );
}
