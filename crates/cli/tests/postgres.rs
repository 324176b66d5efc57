//! The many-machines store on a real PostgreSQL server: a throwaway cluster started on a
//! loopback port for each test, real `eloworld worker` processes, and faults — a worker
//! killed mid-game, a worker frozen past its lease, a late worker, the server crashed and
//! restarted mid-run. Exactly-once is checked in the database afterwards.
//!
//! Needs Debian's `postgresql` (`scripts/test` installs it). Without it the tests fail on CI
//! (`CI` set) and are skipped with a note elsewhere.
#![expect(
    clippy::print_stderr,
    reason = "a test says what it skipped and what it measured"
)]

mod common;

use common::{eloworld, signal, wait_until};

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    as_postgres: bool,
}

fn pg_bin() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join("pg_ctl").exists())
        .collect();
    versions.sort();
    versions.pop()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

impl Cluster {
    /// Starts a cluster, or returns `None` (with a note) where PostgreSQL is not installed.
    fn start() -> Option<Cluster> {
        let Some(bin) = pg_bin() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "PostgreSQL is not installed; scripts/test installs Debian's postgresql"
            );
            eprintln!("note: PostgreSQL is not installed here; skipping (CI installs it)");
            return None;
        };
        let dir = tempfile::tempdir().expect("tmp");
        let as_postgres = is_root();
        if as_postgres {
            let ok = Command::new("chown")
                .args(["-R", "postgres"])
                .arg(dir.path())
                .status()
                .expect("chown");
            assert!(ok.success());
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .expect("port")
            .local_addr()
            .expect("addr")
            .port();
        let c = Cluster {
            dir,
            bin,
            port,
            as_postgres,
        };
        let data = c.dir.path().join("data");
        c.pg(
            "initdb",
            &[
                "-D",
                &data.to_string_lossy(),
                "-A",
                "trust",
                "-U",
                "eloworld",
                "--no-sync",
            ],
        );
        c.start_server();
        c.pg(
            "createdb",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &port.to_string(),
                "-U",
                "eloworld",
                "elo",
            ],
        );
        Some(c)
    }

    fn pg(&self, tool: &str, args: &[&str]) -> Output {
        let exe = self.bin.join(tool);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&exe);
            c
        } else {
            Command::new(&exe)
        };
        let out = cmd.args(args).stdin(Stdio::null()).output().expect(tool);
        assert!(
            out.status.success(),
            "{tool} {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    fn start_server(&self) {
        let data = self.dir.path().join("data");
        let mut opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1",
            self.port,
            self.dir.path().display()
        );
        if self.dir.path().join("server.crt").exists() {
            let d = self.dir.path().display();
            opts.push_str(&format!(
                " -c ssl=on -c ssl_cert_file={d}/server.crt -c ssl_key_file={d}/server.key"
            ));
        }
        let log = self.dir.path().join("server.log");
        self.pg(
            "pg_ctl",
            &[
                "-D",
                &data.to_string_lossy(),
                "-o",
                &opts,
                "-l",
                &log.to_string_lossy(),
                "-w",
                "start",
            ],
        );
    }

    /// Crashes the server: no shutdown checkpoint, as if the machine lost power.
    fn crash(&self) {
        let data = self.dir.path().join("data");
        self.pg(
            "pg_ctl",
            &[
                "-D",
                &data.to_string_lossy(),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
        );
    }

    fn url(&self) -> String {
        format!("postgres://eloworld@127.0.0.1:{}/elo", self.port)
    }

    fn query_i64(&self, sql: &str) -> i64 {
        let mut c = postgres::Client::connect(&self.url(), postgres::NoTls).expect("connect");
        c.query_one(sql, &[]).expect(sql).get(0)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.dir.path().join("data");
        let exe = self.bin.join("pg_ctl");
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&exe);
            c
        } else {
            Command::new(&exe)
        };
        let _ = cmd
            .args(["-D", &data.to_string_lossy(), "-m", "immediate", "stop"])
            .output();
    }
}

fn spawn_worker(dir: &Path, url: &str, name: &str) -> Child {
    common::command()
        .args([
            "worker",
            "--db",
            url,
            "--threads",
            "1",
            "--lease",
            "2",
            "--name",
            name,
        ])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn worker")
}

