//! Hostile input, round four (issue #50), outside the commands' runs: a
//! `roots serve` that cannot be starved (stalled heads and bodies, idle
//! connections, too many connections, guessed keys), a table that outlives
//! a full disk, unknown JSON keys and the questionnaire's answers; signals
//! for `serve` and for external players; a closed or unwritable standard
//! output in every command. Through the real binary, over loopback only;
//! `docs/hostile-inputs.md` names these tests.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{roots_in, tmp_dir};
use crate::serve_kit::{self, Server, key_of, wait_view};

const BIN: &str = env!("CARGO_BIN_EXE_roots");

// ---------------------------------------------------------------- helpers

/// A fresh directory for the tables of one test.
fn dir(name: &str) -> std::path::PathBuf {
    serve_kit::tmp_dir(&format!("hostile4-{name}"))
}

/// A two-person table of Sprout-R-Out (its smallest board) and its keys.
fn two_people(server: &Server) -> (String, String, String) {
    let links = server.open(&json!({
        "variant": "sprout-r-out",
        "players": ["human", "human"],
        "seed": 3,
    }));
    let id = links["id"].as_str().unwrap().to_string();
    let k1 = key_of(links["seats"][0]["link"].as_str().unwrap());
    let k2 = key_of(links["seats"][1]["link"].as_str().unwrap());
    (id, k1, k2)
}

/// Play the first legal move of the seat due; the status and answer.
fn play_one(server: &Server, id: &str, keys: &[String]) -> (u16, Value) {
    let v = wait_view(server, id, &keys[0], |v| v["next"] == "decide");
    let due = v["due"].as_u64().unwrap() as usize - 1;
    let mine = wait_view(server, id, &keys[due], |v| v["mine"] == true);
    let text = mine["moves"][0]["text"].as_str().unwrap().to_string();
    let (code, r, _) = serve_kit::post_patiently(
        server,
        &format!("/api/t/{id}/act"),
        &keys[due],
        &json!({ "action": text }),
    );
    (code, r)
}

/// Whether the server closed `s` (a read gives the end, or an answer and
/// then the end) within `within`.
fn closed_by_server(s: &mut TcpStream, within: Duration) -> bool {
    s.set_read_timeout(Some(within)).unwrap();
    let mut buf = Vec::new();
    match s.read_to_end(&mut buf) {
        Ok(_) => true,
        Err(e) => matches!(
            e.kind(),
            std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe
        ),
    }
}

fn connect(port: u16) -> TcpStream {
    TcpStream::connect(("127.0.0.1", port)).expect("connect")
}

/// The descriptors `pid` has open (Linux).
fn descriptors(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count())
}

// ---------------------------------------------------------------- starving

