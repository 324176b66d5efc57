//! Balanced multi-pass Elo with medians: the rating of Elo World (Murphy's Elo World, section 3).
//!
//! n is the largest count such that every ordered (White, Black) cell of different players has
//! at least n games. Every player starts at 1000. A pass samples exactly n games from each cell
//! without replacement, shuffles the global order and runs Elo updates:
//! E = 1/(1 + 10^((R_black − R_white)/400)), both ratings move by K·(S − E) (zero-sum). The
//! passes repeat 20 times with K shrinking linearly from 10 to 0.5 (the original runner's
//! schedule); the whole thing runs 19 times and each player's median is its rating, with the
//! 25th and 75th percentiles (linear interpolation between order statistics) as its spread.
//!
//! When some games have unknown colours, cells are unordered pairs over all games instead.
//!
//! Speed: repetitions run in parallel (rayon); the expected score comes from a table of
//! 1/(1 + 10^(−d/400)) every 2 Elo of difference with linear interpolation (error below
//! 2·10⁻⁶; the few hundred entries a field uses stay in the L1 cache), so no power of ten is
//! computed per game; a pass's games are 16-bit codes of a cell and a result, dealt eight to a
//! random word into buckets and shuffled within a bucket while they are played (a two-level
//! shuffle); no index on the way from a game to its players' ratings needs a bounds check.
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{elo_world::{EloWorld, EloWorldConfig}, Games, Score};
//! let mut games = Games::new();
//! for _ in 0..3 {
//!     games.add("strong", "weak", Score::Win, true, None);
//!     games.add("weak", "strong", Score::Loss, true, None);
//! }
//! let r = EloWorld::new(EloWorldConfig::new()).rate(&games.counts(), games.names())?;
//! assert_eq!(r.games_per_cell, 3);
//! assert!(r.median[0] > 1100.0 && r.median[1] < 900.0);
//! # Ok::<_, eloworld_ratings::RatingError>(())
//! ```

use crate::{games::PairCounts, RatingError};
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

/// Settings of the Elo World rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloWorldConfig {
    /// Every player's rating at the start of a repetition.
    pub initial_rating: f64,
    /// Passes per repetition.
    pub passes: u32,
    /// K of the first pass.
    pub k_first: f64,
    /// K of the last pass.
    pub k_last: f64,
    /// Independent repetitions; the rating is their median.
    pub repetitions: u32,
    /// Seed of the sampling and shuffling.
    pub seed: u64,
}

impl EloWorldConfig {
    /// Returns the paper's settings: 1000, 20 passes, K from 10 to 0.5, 19 repetitions.
    #[must_use]
    pub const fn new() -> EloWorldConfig {
        EloWorldConfig {
            initial_rating: 1000.0,
            passes: 20,
            k_first: 10.0,
            k_last: 0.5,
            repetitions: 19,
            seed: 1,
        }
    }
}

impl Default for EloWorldConfig {
    fn default() -> EloWorldConfig {
        EloWorldConfig::new()
    }
}

/// Medians and quartiles over the repetitions.
#[derive(Clone, Debug, PartialEq)]
pub struct EloWorldRatings {
    /// Median rating per player.
    pub median: Vec<f64>,
    /// 25th percentile per player.
    pub q25: Vec<f64>,
    /// 75th percentile per player.
    pub q75: Vec<f64>,
    /// n: games sampled from each cell in each pass.
    pub games_per_cell: u32,
    /// Cells (ordered pairs, or unordered when colours are unknown).
    pub cells: usize,
}

/// The Elo World rating.
#[derive(Clone, Copy, Debug, Default)]
pub struct EloWorld {
    config: EloWorldConfig,
}

const RANGE: f64 = 4000.0;
const STEP: f64 = 2.0;
/// Entries of the expected-score table: every `STEP` Elo from −`RANGE` to +`RANGE`, and one
/// more.
const TABLE_LEN: usize = (2.0 * RANGE / STEP) as usize + 2;
/// 1.5·2⁵²: adding it to a double of magnitude below 2⁵¹ rounds it to an integer held in
/// the low bits of the sum (the fast float-to-index conversion of [`ExpectedTable::at`]).
const ROUND: f64 = 6_755_399_441_055_744.0;

