//! What the two parameter sets share: the description of one parameter, the bit-string
//! encoding a genetic algorithm works on (David, Koppel and Netanyahu's evolution paper, sections III.A and IV), and the text format
//! `NAME = value` the GA writes and the players read.

use crate::EngineError;

/// One tunable parameter: its name, its default, its range and its width in the chromosome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamDef {
    /// The name as the paper prints it (`KNIGHT_VALUE`, `NULL_MOVE_REDUCTION`).
    pub name: &'static str,
    /// The default value (Fig. 3 or Table II of David, Koppel and Netanyahu's paper).
    pub default: i32,
    /// The smallest allowed value.
    pub min: i32,
    /// The largest allowed value.
    pub max: i32,
    /// Bits in the chromosome; 0 for a parameter the GA does not tune (`PAWN_VALUE`).
    pub bits: u32,
    /// What it does, in a few words.
    pub help: &'static str,
}

/// How the integer of each gene is written as bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Coding {
    /// Plain binary, most significant bit first.
    #[default]
    Binary,
    /// Reflected Gray code, most significant bit first (David, Koppel and Netanyahu use Gray-coded chromosomes).
    Gray,
}

/// Returns the chromosome length of a parameter table.
#[must_use]
pub fn chromosome_len(defs: &[ParamDef]) -> usize {
    defs.iter().map(|d| d.bits as usize).sum()
}

/// The largest integer a gene of `bits` bits holds.
const fn gene_top(bits: u32) -> i64 {
    (1i64 << bits) - 1
}

/// Maps a gene's integer `g` (0 ..= 2^bits − 1) onto the parameter's range.
///
/// When the range has exactly as many values as the gene (most parameters) this is
/// `min + g`. When it has fewer — Table I's extensions take 0–4 in 3 bits — the gene's whole
/// range is spread linearly over the parameter's, rounding to the nearest value, so that every
/// gene value means something and neighbouring genes (one Gray-code step) decode to the same
/// or neighbouring values; the 8 genes of an extension give 0, 1, 1, 2, 2, 3, 3, 4 rather
/// than 0, 1, 2, 3, 4, 4, 4, 4 (which made the largest extension half of all random genes).
fn gene_value(d: &ParamDef, g: i64) -> i32 {
    let top = gene_top(d.bits);
    let span = i64::from(d.max) - i64::from(d.min);
    let offset = if span >= top {
        g
    } else {
        // Nearest, halves rounded up: (2·g·span + top) / (2·top).
        (2 * g * span + top) / (2 * top)
    };
    i32::try_from(i64::from(d.min) + offset.min(span)).unwrap_or(d.max)
}

/// The gene that decodes to `value` by [`gene_value`] (the nearest when several do).
fn gene_of(d: &ParamDef, value: i32) -> i64 {
    let top = gene_top(d.bits);
    let span = i64::from(d.max) - i64::from(d.min);
    let offset = (i64::from(value) - i64::from(d.min)).clamp(0, span.max(0));
    if span >= top || span == 0 {
        offset.min(top)
    } else {
        (2 * offset * top + span) / (2 * span)
    }
}

/// Appends the bits of `values` (one per def) to a new bit string.
///
/// A value is stored as the gene [`decode`] reads back as that value (`value - min` for
/// genes as wide as their range).
#[must_use]
pub fn encode(defs: &[ParamDef], values: &[i32], coding: Coding) -> Vec<bool> {
    let mut bits = Vec::with_capacity(chromosome_len(defs));
    for (d, &v) in defs.iter().zip(values) {
        if d.bits == 0 {
            continue;
        }
        let mut raw = u32::try_from(gene_of(d, v)).unwrap_or(0);
        if coding == Coding::Gray {
            raw ^= raw >> 1;
        }
        for i in (0..d.bits).rev() {
            bits.push(raw >> i & 1 == 1);
        }
    }
    bits
}

/// Reads one value per def from a bit string; genes of width 0 take their default.
///
/// A gene's integer `g` decodes to `min + g` when the range is as wide as the gene, and is
/// otherwise spread over the range (see [`gene_value`]: Table I's extensions hold 0–4 in 3 bits).
///
/// # Errors
/// [`EngineError::ChromosomeLength`] when the string has the wrong length.
pub fn decode(defs: &[ParamDef], bits: &[bool], coding: Coding) -> Result<Vec<i32>, EngineError> {
    let expected = chromosome_len(defs);
    if bits.len() != expected {
        return Err(EngineError::ChromosomeLength {
            expected,
            got: bits.len(),
        });
    }
    let mut values = Vec::with_capacity(defs.len());
    let mut at = 0;
    for d in defs {
        if d.bits == 0 {
            values.push(d.default);
            continue;
        }
        let mut raw = 0u32;
        for &b in &bits[at..at + d.bits as usize] {
            raw = raw << 1 | u32::from(b);
        }
        at += d.bits as usize;
        if coding == Coding::Gray {
            let mut shift = 1;
            while shift < 32 {
                raw ^= raw >> shift;
                shift <<= 1;
            }
        }
        values.push(gene_value(d, i64::from(raw)));
    }
    Ok(values)
}

