//! `eloworld match` with real engines (Debian's `stockfish`, and `fairymax` for CECP): the
//! fastchess / cutechess-cli command line, an SPRT that stops the match (its LLR checked
//! against an independent computation from the printed counts), clocks with increments and
//! their PGN comments, adjudication, Chess960, and errors that name the bad option.

use std::path::Path;
use std::process::{Output, Stdio};

mod common;
use common::text;

/// Runs `eloworld match ARGS` in `dir`.
fn eloworld(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    common::eloworld(dir, &all)
}

fn book() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/books/UHO_4060_v4.first2000.epd")
        .display()
        .to_string()
}

/// Returns the words of a command line written with spaces.
fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_owned).collect()
}

fn run_line(dir: &Path, line: &str) -> (Output, String, String) {
    let args = words(line);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = eloworld(dir, &refs);
    let (out, err) = text(&o);
    (o, out, err)
}

/// Reads the last `Ptnml(0-2): [a, b, c, d, e]` line.
fn last_pentanomial(out: &str) -> [f64; 5] {
    let line = out
        .lines()
        .rev()
        .find(|l| l.starts_with("Ptnml(0-2): ["))
        .expect("a Ptnml line");
    let inside = &line[line.find('[').expect("[") + 1..line.find(']').expect("]")];
    let counts: Vec<f64> = inside
        .split(',')
        .map(|c| c.trim().parse().expect("a count"))
        .collect();
    counts.try_into().expect("five counts")
}

/// Reads the LLR of the last `LLR: x (lower, upper) [elo0, elo1]` line.
fn last_llr(out: &str) -> f64 {
    let line = out
        .lines()
        .rev()
        .find(|l| l.starts_with("LLR: "))
        .expect("an LLR line");
    line["LLR: ".len()..]
        .split_whitespace()
        .next()
        .expect("a value")
        .parse()
        .expect("a number")
}

/// The normalised-Elo GSPRT log-likelihood ratio of pentanomial counts, computed
/// independently of the ratings crate: the likelihood of the counts maximised over the
/// distributions on {0, ¼, ½, ¾, 1} with (μ − ½)/σ = t, by profiling over the mean m. For a
/// fixed m (so σ = (m − ½)/t) the maximum over distributions with those two moments is the
/// empirical-likelihood tilt p̂ᵢ/(1 + λ·gᵢ) with gᵢ = (aᵢ − m, (aᵢ − m)² − σ²), λ found by
/// Newton's method on the convex dual; m is then found by golden-section search. For t = 0
/// the constraint is μ = ½ alone. Empty classes count 10⁻³, as fishtest does.
mod independent {
    const A: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    /// Maximises Σ wᵢ ln pᵢ over pᵢ = wᵢ/(1 + λ·gᵢ) (the dual is convex in λ); returns the
    /// log-likelihood Σ nᵢ ln pᵢ, or −∞ when the moments cannot be met.
    fn tilted(counts: &[f64; 5], g: &[[f64; 2]; 5], dims: usize) -> f64 {
        let total: f64 = counts.iter().sum();
        let w: Vec<f64> = counts.iter().map(|c| c / total).collect();
        let mut lambda = [0.0f64; 2];
        let dual = |l: &[f64; 2]| -> Option<f64> {
            let mut s = 0.0;
            for i in 0..5 {
                let d = 1.0 + l[0] * g[i][0] + l[1] * g[i][1];
                if d <= 1e-12 {
                    return None;
                }
                s -= w[i] * d.ln();
            }
            Some(s)
        };
        for _ in 0..200 {
            let (mut grad, mut hess) = ([0.0f64; 2], [[0.0f64; 2]; 2]);
            for i in 0..5 {
                let d = 1.0 + lambda[0] * g[i][0] + lambda[1] * g[i][1];
                for r in 0..dims {
                    grad[r] -= w[i] * g[i][r] / d;
                    for c in 0..dims {
                        hess[r][c] += w[i] * g[i][r] * g[i][c] / (d * d);
                    }
                }
            }
            let step = if dims == 1 {
                [grad[0] / hess[0][0], 0.0]
            } else {
                let det = hess[0][0] * hess[1][1] - hess[0][1] * hess[1][0];
                [
                    (hess[1][1] * grad[0] - hess[0][1] * grad[1]) / det,
                    (hess[0][0] * grad[1] - hess[1][0] * grad[0]) / det,
                ]
            };
            let now = dual(&lambda).expect("feasible start");
            let mut scale = 1.0;
            loop {
                let next = [lambda[0] - scale * step[0], lambda[1] - scale * step[1]];
                if let Some(v) = dual(&next) {
                    if v <= now + 1e-15 {
                        lambda = next;
                        break;
                    }
                }
                scale /= 2.0;
                if scale < 1e-12 {
                    break;
                }
            }
            if step[0].abs() + step[1].abs() < 1e-13 {
                break;
            }
        }
        // Unless the tilt met the moments (the dual's gradient vanished), no distribution with
        // them is near: the likelihood is −∞.
        let residual: f64 = (0..dims)
            .map(|r| {
                (0..5)
                    .map(|i| w[i] * g[i][r] / (1.0 + lambda[0] * g[i][0] + lambda[1] * g[i][1]))
                    .sum::<f64>()
                    .abs()
            })
            .sum();
        if residual > 1e-9 {
            return f64::NEG_INFINITY;
        }
        (0..5)
            .map(|i| {
                let d = 1.0 + lambda[0] * g[i][0] + lambda[1] * g[i][1];
                counts[i] * (w[i] / d).ln()
            })
            .sum()
    }

