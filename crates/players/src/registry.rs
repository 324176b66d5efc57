//! The registry of named players of one game.

use crate::{Diluted, Player, PlayerError, PlayerSpec, SpecError};
use eloworld_games::Game;
use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

/// Properties of a player, as in the key of Elo World's Fig. 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// Makes no random choices.
    pub deterministic: bool,
    /// Keeps state across the moves of a game (through `observe`).
    pub stateful: bool,
    /// Plays differently as White and as Black by design.
    pub asymmetric: bool,
    /// Runs an external program.
    pub external: bool,
}

impl Flags {
    /// No flags: a stateless, symmetric, in-process player with random tie-breaks.
    pub const NONE: Flags = Flags {
        deterministic: false,
        stateful: false,
        asymmetric: false,
        external: false,
    };
    /// Deterministic only.
    pub const DETERMINISTIC: Flags = Flags {
        deterministic: true,
        ..Flags::NONE
    };
    /// Stateful only.
    pub const STATEFUL: Flags = Flags {
        stateful: true,
        ..Flags::NONE
    };
    /// External only.
    pub const EXTERNAL: Flags = Flags {
        external: true,
        ..Flags::NONE
    };

    /// Returns the flags as short words (`det state asym ext`).
    #[must_use]
    pub fn words(self) -> String {
        let mut w = Vec::new();
        if self.deterministic {
            w.push("det");
        }
        if self.stateful {
            w.push("state");
        }
        if self.asymmetric {
            w.push("asym");
        }
        if self.external {
            w.push("ext");
        }
        w.join(" ")
    }
}

/// How a player's choices depend on its random stream, which decides whether two games of a
/// pair can differ: two players that make no random choice replay one game from one start
/// (the copies issue of Murphy's Elo World field: its deterministic engines and strategies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Determinism {
    /// The same position always gives the same move (an engine at a node or depth budget on
    /// one thread, `first_move`, `alphabetical`, `cccp`).
    Deterministic,
    /// A deterministic player that plays a random move instead with this chance (of 65,536):
    /// a dilution `_rN` of a deterministic player.
    Diluted(u16),
    /// Makes random choices on most moves: random tie-breaks, random moves, an engine's own
    /// randomness (a skill level, a time budget, a book).
    Randomised,
}

impl Determinism {
    /// The half of 65,536: a dilution below it plays most of its moves by its fixed rule.
    const HALF: u16 = 32_768;

    /// The determinism of this player diluted with `_rN` (`N` of 65,536 moves random).
    #[must_use]
    pub const fn diluted(self, n: u16) -> Determinism {
        match (self, n) {
            (d, 0) => d,
            (Determinism::Deterministic, n) => Determinism::Diluted(n),
            (Determinism::Diluted(a), n) => Determinism::Diluted(if a > n { a } else { n }),
            (Determinism::Randomised, _) => Determinism::Randomised,
        }
    }

    /// Whether the player plays most of its moves by a fixed rule: deterministic, or diluted
    /// with fewer than half its moves random.
    #[must_use]
    pub const fn mostly_fixed(self) -> bool {
        match self {
            Determinism::Deterministic => true,
            Determinism::Diluted(n) => n < Determinism::HALF,
            Determinism::Randomised => false,
        }
    }

    /// Whether two players replay (nearly) the same game from one start, so their pair needs
    /// openings for its games to count as independent: both play most moves by a fixed rule.
    /// In the shipped `elo-world` store every pair with copies was such a pair, dilutions up
    /// to `_r16384` included (a short game against `cccp` has few random moves to differ by).
    #[must_use]
    pub const fn pair_cannot_vary(a: Determinism, b: Determinism) -> bool {
        a.mostly_fixed() && b.mostly_fixed()
    }

    /// A short word for listings (`deterministic`, `diluted 1/64`, `randomised`).
    #[must_use]
    pub fn word(self) -> String {
        match self {
            Determinism::Deterministic => "deterministic".to_owned(),
            Determinism::Diluted(n) => format!("diluted {n}/65536"),
            Determinism::Randomised => "randomised".to_owned(),
        }
    }
}

/// A parameter a player accepts in its spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    /// The key (`playouts`).
    pub key: &'static str,
    /// The default value, as text.
    pub default: String,
    /// What it means, in a few words.
    pub help: &'static str,
}

/// What the registry says of one player (or one family of players, such as `stockfish<N>k`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerInfo {
    /// The name, or the pattern of a family of names.
    pub name: String,
    /// One line saying how it plays.
    pub description: String,
    /// Its properties.
    pub flags: Flags,
    /// The parameters it accepts.
    pub params: Vec<ParamInfo>,
}

impl PlayerInfo {
    /// Creates the description of a player that takes no parameters.
    #[must_use]
    pub fn new(name: &str, description: &str, flags: Flags) -> PlayerInfo {
        PlayerInfo {
            name: name.to_owned(),
            description: description.to_owned(),
            flags,
            params: Vec::new(),
        }
    }