/// Slots of a repetition's ratings: one for every index a `u16` can hold.
const PLAYER_SLOTS: usize = 1 << 16;

/// Expected score by rating difference, tabulated every `STEP` Elo over ±`RANGE`.
struct ExpectedTable {
    /// Per entry: its value rounded to `f32` and the step to the next entry (exact:
    /// neighbouring entries are within a factor of two, Sterbenz's lemma), side by side so
    /// that one cache line serves an interpolation.
    values: Box<[[f64; 2]; TABLE_LEN]>,
}

impl ExpectedTable {
    fn new() -> ExpectedTable {
        let value = |i: usize| crate::convert::expected_score(i as f64 * STEP - RANGE) as f32;
        let mut values = Box::new([[0.0f64; 2]; TABLE_LEN]);
        for (i, v) in values.iter_mut().enumerate() {
            let (a, b) = (value(i), value(i + 1));
            *v = [f64::from(a), f64::from(b - a)];
        }
        ExpectedTable { values }
    }

    /// Returns 1/(1 + 10^(−difference/400)), interpolated linearly between the two entries
    /// around `difference`.
    #[cfg(test)]
    fn expected(&self, difference: f64) -> f64 {
        ExpectedTable::at(&self.values, difference * (1.0 / STEP))
    }

    /// Returns the expected score at a rating difference given in table steps (the
    /// difference divided by `STEP`), interpolated linearly between the two entries around it;
    /// differences beyond ±`RANGE` take the value at the end of the table.
    ///
    /// The entry index is ⌊x⌋, found as x − ½ rounded to the nearest integer (ties to even)
    /// by [`ROUND`]; at an integer x this gives x − 1 for odd x, and then the fraction is 1
    /// and a + 1·(b − a) is b exactly (b − a of two `f32` is exact in `f64`), so the value is
    /// the same as with ⌊x⌋, bit for bit.
    #[inline]
    fn at(values: &[[f64; 2]; TABLE_LEN], steps: f64) -> f64 {
        let x = (steps + RANGE / STEP).clamp(0.0, 2.0 * RANGE / STEP);
        let rounded = (x - 0.5) + ROUND;
        // The low 32 bits of the sum hold the integer: 0 ..= 3999 for 0 ≤ x ≤ 4000 (ratings
        // are finite: `rate` refuses settings that could overflow them).
        let i = rounded.to_bits() as u32 as usize;
        let f = x - (rounded - ROUND);
        let [a, step] = values[i];
        a + f * step
    }
}

/// A cell: its two players and its [losses, draws, wins] for the first.
#[derive(Clone, Copy)]
struct Cell {
    first: u32,
    second: u32,
    wdl: [u32; 3],
}

impl EloWorld {
    /// Creates the method with its settings.
    #[must_use]
    pub const fn new(config: EloWorldConfig) -> EloWorld {
        EloWorld { config }
    }