    fn profile(counts: &[f64; 5], t: f64, m: f64) -> f64 {
        let variance = ((m - 0.5) / t).powi(2);
        if variance >= m * (1.0 - m) {
            return f64::NEG_INFINITY;
        }
        let g: [[f64; 2]; 5] = std::array::from_fn(|i| [A[i] - m, (A[i] - m).powi(2) - variance]);
        // The moments are reachable only if 0 lies inside the hull of the gᵢ; a tilt that
        // does not converge shows as a low likelihood, which the search then avoids.
        tilted(counts, &g, 2)
    }

    fn max_log_likelihood(counts: &[f64; 5], t: f64) -> f64 {
        if t == 0.0 {
            let g: [[f64; 2]; 5] = std::array::from_fn(|i| [A[i] - 0.5, 0.0]);
            return tilted(counts, &g, 1);
        }
        // μ − ½ has the sign of t; search m in (½, 1) or (0, ½).
        let (mut lo, mut hi) = if t > 0.0 { (0.5, 1.0) } else { (0.0, 0.5) };
        // A coarse scan finds the feasible peak, golden sections refine it.
        let mut best = (f64::NEG_INFINITY, 0.5);
        for k in 1..20_000 {
            let m = lo + (hi - lo) * f64::from(k) / 20_000.0;
            let v = profile(counts, t, m);
            if v > best.0 {
                best = (v, m);
            }
        }
        let width = (hi - lo) / 20_000.0;
        (lo, hi) = (best.1 - width, best.1 + width);
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..100 {
            let x1 = hi - ratio * (hi - lo);
            let x2 = lo + ratio * (hi - lo);
            if profile(counts, t, x1) < profile(counts, t, x2) {
                lo = x1;
            } else {
                hi = x2;
            }
        }
        profile(counts, t, 0.5 * (lo + hi)).max(best.0)
    }

    /// The LLR of H1 (nElo `elo1`) against H0 (nElo `elo0`) for pentanomial `counts`.
    pub fn llr(counts: [f64; 5], elo0: f64, elo1: f64) -> f64 {
        let counts = counts.map(|c| if c == 0.0 { 1e-3 } else { c });
        // nElo = t·√2·400/ln 10 for pairs… so t = nElo·ln 10/(400·√2).
        let t = |elo: f64| elo * std::f64::consts::LN_10 / (400.0 * std::f64::consts::SQRT_2);
        max_log_likelihood(&counts, t(elo1)) - max_log_likelihood(&counts, t(elo0))
    }
}

#[test]
fn the_independent_llr_agrees_with_fastchess_published_values() {
    // fastchess's own tests: [365, 16618, 36229, 16974, 390] at [0, 2] gives 2.25, and
    // [127, 4883, 10712, 5150, 104] at [−1.75, 0.25] gives 3.01.
    let a = independent::llr([365.0, 16618.0, 36229.0, 16974.0, 390.0], 0.0, 2.0);
    assert!((a - 2.25).abs() < 0.01, "{a}");
    let b = independent::llr([127.0, 4883.0, 10712.0, 5150.0, 104.0], -1.75, 0.25);
    assert!((b - 3.01).abs() < 0.01, "{b}");
}

