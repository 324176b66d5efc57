//! `eloworld ladder compare`: a ladder's ratings next to a published table (Murphy's Elo World,
//! SIGBOVIK 2019, section 4), with Spearman's rank correlation over the players in both.

use anyhow::{bail, Context};
use eloworld_ratings::ladder::Ladder;
use std::path::{Path, PathBuf};

/// Compare a ladder with a published rating table.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The ladder (a file or a shipped name).
    pub ladder: String,
    /// The published table: CSV `player,elo[,ours]` (`ours` names the player in our field
    /// when it differs; empty: no counterpart here). Default: the Elo World paper's table
    /// (section 4), shipped as `data/papers/elo-world-table.csv`.
    #[arg(long, value_name = "FILE")]
    pub reference: Option<PathBuf>,
    /// Show each rating as a difference from this player's (both scales have their own zero).
    #[arg(long, default_value = "random_move")]
    pub anchor: String,
    /// Output: text, or csv alone on stdout.
    #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
    pub format: CompareFormat,
}

/// The output of `ladder compare`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareFormat {
    Text,
    Csv,
}

/// Elo World's table (Murphy, SIGBOVIK 2019, section 4), with our field's names.
const PAPER_TABLE: &str = include_str!("../../../../data/papers/elo-world-table.csv");
const PAPER_TABLE_NAME: &str = "Elo World's table (data/papers/elo-world-table.csv)";

/// One row of a published table.
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    /// The name in the publication.
    pub name: String,
    /// Its published rating.
    pub elo: f64,
    /// The name of the same player in our field (`None`: no counterpart).
    pub ours: Option<String>,
}

/// Reads a published table: `player,elo[,ours]` lines, `#` comments, an optional header.
pub fn read_published(text: &str, origin: &Path) -> anyhow::Result<Vec<Published>> {
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if rows.is_empty() && fields.first() == Some(&"player") {
            continue;
        }
        let at = || format!("{}:{}", origin.display(), n + 1);
        if !(2..=3).contains(&fields.len()) || fields[0].is_empty() {
            bail!("{}: expected player,elo[,ours], found {line:?}", at());
        }
        let elo: f64 = fields[1]
            .parse()
            .ok()
            .filter(|e: &f64| e.is_finite())
            .with_context(|| format!("{}: {:?} is not a rating", at(), fields[1]))?;
        let ours = match fields.get(2) {
            None => Some(fields[0].to_owned()),
            Some(&"") => None,
            Some(o) => Some((*o).to_owned()),
        };
        rows.push(Published {
            name: fields[0].to_owned(),
            elo,
            ours,
        });
    }
    if rows.is_empty() {
        bail!("{}: no ratings", origin.display());
    }
    Ok(rows)
}

/// Ranks from 1 (highest value) with ties given their average rank, as Spearman's ρ needs.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    let mut rank = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let average = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            rank[k] = average;
        }
        i = j + 1;
    }
    rank
}

/// Spearman's rank correlation: Pearson's correlation of the (tie-averaged) ranks.
/// `None` with fewer than two pairs or when either side's ranks are all equal.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.len() < 2 {
        return None;
    }
    let (rx, ry) = (ranks(x), ranks(y));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// A player rated both here and in the publication.
struct Pair<'a> {
    published: &'a Published,
    ours: &'a str,
    rating: f64,
}

