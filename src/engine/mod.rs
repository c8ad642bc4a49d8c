//! The engine protocol (`roots engine`): JSON Lines on standard input and
//! output, so that a program in any language can play a game of any of the
//! toolkit's games, ask a built-in bot, undo and save the record. Described
//! in `docs/protocol.md`.
//!
//! * [`Engine`]: the session, one request line in, one answer line out. It
//!   is written once over the [`Game`] trait: a started game is a
//!   [`GameSession<G>`] behind a trait object.
//! * [`state_json`]: a node of any game as JSON (whose turn or which die,
//!   the legal actions in text form, the board, the scores), shared with the
//!   player side.
//! * the player side, [`crate::bots::CmdPlayer`]: an external program seated as a
//!   [`crate::bots::Player`] (`--bots cmd:PROGRAM`).
//!
//! Refusals are the referee's ([`Referee::apply`]): the same messages, and the
//! state unchanged.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::bots::{BotSpec, Player};
use crate::core::dice::{Die, SeededDice};
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::{AnyRules, Game, GameId, Registered};
use crate::record::{DiceMode, Event, Header};
use crate::referee::{ApplyError, Referee};
use crate::variant::{Diagnostics, Override};

pub use crate::bots::wire::{PROTOCOL, VERSION, chance_json, state_json};
pub use crate::core::io::{MAX_LINE_BYTES, read_line};
/// Most steps one `undo` takes back, and most events one game keeps.
pub const MAX_EVENTS: usize = 1_000_000;

/// Most games whose rows one `simulate` answer carries (about 30 MB).
pub const MAX_ROWS: u64 = 10_000;

/// Why a request failed: a stable `kind` and a message in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub kind: &'static str,
    pub message: String,
    /// The variant's diagnostics, for `invalid_variant`.
    pub diagnostics: Option<Value>,
}

impl Failure {
    fn new(kind: &'static str, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
            diagnostics: None,
        }
    }

    fn malformed(message: impl Into<String>) -> Failure {
        Failure::new("malformed", message)
    }
}

/// What the engine may do beyond answering: read variant files and write
/// records (off for the fuzzer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// Read variant files, write records, and run external players
    /// (`cmd:` bots in `simulate`).
    pub files: bool,
    /// Most games one `simulate` request plays.
    pub max_games: u64,
}

impl Access {
    /// Everything a local client may do (`roots engine`).
    pub const ALL: Access = Access {
        files: true,
        max_games: crate::sim::MAX_GAMES,
    };
    /// No files, no processes, small simulations (`--no-files`, fuzzing).
    pub const CLOSED: Access = Access {
        files: false,
        max_games: 8,
    };
}

/// One engine session: at most one game at a time.
pub struct Engine {
    access: Access,
    game: Option<Box<dyn Session>>,
    done: bool,
}

impl Engine {
    pub fn new(access: Access) -> Engine {
        Engine {
            access,
            game: None,
            done: false,
        }
    }

    /// An engine whose game is already started: `game`, of any `G: Game`
    /// (one outside the registry too, such as a game a test builds). The
    /// requests of a started game (`state`, `roll`, `act`, `bot`, `undo`,
    /// ...) go to it; `start` replaces it with a game of the registry.
    pub fn with_game<G: Game>(access: Access, game: GameSession<G>) -> Engine {
        Engine {
            access,
            game: Some(Box::new(game)),
            done: false,
        }
    }

    /// Whether a `quit` request was answered: the caller stops reading.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Answer one request line (without its newline) with one answer line
    /// (without its newline). Never panics on any input.
    pub fn handle_line(&mut self, line: &str) -> String {
        let (id, result) = match serde_json::from_str::<Value>(line) {
            Err(e) => (
                None,
                Err(Failure::malformed(format!(
                    "expected a request, a JSON object on one line, found invalid JSON ({e})"
                ))),
            ),
            Ok(Value::Object(req)) => {
                let id = req.get("id").cloned();
                (id, self.handle(&req))
            }
            Ok(other) => (
                None,
                Err(Failure::malformed(format!(
                    "expected a request, a JSON object such as {{\"cmd\":\"state\"}}, found {}",
                    kind_of(&other)
                ))),
            ),
        };
        answer_line(id, result)
    }

    /// The answer to a line longer than [`MAX_LINE_BYTES`] or not UTF-8.
    pub fn unreadable_line(&self, why: &str) -> String {
        answer_line(None, Err(Failure::malformed(why.to_string())))
    }

