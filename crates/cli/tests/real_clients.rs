//! `eloworld match` in fastchess's place under the two tools that drive fastchess: each test
//! runs the command line the tool's source builds, against Debian's Stockfish, and reads our
//! output by that tool's own rules (its patterns and token reading, rewritten here in Rust).
//! The counts the tool would upload must equal the games in the store.

use regex::Regex;
use std::path::Path;
use std::process::Output;

mod common;
use common::text;

fn book() -> String {
    common::repo()
        .join("data/books/UHO_4060_v4.first2000.epd")
        .display()
        .to_string()
}

/// The first engine's wins, losses and draws in the store `db`, and its games.
fn stored_wld(db: &Path, first: &str) -> (i64, i64, i64, i64) {
    let side = |result: &str| {
        format!(
            "SELECT COUNT(*) FROM games g JOIN jobs j ON j.id = g.job_id \
             JOIN players w ON w.tournament_id = j.tournament_id AND w.idx = j.white \
             JOIN players b ON b.tournament_id = j.tournament_id AND b.idx = j.black \
             WHERE {result}"
        )
    };
    let wins = common::count(
        db,
        &side(&format!(
            "(w.spec = '{first}' AND g.result = '1-0') OR (b.spec = '{first}' AND g.result = '0-1')"
        )),
    );
    let losses = common::count(
        db,
        &side(&format!(
            "(w.spec = '{first}' AND g.result = '0-1') OR (b.spec = '{first}' AND g.result = '1-0')"
        )),
    );
    let draws = common::count(db, &side("g.result = '1/2-1/2'"));
    let games = common::count(db, "SELECT COUNT(*) FROM games");
    (wins, losses, draws, games)
}

fn run(dir: &Path, args: &[String]) -> Output {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    common::eloworld(dir, &refs)
}

/// What fishtest's worker keeps of a fastchess run: the last complete results block's
/// W/L/D and pentanomial, the crash and time-loss counts, the PGN's CRC, whether the match
/// finished cleanly, and any line it would stop the run on.
#[derive(Debug, Default)]
struct Fishtest {
    wins: u64,
    losses: u64,
    draws: u64,
    pentanomial: [u64; 5],
    crashes: u64,
    time_losses: u64,
    crc: Option<String>,
    finished_cleanly: bool,
    errors: Vec<String>,
}

