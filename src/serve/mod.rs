//! `roots serve`: a playtest table in the browser. A local web server (axum
//! on tokio) where a host opens tables of any variant with any mix of people
//! and bots; each person gets a secret link, clicks moves on the board's
//! picture (the same SVG as `roots view`) and sees the game live through
//! server-sent events.
//!
//! * [`table`]: one table: the game, its record, each seat's view (no async);
//! * this module: the tables of a server, their files, the HTTP API, limits.
//!
//! The page (`page.html`, `app.js`, `app.css`) is compiled into the binary;
//! nothing is read from disk on a request, and the only files the server
//! writes are its tables' (`ID.jsonl`, the same record as `roots play`;
//! `ID.table.json`, names and secrets; `ID.feedback.jsonl`, the answers to
//! the questionnaire) in its directory, named by ids it made itself.

pub mod feedback;
pub mod table;

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{
    ConnectInfo, DefaultBodyLimit, FromRequestParts, Path as UrlPath, Query, State,
};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::core::protocol::Seat;
use crate::games::AnyRules;
use crate::record::DiceMode;
use table::{Answer, Meta, MetaSeat, Request, Sitter, Table};

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 16 * 1024;
/// Requests a client (a seat's secret, or an address without one) may make
/// at once, and how many more it gets a second.
const BURST: f64 = 60.0;
const PER_SECOND: f64 = 20.0;
/// The most tables a server holds (open or finished).
pub const MAX_TABLES: usize = 2000;
/// The longest seat name, in characters.
const MAX_NAME: usize = 40;

/// What a server allows a client before it stops waiting for it: the
/// defaults are those of `roots serve`'s flags (`docs/serve.md`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// How long a connection may take to send a request's head (the
    /// request line and headers), counted from when the server starts
    /// waiting for it: on a new connection, and on a kept-alive one between
    /// requests (so it is also how long an idle connection is kept).
    pub head_timeout: Duration,
    /// How long a request's body may take to arrive, once its head has.
    pub body_timeout: Duration,
    /// The most connections open at once; more are answered 503 and
    /// closed.
    pub max_connections: usize,
    /// Wrong keys an address may send before it is answered 429; the
    /// allowance comes back at one a [`Limits::wrong_key_refill`].
    pub wrong_keys: u32,
    /// How long an address waits for one more wrong key.
    pub wrong_key_refill: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            head_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: 256,
            wrong_keys: 20,
            wrong_key_refill: Duration::from_secs(10),
        }
    }
}

/// How often a table that could not write its record tries again.
const RETRY_WRITES: Duration = Duration::from_secs(1);
/// How long a server stopping on a signal waits for its connections to
/// finish the requests they are answering.
const GRACE: Duration = Duration::from_secs(2);

/// How a server is set up.
pub struct Config {
    /// Where the tables' files are (created if missing).
    pub dir: PathBuf,
    /// The variants a host may open, by name: those given on the command
    /// line, then every built-in one.
    pub variants: Vec<(String, AnyRules)>,
    /// Whether a host may seat external programs (`cmd:`): they run on
    /// this machine.
    pub allow_cmd: bool,
    /// An external player's time per decision, in milliseconds.
    pub cmd_timeout_ms: u32,
    /// Time and count limits on clients.
    pub limits: Limits,
}

/// A table as the server holds it.
struct Entry {
    table: Mutex<Box<dyn Table>>,
    meta: Mutex<Meta>,
    /// Which seats answered the questionnaire.
    answered: Mutex<Vec<bool>>,
    /// The views (the onlooker's first, then each seat's), as JSON text,
    /// made after every change: pages read them without waiting for a bot
    /// that is thinking.
    views: watch::Sender<Arc<Vec<String>>>,
}

/// The server: its tables and limits.
pub struct Hub {
    cfg: Config,
    /// The host's secret: opens tables, closes any of them.
    host: String,
    tables: RwLock<HashMap<String, Arc<Entry>>>,
    buckets: Mutex<HashMap<String, (Instant, f64)>>,
    /// Each address's allowance of wrong keys (the last change, what is
    /// left).
    wrong: Mutex<HashMap<IpAddr, (Instant, f64)>>,
    /// Set when the server is stopping: bots play no more.
    stopping: std::sync::atomic::AtomicBool,
}