#[test]
fn sprt_strong_against_weak_stops_early_with_h1() {
    let dir = tempfile::tempdir().expect("tmp");
    let line = format!(
        "-engine cmd=stockfish name=strong nodes=5000 -engine cmd=stockfish name=weak nodes=50 \
         -each proto=uci option.Hash=16 option.Threads=1 \
         -openings file={} format=epd order=random -srand 3 \
         -games 2 -rounds 200 -repeat -concurrency 2 -ratinginterval 4 \
         -sprt elo0=0 elo1=20 alpha=0.05 beta=0.05 model=normalized -db m.sqlite",
        book()
    );
    let (o, out, err) = run_line(dir.path(), &line);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        out.contains("SPRT ([0.00, 20.00]) completed - H1 was accepted"),
        "{out}"
    );
    let counts = last_pentanomial(&out);
    let pairs: f64 = counts.iter().sum();
    assert!(pairs < 200.0, "stopped early: {pairs} pairs");
    let printed = last_llr(&out);
    let expected = independent::llr(counts, 0.0, 20.0);
    assert!(
        (printed - expected).abs() < 0.006,
        "printed {printed}, computed {expected} from {counts:?}"
    );
    assert!(printed >= 2.94, "{printed}");
    // Live reports came in fastchess's layout before the end.
    assert!(
        out.matches("Results of strong vs weak").count() >= 2,
        "{out}"
    );
    assert!(
        out.contains("Started game 1 of 400 (strong vs weak)"),
        "{out}"
    );
    // Each game's line reads as fastchess writes it, the reason in its words.
    let finished: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Finished game "))
        .collect();
    assert!(!finished.is_empty(), "{out}");
    assert!(
        finished
            .iter()
            .any(|l| l.ends_with("{White mates}") || l.ends_with("{Black mates}")),
        "{out}"
    );
    assert!(
        finished.iter().all(|l| !l.contains("{checkmate}")),
        "no store codes on the Finished game lines: {out}"
    );
    // The games are in the store, where `results` finds them.
    let results = common::command()
        .args(["results", "--db", "m.sqlite"])
        .current_dir(dir.path())
        .output()
        .expect("results");
    let (r, rerr) = text(&results);
    assert!(
        results.status.success() && r.contains("strong"),
        "{r}\n{rerr}"
    );
    // The same command again: the stored games decide the test, so no game is played and
    // the final report is the same.
    let stored = |out: &str| -> u64 {
        let line = out
            .lines()
            .find(|l| l.starts_with("Finished match: "))
            .expect("a Finished line");
        line["Finished match: ".len()..]
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .expect("a count")
    };
    let (o, again, err) = run_line(dir.path(), &line);
    assert!(o.status.success(), "{again}\n{err}");
    assert!(err.contains("the SPRT was decided by the"), "{err}");
    assert!(again.contains("(0 this run"), "{again}");
    assert!(!again.contains("Started game"), "{again}");
    assert_eq!(stored(&again), stored(&out));
    assert_eq!(last_pentanomial(&again), counts);
    assert!(
        again.contains("SPRT ([0.00, 20.00]) completed - H1 was accepted"),
        "{again}"
    );
}

#[test]
fn unknown_options_are_named() {
    let dir = tempfile::tempdir().expect("tmp");
    let (o, out, err) = run_line(
        dir.path(),
        "-engine cmd=stockfish nodes=10 name=a -engine cmd=stockfish nodes=10 name=b -bogus 3",
    );
    assert!(!o.status.success(), "{out}");
    assert!(err.contains("unknown option -bogus"), "{err}");
    let (o, _, err) = run_line(
        dir.path(),
        "-engine cmd=stockfish nodes=10 name=a -engine cmd=stockfish name=b hsh=16",
    );
    assert!(!o.status.success());
    assert!(err.contains("\"hsh\""), "{err}");
    let (o, _, err) = run_line(
        dir.path(),
        "-engine cmd=no-such-engine-xyz nodes=10 name=a -engine cmd=stockfish nodes=1 name=b",
    );
    assert!(!o.status.success());
    assert!(err.contains("no-such-engine-xyz"), "{err}");
}

/// A PGN file's games, split at their `[Event` tags.
fn pgn_games(pgn: &str) -> Vec<&str> {
    pgn.split("[Event ").skip(1).collect()
}

