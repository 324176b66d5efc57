//! An engine's process: spawned without a shell, spoken to over pipes, read with deadlines,
//! and, when dropped, told to `quit`, given a grace period, then killed and reaped (as
//! fastchess and cutechess-cli end their engines).

use super::search_info::SearchInfo;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What went wrong talking to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process could not start, died, or closed its pipes; the text says what was seen.
    Crashed(String),
    /// Nothing expected arrived before the deadline.
    Timeout(Duration),
    /// The engine answered something the protocol does not allow here.
    Protocol(String),
    /// The engine claimed a result instead of moving (CECP), the line as given.
    ResultClaim(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crashed(s) => write!(f, "crashed: {s}"),
            Fault::Timeout(d) => write!(f, "no answer within {} ms", d.as_millis()),
            Fault::Protocol(s) => write!(f, "protocol error: {s}"),
            Fault::ResultClaim(s) => write!(f, "claimed a result: {s}"),
        }
    }
}

/// A line the engine printed, with the search report that came before it.
///
/// `info` lines are not passed on one by one: the reader thread folds them into a
/// [`SearchInfo`] and hands it over with the next other line (`bestmove …`), so a search
/// that prints dozens of `info` lines costs the player one wake-up.
#[derive(Debug)]
pub struct Line {
    /// The line, without its end of line.
    pub text: String,
    /// What the `info` lines since the previous other line said.
    pub info: SearchInfo,
    /// Those `info` lines themselves, as far as [`KeptLines`] asks (none by default).
    pub kept: Vec<String>,
}

/// Which `info` lines the reader keeps as text beside the folded [`SearchInfo`]: keeping
/// a line costs an allocation, so only what the PGN or a check needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeptLines {
    /// None (the report alone).
    #[default]
    Nothing,
    /// The lines with a mate score, for the mate-PV check (fastchess's `-check-mate-pvs`).
    MateScores,
    /// Every `info` line (PGN `pv=true`, `match_line=`).
    Every,
}

impl KeptLines {
    /// Whether `line` (an `info` line) is kept.
    fn keeps(self, line: &str) -> bool {
        match self {
            KeptLines::Nothing => false,
            KeptLines::MateScores => line.contains(" score mate "),
            KeptLines::Every => true,
        }
    }
}

/// Where every engine's traffic goes when asked (`eloworld match -debug`): one line per
/// line sent (`name(pid) < uci`) or received (`name(pid) > uciok`), `name` the engine's
/// name in the match (`-engine name=`).
static TRAFFIC: std::sync::OnceLock<std::sync::mpsc::Sender<String>> = std::sync::OnceLock::new();

/// Sends every engine's traffic from now on to `sink`, each line prefixed with the program's
/// name and process id and `<` (to the engine) or `>` (from it); the caller shows it
/// (cutechess-cli's `-debug`). Only the first call takes effect.
pub fn tap_traffic(sink: std::sync::mpsc::Sender<String>) {
    let _ = TRAFFIC.set(sink);
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    reader: Option<JoinHandle<()>>,
    out: String,
    status: Option<std::process::ExitStatus>,
    /// `name(pid)` and the traffic sink, when traffic is tapped.
    tap: Option<(String, std::sync::mpsc::Sender<String>)>,
    /// True once the process let a deadline pass: it is killed without a `quit`.
    stalled: bool,
}

/// How long an engine told to `quit` has to close its output before it is killed: fastchess
/// and cutechess-cli send `quit` and wait a moment too. A healthy engine exits at once.
const QUIT_GRACE: Duration = Duration::from_secs(1);

