//! The referee: the one loop that applies the events of a game, whatever
//! their source (seeded or typed dice, bots or humans, a record), and writes
//! each one to the record as it happens. The engine does no IO; this module
//! only writes to a [`RecordWriter`] it is given.

use std::sync::Arc;

use crate::bots::{NoAction, Player};
use crate::core::dice::{Die, SeededDice};
use crate::core::protocol::{GameState, Next, Outcome, Seat};
use crate::games::{ActionOf, Game, Registered};
use crate::record::{Event, RawRecord, RecordError, RecordWriter};

/// Where the faces of chance nodes come from, for a game whose nodes are `S`.
pub trait DiceSource<S> {
    /// The face of `die` for the chance node of `state`.
    fn roll(&mut self, state: &S, die: Die) -> Result<u8, NoAction>;
    /// The card (its face, from 1) turned over at the draw node of `state`,
    /// whose deck holds `weights[k - 1]` cards of face `k`.
    fn draw(&mut self, state: &S, weights: &[u32]) -> Result<u8, NoAction>;
}

impl<S> DiceSource<S> for SeededDice {
    fn roll(&mut self, _state: &S, die: Die) -> Result<u8, NoAction> {
        Ok(SeededDice::roll(self, die))
    }

    fn draw(&mut self, _state: &S, weights: &[u32]) -> Result<u8, NoAction> {
        Ok(SeededDice::draw(self, weights))
    }
}

/// Faces from a callback: physical dice typed at a terminal, a test script.
/// The callback may return a face out of range: it is refused, and
/// [`Referee::step`] reports [`Stop::Refused`].
pub struct ManualDice<F>(pub F);

impl<S, F: FnMut(&S, Die) -> Result<u8, NoAction>> DiceSource<S> for ManualDice<F> {
    fn roll(&mut self, state: &S, die: Die) -> Result<u8, NoAction> {
        (self.0)(state, die)
    }

    /// Dice only: a game that turns cards over needs [`ManualChance`].
    fn draw(&mut self, _state: &S, _weights: &[u32]) -> Result<u8, NoAction> {
        Err(NoAction::Quit)
    }
}

/// Faces of dice and cards from callbacks: the physical dice rolled and the
/// cards turned over at the table, typed by the referee. The second callback
/// gives the face (from 1) of the card typed at a draw node.
pub struct ManualChance<F, H>(pub F, pub H);

impl<S, F, H> DiceSource<S> for ManualChance<F, H>
where
    F: FnMut(&S, Die) -> Result<u8, NoAction>,
    H: FnMut(&S, &[u32]) -> Result<u8, NoAction>,
{
    fn roll(&mut self, state: &S, die: Die) -> Result<u8, NoAction> {
        (self.0)(state, die)
    }

    fn draw(&mut self, state: &S, weights: &[u32]) -> Result<u8, NoAction> {
        (self.1)(state, weights)
    }
}

/// Why [`Referee::step`] or [`Referee::run`] stopped before the end of the game.
#[derive(Debug)]
pub enum Stop {
    /// A player or the dice source gave no answer (quit, end of input).
    NoAction(NoAction),
    /// A player or the dice source gave an answer the engine refused.
    Refused { event: Event, reason: String },
    /// The record could not be written.
    Io(std::io::Error),
    /// There are fewer players than seats.
    NoPlayer(Seat),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::NoAction(NoAction::Quit) => f.write_str("the game was stopped"),
            Stop::NoAction(NoAction::EndOfInput) => f.write_str("the input ended"),
            Stop::NoAction(NoAction::Forfeit(why)) => write!(f, "a player forfeits: {why}"),
            Stop::NoAction(NoAction::Undo) => f.write_str("an undo was asked for"),
            Stop::Refused { event, reason } => {
                write!(f, "{} was refused: {reason}", event.describe())
            }
            Stop::Io(e) => write!(f, "cannot write the record: {e}"),
            Stop::NoPlayer(s) => write!(f, "nobody plays seat {}", u16::from(*s) + 1),
        }
    }
}

impl std::error::Error for Stop {}