    /// Rates the players; `names` only serve error messages.
    ///
    /// # Errors
    /// [`RatingError::EmptyCell`] when a cell has no games, [`RatingError::NoGames`] with
    /// fewer than two players, [`RatingError::InvalidParameter`] for no passes or repetitions,
    /// or an initial rating or K out of bounds.
    pub fn rate(
        &self,
        counts: &PairCounts,
        names: &[String],
    ) -> Result<EloWorldRatings, RatingError> {
        let c = &self.config;
        if c.passes == 0 || c.repetitions == 0 {
            return Err(RatingError::InvalidParameter {
                name: "passes/repetitions",
                reason: "must be at least 1".into(),
            });
        }
        // Bounded settings keep every rating finite, whatever the games (the expected-score
        // lookup relies on it).
        let bounded = |v: f64, bound: f64| v.is_finite() && v.abs() <= bound;
        if !(bounded(c.initial_rating, 1e12) && bounded(c.k_first, 1e6) && bounded(c.k_last, 1e6)) {
            return Err(RatingError::InvalidParameter {
                name: "initial_rating/k_first/k_last",
                reason: "the initial rating must lie within ±10¹², K within ±10⁶".into(),
            });
        }
        let players = counts.n();
        if players < 2 {
            return Err(RatingError::NoGames);
        }
        if players > usize::from(u16::MAX) {
            return Err(RatingError::InvalidParameter {
                name: "players",
                reason: format!("{players}: elo-world rates at most 65535 players"),
            });
        }
        let unordered = counts.has_uncoloured();
        let mut cells = Vec::new();
        for i in 0..players {
            for j in 0..players {
                if i == j || (unordered && j < i) {
                    continue;
                }
                let wdl = if unordered {
                    counts.pair(i, j)
                } else {
                    counts.coloured(i, j)
                };
                cells.push(Cell {
                    first: i as u32,
                    second: j as u32,
                    wdl,
                });
            }
        }
        let (n, emptiest) = cells
            .iter()
            .map(|cell| (cell.wdl.iter().sum::<u32>(), cell))
            .min_by_key(|(total, _)| *total)
            .ok_or(RatingError::NoGames)?;
        if n == 0 {
            let name = |i: u32| {
                names
                    .get(i as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("#{i}"))
            };
            return Err(RatingError::EmptyCell {
                method: "elo-world",
                white: name(emptiest.first),
                black: name(emptiest.second),
            });
        }
        let table = ExpectedTable::new();
        let runs: Vec<Vec<f64>> = if cells.len() * 4 <= usize::from(u16::MAX) {
            (0..c.repetitions)
                .into_par_iter()
                .map(|r| self.repetition::<u16>(r, &cells, n, players, &table))
                .collect()
        } else {
            (0..c.repetitions)
                .into_par_iter()
                .map(|r| self.repetition::<u32>(r, &cells, n, players, &table))
                .collect()
        };
        let mut median = vec![0.0; players];
        let mut q25 = vec![0.0; players];
        let mut q75 = vec![0.0; players];
        let mut column = Vec::with_capacity(runs.len());
        for p in 0..players {
            column.clear();
            column.extend(runs.iter().map(|run| run[p]));
            column.sort_by(f64::total_cmp);
            median[p] = percentile(&column, 0.5);
            q25[p] = percentile(&column, 0.25);
            q75[p] = percentile(&column, 0.75);
        }
        Ok(EloWorldRatings {
            median,
            q25,
            q75,
            games_per_cell: n,
            cells: cells.len(),
        })
    }

    /// Runs one repetition: `passes` passes over freshly sampled, shuffled games.
    ///
    /// The shuffle is Rao and Sandelius's two-level method: each game goes to one of
    /// `BUCKETS` buckets uniformly at random, each bucket is shuffled (Fisher–Yates, every game
    /// played as soon as it is drawn, 32-bit draws whose bias is below 2⁻²⁰ for buckets of a
    /// few thousand games) and the buckets are played in turn; the order is a uniform random
    /// permutation, and every bucket fits in the L1 cache.
    fn repetition<C: Code>(
        &self,
        repetition: u32,
        cells: &[Cell],
        n: u32,
        players: usize,
        table: &ExpectedTable,
    ) -> Vec<f64> {
        let c = &self.config;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(
            c.seed ^ u64::from(repetition).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        // Ratings in table steps (divided by `STEP`, a power of two: exact).
        let mut scaled: Box<[f64; PLAYER_SLOTS]> = vec![0.0; PLAYER_SLOTS]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("the vector has PLAYER_SLOTS entries"));
        scaled[..players].fill(c.initial_rating / STEP);
        // The buckets side by side in one buffer, each with room for `capacity` games (a power
        // of two): at least a quarter more than its expected share (a bucket's count is
        // binomial, its standard deviation the square root of the share, so filling one is
        // vanishingly rare).
        let mut capacity = (cells.len() * n as usize / BUCKETS * 5 / 4 + 64).next_power_of_two();
        let mut slots: Vec<C> = vec![C::from_usize(0); BUCKETS * stride::<C>(capacity)];
        let mut ends = [[0usize; 2]; BUCKETS];
        let players_of = C::decoder(cells);
        for pass in 0..c.passes {
            let k = if c.passes > 1 {
                c.k_first + (c.k_last - c.k_first) * f64::from(pass) / f64::from(c.passes - 1)
            } else {
                c.k_first
            };
            // A bucket that fills makes the pass draw again with twice the room: a fresh
            // draw, so the order stays a uniform random permutation.
            while !scatter(&mut rng, cells, n, &mut slots, &mut ends, capacity) {
                capacity *= 2;
                slots = vec![C::from_usize(0); BUCKETS * stride::<C>(capacity)];
            }
            let stride = stride::<C>(capacity);
            for (b, &[end, _]) in ends.iter().enumerate() {
                let bucket = &mut slots[b * stride..end];
                play(
                    &mut rng,
                    bucket,
                    &players_of,
                    &mut scaled,
                    &table.values,
                    k / STEP,
                );
            }
        }
        scaled[..players].iter().map(|s| s * STEP).collect()
    }
}

