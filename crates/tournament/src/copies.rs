//! Copies: stored games that repeat an earlier game of the same ordered pair move for move
//! from the same start.
//!
//! Two deterministic players (an engine at a fixed node budget or depth, most simple
//! strategies) play the same game every time they meet from the same position, so a store
//! can hold a pair's one game many times over. Every interval the ratings print assumes
//! independent games, so a copy is not new evidence: the fits count an exact repeat once
//! (docs/ratings.md, "Copies"). The rule is applied to every pair, not only to pairs known
//! to be deterministic: for players that randomise, a repeat of a whole game is vanishingly
//! rare except in very short games, so counting it once costs nothing measurable, while a
//! player's determinism is not something the store knows.

use crate::RatedGame;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hasher};

/// What a stored game played: a hash of its start position and its moves (the store's
/// two-byte move words, [`eloworld_games::MoveRecord`]). Two games of one ordered pair with
/// the same identity are the same game. It is never stored: it only has to agree within
/// one process, so `std`'s fixed-key SipHash does (64 bits: two different games of one pair
/// share it with a probability near `n² / 2⁶⁵`, about 10⁻⁸ for a million games).
///
/// A game without stored moves (a forfeit before the first move, a store written without
/// moves) has no identity: it is never taken for a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameIdentity(Option<u64>);

impl GameIdentity {
    /// The identity of a game from `start` (`None`: the game's standard start) with these
    /// move words.
    #[must_use]
    pub fn of(start: Option<&str>, words: &[u8]) -> GameIdentity {
        GameIdentity::hashed(start, 0, words)
    }

    /// The identity of a game whose moves are text that is not a move record this build
    /// reads (a damaged or foreign row): kept apart from every record.
    #[must_use]
    pub fn of_text(start: Option<&str>, text: &str) -> GameIdentity {
        GameIdentity::hashed(start, 1, text.as_bytes())
    }

    fn hashed(start: Option<&str>, form: u8, moves: &[u8]) -> GameIdentity {
        if moves.iter().all(u8::is_ascii_whitespace) && (form == 1 || moves.is_empty()) {
            return GameIdentity(None);
        }
        let mut h = DefaultHasher::new();
        match start {
            None => h.write_u8(0),
            Some(s) => {
                h.write_u8(1);
                h.write_usize(s.len());
                h.write(s.as_bytes());
            }
        }
        h.write_u8(form);
        h.write(moves);
        GameIdentity(Some(h.finish()))
    }

    /// The identity of a game stored with its moves as text (`e2e4 e7e5`): the same as
    /// the identity of its move record, so a store holding both forms finds its copies.
    #[must_use]
    pub fn of_codes(
        kind: eloworld_games::GameKind,
        start: Option<&str>,
        text: &str,
    ) -> GameIdentity {
        match eloworld_games::MoveRecord::from_text(kind, text) {
            Ok(record) => GameIdentity::of(start, record.as_bytes()),
            Err(_) => GameIdentity::of_text(start, text),
        }
    }
}

/// Whether the fits count a repeated game once (the default) or every time it was stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CopyRule {
    /// An exact repeat of an earlier game of the same ordered pair is not counted again.
    #[default]
    CountOnce,
    /// Every stored game counts (`rate --keep-copies`: the behaviour before copies were
    /// recognised).
    CountEach,
}

/// The games seen so far, by ordered pair: decides whether a game is new evidence.
#[derive(Clone, Debug, Default)]
pub struct Distinct {
    rule: CopyRule,
    /// Each player's number, in the order first seen.
    players: HashMap<String, u32>,
    /// (White's number, Black's number, what was played) of every game admitted.
    seen: HashSet<(u32, u32, GameIdentity)>,
}

impl Distinct {
    /// Nothing seen yet.
    #[must_use]
    pub fn new(rule: CopyRule) -> Distinct {
        Distinct {
            rule,
            ..Distinct::default()
        }
    }