#[test]
fn clocks_with_increment_lose_no_game_on_time_and_annotate_the_pgn() {
    let dir = tempfile::tempdir().expect("tmp");
    // The runner's clock starts before the engine reads `go` and stops after it has read
    // `bestmove`; on a loaded machine that takes a while, so Stockfish keeps 100 ms for it
    // (its `Move Overhead`), and the flag falls 100 ms late (cutechess's `timemargin`).
    let mut args = words(&format!(
        "-engine cmd=stockfish name=sf1 -engine cmd=stockfish name=sf2 \
         -each tc=2+0.02 timemargin=100 option.Hash=16 option.Threads=1 \
         -openings file={} order=random -srand 5 -games 2 -rounds 20 -repeat -concurrency 2 \
         -ratinginterval 0 -pgnout file=tc.pgn -db tc.sqlite",
        book()
    ));
    args.insert(8, "option.Move Overhead=100".to_owned());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = eloworld(dir.path(), &refs);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("time forfeits: 0"), "{out}");
    assert!(!out.contains("time-forfeit"), "{out}");
    let pgn = std::fs::read_to_string(dir.path().join("tc.pgn")).expect("pgn written");
    let games = pgn_games(&pgn);
    assert_eq!(games.len(), 40);
    for g in &games {
        assert!(g.contains("[TimeControl \"2+0.02\"]"), "{g}");
        // Every move carries fastchess's comment: {+0.32/12 0.153s}.
        let comments = g.matches("s}").count();
        let plies: usize = g
            .lines()
            .find_map(|l| l.strip_prefix("[PlyCount \""))
            .and_then(|v| v.trim_end_matches("\"]").parse().ok())
            .expect("PlyCount");
        assert_eq!(comments, plies, "{g}");
        let first = g.find('{').map(|i| &g[i..]).expect("a comment");
        let body = &first[1..first.find('}').expect("}")];
        let (score_depth, time) = body.split_once(' ').expect("score/depth time");
        let (score, depth) = score_depth.split_once('/').expect("score/depth");
        // Signed, or an even score unsigned as fastchess writes it (`0.00`).
        assert!(score.starts_with(['+', '-']) || score == "0.00", "{body}");
        assert!(depth.parse::<u32>().is_ok(), "{body}");
        assert!(
            time.ends_with('s') && time.trim_end_matches('s').parse::<f64>().is_ok(),
            "{body}"
        );
    }
    // The store keeps the same comments and the tag: its PGN export has the same movetext.
    let exported = exported_pgn(dir.path(), "tc.sqlite");
    assert_eq!(movetexts(&exported), movetexts(&pgn));
    assert_eq!(exported.matches("[TimeControl \"2+0.02\"]").count(), 40);
}

