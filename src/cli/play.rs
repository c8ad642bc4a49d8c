//! `roots play`: a game at the terminal, the program as referee.

use super::{errln, outln, outp};
use std::cell::RefCell;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use roots::bots::{BotSpec, NoAction, Player};
use roots::core::dice::{Die, SeededDice};
use roots::core::protocol::{GameState, Next, Seat};
use roots::games::Registered;
use roots::record::{
    self, DiceMode, Event, Header, PartialTail, RawRecord, ReadError, RecordLock, RecordWriter,
};
use roots::referee::{ApplyError, DiceSource, ManualChance, Referee, Stop, Sync};

use super::Failure;
use super::human::{Console, Human, SharedConsole};

#[derive(Args, Debug)]
#[command(after_help = super::human::HELP)]
// Written out: clap's usage after an error lists the options given as if
// they were required (`roots play --record <FILE> --players ...`).
#[command(
    override_usage = "roots play [OPTIONS] --players <P1,P2,...> [VARIANT]\n       roots play --resume <RECORD>"
)]
pub struct PlayArgs {
    /// The variant: a built-in name (`standard`), a variant file, or `-`
    /// for standard input (with bots only: people type on standard input).
    #[arg(value_name = "VARIANT", conflicts_with = "resume")]
    variant: Option<String>,

    /// Who plays each seat, in turn order, comma separated: `human` or a
    /// bot (random, greedy, mcts or mcts:ITERATIONS), e.g. `human,greedy`.
    #[arg(
        long,
        value_name = "P1,P2,...",
        value_parser = super::OfferedNames::bots(true),
        hide_possible_values = true,
        value_delimiter = ',',
        required_unless_present = "resume",
        conflicts_with = "resume"
    )]
    players: Vec<String>,

    /// Seed of the dice (auto) and of the bots; random when not given.
    #[arg(long, conflicts_with = "resume")]
    seed: Option<u64>,

    /// `auto`: the program rolls; `manual`: you roll physical dice and type
    /// the faces.
    #[arg(long, value_enum, default_value_t = Dice::Auto, conflicts_with = "resume")]
    dice: Dice,

    /// Where to write the record [default: roots-game-<timestamp>.jsonl].
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    record: Option<PathBuf>,

    #[command(flatten)]
    set: super::SetArgs,

    /// Seconds an external player (`cmd:PROGRAM`) has for each decision;
    /// one that takes longer forfeits.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    cmd_timeout: f64,

    /// Go on with the game of this record (after `quit`, the end of input or
    /// a crash), appending to it.
    #[arg(long, value_name = "RECORD", conflicts_with = "set")]
    resume: Option<PathBuf>,

    /// With --resume: start the external programs (`cmd:...`) the record
    /// names as players. Without it such a record is refused: a record
    /// from someone else could name any command.
    #[arg(long, requires = "resume")]
    run_programs: bool,
}