#[test]
fn a_body_that_never_comes_and_a_head_that_never_ends_are_dropped() {
    let d = dir("stall");
    let server = Server::start(&d, &["--head-timeout", "1", "--body-timeout", "1"]);
    let (id, k1, _) = two_people(&server);
    // A body declared and never sent: 408 once the body time is up.
    let mut s = connect(server.port);
    write!(
        s,
        "POST /api/t/{id}/act HTTP/1.1\r\nHost: x\r\nX-Roots-Key: {k1}\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{{\"act"
    )
    .unwrap();
    let start = Instant::now();
    s.set_read_timeout(Some(Duration::from_secs(8))).unwrap();
    let mut got = Vec::new();
    let _ = s.read_to_end(&mut got);
    let got = String::from_utf8_lossy(&got);
    assert!(
        got.starts_with("HTTP/1.1 408"),
        "after {:?}: {got:?}",
        start.elapsed()
    );
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
    // A head that never ends: the connection is closed.
    let mut s = connect(server.port);
    write!(s, "GET /api/t/{id} HTTP/1.1\r\nHost: x\r\nX-Slow: ").unwrap();
    let start = Instant::now();
    assert!(closed_by_server(&mut s, Duration::from_secs(8)));
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn idle_connections_are_closed_while_others_play() {
    let d = dir("idle");
    let server = Server::start(&d, &["--head-timeout", "1"]);
    let (id, k1, k2) = two_people(&server);
    let before = descriptors(server.pid());
    // 100 connections that say nothing, and one kept alive after a request.
    let mut idle: Vec<TcpStream> = (0..100).map(|_| connect(server.port)).collect();
    let mut kept = connect(server.port);
    write!(kept, "GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut first = [0u8; 12];
    kept.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    // The players go on meanwhile.
    let keys = [k1, k2];
    for _ in 0..3 {
        assert_eq!(play_one(&server, &id, &keys).0, 200);
    }
    std::thread::sleep(Duration::from_millis(2500));
    for s in idle.iter_mut().chain(std::iter::once(&mut kept)) {
        assert!(
            closed_by_server(s, Duration::from_secs(3)),
            "an idle connection is still open"
        );
    }
    drop(idle);
    let after = descriptors(server.pid());
    assert!(
        after <= before + 5,
        "descriptors {before} before, {after} after"
    );
    assert_eq!(play_one(&server, &id, &keys).0, 200);
}

#[test]
fn connections_beyond_the_cap_are_answered_503() {
    let d = dir("cap");
    let server = Server::start(&d, &["--max-connections", "8", "--head-timeout", "30"]);
    let held: Vec<TcpStream> = (0..8).map(|_| connect(server.port)).collect();
    std::thread::sleep(Duration::from_millis(300));
    let (code, body) = serve_kit::raw(server.port, "GET", "/api/tables", Some(&server.host), None);
    assert_eq!(code, 503, "{body}");
    assert!(body.contains("too many connections"), "{body}");
    // Room again once they close.
    drop(held);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.get("/api/tables", Some(&server.host)).0, 200);
}

#[test]
fn guessed_keys_are_answered_429_after_the_documented_count() {
    let d = dir("guess");
    let server = Server::start(&d, &[]);
    let (id, k1, _) = two_people(&server);
    let mut codes = Vec::new();
    for i in 0..300u32 {
        let key = format!(
            "{:032x}",
            u128::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c)
        );
        let path = match i % 3 {
            0 => format!("/api/t/{id}"),
            1 => "/api/tables".to_string(),
            _ => format!("/api/t/{:012x}", i),
        };
        codes.push(server.get(&path, Some(&key)).0);
    }
    // The documented 20 wrong keys, then 429 (a few more as the allowance
    // comes back, one every 10 s).
    assert!(
        codes[..20].iter().all(|&c| c == 403 || c == 404),
        "{codes:?}"
    );
    let throttled = codes[20..].iter().filter(|&&c| c == 429).count();
    assert!(throttled >= 275, "{throttled} of 280 throttled: {codes:?}");
    // The whole address waits, right keys too.
    assert_eq!(server.get(&format!("/api/t/{id}"), Some(&k1)).0, 429);
}

// ---------------------------------------------------------------- requests

#[test]
fn unknown_json_keys_are_refused_and_answers_are_checked_with_400() {
    let d = dir("keys");
    let server = Server::start(&d, &[]);
    let (code, r) = server.post(
        "/api/tables",
        Some(&server.host),
        &json!({"variant": "sprout-r-out", "players": ["human", "human"], "colour": "red"}),
    );
    assert_eq!(code, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("colour"), "{r}");
    let (id, k1, k2) = two_people(&server);
    let v = wait_view(&server, &id, &k1, |v| v["next"] == "decide");
    let due = v["due"].as_u64().unwrap();
    let key = if due == 1 { &k1 } else { &k2 };
    let text = wait_view(&server, &id, key, |v| v["mine"] == true)["moves"][0]["text"].clone();
    let (code, r) = server.post(
        &format!("/api/t/{id}/act"),
        Some(key),
        &json!({"action": text, "seat": due}),
    );
    assert_eq!(code, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("seat"), "{r}");
    // The questionnaire: bad answers are 400 whenever they come; the
    // words are short, right and long (the page shows "too short", ...).
    for bad in [
        json!({"fun": 9, "fairness": 3, "length": "right"}),
        json!({"fun": 3, "fairness": 0, "length": "right"}),
        json!({"fun": 3, "fairness": 3, "length": "about right"}),
        json!({"fun": 3, "fairness": 3, "length": "right", "stars": 5}),
        json!({"fun": "3", "fairness": 3, "length": "right"}),
    ] {
        let (code, r) = server.post(&format!("/api/t/{id}/feedback"), Some(&k1), &bad);
        assert_eq!(code, 400, "{bad}: {r}");
    }
    let (code, r) = server.post(
        &format!("/api/t/{id}/feedback"),
        Some(&k1),
        &json!({"fun": 3, "fairness": 3, "length": "about right"}),
    );
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("short, right or long"),
        "{code} {r}"
    );
    // A good answer before the end is refused by the table: 409.
    let (code, _) = server.post(
        &format!("/api/t/{id}/feedback"),
        Some(&k1),
        &json!({"fun": 3, "fairness": 3, "length": "right"}),
    );
    assert_eq!(code, 409);
}

// ---------------------------------------------------------------- full disk