    /// Adds a parameter.
    #[must_use]
    pub fn param(
        mut self,
        key: &'static str,
        default: impl ToString,
        help: &'static str,
    ) -> PlayerInfo {
        self.params.push(ParamInfo {
            key,
            default: default.to_string(),
            help,
        });
        self
    }
}

/// The per-thread context players are built in: a worker's index and the long-lived
/// resources it keeps across games (an external engine's process, a loaded table).
#[derive(Default)]
pub struct Worker {
    /// The worker's index, 0-based.
    pub index: usize,
    resources: HashMap<String, Box<dyn Any + Send>>,
}

impl Worker {
    /// Creates the context of worker `index`.
    #[must_use]
    pub fn new(index: usize) -> Worker {
        Worker {
            index,
            resources: HashMap::new(),
        }
    }

    /// Returns the resource kept under `key`, making it first if absent.
    ///
    /// # Errors
    /// Whatever `make` returns; nothing is kept then.
    ///
    /// # Panics
    /// Panics if a resource of another type is kept under the same key.
    pub fn resource<T: Any + Send, E>(
        &mut self,
        key: &str,
        make: impl FnOnce() -> Result<T, E>,
    ) -> Result<&mut T, E> {
        if !self.resources.contains_key(key) {
            let value = make()?;
            self.resources.insert(key.to_owned(), Box::new(value));
        }
        let slot = self
            .resources
            .get_mut(key)
            .and_then(|b| b.downcast_mut::<T>());
        Ok(slot.expect("resource keys are unique per type"))
    }

    /// Removes the resource kept under `key` (for example an engine to restart).
    pub fn drop_resource(&mut self, key: &str) {
        self.resources.remove(key);
    }
}

/// Builds a fresh player for every game.
pub trait PlayerFactory<G: Game>: Send + Sync {
    /// Creates a player for one game, in the context of one worker thread.
    ///
    /// # Errors
    /// [`PlayerError::Setup`] and the engine errors when an external player cannot start.
    fn create(&self, worker: &mut Worker) -> Result<Box<dyn Player<G>>, PlayerError>;

    /// How the players it builds choose, when the factory knows better than its registry
    /// entry's flag (an engine's budget and options decide); `None`: the flag decides.
    fn determinism(&self) -> Option<Determinism> {
        None
    }
}

/// A factory from a closure that needs no worker resources.
pub struct SimpleFactory<F>(pub F);

impl<G: Game, F> PlayerFactory<G> for SimpleFactory<F>
where
    F: Fn() -> Box<dyn Player<G>> + Send + Sync,
{
    fn create(&self, _worker: &mut Worker) -> Result<Box<dyn Player<G>>, PlayerError> {
        Ok((self.0)())
    }
}

/// Turns a spec that an entry matched into a factory (checking its parameters).
pub type FactoryFn<G> =
    Box<dyn Fn(&PlayerSpec) -> Result<Arc<dyn PlayerFactory<G>>, SpecError> + Send + Sync>;

type Matcher = Box<dyn Fn(&str) -> bool + Send + Sync>;

struct Entry<G: Game> {
    info: PlayerInfo,
    matches: Matcher,
    build: FactoryFn<G>,
}

/// The named players of one game.
pub struct Registry<G: Game> {
    entries: Vec<Entry<G>>,
}

impl<G: Game> Default for Registry<G> {
    fn default() -> Self {
        Registry {
            entries: Vec::new(),
        }
    }
}

impl<G: Game> Registry<G> {
    /// Creates an empty registry.
    #[must_use]
    pub fn new() -> Registry<G> {
        Registry::default()
    }

    /// Adds a player known by one exact name; a later entry of the same name replaces it.
    pub fn add(&mut self, info: PlayerInfo, build: FactoryFn<G>) {
        let name = info.name.clone();
        self.entries.retain(|e| e.info.name != name);
        self.entries.push(Entry {
            info,
            matches: Box::new(move |n| n == name),
            build,
        });
    }

    /// Adds a player that takes no parameters and is built by `make`.
    pub fn add_simple<F>(&mut self, info: PlayerInfo, make: F)
    where
        F: Fn() -> Box<dyn Player<G>> + Send + Sync + Clone + 'static,
    {
        let name = info.name.clone();
        self.add(
            info,
            Box::new(move |spec: &PlayerSpec| {
                spec.params.check_keys(&name, &[])?;
                Ok(Arc::new(SimpleFactory(make.clone())) as Arc<dyn PlayerFactory<G>>)
            }),
        );
    }

    /// Adds a family of players whose names `matches` accepts (`stockfish<N>k`); families
    /// are tried after exact names, in the order added.
    pub fn add_family(
        &mut self,
        info: PlayerInfo,
        matches: impl Fn(&str) -> bool + Send + Sync + 'static,
        build: FactoryFn<G>,
    ) {
        self.entries.push(Entry {
            info,
            matches: Box::new(matches),
            build,
        });
    }

