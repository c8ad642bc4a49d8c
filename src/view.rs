//! `roots view`: a recorded game as one self-contained HTML page that steps
//! through it in a browser: the board's picture at every step, the events
//! in words, buttons and arrow keys, the scores over time as a chart, and
//! the variant's rules sheet. Nothing is fetched: the pictures, the script
//! and the styles are all in the page, so it opens from disk.
//!
//! Pictures are [`Game::svg`] documents, one element a line; the page keeps
//! each distinct line once and every step as a list of line numbers, so a
//! game of a thousand steps stays a few megabytes.

use std::collections::HashMap;
use std::fmt::Write;

use serde_json::json;

use crate::core::protocol::{GameState, Seat};
use crate::core::svg::{esc, num};
use crate::games::Game;
use crate::record::{RawRecord, RecordError};
use crate::referee::Referee;

/// The table of distinct picture lines, and each picture as line numbers.
#[derive(Default)]
struct Lines {
    index: HashMap<String, u32>,
    lines: Vec<String>,
}

impl Lines {
    fn picture(&mut self, svg: &str) -> Vec<u32> {
        svg.lines()
            .map(|l| {
                if let Some(&i) = self.index.get(l) {
                    return i;
                }
                let i = self.lines.len() as u32;
                self.lines.push(l.to_string());
                self.index.insert(l.to_string(), i);
                i
            })
            .collect()
    }
}

/// What the page says about the game at one step.
fn status<G: Game>(state: &G::State, names: &[String]) -> String {
    let scores = G::scores(state);
    let line = scores
        .iter()
        .enumerate()
        .map(|(s, v)| format!("{} {v}", G::seat_letter(s as Seat)))
        .collect::<Vec<_>>()
        .join(", ");
    match state.outcome() {
        Some(o) => {
            let reason = G::END_REASONS
                .get(G::end_reason(state))
                .map_or("?", |r| r.label);
            let winners: Vec<String> = o
                .winners
                .iter()
                .map(|&w| {
                    format!(
                        "{} ({})",
                        G::seat_letter(w),
                        names.get(usize::from(w)).map(String::as_str).unwrap_or("?")
                    )
                })
                .collect();
            format!(
                "Game over ({reason}). Final scores: {line}. {}: {}.",
                if winners.len() > 1 {
                    "Winners (tie)"
                } else {
                    "Winner"
                },
                winners.join(", ")
            )
        }
        None => format!("Scores: {line}. Next: {}.", G::describe_node(state)),
    }
}

/// The page for a record of game `G`.
pub fn html<G: crate::games::Registered>(raw: &RawRecord) -> Result<String, RecordError> {
    let header = &raw.header;
    let names = &header.players;
    let rules = header.rules::<G>().map_err(|m| RecordError::at(1, m))?;
    let mut lines = Lines::default();
    let mut steps = Vec::new();
    let mut scores: Vec<Vec<i32>> = Vec::new();
    let start = Referee::<G>::replay(raw, Some(0))?;
    let first = start.state();
    scores.push(G::scores(first));
    steps.push(json!({
        "n": 0,
        "turn": 0,
        "text": "The start of the game",
        "status": status::<G>(first, names),
        "pic": lines.picture(&G::svg(first, names)),
    }));
    Referee::<G>::walk(raw, |step, state| {
        scores.push(G::scores(state));
        steps.push(json!({
            "n": step.number,
            "turn": step.turn,
            "heading": step.turn_heading::<G>(names),
            "text": std::iter::once(step.describe::<G>(names))
                .chain(step.notes.iter().cloned())
                .collect::<Vec<_>>()
                .join("; "),
            "status": status::<G>(state, names),
            "pic": lines.picture(&G::svg(state, names)),
        }));
    })?;
    let data = json!({ "lines": lines.lines, "steps": steps });
    // `</` may not appear inside a script element.
    let data = data.to_string().replace("</", "<\\/");

    let title = format!("{}: {}, {}", G::TITLE, G::name(&rules), names.join(" vs "));
    let mut events = String::new();
    let mut turn = 0;
    for (i, s) in steps.iter().enumerate() {
        let t = s["turn"].as_u64().unwrap_or(0);
        if t != turn {
            turn = t;
            let _ = write!(
                events,
                "<li class=\"turn\">{}</li>",
                esc(s["heading"].as_str().unwrap_or(""))
            );
        }
        let _ = write!(
            events,
            "<li id=\"e{i}\" data-step=\"{i}\"><span class=\"num\">{}</span> {}</li>",
            s["n"],
            esc(s["text"].as_str().unwrap_or(""))
        );
    }
    // A game without chance (BTT, Sprout-R-Out) has no dice to speak of.
    let chance = raw.events.iter().any(|(_, e)| {
        matches!(
            e,
            crate::record::Event::Roll { .. } | crate::record::Event::Draw { .. }
        )
    });
    let mut about = vec![format!(
        "{} players ({})",
        names.len(),
        names
            .iter()
            .enumerate()
            .map(|(s, n)| format!("{} {}", G::seat_letter(s as Seat), n))
            .collect::<Vec<_>>()
            .join(", ")
    )];
    about.extend(header.seed.map(|s| format!("seed {s}")));
    if chance {
        about.push(format!("dice {}", header.dice.key()));
    }
    if !header.created.is_empty() {
        about.push(format!("played {}", header.created));
    }
    let about = about.join("; ");
    let rules_html = markdown(&crate::variant::explain::explain::<G>(&rules));
    let chart = chart::<G>(&scores);
    Ok(PAGE
        .replace("{{TITLE}}", &esc(&title))
        .replace("{{ABOUT}}", &esc(&about))
        .replace("{{CHART}}", &chart)
        .replace("{{EVENTS}}", &events)
        .replace("{{RULES}}", &rules_html)
        .replace("{{DATA}}", &data))
}

