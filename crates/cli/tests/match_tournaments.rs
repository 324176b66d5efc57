//! `eloworld match` with more than two engines (`-tournament roundrobin|gauntlet`), and the
//! options cutechess-cli users have that fastchess lacks (`-noswap`, `-reverse`,
//! `-outcomeinterval`, `-debug`, `-bookmode`), with Debian's Stockfish; and Chess960 PGN.

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

fn run(dir: &Path, line: &str) -> Output {
    let mut args = vec!["match".to_owned()];
    args.extend(line.split_whitespace().map(str::to_owned));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    common::eloworld(dir, &refs)
}

fn ok(dir: &Path, line: &str) -> (String, String) {
    let o = run(dir, line);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{line}\n{out}\n{err}");
    (out, err)
}

/// `(white, black)` player names of every stored game, in job order.
fn stored_colours(db: &Path) -> Vec<(String, String)> {
    let c = rusqlite::Connection::open(db).expect("open db");
    let mut st = c
        .prepare(
            "SELECT w.spec, b.spec FROM games g JOIN jobs j ON j.id = g.job_id \
             JOIN players w ON w.tournament_id = j.tournament_id AND w.idx = j.white \
             JOIN players b ON b.tournament_id = j.tournament_id AND b.idx = j.black \
             ORDER BY j.key",
        )
        .expect("query");
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("rows")
        .map(|r| r.expect("row"))
        .collect()
}

/// A round robin of four Stockfish node budgets: every pairing plays each opening with both
/// colours, the table lists every engine's score, and the ratings printed are those
/// `eloworld rate` computes from the store.
#[test]
fn a_round_robin_of_four_rates_as_eloworld_rate_does() {
    let dir = tempfile::tempdir().expect("tempdir");
    let line = format!(
        "-engine cmd=stockfish name=sf100 nodes=100 -engine cmd=stockfish name=sf300 nodes=300 \
         -engine cmd=stockfish name=sf900 nodes=900 -engine cmd=stockfish name=sf2700 nodes=2700 \
         -each proto=uci option.Hash=8 -tournament roundrobin -rounds 1 -games 2 -repeat \
         -concurrency 2 -openings file={} order=random -srand 5 -db rr.sqlite",
        book()
    );
    let (out, _) = ok(dir.path(), &line);
    let games = stored_colours(&dir.path().join("rr.sqlite"));
    assert_eq!(games.len(), 6 * 2, "six pairings, two games each: {out}");
    for (a, b) in [("sf100", "sf300"), ("sf300", "sf2700"), ("sf900", "sf100")] {
        for (w, bl) in [(a, b), (b, a)] {
            assert_eq!(
                games.iter().filter(|(x, y)| x == w && y == bl).count(),
                1,
                "{w} White against {bl} once"
            );
        }
    }
    for name in ["sf100", "sf300", "sf900", "sf2700"] {
        assert!(
            out.lines().any(|l| l.contains(name) && l.contains(" 6 ")),
            "{name} has a row with its six games: {out}"
        );
    }
    let rated = common::ok(dir.path(), &["rate", "--db", "rr.sqlite"]);
    let first_table: String = rated
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(first_table.lines().count() > 4, "{rated}");
    assert!(
        out.contains(&first_table),
        "the match prints the ratings `eloworld rate` gives:\n{first_table}\n---\n{out}"
    );
    // Resuming plays nothing more and prints the same table.
    let (again, _) = ok(dir.path(), &line);
    assert!(again.contains(&first_table), "{again}");
    assert!(again.contains("12 games stored"), "{again}");
}

/// A gauntlet with one seed plays only the seeded engine's pairings, each with both colours.
#[test]
fn a_gauntlet_plays_only_the_seeded_engines_pairings() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (out, _) = ok(
        dir.path(),
        "-engine cmd=stockfish name=test nodes=500 -engine cmd=stockfish name=opp1 nodes=200 \
         -engine cmd=stockfish name=opp2 nodes=300 -each proto=uci \
         -tournament gauntlet -seeds 1 -rounds 2 -games 2 -db g.sqlite",
    );
    let games = stored_colours(&dir.path().join("g.sqlite"));
    assert_eq!(games.len(), 2 * 2 * 2, "{out}");
    assert!(
        games.iter().all(|(w, b)| w == "test" || b == "test"),
        "{games:?}"
    );
    for opp in ["opp1", "opp2"] {
        let as_white = games
            .iter()
            .filter(|(w, b)| w == "test" && b == opp)
            .count();
        let as_black = games
            .iter()
            .filter(|(w, b)| w == opp && b == "test")
            .count();
        assert_eq!((as_white, as_black), (2, 2), "{games:?}");
    }
}

