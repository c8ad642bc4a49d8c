//! The protocol every game of this toolkit follows, after OpenSpiel: a state is
//! a node of the game tree, and says who acts next.
//!
//! * a **chance** node names the die to roll; applying a face is deterministic;
//! * a **draw** node is chance too: a face-down card is turned over, and which
//!   card it is comes from what is left of its deck, each kind weighted by the
//!   cards of it left ([`GameState::draw_weights`]); the card's identity does
//!   not exist in the state until it is drawn, so nobody (no bot) can peek;
//! * a **decision** node names the seat that decides; the state lists the legal
//!   actions, and applying one is deterministic and checked;
//! * a **terminal** node has an [`Outcome`].
//!
//! Because chance is a node and not a hidden RNG call, one loop serves a seeded
//! simulator, a referee fed with physical dice, a record replayer and a search.

use std::fmt::Debug;

use crate::core::dice::{Die, SeededDice};

/// A seat at the table, `0..players`, in turn order (seat 0 plays first).
pub type Seat = u8;

/// Who acts at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A die must be rolled; apply the face with [`GameState::roll`].
    Chance(Die),
    /// A card must be drawn from a deck: face `k` (from 1) has the weight
    /// `draw_weights()[k - 1]` (the cards of that kind left); apply the face
    /// drawn with [`GameState::roll`]. [`SeededDice::draw`] samples it.
    Draw,
    /// A seat must choose one of the legal actions.
    Decide(Seat),
    /// The game is over.
    Over,
}

impl Next {
    /// The node of a game without chance: over, or `seat`'s decision.
    #[inline]
    pub const fn decide_unless(over: bool, seat: Seat) -> Next {
        if over { Next::Over } else { Next::Decide(seat) }
    }
}

/// Final scores and winners.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Score of each seat.
    pub scores: Vec<i32>,
    /// Every seat with the highest score (several on a tie).
    pub winners: Vec<Seat>,
}

impl Outcome {
    pub fn from_scores(scores: Vec<i32>) -> Outcome {
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners = (0..scores.len())
            .filter(|&s| scores[s] == best)
            .map(|s| s as Seat)
            .collect();
        Outcome { scores, winners }
    }
}

/// Why an action or a roll was refused. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The node is a chance node: a roll was expected.
    ExpectedRoll { die: Die },
    /// The node is a decision: an action was expected.
    ExpectedAction { seat: Seat },
    /// The game is over.
    GameOver,
    /// The face cannot show on the die being rolled.
    FaceOutOfRange { die: Die, face: u8 },
    /// The action is not legal here; `reason` says why in words.
    Illegal { reason: String },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::ExpectedRoll { die } => {
                write!(f, "a roll of the {die} is expected, not a decision")
            }
            Refusal::ExpectedAction { seat } => {
                write!(f, "a decision of seat {} is expected, not a roll", seat + 1)
            }
            Refusal::GameOver => write!(f, "the game is over"),
            Refusal::FaceOutOfRange { die, face } => {
                write!(f, "a {die} has faces 1 to {}, not {face}", die.sides())
            }
            Refusal::Illegal { reason } => f.write_str(reason),
        }
    }
}

impl std::error::Error for Refusal {}

/// One node of a game, and the moves out of it.
pub trait GameState: Clone {
    /// A decision a seat can make. Small and `Copy`.
    type Action: Copy + Eq + Debug;

    /// Number of seats.
    fn seats(&self) -> usize;

    /// Who acts next.
    fn next(&self) -> Next;

    /// Every legal action at a decision node, into `out` (cleared first).
    /// Empty at chance and terminal nodes.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// Apply a legal action; a refused action leaves the state unchanged.
    fn play(&mut self, action: Self::Action) -> Result<(), Refusal>;

    /// Apply an action known to be legal (from [`GameState::legal_actions`] or
    /// [`GameState::random_action`]). An illegal action may corrupt the state.
    fn play_unchecked(&mut self, action: Self::Action);

    /// Apply a face of the die named by the chance node, or the card drawn
    /// at a draw node; refused when the node is neither, the face cannot show
    /// or no card of that kind is left.
    fn roll(&mut self, face: u8) -> Result<(), Refusal>;

    /// At a [`Next::Draw`] node, the weight of each face `1..=n` (index 0 is
    /// face 1): how many cards of each kind are left in the deck drawn from.
    /// Empty at every other node, and in games without cards.
    fn draw_weights(&self) -> &[u32] {
        &[]
    }

    /// Apply a face known to show on the die named by the chance node (from
    /// [`SeededDice::roll`] of that die): the fast path of simulation. A face
    /// that cannot show may corrupt the state.
    fn roll_unchecked(&mut self, face: u8) {
        self.roll(face)
            .expect("a face of the named die is always accepted");
    }

    /// A legal action drawn at random, without necessarily building the whole
    /// list: the fast path of random play. Not necessarily uniform.
    fn random_action(&self, dice: &mut SeededDice) -> Self::Action;

    /// Scores and winners once the game is over.
    fn outcome(&self) -> Option<Outcome>;
}

/// Play a game to its end with seeded dice and random decisions; returns the
/// number of steps (rolls plus actions). The reference loop for random play.
pub fn play_out_random<G: GameState>(state: &mut G, dice: &mut SeededDice) -> u64 {
    let mut steps = 0;
    loop {
        match state.next() {
            Next::Chance(die) => {
                let face = dice.roll(die);
                state.roll_unchecked(face);
            }
            Next::Draw => {
                let face = dice.draw(state.draw_weights());
                state.roll_unchecked(face);
            }
            Next::Decide(_) => {
                let a = state.random_action(dice);
                state.play_unchecked(a);
            }
            Next::Over => return steps,
        }
        steps += 1;
    }
}
