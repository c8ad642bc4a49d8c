//! A fifth game built here, outside the crate, against the minimum a game
//! provides (`docs/adding-a-game.md`): the required items of [`Game`], and
//! one optional hook, its picture, to show what the shared helpers leave a
//! game to write (the seats' legend, the status line and the key under a
//! board are `core::svg`'s; the seat-count refusal is `games::admit_seats`).
//! It runs through the generic layers that take any
//! `G: Game`: the bots, the referee (undo and its seeded stream included),
//! the simulator and its report, a game's events as record lines read back
//! and replayed, and the engine protocol. What needs the registry (variant
//! files, a record's header, the `start` request) is out of its reach: a
//! game joins those with its line in `games_registry!`.
//!
//! The game, Windy Noughts: two seats place marks on a 3x3 grid; each turn
//! starts with a d6, and on a 1 the wind takes the turn away. Three in a row
//! scores 1 and ends the game; so does a full grid.

use std::ops::RangeInclusive;
use std::sync::Arc;

use roots::bots::BotSpec;
use roots::core::dice::{Die, SeededDice};
use roots::core::draw::seat_letter;
use roots::core::protocol::{GameState, Next, Outcome, Refusal, Seat};
use roots::core::svg::{Key, Seats, Svg, THIN_OUTLINE, foot, legend_width, seat_fill, seat_rows};
use roots::engine::{Access, Engine, GameSession};
use roots::games::{Builtin, Game, RulesHead};
use roots::record::Event;
use roots::referee::{Referee, Sync};
use roots::sim::{Config, Seating};

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Rules {
    name: String,
    description: String,
}

roots::rules_head!(Rules);

roots::variant_file! {
    /// The raw file: no keys beyond the head every game's file shares
    /// (`game`, `extends`, `name`, `description`), written by the macro.
    #[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
    #[schemars(title = "Windy Noughts variant")]
    #[allow(dead_code)] // Read by serde and the schema only.
    pub struct File for "windy-noughts", standard "windy" {}
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

#[derive(Clone, Debug)]
struct State {
    cells: [Option<Seat>; 9],
    mover: Seat,
    rolled: bool,
    winner: Option<Seat>,
}

impl State {
    fn full(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }

    fn over(&self) -> bool {
        self.winner.is_some() || self.full()
    }
}

impl GameState for State {
    type Action = u8;

    fn seats(&self) -> usize {
        2
    }

    fn next(&self) -> Next {
        if self.over() {
            Next::Over
        } else if self.rolled {
            Next::Decide(self.mover)
        } else {
            Next::Chance(Die::D6)
        }
    }

    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if matches!(self.next(), Next::Decide(_)) {
            out.extend((0..9u8).filter(|&c| self.cells[usize::from(c)].is_none()));
        }
    }

    fn play(&mut self, cell: u8) -> Result<(), Refusal> {
        match self.next() {
            Next::Decide(_) if self.cells.get(usize::from(cell)) == Some(&None) => {
                self.play_unchecked(cell);
                Ok(())
            }
            Next::Decide(_) => Err(Refusal::Illegal {
                reason: format!("cell {cell} is taken or off the grid"),
            }),
            Next::Chance(die) => Err(Refusal::ExpectedRoll { die }),
            _ => Err(Refusal::GameOver),
        }
    }

    fn play_unchecked(&mut self, cell: u8) {
        self.cells[usize::from(cell)] = Some(self.mover);
        if LINES
            .iter()
            .any(|l| l.iter().all(|&c| self.cells[c] == Some(self.mover)))
        {
            self.winner = Some(self.mover);
        }
        self.mover = 1 - self.mover;
        self.rolled = false;
    }

    fn roll(&mut self, face: u8) -> Result<(), Refusal> {
        match self.next() {
            Next::Chance(die) if die.has_face(face) => {
                if face == 1 {
                    self.mover = 1 - self.mover;
                } else {
                    self.rolled = true;
                }
                Ok(())
            }
            Next::Chance(die) => Err(Refusal::FaceOutOfRange { die, face }),
            Next::Decide(seat) => Err(Refusal::ExpectedAction { seat }),
            _ => Err(Refusal::GameOver),
        }
    }

    fn random_action(&self, dice: &mut SeededDice) -> u8 {
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        legal[dice.below(legal.len() as u32) as usize]
    }

    fn outcome(&self) -> Option<Outcome> {
        self.over().then(|| Outcome::from_scores(scores(self)))
    }
}

