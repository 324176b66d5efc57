//! The README is a landing page that links the documents under `docs/`: every relative link
//! in `README.md` and `docs/*.md` (pictures included) must name a file that exists, and a link
//! to `#anchor` a heading of its file; every document must be linked from the README.

mod common;

use common::{files_in, repo as root};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The Markdown files checked: the README and every `docs/*.md`.
fn documents() -> Vec<PathBuf> {
    let mut all = vec![root().join("README.md")];
    all.extend(files_in(&root().join("docs"), "md"));
    all
}

/// The lines outside fenced code blocks, with their 1-based numbers.
fn outside_fences(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// The text outside fenced code blocks and inline code, line by line with line numbers.
fn prose(text: &str) -> Vec<(usize, String)> {
    outside_fences(text)
        .into_iter()
        .map(|(i, line)| {
            // Drop `inline code` spans.
            let kept: String = line
                .split('`')
                .enumerate()
                .filter(|(k, _)| k % 2 == 0)
                .map(|(_, part)| part)
                .collect();
            (i, kept)
        })
        .collect()
}

/// The targets of `[text](target)` and `![alt](target)` links, and of `[label]: target`.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = after[..end].split_whitespace().next().unwrap_or("");
        out.push(target.to_owned());
        rest = &after[end..];
    }
    let trimmed = line.trim_start();
    if trimmed.starts_with('[') {
        if let Some((_, target)) = trimmed.split_once("]: ") {
            out.push(target.split_whitespace().next().unwrap_or("").to_owned());
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, punctuation other than `-` and `_` dropped,
/// spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(file: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(file).expect("read");
    outside_fences(&text)
        .into_iter()
        .filter_map(|(_, l)| {
            let hashes = l.chars().take_while(|&c| c == '#').count();
            (hashes > 0 && l[hashes..].starts_with(' ')).then(|| slug(&l[hashes..]))
        })
        .collect()
}

/// Every relative link: `(file, line, target)`.
fn relative_links() -> Vec<(PathBuf, usize, String)> {
    let mut out = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("read");
        for (line, l) in prose(&text) {
            for target in link_targets(&l) {
                let external = target.contains("://") || target.starts_with("mailto:");
                if !external && !target.is_empty() {
                    out.push((doc.clone(), line, target));
                }
            }
        }
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let links = relative_links();
    assert!(links.len() > 20, "too few links found: {links:?}");
    let mut broken = Vec::new();
    for (doc, line, target) in &links {
        let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
        let dir = doc.parent().expect("a directory");
        let file = if path.is_empty() {
            doc.clone()
        } else {
            dir.join(path)
        };
        let name = doc
            .strip_prefix(root())
            .unwrap_or(doc)
            .display()
            .to_string();
        if !file.exists() {
            broken.push(format!("{name}:{line}: {target} (no such file)"));
        } else if !anchor.is_empty() && !anchors(&file).contains(anchor) {
            broken.push(format!("{name}:{line}: {target} (no such heading)"));
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_document_is_linked_from_the_readme() {
    let readme = root().join("README.md");
    let linked: BTreeSet<String> = relative_links()
        .into_iter()
        .filter(|(doc, _, _)| *doc == readme)
        .map(|(_, _, t)| t.split('#').next().unwrap_or("").to_owned())
        .collect();
    let unlinked: Vec<String> = documents()
        .iter()
        .skip(1)
        .map(|d| format!("docs/{}", d.file_name().expect("name").to_string_lossy()))
        .filter(|d| !linked.contains(d))
        .collect();
    assert!(
        unlinked.is_empty(),
        "not linked from README.md: {unlinked:?}"
    );
}

#[test]
fn the_link_checker_finds_what_is_broken() {
    // The parts the tests above rely on, on a known text.
    let text = "# The runner's own cost\n\nSee [a](docs/x.md#the-runners-own-cost) and ![p](y.png \"t\").\n```sh\n[not](a link)\n```\nNor `[this](one)`.\n[ref]: z.md\n";
    let found: Vec<String> = prose(text)
        .iter()
        .flat_map(|(_, l)| link_targets(l))
        .collect();
    assert_eq!(found, ["docs/x.md#the-runners-own-cost", "y.png", "z.md"]);
    assert_eq!(slug("The runner's own cost"), "the-runners-own-cost");
    assert_eq!(
        slug("Engine testing: `eloworld match`"),
        "engine-testing-eloworld-match"
    );
}
