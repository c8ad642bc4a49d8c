//! One table of `roots serve`: a game of any variant of any game, its seats
//! (people with a secret link each, or bots), the record it writes as it is
//! played, and what each seat's page shows. Blocking code (the engine, the
//! record, a bot thinking): the server calls it off its async workers.
//!
//! Every roll and decision goes through [`Referee::apply`] (the engine's
//! checked play) and into the record as it happens; a table is rebuilt from
//! its record alone ([`open`]), so a server killed at any moment loses
//! nothing that was answered.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::bots::{BotSpec, NoAction, Player};
use crate::core::dice::SeededDice;
use crate::core::protocol::{GameState, Next, Seat};
use crate::core::svg::num;
use crate::games::{ActionOf, AnyRules, Game, Registered};
use crate::record::{self, DiceMode, Event, Header, PartialTail, RecordLock, RecordWriter};
use crate::referee::{ApplyError, Referee, Step, Sync};

/// How many narration lines a page is sent (the newest).
const LOG_LINES: usize = 200;

/// What is kept beside a table's record (`ID.table.json`): the seats'
/// display names and secret tokens, the host's token, whether it is closed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Meta {
    pub id: String,
    /// The host's token (closes the table).
    pub host: String,
    pub seats: Vec<MetaSeat>,
    #[serde(default)]
    pub closed: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MetaSeat {
    /// The name shown at the table (`Ann`, or the bot's name).
    pub name: String,
    /// The seat's secret (empty for a bot).
    pub token: String,
}

/// One answer to the end-of-game questionnaire, a line of `ID.feedback.jsonl`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Answer {
    /// The seat, from 1.
    pub seat: u16,
    pub name: String,
    /// How much fun, 1 (none) to 5 (a lot).
    pub fun: u8,
    /// How fair it felt, 1 (not at all) to 5 (quite fair).
    pub fairness: u8,
    /// `short`, `right` or `long`.
    pub length: String,
    /// Free text (up to [`MAX_TEXT`] characters).
    #[serde(default)]
    pub text: String,
}

/// The longest free-text answer kept, in characters.
pub const MAX_TEXT: usize = 2000;

impl Answer {
    /// Check an answer's ranges (from a page or a file).
    pub fn check(&self) -> Result<(), String> {
        if !(1..=5).contains(&self.fun) {
            return Err(format!("expected fun from 1 to 5, found {}", self.fun));
        }
        if !(1..=5).contains(&self.fairness) {
            return Err(format!(
                "expected fairness from 1 to 5, found {}",
                self.fairness
            ));
        }
        if !["short", "right", "long"].contains(&self.length.as_str()) {
            return Err(format!(
                "expected length short, right or long, found \"{}\"",
                self.length.escape_debug()
            ));
        }
        if self.text.chars().count() > MAX_TEXT {
            return Err(format!(
                "expected at most {MAX_TEXT} characters of text, found {}",
                self.text.chars().count()
            ));
        }
        Ok(())
    }
}

/// The files of table `id` in `dir`.
pub fn paths(dir: &Path, id: &str) -> (PathBuf, PathBuf, PathBuf) {
    (
        dir.join(format!("{id}.jsonl")),
        dir.join(format!("{id}.table.json")),
        dir.join(format!("{id}.feedback.jsonl")),
    )
}

/// The feedback file beside a record (`X.jsonl` -> `X.feedback.jsonl`).
pub fn feedback_path(record: &Path) -> PathBuf {
    let name = record
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".jsonl").unwrap_or(&name);
    record.with_file_name(format!("{stem}.feedback.jsonl"))
}

/// Read the answers of a feedback file (none when it does not exist).
pub fn read_answers(path: &Path) -> Result<Vec<Answer>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let a: Answer = serde_json::from_str(line).map_err(|e| {
            format!(
                "{}:{}: expected an answer, found: {e}",
                path.display(),
                i + 1
            )
        })?;
        a.check()
            .map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        out.push(a);
    }
    Ok(out)
}