    fn handle(&mut self, req: &Map<String, Value>) -> Result<Map<String, Value>, Failure> {
        match req.get("version") {
            None => {}
            Some(v) if v.as_u64() == Some(VERSION) => {}
            Some(v) => {
                return Err(Failure::new(
                    "version",
                    format!(
                        "expected protocol version {VERSION}, found {} (this build speaks version {VERSION})",
                        short(v)
                    ),
                ));
            }
        }
        let cmd = match req.get("cmd") {
            Some(Value::String(c)) => c.as_str(),
            Some(other) => {
                return Err(Failure::malformed(format!(
                    "expected \"cmd\" as a string, found {}",
                    short(other)
                )));
            }
            None => {
                return Err(Failure::malformed(
                    "expected a \"cmd\" key (hello, validate, simulate, start, state, roll, act, bot, undo, record, save, quit), found none",
                ));
            }
        };
        let allowed: &[&str] = match cmd {
            "hello" | "state" | "record" | "quit" => &[],
            "start" => &["variant", "toml", "set", "players", "seed"],
            "validate" => &["variant", "toml", "set"],
            "simulate" => &[
                "variant",
                "toml",
                "set",
                "players",
                "seed",
                "games",
                "bots",
                "rotate",
                "jobs",
                "cmd_timeout",
                "rows",
            ],
            "roll" => &["face", "card", "die"],
            "act" => &["action", "seat"],
            "bot" => &["bot", "play"],
            "undo" => &["steps"],
            "save" => &["path"],
            _ => {
                return Err(Failure::new(
                    "unknown_command",
                    format!(
                        "expected a command (hello, validate, simulate, start, state, roll, act, bot, undo, record, save, quit), found \"{}\"",
                        cut(cmd)
                    ),
                ));
            }
        };
        if let Some(k) = req.keys().find(|k| {
            !["cmd", "id", "version"].contains(&k.as_str()) && !allowed.contains(&k.as_str())
        }) {
            return Err(Failure::malformed(format!(
                "expected only the keys cmd, id, version{}{} in a \"{cmd}\" request, found \"{}\"",
                if allowed.is_empty() { "" } else { ", " },
                allowed.join(", "),
                cut(k)
            )));
        }
        match cmd {
            "hello" => Ok(hello()),
            "validate" => validate(req, self.access),
            "simulate" => simulate(req, self.access),
            "quit" => {
                self.done = true;
                Ok(Map::new())
            }
            "start" => {
                let game = start(req, self.access)?;
                let mut m = Map::new();
                m.insert("protocol".into(), PROTOCOL.into());
                m.insert("version".into(), VERSION.into());
                m.insert("seed".into(), game.seed().into());
                m.insert("state".into(), game.state());
                self.game = Some(game);
                Ok(m)
            }
            _ => {
                let game = self.game.as_mut().ok_or_else(|| {
                    Failure::new(
                        "no_game",
                        format!(
                            "expected a \"start\" request before \"{cmd}\", found no game started"
                        ),
                    )
                })?;
                game.handle(cmd, req, self.access)
            }
        }
    }
}

/// An answer line: `id` (when the request had one, `null` included) and
/// `ok` first, then the body's keys in sorted order.
fn answer_line(id: Option<Value>, result: Result<Map<String, Value>, Failure>) -> String {
    let mut head = String::from("{");
    if let Some(id) = id {
        head.push_str(&format!("\"id\":{id},"));
    }
    let mut m = Map::new();
    match result {
        Ok(body) => {
            head.push_str("\"ok\":true");
            m.extend(body);
        }
        Err(f) => {
            head.push_str("\"ok\":false");
            let mut e = Map::new();
            e.insert("kind".into(), f.kind.into());
            e.insert("message".into(), f.message.into());
            if let Some(d) = f.diagnostics {
                e.insert("diagnostics".into(), d);
            }
            m.insert("error".into(), Value::Object(e));
        }
    }
    let body = Value::Object(m).to_string();
    // `body` is `{}` or `{"key":...}`: append its keys after the head.
    if body.len() > 2 {
        head.push(',');
        head.push_str(&body[1..]);
    } else {
        head.push('}');
    }
    head
}

