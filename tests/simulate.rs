//! The simulator and the bots: reproducibility across threads, legal actions,
//! determinism.

use std::sync::Arc;

use proptest::prelude::*;
use roots::bots::{BotSpec, Player};
use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next};
use roots::games::Game;
use roots::games::roots_and_shoots::RootsAndShoots;
use roots::games::roots_and_shoots::Rules;
use roots::games::roots_and_shoots::State;
use roots::sim::{self, Config, GameResult, Seating};

fn config(bots: &[BotSpec], games: u64, jobs: usize, seating: Seating) -> Config<RootsAndShoots> {
    Config {
        rules: Arc::new(Rules::standard()),
        players: bots.len().max(2) as u8,
        bots: bots.to_vec(),
        seating,
        games,
        seed: 20_261_122,
        jobs,
        measures: Default::default(),
    }
}

fn rows(c: &Config<RootsAndShoots>) -> (Vec<GameResult>, sim::Accumulator) {
    let mut rows = Vec::new();
    let acc = sim::run(
        c,
        |r| {
            rows.push(r.clone());
            Ok(())
        },
        |_| {},
    )
    .expect("runs");
    (rows, acc)
}

#[test]
fn one_thread_and_two_threads_give_identical_results() {
    // More than one block, so the hand-over between blocks is covered.
    let one = config(
        &[BotSpec::Random, BotSpec::Random],
        sim::BLOCK + 37,
        1,
        Seating::Fixed,
    );
    let two = Config {
        jobs: 2,
        ..one.clone()
    };
    let (rows1, acc1) = rows(&one);
    let (rows2, acc2) = rows(&two);
    assert_eq!(rows1, rows2);
    assert_eq!(acc1, acc2);
    assert_eq!(sim::Report::new(&one, &acc1), sim::Report::new(&two, &acc2));
    // Rows come in game order.
    assert!(rows1.iter().enumerate().all(|(i, r)| r.game == i as u64));
}

#[test]
fn greedy_games_are_identical_across_threads() {
    let one = config(&[BotSpec::Greedy, BotSpec::Random], 12, 1, Seating::Rotated);
    let two = Config {
        jobs: 2,
        ..one.clone()
    };
    assert_eq!(rows(&one).0, rows(&two).0);
}

#[test]
fn accumulators_add_up() {
    let c = config(
        &[BotSpec::Random, BotSpec::Random, BotSpec::Random],
        60,
        2,
        Seating::Fixed,
    );
    let (rows, acc) = rows(&c);
    assert_eq!(acc.games, 60);
    assert_eq!(acc.seat_wins.iter().sum::<u64>() + acc.ties, 60);
    assert_eq!(acc.ends.iter().sum::<u64>(), 60);
    let turns = |r: &GameResult| r.counter("turns").expect("turns are counted");
    let mean_turns = rows.iter().map(|r| f64::from(turns(r))).sum::<f64>() / 60.0;
    assert!((acc.counters[1].mean() - mean_turns).abs() < 1e-9);
    for r in &rows {
        let best = *r.scores.iter().max().expect("scores");
        assert!(r.top.iter().all(|&s| r.scores[usize::from(s)] == best));
        assert_eq!(r.winner.is_some(), r.top.len() == 1);
    }
}

#[test]
fn rotation_gives_every_bot_every_seat() {
    let c = config(&[BotSpec::Greedy, BotSpec::Random], 4, 1, Seating::Rotated);
    assert_eq!(c.seat_bots(0), vec![BotSpec::Greedy, BotSpec::Random]);
    assert_eq!(c.seat_bots(1), vec![BotSpec::Random, BotSpec::Greedy]);
    let report = sim::simulate(&c).expect("runs");
    let played: Vec<u64> = report.per_bot.iter().map(|b| b.seats_played).collect();
    assert_eq!(played, vec![4, 4]);
}

#[test]
fn bad_settings_are_refused_with_a_reason() {
    let mut c = config(&[BotSpec::Random], 0, 1, Seating::Fixed);
    c.players = 2;
    assert!(
        sim::simulate(&c)
            .unwrap_err()
            .to_string()
            .contains("at least 1")
    );
    c.games = 5;
    c.players = 7;
    assert!(
        sim::simulate(&c)
            .unwrap_err()
            .to_string()
            .contains("2 to 6 players")
    );
    c.players = 3;
    c.bots = vec![BotSpec::Random, BotSpec::Greedy];
    assert!(
        sim::simulate(&c)
            .unwrap_err()
            .to_string()
            .contains("2 bots given for 3 players")
    );
}

#[test]
fn bot_names_parse_and_print() {
    for text in ["random", "greedy", "mcts", "mcts:2000", " MCTS:7 "] {
        let b = BotSpec::parse(text).expect(text);
        assert_eq!(BotSpec::parse(&b.to_string()), Ok(b));
    }
    // `mcts` is the game's own search; a number always means Monte Carlo
    // tree search, the default number included.
    assert_eq!(BotSpec::parse("mcts"), Ok(BotSpec::Search));
    let explicit = format!("mcts:{}", roots::bots::DEFAULT_ITERATIONS);
    assert_eq!(
        BotSpec::parse(&explicit),
        Ok(BotSpec::Mcts {
            iterations: roots::bots::DEFAULT_ITERATIONS
        })
    );
    assert_eq!(
        BotSpec::parse(&explicit).map(|b| b.to_string()),
        Ok(explicit)
    );
    for bad in [
        "", "minimax", "mcts:", "mcts:0", "mcts:x", "greedy:3", "mcts:-1",
    ] {
        assert!(BotSpec::parse(bad).is_err(), "{bad}");
    }
}

