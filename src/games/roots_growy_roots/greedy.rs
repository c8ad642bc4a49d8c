//! The greedy bot of Roots Growy Roots: the generic greedy bot's decisions
//! (the same evaluation, [`text::evaluate`], of the position after each
//! legal action, the same ties to the same dice), with each grow, bridge
//! and end priced from one reading of the position instead of played on a
//! copy and, onto a face-down card, played again on a copy for every kind
//! of card it may turn out to be.
//!
//! What the evaluation reads after a stick is known without playing it:
//! the mover's tips, longest root (the new tip's farthest connector is an
//! end of the old longest path), waters, artifacts and sticks change as
//! the card says, and nobody else's figures change. When the stick ends
//! the turn (a stone, the last stick, an artifact that ends it, a tip with
//! nowhere to grow), the next seat's start is worked out from the move
//! counts the state keeps: it can grow if it has more grows than the
//! changed cell can take away, and then the mover's sticks are kept or
//! lost as the rules say. With the abilities, a skry, a jump and a deny
//! are read the same way. The cases this does not settle (an artifact
//! drawn with the abilities on, a hammer, a drying, a skipped turn, a next
//! seat that may be blocked) are played on one scratch copy. Debug builds
//! check every price against the copy's, to the bit.

use crate::core::dice::SeededDice;
use crate::core::player::Ties;
use crate::core::protocol::{GameState, Seat};

use super::rules::{Artifact, EndTrigger, RootMeasure, Sticks};
use super::state::{FERTILIZER, FIRST_ARTIFACT, HIDDEN, STONE, WATER};
use super::state::{Figures, JUMP_COST, MAX_SEATS};
use super::text::{self, Judged};
use super::{Action, State};

/// The position read once per decision, for the mover.
#[derive(Debug, Default)]
struct Reading {
    seat: Seat,
    figures: [Figures; MAX_SEATS],
    /// The cell whose grows and bridges as the mover's new tip were last
    /// counted, and them (the same for every card it may turn out to be).
    last_tip: Option<(u16, [u8; 2])>,
    others_skipped: f64,
    skipped: f64,
    /// Whether the next seat starts its turn with sticks and grows (the
    /// count of its grows; 0 when the copy must tell: a skipped turn
    /// pending, or no stick).
    next_grows: u32,
}

impl Reading {
    fn read(&mut self, state: &State, seat: Seat) {
        let seats = state.seats();
        self.seat = seat;
        for s in 0..seats {
            self.figures[s] = state.figures(s);
        }
        self.last_tip = None;
        (self.others_skipped, self.skipped) = text::skips(state, seat);
        let next = (seat + 1) % seats as u8;
        let sticks = state.kept(next) + state.income(next);
        let skipping = (0..seats as u8).any(|s| state.frozen(s));
        self.next_grows = if skipping || sticks == 0 {
            0
        } else {
            state.totals_of(next)[0]
        };
    }

    /// Whether the next seat can start its turn (its turn is not skipped
    /// and it can grow) after the mover's turn ends with the cell `changed`
    /// taken (a stone or a connector on it), as far as the counts tell.
    fn next_starts(&self, state: &State, changed: Option<u16>) -> bool {
        if self.next_grows == 0 {
            return false;
        }
        let Some(x) = changed else {
            return true;
        };
        let next = (self.seat + 1) % state.seats() as u8;
        // Only the connectors around the cell can lose a grow to it.
        let mut lost = 0;
        state.around_two(x, |c| {
            if state.connector(c) == Some(next) {
                lost += state.moves_of(c)[0];
            }
        });
        u32::from(lost) < self.next_grows
    }

    /// The mover's sticks along the root from `from` to each end of its
    /// longest path (kept by the state).
    fn sticks_to_ends(&self, state: &State, from: u16) -> [u32; 2] {
        let d = state.sticks_to_ends(from);
        debug_assert_eq!(
            d,
            state
                .longest_ends(usize::from(self.seat))
                .map(|e| state.sticks_between(from, e))
        );
        d
    }

    /// The mover's grows and bridges from a new tip on `to`.
    fn tip_moves(&mut self, state: &State, to: u16) -> [u8; 2] {
        if let Some((t, m)) = self.last_tip
            && t == to
        {
            return m;
        }
        let m = state.count_moves(self.seat, to);
        self.last_tip = Some((to, m));
        m
    }

