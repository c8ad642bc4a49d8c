//! What one game came to: its scores, winner, way to end, counts and
//! measures ([`GameResult`], a row of `simulate --out`), from a finished
//! state or a forfeit.

use serde::Serialize;

use crate::bots::BotSpec;
use crate::core::protocol::{GameState, Seat};
use crate::games::{Game, Stat};

use super::measures;

/// The way a game ends when an external player forfeits it (crashed, too
/// slow, an illegal move): not one of the game's own ways to end.
pub const FORFEIT: Stat = Stat::new("forfeit", "a player forfeited", "forfeit");

/// What one game came to: a row of `--out`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Index of the game in the run, from 0.
    pub game: u64,
    /// The bot of each seat.
    pub bots: Vec<String>,
    pub scores: Vec<i32>,
    /// The sole winner, or none on a tie.
    pub winner: Option<Seat>,
    /// Seats sharing the top score.
    pub top: Vec<Seat>,
    /// How the game ended: an index into `end_reasons`.
    pub end_reason: usize,
    /// The game's ways to end ([`Game::END_REASONS`]).
    pub end_reasons: &'static [Stat],
    /// The game's counts, in the order of `counter_names`.
    pub counters: Vec<u32>,
    /// What the counts are ([`Game::COUNTERS`]).
    pub counter_names: &'static [Stat],
    /// Top score minus the next best (0 on a tie).
    pub margin: u32,
    /// The seat that forfeited the game and why (an external player that
    /// crashed, did not answer in time or answered an illegal move): it
    /// loses, the others are ranked by their scores when it stopped.
    pub forfeit: Option<(Seat, String)>,
    /// Why a house rule (a script) stopped the game, if one did
    /// ([`Game::script_failure`]); the game counts as ended by `script_error`.
    pub script_failure: Option<String>,
    /// The game's evaluation measures and rule events ([`measures`]).
    pub measures: measures::GameMeasures,
}

impl Serialize for GameResult {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let extra = usize::from(self.forfeit.is_some()) * 2;
        let mut m = serializer.serialize_map(Some(7 + self.counters.len() + extra))?;
        m.serialize_entry("game", &self.game)?;
        m.serialize_entry("bots", &self.bots)?;
        m.serialize_entry("scores", &self.scores)?;
        // Seats from 1, as in the CSV form and everywhere a person reads them.
        m.serialize_entry("winner", &self.winner.map(|w| u32::from(w) + 1))?;
        let top: Vec<u32> = self.top.iter().map(|&s| u32::from(s) + 1).collect();
        m.serialize_entry("top", &top)?;
        m.serialize_entry("end_reason", self.end_reason_key())?;
        for (name, value) in self.counter_names.iter().zip(&self.counters) {
            m.serialize_entry(name.key, value)?;
        }
        m.serialize_entry("margin", &self.margin)?;
        if let Some((seat, why)) = &self.forfeit {
            m.serialize_entry("forfeit_seat", &(u16::from(*seat) + 1))?;
            m.serialize_entry("forfeit", why)?;
        }
        if let Some(chances) = &self.measures.chances {
            // `simulate --trace-measures`: the measures and the rows of
            // win chances they came from.
            let values: serde_json::Map<String, serde_json::Value> = measures::PER_GAME
                .iter()
                .zip(&self.measures.values)
                .map(|(d, v)| (d.key.to_owned(), serde_json::json!(v)))
                .collect();
            m.serialize_entry("measures", &values)?;
            let rows: Vec<&[f64]> = chances.chunks(self.scores.len().max(1)).collect();
            m.serialize_entry("chances", &rows)?;
        }
        m.end()
    }
}