/// Play `steps` random moves of a seeded game; the position reached.
fn random_position(seed: u64, steps: u32) -> State {
    let mut state = State::new(Arc::new(Rules::standard()), 2).expect("2 players");
    let mut dice = SeededDice::for_game(seed, 0);
    for _ in 0..steps {
        match state.next() {
            Next::Chance(d) => state.roll(dice.roll(d)).expect("face"),
            Next::Draw => panic!("Roots and Shoots drew a card"),
            Next::Decide(_) => {
                let a = state.random_action(&mut dice);
                state.play(a).expect("sampler is legal");
            }
            Next::Over => break,
        }
    }
    state
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn bots_always_choose_legal_actions(seed in any::<u64>(), steps in 0u32..600) {
        let state = random_position(seed, steps);
        if let Next::Decide(seat) = state.next() {
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            for spec in [BotSpec::Random, BotSpec::Greedy, BotSpec::Mcts { iterations: 20 }] {
                let mut bot = roots::bots::build::<RootsAndShoots>(spec, SeededDice::for_seat(seed, 0, seat));
                let a = bot.choose(&state).expect("bots never quit");
                prop_assert!(legal.contains(&a), "{spec} chose {a:?} at\n{}", state.draw());
                prop_assert!(state.clone().play(a).is_ok());
            }
        }
    }
}

/// In Branches & Twigs & Thorns `mcts` seats the game's look-ahead and
/// `mcts:200` the generic tree search: they are different bots, so they
/// part ways somewhere in a few dozen positions (they were one and the
/// same spec once, when `mcts` parsed as `mcts:200`).
#[test]
fn mcts_with_the_default_number_is_not_the_games_own_search() {
    use roots::games::branches::{Branches, Rules as BttRules, State as BttState};
    let explicit =
        BotSpec::parse(&format!("mcts:{}", roots::bots::DEFAULT_ITERATIONS)).expect("parses");
    let mut differ = 0;
    for seed in 0..12u64 {
        let mut state = BttState::new(&BttRules::standard(), 2);
        let mut dice = SeededDice::for_game(seed, 0);
        for _ in 0..(seed * 3) {
            match state.next() {
                Next::Decide(_) => {
                    let a = state.random_action(&mut dice);
                    state.play(a).expect("sampler is legal");
                }
                _ => break,
            }
        }
        let Next::Decide(seat) = state.next() else {
            continue;
        };
        let choose = |spec| {
            roots::bots::build::<Branches>(spec, SeededDice::for_seat(seed, 0, seat))
                .choose(&state)
                .expect("acts")
        };
        if choose(BotSpec::Search) != choose(explicit) {
            differ += 1;
        }
    }
    assert!(
        differ > 0,
        "`mcts` and `mcts:200` chose alike in 12 positions"
    );
}

#[test]
fn mcts_is_deterministic_for_a_seed() {
    for (seed, steps) in [(1, 40), (2, 120), (3, 300)] {
        let state = random_position(seed, steps);
        if !matches!(state.next(), Next::Decide(_)) {
            continue;
        }
        let choose = || {
            let mut bot = roots::games::roots_and_shoots::bots::MctsBot::new(
                SeededDice::for_seat(9, 0, 0),
                60,
            );
            (0..3)
                .map(|_| bot.choose(&state).expect("acts"))
                .collect::<Vec<_>>()
        };
        assert_eq!(choose(), choose());
    }
}

#[test]
fn a_whole_mcts_game_replays_exactly() {
    let c = config(
        &[BotSpec::Mcts { iterations: 10 }, BotSpec::Greedy],
        1,
        1,
        Seating::Fixed,
    );
    assert_eq!(
        sim::play_game(&c, 0).expect("plays"),
        sim::play_game(&c, 0).expect("plays")
    );
}

/// The rule events a game reports are the counts its own records of play
/// keep: Roots and Shoots' events against its statistics, over seeded
/// greedy games.
#[test]
fn rule_events_agree_with_the_games_counts() {
    let cfg = config(&[BotSpec::Greedy], 30, 1, Seating::Fixed);
    let (rows, _) = rows(&cfg);
    for r in rows {
        let ev = |k: &str| {
            let i = RootsAndShoots::RULE_EVENTS
                .iter()
                .position(|e| e.key == k)
                .expect(k);
            r.measures.events[i]
        };
        assert_eq!(ev("rain"), r.counter("rains").unwrap());
        assert_eq!(ev("struggle"), r.counter("struggles").unwrap());
        assert_eq!(ev("struggle_won"), r.counter("severings").unwrap());
        assert_eq!(ev("struggle") - ev("struggle_won"), ev("struggle_lost"));
        // A bead pile that empties ends the game (standard: `supply_empty`).
        if r.end_reason_key() == "beads_out" {
            assert!(ev("pile_emptied") > 0, "game {}", r.game);
        }
    }
}

