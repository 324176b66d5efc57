//! Player specs: `name[:key=value,…][_rN]` (DESIGN.md, "Player specs").

use crate::SpecError;
use std::fmt;
use std::str::FromStr;

/// Parameters of a player spec, in a canonical (sorted by key) order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// Creates parameters from pairs; later duplicates replace earlier ones.
    #[must_use]
    pub fn new(pairs: impl IntoIterator<Item = (String, String)>) -> Params {
        let mut v: Vec<(String, String)> = Vec::new();
        for (k, val) in pairs {
            if let Some(slot) = v.iter_mut().find(|(kk, _)| *kk == k) {
                slot.1 = val;
            } else {
                v.push((k, val));
            }
        }
        v.sort();
        Params(v)
    }

    /// Returns whether there are no parameters.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Returns the value of `key`, if given.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Iterates over the pairs in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Parses `key` as a number, or returns `default` when absent.
    ///
    /// # Errors
    /// [`SpecError::BadParam`] when the value does not parse.
    pub fn parse_or<T: FromStr>(
        &self,
        player: &str,
        key: &str,
        default: T,
    ) -> Result<T, SpecError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| SpecError::BadParam {
                player: player.to_owned(),
                reason: format!("{key}={v:?} is not a valid value"),
            }),
        }
    }

    /// Fails if any key is not in `allowed`.
    ///
    /// # Errors
    /// [`SpecError::BadParam`] naming the first unknown key and the allowed ones.
    pub fn check_keys(&self, player: &str, allowed: &[&str]) -> Result<(), SpecError> {
        for (k, _) in &self.0 {
            if !allowed.contains(&k.as_str()) {
                let reason = if allowed.is_empty() {
                    format!("takes no parameters, got {k:?}")
                } else {
                    format!(
                        "unknown parameter {k:?}, expected one of {}",
                        allowed.join(", ")
                    )
                };
                return Err(SpecError::BadParam {
                    player: player.to_owned(),
                    reason,
                });
            }
        }
        Ok(())
    }
}

/// A parsed player spec: the player's identity in the store and in every rating table.
///
/// ```
/// use eloworld_players_core::PlayerSpec;
/// let s: PlayerSpec = "stockfish1m_r32768".parse()?;
/// assert_eq!(s.name, "stockfish1m");
/// assert_eq!(s.dilution, Some(32768));
/// let s: PlayerSpec = "mcts_uct:playouts=20000,c=1.4".parse()?;
/// assert_eq!(s.to_string(), "mcts_uct:c=1.4,playouts=20000");
/// # Ok::<_, eloworld_players_core::SpecError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerSpec {
    /// The registry name (`random_move`, `stockfish1m`, `mcts_uct`).
    pub name: String,
    /// The parameters after `:`.
    pub params: Params,
    /// The chance, out of 65536, of playing a random move instead (`_rN`).
    pub dilution: Option<u16>,
}

impl PlayerSpec {
    /// Splits a comma-separated list of specs (`--players a,b,stockfish:nodes=1000,hash=16`):
    /// a piece with `=` and no `:` is a further parameter of the spec before it, since a
    /// player's name never holds `=`. So `stockfish:nodes=1000,hash=16` stays one player.
    ///
    /// # Examples
    /// ```
    /// use eloworld_players_core::PlayerSpec;
    /// assert_eq!(
    ///     PlayerSpec::split_list("random_move,stockfish:nodes=1000,hash=16,first_move"),
    ///     ["random_move", "stockfish:nodes=1000,hash=16", "first_move"]
    /// );
    /// ```
    #[must_use]
    pub fn split_list(text: &str) -> Vec<String> {
        let mut specs: Vec<String> = Vec::new();
        for piece in text.split(',') {
            let continues = piece.contains('=') && !piece.contains(':');
            match specs.last_mut() {
                Some(last) if continues && last.contains(':') => {
                    last.push(',');
                    last.push_str(piece);
                }
                _ => specs.push(piece.to_owned()),
            }
        }
        specs.retain(|s| !s.is_empty());
        specs
    }

    /// Creates a spec with a name only.
    #[must_use]
    pub fn named(name: &str) -> PlayerSpec {
        PlayerSpec {
            name: name.to_owned(),
            params: Params::default(),
            dilution: None,
        }
    }
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<PlayerSpec, SpecError> {
        let bad = |reason: &str| SpecError::Syntax {
            spec: text.to_owned(),
            reason: reason.to_owned(),
        };
        let s = text.trim();
        if s.is_empty() {
            return Err(bad("empty player name"));
        }
        let (rest, dilution) = match s.rfind("_r") {
            Some(i)
                if i > 0 && s[i + 2..].bytes().all(|b| b.is_ascii_digit()) && s.len() > i + 2 =>
            {
                let n: u32 = s[i + 2..]
                    .parse()
                    .map_err(|_| bad("dilution is a number"))?;
                let n = u16::try_from(n).map_err(|_| bad("dilution _rN takes N in 0..=65535"))?;
                (&s[..i], Some(n))
            }
            _ => (s, None),
        };
        let (name, params) = match rest.split_once(':') {
            None => (rest, Params::default()),
            Some((name, list)) => {
                let mut pairs = Vec::new();
                for item in list.split(',').filter(|p| !p.trim().is_empty()) {
                    let (k, v) = item
                        .split_once('=')
                        .ok_or_else(|| bad("parameters are key=value pairs separated by commas"))?;
                    pairs.push((k.trim().to_owned(), v.trim().to_owned()));
                }
                (name, Params::new(pairs))
            }
        };
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
        {
            return Err(bad("names use letters, digits, '_', '-' and '.'"));
        }
        Ok(PlayerSpec {
            name: name.to_owned(),
            params,
            dilution,
        })
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.params.is_empty() {
            f.write_str(":")?;
            for (i, (k, v)) in self.params.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{k}={v}")?;
            }
        }
        if let Some(r) = self.dilution {
            write!(f, "_r{r}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_round_trip() {
        for s in ["random_move", "min_oppt_moves", "stockfish1m", "evol"] {
            let spec: PlayerSpec = s.parse().expect(s);
            assert_eq!(spec.to_string(), s);
            assert_eq!(spec.dilution, None);
        }
    }

    #[test]
    fn dilution_and_params_together() {
        let s: PlayerSpec = "mcts_uct:playouts=100_r512".parse().expect("spec");
        assert_eq!(s.name, "mcts_uct");
        assert_eq!(s.params.get("playouts"), Some("100"));
        assert_eq!(s.dilution, Some(512));
        assert_eq!(s.to_string(), "mcts_uct:playouts=100_r512");
    }

    #[test]
    fn bad_specs_are_rejected() {
        assert!("".parse::<PlayerSpec>().is_err());
        assert!("x_r70000".parse::<PlayerSpec>().is_err());
        assert!("x:novalue".parse::<PlayerSpec>().is_err());
        assert!("bad name".parse::<PlayerSpec>().is_err());
    }
}