impl PlayArgs {
    fn cmd_timeout_ms(&self) -> u32 {
        super::args::timeout_ms(self.cmd_timeout)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Dice {
    Auto,
    Manual,
}

/// Who sits in a seat.
pub(super) enum SeatKind {
    Human,
    Bot(BotSpec),
}

fn parse_seat(name: &str) -> Result<SeatKind, String> {
    if name.trim().eq_ignore_ascii_case("human") {
        Ok(SeatKind::Human)
    } else {
        BotSpec::parse(name)
            .map(SeatKind::Bot)
            .map_err(|e| format!("{e}, or human"))
    }
}

pub fn run(args: PlayArgs) -> Result<(), Failure> {
    match args.resume.clone() {
        Some(path) => resume(&path, args.cmd_timeout_ms(), args.run_programs),
        None => start(args),
    }
}

fn start(args: PlayArgs) -> Result<(), Failure> {
    let seats: Vec<SeatKind> = args
        .players
        .iter()
        .map(|p| parse_seat(p))
        .collect::<Result<_, _>>()
        .map_err(|e| Failure::io(format!("error: --players: {e}")))?;
    let names: Vec<String> = args
        .players
        .iter()
        .zip(&seats)
        .map(|(p, seat)| match seat {
            // An external program keeps its case (paths); its timeout too.
            SeatKind::Bot(spec) if spec.is_external() => spec.to_string(),
            _ => p.trim().to_ascii_lowercase(),
        })
        .collect();
    let seats: Vec<SeatKind> = seats
        .into_iter()
        .map(|s| match s {
            SeatKind::Bot(spec) => SeatKind::Bot(spec.with_timeout(args.cmd_timeout_ms())),
            human => human,
        })
        .collect();
    let variant = args.variant.as_deref().unwrap_or("standard");
    if variant == roots::variant::STDIN_ARG
        && (seats.iter().any(|s| matches!(s, SeatKind::Human)) || args.dice == Dice::Manual)
    {
        return Err(Failure::usage(
            "the variant comes from standard input (`-`), so nobody can type moves or dice there: give it as a file",
        ));
    }
    let rules = super::load_variant(variant, &args.set.set)?;
    roots::with_game!(&rules, G, r => start_game::<G>(&args, Arc::clone(r), seats, names))
}

fn start_game<G: Registered>(
    args: &PlayArgs,
    rules: Arc<G::Rules>,
    seats: Vec<SeatKind>,
    names: Vec<String>,
) -> Result<(), Failure> {
    let n = u8::try_from(seats.len()).unwrap_or(u8::MAX);
    let range = G::seats(&rules);
    if !range.contains(&n) {
        let want = G::default_seats(&rules).max(*range.start());
        let mut example: Vec<&str> = names
            .iter()
            .map(String::as_str)
            .take(usize::from(want))
            .collect();
        while example.len() < usize::from(want) {
            example.push("greedy");
        }
        return Err(Failure::usage(format!(
            "variant `{}` is for {}, and --players names {n} seat{}: name one player per seat, e.g. --players {}",
            G::name(&rules),
            roots::core::players_phrase(*range.start(), *range.end()),
            if n == 1 { "" } else { "s" },
            example.join(",")
        )));
    }
    let mut game = Referee::<G>::new(Arc::clone(&rules), n)
        .map_err(|e| Failure::invalid(format!("error: {e}")))?;
    let dice = match args.dice {
        Dice::Auto => DiceMode::Auto,
        Dice::Manual => DiceMode::Manual,
    };
    let has_bots = seats.iter().any(|s| matches!(s, SeatKind::Bot(_)));
    let seed = match (args.seed, dice, has_bots) {
        (Some(s), _, _) => Some(s),
        (None, DiceMode::Manual, false) => None,
        (None, _, _) => Some(random_seed()),
    };
    let (created, stamp) = record::utc_now();
    let header = Header {
        variant: G::wrap(rules),
        seed,
        seed_game: 0,
        dice,
        players: names.clone(),
        created,
    };
    let writer = match &args.record {
        Some(path) => RecordWriter::create(path, &header).map_err(|e| {
            let hint = if e.kind() == std::io::ErrorKind::AlreadyExists {
                format!(
                    "\n  = help: a record is never overwritten: give another --record FILE, or resume this game with `roots play --resume {}`",
                    path.display()
                )
            } else {
                String::new()
            };
            Failure::io(format!(
                "{}: error: cannot create the record: {e}{hint}",
                path.display()
            ))
        })?,
        None => create_default(&header, &stamp)?,
    };
    let path = writer.path().to_path_buf();
    outln!("record: {}", path.display());
    if let Some(s) = seed {
        outln!("seed: {s}");
    }
    game.record_to(writer);
    let console = Rc::new(RefCell::new(Console::<G>::new(
        Box::new(BufReader::new(std::io::stdin())),
        names.clone(),
        super::use_colour(),
    )));
    let mut players = build_players::<G>(&seats, seed, 0, &console);
    let seeded = seed.map(|s| SeededDice::for_game(s, 0));
    drive(&mut game, dice, seeded, &mut players, &console, &path)
}

fn create_default(header: &Header, stamp: &str) -> Result<RecordWriter, Failure> {
    for i in 1..1000 {
        let name = if i == 1 {
            format!("roots-game-{stamp}.jsonl")
        } else {
            format!("roots-game-{stamp}-{i}.jsonl")
        };
        match RecordWriter::create(Path::new(&name), header) {
            Ok(w) => return Ok(w),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(Failure::io(format!(
                    "{name}: error: cannot create the record: {e}"
                )));
            }
        }
    }
    Err(Failure::io(
        "error: cannot find a free record name in the current directory".to_string(),
    ))
}

fn random_seed() -> u64 {
    super::random_seed()
}

fn build_players<'a, G: Registered>(
    seats: &[SeatKind],
    seed: Option<u64>,
    game: u64,
    console: &SharedConsole<G>,
) -> Vec<Box<dyn Player<G::State> + 'a>> {
    seats
        .iter()
        .enumerate()
        .map(|(s, seat)| match seat {
            SeatKind::Human => Box::new(Human::new(console.clone())) as Box<dyn Player<G::State>>,
            SeatKind::Bot(spec) => roots::bots::build::<G>(
                *spec,
                SeededDice::for_seat(seed.unwrap_or(0), game, s as Seat),
            ) as Box<dyn Player<G::State>>,
        })
        .collect()
}

