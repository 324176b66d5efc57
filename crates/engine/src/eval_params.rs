//! The 35 evaluation parameters of David, Koppel and Netanyahu's evolution paper (Fig. 3),
//! by the paper's names.
//!
//! Section III.A: the pawn is fixed at 100 and is not part of the chromosome; the four other
//! material values take wider genes; every positional parameter takes 6 bits (0–63). Fig. 3
//! gives no widths for the material genes; 224 bits in all leaves 44 for four values, so each
//! takes 11 bits (0–2047), which holds Fig. 3's queen (1710). 4 × 11 + 30 × 6 = 224.
//! How each parameter is applied is described in [`crate::evaluate`].

use crate::chromosome::param_struct;

param_struct! {
    /// The evaluation function's parameters; `Default` is the paper's Fig. 3 (the average
    /// evolved values after coevolution, rounded).
    pub struct EvalParams;
    pawn_value: "PAWN_VALUE" = 100, 100..=100, bits 0, "Value of a pawn: the fixed unit of every other value.";
    knight_value: "KNIGHT_VALUE" = 521, 0..=2047, bits 11, "Value of a knight.";
    bishop_value: "BISHOP_VALUE" = 572, 0..=2047, bits 11, "Value of a bishop.";
    rook_value: "ROOK_VALUE" = 824, 0..=2047, bits 11, "Value of a rook.";
    queen_value: "QUEEN_VALUE" = 1710, 0..=2047, bits 11, "Value of a queen.";
    pawn_advance_a: "PAWN_ADVANCE_A" = 3, 0..=63, bits 6, "Bonus per rank advanced for a pawn on a centre file (c-f).";
    pawn_advance_b: "PAWN_ADVANCE_B" = 6, 0..=63, bits 6, "Bonus per rank advanced for a pawn on a wing file (a, b, g, h).";
    passed_pawn_mult: "PASSED_PAWN_MULT" = 10, 0..=63, bits 6, "Passed pawn bonus per rank advanced (1 on its 2nd rank .. 6 on its 7th).";
    doubled_pawn_penalty: "DOUBLED_PAWN_PENALTY" = 14, 0..=63, bits 6, "Penalty for each pawn beyond the first on a file.";
    isolated_pawn_penalty: "ISOLATED_PAWN_PENALTY" = 8, 0..=63, bits 6, "Penalty for a pawn with no own pawn on an adjacent file.";
    backward_pawn_penalty: "BACKWARD_PAWN_PENALTY" = 3, 0..=63, bits 6, "Penalty for a pawn whose adjacent-file pawns are all ahead of it and whose stop square an enemy pawn attacks.";
    weak_square_penalty: "WEAK_SQUARE_PENALTY" = 5, 0..=63, bits 6, "Penalty per hole: a square on the side's 3rd or 4th rank that no own pawn can ever attack again.";
    passed_pawn_enemy_king_dist: "PASSED_PAWN_ENEMY_KING_DIST" = 7, 0..=63, bits 6, "Bonus per square of (king) distance between a passed pawn's promotion square and the enemy king.";
    knight_sq_mult: "KNIGHT_SQ_MULT" = 6, 0..=63, bits 6, "Knight centralisation bonus per step of centrality (0 on the rim .. 3 in the centre).";
    knight_outpost_mult: "KNIGHT_OUTPOST_MULT" = 9, 0..=63, bits 6, "Outpost bonus times (1 + centrality) for a knight on its 4th-6th rank, guarded by an own pawn, that no enemy pawn can attack.";
    bishop_mobility: "BISHOP_MOBILITY" = 4, 0..=63, bits 6, "Bonus per square a bishop attacks that holds no own piece.";
    bishop_pair: "BISHOP_PAIR" = 28, 0..=63, bits 6, "Bonus for having two bishops or more.";
    rook_attack_king_file: "ROOK_ATTACK_KING_FILE" = 51, 0..=63, bits 6, "Bonus for a rook on the enemy king's file.";
    rook_attack_king_adj_file: "ROOK_ATTACK_KING_ADJ_FILE" = 8, 0..=63, bits 6, "Bonus for a rook on a file next to the enemy king's, when that king is on files c-f.";
    rook_attack_king_adj_file_abgh: "ROOK_ATTACK_KING_ADJ_FILE_ABGH" = 26, 0..=63, bits 6, "Bonus for a rook on a file next to the enemy king's, when that king is on files a, b, g or h.";
    rook_7th_rank: "ROOK_7TH_RANK" = 30, 0..=63, bits 6, "Bonus for a rook on its 7th rank.";
    rook_connected: "ROOK_CONNECTED" = 6, 0..=63, bits 6, "Bonus for two rooks that defend each other along a rank or file.";
    rook_mobility: "ROOK_MOBILITY" = 4, 0..=63, bits 6, "Bonus per square a rook attacks that holds no own piece.";
    rook_behind_passed_pawn: "ROOK_BEHIND_PASSED_PAWN" = 40, 0..=63, bits 6, "Bonus for a rook behind an own passed pawn on its file, with nothing between.";
    rook_open_file: "ROOK_OPEN_FILE" = 27, 0..=63, bits 6, "Bonus for a rook on a file with no pawns.";
    rook_semi_open_file: "ROOK_SEMI_OPEN_FILE" = 11, 0..=63, bits 6, "Bonus for a rook on a file with enemy pawns but no own pawn.";
    rook_atck_weak_pawn_open_column: "ROOK_ATCK_WEAK_PAWN_OPEN_COLUMN" = 15, 0..=63, bits 6, "Bonus for a rook on a semi-open file whose enemy pawn is isolated or backward.";
    rook_column_mult: "ROOK_COLUMN_MULT" = 6, 0..=63, bits 6, "Rook file bonus per step of file centrality (0 on a/h .. 3 on d/e).";
    queen_mobility: "QUEEN_MOBILITY" = 2, 0..=63, bits 6, "Bonus per square a queen attacks that holds no own piece.";
    king_no_friendly_pawn: "KING_NO_FRIENDLY_PAWN" = 35, 0..=63, bits 6, "Penalty for no own pawn ahead of the king on its file (while the enemy has a queen).";
    king_no_friendly_pawn_adj: "KING_NO_FRIENDLY_PAWN_ADJ" = 10, 0..=63, bits 6, "Penalty per adjacent file with no own pawn ahead of the king (while the enemy has a queen).";
    king_friendly_pawn_advanced1: "KING_FRIENDLY_PAWN_ADVANCED1" = 6, 0..=63, bits 6, "Penalty per shield file whose nearest own pawn ahead stands two or more ranks in front of the king (while the enemy has a queen).";
    king_no_enemy_pawn: "KING_NO_ENEMY_PAWN" = 17, 0..=63, bits 6, "Penalty for no enemy pawn on the king's file (while the enemy has a queen).";
    king_no_enemy_pawn_adj: "KING_NO_ENEMY_PAWN_ADJ" = 9, 0..=63, bits 6, "Penalty per adjacent file with no enemy pawn (while the enemy has a queen).";
    king_pressure_mult: "KING_PRESSURE_MULT" = 4, 0..=63, bits 6, "Penalty per attack of an enemy knight, bishop, rook or queen on the king's square or a square next to it.";
}

