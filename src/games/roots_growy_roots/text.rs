//! Roots Growy Roots in words: card names, actions, the drawn board, what a
//! node waits for, the evaluation and the statistics.

use crate::core::count;
use crate::core::protocol::{GameState, Next, Seat};

use super::rules::{Artifact, cell_name, parse_cell};
use super::state::{
    Action, DRIED, EndReason, FIRST_ARTIFACT, HIDDEN, MAX_SEATS, RUBBLE, SEED, State,
};

/// A card's name (a draw face, or [`SEED`]).
pub fn card_name(face: u8) -> &'static str {
    match face {
        1 => "earth",
        2 => "fertilizer",
        3 => "water",
        4 => "stone",
        f if (FIRST_ARTIFACT..FIRST_ARTIFACT + 5).contains(&f) => {
            Artifact::ALL[usize::from(f - FIRST_ARTIFACT)].key()
        }
        SEED => "seed",
        RUBBLE => "rubble",
        DRIED => "dried water",
        _ => "no card",
    }
}

/// A card's name typed at the table back to its face.
pub fn parse_card(text: &str) -> Result<u8, String> {
    let t = text.trim().to_ascii_lowercase();
    let face = match t.as_str() {
        "earth" | "dirt" | "normal" | "e" => 1,
        "fertilizer" | "fertiliser" | "f" => 2,
        "water" | "w" => 3,
        "stone" | "s" => 4,
        "skry" | "skrying runes" | "runes" => 5,
        "jump" | "flight of hermes" | "hermes" => 6,
        "deny" | "medusa" => 7,
        "destroy" | "hammer" => 8,
        "dry" | "sceptre" => 9,
        _ => {
            let cards = [
                "earth",
                "fertilizer",
                "water",
                "stone",
                "skry",
                "jump",
                "deny",
                "destroy",
                "dry",
            ];
            let guess = crate::core::did_you_mean(&t, &cards)
                .map(|c| format!(" (did you mean `{c}`?)"))
                .unwrap_or_default();
            return Err(format!(
                "expected a card: earth, fertilizer, water, stone, or an artifact (skry, jump, deny, destroy, dry); not `{}`{guess}",
                text.trim()
            ));
        }
    };
    Ok(face)
}

/// A deck's name: the main deck, or a seat's start area.
pub fn deck_name(_state: &State, deck: usize) -> String {
    if deck == 0 {
        "the main deck".to_owned()
    } else {
        format!("seat {}'s start deck", deck)
    }
}

fn name(state: &State, cell: u16) -> String {
    cell_name(state.geo().columns, cell)
}

/// A move from a connector to a cell: its word (`""`, `bridge`, `jump`) and
/// its cells.
fn move_parts(action: Action) -> Option<(&'static str, u16, u16)> {
    match action {
        Action::Grow { from, to } => Some(("", from, to)),
        Action::Bridge { from, to } => Some(("bridge", from, to)),
        Action::Jump { from, to } => Some(("jump", from, to)),
        _ => None,
    }
}

/// Whether `action` is the only legal one of its kind reaching its cell
/// (then its short text, the cell alone, names it). Among the moves before
/// any house rule's filter: a filter's failure names its move in these
/// words, so they must not run the filter again.
fn unique_to(state: &State, action: Action) -> bool {
    let mut legal = Vec::new();
    state.legal_plain(&mut legal);
    let key = |a: Action| move_parts(a).map(|(w, _, to)| (w, to));
    legal.contains(&action) && legal.iter().filter(|a| key(**a) == key(action)).count() == 1
}

/// Whether no connector the seat may move from reaches the cell of
/// `action` (a grow one cell away, a bridge or jump two in a line): the
/// move is then named by its cell alone, as it was typed.
fn out_of_reach(state: &State, action: Action) -> bool {
    move_parts(action).is_some_and(|(word, _, to)| {
        let steps = if word.is_empty() { 1 } else { 2 };
        state
            .sources()
            .iter()
            .all(|&c| state.geo().distance(c, to) != Some(steps))
    })
}

