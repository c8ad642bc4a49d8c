//! The board as text, and reading such a drawing back (the scenario tests).
//!
//! ```text
//!      a   b   c   d   e   f   g   h
//!   4  .   .   .   .   .   .   .   .
//!   3  .   .   .   .   .   .   .   .
//!   2  .   .   A1S .   .   .   .   .
//!   1  .   X   R   B2W .   .   .   .
//!   board: 8x4
//!   A: score -1, coins 4, stash 4/5/5
//!   B: score 1, coins 6, stash 5/4/5
//!   coin resets: 0
//!   next: A places a pyramid
//! ```
//!
//! A cell is `.` (empty), `X` (a null), `R` (a root), or a pyramid: the
//! seat's letter, its size and the direction it points (`A1S`). On the zone
//! boards a `|` separates the zones, and a line says how they are joined.

use super::board::{Dir, Layout};
use super::rules::Rules;
use super::state::{EMPTY, MAX_SEATS, NULL, ROOT, State, as_pyramid, pyramid};

/// The token of a cell.
fn token(state: &State, c: u8) -> String {
    match state.content(c) {
        EMPTY => ".".into(),
        NULL => "X".into(),
        ROOT => "R".into(),
        v => match as_pyramid(v) {
            Some((seat, size, dir)) => {
                format!(
                    "{}{size}{}",
                    (b'A' + seat) as char,
                    Dir::from_index(dir).letter()
                )
            }
            None => "?".into(),
        },
    }
}