impl EvalParams {
    /// The chromosome length (the paper, section III.A: 224 bits).
    pub const CHROMOSOME_BITS: usize = 224;

    /// Returns parameters drawn uniformly within each parameter's range from `seed` (as a
    /// GA's random first generation has them), for tests and measurements.
    #[must_use]
    pub fn random(seed: u64) -> EvalParams {
        let mut state = seed;
        let mut p = EvalParams::new();
        for d in EvalParams::DEFS {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            let span = u64::from((d.max - d.min).unsigned_abs()) + 1;
            let offset = i32::try_from(z % span).unwrap_or(0);
            let _ = p.set(d.name, d.min + offset);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Coding;

    #[test]
    fn there_are_35_parameters_in_fig3_order_with_fig3_defaults() {
        let d = EvalParams::default();
        assert_eq!(EvalParams::DEFS.len(), 35);
        assert_eq!(EvalParams::DEFS[0].name, "PAWN_VALUE");
        assert_eq!(EvalParams::DEFS[34].name, "KING_PRESSURE_MULT");
        assert_eq!(
            (
                d.pawn_value,
                d.knight_value,
                d.bishop_value,
                d.rook_value,
                d.queen_value
            ),
            (100, 521, 572, 824, 1710)
        );
        assert_eq!(d.get("ROOK_ATTACK_KING_FILE"), Some(51));
        assert_eq!(d.get("rook_behind_passed_pawn"), Some(40));
        assert_eq!(d.get("KING_PRESSURE_MULT"), Some(4));
    }

    #[test]
    fn the_chromosome_has_224_bits_and_round_trips() {
        assert_eq!(
            crate::chromosome::chromosome_len(EvalParams::DEFS),
            EvalParams::CHROMOSOME_BITS
        );
        let p = EvalParams {
            queen_value: 2047,
            king_pressure_mult: 63,
            weak_square_penalty: 0,
            ..EvalParams::default()
        };
        for coding in [Coding::Binary, Coding::Gray] {
            let bits = p.encode(coding);
            assert_eq!(bits.len(), 224);
            assert_eq!(EvalParams::decode(&bits, coding).expect("224 bits"), p);
        }
    }

    #[test]
    fn text_round_trip() {
        let mut p = EvalParams::default();
        p.set("BISHOP_PAIR", 50).expect("known");
        assert_eq!(EvalParams::from_text(&p.to_text(), "t").expect("parses"), p);
        assert!(
            EvalParams::from_text("PAWN_VALUE = 90", "t").is_err(),
            "the pawn is fixed at 100"
        );
    }
}