/// `parse_fastchess_output` of fishtest's `worker/games.py` at commit
/// b8eecff220b562a0dc2c4e68d1fa02521e06d72c: each line of standard output and standard error
/// is checked for the error and warning patterns, for "has CRC32:", for the per-game words
/// it counts ("disconnect", "stall"; "on time", "timeout"), and for the `Games: …` and
/// `Ptnml(0-2): […]` lines, whose pair it asserts is consistent (games = 2 × pairs).
fn fishtest_reads(lines: &[&str], games_to_play: u64) -> Fishtest {
    let wld = Regex::new(
        r"Games: ([0-9]+), Wins: ([0-9]+), Losses: ([0-9]+), Draws: ([0-9]+), Points: ([0-9.]+) \(",
    )
    .expect("regex");
    let ptnml = Regex::new(r"Ptnml\(0-2\): \[([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+)\]")
        .expect("regex");
    let errors: Vec<Regex> = [
        r"Warning;.*doesn't have option",
        r"Warning; Invalid value for option",
        r"Warning; Failed to set.*option",
        r"Warning; No info line available to extract score from engine",
        r"Warning; Illegal move",
        r"Warning; Could not extract score from engine",
        r"Warning; Illegal PV move",
        r"Warning; Move does not match uci move format",
        r"Warning; PV continues after checkmate",
        r"Warning; PV continues after stalemate",
        r"Warning; PV continues after threefold",
        r"Warning; PV continues after fifty-move rule",
        r"Warning; Incomplete mating PV",
        r"Warning; Too long mating PV",
        r"Warning; Mating PV does not end with checkmate",
        r"Warning; Bestmove does not match beginning of last PV",
        r"Warning; Sign mismatch in mate scores",
        // The warnings it posts to the event log.
        r"Warning; Engine .* is not responsive",
        r"Warning; Engine .* didn't respond",
        r"Warning; No output from",
        r"Warning; No bestmove found from",
    ]
    .iter()
    .map(|p| Regex::new(p).expect("regex"))
    .collect();
    let mut f = Fishtest::default();
    let (mut block_wld, mut block_ptnml): (Option<[u64; 4]>, Option<[u64; 5]>) = (None, None);
    let mut updated = 0;
    for raw in lines {
        let line = raw.trim();
        if line.contains("has CRC32:") {
            f.crc = line.split_whitespace().last().map(str::to_owned);
        }
        if line.contains("Finished match") {
            assert_eq!(
                updated, games_to_play,
                "fishtest: Finished match uncleanly: {line}"
            );
            f.finished_cleanly = true;
        }
        if errors.iter().any(|p| p.is_match(line)) {
            f.errors.push(line.to_owned());
        }
        if line.contains("disconnect") || line.contains("stall") {
            f.crashes += 1;
        }
        if line.contains("on time") || line.contains("timeout") {
            f.time_losses += 1;
        }
        if let Some(c) = wld.captures(line) {
            let n = |i: usize| c[i].parse::<u64>().expect("a count");
            block_wld = Some([n(1), n(2), n(3), n(4)]);
        }
        if let Some(c) = ptnml.captures(line) {
            let n = |i: usize| c[i].parse::<u64>().expect("a count");
            block_ptnml = Some([n(1), n(2), n(3), n(4), n(5)]);
        }
        if let (Some([games, wins, losses, draws]), Some(pairs)) = (block_wld, block_ptnml) {
            assert_eq!(
                games,
                2 * pairs.iter().sum::<u64>(),
                "fishtest asserts games == 2 * sum(ptnml): {line}"
            );
            assert_eq!(wins + losses + draws, games);
            assert!(games <= games_to_play);
            (f.wins, f.losses, f.draws, f.pentanomial) = (wins, losses, draws, pairs);
            updated = games;
            (block_wld, block_ptnml) = (None, None);
        }
    }
    f
}