pub fn run(args: &CompareArgs) -> anyhow::Result<()> {
    let ladder: Ladder = eloworld_app::ladders::load(&args.ladder)?;
    let (text, origin) = match &args.reference {
        Some(path) => (
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?,
            path.clone(),
        ),
        None => (PAPER_TABLE.to_owned(), PathBuf::from(PAPER_TABLE_NAME)),
    };
    let table = read_published(&text, &origin)?;
    let mut pairs = Vec::new();
    let mut missing = Vec::new();
    for p in &table {
        let rung = p
            .ours
            .as_deref()
            .and_then(|o| counterpart(&ladder.rungs, o));
        match rung {
            Some(r) => pairs.push(Pair {
                published: p,
                ours: &r.player,
                rating: r.rating,
            }),
            None => missing.push(p.name.as_str()),
        }
    }
    if pairs.len() < 2 {
        bail!(
            "ladder {} and {} share fewer than two players",
            ladder.name,
            origin.display()
        );
    }
    let ours: Vec<f64> = pairs.iter().map(|p| p.rating).collect();
    let theirs: Vec<f64> = pairs.iter().map(|p| p.published.elo).collect();
    let rho = spearman(&ours, &theirs);
    let (our_rank, their_rank) = (ranks(&ours), ranks(&theirs));
    let anchor = pairs.iter().find(|p| p.ours == args.anchor);
    let offset =
        |p: &Pair| anchor.map(|a| (p.rating - a.rating, p.published.elo - a.published.elo));
    let rho_text = rho.map_or("undefined".to_owned(), |r| format!("{r:.3}"));
    match args.format {
        CompareFormat::Csv => {
            println!("player,published_as,ours,published,rank_ours,rank_published,ours_minus_anchor,published_minus_anchor");
            for (i, p) in pairs.iter().enumerate() {
                let (a, b) = offset(p).map_or((String::new(), String::new()), |(a, b)| {
                    (format!("{a:.1}"), format!("{b:.1}"))
                });
                println!(
                    "{},{},{:.1},{:.2},{},{},{a},{b}",
                    p.ours, p.published.name, p.rating, p.published.elo, our_rank[i], their_rank[i]
                );
            }
            eprintln!(
                "Spearman rank correlation over {} players: {rho_text}",
                pairs.len()
            );
        }
        CompareFormat::Text => {
            println!(
                "ladder {} ({} rungs) next to {} ({} players; {} in both)",
                ladder.name,
                ladder.rungs.len(),
                origin.display(),
                table.len(),
                pairs.len()
            );
            let width = pairs
                .iter()
                .map(|p| p.ours.chars().count())
                .max()
                .unwrap_or(6)
                .max(6);
            let anchored = anchor.is_some();
            print!(
                "{:<width$}  {:>8}  {:>9}  {:>4}  {:>4}",
                "player", "ours", "published", "rank", "pub."
            );
            if anchored {
                print!(
                    "  {:>9}  {:>9}",
                    format!("ours−{}", short(&args.anchor)),
                    format!("pub.−{}", short(&args.anchor))
                );
            }
            println!();
            for (i, p) in pairs.iter().enumerate() {
                print!(
                    "{:<width$}  {:>8.1}  {:>9.1}  {:>4}  {:>4}",
                    p.ours, p.rating, p.published.elo, our_rank[i], their_rank[i]
                );
                if let Some((a, b)) = offset(p) {
                    print!("  {a:>+9.0}  {b:>+9.0}");
                }
                println!();
            }
            println!(
                "Spearman rank correlation over the {} players in both: {rho_text} (ranks from the top, ties averaged)",
                pairs.len()
            );
            if !missing.is_empty() {
                println!("not in this ladder: {}", missing.join(", "));
            }
        }
    }
    Ok(())
}

/// The anchor's name shortened for a column header.
/// The rung that stands for the paper's player `name`: the rung of that exact spec, else the one
/// rung whose spec is that player with parameters (`blind_yolo:nodes=10000` for `blind_yolo`,
/// scaled as the ladder's note says); none when several parametrised rungs would fit.
fn counterpart<'a>(
    rungs: &'a [eloworld_ratings::ladder::Rung],
    name: &str,
) -> Option<&'a eloworld_ratings::ladder::Rung> {
    if let Some(r) = rungs.iter().find(|r| r.player == name) {
        return Some(r);
    }
    let mut same_player = rungs.iter().filter(|r| {
        r.player
            .split_once(':')
            .is_some_and(|(base, _)| base == name)
    });
    match (same_player.next(), same_player.next()) {
        (Some(r), None) => Some(r),
        _ => None,
    }
}

fn short(name: &str) -> String {
    name.chars().take(6).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_of_hand_ranked_lists() {
        // Ranks x: 1 2 3 4 5, y: 2 1 4 3 5 → d² = 1+1+1+1+0 = 4, ρ = 1 − 6·4/(5·24) = 0.8.
        let x = [50.0, 40.0, 30.0, 20.0, 10.0];
        let y = [4.0, 5.0, 2.0, 3.0, 1.0];
        assert!((spearman(&x, &y).unwrap() - 0.8).abs() < 1e-12);
        // Reversed order: −1; a constant side: undefined.
        let rev = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert!((spearman(&x, &rev).unwrap() + 1.0).abs() < 1e-12);
        assert_eq!(spearman(&x, &[7.0; 5]), None);
    }

    #[test]
    fn ties_share_their_average_rank() {
        assert_eq!(ranks(&[3.0, 1.0, 3.0, 2.0]), vec![1.5, 4.0, 1.5, 3.0]);
        // x ranks 1.5 1.5 3 4 against y 1 2 3 4: Pearson of the ranks = 0.9486833 (by hand:
        // cov 4.5/4, sd_x √(4.5/4), sd_y √(5/4) → 4.5/√(4.5·5)).
        let r = spearman(&[9.0, 9.0, 5.0, 1.0], &[4.0, 3.0, 2.0, 1.0]).unwrap();
        assert!((r - 4.5 / (4.5f64 * 5.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn the_published_table_reads_names_counterparts_and_refuses_bad_lines() {
        let t = "player,elo,ours\n# a comment\nrandom_move,439.21\nсссp,553.54,cccp\ntopple10k,1771.65,\n";
        let rows = read_published(t, Path::new("t.csv")).unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0].ours.as_deref(), Some("random_move"));
        assert_eq!(rows[1].ours.as_deref(), Some("cccp"));
        assert_eq!(rows[2].ours, None);
        let err = read_published("x,abc\n", Path::new("t.csv")).unwrap_err();
        assert_eq!(err.to_string(), "t.csv:1: \"abc\" is not a rating");
        assert!(read_published("# nothing\n", Path::new("t.csv")).is_err());
    }
}
