//! TLS for the PostgreSQL store as libpq means its settings (PostgreSQL's documentation,
//! "libpq: Connection Strings" and "SSL Support"): `sslmode` `disable`, `allow`, `prefer` (the
//! default), `require`, `verify-ca` and `verify-full`, and `sslrootcert`, from the connection
//! string or else `PGSSLMODE` and `PGSSLROOTCERT`.
//!
//! Only `verify-ca` and `verify-full` check the server's certificate (`require` too when a
//! root certificate is named, as libpq does for compatibility); `prefer` and `require`
//! encrypt without checking it, so that a fresh Debian server with its self-signed "snakeoil"
//! certificate is reached as `psql` reaches it. The PostgreSQL client library understands
//! only `disable`, `prefer` and `require` and no `sslrootcert`: both are taken out of the
//! string here and applied to the TLS connector.

use openssl::ssl::{SslConnector, SslMethod, SslVerifyMode};
use postgres_openssl::MakeTlsConnector;
use std::path::PathBuf;

/// libpq's `sslmode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SslMode {
    /// No TLS.
    Disable,
    /// Without TLS first, with TLS (unchecked) if the server insists.
    Allow,
    /// With TLS (unchecked) if the server offers it, else without.
    Prefer,
    /// Only with TLS; the certificate is checked only when a root certificate is named.
    Require,
    /// Only with TLS, the certificate signed by a trusted root.
    VerifyCa,
    /// As `VerifyCa`, and the certificate names the host connected to.
    VerifyFull,
}

impl SslMode {
    fn parse(value: &str, whence: &str) -> Result<SslMode, String> {
        Ok(match value {
            "disable" => SslMode::Disable,
            "allow" => SslMode::Allow,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            other => {
                return Err(format!(
                    "{whence} {other:?}: expected disable, allow, prefer, require, verify-ca \
                     or verify-full"
                ))
            }
        })
    }

    /// The mode the client library is given (`allow` first tries without TLS).
    pub(super) fn wire(self) -> postgres::config::SslMode {
        use postgres::config::SslMode as Wire;
        match self {
            SslMode::Disable | SslMode::Allow => Wire::Disable,
            SslMode::Prefer => Wire::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => Wire::Require,
        }
    }
}

/// The TLS settings of a connection string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TlsSettings {
    pub(super) mode: SslMode,
    /// `sslrootcert`: a file of trusted roots, or `system` for the system's.
    root_cert: Option<String>,
}

impl TlsSettings {
    /// Takes `sslmode` and `sslrootcert` out of `location` (a URL's query or libpq's
    /// `key=value` words), falling back on `PGSSLMODE` and `PGSSLROOTCERT`; returns the rest
    /// of the string and the settings.
    ///
    /// # Errors
    /// An `sslmode` libpq does not know, named with where it was given.
    pub(super) fn take(location: &str) -> Result<(String, TlsSettings), String> {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let (rest, mode, root_cert) =
            if location.starts_with("postgres://") || location.starts_with("postgresql://") {
                take_from_url(location)
            } else {
                take_from_words(location)
            };
        let mode = match (mode, env("PGSSLMODE")) {
            (Some(m), _) => SslMode::parse(&m, "sslmode")?,
            (None, Some(m)) => SslMode::parse(&m, "PGSSLMODE")?,
            (None, None) => SslMode::Prefer,
        };
        let root_cert = root_cert.or_else(|| env("PGSSLROOTCERT"));
        Ok((rest, TlsSettings { mode, root_cert }))
    }

    /// Whether the server's certificate is checked.
    fn verifies(&self) -> bool {
        match self.mode {
            SslMode::VerifyCa | SslMode::VerifyFull => true,
            SslMode::Require => self.root_cert.is_some(),
            SslMode::Disable | SslMode::Allow | SslMode::Prefer => false,
        }
    }

    /// Builds the TLS connector these settings ask for.
    ///
    /// # Errors
    /// A root certificate file that cannot be read, or none to verify against (libpq's
    /// default `~/.postgresql/root.crt` missing): named, with the ways out libpq gives.
    pub(super) fn connector(&self) -> Result<MakeTlsConnector, String> {
        let mut builder = SslConnector::builder(SslMethod::tls()).map_err(|e| e.to_string())?;
        if !self.verifies() {
            builder.set_verify(SslVerifyMode::NONE);
            return Ok(MakeTlsConnector::new(builder.build()));
        }
        let default_root = std::env::var_os("HOME")
            .map(|h| PathBuf::from(h).join(".postgresql/root.crt"))
            .filter(|p| p.exists());
        match (self.root_cert.as_deref(), default_root) {
            (Some("system"), _) => builder
                .set_default_verify_paths()
                .map_err(|e| format!("the system's root certificates: {e}"))?,
            (Some(file), _) => builder
                .set_ca_file(file)
                .map_err(|e| format!("sslrootcert {file}: {e}"))?,
            (None, Some(file)) => builder
                .set_ca_file(&file)
                .map_err(|e| format!("{}: {e}", file.display()))?,
            (None, None) => {
                return Err(
                    "sslmode verify-ca and verify-full check the server's certificate against \
                     a root certificate, and ~/.postgresql/root.crt does not exist: name one \
                     (sslrootcert=FILE or PGSSLROOTCERT), use the system's (sslrootcert=system), \
                     or choose sslmode=require to encrypt without checking"
                        .to_owned(),
                )
            }
        }
        builder.set_verify(SslVerifyMode::PEER);
        let mut connector = MakeTlsConnector::new(builder.build());
        if self.mode != SslMode::VerifyFull {
            // verify-ca: the chain is checked, not the name.
            connector.set_callback(|config, _| {
                config.set_verify_hostname(false);
                Ok(())
            });
        }
        Ok(connector)
    }
}