/// `D6` (or `D5-D6` when several connectors reach D6), `bridge D6`, `jump
/// D6`, `end`; the abilities `skry D6`, `deny 2` (a seat), `destroy D6`,
/// `dry D6`.
pub fn format_action(state: &State, action: Action) -> String {
    let cell_action = |word: &str, at: u16| format!("{word} {}", name(state, at));
    match action {
        Action::End => "end".to_owned(),
        Action::Skry { at } => cell_action("skry", at),
        Action::Destroy { at } => cell_action("destroy", at),
        Action::Dry { at } => cell_action("dry", at),
        Action::Deny { seat } => format!("deny {}", u16::from(seat) + 1),
        Action::Grow { .. } | Action::Bridge { .. } | Action::Jump { .. } => {
            let Some((word, from, to)) = move_parts(action) else {
                return String::new();
            };
            let cells = if unique_to(state, action) || out_of_reach(state, action) {
                name(state, to)
            } else {
                format!("{}-{}", name(state, from), name(state, to))
            };
            if word.is_empty() {
                cells
            } else {
                format!("{word} {cells}")
            }
        }
    }
}

pub fn parse_action(state: &State, text: &str) -> Result<Action, String> {
    let t = text.trim().to_ascii_lowercase();
    if matches!(t.as_str(), "end" | "pass" | "stop" | "done") {
        return Ok(Action::End);
    }
    let g = state.geo();
    let cell = |s: &str| {
        parse_cell(g.rows, g.columns, s).ok_or_else(|| {
            format!(
                "expected a cell like D6 (row A to {}, column 1 to {}), found `{}`",
                char::from(b'A' + g.rows - 1),
                g.columns,
                s.trim()
            )
        })
    };
    let (word, rest) = match t.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (t.as_str(), ""),
    };
    let need = |what: &str| {
        if rest.is_empty() {
            Err(format!(
                "expected {what} after `{word}`, like `{word} {}`",
                if what == "a seat" { "2" } else { "D6" }
            ))
        } else {
            Ok(rest)
        }
    };
    match word {
        "skry" | "runes" => {
            return Ok(Action::Skry {
                at: cell(need("a cell")?)?,
            });
        }
        "destroy" | "hammer" | "smash" => {
            return Ok(Action::Destroy {
                at: cell(need("a cell")?)?,
            });
        }
        "dry" | "sceptre" => {
            return Ok(Action::Dry {
                at: cell(need("a cell")?)?,
            });
        }
        "deny" | "medusa" => {
            let r = need("a seat")?;
            let r = r.strip_prefix("seat").unwrap_or(r).trim();
            let n: u16 = r
                .parse()
                .ok()
                .filter(|n| (1..=state.seats() as u16).contains(n))
                .ok_or_else(|| {
                    format!(
                        "expected a seat from 1 to {} after `deny`, found `{r}`",
                        state.seats()
                    )
                })?;
            return Ok(Action::Deny {
                seat: (n - 1) as u8,
            });
        }
        _ => {}
    }
    let (kind, rest) = match word {
        // `grow D6` says what the cell alone says.
        "grow" => ("", need("a cell")?),
        "bridge" => ("bridge", need("a cell")?),
        "jump" | "hermes" => ("jump", need("a cell")?),
        _ => ("", t.as_str()),
    };
    let make = |from: u16, to: u16| match kind {
        "bridge" => Action::Bridge { from, to },
        "jump" => Action::Jump { from, to },
        _ => Action::Grow { from, to },
    };
    if let Some((a, b)) = rest.split_once('-') {
        return Ok(make(cell(a)?, cell(b)?));
    }
    let to = cell(rest)?;
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let found: Vec<(u16, Action)> = legal
        .into_iter()
        .filter_map(|a| match move_parts(a) {
            Some((w, from, t)) if w == kind && t == to => Some((from, a)),
            _ => None,
        })
        .collect();
    let prefix = if kind.is_empty() {
        String::new()
    } else {
        format!("{kind} ")
    };
    match found.as_slice() {
        [(_, one)] => Ok(*one),
        // Understood, but refused: the move from a connector the cell is in
        // reach of, or when none is from the first, for the engine to say
        // why (`illegal: ...`, which connectors reach the cell and where
        // the seat's moves go), not "not understood".
        [] if let Some(&from) = state
            .sources()
            .iter()
            .filter(|&&from| {
                let steps = if kind.is_empty() { 1 } else { 2 };
                state.geo().distance(from, to) == Some(steps)
            })
            .chain(state.sources().first())
            .find(|&&from| state.refusal(make(from, to)).is_some()) =>
        {
            Ok(make(from, to))
        }
        [] => Err(format!(
            "no connector of yours can {} {} now",
            match kind {
                "bridge" => "bridge to",
                "jump" => "jump to",
                _ => "grow to",
            },
            name(state, to)
        )),
        many => Err(format!(
            "several connectors can reach {} ({}): type FROM-TO, like `{prefix}{}-{}`",
            name(state, to),
            many.iter()
                .map(|(from, _)| name(state, *from))
                .collect::<Vec<_>>()
                .join(", "),
            name(state, many[0].0),
            name(state, to)
        )),
    }
}

