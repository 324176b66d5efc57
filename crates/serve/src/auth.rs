//! The access token: every request must carry it when one is set, as `Authorization: Bearer
//! TOKEN` or as the cookie a first visit with `?token=TOKEN` sets; compared in constant time.

use crate::ServeError;
use subtle::ConstantTimeEq;

/// The cookie that carries the token after a first visit with `?token=`.
pub(crate) const COOKIE: &str = "eloworld_token";

/// A secret that grants read access to the dashboard.
#[derive(Clone)]
pub struct Token(String);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(…)")
    }
}

impl Token {
    /// The shortest token accepted: a guessable token is no protection.
    pub const MIN_LEN: usize = 16;

    /// Makes a token from text (surrounding whitespace ignored).
    ///
    /// # Errors
    /// A message when the token is shorter than [`Token::MIN_LEN`] or holds characters that
    /// cannot travel in a header or a cookie (spaces, controls, `;`, `,`, quotes).
    pub fn new(text: &str) -> Result<Token, String> {
        let t = text.trim();
        if t.len() < Token::MIN_LEN {
            return Err(format!(
                "the token has {} characters; at least {} are needed (e.g. `openssl rand -hex 24`)",
                t.len(),
                Token::MIN_LEN
            ));
        }
        if let Some(c) = t
            .chars()
            .find(|c| !c.is_ascii_graphic() || matches!(c, ';' | ',' | '"' | '\\'))
        {
            return Err(format!(
                "the token holds {c:?}; use letters, digits and -._~+/= only"
            ));
        }
        Ok(Token(t.to_owned()))
    }

    /// Reads a token from the first line of a file.
    ///
    /// # Errors
    /// [`ServeError::Token`] naming the file.
    pub fn from_file(path: &std::path::Path) -> Result<Token, ServeError> {
        let bad = |why: String| ServeError::Token {
            path: path.display().to_string(),
            why,
        };
        let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
        Token::new(text.lines().next().unwrap_or("")).map_err(bad)
    }

    /// Returns whether `given` is the token, in time independent of where they differ.
    pub(crate) fn matches(&self, given: &str) -> bool {
        bool::from(self.0.as_bytes().ct_eq(given.as_bytes()))
    }

    /// Returns the token's text (for the cookie the server sets).
    pub(crate) fn text(&self) -> &str {
        &self.0
    }
}

/// Returns the token a request carries in its `Authorization: Bearer` header.
pub(crate) fn bearer(value: &str) -> Option<&str> {
    let (scheme, rest) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
}

/// Returns the value of cookie `name` in a `Cookie` header.
pub(crate) fn cookie<'a>(header: &'a str, name: &str) -> Option<&'a str> {
    header.split(';').find_map(|kv| {
        let (k, v) = kv.trim().split_once('=')?;
        (k == name).then_some(v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_checked_and_found() {
        assert!(Token::new("short").is_err());
        assert!(Token::new("with space in the middle").is_err());
        assert!(Token::new("semi;colon-0123456789").is_err());
        let t = Token::new("  0123456789abcdef\n").expect("valid");
        assert!(t.matches("0123456789abcdef"));
        assert!(!t.matches("0123456789abcdeF"));
        assert!(!t.matches("0123456789abcde"));
        assert!(!t.matches(""));
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer  abc "), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(cookie("a=1; eloworld_token=xyz; b=2", COOKIE), Some("xyz"));
        assert_eq!(cookie("a=1", COOKIE), None);
        assert!(!format!("{t:?}").contains("0123"));
    }
}