fn finish(mut child: Child, limit: Duration) -> (bool, String) {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            return (status.success(), err);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("a worker did not finish in time");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

const GAMES_PER_PAIR: i64 = 30;

fn plan(dir: &Path, url: &str) -> i64 {
    // Squava games of about ten moves at 40 ms a move: half a second each, so workers can
    // be hit mid-game.
    std::fs::write(
        dir.join("t.toml"),
        format!(
            "name = \"faults\"\ngame = \"squava\"\nplayers = [\"random_move:delay_ms=40\", \"random_move:delay_ms=41\", \"random_move:delay_ms=42\"]\ngames_per_pair = {GAMES_PER_PAIR}\nseed = 11\n"
        ),
    )
    .expect("toml");
    let o = eloworld(dir, &["tournament", "t.toml", "--db", url, "--plan-only"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    6 * GAMES_PER_PAIR
}

fn assert_exactly_once(c: &Cluster, planned: i64) {
    assert_eq!(
        c.query_i64("SELECT count(*) FROM games"),
        planned,
        "games stored"
    );
    assert_eq!(
        c.query_i64("SELECT count(DISTINCT job_id) FROM games"),
        planned,
        "distinct jobs"
    );
    assert_eq!(
        c.query_i64("SELECT count(*) FROM jobs WHERE state <> 2"),
        0,
        "jobs not done"
    );
    // Every ordered pair has exactly its games, and the per-pair totals add up.
    assert_eq!(
        c.query_i64(
            "SELECT count(*) FROM (SELECT white, black, count(*) AS n FROM games g JOIN jobs j ON j.id = g.job_id \
             GROUP BY white, black) p WHERE n <> 30"
        ),
        0
    );
    assert_eq!(
        c.query_i64("SELECT sum(n)::bigint FROM (SELECT count(*) AS n FROM games GROUP BY tournament_id, result) r"),
        planned
    );
}

#[test]
fn workers_under_faults_store_every_game_exactly_once() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tmp");
    let url = cluster.url();
    let planned = plan(dir.path(), &url);
    let stored = || cluster.query_i64("SELECT count(*) FROM games");

    let killed = spawn_worker(dir.path(), &url, "killed");
    let frozen = spawn_worker(dir.path(), &url, "frozen");
    let steady = spawn_worker(dir.path(), &url, "steady");
    wait_until("first games", Duration::from_secs(60), || stored() >= 6);

    // A worker dies mid-game: its games in flight are played again elsewhere.
    signal(&killed, "-KILL");
    // A worker freezes past its lease: its claims go to others, its late report is refused.
    signal(&frozen, "-STOP");
    std::thread::sleep(Duration::from_secs(6));
    signal(&frozen, "-CONT");
    // A worker joins late.
    let late = spawn_worker(dir.path(), &url, "late");
    wait_until("more games", Duration::from_secs(60), || stored() >= 40);
    // The server crashes and comes back mid-run.
    cluster.crash();
    std::thread::sleep(Duration::from_secs(2));
    cluster.start_server();

    let mut logs = String::new();
    for w in [frozen, steady, late] {
        let (ok, err) = finish(w, Duration::from_secs(240));
        assert!(ok, "worker failed: {err}");
        logs.push_str(&err);
    }
    let mut k = killed;
    let _ = k.wait();
    assert_exactly_once(&cluster, planned);
    assert!(
        logs.contains("worker frozen, tournament faults: rejected late result for job"),
        "the frozen worker's late report must be refused and logged:\n{logs}"
    );
    // Each worker says once that the server went away, and once that it is back.
    for w in ["steady", "late"] {
        let lines = |what: &str| {
            logs.lines()
                .filter(|l| l.starts_with(&format!("worker {w}: {what}")))
                .count()
        };
        assert_eq!(
            (lines("lost the connection to"), lines("connection to")),
            (1, 1),
            "{w}:\n{logs}"
        );
    }
    // Readers work on PostgreSQL as on SQLite.
    let o = eloworld(dir.path(), &["status", "--db", &url]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success() && out.contains("faults") && out.contains("steady"),
        "{out}"
    );
    let o = eloworld(dir.path(), &["results", "--db", &url]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_single_process_run_killed_with_sigkill_resumes_on_postgres() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tmp");
    let url = cluster.url();
    std::fs::write(
        dir.path().join("t.toml"),
        "name = \"resume\"\nplayers = [\"random_move\", \"first_move_r40000\", \"random_move_r1000\"]\ngames_per_pair = 3000\nseed = 3\nthreads = 2\n",
    )
    .expect("toml");
    // 18,000 random games, a few seconds' run: the runner commits every 1,024 games or
    // 250 ms, so a run of 1,800 could end between two polls and leave nothing to kill.
    let planned = 3 * 2 * 3000;
    let mut child = common::command()
        .args([
            "tournament",
            "t.toml",
            "--db",
            &url,
            "--quiet",
            "--lease",
            "2",
        ])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let stored = || {
        postgres::Client::connect(&url, postgres::NoTls)
            .ok()
            .and_then(|mut c| c.query_one("SELECT count(*) FROM games", &[]).ok())
            .map_or(0, |r| r.get::<_, i64>(0))
    };
    wait_until("games stored", Duration::from_secs(120), || {
        stored() >= 100 || child.try_wait().ok().flatten().is_some()
    });
    let _ = child.kill();
    let _ = child.wait();
    let before = stored();
    assert!(
        before > 0 && before < planned,
        "stored {before} of {planned} before the kill"
    );
    let o = eloworld(
        dir.path(),
        &[
            "tournament",
            "t.toml",
            "--db",
            &url,
            "--quiet",
            "--lease",
            "2",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(cluster.query_i64("SELECT count(*) FROM games"), planned);
    assert_eq!(
        cluster.query_i64("SELECT count(DISTINCT job_id) FROM games"),
        planned
    );
    assert_eq!(
        cluster.query_i64("SELECT count(*) FROM jobs WHERE state <> 2"),
        0
    );
}

/// Two `eloworld tournament` processes of one thread each share one tournament of short
/// games beside another tournament: both end, every game is stored once, the other
/// tournament is untouched, and the store reads one tournament's row and counts alone as the
/// full listings give them (what a run reads at its start and while it waits for the jobs
/// the other process holds).
#[test]
fn two_one_thread_runs_share_a_tournament_and_read_it_alone() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tmp");
    let url = cluster.url();
    for (name, pairs) in [("other", 2), ("shared", 400)] {
        std::fs::write(
            dir.path().join(format!("{name}.toml")),
            format!("name = \"{name}\"\nplayers = [\"random_move\", \"first_move_r40000\"]\ngames_per_pair = {pairs}\nseed = 4\nthreads = 1\n"),
        )
        .expect("toml");
    }
    let o = eloworld(
        dir.path(),
        &["tournament", "other.toml", "--db", &url, "--plan-only"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = eloworld(
        dir.path(),
        &["tournament", "shared.toml", "--db", &url, "--plan-only"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let runs: Vec<Child> = (0..2)
        .map(|_| {
            common::command()
                .args(["tournament", "shared.toml", "--db", &url, "--quiet"])
                .current_dir(dir.path())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    for run in runs {
        let (ok, err) = finish(run, Duration::from_secs(120));
        assert!(ok, "a run failed: {err}");
    }
    let planned = 2 * 400;
    assert_eq!(cluster.query_i64("SELECT count(*) FROM games"), planned);
    assert_eq!(
        cluster.query_i64("SELECT count(DISTINCT job_id) FROM games"),
        planned
    );
    assert_eq!(
        cluster.query_i64(
            "SELECT count(*) FROM jobs j JOIN tournaments t ON t.id = j.tournament_id \
             WHERE t.name = 'shared' AND j.state <> 2"
        ),
        0
    );

    let store = eloworld_tournament::open_store(&url, false).expect("open the store");
    let all = store.tournaments().expect("tournaments");
    let (counts, _) = store.status().expect("status");
    assert_eq!(all.len(), 2);
    for (row, count) in all.iter().zip(&counts) {
        assert_eq!(
            store.tournament(row.id).expect("one row").as_ref(),
            Some(row)
        );
        assert_eq!(
            store.tournament_status(row.id).expect("one count").as_ref(),
            Some(count)
        );
    }
    let shared = store.tournament(all[1].id).expect("row").expect("stored");
    assert_eq!(
        (shared.name.as_str(), shared.total, shared.done),
        ("shared", 800, 800)
    );
    let other = store
        .tournament_status(all[0].id)
        .expect("count")
        .expect("stored");
    assert_eq!((other.done, other.pending, other.running), (0, 4, 0));
    let none = all.iter().map(|r| r.id).max().unwrap_or(0) + 1;
    assert_eq!(store.tournament(none).expect("no row"), None);
    assert_eq!(store.tournament_status(none).expect("no count"), None);
}

#[test]
fn each_sslmode_means_what_libpq_means() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let d = cluster.dir.path();
    // A self-signed certificate for 127.0.0.1, and a server that accepts only TLS over TCP.
    let ok = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
        ])
        .args(["-addext", "subjectAltName=IP:127.0.0.1", "-keyout"])
        .arg(d.join("server.key"))
        .arg("-out")
        .arg(d.join("server.crt"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("openssl");
    assert!(ok.success());
    std::fs::write(
        d.join("data/pg_hba.conf"),
        "local all all trust\nhostssl all all 127.0.0.1/32 trust\n",
    )
    .expect("hba");
    if cluster.as_postgres {
        let _ = Command::new("chown")
            .args(["-R", "postgres"])
            .arg(d)
            .status();
    }
    let _ = Command::new("chmod")
        .arg("600")
        .arg(d.join("server.key"))
        .status();
    cluster.crash();
    cluster.start_server();
    // Another self-signed certificate: a root that did not sign the server's.
    let ok = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        ])
        .args(["-subj", "/CN=other", "-keyout"])
        .arg(d.join("other.key"))
        .arg("-out")
        .arg(d.join("other.crt"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("openssl");
    assert!(ok.success());
    let server_crt = d.join("server.crt").display().to_string();
    let other_crt = d.join("other.crt").display().to_string();
    // `status --db URL` with `sslmode`/`sslrootcert` in the URL (or the environment), HOME
    // without ~/.postgresql/root.crt.
    let run = |host: &str, query: &str, env: &[(&str, &str)]| {
        let url = format!("postgres://eloworld@{host}:{}/elo{query}", cluster.port);
        let mut cmd = common::command();
        cmd.args(["status", "--db", &url])
            .current_dir(d)
            .env("HOME", d)
            .env_remove("PGSSLMODE")
            .env_remove("PGSSLROOTCERT");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let o = cmd.output().expect("run");
        (
            o.status.success(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let ca = |file: &str| format!("&sslrootcert={file}");
    // The server takes only TLS: `disable` cannot connect; `allow`, `prefer` (the default)
    // and `require` encrypt without checking the self-signed certificate.
    let (ok, err) = run("127.0.0.1", "?sslmode=disable", &[]);
    assert!(!ok && err.contains("no encryption"), "disable: {err}");
    for query in ["?sslmode=allow", "", "?sslmode=prefer", "?sslmode=require"] {
        let (ok, err) = run("127.0.0.1", query, &[]);
        assert!(ok, "{query:?}: {err}");
    }
    // `verify-ca` checks the chain: against the server's own certificate it connects, by
    // any name; against another root, or none, it refuses.
    let q = format!("?sslmode=verify-ca{}", ca(&server_crt));
    for host in ["127.0.0.1", "localhost"] {
        let (ok, err) = run(host, &q, &[]);
        assert!(ok, "verify-ca {host}: {err}");
    }
    let (ok, err) = run(
        "127.0.0.1",
        &format!("?sslmode=verify-ca{}", ca(&other_crt)),
        &[],
    );
    assert!(!ok && err.contains("certificate verify failed"), "{err}");
    let (ok, err) = run("127.0.0.1", "?sslmode=verify-ca", &[]);
    assert!(!ok && err.contains("root.crt does not exist"), "{err}");
    // `require` with a root named checks the chain too, as libpq does.
    let (ok, err) = run(
        "127.0.0.1",
        &format!("?sslmode=require{}", ca(&other_crt)),
        &[],
    );
    assert!(!ok && err.contains("certificate verify failed"), "{err}");
    // `verify-full` checks the name as well: the certificate names 127.0.0.1, not localhost.
    let q = format!("?sslmode=verify-full{}", ca(&server_crt));
    let (ok, err) = run("127.0.0.1", &q, &[]);
    assert!(ok, "verify-full: {err}");
    let (ok, err) = run("localhost", &q, &[]);
    assert!(!ok && err.contains("certificate verify failed"), "{err}");
    // The same from the environment.
    let env = [
        ("PGSSLMODE", "verify-full"),
        ("PGSSLROOTCERT", server_crt.as_str()),
    ];
    let (ok, err) = run("127.0.0.1", "", &env);
    assert!(ok, "PGSSLMODE: {err}");
    let (ok, err) = run("localhost", "", &env);
    assert!(!ok && err.contains("certificate verify failed"), "{err}");
    let (ok, err) = run("127.0.0.1", "", &[("PGSSLMODE", "verify")]);
    assert!(!ok && err.contains("PGSSLMODE \"verify\""), "{err}");
}

#[test]
fn passwords_are_never_printed() {
    let dir = tempfile::tempdir().expect("tmp");
    // Nothing listens on port 9 of loopback: the connection fails and the error is printed.
    let o = eloworld(
        dir.path(),
        &["status", "--db", "postgres://ann:hunter2@127.0.0.1:9/elo"],
    );
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success());
    assert!(!err.contains("hunter2"), "{err}");
    assert!(err.contains("postgres://ann:***@127.0.0.1:9/elo"), "{err}");
}

#[test]
fn coevolution_generations_are_played_by_workers_on_postgres() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tmp");
    let book = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/books/2moves_v1.first2000.epd"
    );
    let mut organisms = Vec::new();
    for (i, body) in ["", "KNIGHT_VALUE = 0\n", "QUEEN_VALUE = 500\n"]
        .iter()
        .enumerate()
    {
        let name = format!("o{i}.params");
        std::fs::write(dir.path().join(&name), body).expect("organism");
        organisms.push(name);
    }
    let args = |out: &'static str| {
        let mut a = vec!["evolve", "coevolve", "--out", out, "--book", book, "--from"];
        a.extend(organisms.iter().map(String::as_str));
        a.extend([
            "--generations",
            "3",
            "--nodes",
            "2000",
            "--games-per-pair",
            "8",
            "--threads",
            "1",
        ]);
        a
    };
    // The same evolution in a local SQLite store, for reference.
    let o = eloworld(dir.path(), &args("local"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let reference = std::fs::read_to_string(dir.path().join("local/coevolve.csv")).expect("csv");

    // On the shared store, with a worker on "another machine" helping from the start.
    let url = cluster.url();
    let helper = common::command()
        .args([
            "worker",
            "--db",
            &url,
            "--threads",
            "1",
            "--lease",
            "2",
            "--name",
            "helper",
            "--wait",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn worker");
    // Let the worker start and connect before the evolution plans its first generation. A
    // generation takes about two seconds here (24 games at 2,000 nodes a move): at 400 nodes
    // and 12 games it took 0.3 s, and under CI's load the evolution once played all three
    // before the worker's first look (it looks every 500 ms).
    std::thread::sleep(Duration::from_secs(2));
    let mut shared = args("shared");
    shared.extend(["--db", &url, "--lease", "2"]);
    let o = eloworld(dir.path(), &shared);
    signal(&helper, "-INT");
    let (_, log) = finish(helper, Duration::from_secs(60));
    assert!(
        o.status.success(),
        "{}\nworker: {log}",
        String::from_utf8_lossy(&o.stderr)
    );
    let result = std::fs::read_to_string(dir.path().join("shared/coevolve.csv")).expect("csv");
    assert_eq!(
        result, reference,
        "the same fitness whoever plays the games"
    );
    let planned = 3 * 3 * 8; // generations × pairs × games per pair
    assert_eq!(cluster.query_i64("SELECT count(*) FROM games"), planned);
    assert_eq!(
        cluster.query_i64("SELECT count(DISTINCT job_id) FROM games"),
        planned
    );
    assert!(
        cluster.query_i64("SELECT count(*) FROM games WHERE worker = 'helper'") > 0,
        "the worker played none of the generations' games: {log}"
    );
}

/// The dashboard's incremental reads on PostgreSQL, while a worker plays: the results after
/// a `seq` in order and in pieces, the results of given `seq` values, the jobs in flight with
/// their lease, one game in full, the workers' reports; then `eloworld serve` over the same
/// store shows the count rising, the worker and its claim, and any stored game.
#[test]
fn the_dashboard_reads_a_postgres_store_incrementally() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tmp");
    let url = cluster.url();
    plan(dir.path(), &url);
    let stored = || cluster.query_i64("SELECT count(*) FROM games");
    let mut worker = spawn_worker(dir.path(), &url, "watched");
    wait_until("five games", Duration::from_secs(60), || stored() >= 5);

    let store = eloworld_tournament::open_store(&url, false).expect("open the store");
    let tournament = store.tournaments().expect("tournaments")[0].id;
    let first = store.results_since(0, 3).expect("results_since");
    assert_eq!(first.len(), 3);
    assert!(first.windows(2).all(|w| w[0].seq < w[1].seq), "seq order");
    let rest = store
        .results_since(first[2].seq, 1000)
        .expect("results_since");
    assert!(rest.len() >= 2 && rest[0].seq > first[2].seq);
    let seqs: Vec<i64> = first.iter().map(|r| r.seq).collect();
    let again = store
        .results_with_seq(&[seqs[2], seqs[0], -7])
        .expect("with seq");
    assert_eq!(
        again.iter().map(|r| r.seq).collect::<Vec<_>>(),
        [seqs[0], seqs[2]],
        "stored ones only, in seq order"
    );
    assert_eq!(again[0], first[0]);
    assert_eq!(first[0].worker.as_deref(), Some("watched"));
    let game = store
        .game(first[0].job_id)
        .expect("game")
        .expect("the first game is stored");
    assert_eq!(game.tournament, "faults");
    assert_eq!(game.result, first[0].result);
    assert_eq!(game.plies, first[0].plies);
    assert!(
        game.white.starts_with("random_move:delay_ms="),
        "{}",
        game.white
    );
    assert_eq!(store.game(-1).expect("game"), None);
    // One thread: one claim at a time, leased for two seconds.
    let mut flight = Vec::new();
    wait_until("a job in flight", Duration::from_secs(10), || {
        flight = store.jobs_in_flight(tournament).expect("in flight");
        !flight.is_empty()
    });
    assert_eq!(flight[0].worker.as_deref(), Some("watched"));
    assert!(
        flight[0].lease_left_ms.is_some_and(|ms| ms <= 2_000),
        "{flight:?}"
    );
    let seen = store.workers_seen().expect("workers");
    assert!(
        seen.iter()
            .any(|w| w.name == "watched" && w.seen_secs_ago < 30.0),
        "{seen:?}"
    );

    let server = common::serve::Serving::start(dir.path(), &["--db", &url, "--poll", "0.25"]);
    let count = || {
        let page = common::serve::get(server.addr, "/t/faults", &[]).text();
        let at = page.find("id=\"games-done\">").expect("the count") + "id=\"games-done\">".len();
        page[at..page[at..].find('<').expect("end") + at]
            .parse::<i64>()
            .expect("a number")
    };
    let shown = count();
    assert!(shown >= 5, "{shown}");
    wait_until("the count rising", Duration::from_secs(30), || {
        count() > shown
    });
    let page = common::serve::get(server.addr, "/t/faults", &[]).text();
    let workers = &page[page.find("id=\"workers-section\"").expect("workers")..];
    assert!(workers.contains("watched"), "{workers}");
    let reply = common::serve::get(server.addr, &format!("/game/{}", first[0].job_id), &[]);
    assert_eq!(reply.status, 200);
    // A Squava game's record names the tournament and its round (chess games get PGN tags).
    let round = format!("(faults, squava, round {})", game.round + 1);
    assert!(reply.text().contains(&round), "{}", reply.text());
    let _ = worker.kill();
    let _ = worker.wait();
}

#[test]
fn a_go_tournament_on_postgres_keeps_its_board_size_and_komi() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tmp");
    let url = cluster.url();
    std::fs::write(
        dir.path().join("go5.toml"),
        "name = \"go5\"\ngame = \"go\"\nsize = 5\nkomi = 0.5\nplayers = [\"random\", \"greedy_capture\", \"first_legal\"]\ngames_per_pair = 2\nseed = 5\n",
    )
    .expect("toml");
    let o = eloworld(
        dir.path(),
        &["tournament", "go5.toml", "--db", &url, "--plan-only"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (ok, err) = finish(
        spawn_worker(dir.path(), &url, "go"),
        Duration::from_secs(60),
    );
    assert!(ok, "{err}");
    assert_eq!(cluster.query_i64("SELECT count(*) FROM games"), 12);

    let store = eloworld_tournament::open_store(&url, false).expect("open the store");
    let games = store.games(None).expect("games");
    assert_eq!(games.len(), 12);
    let five = eloworld_tournament::GameSetup {
        size: Some(5),
        komi: Some(0.5),
    };
    assert!(games.iter().all(|g| g.setup == five), "{games:?}");
    let one = store.game(games[0].job_id).expect("game").expect("stored");
    assert_eq!(one.setup, five);

    let o = eloworld(dir.path(), &["export", "--db", &url, "--sgf", "-"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sgf = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        sgf.matches("SZ[5]KM[0.5]RU[Tromp-Taylor]").count(),
        12,
        "{sgf}"
    );
    let o = eloworld(dir.path(), &["rate", "--db", &url, "--method", "all"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("greedy_capture"));
}

#[test]
fn bench_db_measures_one_to_eight_workers_and_stores_the_runners_games_once() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tmp");
    let url = cluster.url();
    let o = eloworld(
        dir.path(),
        &["bench", "--db", &url, "--seconds", "0.2", "--games", "200"],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A line per number of workers and claim size: 1, 2, 4 and 8 workers, one job and 64.
    for batch in [1, 64] {
        for workers in [1, 2, 4, 8] {
            let line = format!("  {workers} worker(s), {batch:>3} job(s) a claim:");
            assert!(
                out.lines().any(|l| l.starts_with(&line)),
                "no line {line:?} in\n{out}"
            );
        }
    }
    // The runner on PostgreSQL, one process and two: every game of its tournaments once.
    assert_eq!(
        out.lines()
            .filter(|l| l.contains("runner on postgres"))
            .count(),
        2,
        "{out}"
    );
    let stored = |sql: &str| {
        cluster.query_i64(&format!(
            "SELECT {sql} FROM games g JOIN tournaments t ON t.id = g.tournament_id \
             WHERE t.name LIKE 'bench-games-%'"
        ))
    };
    assert_eq!(stored("count(*)"), 400, "{out}");
    assert_eq!(stored("count(DISTINCT g.job_id)"), 400);
}

/// Schema 3: a game row costs the server no foreign-key triggers, no index of its
/// tournament and no compression of its moves. A store of schema 2 (the checks put back and
/// its version taken away) is migrated on opening, and a tournament's games are still read
/// alone through its jobs.
#[test]
fn game_rows_are_stored_without_checks_or_compression_and_read_by_tournament() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tmp");
    let url = cluster.url();
    let run = |name: &str, pairs: u32| {
        let o = eloworld(
            dir.path(),
            &[
                "tournament",
                "--name",
                name,
                "--players",
                "random_move,random_move_r1000",
                "--games-per-pair",
                &pairs.to_string(),
                "--db",
                &url,
                "--quiet",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run("first", 20);
    // Put schema 2 back: the two foreign keys, the tournament's index, the default toast
    // threshold, and the version.
    let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    c.batch_execute(
        "ALTER TABLE games ADD FOREIGN KEY (job_id) REFERENCES jobs(id);
         ALTER TABLE games ADD FOREIGN KEY (tournament_id) REFERENCES tournaments(id);
         CREATE INDEX games_tournament ON games (tournament_id);
         ALTER TABLE games RESET (toast_tuple_target);
         DELETE FROM schema_migrations WHERE version = 3;",
    )
    .expect("schema 2");
    assert_eq!(
        cluster.query_i64("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'games'::regclass"),
        4,
        "two foreign keys, two triggers each"
    );
    run("second", 30);
    assert_eq!(
        cluster.query_i64("SELECT max(version)::bigint FROM schema_migrations"),
        3
    );
    assert_eq!(
        cluster.query_i64("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'games'::regclass"),
        0
    );
    assert_eq!(
        cluster.query_i64("SELECT count(*) FROM pg_indexes WHERE indexname = 'games_tournament'"),
        0
    );
    // Random chess games run to hundreds of plies: rows of over 2 KB, stored whole.
    let long = "SELECT count(*) FROM games g JOIN tournaments t ON t.id = g.tournament_id \
                WHERE t.name = 'second' AND octet_length(g.moves) > 2100";
    assert!(cluster.query_i64(long) > 0, "no game of over 2 KB");
    assert_eq!(
        cluster.query_i64(
            "SELECT count(*) FROM games g JOIN tournaments t ON t.id = g.tournament_id \
             WHERE t.name = 'second' AND pg_column_compression(g.moves) IS NOT NULL"
        ),
        0
    );
    for (name, games) in [("first", 40), ("second", 60)] {
        let store = eloworld_tournament::open_store(&url, false).expect("open");
        let rows = store.results(Some(name)).expect("results");
        assert_eq!(rows.len(), games, "{name}");
        assert!(rows.iter().all(|r| r.tournament == name), "{name}");
        assert_eq!(store.games(Some(name)).expect("games").len(), games);
        assert_eq!(
            store.results_by_key(name).expect("by key").len(),
            games,
            "{name}"
        );
    }
}