fn hello() -> Map<String, Value> {
    let games: Vec<Value> = GameId::ALL
        .iter()
        .map(|g| {
            json!({
                "game": g.key(),
                "title": g.title(),
                "variants": g.builtins().iter().map(|(n, _)| *n).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut m = Map::new();
    m.insert("protocol".into(), PROTOCOL.into());
    m.insert("version".into(), VERSION.into());
    m.insert(
        "engine".into(),
        format!("roots {}", env!("CARGO_PKG_VERSION")).into(),
    );
    m.insert("games".into(), games.into());
    m
}

/// Load the variant of a `start` request: a built-in name or a file path
/// (`variant`) or a whole file's text (`toml`), with `set` overrides.
fn load_variant(
    req: &Map<String, Value>,
    access: Access,
) -> Result<crate::variant::Loaded, Failure> {
    let overrides = match req.get("set") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| match i {
                Value::String(s) => Override::parse(s)
                    .map_err(|e| Failure::new("invalid_variant", format!("\"set\": {e}"))),
                other => Err(Failure::malformed(format!(
                    "expected \"set\" as a list of \"KEY=VALUE\" strings, found {}",
                    short(other)
                ))),
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(Failure::malformed(format!(
                "expected \"set\" as a list of \"KEY=VALUE\" strings, found {}",
                short(other)
            )));
        }
    };
    let as_string = |key: &str| match req.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(other) => Err(Failure::malformed(format!(
            "expected \"{key}\" as a string, found {}",
            short(other)
        ))),
    };
    let loaded = match (as_string("variant")?, as_string("toml")?) {
        (Some(_), Some(_)) => {
            return Err(Failure::malformed(
                "expected \"variant\" (a name or a path) or \"toml\" (a file's text), found both",
            ));
        }
        (Some(name), None) => {
            if !access.files && !crate::variant::is_builtin_name(name) {
                return Err(Failure::new(
                    "io",
                    "expected a built-in variant name: this engine reads no files",
                ));
            }
            crate::variant::load_with(name, &overrides)
        }
        (None, Some(text)) => {
            if !access.files {
                refuse_file_parent(text)?;
            }
            load_inline(text, &overrides, access)
        }
        (None, None) => crate::variant::load_with("standard", &overrides),
    };
    loaded.map_err(invalid_variant)
}

/// An engine without file access refuses an inline variant that extends a
/// file (a built-in parent is fine). Text that is not TOML is left to the
/// loader, which reports it without reading anything.
fn refuse_file_parent(text: &str) -> Result<(), Failure> {
    if let Ok(table) = text.parse::<toml::Table>()
        && let Some(toml::Value::String(parent)) = table.get("extends")
        && !crate::variant::is_builtin_name(parent)
    {
        return Err(Failure::new(
            "io",
            format!(
                "expected `extends` to name a built-in variant, found \"{}\": this engine reads no files",
                cut(parent)
            ),
        ));
    }
    Ok(())
}

/// Inline TOML with overrides: the text is the first layer, the overrides a
/// file that extends it would be wrong (it would need a path), so the
/// overrides are checked with the text as a file of their chain through
/// [`crate::variant::resolve::load_str_with`].
fn load_inline(
    text: &str,
    overrides: &[Override],
    access: Access,
) -> Result<crate::variant::Loaded, Diagnostics> {
    let base = if access.files {
        None
    } else {
        Some(std::path::Path::new("/nonexistent-roots-engine-dir"))
    };
    crate::variant::resolve::load_str_with("<inline toml>", text, base, overrides)
}

fn invalid_variant(d: Diagnostics) -> Failure {
    let errors: Vec<&crate::variant::Diagnostic> =
        d.items.iter().filter(|d| d.is_error()).collect();
    let first = errors
        .first()
        .map(|e| match (e.line, e.col) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}: {}", e.file, e.message),
            _ => format!("{}: {}", e.file, e.message),
        })
        .unwrap_or_else(|| "the variant is not valid".to_string());
    Failure {
        kind: "invalid_variant",
        message: format!(
            "expected a valid variant, found {} error{}; the first: {first}",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" }
        ),
        diagnostics: serde_json::to_value(&d.items).ok(),
    }
}

/// `validate`: load a variant and describe it, without starting a game.
fn validate(req: &Map<String, Value>, access: Access) -> Result<Map<String, Value>, Failure> {
    let loaded = load_variant(req, access)?;
    let rules = &loaded.rules;
    let seats = rules.seats();
    let mut m = Map::new();
    m.insert("game".into(), rules.game().key().into());
    m.insert("name".into(), rules.name().into());
    m.insert("seats".into(), json!([seats.start(), seats.end()]));
    m.insert(
        "toml".into(),
        rules
            .to_toml()
            .map_err(|e| Failure::new("internal", e))?
            .into(),
    );
    m.insert("rules".into(), rules.to_json());
    m.insert(
        "warnings".into(),
        serde_json::to_value(&loaded.warnings).unwrap_or(Value::Null),
    );
    Ok(m)
}