/// A game of `G` in progress: the state, the number of events so far, and
/// the record being written (if any).
#[derive(Debug)]
pub struct Referee<G: Game> {
    state: G::State,
    events: u64,
    writer: Option<RecordWriter>,
    rules: Arc<G::Rules>,
    seats: u8,
    /// The rolls and decisions in force (undone ones taken out), to rebuild
    /// the state from after an undo.
    applied: Vec<Event>,
    /// The seeded stream of the game's chance, when it has one
    /// ([`Referee::with_stream`]): at its start, and after the events in
    /// force.
    stream: Option<(SeededDice, SeededDice)>,
    /// The seat that forfeited, and why: the game is over (the state does
    /// not know it; the referee does).
    forfeited: Option<(Seat, String)>,
}

impl<G: Game> Referee<G> {
    /// A new game of `seats` players whose chance is drawn from `dice`
    /// when no face is given: the referee keeps the stream in step with
    /// the game. Every roll in force draws one face of its die from it and
    /// every card one weighted draw, whether the face was drawn from it or
    /// given (so the faces it gives are those a seeded game would roll
    /// there), and [`Referee::undo`] puts it back with the game. The face
    /// it gives next: [`Referee::seeded_face`].
    pub fn with_stream(
        rules: Arc<G::Rules>,
        seats: u8,
        dice: SeededDice,
    ) -> Result<Referee<G>, String> {
        let mut referee = Referee::new(rules, seats)?;
        referee.stream = Some((dice.clone(), dice));
        Ok(referee)
    }

    /// A new game of `seats` players, recording nothing yet.
    pub fn new(rules: Arc<G::Rules>, seats: u8) -> Result<Referee<G>, String> {
        Ok(Referee {
            state: G::new_state(Arc::clone(&rules), seats)?,
            events: 0,
            writer: None,
            rules,
            seats,
            applied: Vec::new(),
            stream: None,
            forfeited: None,
        })
    }

    /// The face (of a die, or a card's) the seeded stream gives at the
    /// chance or draw node the game is at; `None` without a stream or at a
    /// decision.
    pub fn seeded_face(&self) -> Option<u8> {
        let (_, now) = self.stream.as_ref()?;
        let mut dice = now.clone();
        match self.state.next() {
            Next::Chance(die) => Some(dice.roll(die)),
            Next::Draw => Some(dice.draw(self.state.draw_weights())),
            _ => None,
        }
    }

    /// The rolls and decisions in force, in order (undone ones taken out).
    pub fn applied(&self) -> &[Event] {
        &self.applied
    }

    /// The seat whose player forfeited, and why: the game ended there.
    pub fn forfeited(&self) -> Option<(Seat, &str)> {
        self.forfeited.as_ref().map(|(s, r)| (*s, r.as_str()))
    }

    /// Record that `seat`'s player forfeited at its decision (`why`): the
    /// game ends; a record keeps it, so replay and resume see a game over.
    pub fn forfeit(&mut self, seat: Seat, why: &str) -> Result<(), ApplyError> {
        let found = Event::Forfeit {
            seat,
            reason: why.to_string(),
        };
        if self.forfeited.is_some() {
            return Err(Refused(self.mismatch(&found)).into());
        }
        match self.state.next() {
            Next::Decide(due) if due == seat => {
                self.forfeited = Some((seat, why.to_string()));
                self.record(&found)
            }
            _ => Err(Refused(self.mismatch(&found)).into()),
        }
    }

    /// Write every event applied from now on to `writer`.
    pub fn record_to(&mut self, writer: RecordWriter) {
        self.writer = Some(writer);
    }

    /// Stop recording, handing back the writer.
    pub fn take_writer(&mut self) -> Option<RecordWriter> {
        self.writer.take()
    }

    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> &Arc<G::Rules> {
        &self.rules
    }