/// `cmd_timeout_ms` is `--cmd-timeout`: an external player's time per
/// decision is not in the record, so a resumed game takes it from the
/// command line like a new one.
fn resume(path: &Path, cmd_timeout_ms: u32, run_programs: bool) -> Result<(), Failure> {
    let shown = path.display().to_string();
    // Locked before it is read: a second `--resume` of the same record is
    // refused and changes nothing.
    let lock = RecordLock::acquire(path)
        .map_err(|e| Failure::io(format!("{shown}: error: cannot resume the record: {e}")))?;
    let raw = match record::reader::read_path(path, PartialTail::Drop) {
        Ok(raw) => raw,
        Err(ReadError::Io(e)) => {
            return Err(Failure::io(format!("{shown}: error: {e}")));
        }
        Err(ReadError::Record(e)) => return Err(Failure::invalid(record_error(&shown, &e))),
    };
    for w in &raw.warnings {
        errln!("{shown}: warning: {w}");
    }
    let programs: Vec<&String> = raw
        .header
        .players
        .iter()
        .filter(|p| matches!(parse_seat(p), Ok(SeatKind::Bot(b)) if b.is_external()))
        .collect();
    if !programs.is_empty() && !run_programs {
        return Err(Failure::usage(format!(
            "{shown}: the record names external programs as players ({}); resuming would run them: check them, then give --run-programs",
            programs
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    roots::with_game_id!(raw.header.game(), G => resume_game::<G>(path, &shown, &raw, lock, cmd_timeout_ms))
}

fn resume_game<G: Registered>(
    path: &Path,
    shown: &str,
    raw: &RawRecord,
    lock: RecordLock,
    cmd_timeout_ms: u32,
) -> Result<(), Failure> {
    let header = &raw.header;
    let seats: Vec<SeatKind> = record_seats(shown, header)?
        .into_iter()
        .map(|seat| match seat {
            SeatKind::Bot(spec) => SeatKind::Bot(spec.with_timeout(cmd_timeout_ms)),
            human => human,
        })
        .collect();
    let names = header.players.clone();
    let console = Rc::new(RefCell::new(Console::<G>::new(
        Box::new(BufReader::new(std::io::stdin())),
        names.clone(),
        super::use_colour(),
    )));
    let mut players = build_players::<G>(&seats, header.seed, header.seed_game, &console);
    let mut seeded = match (header.dice, header.seed) {
        (DiceMode::Auto, Some(s)) => Some(SeededDice::for_game(s, header.seed_game)),
        _ => None,
    };
    let mut game = {
        let mut sync = Sync {
            dice: seeded.as_mut(),
            bots: players
                .iter_mut()
                .zip(&seats)
                .map(|(p, s)| match s {
                    SeatKind::Bot(_) => Some(&mut **p as &mut dyn Player<G::State>),
                    SeatKind::Human => None,
                })
                .collect(),
            diverged: None,
        };
        let game = Referee::<G>::replay_synced(raw, None, &mut sync)
            .map_err(|e| Failure::invalid(record_error(shown, &e)))?;
        if let Some(line) = sync.diverged {
            errln!("{}", diverged_warning(shown, line));
            errln!("{shown}: the game goes on with the seed's dice and bots");
        }
        game
    };
    let writer = RecordWriter::resume_locked(lock, raw.whole_len)
        .map_err(|e| Failure::io(format!("{shown}: error: cannot append to the record: {e}")))?;
    game.record_to(writer);
    outln!(
        "resuming {shown} after {} events ({})",
        game.events(),
        names.join(", ")
    );
    if let Some(s) = header.seed {
        outln!("seed: {s}");
    }
    let dice = header.dice;
    drive(&mut game, dice, seeded, &mut players, &console, path)
}

/// The header checks of a record that `play --resume` and `replay` share,
/// so that both accept exactly the same records: every seat is `human` or a
/// bot, and automatic dice have a seed.
pub(super) fn record_seats(shown: &str, header: &Header) -> Result<Vec<SeatKind>, Failure> {
    let seats: Vec<SeatKind> = header
        .players
        .iter()
        .map(|p| parse_seat(p))
        .collect::<Result<_, _>>()
        .map_err(|e| Failure::invalid(format!("{shown}:1: error: players: {e}")))?;
    if header.dice == DiceMode::Auto && header.seed.is_none() {
        return Err(Failure::invalid(format!(
            "{shown}:1: error: expected a seed for automatic dice, found null"
        )));
    }
    Ok(seats)
}

/// The seeded bots of a record's seats (`None` for a person and for an
/// external program, which `replay` does not run), as `play --resume` builds them: bot `s` on `SeededDice::for_seat(seed, game, s)`
/// (`game` is the header's `seed_game`).
pub(super) fn record_bots<G: Registered>(
    seats: &[SeatKind],
    seed: Option<u64>,
    game: u64,
) -> Vec<Option<Box<dyn Player<G::State>>>> {
    seats
        .iter()
        .enumerate()
        .map(|(s, seat)| match seat {
            SeatKind::Human => None,
            // A program named by a record is never started to check it: a
            // shared record could name any command (`cmd:rm -rf ~`).
            SeatKind::Bot(spec) if spec.is_external() => None,
            SeatKind::Bot(spec) => Some(roots::bots::build::<G>(
                *spec,
                SeededDice::for_seat(seed.unwrap_or(0), game, s as Seat),
            ) as Box<dyn Player<G::State>>),
        })
        .collect()
}

/// What `play --resume` and `replay` say of a seeded record whose rolls or
/// bot decisions are not what its seed gives, from `line` on.
pub(super) fn diverged_warning(shown: &str, line: usize) -> String {
    format!(
        "{shown}:{line}: warning: the record differs from what its seed gives from this line on (a roll or a bot's decision was edited, or the record was not played with this seed)"
    )
}

fn record_error(shown: &str, e: &record::RecordError) -> String {
    match e.line {
        Some(n) => format!("{shown}:{n}: error: {}", e.message),
        None => format!("{shown}: error: {}", e.message),
    }
}

/// How many events an `undo` at the prompt takes back: the last decision
/// of a person, with every bot decision made since (a bot's reply goes with
/// the move it answered), or the last face typed at the table. Never a roll
/// or a card the program drew: taking it back would roll or draw again, so a
/// player could fish for a better one.
fn undo_plan(applied: &[Event], names: &[String], mode: DiceMode) -> Result<usize, String> {
    let human = |seat: Seat| names.get(usize::from(seat)).is_some_and(|n| n == "human");
    let mut bots = 0;
    for (i, event) in applied.iter().enumerate().rev() {
        match event {
            Event::Act { seat, .. } if human(*seat) => return Ok(bots + 1),
            Event::Act { .. } => bots += 1,
            Event::Roll { .. } | Event::Draw { .. } if mode == DiceMode::Auto => {
                return Err(chance_stands(&applied[..i], event, names));
            }
            Event::Roll { .. } | Event::Draw { .. } => return Ok(bots + 1),
            Event::Forfeit { .. } => {
                return Err("a forfeit ended the game there; it stands".to_owned());
            }
            Event::Undo => {}
        }
    }
    Err(if bots == 0 {
        "nothing has been played yet".to_owned()
    } else {
        "only bots have moved so far: there is no move of a person to take back".to_owned()
    })
}

/// Why an undo stops at `chance`, a card or roll the program drew (after
/// the events `before`): whose move drew it, what it showed, why it
/// stands, and, when a bot's reply drew it, that the person's move goes
/// back only with the replies to it.
fn chance_stands(before: &[Event], chance: &Event, names: &[String]) -> String {
    let mut replied = false;
    let mover = before.iter().rev().find_map(|e| match e {
        Event::Act { seat, action } => {
            let name = names.get(usize::from(*seat)).map_or("?", String::as_str);
            Some(if name == "human" {
                format!("the move `{action}` of seat {}", seat + 1)
            } else {
                replied = true;
                format!("the reply `{action}` of seat {} ({name})", seat + 1)
            })
        }
        _ => None,
    });
    let (shown, again) = match chance {
        Event::Draw { card } => (
            format!("turned over a card the program drew: {card}"),
            "a card once seen stays seen: taking it back would let another move turn over another card in its place",
        ),
        Event::Roll { face, die } => (
            match die {
                Some(d) => format!("rolled the program's {d}: {face}"),
                None => format!("rolled the program's dice: {face}"),
            },
            "taking the roll back would roll again, so a player could roll until a better face came",
        ),
        _ => (String::new(), ""),
    };
    let mut why = match mover {
        Some(m) => format!("{m} {shown}; {again}, so it stands"),
        None => format!("the program {shown}; {again}, so it stands"),
    };
    if replied {
        why.push_str(
            ". A person's move goes back only together with the bots' replies to it, so the move before it stands too",
        );
    }
    why.push_str(
        ". Undo takes back moves that turned over no card and rolled no die, and faces typed at the table (--dice manual)",
    );
    why
}

/// The game loop at the terminal.
fn drive<G: Registered>(
    game: &mut Referee<G>,
    mode: DiceMode,
    seeded: Option<SeededDice>,
    players: &mut [Box<dyn Player<G::State> + '_>],
    console: &SharedConsole<G>,
    path: &Path,
) -> Result<(), Failure> {
    let (names, colour) = {
        let c = console.borrow();
        (c.names.clone(), c.colour)
    };
    let any_human = names.iter().any(|n| n == "human");
    if let Some((_, why)) = game.forfeited() {
        // A resumed record whose game ended by a forfeit.
        return Err(forfeit::<G>(game.state(), &names, why, path));
    }
    let mut typed = {
        let console = console.clone();
        let cards = console.clone();
        ManualChance(
            move |state: &G::State, die: Die| console.borrow_mut().typed_face(state, die),
            move |state: &G::State, weights: &[u32]| cards.borrow_mut().typed_card(state, weights),
        )
    };
    let mut auto = seeded;
    let mut drawn_at: Option<u64> = None;
    let mut turn_seat_was: Option<Seat> = None;
    let mut turn_started = 0u64;
    loop {
        let state = game.state();
        let next = state.next();
        // The board once per turn, at a person's first decision of it (and
        // after an undo); `board` draws it whenever asked.
        let turn_seat = G::turn_seat(state);
        if turn_seat_was != Some(turn_seat) {
            turn_seat_was = Some(turn_seat);
            turn_started = game.events();
        }
        if any_human
            && matches!(next, Next::Decide(s) if names.get(usize::from(s)).is_some_and(|n| n == "human"))
            && drawn_at.is_none_or(|d| d < turn_started)
        {
            outp!("{}", G::board_for_people(state, &names, colour));
            drawn_at = Some(game.events());
        }
        let before = G::describe_node(state);
        let state_before = any_human.then(|| state.clone());
        let dice: &mut dyn DiceSource<G::State> = match (mode, auto.as_mut()) {
            (DiceMode::Auto, Some(d)) => d,
            _ => &mut typed,
        };
        match game.step(dice, players) {
            Ok(None) => break,
            Ok(Some(event)) => {
                if let Some(was) = &state_before {
                    outln!("  {}", narrate::<G>(&event, next, &before, &names, colour));
                    let roll = match event {
                        Event::Roll { face, .. } => Some(face),
                        _ => None,
                    };
                    for line in G::narrate(was, roll, game.state()) {
                        outln!("  {line}");
                    }
                    let after: Vec<i32> = G::scores(game.state());
                    if after != G::scores(was) {
                        outln!(
                            "  {}: {}",
                            G::SCORES_CHANGED,
                            scores_line::<G>(&after, colour)
                        );
                    }
                }
            }
            Err(Stop::NoAction(NoAction::Undo)) => {
                console.borrow_mut().forget_pending();
                match undo_plan(game.applied(), &names, mode) {
                    Err(why) => outln!("cannot undo: {why}"),
                    Ok(n) => {
                        for _ in 0..n {
                            match game.undo() {
                                Ok(e) => {
                                    outln!("  undone: {} (recorded as an undo)", e.describe());
                                    drawn_at = None;
                                }
                                Err(ApplyError::Io(e)) => {
                                    return Err(Failure::io(format!(
                                        "{}: error: cannot write the record: {e}",
                                        path.display()
                                    )));
                                }
                                Err(e) => {
                                    outln!("cannot undo: {e}");
                                    break;
                                }
                            }
                        }
                    }
                }
            }
            Err(Stop::NoAction(why)) => {
                let how = match why {
                    NoAction::Quit | NoAction::Undo => "game stopped",
                    NoAction::EndOfInput => "end of input: game stopped",
                    NoAction::Forfeit(why) => {
                        // Written to the record: a replay or resume sees
                        // the game over, not a game to play again.
                        let seat = match game.state().next() {
                            Next::Decide(s) => s,
                            _ => G::turn_seat(game.state()),
                        };
                        if let Err(ApplyError::Io(e)) = game.forfeit(seat, &why) {
                            return Err(Failure::io(format!(
                                "{}: error: cannot write the record: {e}",
                                path.display()
                            )));
                        }
                        return Err(forfeit::<G>(game.state(), &names, &why, path));
                    }
                };
                outln!(
                    "{how} after {} events; the record is saved in {}",
                    game.events(),
                    path.display()
                );
                outln!("resume with: roots play --resume {}", path.display());
                return Ok(());
            }
            Err(Stop::Io(e)) => {
                return Err(Failure::io(format!(
                    "{}: error: cannot write the record: {e}",
                    path.display()
                )));
            }
            Err(e) => return Err(Failure::invalid(format!("error: {e}"))),
        }
    }
    let state = game.state();
    outp!("{}", G::board_for_people(state, &names, colour));
    print_result::<G>(state, &names, colour);
    outln!("record: {}", path.display());
    Ok(())
}

/// An external player forfeited: it loses, the game stops there (the
/// record holds every event up to it), and the run says so (exit 1).
fn forfeit<G: Registered>(state: &G::State, names: &[String], why: &str, path: &Path) -> Failure {
    let seat = match state.next() {
        Next::Decide(s) => s,
        _ => G::turn_seat(state),
    };
    let name = names
        .get(usize::from(seat))
        .map(String::as_str)
        .unwrap_or("?");
    let scores = G::scores(state);
    let others: Vec<String> = (0..scores.len())
        .filter(|&s| s != usize::from(seat))
        .map(|s| {
            format!(
                "seat {} ({})",
                s + 1,
                names.get(s).map(String::as_str).unwrap_or("?")
            )
        })
        .collect();
    Failure::invalid(format!(
        "seat {} ({name}) forfeits and loses: {why}\n{} {} the game by forfeit; the record up to the forfeit is in {}",
        seat + 1,
        others.join(", "),
        if others.len() == 1 {
            "wins"
        } else {
            "go on to rank by score:"
        },
        path.display()
    ))
}

fn narrate<G: Registered>(
    event: &Event,
    next: Next,
    before: &str,
    names: &[String],
    colour: bool,
) -> String {
    match (event, next) {
        (Event::Roll { face, .. }, Next::Chance(die)) => {
            format!("{before}: the {die} shows {face}")
        }
        (Event::Draw { card }, _) => format!("{before}: the card is {card}"),
        (Event::Act { action, seat }, _) => format!(
            "{} ({}): {action}",
            G::seat_tag(*seat, colour),
            names
                .get(usize::from(*seat))
                .map(String::as_str)
                .unwrap_or("?")
        ),
        (e, _) => e.describe(),
    }
}

fn scores_line<G: Registered>(scores: &[i32], colour: bool) -> String {
    scores
        .iter()
        .enumerate()
        .map(|(s, v)| format!("{} {v}", G::seat_tag(s as Seat, colour)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Final scores and winners.
pub fn print_result<G: Registered>(state: &G::State, names: &[String], colour: bool) {
    let Some(outcome) = state.outcome() else {
        return;
    };
    let reason = G::END_REASONS
        .get(G::end_reason(state))
        .map_or("?", |r| r.label);
    let length = G::COUNTERS.get(G::LENGTH);
    let count = G::counters(state).get(G::LENGTH).copied().unwrap_or(0);
    match length {
        Some(l) => outln!("game over ({reason}) after {count} {}", l.label),
        None => outln!("game over ({reason})"),
    }
    outln!("scores: {}", scores_line::<G>(&outcome.scores, colour));
    let winners: Vec<String> = outcome
        .winners
        .iter()
        .map(|&s| {
            format!(
                "{} (seat {}, {})",
                G::seat_tag(s, colour),
                s + 1,
                names.get(usize::from(s)).map(String::as_str).unwrap_or("?")
            )
        })
        .collect();
    let label = if winners.len() > 1 {
        "winners (tie)"
    } else {
        "winner"
    };
    outln!("{label}: {}", winners.join(", "));
}