/// The letter of a seat's root on the board: `a`, `b`, ...
pub fn seat_letter(seat: Seat) -> char {
    crate::core::draw::seat_letter(seat)
}

fn card_char(face: u8) -> char {
    match face {
        HIDDEN => '?',
        1 => 'E',
        2 => 'F',
        3 => 'W',
        4 => 'S',
        5 => 'R',
        6 => 'H',
        7 => 'M',
        8 => 'T',
        9 => 'Y',
        SEED => '*',
        RUBBLE => '%',
        DRIED => '~',
        _ => '!',
    }
}

/// The board as text: each cell two characters (the root's seat letter or
/// `.`, then the card: `?` face down, E earth, F fertilizer, W water, S stone,
/// `*` seed, R H M T Y the artifacts), sticks drawn between cells (`-`, `|`,
/// `\`, `/`). Then the bridges, and each seat's score, water, hand and sticks.
pub fn draw(state: &State) -> String {
    let g = state.geo();
    let (rows, cols) = (usize::from(g.rows), usize::from(g.columns));
    let width = cols * 3;
    let mut canvas = vec![vec![' '; width]; rows * 2 - 1];
    let mut bridges = Vec::new();
    for cell in 0..rows * cols {
        let (r, c) = (cell / cols, cell % cols);
        let c16 = cell as u16;
        let owner = state
            .connector(c16)
            .map_or('.', |s| seat_letter(s).to_ascii_lowercase());
        canvas[r * 2][c * 3] = owner;
        canvas[r * 2][c * 3 + 1] = card_char(state.card(c16));
        let Some(p) = state.parent(c16) else { continue };
        let (pr, pc) = (usize::from(p) / cols, usize::from(p) % cols);
        if state.is_bridge(c16) {
            let (mr, mc) = ((r + pr) / 2, (c + pc) / 2);
            bridges.push(format!(
                "{} {}{}-{} over {}",
                owner,
                if state.is_jump(c16) { "jump " } else { "" },
                name(state, p),
                name(state, c16),
                name(state, (mr * cols + mc) as u16)
            ));
            continue;
        }
        let (r0, c0, r1, c1) = (r.min(pr), c.min(pc), r.max(pr), c.max(pc));
        if r0 == r1 {
            canvas[r0 * 2][c0 * 3 + 2] = '-';
        } else if c0 == c1 {
            canvas[r0 * 2 + 1][c0 * 3] = '|';
        } else {
            let down_right = (r == r0) == (c == c0);
            canvas[r0 * 2 + 1][c0 * 3 + 2] = if down_right { '\\' } else { '/' };
        }
    }
    let mut out = String::new();
    out.push_str("    ");
    for c in 0..cols {
        out.push_str(&format!("{:<3}", c + 1));
    }
    out.push('\n');
    for (i, line) in canvas.iter().enumerate() {
        let label = if i % 2 == 0 {
            format!("{:>2}  ", char::from(b'A' + (i / 2) as u8))
        } else {
            "    ".to_owned()
        };
        let text: String = line.iter().collect();
        out.push_str(&format!("{label}{}\n", text.trim_end()));
    }
    out.push_str(
        "? face down  E earth  F fertilizer  W water  S stone  * seed  R H M T Y artifacts (skry jump deny destroy dry)\n",
    );
    let abilities = state.rules().artifacts.abilities;
    if abilities {
        out.push_str("% a smashed stone (as earth)  ~ a dried water (as earth)\n");
    }
    if !bridges.is_empty() {
        out.push_str(&format!("bridges: {}\n", bridges.join(", ")));
    }
    let scores = state.scores();
    for s in 0..state.seats() as u8 {
        let (hand, sticks) = holdings(state, s);
        out.push_str(&format!(
            "seat {} ({}): score {}, {} water, artifacts: {}, {sticks}\n",
            s + 1,
            seat_letter(s).to_ascii_lowercase(),
            scores[usize::from(s)],
            state.waters(s),
            hand,
        ));
    }
    out
}

