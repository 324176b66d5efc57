//! Reflected binary Gray code: neighbouring integers differ in exactly one bit, so a single
//! mutation can always step a gene to its neighbour (David–Koppel–Netanyahu, section III.B: "a standard GA
//! implementation with Gray coded chromosomes").

/// Converts a binary integer to its Gray code (`g = b ^ (b >> 1)`).
#[must_use]
pub const fn to_gray(binary: u64) -> u64 {
    binary ^ (binary >> 1)
}

/// Converts a Gray code back to the binary integer (prefix XOR of the bits).
#[must_use]
pub const fn from_gray(gray: u64) -> u64 {
    let mut b = gray;
    let mut shift = 1;
    while shift < 64 {
        b ^= b >> shift;
        shift <<= 1;
    }
    b
}

/// Appends `width` bits (most significant first) holding the Gray code of `value`.
///
/// # Panics
/// Panics if `width > 64`.
pub fn push_gray(bits: &mut Vec<bool>, value: u64, width: u32) {
    assert!(width <= 64, "a gene holds at most 64 bits");
    let g = to_gray(value);
    for i in (0..width).rev() {
        bits.push(g >> i & 1 == 1);
    }
}

/// Reads a Gray-coded gene (most significant bit first) as its binary integer.
///
/// # Panics
/// Panics if `bits` is longer than 64.
#[must_use]
pub fn read_gray(bits: &[bool]) -> u64 {
    assert!(bits.len() <= 64, "a gene holds at most 64 bits");
    from_gray(bits.iter().fold(0u64, |acc, &b| acc << 1 | u64::from(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_every_16_bit_value_and_some_large_ones() {
        for v in 0..=u64::from(u16::MAX) {
            assert_eq!(from_gray(to_gray(v)), v);
        }
        for v in [u64::MAX, u64::MAX - 1, 1 << 63, 0x1234_5678_9ABC_DEF0] {
            assert_eq!(from_gray(to_gray(v)), v);
        }
    }

    #[test]
    fn neighbours_differ_in_one_bit() {
        for v in 0..100_000u64 {
            assert_eq!((to_gray(v) ^ to_gray(v + 1)).count_ones(), 1, "{v}");
        }
        // The wrap-around of a 6-bit gene (63 -> 0) also differs in one bit: reflected code.
        assert_eq!((to_gray(63) ^ to_gray(0)).count_ones(), 1);
    }

    #[test]
    fn known_codes() {
        let codes: Vec<u64> = (0..8).map(to_gray).collect();
        assert_eq!(
            codes,
            [0b000, 0b001, 0b011, 0b010, 0b110, 0b111, 0b101, 0b100]
        );
    }

    #[test]
    fn bit_strings_round_trip() {
        let mut bits = Vec::new();
        push_gray(&mut bits, 45, 6);
        push_gray(&mut bits, 1023, 10);
        assert_eq!(bits.len(), 16);
        assert_eq!(read_gray(&bits[..6]), 45);
        assert_eq!(read_gray(&bits[6..]), 1023);
    }
}