    /// Returns what the registry knows, in the order added.
    pub fn infos(&self) -> impl Iterator<Item = &PlayerInfo> {
        self.entries.iter().map(|e| &e.info)
    }

    /// Returns the entry for a name: an exact name first, then the first family.
    fn entry(&self, name: &str) -> Option<&Entry<G>> {
        self.entries
            .iter()
            .find(|e| e.info.name == name)
            .or_else(|| self.entries.iter().find(|e| (e.matches)(name)))
    }

    /// Returns the entry for a name, or [`SpecError::Unknown`] with the closest known names.
    fn known(&self, name: &str) -> Result<&Entry<G>, SpecError> {
        self.entry(name).ok_or_else(|| SpecError::Unknown {
            game: G::KIND.name().to_owned(),
            name: name.to_owned(),
            suggestions: self.closest(name, 3),
        })
    }

    /// Returns whether a name is known.
    #[must_use]
    pub fn knows(&self, name: &str) -> bool {
        self.entry(name).is_some()
    }

    /// Returns the registry's description of a spec's player.
    #[must_use]
    pub fn info(&self, name: &str) -> Option<&PlayerInfo> {
        self.entry(name).map(|e| &e.info)
    }

    /// Builds the factory for a spec, wrapping it in [`Diluted`] for `_rN`.
    ///
    /// # Errors
    /// [`SpecError::Unknown`] with the closest known names, or the entry's own errors.
    pub fn resolve(&self, spec: &PlayerSpec) -> Result<Arc<dyn PlayerFactory<G>>, SpecError> {
        let entry = self.known(&spec.name)?;
        let base = (entry.build)(spec)?;
        Ok(match spec.dilution {
            None => base,
            Some(r) => Arc::new(DilutedFactory {
                inner: base,
                threshold: r,
            }),
        })
    }

    /// Returns how the player of `spec` chooses: the factory's word where it has one (engines),
    /// else its entry's `deterministic` flag, then its dilution `_rN` applied.
    ///
    /// # Errors
    /// As [`Registry::resolve`].
    pub fn determinism(&self, spec: &PlayerSpec) -> Result<Determinism, SpecError> {
        let entry = self.known(&spec.name)?;
        let base = (entry.build)(spec)?.determinism().unwrap_or({
            if entry.info.flags.deterministic {
                Determinism::Deterministic
            } else {
                Determinism::Randomised
            }
        });
        Ok(base.diluted(spec.dilution.unwrap_or(0)))
    }

    /// Parses and resolves a spec's text.
    ///
    /// # Errors
    /// As [`PlayerSpec::from_str`](std::str::FromStr) and [`Registry::resolve`].
    pub fn resolve_str(&self, spec: &str) -> Result<Arc<dyn PlayerFactory<G>>, SpecError> {
        self.resolve(&spec.parse()?)
    }

    /// Returns up to `n` known names closest to `name` by edit distance.
    #[must_use]
    pub fn closest(&self, name: &str, n: usize) -> Vec<String> {
        let lower = name.to_ascii_lowercase();
        let mut scored: Vec<(usize, &str)> = self
            .entries
            .iter()
            .map(|e| {
                let d = strsim::levenshtein(&lower, &e.info.name.to_ascii_lowercase());
                let prefix_bonus =
                    usize::from(!e.info.name.starts_with(&lower[..lower.len().min(3)]));
                (d + prefix_bonus, e.info.name.as_str())
            })
            .collect();
        scored.sort();
        scored
            .into_iter()
            .take(n)
            .map(|(_, s)| s.to_owned())
            .collect()
    }
}

struct DilutedFactory<G: Game> {
    inner: Arc<dyn PlayerFactory<G>>,
    threshold: u16,
}

impl<G: Game> PlayerFactory<G> for DilutedFactory<G> {
    fn create(&self, worker: &mut Worker) -> Result<Box<dyn Player<G>>, PlayerError> {
        Ok(Box::new(Diluted::new(
            self.inner.create(worker)?,
            self.threshold,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dilution_keeps_a_fixed_rule_below_half_its_moves() {
        use Determinism::{Deterministic, Diluted, Randomised};
        assert_eq!(Deterministic.diluted(0), Deterministic);
        assert_eq!(Deterministic.diluted(64), Diluted(64));
        assert_eq!(Diluted(64).diluted(4096), Diluted(4096));
        assert_eq!(Randomised.diluted(64), Randomised);
        assert!(Diluted(32_767).mostly_fixed());
        assert!(!Diluted(32_768).mostly_fixed());
        assert!(Determinism::pair_cannot_vary(
            Deterministic,
            Diluted(16_384)
        ));
        assert!(!Determinism::pair_cannot_vary(Deterministic, Randomised));
        assert!(!Determinism::pair_cannot_vary(
            Diluted(49_152),
            Deterministic
        ));
    }
}