/// fishtest's worker (`worker/games.py`, `run_games`, commit
/// b8eecff220b562a0dc2c4e68d1fa02521e06d72c) builds this command line for a test of two
/// Stockfish builds with a UHO book and adjudication; here both are Debian's Stockfish, the
/// time control short. Read by its rules, the counts it would upload are the games stored,
/// and the CRC it checks before uploading the PGN is the file's.
#[test]
fn fishtest_worker_command_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (rounds, concurrency) = (3, 2);
    let games_to_play = 2 * rounds;
    let new = "New-5d8d61e1a2";
    let base = "Base-3c6a5b8b1e";
    let pgn_name = "results-6652b4a7-0.pgn";
    let args: Vec<String> = [
        "match",
        "-testEnv",
        "-recover",
        "-repeat",
        "-games",
        "2",
        "-rounds",
        &rounds.to_string(),
        "-ratinginterval",
        "1",
        "-scoreinterval",
        "1",
        "-autosaveinterval",
        "0",
        "-report",
        "penta=true",
        "-pgnout",
        &format!("file={pgn_name}"),
        "append=false",
        "-crc32",
        "pgn=true",
        "-site",
        "https://tests.stockfishchess.org/tests/view/6652b4a7",
        "-event",
        &format!("Batch 0: {new} vs {base}"),
        "-srand",
        "1717",
        "-resign",
        "movecount=3",
        "score=600",
        "-draw",
        "movenumber=34",
        "movecount=8",
        "score=20",
        "-variant",
        "standard",
        "-concurrency",
        &concurrency.to_string(),
        "-openings",
        &format!("file={}", book()),
        "format=epd",
        "order=random",
        "plies=16",
        "start=1",
        "-check-mate-pvs",
        "-engine",
        &format!("name={new}"),
        "tc=1+0.01",
        "cmd=/usr/games/stockfish",
        "dir=.",
        "option.Hash=16",
        "-engine",
        &format!("name={base}"),
        "tc=1+0.01",
        "cmd=/usr/games/stockfish",
        "dir=.",
        "option.Hash=16",
        "-each",
        "proto=uci",
        "option.Threads=1",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    // A stale file from an earlier task: append=false starts the PGN anew.
    common::write(dir.path(), pgn_name, "[Event \"stale\"]\n\n*\n\n");
    let o = run(dir.path(), &args);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    // fishtest's worker raises on a non-zero exit; it reads both streams line by line.
    let lines: Vec<&str> = out.lines().chain(err.lines()).collect();
    let f = fishtest_reads(&lines, games_to_play);
    assert!(f.finished_cleanly, "{out}");
    // Under -check-mate-pvs Debian's Stockfish 15.1 announces mates with shorter lines, and
    // we warn of them as fastchess does; fishtest exempts official releases such as 15.1
    // from its error patterns (`release_names`), so only other errors count here.
    let errors: Vec<&String> = f
        .errors
        .iter()
        .filter(|l| !(l.contains("mating PV - from ") && l.contains(" :: Info; info ")))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let db = dir.path().join(format!("Batch 0: {new} vs {base}.sqlite"));
    let (wins, losses, draws, games) = stored_wld(&db, new);
    assert_eq!(games, games_to_play as i64, "{out}");
    assert_eq!(
        (f.wins, f.losses, f.draws),
        (wins as u64, losses as u64, draws as u64),
        "{out}"
    );
    assert_eq!(f.pentanomial.iter().sum::<u64>(), rounds);
    let crashes = common::count(
        &db,
        "SELECT COUNT(*) FROM games WHERE termination IN ('engine-crashed', 'engine-timeout')",
    );
    let forfeits = common::count(
        &db,
        "SELECT COUNT(*) FROM games WHERE termination = 'time-forfeit'",
    );
    assert_eq!(
        (f.crashes, f.time_losses),
        (crashes as u64, forfeits as u64)
    );
    // The PGN: this run's games only, and the CRC fishtest compares (Python's
    // `hex(zlib.crc32(data))`).
    let pgn = std::fs::read(dir.path().join(pgn_name)).expect("the PGN");
    let crc = format!("{:#x}", crc32(&pgn));
    assert_eq!(f.crc.as_deref(), Some(crc.as_str()), "{out}");
    let text = String::from_utf8(pgn).expect("utf-8");
    assert!(!text.contains("stale"), "append=false starts anew");
    assert_eq!(text.matches("[Event ").count() as u64, games_to_play);
    // Nothing it would not do is silently dropped: the flags without effect are named.
    for flag in ["-scoreinterval", "-autosaveinterval"] {
        assert!(err.contains(flag), "{flag} named in a note: {err}");
    }
    // -testEnv and -check-mate-pvs have their effect (the mate-PV warnings, on one line).
    assert!(
        !err.contains("-testEnv") && !err.contains("-check-mate-pvs"),
        "{err}"
    );
    assert_eq!(
        text.matches("[Site \"https://tests.stockfishchess.org/tests/view/6652b4a7\"]")
            .count() as u64,
        games_to_play
    );
}

/// zlib's CRC-32 (reflected, polynomial 0xEDB88320), computed bit by bit: what Python's
/// `zlib.crc32` returns.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// What OpenBench's client keeps of a match runner's output: trinomial and pentanomial
/// counts from the first engine's side, and the crash, time-loss and illegal-move counts.
#[derive(Debug, Default, PartialEq)]
struct OpenBench {
    trinomial: [u64; 3],
    pentanomial: [u64; 5],
    crashes: u64,
    time_losses: u64,
    illegals: u64,
}