/// What the node waits for.
pub fn describe_node(state: &State) -> String {
    match state.next() {
        Next::Over => {
            let why = match state.end() {
                Some(EndReason::LastArtifact) => "the last artifact was found",
                Some(EndReason::AllClaimed) => "every artifact is claimed",
                Some(EndReason::Blocked) => "nobody can grow",
                Some(EndReason::RoundLimit) => "the round limit",
                Some(EndReason::Script) => "a house rule ended it",
                Some(EndReason::ScriptError) => "a house rule failed",
                None => "over",
            };
            format!("the game is over ({why})")
        }
        Next::Draw => {
            let to = state.drawing_at().unwrap_or(0);
            let by = if state.revealing().is_some() {
                " by the skrying runes"
            } else {
                ""
            };
            let d = usize::from(state.geo().deck_of[usize::from(to)]);
            let left: u32 = state.deck(d).iter().sum();
            format!(
                "the card at {} is turned over{by} ({}, {} left)",
                name(state, to),
                deck_name(state, d),
                count(left, "card", "cards")
            )
        }
        Next::Chance(_) => "a roll".to_owned(),
        Next::Decide(s) => {
            let what = match state.current() {
                Some(c) => format!(
                    "seat {} grows on from {} ({})",
                    s + 1,
                    name(state, c),
                    sticks_words(state.sticks())
                ),
                None => {
                    let skipped: Vec<String> = state
                        .skipped()
                        .map(|k| format!("seat {}'s turn was skipped (deny); ", k + 1))
                        .collect();
                    format!(
                        "{}seat {} starts a turn with {}: grow from any connector",
                        skipped.concat(),
                        s + 1,
                        sticks_words(state.sticks())
                    )
                }
            };
            what + ready_note(state, s).as_str()
        }
    }
}

/// `; artifacts ready: jump D6, skry D6, ...` when the mover may use one.
fn ready_note(state: &State, seat: Seat) -> String {
    let usable = state.usable(seat);
    if usable == 0 {
        return String::new();
    }
    let forms: Vec<&str> = Artifact::ALL
        .into_iter()
        .filter(|&a| usable & (1 << a as u8) != 0)
        .map(|a| match a {
            Artifact::Skry => "skry CELL (turn over a face-down card and its face-down neighbours)",
            Artifact::Jump => "jump CELL (1 stick, two cells in a line, over anything)",
            Artifact::Deny => "deny SEAT (skip that player's next turn)",
            Artifact::Destroy => "destroy CELL (smash a stone next to your root)",
            Artifact::Dry => "dry CELL (dry a water that is not yours)",
        })
        .collect();
    format!("; artifacts ready (once each): {}", forms.join("; "))
}