/// The board as monospaced text, with scores, coins, stashes and who is next.
pub fn draw(state: &State) -> String {
    let board = state.board();
    let zones = matches!(board.layout, Layout::Zones { .. });
    let mut out = String::from("    ");
    for col in 0..board.width {
        if zones && col > 0 && col % 4 == 0 {
            out.push_str("| ");
        }
        out.push_str(&format!(" {:<3}", (b'a' + col) as char));
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out.push('\n');
    for rank0 in (0..board.height).rev() {
        out.push_str(&format!("{:>3} ", rank0 + 1));
        for col in 0..board.width {
            if zones && col > 0 && col % 4 == 0 {
                out.push_str("| ");
            }
            let t = board
                .cell_at(col, rank0)
                .map_or_else(|| " ".to_string(), |c| token(state, c));
            out.push_str(&format!(" {t:<3}"));
        }
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        out.push('\n');
    }
    out.push_str(&format!("board: {}\n", board.describe()));
    if let Layout::Zones { zones, closed } = board.layout {
        let last = if closed { zones } else { zones - 1 };
        out.push_str(&format!(
            "joins: each zone's rank 1 going S enters the next zone's left column going up ({} joins{})\n",
            last,
            if closed { ", the last zone to the first" } else { ", the mouth open" }
        ));
    }
    let coins = state.coins();
    for s in 0..state.players() {
        let st = state.stash(s);
        out.push_str(&format!(
            "{}: score {}, coins {}, stash {}/{}/{}\n",
            (b'A' + s) as char,
            state.scores()[usize::from(s)],
            coins[usize::from(s)],
            st[0],
            st[1],
            st[2]
        ));
    }
    out.push_str(&format!("coin resets: {}\n", state.coin_resets()));
    out.push_str(&format!("next: {}\n", describe_node(state)));
    out
}

/// Who acts next, in words: `A places a null`, `over (board_full): B wins`.
pub fn describe_node(state: &State) -> String {
    let letter = |s: u8| (b'A' + s) as char;
    match state.end() {
        Some(end) => {
            let outcome = crate::core::protocol::Outcome::from_scores(state.scores());
            let names: Vec<String> = outcome
                .winners
                .iter()
                .map(|&s| letter(s).to_string())
                .collect();
            let reason = crate::games::Stat::words(
                <super::Branches as crate::games::Game>::END_REASONS,
                end.label(),
            );
            if names.len() == 1 {
                format!("over ({reason}): {} wins", names[0])
            } else {
                format!("over ({reason}): {} share the win", names.join(" and "))
            }
        }
        None => match state.setup_due() {
            Some(true) => format!("{} places a null", letter(state.to_move())),
            Some(false) => format!("{} places a root", letter(state.to_move())),
            None => format!("{} places a pyramid", letter(state.to_move())),
        },
    }
}

impl State {
    /// A position from a drawing in the format of [`draw`]. The board rows
    /// are required; seat lines may give stashes (else the starting stash less
    /// the pyramids drawn); scores follow from the board (a seat line's score,
    /// if given, must agree); `coin resets: N` is optional; `to move: B`
    /// overrides whose turn it is (by default: the next setup ply, or the
    /// pyramids on the board modulo the players).
    pub fn from_drawing(rules: &Rules, players: u8, text: &str) -> Result<State, String> {
        let probe = State::new(rules, players);
        let board = probe.board().clone();
        let n = probe.players();
        let mut rows_seen = 0u32;
        let mut given_stash: [Option<[u8; 3]>; MAX_SEATS] = [None; MAX_SEATS];
        let mut given_score: [Option<i32>; MAX_SEATS] = [None; MAX_SEATS];
        let mut to_move: Option<u8> = None;
        let mut resets = 0u32;
        let mut cells = vec![EMPTY; board.cells()];
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let tokens: Vec<&str> = line.split_whitespace().filter(|t| *t != "|").collect();
            if tokens.is_empty() {
                continue;
            }
            if let Ok(rank) = tokens[0].parse::<u8>() {
                if rank == 0 || rank > board.height {
                    return Err(format!("rank {rank} is not on this board"));
                }
                let toks = &tokens[1..];
                let expected: Vec<u8> = (0..board.width)
                    .filter_map(|col| board.cell_at(col, rank - 1))
                    .collect();
                if toks.len() != expected.len() {
                    return Err(format!(
                        "rank {rank}: {} cells drawn, the board has {}",
                        toks.len(),
                        expected.len()
                    ));
                }
                for (&c, t) in expected.iter().zip(toks) {
                    cells[usize::from(c)] = parse_token(t, n)
                        .ok_or_else(|| format!("rank {rank}: `{t}` is not a cell token"))?;
                }
                rows_seen += 1;
            } else if tokens
                .iter()
                .all(|t| t.len() == 1 && t.chars().all(|c| c.is_ascii_lowercase()))
            {
                // Column letters.
            } else if let Some(rest) = line.strip_prefix("coin resets:") {
                resets = rest.trim().parse().map_err(|_| "coin resets: a number")?;
            } else if let Some(rest) = line.strip_prefix("to move:") {
                let c = rest.trim().bytes().next().ok_or("to move: a seat letter")?;
                let s = c.to_ascii_uppercase().wrapping_sub(b'A');
                if s >= n {
                    return Err(format!("to move: no seat {}", c as char));
                }
                to_move = Some(s);
            } else if line.starts_with("board:")
                || line.starts_with("joins:")
                || line.starts_with("next:")
            {
            } else if line.len() > 2 && line.as_bytes()[1] == b':' {
                let s = line.as_bytes()[0].wrapping_sub(b'A');
                if s >= n {
                    return Err(format!("`{line}`: no such seat"));
                }
                for part in line[2..].split(',') {
                    let part = part.trim();
                    if let Some(v) = part.strip_prefix("score ") {
                        given_score[usize::from(s)] = Some(
                            v.trim()
                                .parse()
                                .map_err(|_| format!("`{part}`: a number"))?,
                        );
                    } else if let Some(v) = part.strip_prefix("stash ") {
                        let nums: Vec<u8> = v
                            .split('/')
                            .map(|x| x.trim().parse::<u8>())
                            .collect::<Result<_, _>>()
                            .map_err(|_| format!("`{part}`: stash S/M/L"))?;
                        if nums.len() != 3 {
                            return Err(format!("`{part}`: stash S/M/L"));
                        }
                        given_stash[usize::from(s)] = Some([nums[0], nums[1], nums[2]]);
                    } else if part.starts_with("coins ") {
                    } else {
                        return Err(format!("`{part}`: expected score, coins or stash"));
                    }
                }
            } else {
                return Err(format!("`{line}`: not part of a drawing"));
            }
        }
        if u32::from(board.height) != rows_seen {
            return Err(format!(
                "{rows_seen} ranks drawn, the board has {}",
                board.height
            ));
        }
        // Rebuild the state from the cells, then fix stashes, turn and scores.
        let mut fresh = State::new(rules, players);
        for &c in board.centre_roots() {
            if cells[usize::from(c)] != ROOT {
                return Err(format!(
                    "{} must hold a root in this variant",
                    board.name(c)
                ));
            }
        }
        let nulls = cells.iter().filter(|&&v| v == NULL).count();
        let roots = cells.iter().filter(|&&v| v == ROOT).count() - board.centre_roots().len();
        let markers = &fresh.fixed.markers;
        let want_nulls = markers.iter().filter(|&&m| m == NULL).count();
        let setup_done = nulls + roots;
        if nulls > want_nulls || setup_done > markers.len() || (roots > 0 && nulls < want_nulls) {
            return Err(format!(
                "{nulls} nulls and {roots} roots drawn; these rules place {want_nulls} nulls, then {} roots",
                markers.len() - want_nulls
            ));
        }
        for (c, &v) in cells.iter().enumerate() {
            let c = c as u8;
            match v {
                EMPTY => {}
                NULL => fresh.place_raw(c, NULL),
                ROOT => {
                    if !board.centre_roots().contains(&c) {
                        fresh.place_raw(c, ROOT)
                    }
                }
                v => fresh.place_raw(c, v),
            }
        }
        fresh.setup_done = setup_done as u8;
        let mut pyramids = 0u32;
        let mut on_board = [[0u8; 3]; MAX_SEATS];
        for &v in &cells {
            if let Some((seat, size, _)) = as_pyramid(v) {
                pyramids += 1;
                on_board[usize::from(seat)][usize::from(size - 1)] += 1;
            }
        }
        if pyramids > 0 && !fresh.in_play() {
            return Err("pyramids drawn before every marker is placed".into());
        }
        for s in 0..usize::from(n) {
            fresh.stash[s] = match given_stash[s] {
                Some(st) => st,
                None => {
                    let mut st = fresh.fixed.stash;
                    for k in 0..3 {
                        st[k] = st[k].checked_sub(on_board[s][k]).ok_or_else(|| {
                            format!(
                                "seat {} has more pyramids of size {} than its stash",
                                s + 1,
                                k + 1
                            )
                        })?;
                    }
                    st
                }
            };
        }
        fresh.scores = [0; MAX_SEATS];
        fresh.resets = resets;
        // Scores follow from the board: every pyramid pointing at an opponent's.
        for (c, &v) in cells.iter().enumerate() {
            if let Some((seat, size, dir)) = as_pyramid(v) {
                let t = board.neighbour(c as u8, Dir::from_index(dir));
                if t == super::board::NONE {
                    return Err(format!("{} points off the board", board.name(c as u8)));
                }
                if let Some((owner, tsize, _)) = as_pyramid(cells[usize::from(t)])
                    && owner != seat
                {
                    fresh.score_penalty(seat, owner, size, tsize);
                }
            }
        }
        for (s, given) in given_score.iter().enumerate().take(usize::from(n)) {
            if let Some(v) = *given
                && v != fresh.scores[s]
            {
                return Err(format!(
                    "seat {}: score {v} drawn, but the board gives {}",
                    s + 1,
                    fresh.scores[s]
                ));
            }
        }
        let turn = to_move.unwrap_or(if fresh.in_play() {
            (pyramids % u32::from(n)) as u8
        } else {
            setup_done as u8
        });
        fresh.end = None;
        if fresh.in_play() {
            fresh.settle_from(turn);
        } else {
            fresh.to_move = turn;
        }
        fresh.check_invariants()?;
        Ok(fresh)
    }
}

fn parse_token(t: &str, players: u8) -> Option<u8> {
    match t {
        "." => Some(EMPTY),
        "X" | "x" => Some(NULL),
        "R" | "r" => Some(ROOT),
        _ => {
            let b = t.as_bytes();
            if b.len() != 3 {
                return None;
            }
            let seat = b[0].to_ascii_uppercase().wrapping_sub(b'A');
            let size = b[1].wrapping_sub(b'0');
            let dir = Dir::parse(t.get(2..3)?)?;
            (seat < players && (1..=3).contains(&size)).then(|| pyramid(seat, size, dir as u8))
        }
    }
}