impl GameResult {
    /// The key of the way the game ended (`beads_out`).
    pub fn end_reason_key(&self) -> &'static str {
        if self.forfeit.is_some() {
            return FORFEIT.key;
        }
        self.end_reasons.get(self.end_reason).map_or("?", |s| s.key)
    }

    /// The count named `key` (`rounds`), if the game counts it.
    pub fn counter(&self, key: &str) -> Option<u32> {
        self.counter_names
            .iter()
            .position(|s| s.key == key)
            .and_then(|i| self.counters.get(i).copied())
    }

    /// The header of the CSV form, for game `G`.
    pub fn csv_header<G: Game>(players: u8) -> Vec<String> {
        let mut h = vec!["game".to_string()];
        h.extend((1..=players).map(|s| format!("bot_{s}")));
        h.extend((1..=players).map(|s| format!("score_{s}")));
        h.push("winner".into());
        h.push("end_reason".into());
        h.extend(G::COUNTERS.iter().map(|c| c.key.to_string()));
        h.push("margin".into());
        h
    }

    /// One CSV row (seats numbered from 1; the winner column is empty on a
    /// tie), as fields: write them with a CSV writer, which quotes.
    pub fn csv_row(&self) -> Vec<String> {
        let mut r = vec![self.game.to_string()];
        r.extend(self.bots.iter().cloned());
        r.extend(self.scores.iter().map(i32::to_string));
        r.push(self.winner.map_or(String::new(), |w| (w + 1).to_string()));
        r.push(self.end_reason_key().to_string());
        r.extend(self.counters.iter().map(u32::to_string));
        r.push(self.margin.to_string());
        r
    }
}

/// The result of a finished game, with its measures from `trace`.
pub fn result_of<G: Game>(
    state: &G::State,
    game: u64,
    bots: &[BotSpec],
    trace: measures::Trace<G>,
) -> GameResult {
    let scores: Vec<i32> = G::scores(state);
    // The winners are the game's own: its tie rule (Sprout-R-Out's
    // `rules.tie = "mover-wins"`) may give equal scores to one seat.
    let top: Vec<Seat> = match state.outcome() {
        Some(o) if !o.winners.is_empty() => o.winners,
        _ => crate::core::protocol::Outcome::from_scores(scores.clone()).winners,
    };
    let best = top.first().map_or(0, |&s| scores[usize::from(s)]);
    let second = scores
        .iter()
        .enumerate()
        .filter(|(s, _)| top.len() > 1 || !top.contains(&(*s as Seat)))
        .map(|(_, &v)| v)
        .max()
        .unwrap_or(best);
    GameResult {
        game,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        winner: (top.len() == 1).then(|| top[0]),
        margin: u32::try_from(i64::from(best) - i64::from(second)).unwrap_or(0),
        scores,
        end_reason: G::end_reason(state),
        end_reasons: G::END_REASONS,
        counters: G::counters(state),
        counter_names: G::COUNTERS,
        forfeit: None,
        script_failure: G::script_failure(state),
        measures: trace.finish(state, &top),
        top,
    }
}

/// The result of a game seat `loser` forfeited: it loses; of the other
/// seats, the best score now wins (a tie when several share it). The counts
/// are the game's so far.
pub fn forfeited<G: Game>(
    state: &G::State,
    game: u64,
    bots: &[BotSpec],
    loser: Seat,
    why: String,
    trace: measures::Trace<G>,
) -> GameResult {
    let scores: Vec<i32> = G::scores(state);
    let others: Vec<(Seat, i32)> = (0..scores.len())
        .map(|s| s as Seat)
        .filter(|&s| s != loser)
        .map(|s| (s, scores[usize::from(s)]))
        .collect();
    let best = others.iter().map(|&(_, v)| v).max().unwrap_or(0);
    let top: Vec<Seat> = others
        .iter()
        .filter(|&&(_, v)| v == best)
        .map(|&(s, _)| s)
        .collect();
    let second = others
        .iter()
        .filter(|&&(s, _)| top.len() > 1 || Some(&s) != top.first())
        .map(|&(_, v)| v)
        .chain(std::iter::once(scores[usize::from(loser)]))
        .max()
        .unwrap_or(best);
    GameResult {
        game,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        winner: (top.len() == 1).then(|| top[0]),
        margin: u32::try_from(i64::from(best) - i64::from(second)).unwrap_or(0),
        scores,
        end_reason: usize::MAX,
        end_reasons: G::END_REASONS,
        counters: G::counters(state),
        counter_names: G::COUNTERS,
        forfeit: Some((loser, why)),
        script_failure: None,
        measures: trace.finish(state, &top),
        top,
    }
}