/// `simulate`: many seeded games between bots, as `roots simulate`: the
/// report and one row per game.
fn simulate(req: &Map<String, Value>, access: Access) -> Result<Map<String, Value>, Failure> {
    let loaded = load_variant(req, access)?;
    let number = |key: &str, default: u64| match req.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v.as_u64().ok_or_else(|| {
            Failure::malformed(format!(
                "expected \"{key}\" as a whole number, found {}",
                short(v)
            ))
        }),
    };
    let games = number("games", 100)?;
    if games > access.max_games {
        return Err(Failure::new(
            "refused",
            format!(
                "expected at most {} games in one request, found {games}",
                access.max_games
            ),
        ));
    }
    // The rows of a large request would fill the memory (about 3 KB a
    // game): they come with at most MAX_ROWS games; the report's totals
    // take the same memory for any number of games.
    let rows = match req.get("rows") {
        None | Some(Value::Null) => games <= MAX_ROWS,
        Some(Value::Bool(true)) if games > MAX_ROWS => {
            return Err(Failure::new(
                "refused",
                format!(
                    "expected at most {MAX_ROWS} games with \"rows\": true, found {games}: ask for \"rows\": false (the report alone), or write the rows of a large run to a file with `roots simulate --out`"
                ),
            ));
        }
        Some(Value::Bool(b)) => *b,
        Some(v) => {
            return Err(Failure::malformed(format!(
                "expected \"rows\" as true or false, found {}",
                short(v)
            )));
        }
    };
    let players = u8::try_from(number("players", 2)?).unwrap_or(u8::MAX);
    let seed = number("seed", 0)?;
    let jobs = number("jobs", 1)?;
    let timeout_ms = match req.get("cmd_timeout") {
        None | Some(Value::Null) => crate::bots::DEFAULT_CMD_TIMEOUT_MS,
        Some(v) => match v.as_f64() {
            Some(s) if s > 0.0 && s.is_finite() => (s * 1000.0).clamp(1.0, 3_600_000.0) as u32,
            _ => {
                return Err(Failure::malformed(format!(
                    "expected \"cmd_timeout\" as seconds, found {}",
                    short(v)
                )));
            }
        },
    };
    let rotate = match req.get("rotate") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(v) => {
            return Err(Failure::malformed(format!(
                "expected \"rotate\" as true or false, found {}",
                short(v)
            )));
        }
    };
    let names: Vec<String> = match req.get("bots") {
        None => vec!["random".to_string()],
        Some(Value::String(s)) => s.split(',').map(str::to_string).collect(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| {
                i.as_str().map(str::to_string).ok_or_else(|| {
                    Failure::malformed(format!(
                        "expected \"bots\" as a list of bot names, found {}",
                        short(i)
                    ))
                })
            })
            .collect::<Result<_, _>>()?,
        Some(v) => {
            return Err(Failure::malformed(format!(
                "expected \"bots\" as a list of bot names, found {}",
                short(v)
            )));
        }
    };
    let bots: Vec<BotSpec> = names
        .iter()
        .map(|n| {
            BotSpec::parse(n)
                .map(|b| b.with_timeout(timeout_ms))
                .map_err(|e| Failure::new("refused", format!("\"bots\": {e}")))
        })
        .collect::<Result<_, _>>()?;
    if !access.files && bots.iter().any(|b| b.is_external()) {
        return Err(Failure::new(
            "io",
            "expected built-in bots: this engine starts no programs",
        ));
    }
    // More threads than the machine can use only share its cores.
    let most = crate::sim::max_jobs(bots.iter().any(|b| b.is_external()));
    let jobs = usize::try_from(jobs).unwrap_or(usize::MAX).clamp(1, most);
    crate::with_game!(&loaded.rules, G, r => {
        let config = crate::sim::Config::<G> {
            rules: Arc::clone(r),
            players,
            bots,
            seating: if rotate {
                crate::sim::Seating::Rotated
            } else {
                crate::sim::Seating::Fixed
            },
            games,
            seed,
            jobs,
            measures: Default::default(),
        };
        let mut kept = Vec::new();
        let acc = crate::sim::run(
            &config,
            |row| {
                if rows {
                    kept.push(serde_json::to_value(row).map_err(std::io::Error::other)?);
                }
                Ok(())
            },
            |_| {},
        )
        .map_err(|e| Failure::new("refused", e.to_string()))?;
        let report = crate::sim::Report::new(&config, &acc);
        let mut m = Map::new();
        m.insert(
            "report".into(),
            serde_json::to_value(&report).map_err(|e| Failure::new("internal", e.to_string()))?,
        );
        if rows {
            m.insert("rows".into(), kept.into());
        }
        Ok(m)
    })
}