/// Exports the games of a store as PGN (`eloworld export`).
fn exported_pgn(dir: &Path, db: &str) -> String {
    let o = common::eloworld(dir, &["export", "--db", db, "--pgn", "export.pgn"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    std::fs::read_to_string(dir.join("export.pgn")).expect("exported pgn")
}

/// The value of a PGN game's tag, empty when it has none.
fn tag(game: &str, name: &str) -> String {
    game.lines()
        .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
        .map_or(String::new(), |v| v.trim_end_matches("\"]").to_owned())
}

/// Each game's opening, players and movetext (with comments), sorted: what a PGN export of
/// the store must repeat of the live PGN, whatever the order the games finished in.
fn movetexts(pgn: &str) -> Vec<String> {
    let mut out: Vec<String> = pgn_games(pgn)
        .iter()
        .map(|g| {
            let moves = &g[g.find("\n\n").expect("movetext") + 2..];
            let (fen, white, black) = (tag(g, "FEN"), tag(g, "White"), tag(g, "Black"));
            format!("{fen} {white} {black} {}", moves.trim())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn cecp_engines_play_on_a_clock() {
    let dir = tempfile::tempdir().expect("tmp");
    let line = "-engine cmd=fairymax proto=xboard name=fairy -engine cmd=stockfish name=sf \
         option.Hash=16 -each tc=3+0.05 timemargin=300 -games 2 -rounds 1 -repeat -pgnout file=f.pgn -db f.sqlite";
    let (o, out, err) = run_line(dir.path(), line);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("time forfeits: 0"), "{out}");
    for bad in ["disconnects", "illegal move", "connection stalls"] {
        assert!(!out.contains(bad), "{out}");
    }
    let pgn = std::fs::read_to_string(dir.path().join("f.pgn")).expect("pgn");
    // fairymax's thinking output gives its moves a score and depth too.
    let fairy_white = pgn_games(&pgn)
        .into_iter()
        .find(|g| g.contains("[White \"fairy\"]"))
        .expect("a game with fairymax White");
    let first = fairy_white
        .find("1. ")
        .map(|i| &fairy_white[i..])
        .expect("moves");
    let comment = &first[first.find('{').expect("{") + 1..first.find('}').expect("}")];
    assert!(
        comment.contains('/'),
        "score/depth from fairymax: {comment}"
    );
}

#[test]
fn adjudication_rules_end_games_with_their_termination() {
    let dir = tempfile::tempdir().expect("tmp");
    // Resign: a strong engine against a very weak one, scores past 400 for 3 moves each.
    let (o, out, err) = run_line(
        dir.path(),
        "-engine cmd=stockfish name=strong nodes=20000 -engine cmd=stockfish name=weak nodes=1 \
         -resign movecount=3 score=400 -games 2 -rounds 2 -pgnout file=r.pgn -db r.sqlite",
    );
    assert!(o.status.success(), "{out}\n{err}");
    // The match's PGN says `adjudication` as fastchess writes it; the store keeps which rule.
    let pgn = exported_pgn(dir.path(), "r.sqlite");
    let live = std::fs::read_to_string(dir.path().join("r.pgn")).expect("pgn");
    // The weak side must agree it is lost for three moves running; where it never does, the
    // game is mated instead. Every adjudicated game is a win for the strong engine.
    let resigned: Vec<&str> = pgn_games(&pgn)
        .into_iter()
        .filter(|g| g.contains("[Termination \"resign-adjudication\"]"))
        .collect();
    assert!(!resigned.is_empty(), "{pgn}");
    assert_eq!(
        live.matches("[Termination \"adjudication\"]").count(),
        resigned.len(),
        "{live}"
    );
    for g in resigned {
        let strong_white = g.contains("[White \"strong\"]");
        let result = if strong_white { "1-0" } else { "0-1" };
        assert!(g.contains(&format!("[Result \"{result}\"]")), "{g}");
    }
    // Draw: a dead level ending, both engines near 0.00 from move 1.
    let epd = dir.path().join("level.epd");
    std::fs::write(&epd, "8/2k5/8/p1p1p1p1/P1P1P1P1/8/2K5/8 w - -\n").expect("write");
    let (o, out, err) = run_line(
        dir.path(),
        &format!(
            "-engine cmd=stockfish name=a nodes=2000 -engine cmd=stockfish name=b nodes=2000 \
             -openings file={} -draw movenumber=3 movecount=2 score=20 -games 2 -rounds 1 \
             -pgnout file=d.pgn -db d.sqlite",
            epd.display()
        ),
    );
    assert!(o.status.success(), "{out}\n{err}");
    let pgn = exported_pgn(dir.path(), "d.sqlite");
    assert_eq!(
        pgn.matches("[Termination \"draw-adjudication\"]").count(),
        2,
        "{pgn}"
    );
    let live = std::fs::read_to_string(dir.path().join("d.pgn")).expect("pgn");
    assert_eq!(live.matches("[Termination \"adjudication\"]").count(), 2);
    // Max moves: 5 full moves and the game is drawn.
    let (o, out, err) = run_line(
        dir.path(),
        "-engine cmd=stockfish name=a nodes=500 -engine cmd=stockfish name=b nodes=500 \
         -maxmoves 5 -games 2 -rounds 1 -pgnout file=x.pgn -db x.sqlite",
    );
    assert!(o.status.success(), "{out}\n{err}");
    let pgn = exported_pgn(dir.path(), "x.sqlite");
    assert_eq!(pgn.matches("[PlyCount \"10\"]").count(), 2, "{pgn}");
    assert_eq!(
        pgn.matches("[Termination \"max-plies\"]").count(),
        2,
        "{pgn}"
    );
    let live = std::fs::read_to_string(dir.path().join("x.pgn")).expect("pgn");
    assert_eq!(live.matches("[Termination \"adjudication\"]").count(), 2);
}

#[test]
fn fischer_random_games_start_from_chess960_positions() {
    let dir = tempfile::tempdir().expect("tmp");
    let (o, out, err) = run_line(
        dir.path(),
        "-engine cmd=stockfish name=a nodes=3000 -engine cmd=stockfish name=b nodes=3000 \
         -variant fischerandom -games 2 -rounds 4 -srand 11 -concurrency 2 \
         -pgnout file=960.pgn -db 960.sqlite",
    );
    assert!(o.status.success(), "{out}\n{err}");
    for bad in ["disconnects", "illegal move", "connection stalls"] {
        assert!(!out.contains(bad), "{out}");
    }
    let pgn = std::fs::read_to_string(dir.path().join("960.pgn")).expect("pgn");
    let games = pgn_games(&pgn);
    assert_eq!(games.len(), 8);
    let starts: std::collections::HashSet<&str> = games
        .iter()
        .filter_map(|g| g.lines().find(|l| l.starts_with("[FEN ")))
        .collect();
    // Four rounds, four start positions, each played with both colours.
    assert_eq!(starts.len(), 4, "{starts:?}");
    assert!(
        !starts.iter().any(|s| s.contains("rnbqkbnr/")),
        "{starts:?}"
    );
}

#[test]
fn a_spec_with_several_parameters_is_one_player() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = common::command()
        .args([
            "tournament",
            "--name",
            "specs",
            "--players",
            "stockfish:nodes=1000,hash=16,random_move",
            "--games-per-pair",
            "1",
            "--threads",
            "1",
            "--db",
            "s.sqlite",
            "--quiet",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("run");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let export = common::command()
        .args(["export", "--db", "s.sqlite", "--pgn", "s.pgn"])
        .current_dir(dir.path())
        .output()
        .expect("export");
    let (_, err) = text(&export);
    assert!(export.status.success(), "{err}");
    let pgn = std::fs::read_to_string(dir.path().join("s.pgn")).expect("exported");
    // Two players, two games: the parameters stayed with Stockfish.
    assert_eq!(pgn.matches("[Event ").count(), 2, "{pgn}");
    assert!(
        pgn.contains("hash=16") && pgn.contains("nodes=1000"),
        "{pgn}"
    );
    assert!(pgn.contains("random_move"), "{pgn}");
}

#[test]
fn polyglot_books_play_the_first_moves() {
    let dir = tempfile::tempdir().expect("tmp");
    let book = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/books/performance.first12plies.bin")
        .display()
        .to_string();
    let (o, out, err) = run_line(
        dir.path(),
        &format!(
            "-engine cmd=stockfish name=a -engine cmd=stockfish name=b \
             -each nodes=500 book={book} bookdepth=2 -games 2 -rounds 2 -srand 9 \
             -pgnout file=b.pgn -db b.sqlite"
        ),
    );
    assert!(o.status.success(), "{out}\n{err}");
    let pgn = std::fs::read_to_string(dir.path().join("b.pgn")).expect("pgn");
    for g in pgn_games(&pgn) {
        let moves = &g[g.find("\n\n").expect("movetext") + 2..];
        // The book's first moves: 1. e4, 1. d4 or 1. c4 (python-chess's listing).
        assert!(
            ["1. e4 ", "1. d4 ", "1. c4 "]
                .iter()
                .any(|m| moves.starts_with(m)),
            "{moves}"
        );
        let comments: Vec<&str> = moves
            .split('{')
            .skip(1)
            .map(|c| &c[..c.find('}').expect("}")])
            .collect();
        // Two full moves from the book, marked as cutechess marks them, then the engines'.
        assert_eq!(comments[..4], ["book"; 4], "{comments:?}");
        assert!(comments[4].contains('/'), "{comments:?}");
    }
    // The store keeps the book marks too.
    let exported = exported_pgn(dir.path(), "b.sqlite");
    assert_eq!(movetexts(&exported), movetexts(&pgn));
    assert_eq!(exported.matches("{book}").count(), 4 * 4);
}

#[test]
fn pgn_openings_cut_at_plies_and_rounds_of_four_games() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("o.pgn"),
        "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 e6 *\n",
    )
    .expect("write");
    let (o, out, err) = run_line(
        dir.path(),
        "-engine cmd=stockfish name=a -engine cmd=stockfish name=b -each nodes=300 \
         -openings file=o.pgn format=pgn plies=2 -games 4 -rounds 1 -repeat -maxmoves 12 \
         -pgnout file=p.pgn -db p.sqlite",
    );
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("Games: 4,"), "{out}");
    // Two colour-swapped pairs, one per opening.
    assert_eq!(last_pentanomial(&out).iter().sum::<f64>(), 2.0, "{out}");
    let exported = exported_pgn(dir.path(), "p.sqlite");
    let mut seen: Vec<(String, String, String)> = pgn_games(&exported)
        .iter()
        .map(|g| (tag(g, "FEN"), tag(g, "White"), tag(g, "Black")))
        .collect();
    seen.sort();
    // After 1. e4 e5 and after 1. d4 d5: two plies of each game, each with both colours.
    let after_e5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let after_d5 = "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2";
    let game = |fen: &str, w: &str, b: &str| (fen.to_owned(), w.to_owned(), b.to_owned());
    let mut expected = vec![
        game(after_e5, "a", "b"),
        game(after_e5, "b", "a"),
        game(after_d5, "a", "b"),
        game(after_d5, "b", "a"),
    ];
    expected.sort();
    assert_eq!(seen, expected);
}

#[test]
fn a_perfect_score_prints_a_one_sided_bound() {
    let dir = tempfile::tempdir().expect("tmp");
    let tables = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy");
    // Single-game rounds alternate colours and openings: engine a has the queen in each
    // (White in the first line, Black in the second), so the tables give it every game.
    std::fs::write(
        dir.path().join("q.epd"),
        "8/8/8/4k3/8/8/8/3QK3 w - -\n3qk3/8/8/8/4K3/8/8/8 w - -\n",
    )
    .expect("write");
    let (o, out, err) = run_line(
        dir.path(),
        &format!(
            "-engine cmd=stockfish name=a -engine cmd=stockfish name=b -each nodes=100 \
             -openings file=q.epd -tb {} -games 1 -rounds 4 -db q.sqlite",
            tables.display()
        ),
    );
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        out.contains("Games: 4, Wins: 4, Losses: 0, Draws: 0"),
        "{out}"
    );
    // Every game won: the exact one-sided bound, score ≥ 0.05^(1/4), as match-stats gives it.
    let low: f64 = 0.05f64.powf(0.25);
    let elo = -400.0 * (1.0 / low - 1.0).log10();
    assert!(
        out.contains(&format!(
            "Elo: unbounded above (every game won), one-sided 95% lower bound {elo:+.2}"
        )),
        "{out}"
    );
    assert!(!out.contains("inf") && !out.contains("NaN"), "{out}");
}

#[test]
fn syzygy_tables_adjudicate_known_endings() {
    let dir = tempfile::tempdir().expect("tmp");
    let tables = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy");
    let epd = dir.path().join("kqk.epd");
    // King and queen against king, and a drawn rook ending.
    std::fs::write(
        &epd,
        "8/8/8/4k3/8/8/8/3QK3 w - -\n8/8/3rk3/8/8/3RK3/8/8 w - -\n",
    )
    .expect("write");
    let (o, out, err) = run_line(
        dir.path(),
        &format!(
            "-engine cmd=stockfish name=a nodes=1000 -engine cmd=stockfish name=b nodes=1000 \
             -openings file={} -tb {} -games 2 -rounds 2 -pgnout file=tb.pgn -db tb.sqlite",
            epd.display(),
            tables.display()
        ),
    );
    assert!(o.status.success(), "{out}\n{err}");
    let live = std::fs::read_to_string(dir.path().join("tb.pgn")).expect("pgn");
    assert_eq!(live.matches("[Termination \"adjudication\"]").count(), 4);
    let pgn = exported_pgn(dir.path(), "tb.sqlite");
    let games = pgn_games(&pgn);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(
            g.contains("[Termination \"tablebase-adjudication\"]"),
            "{g}"
        );
        assert!(g.contains("[PlyCount \"1\"]"), "{g}");
        let queen = g.contains("3QK3");
        let white_won = g.contains("[Result \"1-0\"]");
        assert_eq!(queen, white_won, "{g}");
        if !queen {
            assert!(g.contains("[Result \"1/2-1/2\"]"), "{g}");
        }
    }
    // A directory without tables is refused, named.
    let (o, _, err) = run_line(
        dir.path(),
        &format!(
            "-engine cmd=stockfish name=a nodes=10 -engine cmd=stockfish name=b nodes=10 -tb {} -db e.sqlite",
            dir.path().display()
        ),
    );
    assert!(!o.status.success());
    assert!(err.contains(&dir.path().display().to_string()), "{err}");
}