/// Parses the text format `NAME = value` (one per line, `#` starts a comment, blank lines
/// ignored) into `values`, which start as the caller's defaults.
///
/// Names are matched case-insensitively; unknown names and out-of-range values are errors.
///
/// # Errors
/// [`EngineError::ParamText`] naming the source and line.
pub fn parse_text(
    defs: &[ParamDef],
    values: &mut [i32],
    text: &str,
    source: &str,
) -> Result<(), EngineError> {
    for (index, raw_line) in text.lines().enumerate() {
        let line = raw_line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |reason: String| EngineError::ParamText {
            file: source.to_owned(),
            line: index + 1,
            reason,
        };
        let (name, value) = line
            .split_once('=')
            .ok_or_else(|| bad(format!("expected `NAME = value`, got {line:?}")))?;
        let name = name.trim();
        let slot = defs
            .iter()
            .position(|d| d.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| bad(format!("unknown parameter {name:?}")))?;
        let d = &defs[slot];
        let v: i32 = value
            .trim()
            .parse()
            .map_err(|_| bad(format!("{name} = {:?} is not an integer", value.trim())))?;
        if v < d.min || v > d.max {
            return Err(bad(format!(
                "{name} = {v} is outside {}..={}",
                d.min, d.max
            )));
        }
        values[slot] = v;
    }
    Ok(())
}

/// Writes `values` in the text format [`parse_text`] reads.
#[must_use]
pub fn write_text(defs: &[ParamDef], values: &[i32]) -> String {
    let mut out = String::new();
    for (d, v) in defs.iter().zip(values) {
        out.push_str(d.name);
        out.push_str(" = ");
        out.push_str(&v.to_string());
        out.push('\n');
    }
    out
}