/// Samples `n` games from each cell and deals each, with its result, to a bucket chosen
/// uniformly at random (a byte of a random word a game, low byte first, the word's unused
/// bytes carried to the next games); bucket b fills `slots` from b·[`stride`] up to
/// `ends[b][0]`, and is full at `ends[b][1]`, `capacity` games on. Returns false, leaving the
/// pass unfinished, when a bucket is full.
fn scatter<C: Code>(
    rng: &mut Xoshiro256PlusPlus,
    cells: &[Cell],
    n: u32,
    slots: &mut [C],
    ends: &mut [[usize; 2]; BUCKETS],
    capacity: usize,
) -> bool {
    let stride = stride::<C>(capacity);
    for (b, end) in ends.iter_mut().enumerate() {
        *end = [b * stride, b * stride + capacity];
    }
    // Deals one game to the bucket named by the low byte of `bits`; false once it is full.
    let deal = |bits: u64, code: C, slots: &mut [C], ends: &mut [[usize; 2]; BUCKETS]| -> bool {
        let [next, full] = &mut ends[(bits & (BUCKETS as u64 - 1)) as usize];
        slots[*next] = code;
        *next += 1;
        *next != *full
    };
    let mut bits = 0u64;
    let mut bytes_left = 0u32;
    for (index, cell) in cells.iter().enumerate() {
        let kept = sample_without_replacement(rng, cell.wdl, n);
        for (result, &count) in kept.iter().enumerate() {
            let code = C::from_usize(index << 2 | result);
            let mut left = count;
            // The bytes the last word still holds, then whole words, then part of a new one.
            while left > 0 && bytes_left > 0 {
                if !deal(bits, code, slots, ends) {
                    return false;
                }
                bits >>= BUCKET_BITS;
                bytes_left -= 1;
                left -= 1;
            }
            while left >= WORD_BUCKETS {
                let word = rng.next_u64();
                for byte in 0..WORD_BUCKETS {
                    if !deal(word >> (byte * BUCKET_BITS), code, slots, ends) {
                        return false;
                    }
                }
                left -= WORD_BUCKETS;
            }
            if left > 0 {
                bits = rng.next_u64();
                bytes_left = WORD_BUCKETS;
                while left > 0 {
                    if !deal(bits, code, slots, ends) {
                        return false;
                    }
                    bits >>= BUCKET_BITS;
                    bytes_left -= 1;
                    left -= 1;
                }
            }
        }
    }
    true
}