/// A new secret: 128 random bits, in hex, from the thread's generator (a
/// cryptographic one seeded by the operating system).
pub fn secret() -> String {
    let bytes: [u8; 16] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compare secrets in time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

impl Hub {
    /// Open the server's directory: its host secret (made once, kept in
    /// `host.key`) and every table found there, rebuilt from its record.
    /// Tables that cannot be opened are reported and left alone.
    pub fn open(cfg: Config) -> Result<(Hub, Vec<String>), String> {
        std::fs::create_dir_all(&cfg.dir)
            .map_err(|e| format!("{}: cannot create the directory: {e}", cfg.dir.display()))?;
        let key = cfg.dir.join("host.key");
        let host = match std::fs::read_to_string(&key) {
            Ok(k) if k.trim().len() == 32 && k.trim().bytes().all(|b| b.is_ascii_hexdigit()) => {
                k.trim().to_string()
            }
            _ => {
                let k = secret();
                write_private(&key, &k)
                    .map_err(|e| format!("{}: cannot write: {e}", key.display()))?;
                k
            }
        };
        let hub = Hub {
            cfg,
            host,
            tables: RwLock::new(HashMap::new()),
            buckets: Mutex::new(HashMap::new()),
            wrong: Mutex::new(HashMap::new()),
            stopping: std::sync::atomic::AtomicBool::new(false),
        };
        let mut problems = Vec::new();
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&hub.cfg.dir)
            .map_err(|e| format!("{}: {e}", hub.cfg.dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".table.json"))
            .collect();
        entries.sort();
        for meta_path in entries {
            match hub.load(&meta_path) {
                Ok(()) => {}
                Err(e) => problems.push(e),
            }
        }
        Ok((hub, problems))
    }

    fn load(&self, meta_path: &Path) -> Result<(), String> {
        let text = std::fs::read_to_string(meta_path)
            .map_err(|e| format!("{}: {e}", meta_path.display()))?;
        let meta: Meta = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{}: expected a table's file, found: {e}",
                meta_path.display()
            )
        })?;
        if !valid_id(&meta.id) {
            return Err(format!("{}: a bad table id", meta_path.display()));
        }
        let (record, _, feedback) = table::paths(&self.cfg.dir, &meta.id);
        let people = meta.seats.iter().map(|s| s.name.clone()).collect();
        let t = table::open(&record, people, self.cfg.cmd_timeout_ms)?;
        let mut answered = vec![false; meta.seats.len()];
        for a in table::read_answers(&feedback)? {
            if let Some(x) = answered.get_mut(usize::from(a.seat).wrapping_sub(1)) {
                *x = true;
            }
        }
        self.insert(meta, t, answered);
        Ok(())
    }

    fn insert(&self, meta: Meta, t: Box<dyn Table>, answered: Vec<bool>) -> Arc<Entry> {
        let id = meta.id.clone();
        let (tx, _) = watch::channel(Arc::new(Vec::new()));
        let entry = Arc::new(Entry {
            table: Mutex::new(t),
            meta: Mutex::new(meta),
            answered: Mutex::new(answered),
            views: tx,
        });
        refresh(&entry);
        self.tables
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, Arc::clone(&entry));
        entry
    }

    /// The host's secret.
    pub fn host_key(&self) -> &str {
        &self.host
    }

    /// The ids of the tables whose bots or dice are due to play (after a
    /// restart).
    pub fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .cloned()
            .collect();
        ids.sort();
        ids
    }

    fn entry(&self, id: &str) -> Option<Arc<Entry>> {
        self.tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Take one request from `key`'s allowance; `false` when it is spent.
    fn allow(&self, key: &str) -> bool {
        let mut b = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if b.len() > 100_000 {
            b.retain(|_, (t, _)| now.duration_since(*t) < Duration::from_secs(10));
        }
        let (last, tokens) = b.entry(key.to_string()).or_insert((now, BURST));
        let refill = now.duration_since(*last).as_secs_f64() * PER_SECOND;
        *tokens = (*tokens + refill).min(BURST);
        *last = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether `addr` has wrong keys left to try (without spending one).
    fn may_guess(&self, addr: IpAddr) -> bool {
        let mut w = self.wrong.lock().unwrap_or_else(|e| e.into_inner());
        let lim = self.cfg.limits;
        match w.get_mut(&addr) {
            None => true,
            Some((last, left)) => {
                let now = Instant::now();
                let refill = now.duration_since(*last).as_secs_f64()
                    / lim.wrong_key_refill.as_secs_f64().max(1e-3);
                *left = (*left + refill).min(f64::from(lim.wrong_keys));
                *last = now;
                *left >= 1.0
            }
        }
    }

    /// Spend one of `addr`'s wrong keys.
    fn wrong_key(&self, addr: IpAddr) {
        let mut w = self.wrong.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if w.len() > 100_000 {
            let full = self.cfg.limits.wrong_key_refill * self.cfg.limits.wrong_keys;
            w.retain(|_, (t, _)| now.duration_since(*t) < full);
        }
        let (last, left) = w
            .entry(addr)
            .or_insert((now, f64::from(self.cfg.limits.wrong_keys)));
        *last = now;
        *left = (*left - 1.0).max(0.0);
    }

    /// Open a new table; the host only.
    fn create(&self, req: NewTable) -> Result<Value, (StatusCode, String)> {
        let bad = |m: String| (StatusCode::BAD_REQUEST, m);
        let rules = self
            .cfg
            .variants
            .iter()
            .find(|(n, _)| *n == req.variant)
            .map(|(_, r)| r.clone())
            .ok_or_else(|| {
                bad(format!(
                    "expected a variant this server offers, found \"{}\"",
                    req.variant.escape_debug()
                ))
            })?;
        if req.players.is_empty() || req.players.len() > 8 {
            return Err(bad(format!(
                "expected 1 to 8 players, found {}",
                req.players.len()
            )));
        }
        let sitters: Vec<Sitter> = req
            .players
            .iter()
            .enumerate()
            .map(|(s, p)| {
                Sitter::parse(p)
                    .map_err(|e| bad(format!("seat {}: {e}", s + 1)))
                    .and_then(|sitter| match sitter {
                        Sitter::Bot(b) if b.is_external() && !self.cfg.allow_cmd => Err(bad(
                            format!(
                                "seat {}: external programs (cmd:) run on this machine: start the server with --allow-cmd to seat them",
                                s + 1
                            ),
                        )),
                        Sitter::Bot(b) => Ok(Sitter::Bot(b.with_timeout(self.cfg.cmd_timeout_ms))),
                        h => Ok(h),
                    })
            })
            .collect::<Result<_, _>>()?;
        let names: Vec<String> = sitters
            .iter()
            .enumerate()
            .map(|(s, sitter)| {
                let given = req
                    .names
                    .get(s)
                    .map(|n| clean_name(n))
                    .filter(|n| !n.is_empty());
                match sitter {
                    Sitter::Human => given.unwrap_or_else(|| format!("player {}", s + 1)),
                    Sitter::Bot(b) => given.unwrap_or_else(|| b.to_string()),
                }
            })
            .collect();
        let mode = match req.dice.as_deref().unwrap_or("auto") {
            "auto" => DiceMode::Auto,
            "manual" => DiceMode::Manual,
            other => {
                return Err(bad(format!(
                    "expected dice auto or manual, found \"{}\"",
                    other.escape_debug()
                )));
            }
        };
        if self.tables.read().unwrap_or_else(|e| e.into_inner()).len() >= MAX_TABLES {
            return Err((
                StatusCode::SERVICE_UNAVAILABLE,
                format!("this server holds {MAX_TABLES} tables already"),
            ));
        }
        let seed = req
            .seed
            .unwrap_or_else(|| rand::random::<u64>() % 1_000_000_000_000);
        let id = secret()[..12].to_string();
        let (record, meta_path, _) = table::paths(&self.cfg.dir, &id);
        let meta = Meta {
            id: id.clone(),
            host: secret(),
            seats: sitters
                .iter()
                .zip(&names)
                .map(|(s, n)| MetaSeat {
                    name: n.clone(),
                    token: match s {
                        Sitter::Human => secret(),
                        Sitter::Bot(_) => String::new(),
                    },
                })
                .collect(),
            closed: false,
        };
        // The secrets first: a record without them could not be played on.
        table::write_meta(&meta_path, &meta).map_err(|e| {
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("cannot write the table's file: {e}"),
            )
        })?;
        let t = table::create(&rules, sitters, names, seed, mode, &record).map_err(|e| {
            // Nothing of a table that could not be opened is left behind
            // (the record is new: its id was made just now).
            let _ = std::fs::remove_file(&meta_path);
            let _ = std::fs::remove_file(&record);
            if e.contains("cannot create the record") {
                (StatusCode::INTERNAL_SERVER_ERROR, e)
            } else {
                bad(e)
            }
        })?;
        let n = meta.seats.len();
        let entry = self.insert(meta, t, vec![false; n]);
        Ok(self.links(&entry))
    }

    /// The unfinished, open table of the offered variant `variant` with
    /// exactly these seats, if the server holds one (the furthest played
    /// when several): a `--players` table picked up again when the server
    /// is started again. Its links, as [`Hub::open_table`] gives them.
    pub fn unfinished_table(&self, variant: &str, players: &[String]) -> Option<Value> {
        let (_, rules) = self.cfg.variants.iter().find(|(n, _)| n == variant)?;
        let sitters: Vec<Sitter> = players
            .iter()
            .map(|p| Sitter::parse(p))
            .collect::<Result<_, _>>()
            .ok()?;
        let entries: Vec<Arc<Entry>> = self
            .tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        let mut best: Option<(u64, String, Arc<Entry>)> = None;
        for entry in entries {
            let (id, closed) = {
                let meta = entry.meta.lock().unwrap_or_else(|e| e.into_inner());
                (meta.id.clone(), meta.closed)
            };
            let events = {
                let t = entry.table.lock().unwrap_or_else(|e| e.into_inner());
                if closed || t.finished() || !t.is_for(rules, &sitters) {
                    continue;
                }
                t.events()
            };
            // The furthest played; of equals, the first id (a fixed choice).
            let better = best
                .as_ref()
                .is_none_or(|(e, i, _)| events > *e || (events == *e && id < *i));
            if better {
                best = Some((events, id, entry));
            }
        }
        best.map(|(_, _, entry)| self.links(&entry))
    }

    /// Open a table of the offered variant `variant` with these seats
    /// (`human` or a bot); its links, as the host's page gets them.
    pub fn open_table(&self, variant: &str, players: &[String]) -> Result<Value, String> {
        self.create(NewTable {
            variant: variant.to_string(),
            players: players.to_vec(),
            names: Vec::new(),
            dice: None,
            seed: None,
        })
        .map_err(|(_, m)| m)
    }

    /// The links of a table, for its host.
    fn links(&self, entry: &Entry) -> Value {
        // The table's lock before the names' (the order `refresh` takes them).
        let summary = entry
            .table
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .summary();
        let meta = entry.meta.lock().unwrap_or_else(|e| e.into_inner());
        let seats: Vec<Value> = meta
            .seats
            .iter()
            .enumerate()
            .map(|(s, seat)| {
                json!({
                    "seat": s + 1,
                    "name": seat.name,
                    "link": (!seat.token.is_empty())
                        .then(|| format!("/?t={}&k={}", meta.id, seat.token)),
                })
            })
            .collect();
        json!({
            "id": meta.id,
            "host": format!("/?t={}&k={}", meta.id, meta.host),
            "seats": seats,
            "closed": meta.closed,
            "table": summary,
        })
    }
}

fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    opts.open(path)?.write_all(text.as_bytes())
}

fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 32 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A name typed by the host: no control characters, trimmed, bounded.
fn clean_name(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME)
        .collect::<String>()
        .trim()
        .to_string()
}

/// Make the views of a table again and tell its pages.
fn refresh(entry: &Entry) {
    // Published under the table's lock: views made by two threads cannot
    // arrive in the wrong order (an older one replacing a newer).
    let t = entry.table.lock().unwrap_or_else(|e| e.into_inner());
    let views = {
        let meta = entry.meta.lock().unwrap_or_else(|e| e.into_inner());
        let answered = entry.answered.lock().unwrap_or_else(|e| e.into_inner());
        let n = meta.seats.len();
        (0..=n)
            .map(|i| {
                let seat = i.checked_sub(1).map(|s| s as Seat);
                let mut v = t.view(seat);
                v["id"] = json!(meta.id);
                v["closed"] = json!(meta.closed);
                v["answered"] = json!(seat.is_some_and(|s| answered[usize::from(s)]));
                v["host"] = json!(seat.is_none());
                v.to_string()
            })
            .collect()
    };
    entry.views.send_replace(Arc::new(views));
    drop(t);
}

/// Let the bots and seeded dice of a table play until a person is due,
/// each event shown as it happens.
fn drive(hub: &Hub, entry: &Entry) {
    use std::sync::atomic::Ordering;
    loop {
        let stepped = {
            let mut t = entry.table.lock().unwrap_or_else(|e| e.into_inner());
            if hub.stopping.load(Ordering::SeqCst)
                || entry.meta.lock().unwrap_or_else(|e| e.into_inner()).closed
            {
                false
            } else {
                // A forfeit is in the table's log and view.
                t.bot_step().unwrap_or(false)
            }
        };
        refresh(entry);
        if !stepped {
            break;
        }
    }
}