    /// Number of events applied so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    /// Check an event against the node and apply it. On `Err` (a message
    /// `expected ..., found ...`) the game is unchanged and nothing is
    /// recorded.
    pub fn apply(&mut self, event: &Event) -> Result<(), ApplyError> {
        if self.forfeited.is_some() {
            return Err(Refused(self.mismatch(event)).into());
        }
        match *event {
            Event::Forfeit { seat, ref reason } => self.forfeit(seat, reason),
            Event::Undo => self.undo().map(|_| ()),
            Event::Roll { face, die } => self.apply_roll(face, die),
            Event::Draw { ref card } => match self.state.next() {
                Next::Draw => {
                    let face = G::parse_draw(&self.state, card).map_err(|why| {
                        Refused(format!(
                            "expected a card ({}), found \"{card}\": {why}",
                            G::describe_node(&self.state)
                        ))
                    })?;
                    self.apply_draw(face)
                }
                _ => Err(Refused(self.mismatch(event)).into()),
            },
            Event::Act { ref action, seat } => match self.state.next() {
                Next::Decide(due) if due == seat => {
                    let a = G::parse_action(&self.state, action).map_err(|why| {
                        Refused(format!(
                            "expected an action ({}), found \"{action}\": {why}",
                            G::describe_node(&self.state)
                        ))
                    })?;
                    self.apply_action(seat, a)
                }
                _ => Err(Refused(self.mismatch(event)).into()),
            },
        }
    }

    /// Apply a roll; `die`, when given, must be the die the node names.
    pub fn apply_roll(&mut self, face: u8, die: Option<Die>) -> Result<(), ApplyError> {
        let found = Event::Roll { face, die };
        match self.state.next() {
            Next::Chance(due) => {
                if let Some(d) = die
                    && d != due
                {
                    return Err(Refused(format!(
                        "expected a roll of the {due} ({}), found a roll of the {d}",
                        G::describe_node(&self.state)
                    ))
                    .into());
                }
                if !due.has_face(face) {
                    return Err(Refused(format!(
                        "expected a face of the {due} (1 to {}), found {face}",
                        due.sides()
                    ))
                    .into());
                }
                let before = self.stream_after_chance();
                self.state
                    .roll(face)
                    .map_err(|r| Refused(format!("expected a roll, found one refused: {r}")))?;
                self.keep_stream(before);
                self.record(&found_roll(face, Some(due)))
            }
            _ => Err(Refused(self.mismatch(&found)).into()),
        }
    }

    /// Apply the card drawn at a draw node (its face, from 1), checked by
    /// the engine; recorded by the card's name.
    pub fn apply_draw(&mut self, face: u8) -> Result<(), ApplyError> {
        match self.state.next() {
            Next::Draw => {
                let card = G::format_draw(&self.state, face);
                let before = self.stream_after_chance();
                self.state
                    .roll(face)
                    .map_err(|r| Refused(format!("expected a card left in the deck, found {r}")))?;
                self.keep_stream(before);
                self.record(&Event::Draw { card })
            }
            _ => {
                let found = Event::Draw {
                    card: face.to_string(),
                };
                Err(Refused(self.mismatch(&found)).into())
            }
        }
    }

    /// Apply a decision of `seat`, checked by the engine.
    pub fn apply_action(&mut self, seat: Seat, action: ActionOf<G>) -> Result<(), ApplyError> {
        let text = G::format_action(&self.state, action);
        let found = Event::Act {
            action: text.clone(),
            seat,
        };
        match self.state.next() {
            Next::Decide(due) if due == seat => {
                self.state.play(action).map_err(|r| {
                    Refused(format!("expected a legal action, found \"{text}\": {r}"))
                })?;
                self.record(&found)
            }
            _ => Err(Refused(self.mismatch(&found)).into()),
        }
    }

    /// The message for an event of the wrong kind or seat.
    fn mismatch(&self, found: &Event) -> String {
        if let Some((seat, _)) = &self.forfeited {
            return format!(
                "expected the end of the record (the game is over: seat {} forfeited), found {}",
                u16::from(*seat) + 1,
                found.describe()
            );
        }
        let what = G::describe_node(&self.state);
        match self.state.next() {
            Next::Chance(die) => {
                format!(
                    "expected a roll of the {die} ({what}), found {}",
                    found.describe()
                )
            }
            Next::Draw => format!("expected a card drawn ({what}), found {}", found.describe()),
            Next::Decide(seat) => format!(
                "expected a decision of seat {} ({what}), found {}",
                u16::from(seat) + 1,
                found.describe()
            ),
            Next::Over => format!(
                "expected the end of the record (the game is over), found {}",
                found.describe()
            ),
        }
    }

    /// The last roll or decision in force (the one [`Referee::undo`] would
    /// take back).
    pub fn last_applied(&self) -> Option<&Event> {
        self.applied.last()
    }