/// The scores after every step, one line per seat, with a cursor the page
/// moves.
fn chart<G: Game>(scores: &[Vec<i32>]) -> String {
    let (w, h, left, pad) = (560.0, 150.0, 36.0, 10.0);
    let seats = scores.first().map_or(0, Vec::len);
    let lo = scores.iter().flatten().copied().min().unwrap_or(0).min(0);
    let hi = scores
        .iter()
        .flatten()
        .copied()
        .max()
        .unwrap_or(1)
        .max(lo + 1);
    let steps = scores.len().saturating_sub(1).max(1) as f64;
    let x = |i: usize| left + (w - left - pad) * i as f64 / steps;
    let y = |v: i32| pad + (h - 2.0 * pad) * f64::from(hi - v) / f64::from(hi - lo);
    let mut out = format!(
        "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">"
    );
    let _ = write!(
        out,
        "<rect x=\"{left}\" y=\"{pad}\" width=\"{}\" height=\"{}\" fill=\"#fafafa\" stroke=\"#cccccc\"/>",
        num(w - left - pad),
        num(h - 2.0 * pad)
    );
    for v in [lo, hi] {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\" fill=\"#555\">{v}</text>",
            num(left - 4.0),
            num(y(v) + 3.5)
        );
    }
    if lo < 0 {
        let _ = write!(
            out,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#bbbbbb\" stroke-dasharray=\"3 3\"/>",
            num(w - pad),
            num(y(0)),
            num(y(0))
        );
    }
    for s in 0..seats {
        let pts: Vec<String> = scores
            .iter()
            .enumerate()
            .map(|(i, row)| format!("{},{}", num(x(i)), num(y(row[s]))))
            .collect();
        let (fill, edge) = G::seat_colour(s as Seat);
        if !edge.is_empty() {
            // A pale colour (white stones) keeps its outline on the chart.
            let _ = write!(
                out,
                "<polyline fill=\"none\" stroke=\"{edge}\" stroke-width=\"4\" points=\"{}\"/>",
                pts.join(" ")
            );
        }
        let _ = write!(
            out,
            "<polyline fill=\"none\" stroke=\"{fill}\" stroke-width=\"2\" points=\"{}\"><title>{}</title></polyline>",
            pts.join(" "),
            G::seat_letter(s as Seat)
        );
    }
    let _ = write!(out, "<g font-size=\"11\">");
    for s in 0..seats {
        let lx = left + 8.0 + 46.0 * s as f64;
        let (fill, edge) = G::seat_colour(s as Seat);
        let edge = if edge.is_empty() { fill } else { edge };
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{fill}\" stroke=\"{edge}\"/><text x=\"{}\" y=\"{}\" fill=\"#333\">{}</text>",
            num(lx),
            num(pad + 5.0),
            num(lx + 14.0),
            num(pad + 14.0),
            esc(&G::seat_letter(s as Seat).to_string())
        );
    }
    out.push_str("</g>");
    let _ = write!(
        out,
        "<line id=\"cursor\" x1=\"{left}\" x2=\"{left}\" y1=\"{pad}\" y2=\"{}\" stroke=\"#222222\" stroke-width=\"1.5\" data-left=\"{left}\" data-width=\"{}\" data-steps=\"{}\"/></svg>",
        num(h - pad),
        num(w - left - pad),
        num(steps)
    );
    out
}