/// Start the bots of every table (after a restart).
pub async fn start_bots(hub: &Arc<Hub>) {
    for id in hub.ids() {
        if let Some(e) = hub.entry(&id) {
            let hub = Arc::clone(hub);
            let _ = tokio::task::spawn_blocking(move || drive(&hub, &e)).await;
        }
    }
}

/// Every [`RETRY_WRITES`], let each table that could not write its record
/// (a full disk) try again; one that can goes on by itself: its views are
/// made again and its bots play.
async fn retry_writes(hub: Arc<Hub>) {
    let mut tick = tokio::time::interval(RETRY_WRITES);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let waiting: Vec<Arc<Entry>> = hub
            .tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|e| e.table.try_lock().is_ok_and(|t| t.waiting_for_disk()))
            .cloned()
            .collect();
        for entry in waiting {
            let hub = Arc::clone(&hub);
            let _ = tokio::task::spawn_blocking(move || {
                let written = entry
                    .table
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .write_waiting();
                if written {
                    refresh(&entry);
                    drive(&hub, &entry);
                }
            })
            .await;
        }
    }
}

impl Hub {
    /// Stop the tables for good (a signal): bots play no more (an external
    /// one thinking is ended), and each table's step in progress (a move
    /// being written) is waited for, so every record ends in a whole line.
    fn stop_tables(&self) {
        self.stopping
            .store(true, std::sync::atomic::Ordering::SeqCst);
        crate::bots::end_external_players();
        let entries: Vec<Arc<Entry>> = self
            .tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        for entry in entries {
            drop(entry.table.lock().unwrap_or_else(|e| e.into_inner()));
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTable {
    variant: String,
    players: Vec<String>,
    #[serde(default)]
    names: Vec<String>,
    dice: Option<String>,
    seed: Option<u64>,
}

#[derive(Deserialize)]
struct KeyQuery {
    k: Option<String>,
}

/// Who is asking: a seat, the host (of this table or the server), or
/// nobody known.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Who {
    Seat(Seat),
    Host,
}

impl Who {
    /// Where this viewer's view stands in a table's views: the host's
    /// first, then each seat's.
    fn view_index(self) -> usize {
        match self {
            Who::Host => 0,
            Who::Seat(s) => usize::from(s) + 1,
        }
    }
}

fn who(hub: &Hub, entry: &Entry, key: Option<&str>) -> Option<Who> {
    let key = key?;
    if same(key, &hub.host) {
        return Some(Who::Host);
    }
    let meta = entry.meta.lock().unwrap_or_else(|e| e.into_inner());
    if same(key, &meta.host) {
        return Some(Who::Host);
    }
    meta.seats
        .iter()
        .position(|s| !s.token.is_empty() && same(key, &s.token))
        .map(|s| Who::Seat(s as Seat))
}

fn error(code: StatusCode, message: impl Into<String>) -> Response {
    reply(code, &json!({ "error": message.into() }))
}

/// A JSON answer.
fn reply(code: StatusCode, v: &Value) -> Response {
    (
        code,
        [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
        v.to_string(),
    )
        .into_response()
}

type Shared = Arc<Hub>;

/// The key a request carries: the `X-Roots-Key` header, or `?k=` (for
/// `EventSource`, which cannot send headers).
fn request_key(parts: &Parts) -> Option<String> {
    if let Some(k) = parts
        .headers
        .get("x-roots-key")
        .and_then(|v| v.to_str().ok())
    {
        return Some(k.to_string());
    }
    let q = parts.uri.query()?;
    query_key(q)
}

/// `k` of a query string (`a=1&k=KEY`), percent-decoded.
fn query_key(query: &str) -> Option<String> {
    Query::<KeyQuery>::try_from_uri(&format!("/?{query}").parse().ok()?)
        .ok()
        .and_then(|Query(q)| q.k)
}

/// The client's address (set by the server for every connection).
fn client(parts: &Parts) -> IpAddr {
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip())
}

/// The client's address, unless it has sent too many wrong keys: then 429,
/// before anything else of the request is looked at.
#[allow(clippy::result_large_err)]
fn guessing_client(parts: &Parts, hub: &Shared) -> Result<IpAddr, Response> {
    let addr = client(parts);
    if hub.may_guess(addr) {
        Ok(addr)
    } else {
        Err(too_many())
    }
}

/// A right key held to its own request budget: 429 past it.
#[allow(clippy::result_large_err)]
fn key_budget(hub: &Shared, key: &str) -> Result<(), Response> {
    if hub.allow(&format!("k:{key}")) {
        Ok(())
    } else {
        Err(too_many())
    }
}

fn too_many() -> Response {
    error(
        StatusCode::TOO_MANY_REQUESTS,
        "too many requests: wait a moment",
    )
}

/// A request admitted to a table: within its client's budgets, for a table
/// the server holds, with a key that opens it (its host's or a seat's).
/// Every handler of a table takes one: the checks are made here, once.
///
/// The order of the checks: an address that has sent too many wrong keys
/// is answered 429 before anything else (so guessing keys is slowed to the
/// allowance's refill, whatever the keys); an unknown table or a key that
/// does not open it spends one of the address's wrong keys (404, 403); a
/// right key is then held to its own request budget (429).
struct Admitted {
    entry: Arc<Entry>,
    who: Who,
}

impl FromRequestParts<Shared> for Admitted {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, hub: &Shared) -> Result<Admitted, Response> {
        let addr = guessing_client(parts, hub)?;
        let id = match UrlPath::<HashMap<String, String>>::from_request_parts(parts, hub).await {
            Ok(UrlPath(p)) => p.get("id").cloned().unwrap_or_default(),
            Err(r) => return Err(r.into_response()),
        };
        let key = request_key(parts);
        let Some(entry) = hub.entry(&id) else {
            hub.wrong_key(addr);
            return Err(error(StatusCode::NOT_FOUND, "no such table"));
        };
        let Some(who) = who(hub, &entry, key.as_deref()) else {
            hub.wrong_key(addr);
            return Err(error(
                StatusCode::FORBIDDEN,
                "this link's key does not open this table",
            ));
        };
        // A right key: its own budget (the host's key by the table's, a
        // seat's by its own).
        key_budget(hub, &key.unwrap_or_default())?;
        Ok(Admitted { entry, who })
    }
}

/// A request admitted for a seat of a table (not its host): playing and
/// answering the questionnaire.
struct Seated {
    entry: Arc<Entry>,
    seat: Seat,
}

impl FromRequestParts<Shared> for Seated {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, hub: &Shared) -> Result<Seated, Response> {
        let Admitted { entry, who } = Admitted::from_request_parts(parts, hub).await?;
        match who {
            Who::Seat(seat) => Ok(Seated { entry, seat }),
            Who::Host => Err(error(
                StatusCode::FORBIDDEN,
                "only a seat's link can do this (this is the host's)",
            )),
        }
    }
}