/// An SPRT compares two engines: with three it is an error before anything is played.
#[test]
fn an_sprt_of_three_engines_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let o = run(
        dir.path(),
        "-engine cmd=stockfish name=a -engine cmd=stockfish name=b -engine cmd=stockfish name=c \
         -each nodes=100 -sprt elo0=0 elo1=5 -db s.sqlite",
    );
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(err.contains("-sprt tests two engines, not 3"), "{err}");
    assert!(!dir.path().join("s.sqlite").exists(), "nothing stored");
}

/// `-noswap` keeps the first engine White, `-reverse` gives the second engine White first.
#[test]
fn noswap_and_reverse_set_the_colours() {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = "-engine cmd=stockfish name=a -engine cmd=stockfish name=b -each nodes=100 \
                -rounds 2 -games 2";
    ok(dir.path(), &format!("{base} -noswap -db n.sqlite"));
    let games = stored_colours(&dir.path().join("n.sqlite"));
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|(w, _)| w == "a"), "{games:?}");
    ok(dir.path(), &format!("{base} -reverse -db r.sqlite"));
    let games = stored_colours(&dir.path().join("r.sqlite"));
    let whites: Vec<&str> = games.iter().map(|(w, _)| w.as_str()).collect();
    assert_eq!(whites, ["b", "a", "b", "a"]);
}

/// `-outcomeinterval N` prints every Nth `Finished game` line; `-debug` shows the engines'
/// traffic on standard error, labelled with their `name=`; `-bookmode` and `whitepov` are named in a note.
#[test]
fn cutechess_display_options() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (out, err) = ok(
        dir.path(),
        "-engine cmd=stockfish name=a -engine cmd=stockfish name=b -each nodes=100 whitepov \
         -rounds 2 -games 2 -outcomeinterval 2 -debug -bookmode ram -db d.sqlite",
    );
    let finished: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .collect();
    assert_eq!(finished.len(), 2, "{out}");
    assert!(finished[0].starts_with("Finished game 2 "), "{out}");
    assert!(
        err.lines()
            .any(|l| (l.contains(" a(") || l.contains(" b(")) && l.ends_with("< uci")),
        "what is sent: {err}"
    );
    assert!(
        err.lines()
            .any(|l| (l.contains(" a(") || l.contains(" b(")) && l.ends_with("> uciok")),
        "what is received: {err}"
    );
    assert!(err.contains("note: -bookmode ram"), "{err}");
    assert!(err.contains("note: -each whitepov"), "{err}");
}

/// `-each ponder`: after its move an engine searches the reply it expects on its
/// opponent's time (`go ponder`), told `ponderhit` when that reply comes and `stop` when
/// another does; no game ends by a fault. (Time forfeits are not asserted: on a loaded
/// 2-core machine two engines searching at once flag at this clock with or without it.)
#[test]
fn engines_ponder_on_the_opponents_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (out, err) = ok(
        dir.path(),
        "-engine cmd=stockfish name=a -engine cmd=stockfish name=b \
         -each tc=2+0.05 ponder option.Hash=8 -rounds 1 -games 2 -concurrency 1 -debug \
         -db p.sqlite",
    );
    let sent = |what: &str| {
        err.lines()
            .filter(|l| l.contains(&format!("< {what}")))
            .count()
    };
    assert!(sent("setoption name Ponder value true") >= 2, "{err}");
    assert!(
        sent("go ponder") > 10,
        "searches on the opponent's time: {err}"
    );
    assert!(sent("ponderhit") > 0, "expected replies played: {err}");
    assert_eq!(
        common::count(
            &dir.path().join("p.sqlite"),
            "SELECT COUNT(*) FROM games WHERE termination IN ('engine-crashed', 'engine-timeout', 'illegal-move')"
        ),
        0,
        "{out}"
    );
}

