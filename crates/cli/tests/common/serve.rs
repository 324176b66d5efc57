//! What the `eloworld serve` tests add to the common helpers: a running server, a bare
//! HTTP/1.1 client, and a headless Chromium driven over the DevTools protocol (Debian's
//! `chromium`, installed by `.ci/run`).

#[path = "../../../report/tests/support/browser.rs"]
mod browser;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `eloworld serve`, stopped (and reaped) when dropped.
pub struct Serving {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Serving {
    /// Starts `eloworld serve` with `args` (plus `--bind 127.0.0.1:0` unless given) and waits
    /// for its "serving … at http://ADDR/" line.
    pub fn start(dir: &Path, args: &[&str]) -> Serving {
        let mut all: Vec<&str> = vec!["serve"];
        all.extend_from_slice(args);
        if !args.contains(&"--bind") {
            all.extend_from_slice(&["--bind", "127.0.0.1:0"]);
        }
        let mut command = super::command();
        command.args(&all).current_dir(dir);
        let (child, addr) = spawn_until(command, "eloworld serve", |line| {
            let rest = line.split("http://").nth(1)?;
            let addr = rest.split('/').next().expect("address");
            Some(addr.parse::<SocketAddr>().expect("socket address"))
        });
        Serving { child, addr }
    }

    /// Returns the server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Returns the absolute URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `command` (standard input and output closed, standard error piped) and reads its
/// standard error until `found` gives a value for a line; then keeps draining it so that the
/// child never blocks on it. Panics, after stopping the child, with what `what` printed when
/// it ends first.
fn spawn_until<T>(
    mut command: Command,
    what: &str,
    found: impl Fn(&str) -> Option<T>,
) -> (Child, T) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {what}: {e}"));
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let mut seen = String::new();
    let value = loop {
        let Some(Ok(line)) = lines.next() else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} ended before it was ready: {seen}");
        };
        if let Some(value) = found(&line) {
            break value;
        }
        seen.push_str(&line);
        seen.push('\n');
    };
    std::thread::spawn(move || for _ in lines {});
    (child, value)
}

/// An HTTP response.
#[derive(Debug)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// Header lines, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    /// Returns a header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Returns the body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends one request (`Connection: close`) and reads the whole reply; `extra` are header lines.
pub fn request(addr: SocketAddr, method: &str, path: &str, extra: &[&str]) -> Reply {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for h in extra {
        req.push_str(h);
        req.push_str("\r\n");
    }
    req.push_str("Content-Length: 0\r\n\r\n");
    s.write_all(req.as_bytes()).expect("send");
    // Read to the end of the body: the connection's end, or Content-Length (a server may
    // keep the connection open despite `Connection: close`, as Chromium's DevTools does).
    let mut raw = Vec::new();
    let mut chunk = [0u8; 65536];
    loop {
        let n = s.read(&mut chunk).expect("read");
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&chunk[..n]);
        if let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if length.is_some_and(|len| raw.len() >= split + 4 + len) {
                break;
            }
        }
    }
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("end of headers");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    if headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"))
    {
        body = unchunk(&body);
    }
    Reply {
        status,
        headers,
        body,
    }
}

/// A GET.
pub fn get(addr: SocketAddr, path: &str, extra: &[&str]) -> Reply {
    request(addr, "GET", path, extra)
}

fn unchunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&data[..end])
                .split(';')
                .next()
                .unwrap_or("0")
                .trim(),
            16,
        )
        .unwrap_or(0);
        if size == 0 {
            return out;
        }
        let start = end + 2;
        out.extend_from_slice(&data[start..(start + size).min(data.len())]);
        data = &data[(start + size + 2).min(data.len())..];
    }
}

/// Returns the Chromium binary, or `None` when the browser tests may be skipped (the lookup
/// the report's browser test uses too).
pub fn chromium() -> Option<PathBuf> {
    browser::chromium()
}

/// A headless Chromium with one page, driven over the DevTools protocol.
pub struct Browser {
    child: Child,
    _profile: tempfile::TempDir,
    socket: tungstenite::WebSocket<TcpStream>,
    next_id: u64,
}