    /// The evaluation after `action`, when the reading settles it.
    fn price(&mut self, state: &State, action: Action) -> Option<f64> {
        let s = self.seat;
        let si = usize::from(s);
        let turn = &state.rules().turn;
        if action == Action::End {
            let kept = match turn.voluntary_end {
                Sticks::Keep => state.kept(s) + state.sticks(),
                Sticks::Lose => state.kept(s),
            };
            if !self.next_starts(state, None) {
                return None;
            }
            return Some(self.judge(state, &Landing::passing(self.figures[si], kept, 0)));
        }
        let mover = self.figures[si];
        let (from, to, cost, used) = match action {
            Action::Grow { from, to } => (from, to, 1, 0),
            Action::Bridge { from, to } => (from, to, u32::from(turn.bridge_cost), 0),
            Action::Jump { from, to } => (from, to, JUMP_COST, 1 << Artifact::Jump as u8),
            Action::Skry { at } => return self.skry(state, at),
            Action::Deny { .. } => {
                // The turn goes on; one more seat skips its next turn.
                let land = Landing {
                    used: 1 << Artifact::Deny as u8,
                    denies: true,
                    ..Landing::staying(mover, state.sticks(), 0)
                };
                return Some(self.judge(state, &land));
            }
            _ => return None,
        };
        let face = state.card(to);
        if face != HIDDEN {
            let mut land = self.after(state, from, to, cost, face, false)?;
            land.used = used;
            return Some(self.judge(state, &land));
        }
        let weights = *state.deck(usize::from(state.geo().deck_of[usize::from(to)]));
        let total: u32 = weights.iter().sum();
        if total == 0 {
            return Some(0.0);
        }
        // As the evaluation sums the cards' values, in the same order.
        let mut sum = 0.0;
        for (k, &w) in weights.iter().enumerate() {
            if w == 0 {
                continue;
            }
            let mut land = self.after(state, from, to, cost, k as u8 + 1, true)?;
            land.used = used;
            sum += f64::from(w) * self.judge(state, &land);
        }
        Some(sum / f64::from(total))
    }

    /// The evaluation after a skry at `at`: the expectation over the first
    /// card it turns over (the one at `at`) of the position with the runes
    /// used: while more cards are still to turn, the card changes nothing
    /// the evaluation reads (the turn may end only after the last one), but
    /// the last face-down artifact ends the game. `None` when the card at
    /// `at` is the only one.
    fn skry(&self, state: &State, at: u16) -> Option<f64> {
        if !state.hidden_around(at) {
            return None;
        }
        let s = self.seat;
        let weights = *state.deck(usize::from(state.geo().deck_of[usize::from(at)]));
        let total: u32 = weights.iter().sum();
        if total == 0 {
            return Some(0.0);
        }
        let f = self.figures[usize::from(s)];
        let scores = self.scores(state, f);
        let judged = |held| {
            let land = Landing {
                used: 1 << Artifact::Skry as u8,
                ..Landing::staying(f, held, 0)
            };
            self.judge_with(state, &land, &scores)
        };
        let goes_on = judged(state.sticks());
        let last_artifact = state.rules().end.trigger == EndTrigger::LastHiddenArtifact
            && state.hidden_artifacts() == 1;
        let mut sum = 0.0;
        for (k, &w) in weights.iter().enumerate() {
            if w == 0 {
                continue;
            }
            let face = k as u8 + 1;
            let v = if last_artifact && (FIRST_ARTIFACT..FIRST_ARTIFACT + 5).contains(&face) {
                judged(state.kept(s))
            } else {
                goes_on
            };
            sum += f64::from(w) * v;
        }
        Some(sum / f64::from(total))
    }