/// Write `meta` to `path` whole (a temporary file renamed over it), readable
/// by its owner only: it holds the seats' secrets.
pub fn write_meta(path: &Path, meta: &Meta) -> std::io::Result<()> {
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_string_pretty(meta).map_err(std::io::Error::other)?;
    let written = (|| {
        use std::io::Write;
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
        let mut f = opts.open(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        // A full disk: no temporary file is left behind.
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Who sits in a seat, as the record's header names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sitter {
    Human,
    Bot(BotSpec),
}

impl Sitter {
    pub fn parse(text: &str) -> Result<Sitter, String> {
        if text.trim().eq_ignore_ascii_case("human") {
            Ok(Sitter::Human)
        } else {
            BotSpec::parse(text)
                .map(Sitter::Bot)
                .map_err(|e| format!("{e}, or human"))
        }
    }

    /// The name in the record's header.
    pub fn record_name(self) -> String {
        match self {
            Sitter::Human => "human".to_string(),
            Sitter::Bot(b) => b.to_string(),
        }
    }
}

/// What a seat (or the host, `None`) asks of a table.
pub enum Request<'a> {
    /// A decision of the seat, in the game's text form.
    Act(&'a str),
    /// A face rolled or a card turned over at the table (manual dice).
    Chance(&'a str),
    /// Ask to take back the last roll or decision; done when every person
    /// at the table asked.
    Undo,
    /// Withdraw an undo request.
    KeepIt,
}

/// A table of any game, as the server holds it.
pub trait Table: Send {
    /// The page's view for `seat` (`None`: the host or an onlooker).
    fn view(&self, seat: Option<Seat>) -> Value;
    /// Apply a seat's request. `Ok` with a line saying what happened.
    fn request(&mut self, seat: Seat, req: Request<'_>) -> Result<String, String>;
    /// Let the bots and seeded dice play one event, if it is their turn.
    /// `Ok(true)` when an event was applied.
    fn bot_step(&mut self) -> Result<bool, String>;
    /// Whether the game is over (or stopped for good by a forfeit).
    fn finished(&self) -> bool;
    /// The number of events in the record.
    fn events(&self) -> u64;
    /// Whether events are waiting to be written to the record (a write
    /// failed); the table takes no request until they are.
    fn waiting_for_disk(&self) -> bool;
    /// Try to write the waiting events; `true` when none is left.
    fn write_waiting(&mut self) -> bool;
    /// A line for the host's list: the variant, the players, where it is.
    fn summary(&self) -> Value;
    /// Whether the table plays `rules` with these seats, in this order.
    fn is_for(&self, rules: &AnyRules, sitters: &[Sitter]) -> bool;
}

struct Play<G: Game> {
    referee: Referee<G>,
    sitters: Vec<Sitter>,
    people: Vec<String>,
    bots: Vec<Option<Box<dyn Player<G::State> + Send>>>,
    dice: Option<SeededDice>,
    mode: DiceMode,
    log: Vec<String>,
    turn: u32,
    undo: Vec<bool>,
    /// Why the game stopped before its end (a bot forfeited).
    stopped: Option<String>,
    /// Events applied but not yet in the record (a write failed: a full
    /// disk), in order; the table waits until they are written.
    unwritten: Vec<Event>,
    title: String,
}

/// Open a new table: write the record's header to `record`.
pub fn create(
    rules: &AnyRules,
    sitters: Vec<Sitter>,
    people: Vec<String>,
    seed: u64,
    mode: DiceMode,
    record: &Path,
) -> Result<Box<dyn Table>, String> {
    crate::with_game!(rules, G, r => create_game::<G>(Arc::clone(r), sitters, people, seed, mode, record))
}

fn create_game<G: Registered>(
    rules: Arc<G::Rules>,
    sitters: Vec<Sitter>,
    people: Vec<String>,
    seed: u64,
    mode: DiceMode,
    record: &Path,
) -> Result<Box<dyn Table>, String> {
    let allowed = G::seats(&rules);
    let n = sitters.len();
    if n < usize::from(*allowed.start()) || n > usize::from(*allowed.end()) {
        return Err(format!(
            "expected {} for variant `{}`, found {n}",
            crate::core::players_phrase(*allowed.start(), *allowed.end()),
            G::name(&rules),
        ));
    }
    let mut referee = Referee::<G>::new(Arc::clone(&rules), n as u8)?;
    let (created, _) = record::utc_now();
    let header = Header {
        variant: G::wrap(Arc::clone(&rules)),
        seed: Some(seed),
        seed_game: 0,
        dice: mode,
        players: sitters.iter().map(|s| s.record_name()).collect(),
        created,
    };
    let writer = RecordWriter::create(record, &header)
        .map_err(|e| format!("{}: cannot create the record: {e}", record.display()))?;
    referee.record_to(writer);
    let title = format!("{}: {}", G::TITLE, G::name(&rules));
    Ok(Box::new(Play::<G> {
        bots: bots::<G>(&sitters, seed),
        dice: (mode == DiceMode::Auto).then(|| SeededDice::for_game(seed, 0)),
        referee,
        sitters,
        people,
        mode,
        log: Vec::new(),
        turn: 1,
        undo: vec![false; n],
        stopped: None,
        unwritten: Vec::new(),
        title,
    }))
}

fn bots<G: Game>(sitters: &[Sitter], seed: u64) -> Vec<Option<Box<dyn Player<G::State> + Send>>> {
    sitters
        .iter()
        .enumerate()
        .map(|(s, sitter)| match sitter {
            Sitter::Human => None,
            Sitter::Bot(spec) => Some(crate::bots::build::<G>(
                *spec,
                SeededDice::for_seat(seed, 0, s as Seat),
            )),
        })
        .collect()
}

/// Open the table of an existing record to go on playing it: the record is
/// locked, read (a partial last line, from a kill, dropped), replayed
/// through the checked engine with the seeded dice and bots kept in step,
/// and appended to from where its last whole line ends.
pub fn open(
    record: &Path,
    people: Vec<String>,
    cmd_timeout_ms: u32,
) -> Result<Box<dyn Table>, String> {
    let shown = record.display().to_string();
    let lock =
        RecordLock::acquire(record).map_err(|e| format!("{shown}: cannot open the record: {e}"))?;
    let raw = record::reader::read_path(record, PartialTail::Drop).map_err(|e| match e {
        record::ReadError::Io(e) => format!("{shown}: {e}"),
        record::ReadError::Record(e) => match e.line {
            Some(n) => format!("{shown}:{n}: {}", e.message),
            None => format!("{shown}: {}", e.message),
        },
    })?;
    crate::with_game_id!(raw.header.game(), G => open_game::<G>(&shown, &raw, lock, people, cmd_timeout_ms))
}

fn open_game<G: Registered>(
    shown: &str,
    raw: &record::RawRecord,
    lock: RecordLock,
    people: Vec<String>,
    cmd_timeout_ms: u32,
) -> Result<Box<dyn Table>, String> {
    let header = &raw.header;
    let sitters: Vec<Sitter> = header
        .players
        .iter()
        .map(|p| {
            Sitter::parse(p).map(|s| match s {
                Sitter::Bot(b) => Sitter::Bot(b.with_timeout(cmd_timeout_ms)),
                h => h,
            })
        })
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{shown}:1: players: {e}"))?;
    let seed = header.seed.unwrap_or(0);
    let mut bots = bots::<G>(&sitters, seed);
    let mut dice = match header.dice {
        DiceMode::Auto => Some(SeededDice::for_game(seed, header.seed_game)),
        DiceMode::Manual => None,
    };
    let mut referee = {
        let mut sync = Sync {
            dice: dice.as_mut(),
            bots: bots
                .iter_mut()
                .map(|b| {
                    b.as_mut()
                        .map(|b| &mut **b as &mut (dyn Player<G::State> + '_))
                })
                .collect(),
            diverged: None,
        };
        Referee::<G>::replay_synced(raw, None, &mut sync).map_err(|e| match e.line {
            Some(n) => format!("{shown}:{n}: {}", e.message),
            None => format!("{shown}: {}", e.message),
        })?
    };
    let people = if people.len() == sitters.len() {
        people
    } else {
        header.players.clone()
    };
    let mut log = Vec::new();
    let mut turn = 1;
    Referee::<G>::walk(raw, |step, _| {
        log.push(line_of::<G>(step, &people));
        turn = step.turn;
    })
    .map_err(|e| format!("{shown}: {}", e.message))?;
    let writer = RecordWriter::resume_locked(lock, raw.whole_len)
        .map_err(|e| format!("{shown}: cannot append to the record: {e}"))?;
    referee.record_to(writer);
    let rules = header.rules::<G>()?;
    let n = sitters.len();
    Ok(Box::new(Play::<G> {
        referee,
        bots,
        dice,
        mode: header.dice,
        people,
        sitters,
        log,
        turn,
        undo: vec![false; n],
        stopped: None,
        unwritten: Vec::new(),
        title: format!("{}: {}", G::TITLE, G::name(&rules)),
    }))
}

/// A step of the game as the narration says it: the event, then what came
/// of it.
fn line_of<G: Game>(step: &Step, people: &[String]) -> String {
    std::iter::once(step.describe::<G>(people))
        .chain(step.notes.iter().cloned())
        .collect::<Vec<_>>()
        .join("; ")
}

impl<G: Game> Play<G> {
    fn is_human(&self, seat: Seat) -> bool {
        matches!(self.sitters.get(usize::from(seat)), Some(Sitter::Human))
    }

    /// Apply `event`, checked by the engine, narrate it and reset the undo
    /// requests.
    fn apply(&mut self, event: &Event) -> Result<(), String> {
        let before = self.referee.state().clone();
        let seat = G::turn_seat(&before);
        let waiting = G::describe_node(&before);
        let die = match before.next() {
            Next::Chance(d) => Some(d),
            _ => None,
        };
        let written = match self.referee.apply(event) {
            Ok(()) => Ok(()),
            Err(ApplyError::Refused(why)) => return Err(why),
            // Applied but not recorded: the table waits until it is.
            Err(ApplyError::Io(e)) => Err(self.not_written(event, &e)),
        };
        let roll = match event {
            Event::Roll { face, .. } => Some(*face),
            _ => None,
        };
        let state = self.referee.state();
        let step = Step {
            number: self.referee.events(),
            line: 0,
            turn: self.turn,
            seat,
            shared: G::shared_turn(&before),
            waiting,
            event: event.clone(),
            die,
            notes: G::narrate(&before, roll, state),
            said: Step::said::<G>(&before, event),
        };
        self.log.push(line_of::<G>(&step, &self.people));
        if step.ends_turn::<G>(state) {
            self.turn += 1;
        }
        self.undo.iter_mut().for_each(|u| *u = false);
        written
    }

    /// Keep `event` (applied, its write failed with `e`) to be written
    /// later; the message for the seat that asked.
    fn not_written(&mut self, event: &Event, e: &std::io::Error) -> String {
        // The record's form of the event: the referee's, as it wrote it.
        let kept = match event {
            Event::Undo => Event::Undo,
            _ => self
                .referee
                .last_applied()
                .cloned()
                .unwrap_or_else(|| event.clone()),
        };
        self.unwritten.push(kept);
        format!(
            "played, but not yet in the record: cannot write it ({e}); the table waits and goes on by itself once it can write again"
        )
    }

    /// Write the events the record misses, in order. `Err` while it still
    /// cannot.
    fn catch_up(&mut self) -> Result<(), String> {
        if self.unwritten.is_empty() {
            return Ok(());
        }
        let Some(mut writer) = self.referee.take_writer() else {
            self.unwritten.clear();
            return Ok(());
        };
        let mut result = Ok(());
        while let Some(event) = self.unwritten.first() {
            match writer.write_event(event) {
                Ok(()) => {
                    self.unwritten.remove(0);
                }
                Err(e) => {
                    result = Err(format!(
                        "the table waits: cannot write its record ({e}); it goes on by itself once it can"
                    ));
                    break;
                }
            }
        }
        self.referee.record_to(writer);
        result
    }

    fn undo_now(&mut self) -> Result<String, String> {
        let taken = match self.referee.last_applied() {
            None => Err("nothing has been played yet".to_string()),
            Some(Event::Roll { .. } | Event::Draw { .. }) if self.mode == DiceMode::Auto => Err(
                "the last event is a roll of the program's dice; only typed faces and people's decisions can be taken back".to_string(),
            ),
            Some(Event::Act { seat, action }) if !self.is_human(*seat) => Err(format!(
                "the last event is the decision \"{action}\" of the bot at {}; a bot's reply stands at a served table, so the person's move before it stands too; only typed faces and people's decisions made since the last bot move can be taken back",
                G::seat_letter(*seat)
            )),
            Some(e) => Ok(e.clone()),
        }?;
        let written = match self.referee.undo() {
            Ok(_) => Ok(()),
            // Taken back, but the undo is not yet in the record.
            Err(ApplyError::Io(e)) => Err(self.not_written(&Event::Undo, &e)),
            Err(ApplyError::Refused(why)) => return Err(why),
        };
        let line = format!(
            "undo (agreed by every person at the table): {} is taken back",
            taken.describe()
        );
        self.log.push(line.clone());
        self.turn = self.turn.saturating_sub(1).max(1);
        self.undo.iter_mut().for_each(|u| *u = false);
        written.map(|()| line)
    }

    fn moves(&self) -> Vec<Value> {
        let state = self.referee.state();
        let mut legal: Vec<ActionOf<G>> = Vec::new();
        state.legal_actions(&mut legal);
        let points = G::click_points(state, &legal);
        legal
            .iter()
            .zip(points)
            .map(|(a, p)| {
                json!({
                    "text": G::format_action(state, *a),
                    "at": p.map(|(x, y)| [x, y]),
                })
            })
            .collect()
    }
}

/// The picture with a clickable mark on every point a legal move of the
/// seat can be picked at (`class="mv"`, `data-at` the point's index in
/// `points`).
fn with_marks(svg: &str, points: &[(f64, f64)]) -> String {
    if points.is_empty() {
        return svg.to_string();
    }
    let mut marks = String::from("<g id=\"moves\">\n");
    for (i, (x, y)) in points.iter().enumerate() {
        marks.push_str(&format!(
            "<circle class=\"mv\" data-at=\"{i}\" cx=\"{}\" cy=\"{}\" r=\"11\" fill=\"#ffd54a\" fill-opacity=\"0.45\" stroke=\"#b07800\" stroke-width=\"2\"/>\n",
            num(*x),
            num(*y)
        ));
    }
    marks.push_str("</g>\n");
    match svg.rfind("</svg>") {
        Some(end) => format!("{}{marks}{}", &svg[..end], &svg[end..]),
        None => svg.to_string(),
    }
}

impl<G: Registered> Table for Play<G> {
    fn view(&self, seat: Option<Seat>) -> Value {
        let state = self.referee.state();
        let next = state.next();
        let scores = G::scores(state);
        let seats: Vec<Value> = self
            .people
            .iter()
            .enumerate()
            .map(|(s, name)| {
                json!({
                    "seat": s + 1,
                    "letter": G::seat_letter(s as Seat).to_string(),
                    "name": name,
                    "human": self.is_human(s as Seat),
                    "score": scores.get(s),
                    "undo": self.undo.get(s).copied().unwrap_or(false),
                })
            })
            .collect();
        let (kind, due) = match next {
            Next::Decide(s) => ("decide", Some(usize::from(s) + 1)),
            Next::Chance(_) => ("roll", None),
            Next::Draw => ("draw", None),
            Next::Over => ("over", None),
        };
        let mine = matches!((next, seat), (Next::Decide(s), Some(me)) if s == me)
            && self.stopped.is_none();
        let moves = if mine { self.moves() } else { Vec::new() };
        // The distinct points of the moves, in order.
        let mut points: Vec<(f64, f64)> = Vec::new();
        let moves: Vec<Value> = moves
            .into_iter()
            .map(|mut m| {
                if let Some([x, y]) = m["at"]
                    .as_array()
                    .map(|a| [a[0].as_f64().unwrap_or(0.0), a[1].as_f64().unwrap_or(0.0)])
                {
                    let i = points.iter().position(|p| *p == (x, y)).unwrap_or_else(|| {
                        points.push((x, y));
                        points.len() - 1
                    });
                    m["at"] = json!(i);
                }
                m
            })
            .collect();
        let typed = self.mode == DiceMode::Manual && matches!(next, Next::Chance(_) | Next::Draw);
        let chance = match next {
            Next::Chance(d) if typed => json!({"die": d.to_string(), "sides": d.sides()}),
            Next::Draw if typed => json!({"cards": state.draw_weights()}),
            _ => Value::Null,
        };
        let outcome = state.outcome().map(|o| {
            json!({
                "scores": o.scores,
                "winners": o.winners.iter().map(|w| usize::from(*w) + 1).collect::<Vec<_>>(),
                "reason": G::END_REASONS.get(G::end_reason(state)).map_or("?", |r| r.label),
            })
        });
        let from = self.log.len().saturating_sub(LOG_LINES);
        json!({
            "title": self.title,
            "events": self.referee.events(),
            "you": seat.map(|s| usize::from(s) + 1),
            "seats": seats,
            "next": kind,
            "due": due,
            "waiting": G::describe_node(state),
            "mine": mine,
            "moves": moves,
            "chance": chance,
            "svg": with_marks(&G::svg(state, &self.people), &points),
            "log": &self.log[from..],
            "outcome": outcome,
            "stopped": self.stopped,
            "waiting_for_disk": !self.unwritten.is_empty(),
        })
    }

    fn request(&mut self, seat: Seat, req: Request<'_>) -> Result<String, String> {
        if !self.is_human(seat) {
            return Err(format!("seat {} is not a person's", seat + 1));
        }
        if let Some(why) = &self.stopped {
            return Err(format!("the game has stopped: {why}"));
        }
        self.catch_up()?;
        match req {
            Request::Act(text) => {
                let event = Event::Act {
                    action: text.trim().to_string(),
                    seat,
                };
                self.apply(&event)?;
                Ok(format!("played {}", text.trim()))
            }
            Request::Chance(text) => {
                if self.mode != DiceMode::Manual {
                    return Err("the program rolls the dice at this table".to_string());
                }
                let event = match self.referee.state().next() {
                    Next::Chance(die) => {
                        let face: u8 = text.trim().parse().map_err(|_| {
                            format!(
                                "expected a face of the {die} (1 to {}), found \"{}\"",
                                die.sides(),
                                text.escape_debug()
                            )
                        })?;
                        Event::Roll {
                            face,
                            die: Some(die),
                        }
                    }
                    Next::Draw => Event::Draw {
                        card: text.trim().to_string(),
                    },
                    _ => return Err("the game does not wait for dice or a card".to_string()),
                };
                self.apply(&event)?;
                Ok("recorded".to_string())
            }
            Request::Undo => {
                self.undo[usize::from(seat)] = true;
                let all = (0..self.sitters.len())
                    .filter(|&s| self.is_human(s as Seat))
                    .all(|s| self.undo[s]);
                if all {
                    let done = self.undo_now();
                    if done.is_err() {
                        self.undo.iter_mut().for_each(|u| *u = false);
                    }
                    done
                } else {
                    Ok("undo asked: it happens when every person at the table asks".to_string())
                }
            }
            Request::KeepIt => {
                self.undo[usize::from(seat)] = false;
                Ok("undo request withdrawn".to_string())
            }
        }
    }

    fn bot_step(&mut self) -> Result<bool, String> {
        if self.stopped.is_some() || self.catch_up().is_err() {
            return Ok(false);
        }
        let state = self.referee.state();
        let event = match state.next() {
            Next::Over => return Ok(false),
            Next::Chance(die) => match self.dice.as_mut() {
                Some(d) => Event::Roll {
                    face: d.roll(die),
                    die: Some(die),
                },
                None => return Ok(false),
            },
            Next::Draw => match self.dice.as_mut() {
                Some(d) => {
                    let face = d.draw(state.draw_weights());
                    Event::Draw {
                        card: G::format_draw(state, face),
                    }
                }
                None => return Ok(false),
            },
            Next::Decide(seat) => match self.bots.get_mut(usize::from(seat)) {
                Some(Some(bot)) => match bot.choose(state) {
                    Ok(a) => Event::Act {
                        action: G::format_action(state, a),
                        seat,
                    },
                    Err(why) => {
                        let why = match why {
                            NoAction::Forfeit(w) => w,
                            other => format!("{other:?}"),
                        };
                        let msg = format!("the bot in seat {} forfeits: {why}", seat + 1);
                        self.log.push(msg.clone());
                        self.stopped = Some(msg.clone());
                        return Err(msg);
                    }
                },
                _ => return Ok(false),
            },
        };
        self.apply(&event).map(|()| true)
    }

    fn finished(&self) -> bool {
        self.stopped.is_some() || self.referee.state().next() == Next::Over
    }

    fn events(&self) -> u64 {
        self.referee.events()
    }

    fn waiting_for_disk(&self) -> bool {
        !self.unwritten.is_empty()
    }

    fn write_waiting(&mut self) -> bool {
        self.catch_up().is_ok()
    }

    fn is_for(&self, rules: &AnyRules, sitters: &[Sitter]) -> bool {
        G::unwrap(rules).is_some_and(|r| r == self.referee.rules())
            && self.sitters.len() == sitters.len()
            && self
                .sitters
                .iter()
                .zip(sitters)
                .all(|(a, b)| a.record_name() == b.record_name())
    }

    fn summary(&self) -> Value {
        json!({
            "title": self.title,
            "players": self.people,
            "events": self.referee.events(),
            "over": self.finished(),
            "waiting": G::describe_node(self.referee.state()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers of attribute `name` in `svg`, in order.
    fn attr(svg: &str, name: &str) -> Vec<f64> {
        svg.split(&format!(" {name}=\""))
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].parse().unwrap())
            .collect()
    }

    /// In seeded games of every built-in variant, with a person in every
    /// seat: the seat due sees a mark on the picture for every place a legal
    /// move of it is picked at, each mark inside the picture and used by a
    /// move; the other seats and the host see no mark; every game offers
    /// places to click.
    #[test]
    fn every_legal_move_is_marked_for_the_seat_due_and_nothing_else() {
        let dir = std::env::temp_dir().join(format!("roots-serve-marks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in crate::variant::resolve::builtin_names() {
            let rules = crate::variant::resolve::load(name).unwrap().rules;
            let n = *rules.seats().start();
            let record = dir.join(format!("{name}.jsonl"));
            let _ = std::fs::remove_file(&record);
            let people: Vec<String> = (1..=n).map(|s| format!("p{s}")).collect();
            let mut t = create(
                &rules,
                vec![Sitter::Human; usize::from(n)],
                people,
                7,
                DiceMode::Auto,
                &record,
            )
            .unwrap();
            let (mut placed, mut buttons, mut pick) = (0usize, 0usize, 12345u64);
            // The first 100 events of each game (the opening's places).
            for _ in 0..100 {
                let host = t.view(None);
                assert!(!host["svg"].as_str().unwrap().contains("class=\"mv\""));
                match host["next"].as_str().unwrap() {
                    "over" => break,
                    "decide" => {}
                    _ => {
                        assert!(t.bot_step().unwrap(), "{name}: the dice roll");
                        continue;
                    }
                }
                let due = host["due"].as_u64().unwrap() as Seat - 1;
                let v = t.view(Some(due));
                let svg = v["svg"].as_str().unwrap();
                let (w, h) = {
                    let vb = svg.split("viewBox=\"").nth(1).unwrap();
                    let f: Vec<f64> = vb[..vb.find('"').unwrap()]
                        .split(' ')
                        .map(|x| x.parse().unwrap())
                        .collect();
                    (f[2], f[3])
                };
                let marks = svg.matches("class=\"mv\"").count();
                let moves = v["moves"].as_array().unwrap();
                assert!(!moves.is_empty(), "{name}: no move offered");
                let mut used = vec![false; marks];
                for m in moves {
                    match m["at"].as_u64() {
                        Some(i) => {
                            used[i as usize] = true;
                            placed += 1;
                        }
                        None => buttons += 1,
                    }
                }
                assert!(used.iter().all(|u| *u), "{name}: a mark picks no move");
                let (xs, ys) = (attr(svg, "cx"), attr(svg, "cy"));
                let at = svg.find("<g id=\"moves\">").unwrap_or(svg.len());
                let (mx, my) = (attr(&svg[at..], "cx"), attr(&svg[at..], "cy"));
                assert_eq!(mx.len(), marks);
                assert!(xs.len() >= mx.len() && ys.len() >= my.len());
                for (x, y) in mx.iter().zip(&my) {
                    assert!(
                        (0.0..=w).contains(x) && (0.0..=h).contains(y),
                        "{name}: a mark at ({x}, {y}) outside the {w}x{h} picture"
                    );
                }
                for other in (0..n).filter(|&s| s != due) {
                    let o = t.view(Some(other));
                    assert_eq!(o["moves"], json!([]));
                    assert!(!o["svg"].as_str().unwrap().contains("class=\"mv\""));
                }
                pick = pick
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = &moves[(pick >> 33) as usize % moves.len()];
                t.request(due, Request::Act(m["text"].as_str().unwrap()))
                    .unwrap();
            }
            assert!(
                placed > buttons,
                "{name}: {placed} moves on the picture, {buttons} as buttons"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