    /// Take back the last roll or decision in force and record an
    /// [`Event::Undo`]; the game (and its seeded stream) is as it was before
    /// that event. Returns the event taken back.
    pub fn undo(&mut self) -> Result<Event, ApplyError> {
        let mut undone = self.take_back(1)?;
        Ok(undone.remove(0))
    }

    /// Take back the last `n` rolls and decisions in force (rebuilding the
    /// game once), recording an [`Event::Undo`] for each; returns them,
    /// the last one first.
    pub fn take_back(&mut self, n: usize) -> Result<Vec<Event>, ApplyError> {
        if n == 0 || n > self.applied.len() {
            return Err(Refused(if self.applied.is_empty() {
                "expected a roll or decision to take back, found none (the game has just begun)"
                    .to_string()
            } else {
                format!(
                    "expected at most {} rolls and decisions to take back, found {n}",
                    self.applied.len()
                )
            })
            .into());
        }
        let mut keep = std::mem::take(&mut self.applied);
        let undone: Vec<Event> = keep.drain(keep.len() - n..).rev().collect();
        let writer = self.writer.take();
        let events = self.events;
        if let Some((start, now)) = &mut self.stream {
            *now = start.clone();
        }
        let rebuilt = G::new_state(Arc::clone(&self.rules), self.seats).map(|s| {
            self.state = s;
            keep.iter().try_for_each(|e| self.apply(e))
        });
        self.events = events;
        self.writer = writer;
        match rebuilt {
            Ok(Ok(())) => {}
            // Each event was applied once already: the engine is
            // deterministic, so this cannot happen.
            Ok(Err(e)) => return Err(e),
            Err(e) => return Err(Refused(e).into()),
        }
        for _ in 0..n {
            self.record(&Event::Undo)?;
        }
        Ok(undone)
    }

    /// The seeded stream once the chance or draw node the game is at has
    /// drawn from it (taken before the node is left: a draw's weights are
    /// the deck's before the card is turned over).
    fn stream_after_chance(&self) -> Option<SeededDice> {
        let (_, now) = self.stream.as_ref()?;
        let mut dice = now.clone();
        advance(&mut dice, &self.state);
        Some(dice)
    }

    fn keep_stream(&mut self, after: Option<SeededDice>) {
        if let (Some((_, now)), Some(after)) = (&mut self.stream, after) {
            *now = after;
        }
    }

    fn record(&mut self, event: &Event) -> Result<(), ApplyError> {
        self.events += 1;
        if !matches!(event, Event::Undo | Event::Forfeit { .. }) {
            self.applied.push(event.clone());
        }
        if let Some(w) = &mut self.writer {
            // The event is applied; only the record failed.
            w.write_event(event).map_err(ApplyError::Io)?;
        }
        Ok(())
    }