    /// What follows when a stick `from`-`to` costing `cost` lands on the
    /// card `face` (`drawn`: turned over now), when the reading settles it.
    fn after(
        &mut self,
        state: &State,
        from: u16,
        to: u16,
        cost: u32,
        face: u8,
        drawn: bool,
    ) -> Option<Landing> {
        let s = self.seat;
        let si = usize::from(s);
        let rules = state.rules();
        let sticks = state.sticks();
        if face == STONE {
            // The turn ends on the stone, the sticks kept.
            if !self.next_starts(state, Some(to)) {
                return None;
            }
            return Some(Landing::passing(
                self.figures[si],
                state.kept(s) + sticks,
                0,
            ));
        }
        let mut f = self.figures[si];
        let seed = state.geo().seeds[si];
        if state.children_of(from) > 0 || from == seed {
            f.leaves += 1;
        }
        f.longest = match rules.scoring.longest_root_measure {
            RootMeasure::AnyPath => {
                let [a, b] = self.sticks_to_ends(state, from);
                f.longest.max(a + 1).max(b + 1)
            }
            RootMeasure::FromSeed => f.longest.max(u32::from(state.depth_of(from)) + 1),
        };
        let mut left = sticks - cost;
        let mut stop = false;
        match face {
            WATER => f.waters += 1,
            FERTILIZER => left += u32::from(rules.turn.fertilizer),
            a if (FIRST_ARTIFACT..FIRST_ARTIFACT + 5).contains(&a) => {
                f.hands |= 1 << (a - FIRST_ARTIFACT);
                if rules.artifacts.abilities {
                    // An ability in hand: the next decisions differ.
                    return None;
                }
                let hidden = state.hidden_artifacts() - u8::from(drawn);
                let over = match rules.end.trigger {
                    EndTrigger::LastHiddenArtifact => drawn && hidden == 0,
                    EndTrigger::AllArtifactsClaimed => state.unclaimed_artifacts() == 1,
                };
                if over {
                    return Some(Landing::staying(f, state.kept(s), 1));
                }
                stop = rules.turn.artifact_ends_turn;
            }
            _ => {}
        }
        let fate = if stop || left == 0 {
            Some(Sticks::Keep)
        } else {
            // The new tip's grows and bridges: the stick to it changes
            // none of them.
            let [g, b] = self.tip_moves(state, to);
            if g > 0 || (b > 0 && state.bridges_with(left)) {
                None
            } else if state.usable(s) != 0 {
                // A jump or a hammer may keep the turn going.
                return None;
            } else {
                Some(rules.turn.blocked_end)
            }
        };
        Some(match fate {
            None => Landing::staying(f, left, 1),
            Some(fate) => {
                if !self.next_starts(state, Some(to)) {
                    return None;
                }
                let held = match fate {
                    Sticks::Keep => state.kept(s) + left,
                    Sticks::Lose => state.kept(s),
                };
                Landing::passing(f, held, 1)
            }
        })
    }

    /// Every seat's score with the mover's figures `f`.
    fn scores(&self, state: &State, f: Figures) -> [i32; MAX_SEATS] {
        let si = usize::from(self.seat);
        let table = state.score_table(|x| if x == si { f } else { self.figures[x] });
        let mut scores = [0i32; MAX_SEATS];
        for (slot, parts) in scores.iter_mut().zip(&table).take(state.seats()) {
            *slot = parts.iter().sum();
        }
        scores
    }

    /// The mover's evaluation after `land`.
    fn judge(&self, state: &State, land: &Landing) -> f64 {
        self.judge_with(state, land, &self.scores(state, land.f))
    }

    /// [`Reading::judge`] with every seat's score after `land` given.
    fn judge_with(&self, state: &State, land: &Landing, scores: &[i32; MAX_SEATS]) -> f64 {
        let s = self.seat;
        let usable = if state.rules().artifacts.abilities {
            land.f.hands & !(state.used_bits() | land.used)
        } else {
            0
        };
        text::judge(&Judged {
            mine: scores[usize::from(s)],
            best_other: text::best_other(&scores[..state.seats()], s),
            held: land.held,
            root: state.roots(s).len() + land.grown,
            waters: land.f.waters,
            ready: usable.count_ones(),
            others_skipped: self.others_skipped + if land.denies { 1.0 } else { 0.0 },
            skipped: self.skipped,
        })
    }