/// A Chess960 game's PGN carries `[Variant "Chess960"]` with its start position, as
/// fastchess writes it, in the live PGN and in the store's export.
#[test]
fn chess960_pgn_has_a_variant_tag() {
    let dir = tempfile::tempdir().expect("tempdir");
    ok(
        dir.path(),
        "-engine cmd=stockfish name=a -engine cmd=stockfish name=b -each nodes=200 \
         -variant fischerandom -rounds 1 -games 2 -srand 3 -pgnout file=frc.pgn -db f.sqlite",
    );
    let pgn = std::fs::read_to_string(dir.path().join("frc.pgn")).expect("pgn");
    assert_eq!(pgn.matches("[Variant \"Chess960\"]").count(), 2, "{pgn}");
    assert_eq!(pgn.matches("[FEN ").count(), 2, "{pgn}");
    common::ok(
        dir.path(),
        &["export", "--db", "f.sqlite", "--pgn", "all.pgn"],
    );
    let exported = std::fs::read_to_string(dir.path().join("all.pgn")).expect("export");
    assert_eq!(exported.matches("[Variant \"Chess960\"]").count(), 2);
    // A standard game has none.
    ok(
        dir.path(),
        "-engine cmd=stockfish name=a -engine cmd=stockfish name=b -each nodes=200 \
         -rounds 1 -games 1 -pgnout file=std.pgn -db s.sqlite",
    );
    let std_pgn = std::fs::read_to_string(dir.path().join("std.pgn")).expect("pgn");
    assert!(!std_pgn.contains("[Variant"), "{std_pgn}");
}

/// Games stored per stage tournament, by name.
fn games_per_stage(db: &Path) -> Vec<(String, i64)> {
    let c = rusqlite::Connection::open(db).expect("open db");
    let mut st = c
        .prepare(
            "SELECT t.name, COUNT(*) FROM games g JOIN jobs j ON j.id = g.job_id \
             JOIN tournaments t ON t.id = j.tournament_id GROUP BY t.name ORDER BY t.name",
        )
        .expect("query");
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("rows")
        .map(|r| r.expect("row"))
        .collect()
}

/// A knockout of five engines, as cutechess-cli's `-tournament knockout`: a bracket of
/// eight, so seeds 1–3 have byes and only seeds 4 and 5 play the first round. Those two
/// are the same Stockfish at the same node budget, so each colour-swapped pair from one
/// opening is level: four tiebreak pairs are played (a stage each in the store), then the
/// higher seed goes on. Then two semi-finals and a final; the bracket is printed, the PGN
/// holds exactly the stored games, and a rerun plays nothing again.
#[test]
fn a_knockout_of_five_plays_its_bracket_with_byes_and_tiebreaks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let line = format!(
        "-engine cmd=stockfish name=sf4000 nodes=4000 -engine cmd=stockfish name=sf1000 nodes=1000 \
         -engine cmd=stockfish name=sf300 nodes=300 -engine cmd=stockfish name=sfa nodes=60 \
         -engine cmd=stockfish name=sfb nodes=60 -each proto=uci option.Hash=8 option.Threads=1 \
         -tournament knockout -games 2 -rounds 1 -maxmoves 30 -concurrency 2 \
         -openings file={} order=sequential -event ko -pgnout file=ko.pgn -db ko.sqlite",
        book()
    );
    let (out, err) = ok(dir.path(), &line);
    assert!(
        err.contains(
            "Round 1\n  sf4000 (1) bye\n  sfa (4) 5 - 5 sfb (5) (level after 4 tiebreak pairs: \
             the higher seed goes on)\n  sf1000 (2) bye\n  sf300 (3) bye\nRound 2\n  sf4000 (1) "
        ),
        "{err}"
    );
    assert!(err.contains(" sfa (4)"), "{err}");
    assert!(err.contains("\n  sf1000 (2) "), "{err}");
    assert!(err.contains(" sf300 (3)"), "{err}");
    assert!(err.contains("Round 3\n"), "{err}");
    assert!(err.contains("\nWinner: "), "{err}");
    let db = dir.path().join("ko.sqlite");
    let stages = games_per_stage(&db);
    let stage = |name: &str| {
        stages
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, games)| *games)
    };
    assert_eq!(stage("ko/round-1"), 2, "{stages:?}");
    for t in 1..=4 {
        assert_eq!(stage(&format!("ko/round-1/tiebreak-{t}")), 2, "{stages:?}");
    }
    assert!(
        stage("ko/round-2") == 4 && stage("ko/round-3") >= 2,
        "{stages:?}"
    );
    let stored: i64 = stages.iter().map(|(_, g)| g).sum();
    // Only seeds 4 and 5 play round 1.
    let round_one = common::count(
        &db,
        "SELECT COUNT(*) FROM games g JOIN jobs j ON j.id = g.job_id \
         JOIN tournaments t ON t.id = j.tournament_id \
         JOIN players w ON w.tournament_id = j.tournament_id AND w.idx = j.white \
         WHERE t.name LIKE 'ko/round-1%' AND w.spec NOT IN ('sfa', 'sfb')",
    );
    assert_eq!(round_one, 0);
    let pgn = std::fs::read_to_string(dir.path().join("ko.pgn")).expect("the PGN");
    assert_eq!(pgn.matches("[Event ").count() as i64, stored, "{out}");
    // Resumed: every stage is stored, nothing is played again, the bracket is the same.
    let (again, err_again) = ok(dir.path(), &line);
    assert!(
        again.contains(&format!("{stored} games stored in ko.sqlite (0 this run")),
        "{again}"
    );
    let bracket = |text: &str| text[text.find("Round 1").expect("a bracket")..].to_owned();
    assert_eq!(bracket(&err_again), bracket(&err));
    let pgn_again = std::fs::read_to_string(dir.path().join("ko.pgn")).expect("the PGN");
    assert_eq!(pgn_again, pgn);
    the_dashboard_draws_the_bracket_printed(dir.path(), &bracket(&err));
}