/// `run_and_parse_runner` and `MatchRunner.update_results` of OpenBench's `Client/worker.py`
/// at commit 9906bad18e044c4b455539317b8cf037393a7218: standard output is read a line at a
/// time as ASCII and reading stops at the first empty line; a `Finished game` line is split
/// at ':' for the reason words and at whitespace for game number (token 2) and result
/// (token 6); games 2k−1 and 2k are a pair, the first engine White in the first.
fn openbench_reads(stdout: &[u8]) -> OpenBench {
    let text = std::str::from_utf8(stdout).expect("OpenBench decodes the output as ASCII");
    assert!(text.is_ascii(), "OpenBench decodes the output as ASCII");
    let mut r = OpenBench::default();
    let mut games: std::collections::HashMap<u64, String> = std::collections::HashMap::new();
    let index = |s: &str| match s {
        "0-1" => 0,
        "1/2-1/2" => 1,
        "1-0" => 2,
        other => panic!("OpenBench's lookup has no result {other:?}"),
    };
    for raw in text.split_inclusive('\n') {
        let line = raw.trim();
        if line.is_empty() {
            break;
        }
        if !line.contains("Finished game") {
            continue;
        }
        let reason = line.split(':').nth(1).expect("a ':' in the line");
        r.crashes += u64::from(reason.contains("disconnect") || reason.contains("stalls"));
        r.time_losses += u64::from(reason.contains("on time"));
        r.illegals += u64::from(reason.contains("illegal"));
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let game: u64 = tokens[2].parse().expect("a game number");
        games.insert(game, tokens[6].to_owned());
        let (first, second) = if game % 2 == 1 {
            (game, game + 1)
        } else {
            (game - 1, game)
        };
        let (Some(r1), Some(r2)) = (games.get(&first), games.get(&second)) else {
            continue;
        };
        let (a, b) = (index(r1), index(r2));
        r.pentanomial[a + 2 - b] += 1;
        r.trinomial[a] += 1;
        r.trinomial[2 - b] += 1;
        games.remove(&first);
        games.remove(&second);
    }
    r
}

