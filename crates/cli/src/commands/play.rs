use crate::games::parse_kind;
use anyhow::Context;
use eloworld_app::play::{play_one, HumanIo, PlayRequest, Record};
use eloworld_games::{DrawRules, GameKind};
use eloworld_tournament::DEFAULT_MAX_PLIES;
use std::process::ExitCode;

/// Play one game between two players and print it.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// White's spec (the first player in chess and squava, the second in Go).
    #[arg(long)]
    white: String,
    /// Black's spec (the second player in chess and squava; in Go, Black moves first).
    #[arg(long)]
    black: String,
    /// The game.
    #[arg(long, default_value = "chess", value_parser = parse_kind)]
    game: GameKind,
    /// The game's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this position (FEN for chess).
    #[arg(long)]
    fen: Option<String>,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    max_plies: u32,
    /// Chess draw rules: automatic (fivefold, 75 moves) or claimed (threefold, fifty moves).
    #[arg(long, default_value = "automatic")]
    draw_rules: DrawRules,
    /// Go: the board size, 2 to 25 (default 9).
    #[arg(long)]
    size: Option<u8>,
    /// Go: the komi, a multiple of 0.5 (default 7).
    #[arg(long, allow_hyphen_values = true)]
    komi: Option<f64>,
    /// Go: also write the game as SGF (FF[4]) to this file.
    #[arg(long, value_name = "FILE")]
    sgf: Option<std::path::PathBuf>,
    /// Engine definitions (TOML) to add to the built-in players.
    #[arg(long, value_name = "FILE")]
    engines: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let request = PlayRequest {
        game: args.game,
        white: &args.white,
        black: &args.black,
        seed: args.seed,
        position: args.fen.as_deref(),
        max_plies: args.max_plies,
        draw_rules: args.draw_rules,
        size: args.size,
        komi: args.komi,
        sgf: args.sgf.is_some(),
        engines: args.engines.as_deref(),
    };
    // A human reads moves from this terminal (standard input) and writes the board and
    // prompts to standard output. A one-byte buffer over stdin's own buffer: two human
    // players never steal each other's lines.
    let g = play_one(&request, &mut || HumanIo {
        input: Box::new(std::io::BufReader::with_capacity(1, std::io::stdin())),
        output: Box::new(std::io::stdout()),
    })?;
    let (first, second, seed) = (&g.first, &g.second, args.seed);
    match &g.record {
        Record::Chess { pgn, human } => {
            print!("{pgn}");
            if *human {
                print!("\n{}", g.board);
                println!("result: {} ({})", g.result, g.termination);
            }
        }
        Record::Go { result, sgf } => {
            println!("Black (x) {first} vs White (o) {second}, seed {seed}");
            println!("moves: {}", g.moves.join(" "));
            print!("{}", g.board);
            println!("result: {result} ({})", g.termination);
            if let (Some(path), Some(sgf)) = (&args.sgf, sgf) {
                std::fs::write(path, sgf).with_context(|| format!("writing {}", path.display()))?;
            }
        }
        Record::Plain => {
            println!("{first} (first, x) vs {second} (second, o), seed {seed}");
            println!("moves: {}", g.moves.join(" "));
            print!("{}", g.board);
            println!("result: {} ({})", g.result, g.termination);
        }
    }
    Ok(ExitCode::SUCCESS)
}