/// A request with the server's host key (opening and listing tables).
struct ServerHost;

impl FromRequestParts<Shared> for ServerHost {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, hub: &Shared) -> Result<ServerHost, Response> {
        let addr = guessing_client(parts, hub)?;
        match request_key(parts) {
            Some(k) if same(&k, &hub.host) => key_budget(hub, &k).map(|()| ServerHost),
            _ => {
                hub.wrong_key(addr);
                Err(error(
                    StatusCode::FORBIDDEN,
                    "this needs the host's link (printed by roots serve)",
                ))
            }
        }
    }
}

/// A request's body as JSON of `T`, unknown keys refused (as the engine
/// protocol refuses them): 400 with serde's words otherwise.
#[allow(clippy::result_large_err)]
fn json_body<T: serde::de::DeserializeOwned>(body: &[u8], what: &str) -> Result<T, Response> {
    serde_json::from_slice(body)
        .map_err(|e| error(StatusCode::BAD_REQUEST, format!("expected {what}: {e}")))
}

async fn view(Admitted { entry, who }: Admitted) -> Response {
    let i = who.view_index();
    let text = entry.views.borrow().get(i).cloned().unwrap_or_default();
    json_text(text)
}

fn json_text(text: String) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
        text,
    )
        .into_response()
}

async fn events(Admitted { entry, who }: Admitted) -> Response {
    let i = who.view_index();
    let mut rx = entry.views.subscribe();
    rx.mark_changed();
    let stream = futures_util::stream::unfold(rx, move |mut rx| async move {
        rx.changed().await.ok()?;
        let text = rx.borrow_and_update().get(i).cloned().unwrap_or_default();
        Some((Ok::<_, Infallible>(SseEvent::default().data(text)), rx))
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Move {
    action: Option<String>,
    face: Option<String>,
    /// For an undo: `true` asks, `false` withdraws.
    agree: Option<bool>,
}

/// Run `f` on the table off the async workers, then refresh its views and
/// let its bots play.
async fn mutate(
    hub: Shared,
    entry: Arc<Entry>,
    f: impl FnOnce(&mut dyn Table) -> Result<String, String> + Send + 'static,
) -> Response {
    let result = tokio::task::spawn_blocking(move || {
        if entry.meta.lock().unwrap_or_else(|e| e.into_inner()).closed {
            return Err("the host closed this table".to_string());
        }
        let r = {
            let mut t = entry.table.lock().unwrap_or_else(|e| e.into_inner());
            f(&mut **t)
        };
        refresh(&entry);
        if r.is_ok() {
            let e = Arc::clone(&entry);
            std::thread::spawn(move || drive(&hub, &e));
        }
        r
    })
    .await
    .unwrap_or_else(|e| Err(format!("the table failed: {e}")));
    match result {
        Ok(said) => reply(StatusCode::OK, &json!({ "ok": said })),
        Err(why) => error(StatusCode::CONFLICT, why),
    }
}

async fn act(
    State(hub): State<Shared>,
    Seated { entry, seat }: Seated,
    UrlPath((_, what)): UrlPath<(String, String)>,
    body: axum::body::Bytes,
) -> Response {
    let m: Move = match json_body(&body, "JSON") {
        Ok(m) => m,
        Err(r) => return r,
    };
    match what.as_str() {
        "act" => {
            let Some(text) = m.action else {
                return error(StatusCode::BAD_REQUEST, "expected an action");
            };
            mutate(hub, entry, move |t| t.request(seat, Request::Act(&text))).await
        }
        "chance" => {
            let Some(text) = m.face else {
                return error(StatusCode::BAD_REQUEST, "expected a face or a card");
            };
            mutate(hub, entry, move |t| t.request(seat, Request::Chance(&text))).await
        }
        "undo" => {
            let req = if m.agree.unwrap_or(true) {
                Request::Undo
            } else {
                Request::KeepIt
            };
            mutate(hub, entry, move |t| t.request(seat, req)).await
        }
        _ => error(StatusCode::NOT_FOUND, "no such request"),
    }
}

async fn feedback(
    State(hub): State<Shared>,
    Seated { entry, seat }: Seated,
    body: axum::body::Bytes,
) -> Response {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Form {
        fun: u8,
        fairness: u8,
        length: String,
        #[serde(default)]
        text: String,
    }
    let form: Form = match json_body(&body, "answers") {
        Ok(f) => f,
        Err(r) => return r,
    };
    let answer = Answer {
        seat: u16::from(seat) + 1,
        name: String::new(),
        fun: form.fun,
        fairness: form.fairness,
        length: form.length,
        text: form
            .text
            .chars()
            .filter(|c| !c.is_control() || *c == '\n')
            .collect(),
    };
    // A bad answer is a bad request, whatever the table's state.
    if let Err(why) = answer.check() {
        return error(StatusCode::BAD_REQUEST, why);
    }
    let dir = hub.cfg.dir.clone();
    let result = tokio::task::spawn_blocking(move || {
        if !entry
            .table
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .finished()
        {
            return Err("the questionnaire opens at the end of the game".to_string());
        }
        let (name, id) = {
            let meta = entry.meta.lock().unwrap_or_else(|e| e.into_inner());
            (meta.seats[usize::from(seat)].name.clone(), meta.id.clone())
        };
        let answer = Answer { name, ..answer };
        {
            let mut answered = entry.answered.lock().unwrap_or_else(|e| e.into_inner());
            if answered[usize::from(seat)] {
                return Err("this seat has answered already".to_string());
            }
            let (_, _, path) = table::paths(&dir, &id);
            append_line(&path, &serde_json::to_string(&answer).unwrap_or_default())
                .map_err(|e| format!("cannot write the answers: {e}"))?;
            answered[usize::from(seat)] = true;
        }
        refresh(&entry);
        Ok("thank you".to_string())
    })
    .await
    .unwrap_or_else(|e| Err(format!("failed: {e}")));
    match result {
        Ok(said) => reply(StatusCode::OK, &json!({ "ok": said })),
        Err(why) => error(StatusCode::CONFLICT, why),
    }
}

/// Append `line` to `path` whole: a write cut short (a full disk) is cut
/// back, so the file never ends in a torn line.
fn append_line(path: &Path, line: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)?;
    let before = f.metadata()?.len();
    let written = f
        .write_all(format!("{line}\n").as_bytes())
        .and_then(|()| f.sync_data());
    if written.is_err() {
        let _ = f.set_len(before);
    }
    written
}

async fn close(State(hub): State<Shared>, Admitted { entry, who }: Admitted) -> Response {
    if who != Who::Host {
        return error(StatusCode::FORBIDDEN, "only the table's host can close it");
    }
    let dir = hub.cfg.dir.clone();
    let done = tokio::task::spawn_blocking(move || {
        let r = {
            let mut meta = entry.meta.lock().unwrap_or_else(|e| e.into_inner());
            meta.closed = true;
            let (_, path, _) = table::paths(&dir, &meta.id);
            table::write_meta(&path, &meta)
        };
        refresh(&entry);
        r
    })
    .await;
    match done {
        Ok(Ok(())) => reply(StatusCode::OK, &json!({ "ok": "closed" })),
        Ok(Err(e)) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot write: {e}"),
        ),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

async fn lobby(State(hub): State<Shared>, _: ServerHost) -> Response {
    let mut tables: Vec<(String, Arc<Entry>)> = hub
        .tables
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|(k, v)| (k.clone(), Arc::clone(v)))
        .collect();
    tables.sort_by(|a, b| a.0.cmp(&b.0));
    let hub2 = Arc::clone(&hub);
    let list = tokio::task::spawn_blocking(move || {
        tables
            .iter()
            .map(|(_, e)| hub2.links(e))
            .collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default();
    let variants: Vec<Value> = hub
        .cfg
        .variants
        .iter()
        .map(|(n, r)| {
            let seats = r.seats();
            json!({
                "name": n,
                "game": r.game().title(),
                "min": seats.start(),
                "max": seats.end(),
            })
        })
        .collect();
    reply(
        StatusCode::OK,
        &json!({
            "variants": variants,
            "tables": list,
            "allow_cmd": hub.cfg.allow_cmd,
        }),
    )
}

async fn new_table(State(hub): State<Shared>, _: ServerHost, body: axum::body::Bytes) -> Response {
    let req: NewTable = match json_body(&body, "a table") {
        Ok(r) => r,
        Err(r) => return r,
    };
    let hub2 = Arc::clone(&hub);
    let made = tokio::task::spawn_blocking(move || hub2.create(req)).await;
    match made {
        Ok(Ok(links)) => {
            if let Some(e) = links["id"].as_str().and_then(|id| hub.entry(id)) {
                let hub = Arc::clone(&hub);
                std::thread::spawn(move || drive(&hub, &e));
            }
            reply(StatusCode::CREATED, &links)
        }
        Ok(Err((code, why))) => error(code, why),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

const PAGE: &str = include_str!("page.html");
const APP_JS: &str = include_str!("app.js");
const APP_CSS: &str = include_str!("app.css");

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// Headers on every answer: the page runs only its own script, is never
/// framed, and never sends its address (which holds a secret) elsewhere.
async fn harden(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
        ),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// Read a request's body whole before its handler runs, within the
/// server's `body_timeout` (408 and the connection closed when it does not
/// come) and [`MAX_BODY`] (413).
async fn bounded_body(
    State(hub): State<Shared>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let (parts, body) = req.into_parts();
    let read = tokio::time::timeout(
        hub.cfg.limits.body_timeout,
        axum::body::to_bytes(body, MAX_BODY),
    )
    .await;
    match read {
        Ok(Ok(bytes)) => {
            next.run(axum::extract::Request::from_parts(
                parts,
                axum::body::Body::from(bytes),
            ))
            .await
        }
        Ok(Err(_)) => error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("expected a body of at most {MAX_BODY} bytes"),
        ),
        Err(_) => {
            let mut r = error(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request's body did not arrive within {} s",
                    hub.cfg.limits.body_timeout.as_secs_f64()
                ),
            );
            r.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            r
        }
    }
}

/// The HTTP API and the page.
pub fn router(hub: Shared) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", PAGE) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/app.css",
            get(|| async { asset("text/css; charset=utf-8", APP_CSS) }),
        )
        .route("/api/tables", get(lobby).post(new_table))
        .route("/api/t/{id}", get(view))
        .route("/api/t/{id}/events", get(events))
        .route("/api/t/{id}/feedback", post(feedback))
        .route("/api/t/{id}/close", post(close))
        .route("/api/t/{id}/{what}", post(act))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&hub),
            bounded_body,
        ))
        .layer(axum::middleware::from_fn(harden))
        .with_state(hub)
}