    /// Returns whether this game counts: always under [`CopyRule::CountEach`], else only the
    /// first time this ordered pair is seen playing this game.
    pub fn admit(&mut self, white: &str, black: &str, identity: GameIdentity) -> bool {
        if self.rule == CopyRule::CountEach || identity.0.is_none() {
            return true;
        }
        let (w, b) = (self.number(white), self.number(black));
        self.seen.insert((w, b, identity))
    }

    fn number(&mut self, player: &str) -> u32 {
        if let Some(&n) = self.players.get(player) {
            return n;
        }
        let n = u32::try_from(self.players.len()).unwrap_or(u32::MAX);
        self.players.insert(player.to_owned(), n);
        n
    }
}

/// One ordered pair's games and how many of them are distinct.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PairCopies {
    /// White's spec.
    pub white: String,
    /// Black's spec.
    pub black: String,
    /// Games stored.
    pub games: u64,
    /// Distinct games among them.
    pub distinct: u64,
}

/// How many copies a set of stored games holds, and of which pairs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Copies {
    /// Games stored.
    pub games: u64,
    /// Distinct games among them (per ordered pair, start and moves).
    pub distinct: u64,
    /// The ordered pairs that hold copies, most copies first.
    pub pairs: Vec<PairCopies>,
}

impl Copies {
    /// Counts the copies among `rows`.
    #[must_use]
    pub fn of<G: RatedGame>(rows: &[G]) -> Copies {
        // Per pair: games, and the identities seen (a game without one counts as distinct).
        let mut pairs: HashMap<(&str, &str), (u64, u64, HashSet<GameIdentity>)> = HashMap::new();
        for r in rows {
            let (games, unknown, seen) = pairs.entry((r.white(), r.black())).or_default();
            *games += 1;
            let identity = r.identity();
            if identity.0.is_none() {
                *unknown += 1;
            } else {
                seen.insert(identity);
            }
        }
        let mut copies = Copies {
            games: rows.len() as u64,
            ..Copies::default()
        };
        for ((white, black), (games, unknown, seen)) in pairs {
            let distinct = seen.len() as u64 + unknown;
            copies.distinct += distinct;
            if distinct < games {
                copies.pairs.push(PairCopies {
                    white: white.to_owned(),
                    black: black.to_owned(),
                    games,
                    distinct,
                });
            }
        }
        copies.pairs.sort_by(|a, b| {
            (b.games - b.distinct)
                .cmp(&(a.games - a.distinct))
                .then_with(|| a.white.cmp(&b.white))
                .then_with(|| a.black.cmp(&b.black))
        });
        copies
    }

    /// Games that repeat an earlier game of their pair.
    #[must_use]
    pub fn copies(&self) -> u64 {
        self.games - self.distinct
    }

    /// A one-line note for a user, naming the `top` pairs with the most copies and how the
    /// fits count them; `None` when there is no copy.
    #[must_use]
    pub fn note(&self, rule: CopyRule, top: usize) -> Option<String> {
        if self.copies() == 0 {
            return None;
        }
        let copies = self.copies();
        let mut note = format!(
            "the games hold {copies} {} of earlier games ({} games, {} distinct per ordered pair, start and moves); {}: ",
            if copies == 1 { "copy" } else { "copies" },
            self.games,
            self.distinct,
            match rule {
                CopyRule::CountOnce => "the ratings count each once",
                CopyRule::CountEach => "the ratings count every copy (--keep-copies)",
            }
        );
        let shown: Vec<String> = self
            .pairs
            .iter()
            .take(top)
            .map(|p| {
                format!(
                    "{}–{} {} games, {} distinct",
                    p.white, p.black, p.games, p.distinct
                )
            })
            .collect();
        note.push_str(&shown.join("; "));
        if self.pairs.len() > top {
            note.push_str(&format!("; and {} more pairs", self.pairs.len() - top));
        }
        Some(note)
    }
}