    /// Every seat's evaluation after `land`, into `out` (the mover's is
    /// [`Reading::judge`]'s): the others' figures do not change, their
    /// sticks are kept ones but the next seat's when the turn passes to it
    /// (its kept sticks and its income in hand, unless the round limit
    /// ends the game first).
    fn judge_all(&self, state: &State, land: &Landing, out: &mut [f64; MAX_SEATS]) {
        let s = self.seat;
        let seats = state.seats();
        let scores = self.scores(state, land.f);
        let next = (s + 1) % seats as u8;
        let starts =
            land.passes && !(next == 0 && state.round() + 1 >= state.rules().end.max_rounds);
        for x in 0..seats as u8 {
            let xi = usize::from(x);
            if x == s {
                out[xi] = self.judge_with(state, land, &scores);
                continue;
            }
            let held = if starts && x == next {
                state.kept(x) + state.income(x)
            } else {
                state.kept(x)
            };
            let (others_skipped, skipped) = text::skips(state, x);
            out[xi] = text::judge(&Judged {
                mine: scores[xi],
                best_other: text::best_other(&scores[..seats], x),
                held,
                root: state.roots(x).len(),
                waters: self.figures[xi].waters,
                ready: state.usable(x).count_ones(),
                others_skipped,
                skipped,
            });
        }
    }
}

/// What follows a move, as far as the evaluation reads it.
#[derive(Clone, Copy, Debug)]
struct Landing {
    /// The mover's figures.
    f: Figures,
    /// The mover's sticks: in hand while its turn goes on, else kept.
    held: u32,
    /// Connectors the mover grew (0 or 1).
    grown: usize,
    /// Whether the turn passed to the next seat (which can start it); not
    /// when the game ended.
    passes: bool,
    /// The artifacts whose ability the move uses, one bit each.
    used: u8,
    /// Whether the move skips another seat's next turn (deny).
    denies: bool,
}

impl Landing {
    /// The turn passes to the next seat, the mover holding `held` kept sticks.
    fn passing(f: Figures, held: u32, grown: usize) -> Landing {
        Landing {
            passes: true,
            ..Landing::staying(f, held, grown)
        }
    }

    /// The mover's turn goes on (or the game ended), it holding `held`.
    fn staying(f: Figures, held: u32, grown: usize) -> Landing {
        Landing {
            f,
            held,
            grown,
            passes: false,
            used: 0,
            denies: false,
        }
    }
}

/// Every seat's evaluation ([`text::evaluate`]) at a card being drawn for
/// a grow or bridge, into `out`, from one reading of the position: the
/// expectation over the cards left, each card worked out as the greedy
/// bot prices a move. `false` when the reading does not settle it (a
/// skry's cards, a jump, an ability in play, a next seat that may be
/// blocked or skipped).
pub(super) fn draw_values(state: &State, out: &mut Vec<f64>) -> bool {
    let Some(action) = state.pending() else {
        return false;
    };
    let (from, to, cost) = match action {
        Action::Grow { from, to } => (from, to, 1),
        Action::Bridge { from, to } => (from, to, u32::from(state.rules().turn.bridge_cost)),
        // The flight's ability is marked used already.
        Action::Jump { from, to } => (from, to, JUMP_COST),
        _ => return false,
    };
    if state.seats() < 2 {
        return false;
    }
    let mut r = Reading::default();
    r.read(state, state.to_move());
    let weights = *state.deck(usize::from(state.geo().deck_of[usize::from(to)]));
    let total: u32 = weights.iter().sum();
    let seats = state.seats();
    let mut sums = [0.0; MAX_SEATS];
    let mut values = [0.0; MAX_SEATS];
    for (k, &w) in weights.iter().enumerate() {
        if w == 0 {
            continue;
        }
        let Some(land) = r.after(state, from, to, cost, k as u8 + 1, true) else {
            return false;
        };
        r.judge_all(state, &land, &mut values);
        for (sum, v) in sums.iter_mut().zip(&values).take(seats) {
            *sum += f64::from(w) * v;
        }
    }
    out.clear();
    out.extend(sums[..seats].iter().map(|s| s / f64::from(total)));
    true
}

/// What prices moves: a reading of the position and the copy the moves
/// it does not settle are played on.
#[derive(Debug, Default)]
pub(super) struct Pricer {
    reading: Reading,
    scratch: Option<State>,
}

impl Pricer {
    /// The evaluation ([`text::evaluate`]) for `seat`, the seat deciding at
    /// `state`, after each of `actions`, into `out` (cleared first): from
    /// one reading of the position where it settles the price, else played
    /// on the scratch copy. Debug builds check every price read against
    /// the copy's, to the bit.
    pub(super) fn price_all(
        &mut self,
        state: &State,
        seat: Seat,
        actions: &[Action],
        out: &mut Vec<f64>,
    ) {
        out.clear();
        self.reading.read(state, seat);
        for &a in actions {
            let v = match self.reading.price(state, a) {
                Some(v) => {
                    #[cfg(debug_assertions)]
                    {
                        let copy = on_a_copy(&mut self.scratch, state, seat, a);
                        assert_eq!(
                            v.to_bits(),
                            copy.to_bits(),
                            "{a:?} priced {v}, {copy} on a copy"
                        );
                    }
                    v
                }
                None => on_a_copy(&mut self.scratch, state, seat, a),
            };
            out.push(v);
        }
    }
}