fn start(req: &Map<String, Value>, access: Access) -> Result<Box<dyn Session>, Failure> {
    let loaded = load_variant(req, access)?;
    let rules = loaded.rules;
    let players = match req.get("players") {
        None => *rules.seats().start().max(&2).min(rules.seats().end()),
        Some(v) => match v.as_u64().and_then(|n| u8::try_from(n).ok()) {
            Some(n) => n,
            None => {
                return Err(Failure::malformed(format!(
                    "expected \"players\" as a whole number, found {}",
                    short(v)
                )));
            }
        },
    };
    let seats = rules.seats();
    if !seats.contains(&players) {
        return Err(Failure::new(
            "refused",
            format!(
                "expected players the variant allows, found {players} players: variant `{}` is for {} to {} players",
                rules.name(),
                seats.start(),
                seats.end()
            ),
        ));
    }
    let seed = match req.get("seed") {
        None | Some(Value::Null) => 0,
        Some(v) => v.as_u64().ok_or_else(|| {
            Failure::malformed(format!(
                "expected \"seed\" as a whole number from 0 to 2^64-1, found {}",
                short(v)
            ))
        })?,
    };
    crate::with_game!(&rules, G, r => {
        let s: Box<dyn Session> =
            Box::new(GameSession::<G>::new(Arc::clone(r), players, seed)?.in_registry());
        Ok(s)
    })
}

/// A started game, whatever its game.
trait Session {
    fn seed(&self) -> u64;
    fn state(&self) -> Value;
    fn handle(
        &mut self,
        cmd: &str,
        req: &Map<String, Value>,
        access: Access,
    ) -> Result<Map<String, Value>, Failure>;
}

/// A built-in bot asked for moves: its name, its seat, the bot.
type AskedBot<G> = (String, Seat, Box<dyn Player<<G as Game>::State> + Send>);

/// A started game of `G`: the referee (whose checks and messages every
/// roll and action goes through, and who keeps the seeded dice in step,
/// undo included), the events so far as the client gave them (for the
/// record) and the bots asked so far.
pub struct GameSession<G: Game> {
    rules: Arc<G::Rules>,
    seats: u8,
    seed: u64,
    referee: Referee<G>,
    events: Vec<Event>,
    /// Whether each roll so far was drawn from the seed (`true`) or given.
    seeded_rolls: Vec<bool>,
    bots: Vec<AskedBot<G>>,
    /// The last move a bot suggested without playing it: at how many
    /// events, which bot, the move.
    suggested: Option<(usize, String, String)>,
    /// The rules as a record's header holds them: for a game of the
    /// registry ([`GameSession::in_registry`]); a game outside it plays
    /// but has no record.
    wrap: Option<WrapRules<G>>,
}

/// How a game of the registry puts its rules in a record's header.
type WrapRules<G> = fn(Arc<<G as Game>::Rules>) -> AnyRules;

impl<G: Registered> GameSession<G> {
    /// The session of a game of the registry, which can give its record.
    pub fn in_registry(mut self) -> GameSession<G> {
        self.wrap = Some(G::wrap);
        self
    }
}

impl<G: Game> GameSession<G> {
    pub fn new(rules: Arc<G::Rules>, seats: u8, seed: u64) -> Result<GameSession<G>, Failure> {
        let referee =
            Referee::<G>::with_stream(Arc::clone(&rules), seats, SeededDice::for_game(seed, 0))
                .map_err(|e| Failure::new("refused", e))?;
        Ok(GameSession {
            rules,
            seats,
            seed,
            referee,
            events: Vec::new(),
            seeded_rolls: Vec::new(),
            bots: Vec::new(),
            suggested: None,
            wrap: None,
        })
    }

    pub fn game_state(&self) -> &G::State {
        self.referee.state()
    }

    /// Refuse an event beyond [`MAX_EVENTS`], before it is applied.
    fn room(&self) -> Result<(), Failure> {
        if self.events.len() >= MAX_EVENTS {
            return Err(Failure::new(
                "refused",
                format!("expected at most {MAX_EVENTS} events in a game, found more"),
            ));
        }
        Ok(())
    }

    fn push(&mut self, event: Event, seeded: Option<bool>) {
        self.events.push(event);
        if let Some(s) = seeded {
            self.seeded_rolls.push(s);
        }
    }

