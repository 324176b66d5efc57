use crate::games::parse_kind;
use eloworld_app::with_game;
use eloworld_games::GameKind;
use eloworld_players::PlayableGame;
use std::process::ExitCode;

/// List the players a game knows.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game (chess or squava); all games when absent.
    #[arg(long, value_parser = parse_kind)]
    game: Option<GameKind>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let kinds: Vec<GameKind> = args
        .game
        .map_or_else(|| GameKind::ALL.to_vec(), |k| vec![k]);
    for kind in kinds {
        println!("{kind}:");
        with_game!(kind, G => {
            let reg = G::builtin_players();
            let w = reg.infos().map(|i| i.name.len()).max().unwrap_or(10);
            for info in reg.infos() {
                // `det` as the player plays: an engine's budget and options decide it.
                let mut flags = info.flags;
                if let Ok(spec) = info.name.parse::<eloworld_players::PlayerSpec>() {
                    if let Ok(d) = reg.determinism(&spec) {
                        flags.deterministic = d == eloworld_players::Determinism::Deterministic;
                    }
                }
                let flags = flags.words();
                let flags = if flags.is_empty() { String::new() } else { format!(" [{flags}]") };
                println!("  {:<w$}  {}{}", info.name, info.description, flags);
                for p in &info.params {
                    println!("  {:<w$}    {}={} ({})", "", p.key, p.default, p.help);
                }
            }
        });
    }
    println!("\nAny player can be diluted with random moves: NAME_rN plays randomly with chance N/65536.");
    println!("det: the same position always gives the same move, so two such players replay one game from one start; their pairs need openings (openings_for = \"fixed-pairs\").");
    Ok(ExitCode::SUCCESS)
}