fn scores(state: &State) -> Vec<i32> {
    (0..2).map(|s| i32::from(state.winner == Some(s))).collect()
}

struct Tiny;

const STANDARD: &str = "name = \"windy\"\ndescription = \"\"\n";

impl Game for Tiny {
    const ID: &'static str = "windy-noughts";
    const TITLE: &'static str = "Windy Noughts";
    type Rules = Rules;
    type File = File;
    type State = State;

    fn builtins() -> &'static [Builtin] {
        &[("windy", STANDARD)]
    }

    fn standard() -> Rules {
        toml::from_str(STANDARD).expect("the standard rules parse")
    }

    fn seats(_rules: &Rules) -> RangeInclusive<u8> {
        2..=2
    }

    fn new_state(rules: Arc<Rules>, seats: u8) -> Result<State, String> {
        roots::games::admit_seats(&rules.name, 2..=2, seats)?;
        Ok(State {
            cells: [None; 9],
            mover: 0,
            rolled: false,
            winner: None,
        })
    }

    fn format_action(_state: &State, cell: u8) -> String {
        format!("c{}", cell + 1)
    }

    fn parse_action(state: &State, text: &str) -> Result<u8, String> {
        let n: u8 = text
            .trim()
            .strip_prefix('c')
            .and_then(|d| d.parse().ok())
            .filter(|n| (1..=9).contains(n))
            .ok_or_else(|| format!("expected a cell c1 to c9, found \"{text}\""))?;
        let _ = state;
        Ok(n - 1)
    }

    fn describe_node(state: &State) -> String {
        match state.next() {
            Next::Chance(_) => format!("the wind for seat {}", state.mover + 1),
            Next::Decide(s) => format!("seat {} places a mark", s + 1),
            _ => "over".to_owned(),
        }
    }

    fn turn_seat(state: &State) -> Seat {
        state.mover
    }

    fn scores(state: &State) -> Vec<i32> {
        scores(state)
    }

    /// The grid, marks as discs in the seats' colours; under it what every
    /// game's picture has, from the shared helpers: a legend row a seat,
    /// the node in words and the key to the marks.
    fn svg(state: &State, names: &[String]) -> String {
        let fill = |s: Seat| format!(r#"fill="{}" {THIN_OUTLINE}"#, seat_fill(s));
        let rows = seat_rows(2, names, seat_letter, |s| {
            let marks = state.cells.iter().filter(|&&c| c == Some(s)).count();
            format!("{marks} marks")
        });
        let width = 150f64.max(legend_width(&rows));
        let key = Key::new(width).add(move |svg, at| svg.circle(at, 6.0, &fill(0)), "a mark");
        let mut svg = Svg::new(width, 152.0 + 22.0 * 2.0 + 24.0 + key.height(14.0));
        for (i, cell) in state.cells.iter().enumerate() {
            let at = (15.0 + 40.0 * (i % 3) as f64, 15.0 + 40.0 * (i / 3) as f64);
            svg.rect(
                at.0,
                at.1,
                40.0,
                40.0,
                r##"fill="#f4ecd8" stroke="#555555""##,
            );
            if let Some(s) = cell {
                svg.circle((at.0 + 20.0, at.1 + 20.0), 14.0, &fill(*s));
            }
        }
        let seats = Seats {
            rows: &rows,
            fill: seat_fill,
            outline: THIN_OUTLINE,
        };
        foot(
            &mut svg,
            152.0,
            &seats,
            &Tiny::describe_node(state),
            None,
            &key,
        );
        svg.finish("Windy Noughts")
    }
}

fn rules() -> Arc<Rules> {
    Arc::new(Tiny::standard())
}