thread_local! {
    /// The pricer of [`action_values`] (its copy grown once per thread).
    static PRICER: std::cell::RefCell<Pricer> = std::cell::RefCell::new(Pricer::default());
}

/// `Game::action_values` of this game: greedy's prices
/// ([`Pricer::price_all`]), for the guided search.
pub(super) fn action_values(state: &State, seat: Seat, actions: &[Action], out: &mut Vec<f64>) {
    PRICER.with_borrow_mut(|p| p.price_all(state, seat, actions, out));
}

/// The greedy player of Roots Growy Roots.
#[derive(Debug)]
pub struct FastGreedy {
    dice: SeededDice,
    actions: Vec<Action>,
    values: Vec<f64>,
    ties: Ties<Action>,
    pricer: Pricer,
}

impl FastGreedy {
    pub fn new(dice: SeededDice) -> FastGreedy {
        FastGreedy {
            dice,
            actions: Vec::with_capacity(64),
            values: Vec::with_capacity(64),
            ties: Ties::default(),
            pricer: Pricer::default(),
        }
    }
}

/// The evaluation after `action`, played on the copy `scratch` (refilled
/// from `state` without allocating once it has grown).
fn on_a_copy(scratch: &mut Option<State>, state: &State, seat: Seat, action: Action) -> f64 {
    let next = state.copy_into(scratch);
    next.play_unchecked(action);
    text::evaluate(next, seat)
}

crate::greedy_player!(FastGreedy, State);