/// `roots serve` whose files can grow to at most `limit` bytes each until
/// [`set_file_limit`] says otherwise (RLIMIT_FSIZE, with SIGXFSZ ignored:
/// a write past it fails as on a full disk, cut short or refused).
fn serve_with_file_limit(dir: &Path, args: &[&str]) -> (Child, u16, String) {
    use std::io::BufRead;
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(BIN);
    cmd.arg("serve")
        .args(["--port", "0", "--dir"])
        .arg(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    // SAFETY: signal(2) between fork and exec; the disposition "ignore" is
    // kept across exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let mut child = cmd.spawn().expect("roots serve");
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let url = lines
        .by_ref()
        .map(|l| l.unwrap())
        .find_map(|l| {
            l.strip_prefix("host (open tables, watch them): ")
                .map(str::to_string)
        })
        .expect("a host link");
    std::thread::spawn(move || for _ in lines {});
    let rest = url.strip_prefix("http://127.0.0.1:").unwrap();
    let (port, key) = rest.split_once("/?host=").unwrap();
    (child, port.parse().unwrap(), key.to_string())
}

/// A child killed when dropped (a failed test leaves no server behind).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Set the largest file process `pid` may write (`None`: no limit).
fn set_file_limit(pid: u32, limit: Option<u64>) {
    let lim = libc::rlimit {
        rlim_cur: limit.unwrap_or(libc::RLIM_INFINITY),
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: prlimit(2) on our own child, reading nothing back.
    let r = unsafe {
        libc::prlimit(
            pid as libc::pid_t,
            libc::RLIMIT_FSIZE,
            &lim,
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, 0, "prlimit: {}", std::io::Error::last_os_error());
}

fn replays(record: &Path) -> (bool, String) {
    let out = roots_in(
        record.parent().unwrap(),
        &["replay", &record.file_name().unwrap().to_string_lossy()],
        "",
    );
    (out.code == 0, format!("{}{}", out.stdout, out.stderr))
}

#[test]
fn a_table_stopped_by_a_full_disk_goes_on_by_itself() {
    let d = dir("full");
    let (child, port, host) = serve_with_file_limit(&d, &[]);
    let child = Killed(child);
    let server = Server {
        child: Command::new("true").spawn().unwrap(),
        port,
        host,
        dir: d.clone(),
        said: Vec::new(),
    };
    let (id, k1, k2) = two_people(&server);
    let keys = [k1, k2];
    for _ in 0..4 {
        assert_eq!(play_one(&server, &id, &keys).0, 200);
    }
    let record = d.join(format!("{id}.jsonl"));
    let size = std::fs::metadata(&record).unwrap().len();
    // Room for a few bytes more: the next line is cut short.
    set_file_limit(child.0.id(), Some(size + 7));
    let (code, r) = play_one(&server, &id, &keys);
    assert_eq!(code, 409, "{r}");
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("not yet in the record"),
        "{r}"
    );
    // No torn line: the record is its whole lines, and replays.
    assert_eq!(std::fs::metadata(&record).unwrap().len(), size);
    let (ok, said) = replays(&record);
    assert!(ok, "{said}");
    let v = wait_view(&server, &id, &keys[0], |_| true);
    assert_eq!(v["waiting_for_disk"], true, "{v}");
    let events = v["events"].as_u64().unwrap();
    // Still full: the table waits and says so.
    let (code, r) = play_one(&server, &id, &keys);
    assert_eq!(code, 409, "{r}");
    assert!(r["error"].as_str().unwrap().contains("waits"), "{r}");
    // Room again: without a restart the table writes what it owes and
    // goes on.
    set_file_limit(child.0.id(), None);
    let v = wait_view(&server, &id, &keys[0], |v| v["waiting_for_disk"] == false);
    assert_eq!(v["events"].as_u64().unwrap(), events);
    assert_eq!(play_one(&server, &id, &keys).0, 200);
    let (ok, said) = replays(&record);
    assert!(ok, "{said}");
    let lines = std::fs::read_to_string(&record).unwrap().lines().count() as u64;
    assert_eq!(lines, events + 2, "a header and every event once");
}

/// Asks the server on `port` (host key `host`) to open a Sprout-R-Out
/// table for two people: the status and the answer.
fn open_for_two(port: u16, host: &str) -> (u16, serde_json::Value) {
    serve_kit::request(
        port,
        "POST",
        "/api/tables",
        Some(host),
        Some(br#"{"variant": "sprout-r-out", "players": ["human", "human"]}"#),
    )
}

#[test]
fn a_table_that_cannot_be_opened_on_a_full_disk_leaves_no_file() {
    let d = dir("full-open");
    let (child, port, host) = serve_with_file_limit(&d, &[]);
    let child = Killed(child);
    set_file_limit(child.0.id(), Some(0));
    let (code, r) = open_for_two(port, &host);
    assert_eq!(code, 500, "{r}");
    let left: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "host.key")
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    set_file_limit(child.0.id(), None);
    let (code, r) = open_for_two(port, &host);
    assert_eq!(code, 201, "{r}");
}

// ---------------------------------------------------------------- signals

/// A marker no other process has, for the bots' leftovers: digits, the
/// fraction of a `sleep`'s seconds.
fn marker(kind: u32, sig: i32) -> String {
    format!("{}{kind}{sig:02}", std::process::id())
}

/// How many processes have `mark` in their command line.
fn alive(mark: &str) -> usize {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(mark))
        })
        .count()
}

