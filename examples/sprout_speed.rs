//! Uniform-random Sprout-R-Out games per second on one thread: the figures
//! of the README's Sprout-R-Out speed table, without criterion.
//!
//! `cargo run --release --example sprout_speed -- [designer|ludii] [GAMES] [BOARD] [diagonal]`
//! (BOARD: limping-3, limping-5, limping-7, hex-6, square-9, cairo-1,
//! cairo-2; default cairo-1). Prints the games, the sub-moves, a checksum of
//! the final scores (equal across builds that play the same games), games
//! per second and nanoseconds per sub-move.

use roots::core::dice::SeededDice;
use roots::core::protocol::play_out_random;
use roots::games::sprout_r_out::{BoardShape, Groups, Rules, State};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let ludii = args.get(1).is_some_and(|s| s == "ludii");
    let n: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let shape = match args.get(3).map_or("cairo-1", String::as_str) {
        "limping-3" => BoardShape::Limping3,
        "limping-5" => BoardShape::Limping5,
        "limping-7" => BoardShape::Limping7,
        "hex-6" => BoardShape::Hex6,
        "square-9" => BoardShape::Square9,
        "cairo-2" => BoardShape::Cairo2,
        "cairo-1" => BoardShape::Cairo1,
        other => {
            eprintln!("unknown board `{other}`");
            std::process::exit(2);
        }
    };
    let groups = if args.get(4).is_some_and(|s| s == "diagonal") {
        Groups::EdgeOrVertex
    } else {
        Groups::Edge
    };
    let base = if ludii {
        Rules::ludii()
    } else {
        Rules::standard()
    };
    let rules = Rules {
        board: shape,
        groups,
        ..base
    };
    let mut subs = 0;
    let mut checksum = 0i64;
    let start = std::time::Instant::now();
    for g in 0..n {
        let mut state = State::new(&rules, 2);
        let mut dice = SeededDice::for_game(7, g);
        subs += play_out_random(&mut state, &mut dice);
        let scores = state.scores();
        checksum += i64::from(scores[0]) * 3 + i64::from(scores[1]);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{n} games {subs} sub-moves checksum {checksum}: {:.0} games/s {:.0} ns/sub-move",
        n as f64 / secs,
        secs * 1e9 / subs as f64
    );
}