/// The few Markdown forms the rules sheets use, as HTML: headings, lists,
/// paragraphs, `code`, *emphasis* and **bold**.
pub fn markdown(text: &str) -> String {
    let mut out = String::new();
    let mut list: Option<&str> = None;
    let mut para = String::new();
    let flush = |out: &mut String, para: &mut String| {
        if !para.trim().is_empty() {
            let _ = writeln!(out, "<p>{}</p>", inline(para.trim()));
        }
        para.clear();
    };
    for line in text.lines() {
        let t = line.trim_start();
        let item = if let Some(rest) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
            Some(("ul", rest))
        } else {
            let digits = t.chars().take_while(char::is_ascii_digit).count();
            (digits > 0 && t[digits..].starts_with(". ")).then(|| ("ol", &t[digits + 2..]))
        };
        if let Some((kind, rest)) = item {
            flush(&mut out, &mut para);
            if list != Some(kind) {
                if let Some(l) = list {
                    let _ = writeln!(out, "</{l}>");
                }
                let _ = writeln!(out, "<{kind}>");
                list = Some(kind);
            }
            let _ = writeln!(out, "<li>{}</li>", inline(rest));
            continue;
        }
        if t.is_empty() {
            flush(&mut out, &mut para);
            continue;
        }
        if line.starts_with("  ") && list.is_some() && para.is_empty() {
            // The continuation of a list item: append to it.
            if out.ends_with("</li>\n") {
                out.truncate(out.len() - "</li>\n".len());
                let _ = writeln!(out, " {}</li>", inline(t));
                continue;
            }
        }
        if let Some(l) = list.take() {
            let _ = writeln!(out, "</{l}>");
        }
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if hashes > 0 && t[hashes..].starts_with(' ') {
            flush(&mut out, &mut para);
            let level = (hashes + 1).min(6);
            let _ = writeln!(out, "<h{level}>{}</h{level}>", inline(t[hashes..].trim()));
            continue;
        }
        para.push_str(t);
        para.push(' ');
    }
    flush(&mut out, &mut para);
    if let Some(l) = list {
        let _ = writeln!(out, "</{l}>");
    }
    out
}

/// `code`, **bold** and *emphasis* in escaped text.
fn inline(text: &str) -> String {
    let mut out = String::new();
    let mut rest = esc(text);
    for (mark, open, close) in [
        ("`", "<code>", "</code>"),
        ("**", "<strong>", "</strong>"),
        ("*", "<em>", "</em>"),
    ] {
        let mut done = String::new();
        let mut on = false;
        let mut parts = rest.split(mark).peekable();
        while let Some(p) = parts.next() {
            done.push_str(p);
            if parts.peek().is_some() {
                done.push_str(if on { close } else { open });
                on = !on;
            }
        }
        if on {
            // An unpaired mark: leave the text as it was.
            done = rest.clone();
        }
        rest = done;
    }
    out.push_str(&rest);
    out
}

const PAGE: &str = include_str!("view.html");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_event_list_scrolls_by_its_own_offsets() {
        // The script keeps the current event in view with `li.offsetTop`,
        // which is measured from the nearest positioned ancestor: the list
        // itself must be positioned, or the offsets are the page's and the
        // current event scrolls out of sight.
        let rule = PAGE
            .lines()
            .find(|l| l.trim_start().starts_with("#events {"))
            .expect("the event list's style");
        assert!(rule.contains("position: relative"), "{rule}");
        assert!(PAGE.contains("li.offsetTop"));
    }

    #[test]
    fn markdown_covers_the_rules_sheet_forms() {
        let html = markdown(
            "# Title\n\nA *word* and **bold** and `code`.\n\n- one\n- two\n  more\n\n1. first\n2. second\n\n## Next\ntext",
        );
        assert_eq!(
            html,
            "<h2>Title</h2>\n<p>A <em>word</em> and <strong>bold</strong> and <code>code</code>.</p>\n<ul>\n<li>one</li>\n<li>two more</li>\n</ul>\n<ol>\n<li>first</li>\n<li>second</li>\n</ol>\n<h3>Next</h3>\n<p>text</p>\n"
        );
    }
}
