//! The sources are cited by name — the Squava article (bediger4000), Rollason's computer-Go
//! ratings, Murphy's Elo World, David–Koppel–Netanyahu's papers — never as "seed 000" or "the
//! seed" (a reader has no seeds): in the README and `docs/`, the tournament files, and the comments and
//! strings (hence `--help`) of every crate.

use std::path::{Path, PathBuf};

/// Phrases that stand for a source document rather than a random seed.
const FORBIDDEN: &[&str] = &[
    "seed 00",
    "seed00",
    "seed 000/",
    "seeds/",
    "the seed took",
    "the seed ran",
    "the seed's",
    "seed settings",
    "as in the seed",
    "to the seed",
    "in the seed)",
    "as the seed ",
    "of the seed:",
    "the seed names",
    "the seed fixes",
    "the seed says",
];

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') {
                files(&p, ext, out);
            }
        } else if name.ends_with(ext) {
            out.push(p);
        }
    }
}

#[test]
fn no_user_facing_text_cites_a_seed_number() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut checked = vec![root.join("README.md")];
    files(&root.join("docs"), ".md", &mut checked);
    files(&root.join("tournaments"), ".toml", &mut checked);
    let mut sources = Vec::new();
    files(&root.join("crates"), ".rs", &mut sources);
    assert!(
        sources.len() > 50,
        "the crates were not found from {}",
        root.display()
    );
    let mut found = Vec::new();
    for path in checked.iter().chain(&sources) {
        let text = std::fs::read_to_string(path).unwrap();
        let is_rust = path.extension().is_some_and(|e| e == "rs");
        for (n, line) in text.lines().enumerate() {
            // In Rust, only comments and strings reach a reader (test names may keep old labels);
            // this file's own list of phrases is not a citation.
            if is_rust
                && (!(line.contains("//") || line.contains('"'))
                    || path.ends_with("sources_by_name.rs"))
            {
                continue;
            }
            let lower = line.to_lowercase();
            if let Some(p) = FORBIDDEN.iter().find(|p| lower.contains(*p)) {
                found.push(format!("{}:{}: {p:?} in {line:?}", path.display(), n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "sources cited as seeds:\n{}",
        found.join("\n")
    );
}