/// Plays one bucket's games in a uniformly random order: Fisher–Yates drawing from the end,
/// a uniformly chosen remaining game is played and the last one takes its place; two 32-bit
/// draws per 64-bit word. Each game moves both ratings by K·(S − E) (zero-sum).
///
/// `scaled` holds the ratings divided by `STEP` (2) and `k_step` is K/`STEP`: halving is
/// exact in binary floating point and commutes with rounding, so the table position
/// (d + 4000)/2 becomes d/2 + 2000 without a multiplication and every value is the same, bit
/// for bit. A player's `u16` index needs no bounds check in `scaled`.
#[inline]
fn play<C: Code>(
    rng: &mut Xoshiro256PlusPlus,
    bucket: &mut [C],
    players_of: &C::Decode,
    scaled: &mut [f64; PLAYER_SLOTS],
    table: &[[f64; 2]; TABLE_LEN],
    k_step: f64,
) {
    let score = [0.0, 0.5, 1.0, 0.0];
    // The games not yet played, at the front of the bucket: the last of them moves into the
    // place of the one drawn.
    let mut live = bucket;
    let mut game = |half: u64, live: &mut &mut [C]| {
        let Some((last, rest)) = std::mem::take(live).split_last_mut() else {
            return;
        };
        let j = ((half * (rest.len() as u64 + 1)) >> 32) as usize;
        let code = match rest.get_mut(j) {
            Some(slot) => std::mem::replace(slot, *last),
            None => *last,
        };
        *live = rest;
        let [w, b] = C::players(players_of, code);
        let (w, b) = (usize::from(w), usize::from(b));
        let expected = ExpectedTable::at(table, scaled[w] - scaled[b]);
        let delta = k_step * (score[code.to_usize() & 3] - expected);
        scaled[w] += delta;
        scaled[b] -= delta;
    };
    while live.len() >= 2 {
        let word = rng.next_u64();
        game(word & 0xFFFF_FFFF, &mut live);
        game(word >> 32, &mut live);
    }
    if !live.is_empty() {
        let word = rng.next_u64();
        game(word & 0xFFFF_FFFF, &mut live);
    }
}

/// Slots from one bucket's start to the next: `capacity` rounded up to an odd number of
/// 64-byte cache lines. With a power-of-two distance the 256 places being written fall in the
/// same few sets of the L1 cache and evict one another; an odd number of lines spreads them
/// over all the sets (cachegrind, 100,000 games: write misses 0.87 → 0.05 a game).
fn stride<C>(capacity: usize) -> usize {
    let per_line = (64 / std::mem::size_of::<C>()).max(1);
    (capacity.div_ceil(per_line) | 1) * per_line
}

/// Buckets of the two-level shuffle (a power of two).
const BUCKETS: usize = 1 << BUCKET_BITS;
const BUCKET_BITS: u32 = 8;
/// Buckets named by one random 64-bit word.
const WORD_BUCKETS: u32 = 64 / BUCKET_BITS;

/// A game code: cell index · 4 + result, in the narrowest integer that holds it.
trait Code: Copy + Send + Sync {
    /// The players of each cell, as (White, Black) indexes.
    type Decode: ?Sized;
    fn from_usize(x: usize) -> Self;
    fn to_usize(self) -> usize;
    fn decoder(cells: &[Cell]) -> Box<Self::Decode>;
    fn players(decode: &Self::Decode, code: Self) -> [u16; 2];
}

/// Players of a cell as two `u16` (`rate` refuses more players).
fn cell_players(cell: &Cell) -> [u16; 2] {
    [
        u16::try_from(cell.first).unwrap_or(u16::MAX),
        u16::try_from(cell.second).unwrap_or(u16::MAX),
    ]
}

impl Code for u16 {
    /// Every cell a 16-bit code can name, so the lookup needs no bounds check; 10 KB of it
    /// is used for 50 players, and shares the L1 cache with the table and a bucket.
    type Decode = [[u16; 2]; 1 << 14];
    fn from_usize(x: usize) -> u16 {
        x as u16
    }
    fn to_usize(self) -> usize {
        usize::from(self)
    }
    fn decoder(cells: &[Cell]) -> Box<Self::Decode> {
        let mut decode = Box::new([[0u16; 2]; 1 << 14]);
        for (d, cell) in decode.iter_mut().zip(cells) {
            *d = cell_players(cell);
        }
        decode
    }
    #[inline]
    fn players(decode: &Self::Decode, code: u16) -> [u16; 2] {
        decode[usize::from(code >> 2)]
    }
}

impl Code for u32 {
    type Decode = [[u16; 2]];
    fn from_usize(x: usize) -> u32 {
        x as u32
    }
    fn to_usize(self) -> usize {
        self as usize
    }
    fn decoder(cells: &[Cell]) -> Box<Self::Decode> {
        cells.iter().map(cell_players).collect()
    }
    #[inline]
    fn players(decode: &Self::Decode, code: u32) -> [u16; 2] {
        decode[(code >> 2) as usize]
    }
}

