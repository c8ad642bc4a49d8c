//! Running the real `roots` binary from the crate root, so paths in its output
//! are relative and snapshots are stable.

#![allow(dead_code)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// How long a test lets a command run before calling it hung: a watchdog
/// against blocking (a read that never returns, a loop that never ends), not
/// a speed target. Speed targets live in `benches/`; this bound is generous
/// because every test shares two loaded cores with the others.
pub const HANG: Duration = Duration::from_secs(60);

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Exit code, stdout and stderr, for a snapshot.
    pub fn transcript(&self) -> String {
        let mut out = format!("exit: {}\n--- stdout\n{}", self.code, self.stdout);
        if !self.stderr.is_empty() {
            out.push_str(&format!("--- stderr\n{}", self.stderr));
        }
        out
    }

    /// Stdout parsed as one JSON document.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}{}", self.stdout, self.stderr))
    }
}

pub fn roots(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_roots"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the roots binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `path` relative to the crate root, with `/` separators.
pub fn relative(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// A fresh, empty directory `suite/name` under the target's temp dir.
pub fn tmp_dir(suite: &str, name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(suite)
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs the binary in `dir` with `input` on stdin (an empty `input` is an
/// immediately closed stdin, like `</dev/null`).
pub fn roots_in(dir: &Path, args: &[&str], input: &str) -> Run {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_roots"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn roots");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().ok();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The project's copy of the peers' oracle data, `tests/oracles/<name>/`.
pub fn oracle_dir(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/oracles")
        .join(name)
}

/// Every `*.jsonl` trace under `dir`, at any depth, except the index, sorted:
/// a trace added later in any folder is replayed like the others.
pub fn trace_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d)
            .unwrap_or_else(|e| panic!("cannot read the oracle folder {}: {e}", d.display()));
        for entry in entries {
            let p = entry.expect("a readable folder entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "jsonl")
                && p.file_name().is_some_and(|n| n != "index.jsonl")
            {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// The Chromium to drive in the browser tests: `ROOTS_CHROMIUM`, else the
/// first of chromium, chromium-browser or google-chrome on the PATH.
pub fn chromium() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("ROOTS_CHROMIUM") {
        return Some(std::path::PathBuf::from(p));
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|d| d.join(name))
                    .find(|p| p.is_file())
            })
        })
}

/// The DOM of `page` (with `fragment`) after its scripts ran.
pub fn dump_dom(
    browser: &std::path::Path,
    page: &std::path::Path,
    fragment: &str,
    profile: &std::path::Path,
) -> (String, String) {
    let url = format!("file://{}{fragment}", page.display());
    let out = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "chromium failed on {url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