/// The design measures are judged in a family of their own: the report's
/// own statistics get the same verdicts as with no measures at all, and
/// Holm's correction of the measures spans the measures alone.
#[test]
fn compare_judges_the_measures_in_a_family_of_their_own() {
    use roots::sim::verdict::{self, ALPHA, Margins};
    let a = config(&[BotSpec::Greedy], 60, 1, Seating::Fixed);
    let b = Config {
        seed: a.seed + 1,
        ..a.clone()
    };
    let (ra, rb) = (
        sim::Report::new(&a, &rows(&a).1),
        sim::Report::new(&b, &rows(&b).1),
    );
    let margins = Margins::default();
    let primary: Vec<_> = sim::primary_statistics(&ra, &rb, &margins)
        .into_iter()
        .map(|s| s.2)
        .collect();
    let c = sim::compare_with(ra, rb, &margins);
    let (p, m): (Vec<_>, Vec<_>) = c
        .differences
        .iter()
        .partition(|d| d.family == sim::Family::Primary);
    assert_eq!(p.len(), primary.len());
    assert!(m.len() > 10, "{} measures", m.len());
    // The primary verdicts are those of the primary list alone.
    for (d, alone) in p.iter().zip(verdict::decide(&primary, ALPHA)) {
        assert_eq!(d.verdict, alone);
    }
    // The families come in order: the primary statistics, then the measures.
    assert!(
        c.differences[..p.len()]
            .iter()
            .all(|d| d.family == sim::Family::Primary)
    );
    // Holm within the measures: the smallest raw p is multiplied by the
    // number of measures, not of all the statistics.
    let smallest = m
        .iter()
        .map(|d| d.verdict.p_value)
        .fold(f64::INFINITY, f64::min);
    let adjusted = m
        .iter()
        .find(|d| d.verdict.p_value == smallest)
        .unwrap()
        .verdict
        .p_adjusted;
    assert!(
        (adjusted - (smallest * m.len() as f64).min(1.0)).abs() < 1e-12,
        "{adjusted} {smallest} {}",
        m.len()
    );
    let table = c.to_table();
    assert!(
        table.contains(&format!(
            "Design measures (a family of their own: Holm across these {})",
            m.len()
        )),
        "{table}"
    );
}

/// Deliver 5 of issue #31: every game's rule-event counts, as the simulator
/// reports them, against a recount from the game's record. Each game is
/// played by the simulator, written as the record `simulate --record-game`
/// writes, read back from the file and replayed event by event through the
/// referee; each rule event is then recounted from the record's events and
/// the positions the replay passes through (what is on the board, whose
/// turn it is, the scores, the words of the node), never from the counts
/// the game keeps for itself.
mod rule_events_from_records {
    use std::sync::Arc;

    use roots::bots::BotSpec;
    use roots::games::{Game, Registered};
    use roots::record::reader::read_path;
    use roots::record::{DiceMode, Event, Header, PartialTail, RecordWriter};
    use roots::referee::Referee;
    use roots::sim::{self, Config, Seating};

    /// A recount: from the record's events and the states of its replay
    /// (`states[i]` before event `i`, `states[i + 1]` after it), each rule
    /// event's count in [`Game::RULE_EVENTS`] order.
    type Recount<G> = fn(&[Event], &[<G as Game>::State]) -> Vec<u32>;

