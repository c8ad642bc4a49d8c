//! `roots replay`: re-apply every event of a record and report the result.

use super::{errln, outln, outp};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next};
use roots::games::Registered;
use roots::record::DiceMode;
use roots::record::{self, PartialTail, RawRecord, ReadError};
use roots::referee::{Referee, Sync};
use serde_json::json;

use super::Failure;

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

fn report<G: Registered>(
    args: &ReplayArgs,
    until: Option<u64>,
    shown: &str,
    raw: &RawRecord,
    total: u64,
) -> Result<Option<serde_json::Value>, Failure> {
    // The same checks as `play --resume`: the seats, the seed, and every
    // roll and bot decision of a seeded record against what its seed gives.
    let seats = super::play::record_seats(shown, &raw.header)?;
    let mut bots = super::play::record_bots::<G>(&seats, raw.header.seed, raw.header.seed_game);
    let mut seeded = match (raw.header.dice, raw.header.seed) {
        (DiceMode::Auto, Some(s)) => Some(SeededDice::for_game(s, raw.header.seed_game)),
        _ => None,
    };
    let mut sync = Sync {
        dice: seeded.as_mut(),
        bots: bots
            .iter_mut()
            .map(|b| {
                b.as_mut()
                    .map(|p| &mut **p as &mut dyn roots::bots::Player<G::State>)
            })
            .collect(),
        diverged: None,
    };
    let replayed = Referee::<G>::replay_synced(raw, until, &mut sync);
    // Said even when a later line is refused: an edit is often the cause.
    let diverged = sync.diverged;
    if let Some(line) = diverged {
        errln!("{}", super::play::diverged_warning(shown, line));
    }
    let game = replayed.map_err(|e| Failure::invalid(located(shown, &e)))?;
    let state = game.state();
    let names = &raw.header.players;
    let outcome = state.outcome();
    let forfeited = game.forfeited();
    let scores: Vec<i32> = G::scores(state);
    let next = match state.next() {
        _ if forfeited.is_some() => None,
        Next::Over => None,
        _ => Some(G::describe_node(state)),
    };
    let trust = trust(&raw.header, &seats, diverged);
    let length = G::COUNTERS.get(G::LENGTH).map_or("length", |s| s.key);
    let length_value = G::counters(state).get(G::LENGTH).copied().unwrap_or(0);
    if let Some(path) = &args.svg {
        let picture = G::svg(state, names);
        if path.as_os_str() == "-" {
            super::out(&picture);
            return Ok(None);
        }
        std::fs::write(path, picture).map_err(|e| {
            Failure::io(format!(
                "{}: error: cannot write the picture: {e}",
                path.display()
            ))
        })?;
    }
    match args.format {
        Format::Json => {
            let mut v = json!({
                "record": shown,
                "game": G::ID,
                "variant": raw.header.variant.name(),
                "players": names,
                "seed": raw.header.seed,
                "dice": raw.header.dice.key(),
                "events": game.events(),
                "events_in_record": total,
                "differs_from_seed_at_line": diverged,
                "checked": trust.checked,
                "unchecked": trust.unchecked,
                "finished": outcome.is_some() || forfeited.is_some(),
                "end_reason": if forfeited.is_some() {
                    Some("forfeit")
                } else {
                    outcome
                        .is_some()
                        .then(|| G::END_REASONS.get(G::end_reason(state)).map(|r| r.key))
                        .flatten()
                },
                "forfeit": forfeited.map(|(s, why)| json!({"seat": u16::from(s) + 1, "reason": why})),
                "scores": scores,
                // Seats count from 1 wherever a person reads them.
                "winners": outcome.as_ref().map(|o| {
                    o.winners.iter().map(|w| u16::from(*w) + 1).collect::<Vec<_>>()
                }),
                "next": next,
                "board": until.map(|_| G::draw(state)),
            });
            v[length] = json!(length_value);
            return Ok(Some(v));
        }
        Format::Text => {
            let colour = super::use_colour();
            outln!(
                "{shown}: variant {}, {} players ({}), {}dice {}",
                raw.header.variant.name(),
                names.len(),
                names.join(", "),
                raw.header
                    .seed
                    .map(|s| format!("seed {s}, "))
                    .unwrap_or_default(),
                raw.header.dice.key()
            );
            outln!("{}", trust.line);
            if until.is_some() {
                outln!("after event {} of {total}:", game.events());
                outp!("{}", G::board_for_people(state, names, colour));
            }
            match &next {
                Some(what) => {
                    if until.is_none() {
                        outln!("{total} events; the game is not finished");
                    }
                    outln!("next: {what}");
                    outln!(
                        "scores so far: {}",
                        scores
                            .iter()
                            .enumerate()
                            .map(|(s, v)| format!("{} {v}", G::seat_tag(s as u8, colour)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                }
                None => {
                    outln!("{} events", game.events());
                    match forfeited {
                        Some((seat, why)) => outln!(
                            "game over: seat {} ({}) forfeited and lost: {why}",
                            u16::from(seat) + 1,
                            names.get(usize::from(seat)).map_or("?", String::as_str)
                        ),
                        None => super::play::print_result::<G>(state, names, colour),
                    }
                }
            }
        }
    }
    Ok(None)
}

fn located(shown: &str, e: &record::RecordError) -> String {
    match e.line {
        Some(n) => format!("{shown}:{n}: error: {}", e.message),
        None => format!("{shown}: error: {}", e.message),
    }
}

/// What a replay could check of a record, and what it could not: the
/// record's hash covers the rules only, so typed rolls and people's (or
/// external programs') decisions could have been edited without a trace.
struct Trust {
    /// The parts checked against the seed (`rolls`, `bot decisions`).
    checked: Vec<&'static str>,
    /// The parts nothing checks, in words.
    unchecked: Vec<String>,
    /// The verdict line of the text report.
    line: String,
}

fn trust(
    header: &roots::record::Header,
    seats: &[super::play::SeatKind],
    diverged: Option<usize>,
) -> Trust {
    use super::play::SeatKind;
    let mut checked = Vec::new();
    let mut unchecked = Vec::new();
    if header.dice == DiceMode::Auto && header.seed.is_some() {
        checked.push("rolls");
    } else {
        unchecked.push("the rolls (typed: dice manual)".to_string());
    }
    let typed: Vec<String> = seats
        .iter()
        .enumerate()
        .filter(|(_, k)| match k {
            SeatKind::Human => true,
            SeatKind::Bot(b) => b.is_external(),
        })
        .map(|(s, _)| (s + 1).to_string())
        .collect();
    if typed.len() < seats.len() {
        checked.push("bot decisions");
    }
    if !typed.is_empty() {
        unchecked.push(format!(
            "the decisions of seat{} {} (a person or an external program)",
            if typed.len() == 1 { "" } else { "s" },
            typed.join(", ")
        ));
    }
    let line = match (diverged, unchecked.is_empty()) {
        (Some(l), _) => format!(
            "verdict: NOT the game its seed gives: it differs from line {l} on (see the warning)"
        ),
        (None, true) => {
            "verdict: every roll and decision is what the seed gives: the record is the game it says".to_string()
        }
        (None, false) => format!(
            "verdict: legal, but {} cannot be checked: the record's hash covers only the rules, so they could have been changed{}",
            unchecked.join(" and "),
            if checked.is_empty() {
                String::new()
            } else {
                format!(" ({} checked against the seed)", checked.join(" and "))
            }
        ),
    };
    Trust {
        checked,
        unchecked,
        line,
    }
}