/// The dashboard's bracket of the knockout `ko` (`/knockout/ko`, linked from the index and
/// from each stage's page) shows every encounter of the bracket `eloworld match` printed,
/// with the same seeds, points and winner.
fn the_dashboard_draws_the_bracket_printed(dir: &Path, printed: &str) {
    use common::serve::{get, Serving};
    let server = Serving::start(dir, &["--db", "ko.sqlite"]);
    let index = get(server.addr, "/", &[]).text();
    assert!(index.contains("href=\"/knockout/ko\""), "{index}");
    let stage = get(server.addr, "/t/ko%2Fround-1%2Ftiebreak-2", &[]).text();
    assert!(stage.contains("href=\"/knockout/ko\""), "{stage}");
    let reply = get(server.addr, "/knockout/ko", &[]);
    assert_eq!(reply.status, 200);
    let page = reply.text();
    let mut encounters = 0;
    for line in printed.lines().filter(|l| l.contains(" - ")) {
        // `  sfa (4) 5 - 5 sfb (5) (level …)`: each side's name, seed and points.
        let words: Vec<&str> = line.split_whitespace().collect();
        let (first, second) = (
            format!("{} {}", words[0], words[1]),
            format!("{} {}", words[5], words[6]),
        );
        assert!(
            page.contains(&format!("{first}</td><td>{}</td>", words[2])),
            "{line}\n{page}"
        );
        assert!(
            page.contains(&format!("{second}</td><td>{}</td>", words[4])),
            "{line}\n{page}"
        );
        encounters += 1;
    }
    assert_eq!(encounters, 4, "{printed}");
    for bye in ["sf4000 (1)", "sf1000 (2)", "sf300 (3)"] {
        assert!(
            page.contains(&format!("{bye}</td><td></td><td>✓</td>")),
            "{page}"
        );
    }
    assert!(
        page.contains("<tr class=\"winner\"><td class=\"name\">sfa (4)</td><td>5</td><td>✓</td>")
            && page.contains("10 games, level after every tiebreak pair: the higher seed goes on"),
        "{page}"
    );
    let winner = printed
        .lines()
        .find_map(|l| l.strip_prefix("Winner: "))
        .expect("a winner");
    assert!(
        page.contains(&format!(
            "Winner: <strong class=\"winner\">{winner}</strong>"
        )),
        "{page}"
    );
    assert_eq!(get(server.addr, "/knockout/nothing", &[]).status, 404);
}
