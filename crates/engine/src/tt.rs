//! The transposition table: one entry per slot, indexed by the low bits of the Zobrist key,
//! the whole key kept to verify a hit; a new result replaces the old one unless the old one
//! is of the same position and searched deeper.

use shakmaty::{Move, Square};

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true value is at least the score (a fail high).
    Lower,
    /// The true value is at most the score (a fail low).
    Upper,
}

/// One probe's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// The best move found, packed by [`pack_move`] (0 = none).
    pub packed_move: u16,
    /// The score, already adjusted to the probing ply for mates.
    pub score: i32,
    /// The depth searched, in fractional units.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
}

/// A fixed-size table of `2^k` entries, each two words (key, data).
#[derive(Clone, Debug)]
pub struct TranspositionTable {
    slots: Vec<u64>,
    mask: usize,
}

/// Packs a move into 16 bits: from, to, and a 4-bit tag (promotion role or castling).
#[must_use]
pub fn pack_move(m: Move) -> u16 {
    match m {
        Move::Castle { king, rook } => pack_squares(king, rook, 15),
        _ => pack_squares(
            m.from().unwrap_or(Square::A1),
            m.to(),
            m.promotion().map_or(0, |r| r as u16),
        ),
    }
}

/// [`pack_move`]'s word of a move from `from` to `to` with the tag `tag` (0 for a move that
/// neither promotes nor castles).
#[must_use]
#[inline(always)]
pub const fn pack_squares(from: Square, to: Square, tag: u16) -> u16 {
    from as u16 | (to as u16) << 6 | tag << 12
}

impl TranspositionTable {
    /// Creates a table of about `megabytes` MiB (a power of two of 16-byte entries, at least 1024).
    #[must_use]
    pub fn new(megabytes: usize) -> TranspositionTable {
        let entries = (megabytes.max(1) << 20) / 16;
        TranspositionTable::with_entries(entries)
    }

    /// Creates a table of the largest power of two of entries not above `entries` (at least 1024).
    #[must_use]
    pub fn with_entries(entries: usize) -> TranspositionTable {
        let n = entries.max(1024);
        let n = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        TranspositionTable {
            slots: vec![0; 2 * n],
            mask: n - 1,
        }
    }

    /// Returns the number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.mask + 1
    }

    /// Returns whether the table has no entries (never: it has at least 1024).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(0);
    }

    /// Asks memory for `key`'s entry ahead of its probe, without waiting for it: the probe
    /// of a node's entry missed the caches in a fifth of the main search's samples and half
    /// of the quiescence search's, so the search asks for a child's entry before it copies
    /// the position and plays the move (Stockfish's prefetch in `do_move`).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let i = (key as usize & self.mask) * 2;
        if let Some(slot) = self.slots.get(i) {
            mem_prefetch::prefetch_read_data::<u64, 3>(slot);
        }
    }

    /// Looks up a key; `ply` converts stored mate scores back to this node.
    #[must_use]
    #[inline]
    pub fn probe(&self, key: u64, ply: i32) -> Option<TtHit> {
        let i = (key as usize & self.mask) * 2;
        if self.slots[i] != key || key == 0 {
            return None;
        }
        let data = self.slots[i + 1];
        let bound = match data >> 48 & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let raw_score = i32::from((data >> 16) as u16 as i16);
        Some(TtHit {
            packed_move: data as u16,
            score: crate::score::score_from_tt(raw_score, ply),
            depth: i32::from((data >> 32) as u16 as i16),
            bound,
        })
    }

    /// Stores a result unless the slot holds a deeper result for the same key.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        packed_move: u16,
        score: i32,
        depth: i32,
        bound: Bound,
        ply: i32,
    ) {
        let i = (key as usize & self.mask) * 2;
        if self.slots[i] == key {
            let old_depth = i32::from((self.slots[i + 1] >> 32) as u16 as i16);
            if old_depth > depth && bound != Bound::Exact {
                return;
            }
        }
        let tag: u64 = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let stored = crate::score::score_to_tt(score, ply);
        let clamp16 =
            |v: i32| v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16 as u16 as u64;
        self.slots[i] = key;
        self.slots[i + 1] =
            u64::from(packed_move) | clamp16(stored) << 16 | clamp16(depth) << 32 | tag << 48;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_with_negative_scores_and_depths() {
        let mut tt = TranspositionTable::with_entries(1024);
        tt.store(0xDEAD_BEEF, 1234, -345, 12, Bound::Lower, 3);
        let hit = tt.probe(0xDEAD_BEEF, 3).expect("stored");
        assert_eq!(
            hit,
            TtHit {
                packed_move: 1234,
                score: -345,
                depth: 12,
                bound: Bound::Lower
            }
        );
        assert_eq!(
            tt.probe(0xDEAD_BEEF + 1024, 3),
            None,
            "same slot, other key"
        );
        tt.store(0xDEAD_BEEF, 1, 5, 4, Bound::Upper, 0);
        assert_eq!(
            tt.probe(0xDEAD_BEEF, 0).expect("kept").depth,
            12,
            "shallower bound does not replace deeper"
        );
    }

    #[test]
    fn size_is_a_power_of_two() {
        assert_eq!(TranspositionTable::with_entries(3000).len(), 2048);
        assert_eq!(TranspositionTable::new(1).len(), 65536);
    }
}
