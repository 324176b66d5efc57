//! A ladder's ratings next to a published table (Murphy's Elo World, SIGBOVIK 2019,
//! section 4): the players in both, their ranks on each side, and Spearman's rank
//! correlation over them (`eloworld ladder compare`).

use crate::error::{AppResult, Context};
use eloworld_ladder::ladder::{Ladder, Rung};
use std::path::{Path, PathBuf};

/// Elo World's table (Murphy, SIGBOVIK 2019, section 4), with our field's names.
pub const PAPER_TABLE: &str = include_str!("../../../data/papers/elo-world-table.csv");
/// Where [`PAPER_TABLE`] comes from, as shown.
pub const PAPER_TABLE_NAME: &str = "Elo World's table (data/papers/elo-world-table.csv)";

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

/// Reads the published table a comparison is made with: the file given, else Elo World's
/// ([`PAPER_TABLE`]); returns it with the name it is shown under.
///
/// # Errors
/// A file that cannot be read; a table [`read_published`] refuses.
pub fn published_table(file: Option<&Path>) -> AppResult<(Vec<Published>, PathBuf)> {
    let (text, origin) = match file {
        Some(path) => (
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?,
            path.to_owned(),
        ),
        None => (PAPER_TABLE.to_owned(), PathBuf::from(PAPER_TABLE_NAME)),
    };
    Ok((read_published(&text, &origin)?, origin))
}

/// Reads a published table: `player,elo[,ours]` lines, `#` comments, an optional header.
///
/// # Errors
/// A line that is not `player,elo[,ours]` with a finite rating, naming the file and line;
/// a table without ratings.
pub fn read_published(text: &str, origin: &Path) -> AppResult<Vec<Published>> {
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
            crate::invalid!("{}: expected player,elo[,ours], found {line:?}", at());
        }
        let Some(elo) = fields[1]
            .parse::<f64>()
            .ok()
            .filter(|e: &f64| e.is_finite())
        else {
            crate::invalid!("{}: {:?} is not a rating", at(), fields[1]);
        };
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
        crate::invalid!("{}: no ratings", origin.display());
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

/// A player rated both on the ladder and in the publication.
#[derive(Debug, Clone, PartialEq)]
pub struct ComparedPlayer {
    /// The name in the publication.
    pub published_as: String,
    /// The rung's player.
    pub ours: String,
    /// The rung's rating.
    pub rating: f64,
    /// The published rating.
    pub published: f64,
    /// The rank on the ladder among the players in both (1: highest; ties averaged).
    pub rank_ours: f64,
    /// The rank in the publication among the players in both.
    pub rank_published: f64,
}

/// A ladder next to a published table.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The players in both, in the table's order.
    pub players: Vec<ComparedPlayer>,
    /// The table's players without a rung here.
    pub missing: Vec<String>,
    /// Spearman's ρ over the players in both (`None` when undefined).
    pub rho: Option<f64>,
    /// The index (in `players`) of the anchor, if it is in both.
    pub anchor: Option<usize>,
}

impl Comparison {
    /// Returns player `i`'s rating minus the anchor's, on the ladder and in the publication
    /// (both scales have their own zero); `None` without an anchor.
    #[must_use]
    pub fn from_anchor(&self, i: usize) -> Option<(f64, f64)> {
        let a = &self.players[self.anchor?];
        let p = &self.players[i];
        Some((p.rating - a.rating, p.published - a.published))
    }
}

/// Compares `ladder` with `table` (read from `origin`), differences taken from the player
/// `anchor` when it is in both.
///
/// # Errors
/// Fewer than two players in both.
pub fn compare(
    ladder: &Ladder,
    table: &[Published],
    origin: &Path,
    anchor: &str,
) -> AppResult<Comparison> {
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for p in table {
        match p
            .ours
            .as_deref()
            .and_then(|o| counterpart(&ladder.rungs, o))
        {
            Some(r) => found.push((p, r)),
            None => missing.push(p.name.clone()),
        }
    }
    if found.len() < 2 {
        crate::invalid!(
            "ladder {} and {} share fewer than two players",
            ladder.name,
            origin.display()
        );
    }
    let ours: Vec<f64> = found.iter().map(|(_, r)| r.rating).collect();
    let theirs: Vec<f64> = found.iter().map(|(p, _)| p.elo).collect();
    let (rank_ours, rank_published) = (ranks(&ours), ranks(&theirs));
    let players: Vec<ComparedPlayer> = found
        .iter()
        .enumerate()
        .map(|(i, (p, r))| ComparedPlayer {
            published_as: p.name.clone(),
            ours: r.player.clone(),
            rating: r.rating,
            published: p.elo,
            rank_ours: rank_ours[i],
            rank_published: rank_published[i],
        })
        .collect();
    Ok(Comparison {
        anchor: players.iter().position(|p| p.ours == anchor),
        rho: spearman(&ours, &theirs),
        players,
        missing,
    })
}

/// The rung that stands for the paper's player `name`: the rung of that exact spec, else the one
/// rung whose spec is that player with parameters (`blind_yolo:nodes=10000` for `blind_yolo`,
/// scaled as the ladder's note says); none when several parametrised rungs would fit.
fn counterpart<'a>(rungs: &'a [Rung], name: &str) -> Option<&'a Rung> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_table_is_the_file_given_else_elo_worlds() -> AppResult<()> {
        let (paper, origin) = published_table(None)?;
        assert_eq!(origin, Path::new(PAPER_TABLE_NAME));
        assert_eq!(paper, read_published(PAPER_TABLE, &origin)?);
        let dir = tempfile::tempdir()?;
        let file = dir.path().join("t.csv");
        std::fs::write(&file, "player,elo\nrandom_move,100\nstockfish,2500\n")?;
        let (table, origin) = published_table(Some(&file))?;
        assert_eq!(origin, file);
        let elos: Vec<f64> = table.iter().map(|p| p.elo).collect();
        assert_eq!(elos, [100.0, 2500.0]);
        let missing = published_table(Some(&dir.path().join("none.csv"))).err();
        assert!(missing.is_some_and(|e| e.to_string().starts_with("reading ")));
        Ok(())
    }

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