/// OpenBench's client (`Client/worker.py`, `build_runner_command`, commit
/// 9906bad18e044c4b455539317b8cf037393a7218) builds this line for a fixed-nodes test with an
/// EPD book, adjudication and a PGN with seldepth, nodes and a `match_line`; the engines
/// are Debian's Stockfish. Its reader's counts equal the games stored.
#[test]
fn openbench_client_command_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("Books")).expect("mkdir");
    std::fs::create_dir(dir.path().join("Engines")).expect("mkdir");
    std::fs::create_dir(dir.path().join("PGNs")).expect("mkdir");
    std::fs::copy(book(), dir.path().join("Books/UHO_4060_v4.epd")).expect("copy book");
    std::os::unix::fs::symlink(
        "/usr/games/stockfish",
        dir.path().join("Engines/Stockfish-1a2b"),
    )
    .expect("symlink");
    std::os::unix::fs::symlink(
        "/usr/games/stockfish",
        dir.path().join("Engines/Stockfish-3c4d"),
    )
    .expect("symlink");
    let rounds = 4;
    // The client joins these with spaces and splits them with shlex.
    let line = format!(
        "./fastchess-ob -recover -variant standard -testEnv \
         -concurrency 2 -rounds {rounds} -games 2 \
         -resign movecount=3 score=400 -draw movenumber=40 movecount=8 score=10  \
         -engine dir=Engines/ cmd=./Stockfish-1a2b proto=uci tc=inf nodes=3000 option.Threads=1 option.Hash=8 name=Stockfish-dev \
         -engine dir=Engines/ cmd=./Stockfish-3c4d proto=uci tc=inf nodes=2000 option.Threads=1 option.Hash=8 name=Stockfish-base \
         -openings file=Books/UHO_4060_v4.epd format=epd order=random start=37 -srand 2961 \
         -pgnout file=PGNs/12.345.1760000000.0.pgn seldepth=true nodes=true match_line='^info string pgncomment .*'"
    );
    let mut args: Vec<String> = vec!["match".to_owned()];
    args.extend(shell_words(&line).into_iter().skip(1));
    let o = run(dir.path(), &args);
    let (_, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let r = openbench_reads(&o.stdout);
    let db = dir.path().join("Stockfish-dev-vs-Stockfish-base.sqlite");
    let (wins, losses, draws, games) = stored_wld(&db, "Stockfish-dev");
    assert_eq!(games, 2 * rounds);
    assert_eq!(
        r.trinomial,
        [losses as u64, draws as u64, wins as u64],
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(r.pentanomial.iter().sum::<u64>(), rounds as u64);
    assert_eq!((r.crashes, r.time_losses, r.illegals), (0, 0, 0));
    // The PGN it slices game by game (headers, a blank line, the moves).
    let pgn =
        std::fs::read_to_string(dir.path().join("PGNs/12.345.1760000000.0.pgn")).expect("the PGN");
    assert_eq!(pgn.matches("[Event ").count() as i64, games);
}

/// Splits a command line as Python's `shlex.split` does for what OpenBench writes: words at
/// whitespace, single quotes keeping their content whole.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// fishtest's worker (`worker/games.py`, `launch_fastchess`, commit
/// b8eecff220b562a0dc2c4e68d1fa02521e06d72c) tunes by SPSA in batches: it reruns one command
/// line, the same `-event "Batch {task_id}: …"`, each batch with the openings from another
/// `start=` and other `option.X=` values, and reads each run as a fresh match, as fastchess
/// plays one. Each batch here plays all its games into the same store, and its results block
/// counts only its own; the same batch run again resumes it and plays nothing more.
#[test]
fn fishtest_spsa_batches_rerun_one_event_as_new_matches() {
    let dir = tempfile::tempdir().expect("tempdir");
    let event = "Batch 7: New-spsa vs Base-spsa";
    let batch = |start: u32, hash: u32| -> Vec<String> {
        let mut args = shell_words(&format!(
            "match -recover -repeat -games 2 -rounds 2 -ratinginterval 1 -report penta=true \
             -srand 4242 -concurrency 2 \
             -openings file={} format=epd order=random start={start} \
             -engine name=New-spsa nodes=1500 cmd=/usr/games/stockfish option.Hash={hash} \
             -engine name=Base-spsa nodes=1500 cmd=/usr/games/stockfish option.Hash=16 \
             -each proto=uci option.Threads=1",
            book()
        ));
        args.extend(["-event".to_owned(), event.to_owned()]);
        args
    };
    let db = dir.path().join(format!("{event}.sqlite"));
    let tournaments = || {
        common::count(
            &db,
            &format!("SELECT COUNT(*) FROM tournaments WHERE name LIKE '{event}%'"),
        )
    };
    let games_of = |name: &str| {
        common::count(
            &db,
            &format!(
                "SELECT COUNT(*) FROM games g JOIN jobs j ON j.id = g.job_id \
                 JOIN tournaments t ON t.id = j.tournament_id WHERE t.name = '{name}'"
            ),
        )
    };
    for (n, (start, hash)) in [(1, 16), (5, 8)].into_iter().enumerate() {
        let o = run(dir.path(), &batch(start, hash));
        let (out, err) = text(&o);
        assert!(o.status.success(), "batch {n}: {out}\n{err}");
        let lines: Vec<&str> = out.lines().chain(err.lines()).collect();
        let f = fishtest_reads(&lines, 4);
        assert!(f.finished_cleanly, "{out}");
        assert_eq!(
            f.wins + f.losses + f.draws,
            4,
            "only this batch's games: {out}"
        );
        assert_eq!(f.pentanomial.iter().sum::<u64>(), 2, "{out}");
        assert!(out.contains("4 games stored"), "{out}");
        assert_eq!(tournaments(), n as i64 + 1);
        if n == 1 {
            assert!(err.contains(&format!("{event} #2")), "one note: {err}");
            assert_eq!(err.matches("plays a new match").count(), 1, "{err}");
        } else {
            assert!(!err.contains("new match"), "{err}");
        }
    }
    assert_eq!((games_of(event), games_of(&format!("{event} #2"))), (4, 4));
    // The second batch's command again: its match is found under its number and resumed.
    let o = run(dir.path(), &batch(5, 8));
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("(0 this run"), "{out}");
    assert_eq!(tournaments(), 2);
}

/// `PGNHelper.slice_pgn_file` and `get_error_reason` of OpenBench's `Client/worker.py` at
/// commit 9906bad18e044c4b455539317b8cf037393a7218: the PGN is cut into games at empty lines
/// (headers, then moves), and a game whose `Termination` tag contains `abandoned`, `stalled`
/// or `illegal` is reported to the server as an engine error of that kind.
fn openbench_pgn_errors(pgn: &str) -> Vec<&'static str> {
    let mut errors = Vec::new();
    let mut lines = pgn.lines().map(str::trim_end);
    loop {
        let headers: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
        let moves: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
        if headers.is_empty() || moves.is_empty() {
            break;
        }
        let reason = headers
            .iter()
            .find_map(|l| l.strip_prefix("[Termination "))
            .and_then(|v| v.split('"').nth(1));
        match reason {
            Some(r) if r.contains("abandoned") => errors.push("Disconnect"),
            Some(r) if r.contains("stalled") => errors.push("Stalled"),
            Some(r) if r.contains("illegal") => errors.push("Illegal Move"),
            _ => {}
        }
    }
    errors
}