    /// Apply a roll: `face` given (text or number), or drawn from the seed.
    fn roll(&mut self, req: &Map<String, Value>) -> Result<Map<String, Value>, Failure> {
        let die = match req.get("die") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(Die::parse(s).ok_or_else(|| {
                Failure::malformed(format!(
                    "expected a die (d4, d6, d8, d10, d12 or d20), found \"{}\"",
                    cut(s)
                ))
            })?),
            Some(other) => {
                return Err(Failure::malformed(format!(
                    "expected \"die\" as a string such as \"d6\", found {}",
                    short(other)
                )));
            }
        };
        self.room()?;
        if self.referee.state().next() == Next::Draw {
            return self.draw(req);
        }
        let given = match req.get("face") {
            None | Some(Value::Null) => None,
            Some(v) => Some(face_of(v)?),
        };
        let due = match self.referee.state().next() {
            Next::Chance(d) => Some(d),
            _ => None,
        };
        let (face, seeded) = match (given, due) {
            (Some(f), _) => (f, false),
            // Drawn only at a chance node: the referee keeps the seed's
            // stream in step with the rolls of the game.
            (None, Some(_)) => (self.seeded_face()?, true),
            (None, None) => {
                let state = self.referee.state();
                let what = G::describe_node(state);
                return Err(Failure::new(
                    "refused",
                    match state.next() {
                        Next::Decide(s) => format!(
                            "expected a decision of seat {} ({what}), found a roll",
                            u16::from(s) + 1
                        ),
                        _ => "expected the end of the game (the game is over), found a roll"
                            .to_string(),
                    },
                ));
            }
        };
        // Refused, the stream has not moved; applied, it has moved one
        // roll on, the face drawn from it or given.
        self.referee.apply_roll(face, die).map_err(refused)?;
        self.push(Event::Roll { face, die: due }, Some(seeded));
        let mut m = Map::new();
        m.insert("rolled".into(), face.to_string().into());
        m.insert("state".into(), self.state_value());
        Ok(m)
    }

    /// A card turned over at a draw node: `face` (or `card`) names it in
    /// the game's words, or it is drawn from the seed, weighted by the cards
    /// of each kind left.
    fn draw(&mut self, req: &Map<String, Value>) -> Result<Map<String, Value>, Failure> {
        let given = match req.get("card").or_else(|| req.get("face")) {
            None | Some(Value::Null) => None,
            Some(Value::String(t)) => Some(
                G::parse_draw(self.referee.state(), t).map_err(|e| Failure::new("refused", e))?,
            ),
            // A number is read as its text, as the string "4" would be (it
            // used to be taken as the engine's own index of a card kind).
            Some(Value::Number(n)) => Some(
                G::parse_draw(self.referee.state(), &n.to_string())
                    .map_err(|e| Failure::new("refused", e))?,
            ),
            Some(other) => {
                return Err(Failure::malformed(format!(
                    "expected the card as text (e.g. \"stone\"), found {}",
                    short(other)
                )));
            }
        };
        let (face, seeded) = match given {
            Some(f) => (f, false),
            None => (self.seeded_face()?, true),
        };
        let card = G::format_draw(self.referee.state(), face);
        self.referee.apply_draw(face).map_err(refused)?;
        self.push(Event::Draw { card: card.clone() }, Some(seeded));
        let mut m = Map::new();
        m.insert("rolled".into(), card.into());
        m.insert("state".into(), self.state_value());
        Ok(m)
    }

    /// The face the seeded stream gives at the chance or draw node.
    fn seeded_face(&self) -> Result<u8, Failure> {
        self.referee
            .seeded_face()
            .ok_or_else(|| Failure::new("internal", "expected a seeded stream at a chance node"))
    }

    fn act(&mut self, req: &Map<String, Value>) -> Result<Map<String, Value>, Failure> {
        let action = match req.get("action") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                return Err(Failure::malformed(format!(
                    "expected \"action\" as text (e.g. \"place 3,4\"), found {}",
                    short(other)
                )));
            }
            None => return Err(Failure::malformed("expected an \"action\", found none")),
        };
        let seat = match req.get("seat") {
            None | Some(Value::Null) => match self.referee.state().next() {
                Next::Decide(s) => s,
                // The referee refuses it with its own words.
                _ => G::turn_seat(self.referee.state()),
            },
            Some(v) => match v.as_u64() {
                Some(n) if (1..=u64::from(self.seats)).contains(&n) => (n - 1) as Seat,
                _ => {
                    return Err(Failure::malformed(format!(
                        "expected \"seat\" from 1 to {}, found {}",
                        self.seats,
                        short(v)
                    )));
                }
            },
        };
        self.apply_act(action, seat)
    }

    fn apply_act(&mut self, action: String, seat: Seat) -> Result<Map<String, Value>, Failure> {
        // The referee parses the text form and checks it: its messages.
        self.room()?;
        let event = Event::Act {
            action: action.clone(),
            seat,
        };
        self.referee.apply(&event).map_err(refused)?;
        // The record keeps the canonical text form of what was played (the
        // referee's), not the text as typed (`GROW  buds`).
        let event = self.referee.last_applied().cloned().unwrap_or(event);
        let played = match &event {
            Event::Act { action, .. } => action.clone(),
            _ => action,
        };
        self.push(event, None);
        let mut m = Map::new();
        m.insert("played".into(), played.into());
        m.insert("state".into(), self.state_value());
        Ok(m)
    }

    fn bot(&mut self, req: &Map<String, Value>) -> Result<Map<String, Value>, Failure> {
        let name = match req.get("bot") {
            None => "greedy".to_string(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                return Err(Failure::malformed(format!(
                    "expected \"bot\" as a string (random, greedy, mcts:N), found {}",
                    short(other)
                )));
            }
        };
        let play = match req.get("play") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                return Err(Failure::malformed(format!(
                    "expected \"play\" as true or false, found {}",
                    short(other)
                )));
            }
        };
        let spec = BotSpec::parse(&name).map_err(|e| Failure::new("refused", e))?;
        if matches!(spec, BotSpec::Cmd { .. }) {
            return Err(Failure::new(
                "refused",
                "expected a built-in bot (random, greedy, mcts:N), found an external program",
            ));
        }
        let seat = match self.referee.state().next() {
            Next::Decide(s) => s,
            other => {
                let what = G::describe_node(self.referee.state());
                return Err(Failure::new(
                    "refused",
                    match other {
                        Next::Chance(d) => format!(
                            "expected a decision for the bot to make, found a roll of the {d} ({what})"
                        ),
                        Next::Draw => format!(
                            "expected a decision for the bot to make, found a card to turn over ({what})"
                        ),
                        _ => "expected a decision for the bot to make, found the game over"
                            .to_string(),
                    },
                ));
            }
        };
        let key = spec.to_string();
        let i = match self
            .bots
            .iter()
            .position(|(k, s, _)| *k == key && *s == seat)
        {
            Some(i) => i,
            None => {
                let bot = crate::bots::build::<G>(spec, SeededDice::for_seat(self.seed, 0, seat));
                self.bots.push((key.clone(), seat, bot));
                self.bots.len() - 1
            }
        };
        // The move a bot suggested here is the move it plays when asked
        // again to play it (a bot draws from its stream at every call).
        let text = match &self.suggested {
            Some((at, k, text)) if *at == self.events.len() && *k == key => text.clone(),
            _ => {
                let action = self.bots[i]
                    .2
                    .choose(self.referee.state())
                    .map_err(|e| Failure::new("refused", format!("the bot gave no move: {e:?}")))?;
                G::format_action(self.referee.state(), action)
            }
        };
        self.suggested = (!play).then(|| (self.events.len(), key.clone(), text.clone()));
        if play {
            let mut m = self.apply_act(text.clone(), seat)?;
            m.insert("action".into(), text.into());
            m.insert("seat".into(), (u64::from(seat) + 1).into());
            Ok(m)
        } else {
            let mut m = Map::new();
            m.insert("action".into(), text.into());
            m.insert("seat".into(), (u64::from(seat) + 1).into());
            Ok(m)
        }
    }

    fn undo(&mut self, req: &Map<String, Value>) -> Result<Map<String, Value>, Failure> {
        let steps = match req.get("steps") {
            None => 1,
            Some(v) => match v.as_u64() {
                Some(n) if n >= 1 => usize::try_from(n).unwrap_or(usize::MAX),
                _ => {
                    return Err(Failure::malformed(format!(
                        "expected \"steps\" as a whole number from 1, found {}",
                        short(v)
                    )));
                }
            },
        };
        if steps > self.events.len() {
            return Err(Failure::new(
                "refused",
                format!(
                    "expected at most {} steps to undo (the events so far), found {steps}",
                    self.events.len()
                ),
            ));
        }
        // The referee takes the events back, and its seeded stream with them.
        self.referee
            .take_back(steps)
            .map_err(|e| Failure::new("internal", format!("taking back failed: {e}")))?;
        self.events.truncate(self.events.len() - steps);
        let rolls = self
            .events
            .iter()
            .filter(|e| matches!(e, Event::Roll { .. } | Event::Draw { .. }))
            .count();
        self.seeded_rolls.truncate(rolls);
        self.suggested = None;
        let mut m = Map::new();
        m.insert("undone".into(), steps.into());
        m.insert("state".into(), self.state_value());
        Ok(m)
    }

    /// The record of the game so far: its header and event lines.
    pub fn record_lines(&self) -> Result<Vec<String>, Failure> {
        let wrap = self.wrap.ok_or_else(|| {
            Failure::new(
                "refused",
                format!(
                    "expected a game of the registry, found {}: a record names its game by the registry",
                    G::ID
                ),
            )
        })?;
        let auto = self.seeded_rolls.iter().all(|s| *s);
        let header = Header {
            variant: wrap(Arc::clone(&self.rules)),
            seed: Some(self.seed),
            seed_game: 0,
            dice: if auto {
                DiceMode::Auto
            } else {
                DiceMode::Manual
            },
            // The client decided every seat: a person's seat, for replay.
            players: vec!["human".to_string(); usize::from(self.seats)],
            created: crate::record::utc_now().0,
        };
        let mut lines = vec![header.to_line()];
        lines.extend(self.events.iter().map(Event::to_line));
        Ok(lines)
    }

    fn save(
        &self,
        req: &Map<String, Value>,
        access: Access,
    ) -> Result<Map<String, Value>, Failure> {
        let path = match req.get("path") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            Some(other) => {
                return Err(Failure::malformed(format!(
                    "expected \"path\" as a file name, found {}",
                    short(other)
                )));
            }
            None => {
                return Err(Failure::malformed(
                    "expected a \"path\" to save to, found none",
                ));
            }
        };
        if !access.files {
            return Err(Failure::new(
                "io",
                "expected no file: this engine writes no files",
            ));
        }
        let lines = self.record_lines()?;
        let mut text = lines.join("\n");
        text.push('\n');
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| Failure::new("io", format!("{path}: cannot create the record: {e}")))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| Failure::new("io", format!("{path}: cannot write the record: {e}")))?;
        let mut m = Map::new();
        m.insert("path".into(), path.into());
        m.insert("events".into(), self.events.len().into());
        Ok(m)
    }

    fn state_value(&self) -> Value {
        let mut v = state_json::<G>(self.referee.state());
        if let Value::Object(m) = &mut v {
            m.insert("variant".into(), G::name(&self.rules).into());
            m.insert("events".into(), self.events.len().into());
        }
        v
    }
}