impl Browser {
    /// Starts Chromium on `url`.
    pub fn open(binary: &Path, url: &str) -> Browser {
        let profile = tempfile::tempdir().expect("profile dir");
        let mut command = Command::new(binary);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-port=0",
                "--window-size=1280,2000",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank");
        let (child, port) = spawn_until(command, "chromium", |line| {
            let rest = line.split("DevTools listening on ws://").nth(1)?;
            let host_port = rest.split('/').next().expect("host:port");
            Some(
                host_port
                    .rsplit(':')
                    .next()
                    .and_then(|p| p.parse::<u16>().ok())
                    .expect("port"),
            )
        });
        let devtools: SocketAddr = ([127, 0, 0, 1], port).into();
        let started = Instant::now();
        let page_socket = loop {
            let list = get(devtools, "/json/list", &[]);
            let targets: serde_json::Value = serde_json::from_slice(&list.body).unwrap_or_default();
            let found = targets.as_array().and_then(|a| {
                a.iter()
                    .find(|t| t["type"] == "page")
                    .and_then(|t| t["webSocketDebuggerUrl"].as_str().map(str::to_owned))
            });
            if let Some(ws) = found {
                break ws;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no page in chromium"
            );
            std::thread::sleep(Duration::from_millis(100));
        };
        let stream = TcpStream::connect(devtools).expect("connect devtools");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("timeout");
        let (socket, _) = tungstenite::client(page_socket.as_str(), stream).expect("websocket");
        let mut b = Browser {
            child,
            _profile: profile,
            socket,
            next_id: 0,
        };
        b.navigate(url);
        b
    }

    /// Sends a DevTools command and returns its result.
    pub fn call(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        match self.try_call(method, params) {
            Ok(v) => v,
            Err(v) => panic!("{method}: {v}"),
        }
    }

    /// Sends a DevTools command: its result, or the whole reply when it is an error.
    fn try_call(
        &mut self,
        method: &str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, serde_json::Value> {
        self.next_id += 1;
        let id = self.next_id;
        let msg = serde_json::json!({ "id": id, "method": method, "params": params });
        self.socket
            .send(tungstenite::Message::Text(msg.to_string().into()))
            .expect("send to chromium");
        loop {
            let m = self.socket.read().expect("read from chromium");
            if let tungstenite::Message::Text(t) = m {
                let v: serde_json::Value = serde_json::from_str(t.as_str()).expect("json");
                if v["id"] == id {
                    return match v.get("error") {
                        None => Ok(v["result"].clone()),
                        Some(_) => Err(v),
                    };
                }
            }
        }
    }

    /// Evaluates a JavaScript expression in the page and returns its value.
    pub fn eval(&mut self, expression: &str) -> serde_json::Value {
        self.evaluate(expression, false)
    }

    /// Evaluates `expression` while the page may be navigating (after a click on a link): a
    /// page that is being replaced answers nothing, given as `null`, so a poll tries again.
    pub fn poll(&mut self, expression: &str) -> serde_json::Value {
        self.evaluate(expression, true)
    }

    fn evaluate(&mut self, expression: &str, navigating: bool) -> serde_json::Value {
        let r = match self.try_call(
            "Runtime.evaluate",
            serde_json::json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        ) {
            Ok(r) => r,
            Err(v) if navigating && v.to_string().contains("navigated or closed") => {
                return serde_json::Value::Null
            }
            Err(v) => panic!("Runtime.evaluate: {v}"),
        };
        assert!(
            r.get("exceptionDetails").is_none(),
            "{expression}: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    /// Goes to `url` and waits until it has loaded.
    pub fn navigate(&mut self, url: &str) {
        self.call("Page.navigate", serde_json::json!({ "url": url }));
        std::thread::sleep(Duration::from_millis(100));
        self.wait_loaded();
    }

    fn wait_loaded(&mut self) {
        let started = Instant::now();
        while self.poll("location.href !== 'about:blank' && document.readyState === 'complete'")
            != true
        {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "page never loaded"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Returns a PNG screenshot of the page.
    pub fn screenshot(&mut self) -> Vec<u8> {
        use base64::Engine;
        let r = self.call(
            "Page.captureScreenshot",
            serde_json::json!({ "format": "png", "captureBeyondViewport": false }),
        );
        base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().expect("data"))
            .expect("base64")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The id of the first game a dashboard page links to (`href="/game/ID"`).
pub fn first_game_id(page: &str) -> String {
    page.split("href=\"/game/")
        .nth(1)
        .expect("a game link")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect()
}
