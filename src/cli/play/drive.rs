//! The referee's loop of `roots play`: rolls and draws, the seats'
//! decisions, `undo` at the prompt, every event recorded and narrated,
//! until the game ends, a player forfeits or the human quits.

use crate::cli::{outln, outp};
use std::path::Path;

use roots::bots::{NoAction, Player};
use roots::core::dice::{Die, SeededDice};
use roots::core::protocol::{GameState, Next, Seat};
use roots::games::Registered;
use roots::record::{DiceMode, Event};
use roots::referee::{ApplyError, DiceSource, ManualChance, Referee, Stop};

use crate::cli::Failure;
use crate::cli::human::SharedConsole;
use crate::cli::records::{print_result, scores_line};

/// How many events an `undo` at the prompt takes back: the last decision
/// of a person, with every bot decision made since (a bot's reply goes with
/// the move it answered), or the last face typed at the table. Never a roll
/// or a card the program drew: taking it back would roll or draw again, so a
/// player could fish for a better one.
fn undo_plan<G: Registered>(
    applied: &[Event],
    names: &[String],
    mode: DiceMode,
) -> Result<usize, String> {
    let human = |seat: Seat| names.get(usize::from(seat)).is_some_and(|n| n == "human");
    let mut bots = 0;
    for (i, event) in applied.iter().enumerate().rev() {
        match event {
            Event::Act { seat, .. } if human(*seat) => return Ok(bots + 1),
            Event::Act { .. } => bots += 1,
            Event::Roll { .. } | Event::Draw { .. } if mode == DiceMode::Auto => {
                return Err(chance_stands::<G>(&applied[..i], event, names));
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
fn chance_stands<G: Registered>(before: &[Event], chance: &Event, names: &[String]) -> String {
    let mut replied = false;
    let mover = before.iter().rev().find_map(|e| match e {
        Event::Act { seat, action } => {
            let name = names.get(usize::from(*seat)).map_or("?", String::as_str);
            Some(if name == "human" {
                format!("the move `{action}` of {}", G::seat_letter(*seat))
            } else {
                replied = true;
                format!("the reply `{action}` of {} ({name})", G::seat_letter(*seat))
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

/// An event taken back, in the game's words: the seat by its letter, with
/// who plays it (`the decision "E6" of O (greedy)`).
fn undone<G: Registered>(event: &Event, names: &[String]) -> String {
    match event {
        Event::Act { seat, action } => format!(
            "the decision \"{action}\" of {} ({})",
            G::seat_letter(*seat),
            names.get(usize::from(*seat)).map_or("?", String::as_str)
        ),
        other => other.describe(),
    }
}

/// The game loop at the terminal.
pub(super) fn drive<G: Registered>(
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
                match undo_plan::<G>(game.applied(), &names, mode) {
                    Err(why) => outln!("cannot undo: {why}"),
                    Ok(n) => {
                        for _ in 0..n {
                            match game.undo() {
                                Ok(e) => {
                                    outln!(
                                        "  undone: {} (recorded as an undo)",
                                        undone::<G>(&e, &names)
                                    );
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
