//! `roots play`: a game at the terminal, the program as referee: the
//! arguments and a new game here, a game resumed from its record in
//! `resume.rs`, the referee's loop in `drive.rs`.

use super::outln;
use std::cell::RefCell;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use roots::bots::Player;
use roots::core::dice::SeededDice;
use roots::core::protocol::Seat;
use roots::games::Registered;
use roots::record::{self, DiceMode, Header, RecordWriter};
use roots::referee::Referee;

use super::Failure;
use super::human::{Console, Human, SharedConsole};
use super::records::{SeatKind, parse_seat};

mod drive;
use drive::drive;
use resume::resume;
mod resume;

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