/// How the generic bots play this game (their playouts: `Game::playout`):
/// the search expands moves best first by greedy's prices
/// (`Game::action_values`), with progressive widening (about `3 sqrt(n)`
/// children after `n` visits), a new child starting from 4 virtual visits
/// of its price, and explores less than the generic default (0.35 for
/// 0.7: on `rgr-artifacts`, `rgr-3p` and `rgr-4p`, seeds 11-13, `mcts:100`
/// scored 56.0-57.2% against greedy, against 52.3-53.5%; a widening of 2
/// or a prior of 8 did no better). Greedy keeps exact ties only.
pub const STYLE: crate::core::player::Style = crate::core::player::Style::guided(3.0, 4.0, 0.35);

/// Static evaluation for `seat`: its score less the best other score, plus
/// a little for sticks in hand and open cells next to its root. At a draw
/// node, the exact expectation over the cards left (no peeking: the state
/// holds no identity before the draw).
pub fn evaluate(state: &State, seat: Seat) -> f64 {
    if state.next() == Next::Draw {
        let total: u32 = state.draw_weights().iter().sum();
        if total == 0 {
            return 0.0;
        }
        let mut sum = 0.0;
        each_card(state, |w, next| {
            sum += f64::from(w) * static_eval(next, seat)
        });
        return sum / f64::from(total);
    }
    static_eval(state, seat)
}

thread_local! {
    /// The copy [`each_card`] turns each card over on, refilled with
    /// `clone_from` (no allocation once its buffers have grown).
    static SCRATCH: std::cell::RefCell<Option<State>> = const { std::cell::RefCell::new(None) };
}

/// At a card being drawn: `f(cards of the kind left, the position after
/// it)` for each kind of card left, in the deck's order, each turned over
/// on one scratch copy of `state`.
fn each_card(state: &State, mut f: impl FnMut(u32, &State)) {
    SCRATCH.with_borrow_mut(|slot| {
        for (k, &w) in state.draw_weights().iter().enumerate() {
            if w == 0 {
                continue;
            }
            let next = state.copy_into(slot);
            if next.roll(k as u8 + 1).is_ok() {
                f(w, next);
            }
        }
    });
}

/// Every seat's [`evaluate`], seat 1 first, into `out`, from one reading
/// of the position: the scores worked out once; at a card being drawn for
/// a stick, each card's outcome worked out as the greedy bot prices a move
/// (without a copy), else played on one copy per card for all the seats.
/// The same values, to the bit (checked in debug builds).
pub fn evaluate_all(state: &State, out: &mut Vec<f64>) {
    let seats = state.seats();
    out.clear();
    if state.next() != Next::Draw {
        let scores = scores_now(state);
        out.extend((0..seats as Seat).map(|s| static_with(state, &scores[..seats], s)));
    } else if !super::greedy::draw_values(state, out) {
        out.resize(seats, 0.0);
        let total: u32 = state.draw_weights().iter().sum();
        if total != 0 {
            each_card(state, |w, next| {
                let scores = scores_now(next);
                for (s, v) in out.iter_mut().enumerate() {
                    *v += f64::from(w) * static_with(next, &scores[..seats], s as Seat);
                }
            });
            for v in out.iter_mut() {
                *v /= f64::from(total);
            }
        }
    }
    debug_assert!(
        out.iter()
            .enumerate()
            .all(|(s, v)| v.to_bits() == evaluate(state, s as Seat).to_bits()),
        "{out:?} read at once, {:?} seat by seat",
        (0..seats as Seat)
            .map(|s| evaluate(state, s))
            .collect::<Vec<_>>()
    );
}