    /// A run: a built-in variant, its games and seed, and the bot in every
    /// seat (the game's default bot when `None`).
    type Run = (&'static str, u64, u64, Option<BotSpec>);

    /// A built-in variant's rules and its number of players.
    fn rules_of<G: Registered>(variant: &str) -> (Arc<G::Rules>, u8) {
        let loaded = roots::variant::resolve::load(variant)
            .unwrap_or_else(|_| panic!("built-in {variant} loads"));
        let rules = G::unwrap(&loaded.rules).expect("the variant is of this game");
        (Arc::clone(rules), loaded.rules.default_seats())
    }

    /// Per game: (the simulator's counts, the recount from the record).
    fn counts_of<G: Registered>(
        &(variant, games, seed, bot): &Run,
        recount: Recount<G>,
    ) -> Vec<(Vec<u32>, Vec<u32>)> {
        let (rules, players) = rules_of::<G>(variant);
        let cfg = Config::<G> {
            rules: Arc::clone(&rules),
            players,
            bots: vec![bot.unwrap_or(G::DEFAULT_BOT)],
            seating: Seating::Fixed,
            games,
            seed,
            jobs: 1,
            measures: Default::default(),
        };
        let mut rows = Vec::new();
        let acc = sim::run(
            &cfg,
            |r| {
                rows.push(r.clone());
                Ok(())
            },
            |_| {},
        )
        .expect("runs");
        let dir = std::env::temp_dir().join(format!(
            "roots-events-{}-{variant}-{seed}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut out = Vec::new();
        for row in &rows {
            // The record, as `roots simulate --record-game N` writes it.
            let (names, events) = sim::record_game(&cfg, row.game).expect("records");
            let path = dir.join(format!("game-{}.jsonl", row.game));
            let header = Header {
                variant: G::wrap(Arc::clone(&rules)),
                seed: Some(seed),
                seed_game: row.game,
                dice: DiceMode::Auto,
                players: names,
                created: "2026-11-26T00:00:00Z".into(),
            };
            let mut w = RecordWriter::create(&path, &header).unwrap();
            for e in &events {
                w.write_event(e).unwrap();
            }
            drop(w);
            // Read back from the file and replayed by the engine.
            let raw = read_path(&path, PartialTail::Refuse).expect("the record reads");
            let mut referee =
                Referee::<G>::new(raw.header.rules::<G>().unwrap(), players).expect("a game");
            let mut states = vec![referee.state().clone()];
            let mut read = Vec::new();
            for (line, e) in &raw.events {
                referee.apply(e).unwrap_or_else(|err| {
                    panic!("{variant} game {}: line {line}: {err}", row.game)
                });
                states.push(referee.state().clone());
                read.push(e.clone());
            }
            assert!(
                referee.outcome().is_some(),
                "{variant} game {}: the record ends the game",
                row.game
            );
            assert_eq!(
                G::scores(referee.state()),
                row.scores,
                "{variant} game {}: the record replays to the simulator's game",
                row.game
            );
            out.push((row.measures.events.clone(), recount(&read, &states)));
        }
        let _ = std::fs::remove_dir_all(&dir);
        // The run's report: each event's count per game and the games where
        // it happened are the sums of the games'.
        let report = sim::Report::new(&cfg, &acc);
        for (i, line) in report.design.rule_events.iter().enumerate() {
            let total: u32 = out.iter().map(|(s, _)| s[i]).sum();
            let with: u64 = out.iter().filter(|(s, _)| s[i] > 0).count() as u64;
            assert!(
                (line.per_game * games as f64 - f64::from(total)).abs() < 1e-6,
                "{variant}: `{}` per game {} in the report, {total} in its {games} games",
                line.key,
                line.per_game
            );
            assert_eq!(line.games.count, with, "{variant}: `{}` games", line.key);
        }
        out
    }

    /// The games whose counts disagree, in words (empty: all agree).
    fn disagreements<G: Game>(variant: &str, counts: &[(Vec<u32>, Vec<u32>)]) -> Vec<String> {
        let mut bad = Vec::new();
        for (game, (sim, rec)) in counts.iter().enumerate() {
            for (i, e) in G::RULE_EVENTS.iter().enumerate() {
                if sim.get(i) != rec.get(i) {
                    bad.push(format!(
                        "{variant} game {game}: `{}` simulator {:?}, record {:?}",
                        e.key,
                        sim.get(i),
                        rec.get(i)
                    ));
                }
            }
        }
        bad
    }

    /// Every variant's counts agree with the records, and every rule event
    /// but those in `never` happened in some game (so the check is not of
    /// zeros alone); each count changed by one is caught.
    fn check<G: Registered>(runs: &[Run], recount: Recount<G>, never: &[&str]) {
        let mut fired = vec![0u32; G::RULE_EVENTS.len()];
        for run in runs {
            let variant = run.0;
            let counts = counts_of::<G>(run, recount);
            let bad = disagreements::<G>(variant, &counts);
            assert!(bad.is_empty(), "{}", bad.join("\n"));
            for (_, rec) in &counts {
                for (f, &c) in fired.iter_mut().zip(rec) {
                    *f += c;
                }
            }
            // The comparison catches any count that is off by one.
            for (i, e) in G::RULE_EVENTS.iter().enumerate() {
                let mut wrong = counts.clone();
                wrong[0].0[i] += 1;
                assert_eq!(
                    disagreements::<G>(variant, &wrong).len(),
                    1,
                    "`{}` off by one is caught",
                    e.key
                );
            }
        }
        for (e, &f) in G::RULE_EVENTS.iter().zip(&fired) {
            assert_eq!(
                f == 0,
                never.contains(&e.key),
                "`{}` happened {f} times in the runs checked (expected {})",
                e.key,
                if never.contains(&e.key) {
                    "never"
                } else {
                    "some"
                }
            );
        }
    }

    fn index<G: Game>(key: &str) -> usize {
        G::RULE_EVENTS
            .iter()
            .position(|e| e.key == key)
            .unwrap_or_else(|| panic!("no rule event {key}"))
    }

    // ----- Roots and Shoots -------------------------------------------------

    mod rs {
        use roots::core::geometry::{Grid, Point};
        use roots::games::Game;
        use roots::games::roots_and_shoots::rules::{FaceMapping, LostEnds, RollKind};
        use roots::games::roots_and_shoots::{Action, RootsAndShoots, State};
        use roots::record::Event;
        use std::collections::{BTreeMap, BTreeSet};

        /// The beads on the board: point to seat.
        type Beads = BTreeMap<Point, u8>;

        fn beads(s: &State) -> Beads {
            s.grid()
                .all()
                .filter_map(|p| s.bead(p).map(|b| (p, b)))
                .collect()
        }

        /// The kind of roll the node asks for, from its words.
        fn roll_kind(words: &str) -> Option<RollKind> {
            if words.contains("value of the nutrient") {
                Some(RollKind::NutrientValue)
            } else if words.contains("whether a nutrient spawns") {
                Some(RollKind::SpawnCheck)
            } else if words.contains("d20 for a spawn") {
                Some(RollKind::Coordinate)
            } else if words.contains(" rolls the ") {
                Some(RollKind::Growth)
            } else {
                None
            }
        }

        /// The lost-end rule (docs/games/roots-and-shoots.md, "The lost-end rule"), written again
        /// from the rules: after the bead of `owner` at `p` left `pos`, its
        /// neighbours of that colour are ends; ends joined through the
        /// owner's beads form a side; a side of one end dangles from that
        /// end to the first bead that still touches two others (or the
        /// whole piece). The dangling ends, each as its end and its beads.
        fn dangling(pos: &Beads, grid: &Grid, p: Point, owner: u8) -> Vec<(Point, Vec<Point>)> {
            let own = |q: Point| pos.get(&q) == Some(&owner);
            let ends: Vec<Point> = grid.around(p).filter(|&q| own(q)).collect();
            // The owner's beads joined to each end.
            let piece = |from: Point| {
                let mut seen = BTreeSet::from([from]);
                let mut todo = vec![from];
                while let Some(q) = todo.pop() {
                    for r in grid.around(q).filter(|&r| own(r)) {
                        if seen.insert(r) {
                            todo.push(r);
                        }
                    }
                }
                seen
            };
            let mut out = Vec::new();
            for &e in &ends {
                let joined = piece(e);
                if ends.iter().filter(|&&f| joined.contains(&f)).count() > 1 {
                    continue; // a loop closed around the gap
                }
                let mut chain: Vec<Point> = Vec::new();
                let mut cur = e;
                loop {
                    let rest: Vec<Point> = grid
                        .around(cur)
                        .filter(|&r| own(r) && !chain.contains(&r))
                        .collect();
                    if rest.len() > 1 {
                        break; // a split: it stays
                    }
                    chain.push(cur);
                    match rest.first() {
                        Some(&r) => cur = r,
                        None => break, // the whole piece dangled
                    }
                }
                if !chain.is_empty() {
                    out.push((e, chain));
                }
            }
            out
        }

        /// The removals of one step, replayed in the engine's order on the
        /// beads before it, with what they lost.
        struct Removals<'a> {
            grid: &'a Grid,
            mode: LostEnds,
            pos: Beads,
            /// Beads lost with a cut end.
            lost: u32,
            /// Dangling ends offered to their owner (`removal.lost_ends =
            /// "one_end"` with several): the engine waits for the choice.
            choice: Option<Vec<(Point, Vec<Point>)>>,
        }

        impl Removals<'_> {
            /// The bead of `owner` at `p` leaves, then the lost-end rule.
            fn remove(&mut self, p: Point, owner: u8) {
                assert_eq!(
                    self.pos.remove(&p),
                    Some(owner),
                    "a bead of seat {owner} at {p:?}"
                );
                self.cut(p, owner);
            }

            /// The lost-end rule after the bead of `owner` at `p` left.
            fn cut(&mut self, p: Point, owner: u8) {
                let ends = dangling(&self.pos, self.grid, p, owner);
                match (self.mode, ends.len()) {
                    (LostEnds::None, _) | (_, 0) => {}
                    (LostEnds::OneEnd, 1) | (LostEnds::AllEnds, _) => {
                        for (_, beads) in ends {
                            self.lose(&beads);
                        }
                    }
                    (LostEnds::OneEnd, _) => self.choice = Some(ends),
                }
            }

            fn lose(&mut self, beads: &[Point]) {
                for b in beads {
                    assert!(self.pos.remove(b).is_some(), "a lost bead at {b:?}");
                    self.lost += 1;
                }
            }
        }

        /// A spawn's two d20 readings, by the seat that rolled them.
        struct Reading {
            lines: [Option<u8>; 2],
            seat_words: String,
        }

        impl Reading {
            /// The points the readings name (a line `None` is any line: a
            /// 20), x and y either way round, but beads on the first turn
            /// when a spawn must avoid them.
            fn points(&self, s: &State, pos: &Beads) -> Vec<Point> {
                let holds = |l: Option<u8>, v: u8| l.is_none_or(|l| l == v);
                let [a, b] = self.lines;
                let free_only = s.round() == 0
                    && s.rules().setup.first_spawn_on_bead
                        == roots::games::roots_and_shoots::rules::FirstSpawnOnBead::ChooseFree;
                s.grid()
                    .all()
                    .filter(|&p| {
                        let (x, y) = s.grid().xy(p);
                        (holds(a, x) && holds(b, y)) || (holds(b, x) && holds(a, y))
                    })
                    .filter(|p| !(free_only && pos.contains_key(p)))
                    .collect()
            }
        }

        pub fn recount(events: &[Event], st: &[State]) -> Vec<u32> {
            let rules = st[0].rules();
            // The final scoring removes markers without the lost-end rule,
            // after everything else: not replayed here (no variant checked
            // has it).
            assert!(
                !rules.end.final_scoring,
                "the recount does not replay a final scoring"
            );
            let (mut rain, mut spawn_on_root, mut struggle, mut won) = (0, 0, 0, 0);
            let (mut lost_end, mut reroll, mut emptied) = (0u32, 0, 0);
            // Value rolls while a rain is being scored bring no more rain.
            let mut scoring = false;
            // Markers of scored nutrients still to leave, in the engine's
            // order, and the dangling ends whose owner is choosing.
            let mut markers: Vec<(Point, u8)> = Vec::new();
            let mut choice: Option<Vec<(Point, Vec<Point>)>> = None;
            // A spawn's readings whose nutrient has not landed yet, and the
            // first d20 of a spawn read.
            let mut reading: Option<Reading> = None;
            let mut first_line: Option<Option<u8>> = None;
            for (i, e) in events.iter().enumerate() {
                let (b, a) = (&st[i], &st[i + 1]);
                let (wb, wa) = (b.describe_node(), a.describe_node());
                let mut step = Removals {
                    grid: b.grid(),
                    mode: rules.removal.lost_ends,
                    pos: beads(b),
                    lost: 0,
                    choice: None,
                };
                // Piles emptied: a seat's supply that was not empty is.
                emptied += b
                    .players()
                    .iter()
                    .zip(a.players())
                    .filter(|(x, y)| x.supply > 0 && y.supply == 0)
                    .count() as u32;
                // Nutrients that came onto the board (only a spawn brings
                // one) and those scored.
                let ids =
                    |s: &State| -> BTreeSet<u32> { s.nutrients().iter().map(|n| n.id).collect() };
                let (before, after) = (ids(b), ids(a));
                let landed: Vec<Point> = a
                    .nutrients()
                    .iter()
                    .filter(|n| !before.contains(&n.id))
                    .map(|n| n.point)
                    .collect();
                // A rain scores in one step: each marking bead (the bead on
                // a scored nutrient) is to leave, in the order of the
                // nutrients (the oldest first), once per point.
                for n in b.nutrients().iter().filter(|n| !after.contains(&n.id)) {
                    if let Some(owner) = b.bead(n.point)
                        && !markers.contains(&(n.point, owner))
                    {
                        markers.push((n.point, owner));
                    }
                }
                let mut spawn_choice = None;
                match e {
                    Event::Roll { face, .. } => {
                        let kind = roll_kind(&wb);
                        let value = kind == Some(RollKind::NutrientValue);
                        if *face == 1
                            && !(value && scoring)
                            && kind.is_some_and(|k| rules.rain.rolls.contains(&k))
                        {
                            rain += 1;
                            scoring = true;
                        } else if !value {
                            scoring = false;
                        }
                        if kind == Some(RollKind::Coordinate) {
                            // The line a d20 names: a 20 any line, a face
                            // off the board none (rolled again).
                            let line = if *face == 20 {
                                Some(None)
                            } else {
                                let l = match rules.coordinates.faces {
                                    FaceMapping::FaceMinusOne => face - 1,
                                    FaceMapping::FaceIsLine => *face,
                                };
                                (l < b.grid().size()).then_some(Some(l))
                            };
                            if wb.contains("first d20") {
                                first_line = line;
                            } else if let (Some(x), Some(y)) = (first_line, line) {
                                reading = Some(Reading {
                                    lines: [x, y],
                                    seat_words: wb.replace("second", "first"),
                                });
                            }
                        }
                    }
                    Event::Act { action, seat } => {
                        scoring = false;
                        match RootsAndShoots::parse_action(b, action).expect("parses") {
                            Action::Place(p) => {
                                if let Some(d) = b.bead(p).filter(|d| d != seat) {
                                    struggle += 1;
                                    if a.bead(p) != Some(d) {
                                        // Severed: the winner may take the
                                        // point, then the defender's ends.
                                        won += 1;
                                        step.pos.remove(&p);
                                        if a.bead(p) == Some(*seat) {
                                            step.pos.insert(p, *seat);
                                        }
                                        step.cut(p, d);
                                    }
                                } else if a.bead(p) == Some(*seat) {
                                    step.pos.insert(p, *seat);
                                }
                            }
                            Action::Lose(end) => {
                                let offered = choice.take().expect("a choice of ends was due");
                                let mut engine: Vec<_> = b
                                    .dangling_ends()
                                    .iter()
                                    .map(|d| (d.end, d.beads.clone()))
                                    .collect();
                                let mut ours = offered.clone();
                                engine.sort();
                                ours.sort();
                                assert_eq!(ours, engine, "the dangling ends offered");
                                let (_, beads) = offered
                                    .into_iter()
                                    .find(|(e, _)| *e == end)
                                    .expect("an end offered");
                                step.lose(&beads);
                            }
                            Action::Spawn(p) => spawn_choice = Some(p),
                            _ => {}
                        }
                    }
                    _ => {}
                }
                assert!(
                    choice.is_none(),
                    "event {i}: the owner's choice of ends was due"
                );
                // The markers leave one after another, each followed by the
                // lost-end rule; one already lost with an earlier marker's
                // cut end is not there to leave. A choice of ends stops the
                // engine until it is made.
                while step.choice.is_none() && !markers.is_empty() {
                    let (p, owner) = markers.remove(0);
                    if step.pos.get(&p) == Some(&owner) {
                        step.remove(p, owner);
                    }
                }
                // The spawn lands once nothing comes before it: the rain's
                // value rolls and scoring, a choice of ends.
                let pending = reading.is_some();
                if let Some(r) = &reading
                    && step.choice.is_none()
                    && markers.is_empty()
                {
                    let done = if let Some(&p) = landed.first() {
                        assert!(
                            r.points(b, &step.pos).contains(&p),
                            "the nutrient lands where the dice said"
                        );
                        true
                    } else if let Some(p) = spawn_choice {
                        // Chosen: no nutrient came, so a root was there.
                        spawn_on_root += 1;
                        let owner = *step.pos.get(&p).expect("a root where the spawn was chosen");
                        step.remove(p, owner);
                        true
                    } else if wa.contains("value of the nutrient")
                        || wa.contains("chooses where the nutrient lands")
                    {
                        false // the rain's value rolls, or the roller's choice
                    } else if b.round() == 0 && wa == r.seat_words {
                        // The first turn's readings all hold a bead: both
                        // dice are rolled again.
                        reroll += 1;
                        true
                    } else {
                        // One point named, a root on it: the bead leaves.
                        let points = r.points(b, &step.pos);
                        assert_eq!(points.len(), 1, "one point named: {points:?}");
                        let p = points[0];
                        spawn_on_root += 1;
                        let owner = *step.pos.get(&p).expect("a root where the spawn hit");
                        step.remove(p, owner);
                        true
                    };
                    if done {
                        reading = None;
                    }
                }
                assert!(
                    landed.is_empty() || (landed.len() == 1 && pending && reading.is_none()),
                    "event {i}: a nutrient came without a spawn's readings"
                );
                choice = step.choice.take();
                lost_end += step.lost;
                // Every removal of the step is accounted for.
                assert_eq!(step.pos, beads(a), "the beads after event {i} ({e:?})");
            }
            let mut out = vec![0; RootsAndShoots::RULE_EVENTS.len()];
            for (key, v) in [
                ("rain", rain),
                ("spawn_on_root", spawn_on_root),
                ("struggle", struggle),
                ("struggle_won", won),
                ("struggle_lost", struggle - won),
                ("bead_removed", won + spawn_on_root),
                ("lost_end", lost_end),
                ("first_reroll", reroll),
                ("pile_emptied", emptied),
            ] {
                out[super::index::<RootsAndShoots>(key)] = v;
            }
            out
        }
    }

    #[test]
    fn roots_and_shoots_events_agree_with_records() {
        check::<roots::games::roots_and_shoots::RootsAndShoots>(
            &[("standard", 40, 31, None), ("fewer-beads", 30, 32, None)],
            rs::recount,
            // A first-turn reroll happens in about 0.4% of games: none here.
            &["first_reroll", "script"],
        );
    }

    // ----- Branches & Twigs & Thorns ----------------------------------------

    mod btt {
        use roots::games::Game;
        use roots::games::branches::{Action, Branches, End, Piece, State};
        use roots::record::Event;

        pub fn recount(events: &[Event], st: &[State]) -> Vec<u32> {
            let (mut penalty, mut reset, mut stuck, mut at_root, mut at_own) = (0, 0, 0, 0, 0);
            let rules = st[0].rules();
            let players = usize::from(st[0].players());
            // The coins at the table: a payer short of coins makes everyone
            // take `coins.reset` from the pot until it can pay.
            let mut coins = vec![i64::from(rules.coins.start); players];
            for (i, e) in events.iter().enumerate() {
                let (b, a) = (&st[i], &st[i + 1]);
                let Event::Act { action, seat } = e else {
                    continue;
                };
                let m = usize::from(*seat);
                if let Action::Place { cell, dir, .. } =
                    Branches::parse_action(b, action).expect("parses")
                {
                    match b.piece(b.board().neighbour(cell, dir)) {
                        Piece::Root => at_root += 1,
                        Piece::Pyramid { seat: o, .. } if o == *seat => at_own += 1,
                        Piece::Pyramid { seat: o, .. } => {
                            penalty += 1;
                            let (sb, sa) = (b.scores(), a.scores());
                            let pays = i64::from(sb[m] - sa[m]);
                            let o = usize::from(o);
                            let reset_by = i64::from(rules.coins.reset);
                            while reset_by > 0 && coins[m] < pays {
                                coins.iter_mut().for_each(|c| *c += reset_by);
                                reset += 1;
                            }
                            coins[m] -= pays;
                            coins[o] += i64::from(sa[o] - sb[o]);
                        }
                        _ => {}
                    }
                }
                if b.in_play() {
                    match a.end() {
                        // Seats passed over before the next to move.
                        None => {
                            stuck += (usize::from(a.to_move()) + players - m - 1) % players;
                        }
                        Some(End::NoMoves) => stuck += 1,
                        Some(_) => {}
                    }
                }
            }
            if let Some(last) = st.last() {
                assert_eq!(last.coins(), coins, "the coins at the table");
            }
            let mut out = vec![0; Branches::RULE_EVENTS.len()];
            for (key, v) in [
                ("penalty", penalty),
                ("coin_reset", reset),
                ("stuck", stuck as u32),
                ("pointed_at_root", at_root),
                ("pointed_at_own", at_own),
            ] {
                out[super::index::<Branches>(key)] = v;
            }
            out
        }
    }

    #[test]
    fn branches_events_agree_with_records() {
        check::<roots::games::branches::Branches>(
            &[
                ("btt", 12, 41, None),
                ("btt-arcade", 8, 42, None),
                ("btt-literal-wiki", 8, 43, None),
                ("btt-martian-go", 8, 44, None),
            ],
            btt::recount,
            // No bot ever fails to place in these variants (a stash runs out
            // only with the board). These variants have no house rules.
            &["stuck", "script"],
        );
    }

    // ----- Sprout-R-Out -----------------------------------------------------

    mod sprout {
        use roots::games::Game;
        use roots::games::sprout_r_out::{Action, EyeDetection, SproutROut, State};
        use roots::record::Event;

        /// The cells that became an eye of `seat` from `b` to `a`, each
        /// checked against the definition (docs/games/sprout-r-out.md): an
        /// empty cell all of whose neighbours are stones of one group of the
        /// seat. Under whole-board detection, every such cell is an eye.
        fn eyes_made(b: &State, a: &State, seat: u8) -> u32 {
            let rules = a.rules();
            let adj = rules.groups.adjacency();
            let board = a.board();
            let enclosed = |c| {
                let n = board.neighbour_set(c, adj);
                n.any() && a.groups(seat).any(|(g, _)| n.is_subset(&g))
            };
            let empty = board.cells() & !(a.stones(0) | a.stones(1));
            let new = a.eyes(seat) & !b.eyes(seat);
            for c in new.iter() {
                assert!(
                    empty.contains(c) && enclosed(c),
                    "cell {c} is no eye of seat {seat}"
                );
            }
            if rules.eye_detection == EyeDetection::WholeBoard {
                for c in empty.iter().filter(|&c| enclosed(c)) {
                    assert!(
                        a.eyes(seat).contains(c),
                        "cell {c} is an eye of seat {seat} not found"
                    );
                }
            }
            new.len()
        }

        pub fn recount(events: &[Event], st: &[State]) -> Vec<u32> {
            let (mut removal, mut stuck, mut pass, mut refused) = (0, 0, 0, 0);
            let mut eyes = 0;
            for (i, e) in events.iter().enumerate() {
                let b = &st[i];
                let Event::Act { action, seat } = e else {
                    continue;
                };
                // Only the mover's eyes can appear.
                eyes += eyes_made(b, &st[i + 1], *seat);
                assert_eq!(
                    eyes_made(b, &st[i + 1], 1 - *seat),
                    0,
                    "the other seat's eyes"
                );
                match SproutROut::parse_action(b, action).expect("parses") {
                    Action::Remove(_) => {
                        removal += 1;
                        // The first sub-move of a turn.
                        if b.sub() == 0 {
                            stuck += 1;
                        }
                    }
                    Action::Pass => {
                        pass += 1;
                        // The rules offered moves, the repetition rule
                        // forbade them all.
                        let l = b.legal();
                        if l.blocked_place.any() || l.blocked_remove.any() {
                            refused += 1;
                        }
                    }
                    Action::Place(_) => {}
                }
            }
            let mut out = vec![0; SproutROut::RULE_EVENTS.len()];
            for (key, v) in [
                ("removal", removal),
                ("stuck_removal", stuck),
                ("pass", pass),
                ("repetition_refused", refused),
                ("eye_made", eyes),
            ] {
                out[super::index::<SproutROut>(key)] = v;
            }
            out
        }
    }

    #[test]
    fn sprout_r_out_events_agree_with_records() {
        check::<roots::games::sprout_r_out::SproutROut>(
            &[
                ("sprout-r-out", 12, 51, None),
                ("sprout-r-out-ludii", 12, 52, None),
                ("sprout-r-out", 12, 53, Some(BotSpec::Random)),
            ],
            sprout::recount,
            // Passes are rare (a player with no placement and no removal
            // left): none in these 36 games, nor a pass forced by the
            // repetition rule (none in 300 greedy games either).
            // These variants have no house rules (`script`).
            &["pass", "repetition_refused", "script"],
        );
    }

    // ----- Roots Growy Roots ------------------------------------------------

    mod rgr {
        use roots::core::protocol::Seat;
        use roots::games::Game;
        use roots::games::roots_growy_roots::state::{
            EARTH, FERTILIZER, FIRST_ARTIFACT, HIDDEN, JUMP_COST, STONE, WATER,
        };
        use roots::games::roots_growy_roots::{Action, EndReason, RootsGrowyRoots, State};
        use roots::record::Event;

        /// Turns since the start: where the game stands in its seat order.
        fn at(s: &State, seats: u32) -> u32 {
            u32::from(s.round()) * seats + u32::from(s.to_move())
        }

        pub fn recount(events: &[Event], st: &[State]) -> Vec<u32> {
            let seats = RootsGrowyRoots::scores(&st[0]).len() as u32;
            let rules = st[0].rules();
            let (mut bridge, mut stone, mut turned, mut blocked) = (0, 0, 0, 0);
            let (mut ability, mut deny) = (0, 0);
            // Cards turned over by kind: earth, fertilizer, water, stone,
            // an artifact.
            let mut drawn = [0u32; 5];
            // Sticks: the first hand, each turn's income, fertilizer; less
            // what sticks laid cost and what is held at the end: the rest
            // was lost.
            let (mut received, mut spent) = (st[0].sticks(), 0);
            for (i, e) in events.iter().enumerate() {
                let (b, a) = (&st[i], &st[i + 1]);
                // The stick a move lays, and the card it lands on, when this
                // event resolves it.
                let (laid, face) = match e {
                    Event::Draw { card } => {
                        turned += 1;
                        let face = RootsGrowyRoots::parse_draw(b, card).expect("a card");
                        let kind = match face {
                            EARTH => 0,
                            FERTILIZER => 1,
                            WATER => 2,
                            STONE => 3,
                            f => {
                                assert!(
                                    (FIRST_ARTIFACT..FIRST_ARTIFACT + 5).contains(&f),
                                    "a drawn face {f}"
                                );
                                4
                            }
                        };
                        drawn[kind] += 1;
                        (b.pending(), Some(face))
                    }
                    Event::Act { action, .. } => {
                        let act = RootsGrowyRoots::parse_action(b, action).expect("parses");
                        match act {
                            Action::Deny { .. } => {
                                ability += 1;
                                deny += 1;
                            }
                            Action::Jump { .. }
                            | Action::Skry { .. }
                            | Action::Destroy { .. }
                            | Action::Dry { .. } => ability += 1,
                            _ => {}
                        }
                        // A stick onto a face-up card resolves at once.
                        match act.stick() {
                            Some((_, to)) if b.card(to) != HIDDEN => (Some(act), Some(b.card(to))),
                            _ => (None, None),
                        }
                    }
                    _ => (None, None),
                };
                if let (Some(act), Some(face)) = (laid, face) {
                    if face == STONE {
                        stone += 1;
                    } else {
                        if face == FERTILIZER {
                            received += u32::from(rules.turn.fertilizer);
                        }
                        spent += match act {
                            Action::Bridge { .. } => {
                                bridge += 1;
                                u32::from(rules.turn.bridge_cost)
                            }
                            Action::Jump { .. } => JUMP_COST,
                            _ => 1,
                        };
                    }
                }
                // Seats whose turn came: denied (Medusa), blocked at the
                // start, or the next to play; each but the denied got its
                // income.
                let (from, to) = (at(b, seats), at(a, seats));
                if to > from {
                    let denied: Vec<Seat> = a.skipped().collect();
                    let began = match a.end() {
                        // The round limit ends the game before the turn.
                        Some(EndReason::RoundLimit) => to - 1,
                        _ => to,
                    };
                    for k in from + 1..=began {
                        let s = (k % seats) as Seat;
                        if denied.contains(&s) {
                            continue;
                        }
                        received += u32::from(rules.turn.income)
                            + u32::from(rules.turn.water_income) * u32::from(a.waters(s));
                        let plays = k == to && a.end().is_none();
                        if !plays {
                            blocked += 1;
                        }
                    }
                }
            }
            let end = st.last().expect("a state");
            let held = end.sticks() + (0..seats as Seat).map(|s| end.kept(s)).sum::<u32>();
            let lost = received - spent - held;
            // A seat denied its next turn when the game ended never lost it.
            let frozen = (0..seats as Seat).filter(|&x| end.frozen(x)).count() as u32;
            let mut out = vec![0; RootsGrowyRoots::RULE_EVENTS.len()];
            for (key, v) in [
                ("bridge", bridge),
                ("stone_hit", stone),
                ("card_turned", turned),
                ("earth_drawn", drawn[0]),
                ("fertilizer_drawn", drawn[1]),
                ("water_drawn", drawn[2]),
                ("stone_drawn", drawn[3]),
                ("artifact_drawn", drawn[4]),
                ("blocked_turn", blocked),
                ("stick_lost", lost),
                ("ability_used", ability),
                ("turn_denied", deny - frozen),
            ] {
                out[super::index::<RootsGrowyRoots>(key)] = v;
            }
            out
        }
    }

    #[test]
    fn roots_growy_roots_events_agree_with_records() {
        check::<roots::games::roots_growy_roots::RootsGrowyRoots>(
            &[
                ("roots-growy-roots", 6, 61, None),
                ("rgr-artifacts", 6, 62, None),
                // Random play ends turns with sticks in hand: sticks lost.
                ("roots-growy-roots", 6, 63, Some(BotSpec::Random)),
            ],
            rgr::recount,
            // These variants have no house rules.
            &["script"],
        );
    }
}