impl<G: Game> Session for GameSession<G> {
    fn seed(&self) -> u64 {
        self.seed
    }

    fn state(&self) -> Value {
        self.state_value()
    }

    fn handle(
        &mut self,
        cmd: &str,
        req: &Map<String, Value>,
        access: Access,
    ) -> Result<Map<String, Value>, Failure> {
        match cmd {
            "state" => {
                let mut m = Map::new();
                m.insert("state".into(), self.state_value());
                Ok(m)
            }
            "roll" => self.roll(req),
            "act" => self.act(req),
            "bot" => self.bot(req),
            "undo" => self.undo(req),
            "record" => {
                let mut m = Map::new();
                m.insert("lines".into(), self.record_lines()?.into());
                Ok(m)
            }
            "save" => self.save(req, access),
            _ => Err(Failure::new("unknown_command", format!("\"{}\"", cut(cmd)))),
        }
    }
}

fn refused(e: ApplyError) -> Failure {
    match e {
        ApplyError::Refused(m) => Failure::new("refused", m),
        ApplyError::Io(e) => Failure::new("io", e.to_string()),
    }
}

/// A face as the protocol gives it: its text form (`"3"`) or a number.
fn face_of(v: &Value) -> Result<u8, Failure> {
    let n = match v {
        Value::String(s) => s.trim().parse::<u64>().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    };
    match n {
        Some(n) => Ok(u8::try_from(n).unwrap_or(u8::MAX)),
        None => Err(Failure::malformed(format!(
            "expected \"face\" as one of the chance node's faces (\"3\" or 3), found {}",
            short(v)
        ))),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A value in a message, cut short.
fn short(v: &Value) -> String {
    cut(&v.to_string())
}

fn cut(s: &str) -> String {
    if s.chars().count() > 40 {
        let c: String = s.chars().take(37).collect();
        format!("{c}...")
    } else {
        s.to_string()
    }
}

/// Serve requests from `input` to `output` until `quit` or the end of the
/// input: one answer line per request line; blank lines are skipped.
pub fn serve(
    input: &mut impl std::io::BufRead,
    output: &mut impl std::io::Write,
    access: Access,
) -> std::io::Result<()> {
    let mut engine = Engine::new(access);
    let mut buf = Vec::new();
    while let Some(line) = read_line(input, &mut buf)? {
        let answer = match line {
            Ok(l) if l.trim().is_empty() => continue,
            Ok(l) => engine.handle_line(&l),
            Err(why) => engine.unreadable_line(&why),
        };
        // One write of the whole line: through a line-buffered standard
        // output it goes straight out, so an answer that cannot be written
        // (a full disk) is not left in the buffer to fail again at exit.
        let mut line = answer.into_bytes();
        line.push(b'\n');
        output
            .write_all(&line)
            .and_then(|()| output.flush())
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write an answer: {e}")))?;
        if engine.is_done() {
            break;
        }
    }
    Ok(())
}