/// Every seat's score, from one score table.
fn scores_now(state: &State) -> [i32; MAX_SEATS] {
    let table = state.score_table(|s| state.figures(s));
    let mut scores = [0; MAX_SEATS];
    for (slot, parts) in scores.iter_mut().zip(&table) {
        *slot = parts.iter().sum();
    }
    scores
}

fn static_eval(state: &State, seat: Seat) -> f64 {
    let scores = scores_now(state);
    static_with(state, &scores[..state.seats()], seat)
}

/// [`static_eval`] with every seat's score given.
fn static_with(state: &State, scores: &[i32], seat: Seat) -> f64 {
    let mine = scores.get(usize::from(seat)).copied().unwrap_or(0);
    let held = if state.to_move() == seat && state.end().is_none() {
        state.sticks()
    } else {
        state.kept(seat)
    };
    let (others_skipped, skipped) = skips(state, seat);
    judge(&Judged {
        mine,
        best_other: best_other(scores, seat),
        held,
        root: state.roots(seat).len(),
        waters: state.waters(seat),
        ready: state.usable(seat).count_ones(),
        others_skipped,
        skipped,
    })
}

/// The other seats whose next turn is skipped, and 1 when `seat`'s is.
pub(super) fn skips(state: &State, seat: Seat) -> (f64, f64) {
    let skipped = |s: Seat| if state.frozen(s) { 1.0 } else { 0.0 };
    let others: f64 = (0..state.seats() as u8)
        .filter(|&s| s != seat)
        .map(skipped)
        .sum();
    (others, skipped(seat))
}

/// The best score of the seats but `seat` (0 alone).
pub(super) fn best_other(scores: &[i32], seat: Seat) -> i32 {
    scores
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != usize::from(seat))
        .map(|(_, &v)| v)
        .max()
        .unwrap_or(0)
}

/// What the static evaluation reads of a position, for one seat (the
/// greedy bot works these out for a move without playing it).
#[derive(Clone, Copy, Debug)]
pub(super) struct Judged {
    pub mine: i32,
    pub best_other: i32,
    /// Sticks in hand on its turn, else kept for its next.
    pub held: u32,
    /// Connectors in its root.
    pub root: usize,
    pub waters: u16,
    /// Abilities it holds and may still use.
    pub ready: u32,
    /// The other seats whose next turn is skipped.
    pub others_skipped: f64,
    /// 1 when its own next turn is skipped.
    pub skipped: f64,
}

/// The static evaluation of what it reads.
pub(super) fn judge(j: &Judged) -> f64 {
    // An ability not yet used is worth a little (it can still be played),
    // less than the point it might win, so a one-ply bot keeps it until it
    // gains something; a skipped turn costs about a turn's growth.
    f64::from(j.mine - j.best_other)
        + 0.05 * f64::from(j.held)
        + 0.02 * j.root as f64
        + 0.3 * f64::from(j.waters)
        + 0.25 * f64::from(j.ready)
        + 0.5 * (j.others_skipped - j.skipped)
}

/// Why the game ended, as a key of `END_REASONS`.
pub fn end_reason(state: &State) -> usize {
    match state.end() {
        Some(EndReason::LastArtifact) | None => 0,
        Some(EndReason::AllClaimed) => 1,
        Some(EndReason::Blocked) => 2,
        Some(EndReason::RoundLimit) => 3,
        Some(EndReason::Script) => 4,
        Some(EndReason::ScriptError) => 5,
    }
}

