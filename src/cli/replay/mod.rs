//! `roots replay`: re-apply every event of a record and report the result.

use super::{errln, outln};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use roots::core::protocol::{GameState, Next};
use roots::games::Registered;
use roots::record::{self, PartialTail, RawRecord, ReadError};
use roots::referee::Referee;

use super::Failure;

mod check;
use check::{located, report};

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The records to replay (`.jsonl` files written by `roots play`), one
    /// after the other: `roots replay roots-game-*.jsonl`.
    #[arg(value_name = "RECORD", required = true)]
    records: Vec<PathBuf>,

    /// Stop after event N (0: before the first event), or after turn N
    /// with `turn:N`, and draw the board (one record only).
    #[arg(long, value_name = "N|turn:N", value_parser = parse_until)]
    until: Option<Until>,

    /// List the events, numbered, each in words with its turn (the numbers
    /// `--until` takes).
    #[arg(long, conflicts_with = "format")]
    list: bool,

    /// Write a picture of the position (after `--until`, else at the end)
    /// to FILE as SVG (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Ignore a truncated last line (a game cut off while writing) instead
    /// of failing.
    #[arg(long)]
    lenient: bool,
}

/// Where `--until` stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// After this many events.
    Event(u64),
    /// After the last event of this turn (turns count from 1).
    Turn(u32),
}

fn parse_until(text: &str) -> Result<Until, String> {
    let t = text.trim();
    let turn = t
        .strip_prefix("turn:")
        .or_else(|| t.strip_prefix("turn="))
        .or_else(|| t.strip_prefix("t"));
    match turn {
        Some(n) => n
            .trim()
            .parse()
            .map(Until::Turn)
            .map_err(|_| format!("expected `turn:N` with N a turn number, found `{text}`")),
        None => t
            .parse()
            .map(Until::Event)
            .map_err(|_| format!("expected an event number N or `turn:N`, found `{text}`")),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// Replay every record given: each one's result (a JSON array of them with
/// `--format json` and several records); a record that fails is reported
/// and the others still replayed, the exit code the worst of them.
pub fn run(args: ReplayArgs) -> Result<(), Failure> {
    if args.until.is_some() && args.records.len() > 1 {
        return Err(Failure::usage(format!(
            "--until stops one game: give one record, not {}",
            args.records.len()
        )));
    }
    let several = args.records.len() > 1;
    let mut worst: Option<Failure> = None;
    let mut docs = Vec::new();
    for (i, path) in args.records.iter().enumerate() {
        if several && i > 0 && args.format == Format::Text {
            outln!();
        }
        match replay_one(&args, path) {
            Ok(Some(doc)) => docs.push(doc),
            Ok(None) => {}
            Err(f) if several => {
                // Said now, in its place; the exit code is kept for the end.
                let code = f.code;
                f.report();
                if worst.as_ref().is_none_or(|w| w.code < code) {
                    worst = Some(Failure {
                        code,
                        message: String::new(),
                    });
                }
            }
            Err(f) => return Err(f),
        }
    }
    if args.format == Format::Json {
        let v = if several {
            serde_json::Value::Array(docs)
        } else {
            docs.pop().unwrap_or(serde_json::Value::Null)
        };
        outln!(
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_else(|_| v.to_string())
        );
    }
    worst.map_or(Ok(()), Err)
}

/// Replay one record: its JSON document with `--format json`, else printed.
fn replay_one(
    args: &ReplayArgs,
    path: &std::path::Path,
) -> Result<Option<serde_json::Value>, Failure> {
    let shown = path.display().to_string();
    let tail = if args.lenient {
        PartialTail::Drop
    } else {
        PartialTail::Refuse
    };
    let raw = match record::reader::read_path(path, tail) {
        Ok(raw) => raw,
        Err(ReadError::Io(e)) => return Err(Failure::io(format!("{shown}: error: {e}"))),
        Err(ReadError::Record(e)) => return Err(Failure::invalid(located(&shown, &e))),
    };
    for w in &raw.warnings {
        errln!("{shown}: warning: {w}");
    }
    let total = raw.events.len() as u64;
    if let Some(Until::Event(n)) = args.until
        && n > total
    {
        return Err(Failure::invalid(format!(
            "{shown}: error: --until {n}, but the record has {total} events"
        )));
    }
    roots::with_game_id!(raw.header.game(), G => {
        let until = match args.until {
            Some(Until::Turn(t)) => Some(turn_end::<G>(&shown, &raw, t)?),
            Some(Until::Event(n)) => Some(n),
            None => None,
        };
        if args.list {
            list::<G>(&shown, &raw, until).map(|()| None)
        } else {
            report::<G>(args, until, &shown, &raw, total)
        }
    })
}

/// The number of events up to the end of turn `turn`.
fn turn_end<G: Registered>(shown: &str, raw: &RawRecord, turn: u32) -> Result<u64, Failure> {
    let mut upto = 0u64;
    let mut last = 0u32;
    Referee::<G>::walk(raw, |step, _| {
        last = step.turn;
        if step.turn <= turn {
            upto = step.number;
        }
    })
    .map_err(|e| Failure::invalid(located(shown, &e)))?;
    if turn > last {
        return Err(Failure::invalid(format!(
            "{shown}: error: --until turn:{turn}, but the record has {last} turns"
        )));
    }
    Ok(upto)
}

/// `--list`: every event, numbered, in words.
fn list<G: Registered>(shown: &str, raw: &RawRecord, until: Option<u64>) -> Result<(), Failure> {
    let names = &raw.header.players;
    let mut text = String::new();
    let mut turn = 0;
    let game = Referee::<G>::walk(raw, |step, _| {
        if until.is_some_and(|u| step.number > u) {
            return;
        }
        if step.turn != turn {
            turn = step.turn;
            text.push_str(&step.turn_heading::<G>(names));
            text.push('\n');
        }
        text.push_str(&format!(
            "{:>6}  {}\n",
            step.number,
            step.describe::<G>(names)
        ));
        for note in &step.notes {
            text.push_str(&format!("          {note}\n"));
        }
    })
    .map_err(|e| Failure::invalid(located(shown, &e)))?;
    if until.is_none() {
        match game.state().next() {
            Next::Over => {
                let scores = G::scores(game.state());
                text.push_str(&format!(
                    "game over; scores: {}\n",
                    scores
                        .iter()
                        .enumerate()
                        .map(|(s, v)| format!("{} {v}", G::seat_letter(s as u8)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            _ => text.push_str(&format!("next: {}\n", G::describe_node(game.state()))),
        }
    }
    super::out(&text);
    Ok(())
}