/// Kills whatever `mark` names when dropped: a failed test leaves no
/// process behind.
struct Sweep(String);

impl Drop for Sweep {
    fn drop(&mut self) {
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            if std::fs::read(entry.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(&self.0))
            {
                // SAFETY: kill(2) of a process this test started.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
    }
}

/// Waits (up to 20 seconds) for the two marked processes of a
/// [`sleepy_bot`] to run, and fails the test if they do not.
fn bot_started(mark: &str) {
    let until = Instant::now() + Duration::from_secs(20);
    while alive(mark) < 2 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(alive(mark) >= 2, "the bot's processes did not start");
}

fn settle(mark: &str, secs: u64) -> usize {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let n = alive(mark);
        if n == 0 || Instant::now() > until {
            return n;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A player program that starts two marked `sleep`s (a child, and a
/// grandchild through a shell) and then never answers.
fn sleepy_bot(dir: &Path, mark: &str) -> String {
    let path = dir.join(format!("bot-{mark}.py"));
    std::fs::write(
        &path,
        format!(
            r#"import subprocess, sys, time
subprocess.Popen(["sleep", "3600.{mark}"])
subprocess.Popen(["sh", "-c", "sleep 3601.{mark}; true"])
for line in sys.stdin:
    time.sleep(3600)
"#
        ),
    )
    .unwrap();
    format!("cmd:python3 {}", path.display())
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: kill(2) on our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, sig);
    }
}

fn wait_for(child: &mut Child, secs: u64) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return Some(s);
        }
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn serve_ends_its_players_and_exits_128_plus_the_signal() {
    for (sig, code) in [
        (libc::SIGTERM, 143),
        (libc::SIGHUP, 129),
        (libc::SIGINT, 130),
    ] {
        let d = dir(&format!("signal-{sig}"));
        let mark = marker(1, sig);
        let _sweep = Sweep(mark.clone());
        let bot = sleepy_bot(&d, &mark);
        let players = format!("human,{bot}");
        let mut server = Server::start(
            &d,
            &[
                "sprout-r-out",
                "--players",
                &players,
                "--allow-cmd",
                "--cmd-timeout",
                "600",
            ],
        );
        let id = server
            .said
            .iter()
            .find_map(|l| l.strip_prefix("table ").and_then(|r| r.split(' ').next()))
            .unwrap()
            .to_string();
        let k1 = key_of(
            server
                .said
                .iter()
                .find(|l| l.contains("seat 1"))
                .unwrap()
                .rsplit(' ')
                .next()
                .unwrap(),
        );
        // Seat 1 plays; the bot of seat 2 starts, thinks for ever.
        let v = wait_view(&server, &id, &k1, |v| v["mine"] == true);
        let text = v["moves"][0]["text"].as_str().unwrap().to_string();
        assert_eq!(
            server
                .post(
                    &format!("/api/t/{id}/act"),
                    Some(&k1),
                    &json!({"action": text})
                )
                .0,
            200
        );
        bot_started(&mark);
        signal(&server.child, sig);
        let status = wait_for(&mut server.child, 10).expect("serve ended");
        assert_eq!(status.code(), Some(code), "signal {sig}: {status:?}");
        assert_eq!(
            settle(&mark, 3),
            0,
            "signal {sig}: the bot's processes are left"
        );
        let record = d.join(format!("{id}.jsonl"));
        assert!(std::fs::read_to_string(&record).unwrap().ends_with('\n'));
        let (ok, said) = replays(&record);
        assert!(ok, "{said}");
    }
}

#[test]
fn play_ends_its_external_players_on_sigterm_and_sighup() {
    for (sig, code) in [(libc::SIGTERM, 143), (libc::SIGHUP, 129)] {
        let d = tmp_dir("hostile4", &format!("play-{sig}"));
        let mark = marker(2, sig);
        let _sweep = Sweep(mark.clone());
        let bot = sleepy_bot(&d, &mark);
        let mut child = Command::new(BIN)
            .args([
                "play",
                "btt",
                "--players",
                &format!("{bot},random"),
                "--cmd-timeout",
                "600",
            ])
            .current_dir(&d)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        bot_started(&mark);
        signal(&child, sig);
        let status = wait_for(&mut child, 10).expect("play ended");
        assert_eq!(status.code(), Some(code), "{status:?}");
        assert_eq!(
            settle(&mark, 3),
            0,
            "signal {sig}: the bot's processes are left"
        );
    }
}

// ---------------------------------------------------------------- output

/// `roots ARGS` with standard output closed (`>&-`) or sent to
/// `/dev/full`: its status and standard error.
fn with_stdout(how: &str, args: &[&str], input: &str) -> (Option<i32>, String) {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let redirect = match how {
        "closed" => ">&-",
        _ => ">/dev/full",
    };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec '{BIN}' {} {redirect}", quoted.join(" ")))
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_or_full_stdout_is_exit_2_with_one_message_in_every_command() {
    let start = r#"{"cmd":"start","variant":"btt","seed":7}"#;
    let forms: &[(&[&str], &str)] = &[
        (&["--help"], ""),
        (&["--version"], ""),
        (&["simulate", "--help"], ""),
        (&["games"], ""),
        (&["show", "standard"], ""),
        (&["schema"], ""),
        (&["simulate", "-n", "2", "--seed", "1", "-q"], ""),
        (
            &[
                "compare",
                "standard",
                "fewer-beads",
                "-n",
                "2",
                "--seed",
                "1",
                "-q",
            ],
            "",
        ),
        (&["engine"], start),
        (&["completions", "bash"], ""),
    ];
    for how in ["closed", "full"] {
        for (args, input) in forms {
            let (code, stderr) = with_stdout(how, args, input);
            assert_eq!(code, Some(2), "{how} {args:?}: {stderr}");
            assert_eq!(
                stderr.lines().count(),
                1,
                "{how} {args:?}: not one message: {stderr}"
            );
            assert!(
                (stderr.contains("standard output") || stderr.contains("cannot write an answer"))
                    && !stderr.contains("panicked"),
                "{how} {args:?}: {stderr}"
            );
        }
    }
}

// ---------------------------------------------------------------- soak

/// The soak script's short form: 15 s of players, idle and slow clients and
/// a guesser; it fails when the server's descriptors or memory grow, an
/// idle or slow client is not dropped, a guesser is never throttled, or
/// SIGTERM is not exit 143. (`scripts/serve-soak.py` runs 10 minutes by
/// default; `docs/serve.md` has its figures.)
#[test]
fn the_soak_script_short_form_holds() {
    let out = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/serve-soak.py"
        ))
        .arg(BIN)
        .args(["--seconds", "15", "--window", "5", "--players", "3"])
        .args(["--idle", "15", "--slow", "2", "--head-timeout", "1"])
        .output()
        .expect("python3");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(said.contains("SIGTERM: exit 143"), "{said}");
}