/// Percent-decodes a URL query value.
fn percent_decoded(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                let v = hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0);
                out.push(u8::try_from(v).unwrap_or(b'?'));
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

type Taken = (String, Option<String>, Option<String>);

/// `postgres://…?sslmode=…&sslrootcert=…&…`: the URL without those two, and their values.
fn take_from_url(location: &str) -> Taken {
    let Some((base, query)) = location.split_once('?') else {
        return (location.to_owned(), None, None);
    };
    let (mut mode, mut root) = (None, None);
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            match k {
                "sslmode" => mode = Some(percent_decoded(v)),
                "sslrootcert" => root = Some(percent_decoded(v)),
                _ => return true,
            }
            false
        })
        .collect();
    let rest = if kept.is_empty() {
        base.to_owned()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    (rest, mode, root)
}

/// libpq's `key = value` words (values may be quoted with `'`, `\` escaping): the words
/// without `sslmode` and `sslrootcert`, and their values.
fn take_from_words(location: &str) -> Taken {
    let chars: Vec<char> = location.chars().collect();
    let (mut mode, mut root) = (None, None);
    let mut kept: Vec<String> = Vec::new();
    let mut i = 0;
    let skip_space = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip_space(&mut i);
        if i >= chars.len() {
            break;
        }
        let start = i;
        while i < chars.len() && chars[i] != '=' && !chars[i].is_whitespace() {
            i += 1;
        }
        let key: String = chars[start..i].iter().collect();
        skip_space(&mut i);
        if i < chars.len() && chars[i] == '=' {
            i += 1;
        }
        skip_space(&mut i);
        let mut value = String::new();
        if i < chars.len() && chars[i] == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                if chars[i] == '\\' && i + 1 < chars.len() {
                    i += 1;
                }
                value.push(chars[i]);
                i += 1;
            }
            i += 1;
        } else {
            while i < chars.len() && !chars[i].is_whitespace() {
                if chars[i] == '\\' && i + 1 < chars.len() {
                    i += 1;
                }
                value.push(chars[i]);
                i += 1;
            }
        }
        let end = i.min(chars.len());
        match key.as_str() {
            "sslmode" => mode = Some(value),
            "sslrootcert" => root = Some(value),
            _ => kept.push(chars[start..end].iter().collect()),
        }
    }
    (kept.join(" "), mode, root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ssl_settings_are_taken_out_of_a_url() {
        let (rest, mode, root) = take_from_url(
            "postgres://u@h/db?connect_timeout=5&sslmode=verify-full&sslrootcert=%2Ftmp%2Fca.crt",
        );
        assert_eq!(rest, "postgres://u@h/db?connect_timeout=5");
        assert_eq!(mode.as_deref(), Some("verify-full"));
        assert_eq!(root.as_deref(), Some("/tmp/ca.crt"));
        let (rest, mode, _) = take_from_url("postgres://u@h/db?sslmode=require");
        assert_eq!(
            (rest.as_str(), mode.as_deref()),
            ("postgres://u@h/db", Some("require"))
        );
    }

    #[test]
    fn ssl_settings_are_taken_out_of_key_value_words() {
        let (rest, mode, root) =
            take_from_words("host=h sslmode = 'verify-ca' dbname=elo sslrootcert='/a b/ca.crt'");
        assert_eq!(rest, "host=h dbname=elo");
        assert_eq!(mode.as_deref(), Some("verify-ca"));
        assert_eq!(root.as_deref(), Some("/a b/ca.crt"));
    }

    #[test]
    fn modes_are_libpqs() {
        assert_eq!(SslMode::parse("allow", "sslmode"), Ok(SslMode::Allow));
        let err = SslMode::parse("verify", "PGSSLMODE").expect_err("unknown");
        assert!(
            err.starts_with("PGSSLMODE \"verify\": expected disable"),
            "{err}"
        );
        let checked = |mode, root: Option<&str>| {
            TlsSettings {
                mode,
                root_cert: root.map(str::to_owned),
            }
            .verifies()
        };
        assert!(!checked(SslMode::Prefer, Some("ca.crt")));
        assert!(!checked(SslMode::Require, None));
        assert!(checked(SslMode::Require, Some("ca.crt")));
        assert!(checked(SslMode::VerifyCa, None));
    }
}
