use roots::bots::BotSpec;
use roots::sim::{Config, Seating, simulate};
use roots::variant::Rules;
use std::sync::Arc;
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = BotSpec::parse(&args[1]).unwrap();
    let b = BotSpec::parse(&args[2]).unwrap();
    let games: u64 = args[3].parse().unwrap();
    let t = Instant::now();
    let c = Config {
        rules: Arc::new(Rules::standard()),
        players: 2,
        bots: vec![a, b],
        seating: Seating::Rotated,
        games,
        seed: 1,
        jobs: 2,
    };
    let r = simulate(&c).unwrap();
    println!("{}", r.to_table());
    println!("{:?}", t.elapsed());
}
