//! The registry entries of the simple players (Murphy's Elo World, section 2.1), with the paper's
//! names and the flags of its Fig. 1 key (deterministic, stateful, asymmetric).

use super::{
    Alphabetical, Cccp, Equalizer, Generous, Huddle, MinOpptMoves, NoIInsist, OppositeColor,
    Pacifist, ReverseStarting, SameColor, SuicideKing, Swarm, Sym180, SymMirrorX, SymMirrorY,
};
use eloworld_games::Chess;
use eloworld_players_core::{Flags, PlayerInfo, Registry};

/// Deterministic and asymmetric (`alphabetical`, `cccp`).
const DET_ASYM: Flags = Flags {
    deterministic: true,
    asymmetric: true,
    ..Flags::NONE
};

/// The names of the 18 simple players of Murphy's Elo World section 2.1, in the paper's order.
pub const SIMPLE_PLAYERS: [&str; 18] = [
    "random_move",
    "same_color",
    "opposite_color",
    "pacifist",
    "first_move",
    "alphabetical",
    "huddle",
    "swarm",
    "generous",
    "no_i_insist",
    "reverse_starting",
    "cccp",
    "suicide_king",
    "sym_mirror_y",
    "sym_mirror_x",
    "sym_180",
    "min_oppt_moves",
    "equalizer",
];

/// Adds the simple players other than `random_move` and `first_move` to `r`.
pub(super) fn register(r: &mut Registry<Chess>) {
    let none = Flags::NONE;
    r.add_simple(
        PlayerInfo::new(
            "same_color",
            "puts its pieces on squares of its own colour",
            none,
        ),
        || Box::new(SameColor),
    );
    r.add_simple(
        PlayerInfo::new(
            "opposite_color",
            "puts its pieces on squares of the opponent's colour",
            none,
        ),
        || Box::new(OppositeColor),
    );
    r.add_simple(
        PlayerInfo::new(
            "pacifist",
            "avoids mating, then checking, then capturing, then takes the cheapest piece",
            none,
        ),
        || Box::new(Pacifist),
    );
    r.add_simple(
        PlayerInfo::new(
            "alphabetical",
            "plays the alphabetically first move in SAN (a3 < O-O < Qxg7)",
            DET_ASYM,
        ),
        || Box::new(Alphabetical),
    );
    r.add_simple(
        PlayerInfo::new(
            "huddle",
            "minimises the Chebyshev distance of its pieces to its own king",
            none,
        ),
        || Box::new(Huddle),
    );
    r.add_simple(
        PlayerInfo::new(
            "swarm",
            "minimises the Chebyshev distance of its pieces to the opponent's king",
            none,
        ),
        || Box::new(Swarm),
    );
    r.add_simple(
        PlayerInfo::new(
            "generous",
            "maximises the value the opponent's legal captures would take",
            none,
        ),
        || Box::new(Generous),
    );
    r.add_simple(
        PlayerInfo::new(
            "no_i_insist",
            "never mates; forces the opponent to take the most valuable gift, else the best expected gift",
            none,
        ),
        || Box::new(NoIInsist),
    );
    r.add_simple(
        PlayerInfo::new(
            "reverse_starting",
            "walks its pieces to the opponent's starting squares",
            none,
        ),
        || Box::new(ReverseStarting),
    );
    super::first_move::add_with_reading(
        r,
        "cccp",
        "checkmate, check, capture, push; then central files, promotion, and squares counted from a8 as the original program breaks ties",
        DET_ASYM,
        |reading| Box::new(Cccp { reading }),
    );
    r.add_simple(
        PlayerInfo::new(
            "suicide_king",
            "minimises the distance between the two kings",
            none,
        ),
        || Box::new(SuicideKing),
    );
    r.add_simple(
        PlayerInfo::new(
            "sym_mirror_y",
            "maximises symmetry under a vertical flip (copies the opponent)",
            none,
        ),
        || Box::new(SymMirrorY),
    );
    r.add_simple(
        PlayerInfo::new(
            "sym_mirror_x",
            "maximises symmetry under a horizontal flip",
            none,
        ),
        || Box::new(SymMirrorX),
    );
    r.add_simple(
        PlayerInfo::new("sym_180", "maximises symmetry under a 180° rotation", none),
        || Box::new(Sym180),
    );
    r.add_simple(
        PlayerInfo::new(
            "min_oppt_moves",
            "minimises the opponent's number of legal replies",
            none,
        ),
        || Box::new(MinOpptMoves),
    );
    r.add_simple(
        PlayerInfo::new(
            "equalizer",
            "moves the piece moved least, to the square visited least (castling moves both)",
            Flags::STATEFUL,
        ),
        || Box::new(Equalizer::default()),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_simple_player_is_registered_with_the_seeds_flags() {
        let registry = crate::builtin_players();
        for name in SIMPLE_PLAYERS {
            let info = registry.infos().find(|i| i.name == name);
            let info = info.unwrap_or_else(|| panic!("{name} is not registered"));
            let expected = match name {
                "first_move" => Flags::DETERMINISTIC,
                "alphabetical" | "cccp" => DET_ASYM,
                "equalizer" => Flags::STATEFUL,
                _ => Flags::NONE,
            };
            assert_eq!(info.flags, expected, "{name}");
            assert!(registry.resolve_str(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn random_move_picks_each_of_the_twenty_opening_moves() {
        use crate::scoring::test_support::{game, picks, START};
        use eloworld_games::Game;
        let g = game(START);
        let all: std::collections::BTreeSet<String> =
            g.legal_moves().iter().map(|&m| g.move_code(m)).collect();
        assert_eq!(all.len(), 20);
        assert_eq!(
            picks(&mut eloworld_players_core::RandomMove, START, 500),
            all
        );
    }
}