/// Returns a uniform integer below `range` (Lemire's multiply-shift; bias below 2⁻⁴⁰ for the
/// ranges used here).
#[inline]
fn below(rng: &mut Xoshiro256PlusPlus, range: u64) -> u64 {
    ((u128::from(rng.next_u64()) * u128::from(range)) >> 64) as u64
}

/// Draws `keep` of the games counted in `wdl` without replacement; returns the kept counts.
/// Removes `total − keep` games one by one when that is fewer draws.
fn sample_without_replacement(rng: &mut Xoshiro256PlusPlus, wdl: [u32; 3], keep: u32) -> [u32; 3] {
    let total: u32 = wdl.iter().sum();
    let (mut pool, draws, keeping) = if keep <= total - keep {
        (wdl, keep, true)
    } else {
        (wdl, total - keep, false)
    };
    let mut drawn = [0u32; 3];
    let mut left = total;
    for _ in 0..draws {
        let mut u = below(rng, u64::from(left)) as u32;
        let mut k = 0;
        while u >= pool[k] {
            u -= pool[k];
            k += 1;
        }
        pool[k] -= 1;
        drawn[k] += 1;
        left -= 1;
    }
    if keeping {
        drawn
    } else {
        pool
    }
}

/// Returns the `q` quantile of sorted values, interpolating linearly between order statistics.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let position = q * (sorted.len() - 1) as f64;
    let low = position.floor() as usize;
    let high = position.ceil() as usize;
    sorted[low] + (position - low as f64) * (sorted[high] - sorted[low])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Games, Score};

    #[test]
    fn table_matches_the_formula() {
        let t = ExpectedTable::new();
        for d in [-5000.0, -1234.56, -0.3, 0.0, 77.7, 399.5, 3999.9] {
            let want = crate::convert::expected_score(d);
            assert!((t.expected(d) - want).abs() < 2e-6, "{d}");
        }
    }

    #[test]
    fn bucket_starts_are_an_odd_number_of_cache_lines_apart() {
        for capacity in [1, 64, 1024, 4096, 65_536] {
            for (size, stride) in [(2, stride::<u16>(capacity)), (4, stride::<u32>(capacity))] {
                let lines = stride * size / 64;
                assert!(stride >= capacity, "{capacity}");
                assert_eq!(stride * size % 64, 0, "{capacity}: whole lines");
                assert_eq!(lines % 2, 1, "{capacity}: an odd number of lines");
                assert!(
                    lines * 64 <= (capacity * size).max(64) + 64,
                    "{capacity}: no waste"
                );
            }
        }
    }

    #[test]
    fn scatter_deals_every_game_once_and_stops_at_a_full_bucket() {
        let cells = [
            Cell {
                first: 0,
                second: 1,
                wdl: [700, 200, 300],
            },
            Cell {
                first: 1,
                second: 0,
                wdl: [100, 900, 50],
            },
        ];
        let n = 1000;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let capacity = 64;
        let gap = stride::<u16>(capacity);
        let mut slots = vec![0u16; BUCKETS * gap];
        let mut ends = [[0usize; 2]; BUCKETS];
        assert!(scatter(
            &mut rng, &cells, n, &mut slots, &mut ends, capacity
        ));
        let mut per_cell = [0u32; 2];
        for (b, &[end, full]) in ends.iter().enumerate() {
            assert!(b * gap <= end && end < full && full == b * gap + capacity);
            for &code in &slots[b * gap..end] {
                per_cell[usize::from(code >> 2)] += 1;
            }
        }
        assert_eq!(per_cell, [n, n], "every sampled game dealt once");
        // 256 buckets of room 8 cannot hold 2,000 games: the pass reports a full bucket.
        let mut small = vec![0u16; BUCKETS * stride::<u16>(8)];
        assert!(!scatter(&mut rng, &cells, n, &mut small, &mut ends, 8));
    }

    #[test]
    fn sampling_keeps_exactly_n_and_never_more_than_present() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for (wdl, keep) in [
            ([5, 0, 7], 4),
            ([5, 0, 7], 11),
            ([1, 1, 1], 3),
            ([0, 9, 0], 2),
        ] {
            let k = sample_without_replacement(&mut rng, wdl, keep);
            assert_eq!(k.iter().sum::<u32>(), keep);
            assert!(k.iter().zip(wdl).all(|(a, b)| *a <= b));
        }
    }

    #[test]
    fn percentiles_of_nineteen() {
        let v: Vec<f64> = (0..19).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), 9.0);
        assert_eq!(percentile(&v, 0.25), 4.5);
        assert_eq!(percentile(&v, 0.75), 13.5);
    }

    #[test]
    fn one_game_one_pass_by_hand() {
        // One game, one pass, one repetition, K = 10: the winner gains 10·(1 − ½) = 5.
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("b", "a", Score::Draw, true, None);
        let config = EloWorldConfig {
            passes: 1,
            repetitions: 1,
            ..EloWorldConfig::new()
        };
        let r = EloWorld::new(config).rate(&g.counts(), g.names());
        let r = r.unwrap_or_else(|e| panic!("{e}"));
        // Two orders are possible: win first (+5, then draw at +5: −10·(½ − E(−10)))
        // or draw first (0, then win: +5). Either way the sum stays 2000.
        assert!((r.median[0] + r.median[1] - 2000.0).abs() < 1e-9);
        let after_win_then_draw = 1005.0 + 10.0 * (0.5 - crate::convert::expected_score(10.0));
        assert!(
            (r.median[0] - 1005.0).abs() < 1e-9 || (r.median[0] - after_win_then_draw).abs() < 1e-6,
            "{:?}",
            r.median
        );
    }

    #[test]
    fn an_empty_cell_is_named() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        let e = EloWorld::new(EloWorldConfig::new()).rate(&g.counts(), g.names());
        assert_eq!(
            e,
            Err(RatingError::EmptyCell {
                method: "elo-world",
                white: "b".into(),
                black: "a".into()
            })
        );
    }

    #[test]
    fn settings_that_could_overflow_a_rating_are_refused() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("b", "a", Score::Draw, true, None);
        for config in [
            EloWorldConfig {
                k_first: f64::NAN,
                ..EloWorldConfig::new()
            },
            EloWorldConfig {
                k_last: 1e300,
                ..EloWorldConfig::new()
            },
            EloWorldConfig {
                initial_rating: f64::INFINITY,
                ..EloWorldConfig::new()
            },
        ] {
            let r = EloWorld::new(config).rate(&g.counts(), g.names());
            assert!(
                matches!(r, Err(RatingError::InvalidParameter { .. })),
                "{config:?}: {r:?}"
            );
        }
        let huge_but_allowed = EloWorldConfig {
            k_first: 1e6,
            initial_rating: -1e12,
            ..EloWorldConfig::new()
        };
        let r = EloWorld::new(huge_but_allowed).rate(&g.counts(), g.names());
        let r = r.unwrap_or_else(|e| panic!("{e}"));
        assert!(r.median.iter().all(|v| v.is_finite()), "{:?}", r.median);
    }

    #[test]
    fn same_seed_same_ratings() {
        let mut g = Games::new();
        for i in 0..30 {
            let s = [Score::Win, Score::Draw, Score::Loss][i % 3];
            g.add("a", "b", s, true, None);
            g.add("b", "c", s.reversed(), true, None);
            g.add("c", "a", Score::Win, true, None);
            g.add("b", "a", Score::Loss, true, None);
            g.add("c", "b", s, true, None);
            g.add("a", "c", Score::Draw, true, None);
        }
        let r1 = EloWorld::new(EloWorldConfig::new()).rate(&g.counts(), g.names());
        let r2 = EloWorld::new(EloWorldConfig::new()).rate(&g.counts(), g.names());
        assert_eq!(r1, r2);
        let r = r1.unwrap_or_else(|e| panic!("{e}"));
        assert!(r.q25.iter().zip(&r.median).all(|(a, b)| a <= b));
    }
}