impl EngineProcess {
    /// Starts `program` with `args`, in its own process group (so a terminal's Ctrl-C
    /// reaches only us, and we end the engine ourselves).
    ///
    /// # Errors
    /// [`Fault::Crashed`] when the program cannot be started.
    pub fn spawn(program: &Path, args: &[String]) -> Result<EngineProcess, Fault> {
        let name = program.file_name().map_or_else(
            || program.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        EngineProcess::spawn_keeping(program, args, KeptLines::Nothing, &name)
    }

    /// Starts `program` as [`EngineProcess::spawn`] does, keeping the `info` lines `kept`
    /// asks for with each [`Line`]; its traffic, when tapped, is labelled `name(pid)`.
    ///
    /// # Errors
    /// As [`EngineProcess::spawn`].
    pub fn spawn_keeping(
        program: &Path,
        args: &[String],
        kept: KeptLines,
        name: &str,
    ) -> Result<EngineProcess, Fault> {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Fault::Crashed(format!("cannot start {}: {e}", program.display())))?;
        live_engines().push(child.id());
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Fault::Crashed("no stdout pipe".to_owned()))?;
        let stdin = child.stdin.take();
        let tap = TRAFFIC
            .get()
            .map(|sink| (format!("{name}({})", child.id()), sink.clone()));
        let reader_tap = tap.clone();
        let (tx, lines) = sync_channel::<Line>(256);
        let reader = std::thread::Builder::new()
            .name(format!("engine-{}", child.id()))
            .spawn(move || {
                let mut reader = BufReader::with_capacity(1 << 14, stdout);
                let mut buf = String::with_capacity(256);
                let mut info = SearchInfo::default();
                let mut kept_now: Vec<String> = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_line(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    let text = buf.trim_end_matches(['\n', '\r']);
                    if let Some((who, sink)) = &reader_tap {
                        let _ = sink.send(format!("{who} > {text}"));
                    }
                    if text.starts_with("info") {
                        info.absorb(text);
                        if kept.keeps(text) {
                            kept_now.push(text.to_owned());
                        }
                        continue;
                    }
                    let line = Line {
                        text: text.to_owned(),
                        info: std::mem::take(&mut info),
                        kept: std::mem::take(&mut kept_now),
                    };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| Fault::Crashed(format!("cannot start a reader thread: {e}")))?;
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            reader: Some(reader),
            out: String::with_capacity(1024),
            status: None,
            tap,
            stalled: false,
        })
    }

    /// Returns the process id.
    #[must_use]
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Queues `line` (a newline is added); [`EngineProcess::flush`] sends what is queued.
    pub fn queue(&mut self, line: &str) {
        self.out.push_str(line);
        self.out.push('\n');
    }

    /// Returns the queue's buffer, to append a long command to without copying.
    pub fn queue_buffer(&mut self) -> &mut String {
        &mut self.out
    }

    /// Sends everything queued in one write.
    ///
    /// # Errors
    /// [`Fault::Crashed`] when the engine's input is closed.
    pub fn flush(&mut self) -> Result<(), Fault> {
        if let Some((who, sink)) = &self.tap {
            for line in self.out.lines() {
                let _ = sink.send(format!("{who} < {line}"));
            }
        }
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(self.out.as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe)),
        };
        self.out.clear();
        result.map_err(|e| self.crash_fault(&format!("writing to it failed ({e})")))
    }

    /// Queues `line` and sends the queue.
    ///
    /// # Errors
    /// As [`EngineProcess::flush`].
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.queue(line);
        self.flush()
    }

    /// Returns the next line, waiting until `deadline`.
    ///
    /// # Errors
    /// [`Fault::Timeout`] when the deadline passes, [`Fault::Crashed`] when the engine's
    /// output ends (its exit status in the text).
    pub fn next_line(&mut self, deadline: Instant, limit: Duration) -> Result<Line, Fault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                self.stalled = true;
                Err(Fault::Timeout(limit))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.crash_fault("its output ended")),
        }
    }

    /// Reads lines until one satisfies `done`, waiting at most `limit` in all.
    ///
    /// # Errors
    /// As [`EngineProcess::next_line`].
    pub fn wait_for(
        &mut self,
        limit: Duration,
        mut done: impl FnMut(&Line) -> bool,
    ) -> Result<Line, Fault> {
        let deadline = Instant::now() + limit;
        loop {
            let line = self.next_line(deadline, limit)?;
            if done(&line) {
                return Ok(line);
            }
        }
    }

    /// Describes how the process ended (ending it, in case only its output did), for a
    /// crash report.
    fn crash_fault(&mut self, what: &str) -> Fault {
        Fault::Crashed(match self.terminate() {
            Some(s) => format!("{what}; {}", describe_status(s)),
            None => what.to_owned(),
        })
    }

    /// Tells a process still answering to `quit` and waits up to [`QUIT_GRACE`] for its
    /// output to close. One that let a deadline pass, or whose input is closed, is not asked.
    fn quit(&mut self) {
        if self.status.is_some() || self.stalled || self.stdin.is_none() {
            return;
        }
        self.queue("quit");
        if self.flush().is_err() {
            return;
        }
        drop(self.stdin.take());
        let deadline = Instant::now() + QUIT_GRACE;
        while self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .is_ok()
        {}
    }

    /// Kills the process and everything in its process group, and reaps it; returns its
    /// exit status (a process that already exited keeps its own).
    fn terminate(&mut self) -> Option<std::process::ExitStatus> {
        if let Some(status) = self.status {
            return Some(status);
        }
        drop(self.stdin.take());
        {
            // Until reaped below, the id (and group id) cannot be reused, so killing by id
            // while holding the list cannot hit another process.
            let mut live = live_engines();
            live.retain(|&p| p != self.child.id());
            kill_group(self.child.id());
            let _ = self.child.kill();
        }
        self.status = self.child.wait().ok();
        self.status
    }
}

