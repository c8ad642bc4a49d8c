//! A record re-applied event by event and checked: every event legal, the
//! rolls and the bots' decisions what its seed gives (trusted or not), the
//! result reported.
use crate::cli::{errln, outln, outp};

use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next};
use roots::games::Registered;
use roots::record::DiceMode;
use roots::record::{self, RawRecord};
use roots::referee::{Referee, Sync};
use serde_json::json;

use super::{Format, ReplayArgs};
use crate::cli::Failure;

pub(super) fn report<G: Registered>(
    args: &ReplayArgs,
    until: Option<u64>,
    shown: &str,
    raw: &RawRecord,
    total: u64,
) -> Result<Option<serde_json::Value>, Failure> {
    // The same checks as `play --resume`: the seats, the seed, and every
    // roll and bot decision of a seeded record against what its seed gives.
    let seats = crate::cli::records::record_seats(shown, &raw.header)?;
    let mut bots =
        crate::cli::records::record_bots::<G>(&seats, raw.header.seed, raw.header.seed_game);
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
        errln!("{}", crate::cli::records::diverged_warning(shown, line));
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
            crate::cli::out(&picture);
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
            let colour = crate::cli::use_colour();
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
                        None => crate::cli::records::print_result::<G>(state, names, colour),
                    }
                }
            }
        }
    }
    Ok(None)
}

pub(super) fn located(shown: &str, e: &record::RecordError) -> String {
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
    seats: &[crate::cli::records::SeatKind],
    diverged: Option<usize>,
) -> Trust {
    use crate::cli::records::SeatKind;
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