/// `timeout -s TERM` on a run with external players: SIGTERM and SIGHUP
/// stop it like Ctrl-C (the partial report printed, exit 128 + the signal)
/// and leave none of the players' processes behind. It exited 143 with no
/// report, or (before) left every player's children running.
#[test]
fn simulate_ends_its_players_and_prints_a_partial_report_on_sigterm_and_sighup() {
    for (sig, code) in [(libc::SIGTERM, 143), (libc::SIGHUP, 129)] {
        let d = tmp_dir("hostile4", &format!("simulate-{sig}"));
        let mark = marker(3, sig);
        let _sweep = Sweep(mark.clone());
        let bot = sleepy_bot(&d, &mark);
        let bots = format!("{bot},random");
        let mut child = Command::new(BIN)
            .args([
                "simulate",
                "sprout-r-out",
                "--bots",
                &bots,
                "--cmd-timeout",
                "1",
                "--games",
                "1000",
                "--jobs",
                "1",
                "--seed",
                "3",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        bot_started(&mark);
        signal(&child, sig);
        let status = wait_for(&mut child, 20).expect("simulate ended");
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(status.code(), Some(code), "signal {sig}: {status:?}\n{out}");
        assert!(
            out.starts_with("PARTIAL REPORT: interrupted after "),
            "signal {sig}: {out}"
        );
        assert_eq!(
            settle(&mark, 3),
            0,
            "signal {sig}: the bot's processes are left"
        );
    }
}
