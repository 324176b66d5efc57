//! Store locations: an SQLite path or a PostgreSQL connection string, printable safely.

/// Hides the password of a connection string (URL or `key=value` form) for printing.
#[must_use]
pub fn redact(location: &str) -> String {
    if let Some((scheme, rest)) = location.split_once("://") {
        let (authority, tail) = rest
            .split_once('@')
            .map_or((None, rest), |(a, t)| (Some(a), t));
        let mut out = format!("{scheme}://");
        if let Some(a) = authority {
            match a.split_once(':') {
                Some((user, _)) => out.push_str(&format!("{user}:***@")),
                None => out.push_str(&format!("{a}@")),
            }
        }
        let tail = redact_query_password(tail);
        out.push_str(&tail);
        out
    } else {
        location
            .split_whitespace()
            .map(|kv| {
                if kv.starts_with("password=") {
                    "password=***".to_owned()
                } else {
                    kv.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn redact_query_password(tail: &str) -> String {
    match tail.split_once('?') {
        None => tail.to_owned(),
        Some((path, query)) => {
            let q: Vec<String> = query
                .split('&')
                .map(|kv| {
                    if kv.starts_with("password=") {
                        "password=***".to_owned()
                    } else {
                        kv.to_owned()
                    }
                })
                .collect();
            format!("{path}?{}", q.join("&"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn passwords_never_show() {
        assert_eq!(
            redact("postgres://ann:s3cret@db.example/elo"),
            "postgres://ann:***@db.example/elo"
        );
        assert_eq!(
            redact("postgres://ann@db/elo?sslmode=require&password=x"),
            "postgres://ann@db/elo?sslmode=require&password=***"
        );
        assert_eq!(
            redact("host=db user=ann password=s3cret dbname=elo"),
            "host=db user=ann password=*** dbname=elo"
        );
        assert_eq!(redact("postgres://db/elo"), "postgres://db/elo");
    }
}