/// An EPD book is parsed only as far as the match reaches: the openings played are the same
/// as those of the whole book's shuffle, a bad line the match reaches is an error naming the
/// file and the line, and nothing is stored; a bad line it never reaches costs nothing.
#[test]
fn an_epd_book_is_read_as_far_as_the_match_reaches() {
    let dir = tempfile::tempdir().expect("tmp");
    let good = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
                rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n";
    std::fs::write(
        dir.path().join("late.epd"),
        format!("{good}not a position\n"),
    )
    .expect("w");
    std::fs::write(
        dir.path().join("early.epd"),
        format!("not a position\n{good}"),
    )
    .expect("w");
    let line = |book: &str, db: &str| {
        format!(
            "-engine cmd=stockfish name=a -engine cmd=stockfish name=b -each nodes=50 \
             -openings file={book} format=epd order=sequential -games 2 -rounds 2 -repeat \
             -db {db} -pgnout file={db}.pgn"
        )
    };
    let (o, out, err) = run_line(dir.path(), &line("late.epd", "late.sqlite"));
    assert!(o.status.success(), "{out}\n{err}");
    let pgn = std::fs::read_to_string(dir.path().join("late.sqlite.pgn")).expect("pgn");
    assert_eq!(pgn.matches("[FEN \"").count(), 4, "{pgn}");
    assert_eq!(pgn.matches("4P3/8/PPPP1PPP").count(), 2, "{pgn}");
    assert_eq!(pgn.matches("3P4/8/PPP1PPPP").count(), 2, "{pgn}");

    let (o, out, err) = run_line(dir.path(), &line("early.epd", "early.sqlite"));
    assert!(!o.status.success(), "{out}\n{err}");
    assert!(err.contains("early.epd:1:"), "{err}");
    assert!(!dir.path().join("early.sqlite.pgn").exists());
}

