//! `roots play --resume RECORD`: a game taken up where its record stops,
//! every event re-applied and checked first.

use crate::cli::{errln, outln};
use std::cell::RefCell;
use std::io::BufReader;
use std::path::Path;
use std::rc::Rc;

use roots::bots::Player;
use roots::core::dice::SeededDice;
use roots::games::Registered;
use roots::record::{self, DiceMode, PartialTail, RawRecord, ReadError, RecordLock, RecordWriter};
use roots::referee::{Referee, Sync};

use super::build_players;
use super::drive::drive;
use crate::cli::Failure;
use crate::cli::human::Console;
use crate::cli::records::{SeatKind, diverged_warning, parse_seat, record_seats};

/// `cmd_timeout_ms` is `--cmd-timeout`: an external player's time per
/// decision is not in the record, so a resumed game takes it from the
/// command line like a new one.
pub(super) fn resume(path: &Path, cmd_timeout_ms: u32, run_programs: bool) -> Result<(), Failure> {
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
        crate::cli::use_colour(),
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

fn record_error(shown: &str, e: &record::RecordError) -> String {
    match e.line {
        Some(n) => format!("{shown}:{n}: error: {}", e.message),
        None => format!("{shown}: error: {}", e.message),
    }
}
