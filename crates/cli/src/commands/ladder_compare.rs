//! `eloworld ladder compare`: a ladder's ratings next to a published table (Murphy's Elo World,
//! SIGBOVIK 2019, section 4), with Spearman's rank correlation over the players in both
//! (computed by `eloworld_app::ladder_compare`; this file prints).

use eloworld_app::ladder_compare::{compare, published_table};
use std::path::PathBuf;

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

pub fn run(args: &CompareArgs) -> anyhow::Result<()> {
    let ladder = eloworld_app::ladders::load(&args.ladder)?;
    let (table, origin) = published_table(args.reference.as_deref())?;
    let c = compare(&ladder, &table, &origin, &args.anchor)?;
    let rho_text = c.rho.map_or("undefined".to_owned(), |r| format!("{r:.3}"));
    match args.format {
        CompareFormat::Csv => {
            println!("player,published_as,ours,published,rank_ours,rank_published,ours_minus_anchor,published_minus_anchor");
            for (i, p) in c.players.iter().enumerate() {
                let (a, b) = c
                    .from_anchor(i)
                    .map_or((String::new(), String::new()), |(a, b)| {
                        (format!("{a:.1}"), format!("{b:.1}"))
                    });
                println!(
                    "{},{},{:.1},{:.2},{},{},{a},{b}",
                    p.ours, p.published_as, p.rating, p.published, p.rank_ours, p.rank_published
                );
            }
            eprintln!(
                "Spearman rank correlation over {} players: {rho_text}",
                c.players.len()
            );
        }
        CompareFormat::Text => {
            println!(
                "ladder {} ({} rungs) next to {} ({} players; {} in both)",
                ladder.name,
                ladder.rungs.len(),
                origin.display(),
                table.len(),
                c.players.len()
            );
            let width = c
                .players
                .iter()
                .map(|p| p.ours.chars().count())
                .max()
                .unwrap_or(6)
                .max(6);
            print!(
                "{:<width$}  {:>8}  {:>9}  {:>4}  {:>4}",
                "player", "ours", "published", "rank", "pub."
            );
            if c.anchor.is_some() {
                print!(
                    "  {:>9}  {:>9}",
                    format!("ours−{}", short(&args.anchor)),
                    format!("pub.−{}", short(&args.anchor))
                );
            }
            println!();
            for (i, p) in c.players.iter().enumerate() {
                print!(
                    "{:<width$}  {:>8.1}  {:>9.1}  {:>4}  {:>4}",
                    p.ours, p.rating, p.published, p.rank_ours, p.rank_published
                );
                if let Some((a, b)) = c.from_anchor(i) {
                    print!("  {a:>+9.0}  {b:>+9.0}");
                }
                println!();
            }
            println!(
                "Spearman rank correlation over the {} players in both: {rho_text} (ranks from the top, ties averaged)",
                c.players.len()
            );
            if !c.missing.is_empty() {
                println!("not in this ladder: {}", c.missing.join(", "));
            }
        }
    }
    Ok(())
}

/// The anchor's name shortened for a column header.
fn short(name: &str) -> String {
    name.chars().take(6).collect()
}