    /// Ask the next event of its source (the dice or the seat's player),
    /// apply it and record it. `Ok(None)` once the game is over.
    pub fn step(
        &mut self,
        dice: &mut dyn DiceSource<G::State>,
        players: &mut [Box<dyn Player<G::State> + '_>],
    ) -> Result<Option<Event>, Stop> {
        if self.forfeited.is_some() {
            return Ok(None);
        }
        let (event, result) = match self.state.next() {
            Next::Over => return Ok(None),
            Next::Chance(die) => {
                let face = dice.roll(&self.state, die).map_err(Stop::NoAction)?;
                (
                    found_roll(face, Some(die)),
                    self.apply_roll(face, Some(die)),
                )
            }
            Next::Draw => {
                let face = dice
                    .draw(&self.state, self.state.draw_weights())
                    .map_err(Stop::NoAction)?;
                let card = G::format_draw(&self.state, face);
                (Event::Draw { card }, self.apply_draw(face))
            }
            Next::Decide(seat) => {
                let player = players
                    .get_mut(usize::from(seat))
                    .ok_or(Stop::NoPlayer(seat))?;
                let action = player.choose(&self.state).map_err(Stop::NoAction)?;
                let text = G::format_action(&self.state, action);
                (
                    Event::Act { action: text, seat },
                    self.apply_action(seat, action),
                )
            }
        };
        match result {
            Ok(()) => Ok(Some(event)),
            Err(ApplyError::Io(e)) => Err(Stop::Io(e)),
            Err(ApplyError::Refused(reason)) => Err(Stop::Refused { event, reason }),
        }
    }

    /// Play to the end.
    pub fn run(
        &mut self,
        dice: &mut dyn DiceSource<G::State>,
        players: &mut [Box<dyn Player<G::State> + '_>],
    ) -> Result<Outcome, Stop> {
        while self.step(dice, players)?.is_some() {}
        self.state.outcome().ok_or(Stop::NoAction(NoAction::Quit))
    }

    /// Replay the events of a record (the first `until`, if given) through
    /// the same checked engine calls. Errors carry the line of the event.
    /// The record must be of game `G` (see [`RawRecord::header`]).
    pub fn replay(raw: &RawRecord, until: Option<u64>) -> Result<Referee<G>, RecordError>
    where
        G: Registered,
    {
        Referee::replay_synced(raw, until, &mut Sync::default())
    }

    /// Replay a record to go on playing it: like [`Referee::replay`], and also
    /// draw from `sync.dice` at every roll and ask each bot of `sync.bots` at
    /// its decisions, so that the seeded dice and bots continue where they
    /// stopped. A source that disagrees with the record is noted in
    /// `sync.diverged` (the line where it first did).
    pub fn replay_synced(
        raw: &RawRecord,
        until: Option<u64>,
        sync: &mut Sync<'_, G::State>,
    ) -> Result<Referee<G>, RecordError>
    where
        G: Registered,
    {
        let header = &raw.header;
        let rules = header.rules::<G>().map_err(|m| RecordError::at(1, m))?;
        check_playable::<G>(&rules).map_err(|m| RecordError::at(1, m))?;
        let seats_allowed = G::seats(&rules);
        let (min, max) = (*seats_allowed.start(), *seats_allowed.end());
        let n = header.players.len();
        if n < usize::from(min) || n > usize::from(max) {
            return Err(RecordError::at(
                1,
                format!(
                    "expected players the variant allows, found {n} players: variant `{}` is for {}",
                    G::name(&rules),
                    crate::core::players_phrase(min, max)
                ),
            ));
        }
        let seats = u8::try_from(n).unwrap_or(u8::MAX);
        let mut game = Referee::<G>::new(rules, seats).map_err(|e| {
            RecordError::at(
                1,
                format!(
                    "expected players the variant allows, found {} players: {e}",
                    header.players.len()
                ),
            )
        })?;
        game.follow(&raw.events, until, sync)?;
        Ok(game)
    }

    /// Apply the events of a record (each with its line), through the
    /// checked engine, stopping once `until` events are applied; like
    /// [`Referee::replay_synced`], compare each with what `sync`'s dice and
    /// bots give there. Errors carry the line of the event. Any game
    /// reaches this (the header, with its rules, is the registry's part).
    pub fn follow(
        &mut self,
        events: &[(usize, Event)],
        until: Option<u64>,
        sync: &mut Sync<'_, G::State>,
    ) -> Result<(), RecordError> {
        let game = self;
        for (line, event) in events {
            if until.is_some_and(|n| game.events >= n) {
                break;
            }
            let next = game.state.next();
            match (next, event) {
                (Next::Chance(die), Event::Roll { face, .. }) => {
                    if let Some(d) = sync.dice.as_deref_mut() {
                        let mine = d.roll(die);
                        if mine != *face && sync.diverged.is_none() {
                            sync.diverged = Some(*line);
                        }
                    }
                }
                (Next::Draw, Event::Draw { card }) => {
                    if let Some(d) = sync.dice.as_deref_mut() {
                        let mine = d.draw(game.state.draw_weights());
                        if G::format_draw(&game.state, mine) != *card && sync.diverged.is_none() {
                            sync.diverged = Some(*line);
                        }
                    }
                }
                (Next::Decide(seat), Event::Act { action, seat: s }) if seat == *s => {
                    if let Some(Some(bot)) = sync.bots.get_mut(usize::from(seat)) {
                        let mine = bot
                            .choose(&game.state)
                            .map(|a| G::format_action(&game.state, a));
                        if mine.as_deref() != Ok(action.as_str()) && sync.diverged.is_none() {
                            sync.diverged = Some(*line);
                        }
                    }
                }
                _ => {}
            }
            game.apply(event)
                .map_err(|m| RecordError::at(*line, m.to_string()))?;
        }
        Ok(())
    }
}

/// One event of a record as a person reads it (`roots replay --list`,
/// `roots view`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The event's number, from 1 (`--until N` stops after event N).
    pub number: u64,
    /// Its line in the record.
    pub line: usize,
    /// The turn it belongs to, from 1: a turn ends when the seat whose turn
    /// it is ([`Game::turn_seat`]) changes, or when a turn every seat plays
    /// in ([`Game::shared_turn`]) begins or ends.
    pub turn: u32,
    /// The seat whose turn it was.
    pub seat: Seat,
    /// The name of the turn when every seat plays in it ([`Game::shared_turn`]).
    pub shared: Option<&'static str>,
    /// What the game waited for ([`Game::describe_node`]).
    pub waiting: String,
    /// The event.
    pub event: Event,
    /// The die rolled, for a roll.
    pub die: Option<Die>,
    /// What came of it, a line each ([`Game::narrate`]).
    pub notes: Vec<String>,
    /// A decision as a person reads it ([`Game::action_words`]).
    pub said: Option<String>,
}

impl Step {
    /// A decision `event` taken at `before`, as a person reads it
    /// ([`Game::action_words`]); none for other events.
    pub fn said<G: Game>(before: &G::State, event: &Event) -> Option<String> {
        match event {
            Event::Act { action, .. } => G::parse_action(before, action)
                .ok()
                .map(|a| G::action_words(before, a)),
            _ => None,
        }
    }