/// Declares a parameter struct with one `i32` field per parameter, its table of
/// [`ParamDef`]s, `Default` from the table, and name-based access.
macro_rules! param_struct {
    (
        $(#[$meta:meta])*
        $vis:vis struct $ty:ident;
        $( $field:ident : $name:literal = $default:expr, $min:literal ..= $max:literal, bits $bits:expr, $help:literal; )*
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis struct $ty {
            $( #[doc = $help] pub $field: i32, )*
        }

        impl $ty {
            /// The parameters in chromosome order, with their defaults, ranges and widths.
            pub const DEFS: &'static [$crate::chromosome::ParamDef] = &[
                $( $crate::chromosome::ParamDef { name: $name, default: $default, min: $min, max: $max, bits: $bits, help: $help }, )*
            ];

            /// The number of parameters.
            pub const COUNT: usize = [$($name),*].len();

            /// Returns the values in [`Self::DEFS`] order, without allocating.
            #[must_use]
            pub const fn to_array(&self) -> [i32; Self::COUNT] {
                [ $( self.$field, )* ]
            }

            /// Creates the default parameter set (the paper's published values).
            #[must_use]
            pub const fn new() -> $ty {
                $ty { $( $field: $default, )* }
            }

            /// Returns the values in [`Self::DEFS`] order.
            #[must_use]
            pub fn values(&self) -> Vec<i32> {
                vec![ $( self.$field, )* ]
            }

            /// Builds a parameter set from values in [`Self::DEFS`] order.
            ///
            /// # Errors
            /// [`EngineError::ParamCount`](crate::EngineError::ParamCount) when the count is wrong.
            pub fn from_values(values: &[i32]) -> Result<$ty, $crate::EngineError> {
                let expected = Self::DEFS.len();
                if values.len() != expected {
                    return Err($crate::EngineError::ParamCount { expected, got: values.len() });
                }
                let mut it = values.iter().copied();
                Ok($ty { $( $field: it.next().unwrap_or($default), )* })
            }

            /// Returns the value of the parameter called `name` (case-insensitive).
            #[must_use]
            pub fn get(&self, name: &str) -> Option<i32> {
                $( if name.eq_ignore_ascii_case($name) { return Some(self.$field); } )*
                None
            }

            /// Sets the parameter called `name` (case-insensitive), clamped to its range.
            ///
            /// # Errors
            /// [`EngineError::UnknownParam`](crate::EngineError::UnknownParam).
            pub fn set(&mut self, name: &str, value: i32) -> Result<(), $crate::EngineError> {
                $( if name.eq_ignore_ascii_case($name) { self.$field = value.clamp($min, $max); return Ok(()); } )*
                Err($crate::EngineError::UnknownParam(name.to_owned()))
            }

            /// Encodes the parameters as a chromosome (the paper: fixed width per parameter).
            #[must_use]
            pub fn encode(&self, coding: $crate::Coding) -> Vec<bool> {
                $crate::chromosome::encode(Self::DEFS, &self.values(), coding)
            }

            /// Decodes a chromosome written by [`Self::encode`].
            ///
            /// # Errors
            /// [`EngineError::ChromosomeLength`](crate::EngineError::ChromosomeLength).
            pub fn decode(bits: &[bool], coding: $crate::Coding) -> Result<$ty, $crate::EngineError> {
                Self::from_values(&$crate::chromosome::decode(Self::DEFS, bits, coding)?)
            }

            /// Parses the text format `NAME = value` (names not given keep their defaults).
            ///
            /// # Errors
            /// [`EngineError::ParamText`](crate::EngineError::ParamText) naming `source` and the line.
            pub fn from_text(text: &str, source: &str) -> Result<$ty, $crate::EngineError> {
                let mut values = Self::new().values();
                $crate::chromosome::parse_text(Self::DEFS, &mut values, text, source)?;
                Self::from_values(&values)
            }

            /// Writes the parameters in the text format `NAME = value`, one per line.
            #[must_use]
            pub fn to_text(&self) -> String {
                $crate::chromosome::write_text(Self::DEFS, &self.values())
            }
        }

        impl Default for $ty {
            fn default() -> $ty {
                $ty::new()
            }
        }
    };
}

pub(crate) use param_struct;

#[cfg(test)]
mod tests {
    use super::*;

    const DEFS: &[ParamDef] = &[
        ParamDef {
            name: "A",
            default: 3,
            min: 0,
            max: 4,
            bits: 3,
            help: "",
        },
        ParamDef {
            name: "B",
            default: 0,
            min: 0,
            max: 0,
            bits: 0,
            help: "",
        },
        ParamDef {
            name: "C",
            default: 700,
            min: 0,
            max: 1023,
            bits: 10,
            help: "",
        },
    ];

    #[test]
    fn gray_and_binary_round_trip_every_value() {
        for coding in [Coding::Binary, Coding::Gray] {
            for a in 0..=4 {
                for c in [0, 1, 2, 511, 512, 1023] {
                    let bits = encode(DEFS, &[a, 0, c], coding);
                    assert_eq!(bits.len(), 13);
                    assert_eq!(decode(DEFS, &bits, coding).expect("length"), vec![a, 0, c]);
                }
            }
        }
    }

    #[test]
    fn gray_neighbours_differ_in_one_bit() {
        for c in 0..1023 {
            let x = encode(DEFS, &[0, 0, c], Coding::Gray);
            let y = encode(DEFS, &[0, 0, c + 1], Coding::Gray);
            assert_eq!(x.iter().zip(&y).filter(|(p, q)| p != q).count(), 1);
        }
    }

    /// The 3-bit gene of a 0–4 parameter (Table I's extensions): every gene value decodes to
    /// the nearest point of the range spread over 0..=7, so each of 0–4 is reachable, no value
    /// takes more than a quarter of the genes, and the decoding is monotone.
    #[test]
    fn a_narrow_range_is_spread_over_the_whole_gene() {
        let mut decoded = Vec::new();
        for g in 0..8u32 {
            let bits: Vec<bool> = (0..3)
                .rev()
                .map(|i| g >> i & 1 == 1)
                .chain(std::iter::repeat_n(false, 10))
                .collect();
            decoded.push(decode(DEFS, &bits, Coding::Binary).expect("length")[0]);
        }
        assert_eq!(decoded, vec![0, 1, 1, 2, 2, 3, 3, 4]);
        // Encoding picks a gene that decodes back to the value.
        for v in 0..=4 {
            let bits = encode(DEFS, &[v, 0, 0], Coding::Binary);
            let g = bits[..3]
                .iter()
                .fold(0, |acc, &b| acc << 1 | usize::from(b));
            assert_eq!(decoded[g], v, "value {v} -> gene {g}");
        }
    }

    #[test]
    fn wrong_length_is_an_error() {
        assert!(matches!(
            decode(DEFS, &[true; 5], Coding::Binary),
            Err(EngineError::ChromosomeLength {
                expected: 13,
                got: 5
            })
        ));
    }

    #[test]
    fn text_errors_name_the_line() {
        let mut v = vec![3, 0, 700];
        let e =
            parse_text(DEFS, &mut v, "# comment\nA = 2\nC = 5000\n", "f.txt").expect_err("range");
        assert_eq!(e.to_string(), "f.txt line 3: C = 5000 is outside 0..=1023");
        let e = parse_text(DEFS, &mut v, "Z = 1", "f.txt").expect_err("name");
        assert!(e.to_string().contains("unknown parameter \"Z\""));
        parse_text(DEFS, &mut v, "a=1\n\nc = 9 # nine\n", "f.txt").expect("fine");
        assert_eq!(v, vec![1, 0, 9]);
    }
}