#[test]
fn the_minimum_has_its_defaults() {
    let state = Tiny::new_state(rules(), 2).expect("two seats");
    assert_eq!(Tiny::name(&Tiny::standard()), "windy");
    assert_eq!(Tiny::standard().description(), "");
    assert!(Tiny::draw(&state).contains("the wind for seat 1"));
    // Its picture: the legend, the status and the key from the shared
    // helpers, a name-less seat as `?`.
    let picture = Tiny::svg(&state, &["Ann".to_owned()]);
    assert!(picture.starts_with("<svg"), "{picture}");
    assert!(picture.contains("A  Ann: 0 marks"), "{picture}");
    assert!(picture.contains("B  ?: 0 marks"), "{picture}");
    assert!(picture.contains("the wind for seat 1"), "{picture}");
    assert!(picture.contains(">a mark<"), "{picture}");
    let refused = Tiny::new_state(rules(), 3).map(|_| ()).unwrap_err();
    assert_eq!(refused, "variant `windy` is for 2 players, not 3");
    // No clickable picture: the web table offers every move as a button.
    let mut decided = state.clone();
    decided.roll(3).expect("a face of the d6");
    let mut legal = Vec::new();
    decided.legal_actions(&mut legal);
    assert!(!legal.is_empty());
    let points = Tiny::click_points(&decided, &legal);
    assert_eq!(points.len(), legal.len());
    assert!(points.iter().all(Option::is_none));
    assert_eq!(Tiny::END_REASONS.len(), 1);
    assert!(Tiny::counters(&state).is_empty());
    assert!(Tiny::check_invariants(&state).is_ok());
    // The file's head, as every game's: its keys in the schema, unknown
    // keys refused, a `game` key naming another game found.
    let schema = serde_json::to_value(Tiny::file_schema()).expect("a schema");
    for key in ["game", "extends", "name", "description"] {
        assert!(schema["properties"][key].is_object(), "{key}: {schema}");
    }
    let file: File = toml::from_str("game = \"branches\"\nname = \"x\"").expect("a file");
    assert!(file.other_game().is_some());
    let own: File = toml::from_str("game = \"windy-noughts\"").expect("a file");
    assert!(own.other_game().is_none());
    assert!(toml::from_str::<File>("board = 3").is_err());
    assert!(Tiny::bot(BotSpec::Greedy, &SeededDice::for_game(1, 0)).is_none());
}

#[test]
fn the_generic_bots_play_it() {
    for spec in ["random", "greedy", "mcts:50"] {
        let spec = BotSpec::parse(spec).expect("a bot");
        let mut referee = Referee::<Tiny>::new(rules(), 2).expect("a game");
        let mut dice = SeededDice::for_game(7, 0);
        let mut players: Vec<Box<dyn roots::bots::Player<State> + '_>> = (0..2)
            .map(|s| {
                roots::bots::build::<Tiny>(spec, SeededDice::for_seat(7, 0, s))
                    as Box<dyn roots::bots::Player<State>>
            })
            .collect();
        referee.run(&mut dice, &mut players).expect("the game ends");
        assert!(referee.outcome().is_some(), "{spec}");
    }
}

#[test]
fn the_simulator_plays_and_reports_it() {
    let config = Config::<Tiny> {
        rules: rules(),
        players: 2,
        bots: vec![BotSpec::Random],
        seating: Seating::Fixed,
        games: 200,
        seed: 3,
        jobs: 1,
        measures: Default::default(),
    };
    let acc = roots::sim::run(&config, |_| Ok(()), |_| {}).expect("200 games");
    let report = roots::sim::Report::new(&config, &acc);
    let text = report.to_table();
    assert!(
        text.contains("Windy Noughts") || text.contains("windy"),
        "{text}"
    );
    // The same seed, the same games.
    let again = roots::sim::run(&config, |_| Ok(()), |_| {}).expect("200 games");
    assert_eq!(roots::sim::Report::new(&config, &again).to_table(), text);
}

