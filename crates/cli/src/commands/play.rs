use crate::games::parse_kind;
use anyhow::Context;
use eloworld_app::{with_game, AppGame};
use eloworld_games::{DrawRules, GameKind};
use eloworld_players::human::{Human, HUMAN};
use eloworld_players::{Player, Worker};
use eloworld_tournament::{pgn::game_to_pgn, play_game, GameRow, DEFAULT_MAX_PLIES};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

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
    with_game!(args.game, G => play::<G>(&args))
}

fn play<G: AppGame>(args: &Args) -> anyhow::Result<ExitCode> {
    let go = G::KIND == GameKind::Go;
    anyhow::ensure!(
        go || (args.size.is_none() && args.komi.is_none() && args.sgf.is_none()),
        "--size, --komi and --sgf are Go settings; this is a {} game",
        G::KIND
    );
    let rules = G::rules_with(args.draw_rules, args.size, args.komi)?;
    let mut reg = G::builtin_players();
    if let Some(path) = &args.engines {
        eloworld_players::engine::add_definitions_file(&mut reg, path)?;
    }
    let mut worker = Worker::new(0);
    // The first player is White in chess and Black in Go.
    let (first_arg, second_arg) = if go {
        (&args.black, &args.white)
    } else {
        (&args.white, &args.black)
    };
    let white_spec: eloworld_players::PlayerSpec = first_arg.parse()?;
    let black_spec: eloworld_players::PlayerSpec = second_arg.parse()?;
    let mut white = make_player::<G>(&reg, &white_spec, &mut worker)
        .with_context(|| format!("starting {white_spec}"))?;
    let mut black = make_player::<G>(&reg, &black_spec, &mut worker)
        .with_context(|| format!("starting {black_spec}"))?;
    let start = match &args.fen {
        Some(f) => G::from_position(f, rules)?,
        None => G::new(rules),
    };
    let mut game = start.clone();
    let mut moves = Vec::new();
    let stop = AtomicBool::new(false);
    let played = play_game(
        &mut game,
        &mut *white,
        &mut *black,
        args.seed,
        args.max_plies,
        &stop,
        &mut moves,
    )
    .context("game stopped")?;
    let codes: Vec<String> = moves.iter().map(|&m| start.move_code(m)).collect();
    if G::KIND == GameKind::Chess {
        let row = GameRow {
            job_id: 0,
            tournament: "eloworld play".to_owned(),
            game: eloworld_games::GameKind::Chess,
            white: white_spec.to_string(),
            black: black_spec.to_string(),
            round: 0,
            result: played.outcome.result,
            termination: played.outcome.termination,
            plies: played.plies,
            moves: codes.join(" "),
            opening: args.fen.as_ref().map(|_| start.position_text()),
            seed: args.seed,
            wall_ms: 0.0,
            detail: played.detail.clone(),
            date: eloworld_tournament::pgn::pgn_date_today(),
            notes: Vec::new(),
            setup: eloworld_tournament::GameSetup::default(),
        };
        print!(
            "{}",
            game_to_pgn(&row, "local").map_err(anyhow::Error::msg)?
        );
        if [&white_spec, &black_spec].iter().any(|s| s.name == HUMAN) {
            print!("\n{}", game.board_text());
            println!(
                "result: {} ({})",
                played.outcome.result, played.outcome.termination
            );
        }
    } else if go {
        let go_game = (&game as &dyn std::any::Any).downcast_ref::<eloworld_games::Go>();
        let result = go_game.map_or_else(String::new, |g| {
            eloworld_tournament::sgf::result_value(g, played.outcome)
        });
        println!(
            "Black (x) {white_spec} vs White (o) {black_spec}, seed {}",
            args.seed
        );
        println!("moves: {}", codes.join(" "));
        print!("{}", game.board_text());
        println!("result: {result} ({})", played.outcome.termination);
        if let (Some(path), Some(g)) = (&args.sgf, go_game) {
            let refs: Vec<&str> = codes.iter().map(String::as_str).collect();
            let date = eloworld_tournament::pgn::pgn_date_today().replace('.', "-");
            let header = eloworld_tournament::sgf::SgfHeader {
                black: &white_spec.to_string(),
                white: &black_spec.to_string(),
                date: &date,
                event: "eloworld play",
            };
            let sgf = eloworld_tournament::sgf::game_to_sgf(
                &header,
                g.rules(),
                &refs,
                Some(played.outcome),
            )?;
            std::fs::write(path, sgf).with_context(|| format!("writing {}", path.display()))?;
        }
    } else {
        println!(
            "{} (first, x) vs {} (second, o), seed {}",
            white_spec, black_spec, args.seed
        );
        println!("moves: {}", codes.join(" "));
        print!("{}", game.board_text());
        println!(
            "result: {} ({})",
            played.outcome.result, played.outcome.termination
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Builds a player: `human` reads moves from this terminal (standard input) and writes the
/// board and prompts to standard output; every other spec comes from the registry.
fn make_player<G: AppGame>(
    reg: &eloworld_players::Registry<G>,
    spec: &eloworld_players::PlayerSpec,
    worker: &mut Worker,
) -> anyhow::Result<Box<dyn Player<G>>> {
    if spec.name == HUMAN {
        anyhow::ensure!(
            spec.params.is_empty() && spec.dilution.is_none(),
            "the human player takes no parameters: {spec}"
        );
        // A one-byte buffer over stdin's own buffer: two human players never steal each
        // other's lines.
        let input = std::io::BufReader::with_capacity(1, std::io::stdin());
        return Ok(Box::new(Human::<G>::new(
            Box::new(input),
            Box::new(std::io::stdout()),
        )));
    }
    Ok(reg.resolve(spec)?.create(worker)?)
}