/// The counters, by key.
pub fn counters(state: &State) -> Vec<(&'static str, i64)> {
    let t = state.tally;
    let parts = state.score_parts();
    let total = |k: usize| parts.iter().map(|p| i64::from(p[k])).sum::<i64>();
    // Would the winners differ without bonus `k`?
    let decided = |k: usize| {
        let with: Vec<i32> = parts.iter().map(|p| p.iter().sum()).collect();
        let without: Vec<i32> = parts.iter().map(|p| p.iter().sum::<i32>() - p[k]).collect();
        i64::from(winners(&with) != winners(&without))
    };
    let mut named = Vec::with_capacity(15);
    named.push(("rounds", i64::from(state.round())));
    named.extend(crate::named_counts!(t:
        turns,
        sticks_spent,
        sticks_lost,
        bridges,
        stones_hit,
        cards_turned,
        voluntary_ends,
        blocked_turns
    ));
    named.extend([
        ("water_points", total(0)),
        ("artifact_points", total(1)),
        ("branch_points", total(2)),
        ("longest_points", total(3)),
        ("decided_by_branches", decided(2)),
        ("decided_by_longest", decided(3)),
    ]);
    named
}

/// [`counters`]' values in the order of the game's `COUNTERS` (turns,
/// rounds, the tally, the points, the bonuses that decided), read without
/// naming them or allocating but the result: what a simulation keeps of
/// every game. The same values as [`counters`] through
/// [`crate::games::counts_in_order`] (checked in debug builds).
pub fn counter_values(state: &State) -> Vec<u32> {
    let t = state.tally;
    let seats = state.seats();
    let table = state.score_table(|s| state.figures(s));
    let parts = &table[..seats];
    let total = |k: usize| parts.iter().map(|p| i64::from(p[k])).sum::<i64>();
    // The seats on top of `score`, one bit each.
    let top = |score: &dyn Fn(&[i32; 4]) -> i32| -> u32 {
        let best = parts.iter().map(score).max().unwrap_or(0);
        (0..seats)
            .filter(|&s| score(&parts[s]) == best)
            .fold(0, |m, s| m | 1 << s)
    };
    let with = top(&|p| p.iter().sum());
    let decided = |k: usize| i64::from(with != top(&|p| p.iter().sum::<i32>() - p[k]));
    let count = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
    [
        i64::from(t.turns),
        i64::from(state.round()),
        i64::from(t.sticks_spent),
        i64::from(t.sticks_lost),
        i64::from(t.bridges),
        i64::from(t.stones_hit),
        i64::from(t.cards_turned),
        i64::from(t.voluntary_ends),
        i64::from(t.blocked_turns),
        total(0),
        total(1),
        total(2),
        total(3),
        decided(2),
        decided(3),
    ]
    .into_iter()
    .map(count)
    .collect()
}

fn winners(scores: &[i32]) -> Vec<usize> {
    let best = scores.iter().copied().max().unwrap_or(0);
    (0..scores.len()).filter(|&s| scores[s] == best).collect()
}

/// "1 stick", "3 sticks".
pub fn sticks_words(n: u32) -> String {
    count(n, "stick", "sticks")
}

/// What seat `s` holds, in words: its artifacts ("none", or "skry, dry",
/// each marked ready or used under the abilities house rule) and its sticks
/// ("2 sticks in hand", "1 stick kept", with a skipped next turn said).
pub fn holdings(state: &State, s: Seat) -> (String, String) {
    let abilities = state.rules().artifacts.abilities;
    let hand: Vec<String> = state
        .hand(s)
        .iter()
        .map(|&a| match (abilities, state.used(a)) {
            (true, true) => format!("{} (used)", a.key()),
            (true, false) => format!("{} (ready)", a.key()),
            _ => a.key().to_owned(),
        })
        .collect();
    let hand = if hand.is_empty() {
        "none".to_owned()
    } else {
        hand.join(", ")
    };
    let mut sticks = if state.to_move() == s && state.end().is_none() {
        format!("{} in hand", sticks_words(state.sticks()))
    } else {
        format!("{} kept", sticks_words(state.kept(s)))
    };
    if state.frozen(s) {
        sticks.push_str(", next turn skipped (deny)");
    }
    (hand, sticks)
}
