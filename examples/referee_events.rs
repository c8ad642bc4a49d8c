//! Referee a game from a list of typed events, as they would be called out at
//! a real table: rolls (`roll 7`) and actions (`A: place 8,8`). The referee
//! checks each one against the rules and refuses the wrong ones, saying why;
//! a refused event changes nothing.
//!
//! ```text
//! cargo run --example referee_events
//! ```

use std::sync::Arc;

use roots::games::roots_and_shoots::RootsAndShoots;
use roots::games::roots_and_shoots::Rules;
use roots::record::Event;
use roots::referee::Referee;

const EVENTS: &str = "
# The first turn: each player puts a bead round the centre (9,9).
A: place 8,8
B: place 8,8          # refused: the point is taken
B: place 10,10
# Then each player rolls two d20 for a nutrient.
roll 25               # refused: a d20 has no 25
roll 4
roll 15
A: spawn 3,14
roll 7
roll 7
# A turn: seat A chooses simple growth, rolls the d8, and places.
B: grow buds          # refused: it is A's turn
A: grow simple_growth
roll 2
A: place 0,0          # refused: not next to an end of A's root
A: place 7,7
A: place 6,6           # marks the nutrient that landed there
roll 9                # its value: 9 points
";

fn main() {
    let mut game = match Referee::<RootsAndShoots>::new(Arc::new(Rules::standard()), 2) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    for line in EVENTS.lines() {
        let text = line.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let event = match parse(text) {
            Ok(event) => event,
            Err(e) => {
                println!("{text:<22} unreadable: {e}");
                continue;
            }
        };
        let before = game.state().describe_node();
        match game.apply(&event) {
            Ok(()) => println!("{text:<22} ok      ({before})"),
            Err(e) => println!("{text:<22} REFUSED {e}"),
        }
    }
    println!("\n{}", game.state().draw());
    println!("now: {}", game.state().describe_node());
}

/// `roll N`, or `A: action` with seat letters A, B, ...
fn parse(text: &str) -> Result<Event, String> {
    if let Some(face) = text.strip_prefix("roll ") {
        let face = face
            .trim()
            .parse()
            .map_err(|_| format!("`{face}` is not a face"))?;
        return Ok(Event::Roll { face, die: None });
    }
    let (seat, action) = text
        .split_once(':')
        .ok_or("expected `roll N` or `A: action`")?;
    let letter = seat.trim().chars().next().ok_or("no seat letter")?;
    let seat = (letter.to_ascii_uppercase() as u8)
        .checked_sub(b'A')
        .filter(|s| *s < 8)
        .ok_or(format!("`{letter}` is not a seat letter"))?;
    Ok(Event::Act {
        action: action.trim().to_owned(),
        seat,
    })
}