/// Serve on `listener` until a signal (SIGINT, SIGTERM, SIGHUP) ends the
/// process. Each connection is HTTP/1.1 under [`Limits`]: its request heads
/// within `head_timeout` (idle kept-alive connections are closed after it
/// too), bodies within `body_timeout`, at most `max_connections` at once
/// (more are answered 503 and closed). On a signal: no more connections,
/// the tables stop (each record ends in a whole line), the connections
/// have [`GRACE`] to finish, the external players are ended, and the
/// process exits with 128 + the signal (130, 143, 129).
pub async fn serve(hub: Shared, listener: tokio::net::TcpListener) -> std::io::Result<()> {
    use crate::signals;
    let limits = hub.cfg.limits;
    let app = router(Arc::clone(&hub));
    let (stop_tx, mut stop_rx) = watch::channel(0i32);
    {
        let stop_tx = stop_tx.clone();
        signals::on_signal(move |signal| {
            let _ = stop_tx.send(signal);
        });
        // Taken back from any handler set since the program started.
        signals::catch(&[signals::SIGINT, signals::SIGTERM, signals::SIGHUP]);
    }
    start_bots(&hub).await;
    let retry = tokio::spawn(retry_writes(Arc::clone(&hub)));
    let open = Arc::new(tokio::sync::Semaphore::new(limits.max_connections));
    let signal = loop {
        let (stream, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(x) => x,
                Err(_) => {
                    // Out of descriptors (or a connection reset before it was
                    // taken): wait a little rather than spin.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = stop_rx.changed() => break *stop_rx.borrow(),
        };
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            tokio::spawn(refuse_busy(stream));
            continue;
        };
        let app = app.clone();
        let mut stop = stop_tx.subscribe();
        tokio::spawn(async move {
            let _permit = permit;
            let _ = stream.set_nodelay(true);
            let service = hyper::service::service_fn(
                move |mut req: hyper::Request<hyper::body::Incoming>| {
                    req.extensions_mut().insert(ConnectInfo(addr));
                    let mut app = app.clone();
                    async move { tower_service::Service::call(&mut app, req).await }
                },
            );
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(limits.head_timeout)
                .keep_alive(true);
            let conn = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service);
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(GRACE, conn.as_mut()).await;
                }
            }
        });
    };
    drop(listener);
    retry.abort();
    let hub2 = Arc::clone(&hub);
    let _ = tokio::task::spawn_blocking(move || hub2.stop_tables()).await;
    // The connections finish what they answer (a stream of events never
    // does: it is cut at the end of the grace).
    let max = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(GRACE, open.acquire_many(max)).await;
    crate::bots::end_external_players();
    std::process::exit(i32::from(signals::exit_status(signal)))
}

/// Answer a connection beyond the cap 503 and close it (read briefly
/// first, so the client gets the answer rather than a reset).
async fn refuse_busy(mut stream: tokio::net::TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = r#"{"error":"the server has too many connections open: try again in a moment"}"#;
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut buf = [0u8; 4096];
    let _ = tokio::time::timeout(Duration::from_millis(200), stream.read(&mut buf)).await;
    let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(answer.as_bytes())).await;
    let _ = stream.shutdown().await;
}

/// Whether `addr` is this machine only.
pub fn is_loopback(addr: &IpAddr) -> bool {
    addr.is_loopback()
}