/// The ids of the engine processes running (not yet reaped), for [`kill_all`].
static LIVE_ENGINES: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn live_engines() -> MutexGuard<'static, Vec<u32>> {
    LIVE_ENGINES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Kills the process group `id` (an engine started with `process_group(0)`).
fn kill_group(id: u32) {
    #[cfg(unix)]
    if let Some(group) = i32::try_from(id)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
}

/// Kills every engine process this program started and has not yet reaped, with its
/// process group: for a program about to exit at once (a second Ctrl-C), which cannot wait
/// for its workers to end their engines. Engines run in their own process group, so the
/// terminal's Ctrl-C does not reach them.
pub fn kill_all() {
    for &id in live_engines().iter() {
        kill_group(id);
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    match status.code() {
        Some(c) => format!("exited with status {c}"),
        None => format!("ended: {status}"),
    }
}

impl Drop for EngineProcess {
    /// Tells the engine to `quit` (unless it stalled), waits up to [`QUIT_GRACE`], then
    /// kills what is left of its process group and reaps it, so no zombie is left; then
    /// joins the reader thread, whose pipe is now closed.
    fn drop(&mut self) {
        self.quit();
        self.terminate();
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn sh(script: &str) -> EngineProcess {
        EngineProcess::spawn(
            &PathBuf::from("/bin/sh"),
            &["-c".to_owned(), script.to_owned()],
        )
        .expect("sh starts")
    }

    #[test]
    fn info_lines_are_folded_into_the_next_line() {
        let mut p = sh("read x; echo 'info depth 3 score cp 25 nodes 99'; echo 'info depth 4 score mate 2'; echo \"bestmove $x\"");
        p.send("e2e4").expect("send");
        let line = p
            .wait_for(Duration::from_secs(5), |_| true)
            .expect("a line");
        assert_eq!(line.text, "bestmove e2e4");
        assert_eq!(line.info.depth, Some(4));
        assert_eq!(
            line.info.score,
            Some(super::super::search_info::Score::Mate(2))
        );
    }

    #[test]
    fn a_silent_process_times_out_and_a_dead_one_reports_its_status() {
        let mut p = sh("sleep 5");
        let err = p
            .wait_for(Duration::from_millis(100), |_| true)
            .expect_err("silent");
        assert_eq!(err, Fault::Timeout(Duration::from_millis(100)));
        let mut p = sh("exit 7");
        let err = p
            .wait_for(Duration::from_secs(5), |_| true)
            .expect_err("dead");
        assert!(
            matches!(&err, Fault::Crashed(s) if s.contains("status 7")),
            "{err:?}"
        );
    }

    #[test]
    fn dropping_tells_the_engine_to_quit_first() {
        let dir = std::env::temp_dir().join(format!("eloworld-quit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a directory");
        let heard = dir.join("heard");
        let p = sh(&format!("read x; echo \"$x\" > '{}'", heard.display()));
        let t0 = Instant::now();
        drop(p);
        assert_eq!(
            std::fs::read_to_string(&heard).expect("the engine wrote what it heard"),
            "quit\n"
        );
        // It exited on `quit`, before the grace period ran out.
        assert!(t0.elapsed() < QUIT_GRACE, "{:?}", t0.elapsed());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_stalled_process_is_killed_without_waiting() {
        let mut p = sh("sleep 30");
        let _ = p.wait_for(Duration::from_millis(50), |_| true);
        let t0 = Instant::now();
        drop(p);
        assert!(t0.elapsed() < QUIT_GRACE, "{:?}", t0.elapsed());
    }

    #[test]
    fn dropping_reaps_the_process() {
        // The shell waits for its own child, which holds the output pipe too.
        let p = sh("sleep 30; echo done");
        let pid = p.id();
        assert!(Path::new(&format!("/proc/{pid}")).exists());
        let t0 = Instant::now();
        drop(p);
        // A zombie would still have a /proc entry until reaped; a surviving `sleep` would
        // keep the pipe open and the drop waiting.
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "process {pid} left behind"
        );
        assert!(
            t0.elapsed() < Duration::from_secs(5),
            "the drop waited for the shell's child"
        );
    }
}