    /// Whether the step, which led to `after`, ended its turn: the seat
    /// whose turn it is changed, or a turn every seat plays in began or
    /// ended, and the game goes on.
    pub fn ends_turn<G: Game>(&self, after: &G::State) -> bool {
        let now = G::shared_turn(after);
        let changed = if self.shared.is_some() || now.is_some() {
            now != self.shared
        } else {
            G::turn_seat(after) != self.seat
        };
        changed && after.next() != Next::Over
    }

    /// The heading of the step's turn: `turn 5 (A greedy)`, `turn 1: the
    /// first turn (every seat)`.
    pub fn turn_heading<G: Game>(&self, names: &[String]) -> String {
        match self.shared {
            Some(name) => format!("turn {}: {name} (every seat)", self.turn),
            None => format!(
                "turn {} ({} {})",
                self.turn,
                G::seat_letter(self.seat),
                names
                    .get(usize::from(self.seat))
                    .map(String::as_str)
                    .unwrap_or("?")
            ),
        }
    }

    /// The event in words: `seat 1 chooses a growth action: ... ` for a
    /// roll, `A (human): place 3,4` for a decision.
    pub fn describe<G: Game>(&self, names: &[String]) -> String {
        match &self.event {
            Event::Roll { face, die } => match die.or(self.die) {
                Some(d) => format!("{}: the {d} shows {face}", self.waiting),
                None => format!("{}: a roll of {face}", self.waiting),
            },
            Event::Act { action, seat } => format!(
                "{} ({}): {}",
                G::seat_letter(*seat),
                names
                    .get(usize::from(*seat))
                    .map(String::as_str)
                    .unwrap_or("?"),
                self.said.as_deref().unwrap_or(action)
            ),
            Event::Undo => "undo: the last roll or decision is taken back".to_string(),
            Event::Forfeit { seat, reason } => format!(
                "{} ({}) forfeits and loses: {reason}",
                G::seat_letter(*seat),
                names
                    .get(usize::from(*seat))
                    .map(String::as_str)
                    .unwrap_or("?")
            ),
            Event::Draw { card } => format!("{}: the card turned over is {card}", self.waiting),
        }
    }
}

impl<G: Game> Referee<G> {
    /// Replay every event of a record through the checked engine, calling
    /// `visit` after each with the step and the state after it. Errors
    /// carry the line of the event.
    pub fn walk(
        raw: &RawRecord,
        mut visit: impl FnMut(&Step, &G::State),
    ) -> Result<Referee<G>, RecordError>
    where
        G: Registered,
    {
        let mut game = Referee::<G>::replay(raw, Some(0))?;
        let mut turn = 1u32;
        // The turn of each event in force, to go back to on an undo.
        let mut turns: Vec<u32> = Vec::new();
        for (line, event) in &raw.events {
            let seat = G::turn_seat(&game.state);
            let shared = G::shared_turn(&game.state);
            let waiting = G::describe_node(&game.state);
            let die = match game.state.next() {
                Next::Chance(d) => Some(d),
                _ => None,
            };
            let before = game.state.clone();
            game.apply(event)
                .map_err(|m| RecordError::at(*line, m.to_string()))?;
            let said = Step::said::<G>(&before, event);
            let roll = match event {
                Event::Roll { face, .. } => Some(*face),
                _ => None,
            };
            let notes = if matches!(event, Event::Undo | Event::Forfeit { .. }) {
                Vec::new()
            } else {
                G::narrate(&before, roll, &game.state)
            };
            let step = Step {
                number: game.events,
                line: *line,
                turn,
                seat,
                shared,
                waiting,
                event: event.clone(),
                die,
                notes,
                said,
            };
            visit(&step, &game.state);
            if *event == Event::Undo {
                turn = turns.pop().unwrap_or(1);
            } else {
                turns.push(turn);
                if step.ends_turn::<G>(&game.state) {
                    turn += 1;
                }
            }
        }
        Ok(game)
    }
}

/// What a resumed game keeps in step with the record: the seeded dice (in
/// auto mode) and the bots (by seat; `None` for a human seat).
pub struct Sync<'a, S: GameState> {
    pub dice: Option<&'a mut SeededDice>,
    pub bots: Vec<Option<&'a mut (dyn Player<S> + 'a)>>,
    /// The first line where a source disagreed with the record.
    pub diverged: Option<usize>,
}