impl FastGreedy {
    /// The choice among `actions` (more than one) for `seat`: the best
    /// price, ties broken by the bot's dice.
    fn decide(&mut self, state: &State, seat: Seat, actions: &[Action]) -> Action {
        self.pricer
            .price_all(state, seat, actions, &mut self.values);
        self.ties.clear();
        for (&a, &v) in actions.iter().zip(&self.values) {
            self.ties.offer(v, a);
        }
        self.ties.pick(&mut self.dice).unwrap_or(actions[0])
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::bots::GreedyBot;
    use crate::core::player::Player;
    use crate::core::protocol::Next;
    use crate::games::roots_growy_roots::RootsGrowyRoots;
    use crate::games::roots_growy_roots::rules::Rules;

    /// Under the abilities house rule, every price the reading gives (a
    /// grow with an ability in hand, a skry, a jump, a deny) is the copy's
    /// to the bit, in release builds too, and most of the ability moves
    /// are priced from the reading.
    #[test]
    fn prices_ability_moves_as_the_copy() {
        let mut rules = Rules::standard();
        rules.artifacts.abilities = true;
        let rules = Arc::new(rules);
        let (mut abilities, mut read, mut checked) = (0u32, 0u32, 0u32);
        let mut scratch = None;
        let mut legal = Vec::new();
        for g in 0..12u64 {
            let seats = 2 + (g % 3) as u8;
            let mut state = State::new(Arc::clone(&rules), seats).unwrap();
            let mut dice = SeededDice::for_game(7, g);
            let mut bot = FastGreedy::new(SeededDice::for_game(8, g));
            loop {
                match state.next() {
                    Next::Over => break,
                    Next::Decide(seat) => {
                        state.legal_actions(&mut legal);
                        let mut r = Reading::default();
                        r.read(&state, seat);
                        for &b in &legal {
                            let ability = b.artifact().is_some();
                            abilities += u32::from(ability);
                            if let Some(v) = r.price(&state, b) {
                                let copy = on_a_copy(&mut scratch, &state, seat, b);
                                assert_eq!(v.to_bits(), copy.to_bits(), "{b:?}, game {g}");
                                read += u32::from(ability);
                                checked += 1;
                            }
                        }
                        state.play(bot.choose(&state).unwrap()).unwrap();
                    }
                    _ => {
                        let face = dice.draw(state.draw_weights());
                        state.roll(face).unwrap();
                    }
                }
            }
        }
        assert!(abilities > 200, "{abilities} ability moves");
        assert!(read * 2 >= abilities, "{read} of {abilities} read");
        assert!(checked > 1000, "{checked} prices checked");
    }

    /// The game's `action_values` (greedy's prices, for the search) are
    /// the default's, each action played on a copy, to the bit, in release
    /// builds too: at every decision of seeded games for 2 to 4 seats,
    /// with and without the abilities.
    #[test]
    fn action_values_are_the_copies() {
        use crate::games::{Game, action_values_on_copies};
        let mut abilities = Rules::standard();
        abilities.artifacts.abilities = true;
        let mut decisions = 0;
        for (k, rules) in [Rules::standard(), abilities].into_iter().enumerate() {
            let rules = Arc::new(rules);
            for seats in 2..=4u8 {
                let g = k as u64 * 10 + u64::from(seats);
                let mut state = State::new(Arc::clone(&rules), seats).unwrap();
                let mut dice = SeededDice::for_game(11, g);
                let mut bot = FastGreedy::new(SeededDice::for_game(12, g));
                let (mut legal, mut fast, mut copies) = (Vec::new(), Vec::new(), Vec::new());
                loop {
                    match state.next() {
                        Next::Over => break,
                        Next::Decide(seat) => {
                            state.legal_actions(&mut legal);
                            RootsGrowyRoots::action_values(&state, seat, &legal, &mut fast);
                            action_values_on_copies::<RootsGrowyRoots>(
                                &state,
                                seat,
                                &legal,
                                &mut copies,
                            );
                            assert_eq!(fast.len(), legal.len());
                            for ((a, x), y) in legal.iter().zip(&fast).zip(&copies) {
                                assert_eq!(x.to_bits(), y.to_bits(), "{a:?}, game {g}");
                            }
                            decisions += 1;
                            state.play(bot.choose(&state).unwrap()).unwrap();
                        }
                        _ => {
                            let face = dice.draw(state.draw_weights());
                            state.roll(face).unwrap();
                        }
                    }
                }
            }
        }
        assert!(decisions > 300, "{decisions} decisions");
    }

    /// The bot decides as the generic greedy bot (which plays every
    /// candidate on a copy) at every decision of seeded games, under rules
    /// that change what it prices; debug builds also check every price
    /// against the copy's, to the bit. Most prices come from the reading.
    #[test]
    fn decides_as_the_greedy_bot_that_copies() {
        let mut abilities = Rules::standard();
        abilities.artifacts.abilities = true;
        let mut from_seed = Rules::standard();
        from_seed.scoring.longest_root_measure = RootMeasure::FromSeed;
        from_seed.turn.voluntary_end = Sticks::Keep;
        let (mut decisions, mut fast, mut priced) = (0, 0, 0);
        for (k, rules) in [Rules::standard(), abilities, from_seed]
            .into_iter()
            .enumerate()
        {
            let rules = Arc::new(rules);
            for seats in 2..=4u8 {
                let g = k as u64 * 10 + u64::from(seats);
                let mut state = State::new(Arc::clone(&rules), seats).unwrap();
                let mut dice = SeededDice::for_game(5, g);
                let mut mine = FastGreedy::new(SeededDice::for_game(6, g));
                let mut theirs = GreedyBot::<RootsGrowyRoots>::new(SeededDice::for_game(6, g));
                let mut legal = Vec::new();
                while let Some(next) = match state.next() {
                    Next::Over => None,
                    n => Some(n),
                } {
                    match next {
                        Next::Decide(seat) => {
                            let a = mine.choose(&state).unwrap();
                            assert_eq!(a, theirs.choose(&state).unwrap(), "game {g}");
                            state.legal_actions(&mut legal);
                            let mut r = Reading::default();
                            r.read(&state, seat);
                            for &b in &legal {
                                priced += 1;
                                fast += u32::from(r.price(&state, b).is_some());
                            }
                            decisions += 1;
                            state.play(a).unwrap();
                        }
                        _ => {
                            let face = dice.draw(state.draw_weights());
                            state.roll(face).unwrap();
                        }
                    }
                }
            }
        }
        assert!(decisions > 300, "{decisions} decisions");
        assert!(
            fast * 2 >= priced,
            "{fast} of {priced} priced from the reading"
        );
    }
}