/// The flags fishtest's worker and OpenBench's client pass that have no effect here
/// (`-log`, `-scoreinterval`, `-autosaveinterval`, `-crc32 pgn=true` without a PGN …) are accepted,
/// so their command lines run, and each is named in one note: none is silently ignored.
/// `-site`, `-report penta=true`, `-testEnv` and `-check-mate-pvs` have their effect.
#[test]
fn flags_without_effect_are_accepted_each_with_a_note() {
    let dir = tempfile::tempdir().expect("tmp");
    let (o, out, err) = run_line(
        dir.path(),
        "-engine cmd=stockfish name=a nodes=10 -engine cmd=stockfish name=b nodes=10 \
         -games 2 -rounds 1 -repeat -testEnv -crc32 pgn=true -site https://tests.example \
         -check-mate-pvs -log file=x.log level=info -report penta=true -db n.sqlite \
         -scoreinterval 1 -autosaveinterval 0",
    );
    assert!(o.status.success(), "{out}\n{err}");
    for flag in [
        "-crc32 pgn=true (without -pgnout)",
        "-log file=x.log level=info",
        "-scoreinterval 1",
        "-autosaveinterval 0",
    ] {
        assert_eq!(
            err.matches(&format!("note: {flag} is accepted and has no effect"))
                .count(),
            1,
            "{flag}: {err}"
        );
    }
    assert!(out.contains("Finished match: 2 games stored"), "{out}");
    // -testEnv (warnings on one line) and -check-mate-pvs (mate-PV warnings) have effect.
    for flag in ["-site", "-report", "-testEnv", "-check-mate-pvs"] {
        assert!(!err.contains(flag), "{flag}: {err}");
    }
}