#[test]
fn its_events_make_record_lines_that_replay() {
    let config = Config::<Tiny> {
        rules: rules(),
        players: 2,
        bots: vec![BotSpec::Greedy],
        seating: Seating::Fixed,
        games: 1,
        seed: 11,
        jobs: 1,
        measures: Default::default(),
    };
    let (_, events) = roots::sim::record_game(&config, 0).expect("a game");
    let lines: Vec<String> = events.iter().map(Event::to_line).collect();
    let read: Vec<(usize, Event)> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| (i + 2, Event::parse(l).expect("a line it wrote")))
        .collect();
    assert_eq!(
        read.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(),
        events
    );
    let mut referee = Referee::<Tiny>::new(rules(), 2).expect("a game");
    // The seeded dice of the run agree with every roll of the record.
    let mut dice = SeededDice::for_game(11, 0);
    let mut sync = Sync {
        dice: Some(&mut dice),
        ..Sync::default()
    };
    referee.follow(&read, None, &mut sync).expect("it replays");
    assert_eq!(sync.diverged, None);
    assert!(referee.outcome().is_some());
    let played = roots::sim::play_game(&config, 0).expect("a game");
    assert_eq!(Some(played.scores), referee.outcome().map(|o| o.scores));
}

#[test]
fn the_referee_puts_the_seeded_stream_back_on_undo() {
    let mut referee =
        Referee::<Tiny>::with_stream(rules(), 2, SeededDice::for_game(5, 0)).expect("a game");
    let mut faces = Vec::new();
    while faces.len() < 6 && referee.outcome().is_none() {
        match referee.state().next() {
            Next::Chance(d) => {
                let face = referee.seeded_face().expect("a stream");
                faces.push(face);
                referee.apply_roll(face, Some(d)).expect("a face");
            }
            Next::Decide(s) => {
                let mut legal = Vec::new();
                referee.state().legal_actions(&mut legal);
                referee.apply_action(s, legal[0]).expect("legal");
            }
            _ => break,
        }
    }
    // The stream is the game's: the faces are those of the seed.
    let mut dice = SeededDice::for_game(5, 0);
    let expected: Vec<u8> = faces.iter().map(|_| dice.roll(Die::D6)).collect();
    assert_eq!(faces, expected);
    // Take everything back: the next face is the first one again.
    let n = referee.applied().len();
    referee.take_back(n).expect("all of it");
    assert_eq!(referee.seeded_face(), Some(faces[0]));
}

#[test]
fn the_engine_protocol_serves_it() {
    let session = GameSession::<Tiny>::new(rules(), 2, 9).expect("a session");
    let mut engine = Engine::with_game(Access::CLOSED, session);
    let ask = |engine: &mut Engine, line: &str| -> serde_json::Value {
        serde_json::from_str(&engine.handle_line(line)).expect("an answer line")
    };
    let state = ask(&mut engine, r#"{"cmd":"state"}"#);
    assert_eq!(state["ok"], true, "{state}");
    assert_eq!(state["state"]["game"], "windy-noughts");
    let first = ask(&mut engine, r#"{"cmd":"roll"}"#);
    assert_eq!(first["ok"], true, "{first}");
    let undone = ask(&mut engine, r#"{"cmd":"undo"}"#);
    assert_eq!(undone["ok"], true, "{undone}");
    // The seeded stream came back with the undo: the same face again.
    let again = ask(&mut engine, r#"{"cmd":"roll"}"#);
    assert_eq!(again["rolled"], first["rolled"]);
    let mut steps = 0;
    loop {
        let s = ask(&mut engine, r#"{"cmd":"state"}"#);
        match s["state"]["node"].as_str() {
            Some("chance") => assert_eq!(ask(&mut engine, r#"{"cmd":"roll"}"#)["ok"], true),
            Some("decision") => {
                let played = ask(&mut engine, r#"{"cmd":"bot","bot":"greedy","play":true}"#);
                assert_eq!(played["ok"], true, "{played}");
            }
            _ => break,
        }
        steps += 1;
        assert!(steps < 200, "the game ends");
    }
    let refused = ask(&mut engine, r#"{"cmd":"act","action":"c10"}"#);
    assert_eq!(refused["ok"], false);
    // A record names its game by the registry: refused in words.
    let record = ask(&mut engine, r#"{"cmd":"record"}"#);
    assert_eq!(record["ok"], false, "{record}");
}
