//! The error rates of `roots compare --until-decided`, measured by
//! simulation: the sequential rule of `roots::sim::sequential` (alpha
//! spending over the looks, the verdict rule at each look) applied to
//! two-sided win rates drawn with known true values.
//!
//! `cargo run --release --example sequential_error_rates [REPLICATIONS] [MAX_GAMES] [SEED]`
//! (defaults 2000, 20000 and 0; each line of a seed draws its own stream). Prints, for each true difference, how often
//! the run ended "different", "the same within ±2pt" and undecided, and the
//! mean games per side it used. The figures are in docs/statistics.md.

use roots::core::dice::SeededDice;
use roots::sim::Rate;
use roots::sim::sequential::Plan;
use roots::sim::verdict::{ALPHA, Outcome, RATE_MARGIN, Statistic};

/// Wins in `n` games won each with chance `p`, from the project's seeded
/// stream (a 32-bit draw against `p`: enough for Bernoulli draws).
fn wins(rng: &mut SeededDice, p: f64, n: u64) -> u64 {
    let bar = p * 4_294_967_296.0;
    (0..n).filter(|_| f64::from(rng.next_u32()) < bar).count() as u64
}

/// One sequential run: its outcome and the games per side it used.
fn run(plan: &Plan, pa: f64, pb: f64, rng: &mut SeededDice) -> (Outcome, u64) {
    let (mut wa, mut wb, mut before) = (0, 0, 0);
    for now in plan.looks() {
        wa += wins(rng, pa, now - before);
        wb += wins(rng, pb, now - before);
        let s = Statistic::rates(
            "seat1-wins",
            "seat 1 wins",
            &Rate::new(wa, now),
            &Rate::new(wb, now),
            RATE_MARGIN,
        );
        let v = plan.look(&s, before, now);
        // As `compare --until-decided`: only "different" or "the same"
        // stops a run ("changed" plays on).
        if v.verdict.is_final() {
            return (v.verdict, now);
        }
        before = now;
    }
    (Outcome::Undecided, plan.max_games)
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a whole number"))
        .collect();
    let reps = args.first().copied().unwrap_or(2000);
    let max = args.get(1).copied().unwrap_or(20_000);
    let seed = args.get(2).copied().unwrap_or(0);
    let plan = Plan::new(ALPHA, max);
    println!(
        "seed {seed}: {reps} runs per line; at most {max} games per side, looks every {} games; alpha {ALPHA} each way; margin {:.0}pt",
        plan.batch,
        100.0 * RATE_MARGIN
    );
    println!("true A    true B   diff    different     same   undecided   mean games");
    for (k, (pa, pb)) in [
        (0.50, 0.50),
        (0.45, 0.45),
        (0.50, 0.51),
        (0.50, 0.52),
        (0.50, 0.53),
        (0.50, 0.55),
        (0.50, 0.60),
    ]
    .into_iter()
    .enumerate()
    {
        // Line `k` of a seed draws its own stream.
        let mut rng = SeededDice::new(seed, k as u64);
        let (mut diff, mut same, mut none, mut games) = (0u64, 0u64, 0u64, 0u64);
        for _ in 0..reps {
            let (o, n) = run(&plan, pa, pb, &mut rng);
            games += n;
            match o {
                Outcome::Different => diff += 1,
                Outcome::Same => same += 1,
                Outcome::Changed | Outcome::Undecided => none += 1,
            }
        }
        let pct = |c: u64| 100.0 * c as f64 / reps as f64;
        println!(
            "{:>5.0}%   {:>5.0}%  {:>+4.0}pt   {:>8.1}%  {:>6.1}%   {:>8.1}%   {:>10.0}",
            100.0 * pa,
            100.0 * pb,
            100.0 * (pb - pa),
            pct(diff),
            pct(same),
            pct(none),
            games as f64 / reps as f64
        );
    }
}