/// An engine is part of the match's plan: rerun with only `option.Hash` changed, the stored
/// games are not resumed as if they came from the same engine; the run plays a new match
/// under the next free number, as for any other changed plan (and says so).
#[test]
fn a_changed_engine_option_is_a_new_match_not_a_resume() {
    let dir = tempfile::tempdir().expect("tempdir");
    let line = |hash: u32| {
        format!(
            "-engine cmd=stockfish name=a nodes=1000 -engine cmd=stockfish name=b nodes=1000 \
             -each proto=uci option.Threads=1 option.Hash={hash} -games 2 -rounds 1 -db m.sqlite"
        )
    };
    let (o, out, _) = run_line(dir.path(), &line(16));
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("2 games stored in m.sqlite (2 this run"),
        "{out}"
    );
    // The same command resumes: nothing left to play.
    let (_, out, err) = run_line(dir.path(), &line(16));
    assert!(out.contains("(0 this run"), "{out}");
    assert!(!err.contains("new match"), "{err}");
    // Another Hash: a new match, "a-vs-b #2", with games of its own.
    let (o, out, err) = run_line(dir.path(), &line(8));
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("this run plays a new match, \"a-vs-b #2\""),
        "{err}"
    );
    assert!(out.contains("(2 this run"), "{out}");
    let db = dir.path().join("m.sqlite");
    assert_eq!(common::count(&db, "SELECT COUNT(*) FROM tournaments"), 2);
    assert_eq!(common::count(&db, "SELECT COUNT(*) FROM games"), 4);
    // The stored settings name the engine as it played.
    let config: String = rusqlite::Connection::open(&db)
        .expect("db")
        .query_row(
            "SELECT config FROM tournaments WHERE name = 'a-vs-b #2'",
            [],
            |r| r.get(0),
        )
        .expect("config");
    assert!(config.contains("option.Hash=8"), "{config}");
}

#[test]
fn a_match_of_fixed_engines_without_openings_warns_of_copies() {
    let dir = tempfile::tempdir().expect("tmp");
    // Two engines at node budgets replay one game per colour from the initial position.
    let line = "-engine cmd=stockfish name=a nodes=200 -engine cmd=stockfish name=b nodes=100 \
                -each proto=uci -games 2 -rounds 2 -repeat -concurrency 1 -db m.sqlite";
    let (o, out, err) = run_line(dir.path(), line);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("warning: 2 ordered pairs of players that play by a fixed rule")
            && err.contains("a–b")
            && err.contains("-openings"),
        "{err}"
    );
    // From a book, every game starts elsewhere: no warning.
    let line = format!(
        "-engine cmd=stockfish name=a nodes=200 -engine cmd=stockfish name=b nodes=100 \
         -each proto=uci -games 2 -rounds 2 -repeat -concurrency 1 -db m2.sqlite \
         -openings file={} format=epd order=random",
        book()
    );
    let (o, out, err) = run_line(dir.path(), &line);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(!err.contains("copies"), "{err}");
}
