//! The real `roots serve` binary, started on a free loopback port, and a
//! small HTTP/1.1 client over std's TCP (no client library): what the tests
//! of the web table share.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

pub struct Server {
    pub child: Child,
    pub port: u16,
    pub host: String,
    pub dir: PathBuf,
    /// The lines printed at start (the links of a `--players` table).
    pub said: Vec<String>,
}

impl Server {
    /// `roots serve --port 0 --dir DIR ARGS...`, once it listens.
    pub fn start(dir: &Path, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_roots"))
            .arg("serve")
            .args(["--port", "0", "--dir"])
            .arg(dir)
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("roots serve starts");
        let out = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(out).lines();
        let mut said = Vec::new();
        let mut found = None;
        for line in lines.by_ref() {
            let line = line.expect("a line");
            said.push(line.clone());
            if let Some(url) = line.strip_prefix("host (open tables, watch them): ") {
                found = Some(url.to_string());
                if !args.contains(&"--players") {
                    break;
                }
            }
            if line.starts_with("  host of the table: ") {
                break;
            }
        }
        // Keep reading stdout in the background so the server never blocks.
        std::thread::spawn(move || for _ in lines {});
        let url = found.unwrap_or_else(|| panic!("no host link in {said:?}"));
        let rest = url
            .strip_prefix("http://127.0.0.1:")
            .expect("a loopback link");
        let (port, key) = rest.split_once("/?host=").expect("a host key");
        Server {
            child,
            port: port.parse().expect("a port"),
            host: key.to_string(),
            dir: dir.to_path_buf(),
            said,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's peak resident memory, in KiB (Linux).
    pub fn peak_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
    }

    /// `kill -9`.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn get(&self, path: &str, key: Option<&str>) -> (u16, Value) {
        request(self.port, "GET", path, key, None)
    }

    pub fn post(&self, path: &str, key: Option<&str>, body: &Value) -> (u16, Value) {
        request(
            self.port,
            "POST",
            path,
            key,
            Some(body.to_string().as_bytes()),
        )
    }

    /// Open a table as the host; its links.
    pub fn open(&self, body: &Value) -> Value {
        let host = self.host.clone();
        let (code, v, _) = post_patiently(self, "/api/tables", &host, body);
        assert_eq!(code, 201, "opening a table: {v}");
        v
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The key in a seat's link (`/?t=ID&k=KEY`).
pub fn key_of(link: &str) -> String {
    link.split("&k=").nth(1).expect("a key").to_string()
}

/// One request; the status and the body as JSON (`Value::String` when it
/// is not JSON).
pub fn request(
    port: u16,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: Option<&[u8]>,
) -> (u16, Value) {
    let (code, text) = raw(port, method, path, key, body);
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (code, v)
}

/// One request; the status and the body as text.
pub fn raw(
    port: u16,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: Option<&[u8]>,
) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    if let Some(k) = key {
        head.push_str(&format!("X-Roots-Key: {k}\r\n"));
    }
    let body = body.unwrap_or(b"");
    if method == "POST" {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).expect("write");
    let _ = s.write_all(body);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let code = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
    (code, body.to_string())
}

/// The view of a seat, waiting (up to a minute) until `ready` holds: the
/// bots and dice play on the server after each move.
pub fn wait_view(server: &Server, id: &str, key: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let start = std::time::Instant::now();
    loop {
        let (code, v) = server.get(&format!("/api/t/{id}"), Some(key));
        if code == 429 {
            // Polled too often: the server's rate limit; wait and ask again.
            std::thread::sleep(Duration::from_millis(200));
            continue;
        }
        assert_eq!(code, 200, "{v}");
        if ready(&v) {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the table never got ready: {v}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether the view waits for nobody but a person (it is some seat's turn,
/// the game is over, or it stopped).
pub fn settled(v: &Value) -> bool {
    v["outcome"].is_object()
        || !v["stopped"].is_null()
        || !v["chance"].is_null()
        || v["next"] == "decide"
            && v["seats"][v["due"].as_u64().unwrap_or(1) as usize - 1]["human"] == true
}

/// A fresh, empty directory under the target's temp dir.
pub fn tmp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("serve")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A POST that waits and tries again while the server says 429 (too many
/// requests); the status, the body and how many times it was slowed down.
pub fn post_patiently(server: &Server, path: &str, key: &str, body: &Value) -> (u16, Value, u32) {
    let mut slowed = 0;
    loop {
        let (code, v) = server.post(path, Some(key), body);
        if code != 429 {
            return (code, v, slowed);
        }
        slowed += 1;
        std::thread::sleep(Duration::from_millis(200));
    }
}
