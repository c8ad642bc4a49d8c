//! What both sides of the engine protocol write about a game (`docs/protocol.md`):
//! its name and version, a chance node and a state as JSON. The engine's
//! answers and the external players' messages ([`super::CmdPlayer`]) use
//! the same forms.

use serde_json::{Map, Value, json};

use crate::core::dice::Die;
use crate::core::protocol::{GameState, Next};
use crate::games::Game;

/// The `protocol` name every hello and start answer carries.
pub const PROTOCOL: &str = "roots-engine";
/// The protocol version this build speaks.
pub const VERSION: u64 = 1;

/// What a chance node draws from, in the protocol's words: the kind of
/// chance and its faces in text form (a die: `"1"`..`"6"`). A new kind of
/// chance (a weighted card draw, say) is one more arm here, with its own
/// `kind`, its faces' text and, where they are not equally likely, weights.
pub fn chance_json(die: Die) -> Value {
    json!({
        "kind": "die",
        "die": die.name(),
        "faces": (1..=die.sides()).map(|f| f.to_string()).collect::<Vec<_>>(),
    })
}

/// A node of game `G` as the protocol shows it. Seats count from 1.
///
/// `node` is `"chance"`, `"decision"` or `"over"`; `seat` whose turn it is
/// (at every node); `chance` (at a chance node) what is drawn; `legal` (at a
/// decision) the legal actions in text form; `outcome` once over; `board`
/// the drawing as text and, for a game that gives it, as structured data;
/// `scores` each seat's score now.
pub fn state_json<G: Game>(state: &G::State) -> Value {
    let mut m = Map::new();
    m.insert("game".into(), G::ID.into());
    m.insert("seats".into(), state.seats().into());
    let turn = u64::from(G::turn_seat(state)) + 1;
    match state.next() {
        Next::Chance(die) => {
            m.insert("node".into(), "chance".into());
            m.insert("seat".into(), turn.into());
            m.insert("chance".into(), chance_json(die));
        }
        Next::Draw => {
            // A card turned over: its kinds in the game's words, each
            // weighted by the cards of it left.
            m.insert("node".into(), "chance".into());
            m.insert("seat".into(), turn.into());
            let weights = state.draw_weights();
            let faces: Vec<String> = (1..=weights.len())
                .map(|f| G::format_draw(state, f as u8))
                .collect();
            m.insert(
                "chance".into(),
                json!({"kind": "draw", "faces": faces, "weights": weights}),
            );
        }
        Next::Decide(seat) => {
            m.insert("node".into(), "decision".into());
            m.insert("seat".into(), (u64::from(seat) + 1).into());
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            let texts: Vec<String> = legal.iter().map(|a| G::format_action(state, *a)).collect();
            m.insert("legal".into(), texts.into());
        }
        Next::Over => {
            m.insert("node".into(), "over".into());
            m.insert("seat".into(), turn.into());
            if let Some(o) = state.outcome() {
                let reason = G::END_REASONS
                    .get(G::end_reason(state))
                    .map_or("?", |r| r.key);
                m.insert(
                    "outcome".into(),
                    json!({
                        "scores": o.scores,
                        "winners": o.winners.iter().map(|w| u64::from(*w) + 1).collect::<Vec<_>>(),
                        "reason": reason,
                    }),
                );
            }
        }
    }
    m.insert("describe".into(), G::describe_node(state).into());
    let mut board = Map::new();
    if let Some(data) = G::board_data(state) {
        board.insert("data".into(), data);
    }
    board.insert("text".into(), G::draw(state).into());
    m.insert("board".into(), Value::Object(board));
    m.insert("scores".into(), G::scores(state).into());
    Value::Object(m)
}
