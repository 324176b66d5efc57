//! The 18 selective-search parameters of David, Koppel and Netanyahu's evolution paper (Table I), with Table II's learned values.
//!
//! Depths are in plies; extensions are in fractional plies of [`ONE_PLY`] = 4 units (section
//! IV: "1 ply = 4 units, e.g., an extension value of 2 is equivalent to half a ply"). How each
//! parameter is applied is described in [`crate::search`].

use crate::chromosome::param_struct;

/// One ply in the fractional depth units of extensions (the paper, section IV).
pub const ONE_PLY: i32 = 4;

param_struct! {
    /// The selective-search parameters of Table I; `Default` is Table II (the evolved values
    /// of EVOL*). The chromosome is 70 bits.
    pub struct SearchParams;
    null_move_use: "NULL_MOVE_USE" = 1, 0..=1, bits 1, "Use null-move pruning (0 or 1).";
    null_move_reduction: "NULL_MOVE_REDUCTION" = 4, 0..=7, bits 3, "Null-move depth reduction R, in plies, beyond the null move itself.";
    null_move_use_adaptivity: "NULL_MOVE_USE_ADAPTIVITY" = 1, 0..=1, bits 1, "Adaptive null move: R is one less at depths up to the adaptivity depth.";
    null_move_adaptivity_depth: "NULL_MOVE_ADAPTIVITY_DEPTH" = 6, 0..=7, bits 3, "Depth (plies) above which the full reduction R applies.";
    futility_depth: "FUTILITY_DEPTH" = 3, 0..=3, bits 2, "Futility pruning at nodes with at most this many plies left (0 = off).";
    futility_threshold_depth_1: "FUTILITY_THRESHOLD_DEPTH_1" = 112, 0..=1023, bits 10, "Futility margin with one ply left.";
    futility_threshold_depth_2: "FUTILITY_THRESHOLD_DEPTH_2" = 227, 0..=1023, bits 10, "Futility margin with two plies left.";
    futility_threshold_depth_3: "FUTILITY_THRESHOLD_DEPTH_3" = 506, 0..=1023, bits 10, "Futility margin with three plies left.";
    multi_cut_use: "MULTI_CUT_USE" = 1, 0..=1, bits 1, "Use multi-cut pruning at expected cut nodes (0 or 1).";
    multi_cut_reduction: "MULTI_CUT_REDUCTION" = 4, 0..=7, bits 3, "Multi-cut depth reduction R, in plies.";
    multi_cut_depth: "MULTI_CUT_DEPTH" = 6, 0..=7, bits 3, "Least depth (plies) at which multi-cut is tried.";
    multi_cut_move_num: "MULTI_CUT_MOVE_NUM" = 15, 0..=31, bits 5, "Moves M searched at reduced depth by multi-cut.";
    multi_cut_cut_num: "MULTI_CUT_CUT_NUM" = 3, 0..=7, bits 3, "Cutoffs C among them that prune the node.";
    check_extension: "CHECK_EXTENSION" = 4, 0..=4, bits 3, "Extension (units of 1/4 ply) for a move that gives check.";
    one_reply_extension: "ONE_REPLY_EXTENSION" = 4, 0..=4, bits 3, "Extension for the only legal reply to a check.";
    recapture_extension: "RECAPTURE_EXTENSION" = 2, 0..=4, bits 3, "Extension for a capture on the square of the previous capture.";
    passed_pawn_extension: "PASSED_PAWN_EXTENSION" = 3, 0..=4, bits 3, "Extension for a pawn move to the 6th or 7th rank (or promotion).";
    mate_threat_extension: "MATE_THREAT_EXTENSION" = 2, 0..=4, bits 3, "Extension when the null-move search shows a threat of mate.";
}

impl SearchParams {
    /// The chromosome length (the paper's Table I: 70 bits).
    pub const CHROMOSOME_BITS: usize = 70;

    /// Switches every selective method off: plain alpha-beta with quiescence, the basic
    /// search of the paper's coevolution phase (section III.C).
    #[must_use]
    pub const fn plain() -> SearchParams {
        let mut p = SearchParams::new();
        p.null_move_use = 0;
        p.futility_depth = 0;
        p.multi_cut_use = 0;
        p.check_extension = 0;
        p.one_reply_extension = 0;
        p.recapture_extension = 0;
        p.passed_pawn_extension = 0;
        p.mate_threat_extension = 0;
        p
    }

    /// Returns the futility margin with `plies` left (1–3).
    #[must_use]
    pub const fn futility_margin(&self, plies: i32) -> i32 {
        match plies {
            1 => self.futility_threshold_depth_1,
            2 => self.futility_threshold_depth_2,
            _ => self.futility_threshold_depth_3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Coding;

    #[test]
    fn table_one_has_18_parameters_and_70_bits() {
        assert_eq!(SearchParams::DEFS.len(), 18);
        assert_eq!(
            crate::chromosome::chromosome_len(SearchParams::DEFS),
            SearchParams::CHROMOSOME_BITS
        );
    }

    #[test]
    fn default_is_table_two() {
        let p = SearchParams::default();
        let table2 = [1, 4, 1, 6, 3, 112, 227, 506, 1, 4, 6, 15, 3, 4, 4, 2, 3, 2];
        assert_eq!(p.values(), table2);
    }

    #[test]
    fn chromosome_round_trips_and_spreads_extensions() {
        let p = SearchParams::default();
        for coding in [Coding::Binary, Coding::Gray] {
            assert_eq!(
                SearchParams::decode(&p.encode(coding), coding).expect("70 bits"),
                p
            );
        }
        // The mate-threat gene (the last 3 bits) covers 0–4 over its 8 values.
        let mut bits = p.encode(Coding::Binary);
        let n = bits.len();
        let mut seen = Vec::new();
        for g in 0..8u32 {
            for i in 0..3 {
                bits[n - 3 + i] = g >> (2 - i) & 1 == 1;
            }
            let d = SearchParams::decode(&bits, Coding::Binary).expect("70 bits");
            seen.push(d.mate_threat_extension);
        }
        assert_eq!(seen, vec![0, 1, 1, 2, 2, 3, 3, 4]);
    }
}
