//! What `play` and `replay` share of a game record: the seats it names and
//! their seeded bots, the warning for a record that leaves its seed, the
//! final scores and winners.

use super::outln;

use roots::bots::{BotSpec, Player};
use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Seat};
use roots::games::Registered;
use roots::record::{DiceMode, Header};

use super::Failure;

/// Who sits in a seat.
pub(super) enum SeatKind {
    Human,
    Bot(BotSpec),
}

pub(super) fn parse_seat(name: &str) -> Result<SeatKind, String> {
    if name.trim().eq_ignore_ascii_case("human") {
        Ok(SeatKind::Human)
    } else {
        BotSpec::parse(name)
            .map(SeatKind::Bot)
            .map_err(|e| format!("{e}, or human"))
    }
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

pub(super) fn scores_line<G: Registered>(scores: &[i32], colour: bool) -> String {
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