/// A UCI engine (a small script) that answers `go` with `ANSWER`: a move that is never legal,
/// an exit (a crash), or a legal first move too late.
fn scripted_uci(dir: &Path, name: &str, answer: &str) {
    let script = format!(
        "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n    \
         uci) echo 'id name {name}'; echo uciok ;;\n    \
         isready) echo readyok ;;\n    \
         go) {answer} ;;\n    \
         quit) exit 0 ;;\n  esac\ndone\n"
    );
    let path = dir.join(name);
    std::fs::write(&path, script).expect("write");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// The match's PGN carries fastchess's `Termination` values (`abandoned`, `illegal move`,
/// `time forfeit`), so OpenBench's client reports a crash and an illegal move as engine
/// errors and a time loss as none, as it does for fastchess; its per-game line counts agree.
/// The store keeps its own codes. Against Debian's Stockfish, games end `normal` or by
/// `adjudication` and nothing is reported.
#[test]
fn openbench_reads_engine_errors_from_the_pgn_termination() {
    let dir = tempfile::tempdir().expect("tempdir");
    scripted_uci(dir.path(), "illegal", "echo 'bestmove e1e8'");
    scripted_uci(dir.path(), "crasher", "exit 3");
    scripted_uci(dir.path(), "sleeper", "sleep 1; echo 'bestmove e2e4'");
    let cases = [
        (
            "illegal",
            "illegal move",
            "Illegal Move",
            "illegal-move",
            (0, 0, 2),
        ),
        (
            "crasher",
            "abandoned",
            "Disconnect",
            "engine-crashed",
            (2, 0, 0),
        ),
        ("sleeper", "time forfeit", "", "time-forfeit", (0, 2, 0)),
    ];
    for (engine, tag, error, code, counts) in cases {
        let args: Vec<String> = [
            "match",
            "-engine",
            &format!("cmd=./{engine}"),
            &format!("name={engine}"),
            "tc=0.3+0",
            "-engine",
            "cmd=stockfish",
            "name=sf",
            "tc=0.3+0",
            "-rounds",
            "1",
            "-games",
            "2",
            "-pgnout",
            &format!("file={engine}.pgn"),
            "-db",
            &format!("{engine}.sqlite"),
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let o = run(dir.path(), &args);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{out}\n{err}");
        let r = openbench_reads(&o.stdout);
        assert_eq!((r.crashes, r.time_losses, r.illegals), counts, "{out}");
        let pgn = std::fs::read_to_string(dir.path().join(format!("{engine}.pgn"))).expect("pgn");
        assert_eq!(
            pgn.matches(&format!("[Termination \"{tag}\"]")).count(),
            2,
            "{pgn}"
        );
        let expected: Vec<&str> = if error.is_empty() {
            Vec::new()
        } else {
            vec![error, error]
        };
        assert_eq!(openbench_pgn_errors(&pgn), expected, "{pgn}");
        let db = dir.path().join(format!("{engine}.sqlite"));
        assert_eq!(
            common::count(
                &db,
                &format!("SELECT COUNT(*) FROM games WHERE termination = '{code}'")
            ),
            2
        );
    }
    // Real Stockfish, with adjudication: every game normal or adjudicated, no error reported.
    let o = run(
        dir.path(),
        &shell_words(
            "match -engine cmd=stockfish name=a nodes=20000 -engine cmd=stockfish name=b \
             nodes=1 -resign movecount=3 score=400 -rounds 2 -games 2 -pgnout file=sf.pgn \
             -db sf.sqlite",
        ),
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let pgn = std::fs::read_to_string(dir.path().join("sf.pgn")).expect("pgn");
    let normal = pgn.matches("[Termination \"normal\"]").count();
    let adjudicated = pgn.matches("[Termination \"adjudication\"]").count();
    assert_eq!(normal + adjudicated, 4, "{pgn}");
    assert!(adjudicated > 0, "{pgn}");
    assert!(openbench_pgn_errors(&pgn).is_empty(), "{pgn}");
}