impl<S: GameState> Default for Sync<'_, S> {
    fn default() -> Self {
        Sync {
            dice: None,
            bots: Vec::new(),
            diverged: None,
        }
    }
}

/// Why an event was not applied.
#[derive(Debug)]
pub enum ApplyError {
    /// The event does not fit the game: `expected ..., found ...`. The game
    /// is unchanged.
    Refused(String),
    /// The event was applied but could not be written to the record.
    Io(std::io::Error),
}

impl std::fmt::Display for ApplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApplyError::Refused(m) => f.write_str(m),
            ApplyError::Io(e) => write!(f, "cannot write the record: {e}"),
        }
    }
}

impl std::error::Error for ApplyError {}

struct Refused(String);

impl From<Refused> for ApplyError {
    fn from(r: Refused) -> ApplyError {
        ApplyError::Refused(r.0)
    }
}

/// Draw from `dice` what the chance or draw node of `state` draws (nothing
/// at a decision or the end).
fn advance<S: GameState>(dice: &mut SeededDice, state: &S) {
    match state.next() {
        Next::Chance(die) => {
            dice.roll(die);
        }
        Next::Draw => {
            dice.draw(state.draw_weights());
        }
        _ => {}
    }
}

fn found_roll(face: u8, die: Option<Die>) -> Event {
    Event::Roll { face, die }
}

/// Check rules from an untrusted source (a record header) exactly as a
/// variant file is checked: the rules are written out as TOML and run through
/// the whole variant pipeline (schema, bounds, cross-key checks). So the
/// engine only ever sees rules a variant file could have produced.
pub fn check_playable<G: Registered>(rules: &Arc<G::Rules>) -> Result<(), String> {
    let mut text = format!("game = \"{}\"\n", G::ID);
    text.push_str(
        &toml::to_string(&**rules)
            .map_err(|e| format!("expected a variant that can be written as TOML, found: {e}"))?,
    );
    match crate::variant::load_str("<record variant>", &text, None) {
        Ok(loaded) if loaded.rules == G::wrap(Arc::clone(rules)) => Ok(()),
        Ok(_) => Err(
            "expected a complete variant in the record, found one that changes when resolved"
                .to_string(),
        ),
        Err(diags) => {
            let first: Vec<String> = diags
                .items
                .iter()
                .filter(|d| d.is_error())
                .take(3)
                .map(|d| match &d.key_path {
                    Some(k) => format!("{k}: {}", d.message),
                    None => d.message.clone(),
                })
                .collect();
            Err(format!(
                "expected a valid variant in the record, found: {}",
                first.join("; ")
            ))
        }
    }
}
