//! Sweeping one integer key of a variant over a range: `beads.supply=30..120:10`.
//!
//! Each value is applied through the variant loader, as a child file that
//! `extends` the swept variant and sets the one key, so unknown keys and
//! values out of a key's bounds get the loader's own errors.

use std::path::Path;
use std::sync::Arc;

use crate::games::Game;
use crate::variant::{self, Style};

/// A parsed `KEY=FROM..TO[:STEP]` (both ends included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Range {
    pub key: String,
    pub from: i64,
    pub to: i64,
    pub step: i64,
}

/// Most values one sweep may take.
pub const MAX_VALUES: usize = 1000;

impl Range {
    pub fn parse(text: &str) -> Result<Range, String> {
        let usage = || {
            format!(
                "`{text}`: expected KEY=FROM..TO or KEY=FROM..TO:STEP, e.g. beads.supply=30..120:10"
            )
        };
        let (key, range) = text.split_once('=').ok_or_else(usage)?;
        let key = key.trim();
        if key.is_empty() || !key.contains('.') {
            return Err(format!(
                "`{key}`: the key is a path like beads.supply (section.key)"
            ));
        }
        let (span, step) = match range.split_once(':') {
            Some((s, st)) => (s, st.trim().parse::<i64>().map_err(|_| usage())?),
            None => (range, 1),
        };
        let (from, to) = span.split_once("..").ok_or_else(usage)?;
        let from = from.trim().parse::<i64>().map_err(|_| usage())?;
        let to = to.trim().parse::<i64>().map_err(|_| usage())?;
        if step <= 0 {
            return Err(format!("`{text}`: the step must be at least 1"));
        }
        if to < from {
            return Err(format!(
                "`{text}`: the range runs backwards ({from} > {to})"
            ));
        }
        let r = Range {
            key: key.to_string(),
            from,
            to,
            step,
        };
        if r.values().len() > MAX_VALUES {
            return Err(format!(
                "`{text}`: more than {MAX_VALUES} values; use a larger step"
            ));
        }
        Ok(r)
    }

    pub fn values(&self) -> Vec<i64> {
        let mut v = Vec::new();
        let mut x = self.from;
        while x <= self.to && v.len() <= MAX_VALUES {
            v.push(x);
            x = match x.checked_add(self.step) {
                Some(n) => n,
                None => break,
            };
        }
        v
    }
}

/// The rules of `variant` (a built-in name or a path) with `key` set to
/// `value`, checked by the loader. The error is the loader's message.
pub fn apply<G: Game>(
    variant: &str,
    base: &G::Rules,
    key: &str,
    value: i64,
) -> Result<Arc<G::Rules>, String> {
    // The key must name an integer of the resolved rules.
    let json = serde_json::to_value(base).map_err(|e| e.to_string())?;
    let mut at = &json;
    for part in key.split('.') {
        at = at.get(part).ok_or_else(|| {
            format!("unknown key `{key}`: `roots show` lists every key of a variant")
        })?;
    }
    if !at.is_u64() && !at.is_i64() {
        return Err(format!(
            "`{key}` is not a whole-number key; only those can be swept"
        ));
    }
    let (section, leaf) = key
        .rsplit_once('.')
        .ok_or_else(|| format!("`{key}`: expected section.key"))?;
    let parent = if variant::is_builtin_name(variant) {
        variant.to_string()
    } else {
        std::fs::canonicalize(Path::new(variant))
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| variant.to_string())
    };
    // The game comes from the parent.
    let text = if variant == variant::STDIN_ARG {
        // Standard input cannot be read again: the resolved rules written
        // out whole, the key changed.
        let mut whole = json.clone();
        if let Some(slot) = key.split('.').try_fold(&mut whole, |v, k| v.get_mut(k)) {
            *slot = serde_json::Value::from(value);
        }
        let body = toml::to_string(&whole).map_err(|e| e.to_string())?;
        let game = crate::games::GameId::of::<G>();
        format!("game = \"{game}\"\n{body}")
    } else {
        format!(
            "extends = {}\n[{section}]\n{leaf} = {value}\n",
            toml::Value::String(parent)
        )
    };
    let base_name = G::name(base).to_owned();
    let name = format!("{base_name}-{}-{value}", key.replace('.', "-"));
    match variant::load_str(&name, &text, None) {
        Ok(loaded) => {
            let rules = G::unwrap(&loaded.rules)
                .ok_or_else(|| format!("`{variant}` is not a {} variant", G::TITLE))?;
            // The swept variant keeps its name: the value is in the report.
            let mut json = serde_json::to_value(&**rules).map_err(|e| e.to_string())?;
            json["name"] = serde_json::Value::String(base_name);
            serde_json::from_value(json)
                .map(Arc::new)
                .map_err(|e| e.to_string())
        }
        Err(d) => Err(format!(
            "{key} = {value} is not allowed:\n{}",
            variant::render(&d.items, &d.sources, Style::Plain).trim_end()
        )),
    }
}

/// One point of a sweep's plot.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Point {
    pub value: i64,
    pub mean_rounds: f64,
    pub seat1_win_rate: f64,
    pub seat1_low: f64,
    pub seat1_high: f64,
}

/// A hand-written SVG line plot: mean game length (rounds, left axis) and
/// seat 1's win rate (right axis, 0-100%) against the key's value.
pub fn svg(key: &str, variant: &str, points: &[Point]) -> String {
    let (w, h) = (720.0, 420.0);
    let (left, right, top, bottom) = (70.0, 650.0, 40.0, 350.0);
    let xs: Vec<f64> = points.iter().map(|p| p.value as f64).collect();
    let (x0, x1) = match (xs.first(), xs.last()) {
        (Some(&a), Some(&b)) if b > a => (a, b),
        (Some(&a), _) => (a - 1.0, a + 1.0),
        _ => (0.0, 1.0),
    };
    let ymax = points
        .iter()
        .map(|p| p.mean_rounds)
        .fold(1.0_f64, f64::max)
        .mul_add(1.1, 0.0)
        .ceil();
    let px = |x: f64| left + (x - x0) / (x1 - x0) * (right - left);
    let py_rounds = |y: f64| bottom - y / ymax * (bottom - top);
    let py_rate = |r: f64| bottom - r * (bottom - top);
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut o = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">{} — sweep of {}</text>\n",
        w / 2.0,
        esc(variant),
        esc(key)
    );
    o.push_str(&format!(
        "<line x1=\"{left}\" y1=\"{bottom}\" x2=\"{right}\" y2=\"{bottom}\" stroke=\"black\"/>\n<line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{bottom}\" stroke=\"#1f77b4\"/>\n<line x1=\"{right}\" y1=\"{top}\" x2=\"{right}\" y2=\"{bottom}\" stroke=\"#d62728\"/>\n"
    ));
    for i in 0..=5 {
        let f = f64::from(i) / 5.0;
        let y = bottom - f * (bottom - top);
        o.push_str(&format!(
            "<line x1=\"{}\" y1=\"{y}\" x2=\"{right}\" y2=\"{y}\" stroke=\"#eee\"/>\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#1f77b4\">{:.0}</text>\n<text x=\"{}\" y=\"{}\" fill=\"#d62728\">{:.0}%</text>\n",
            left,
            left - 6.0,
            y + 4.0,
            f * ymax,
            right + 6.0,
            y + 4.0,
            f * 100.0
        ));
    }
    for p in points {
        let x = px(p.value as f64);
        o.push_str(&format!(
            "<line x1=\"{x}\" y1=\"{bottom}\" x2=\"{x}\" y2=\"{}\" stroke=\"black\"/>\n<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            bottom + 5.0,
            bottom + 18.0,
            p.value
        ));
    }
    let line = |f: &dyn Fn(&Point) -> f64| {
        points
            .iter()
            .map(|p| format!("{:.1},{:.1}", px(p.value as f64), f(p)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    o.push_str(&format!(
        "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"{}\"/>\n",
        line(&|p| py_rounds(p.mean_rounds))
    ));
    o.push_str(&format!(
        "<polyline fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\" points=\"{}\"/>\n",
        line(&|p| py_rate(p.seat1_win_rate))
    ));
    for p in points {
        let x = px(p.value as f64);
        o.push_str(&format!(
            "<circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#1f77b4\"/>\n<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#d62728\"/>\n<circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#d62728\"/>\n",
            py_rounds(p.mean_rounds),
            py_rate(p.seat1_low),
            py_rate(p.seat1_high),
            py_rate(p.seat1_win_rate)
        ));
    }
    o.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n<text transform=\"translate(18 {}) rotate(-90)\" text-anchor=\"middle\" fill=\"#1f77b4\">mean game length (rounds)</text>\n<text transform=\"translate({} {}) rotate(90)\" text-anchor=\"middle\" fill=\"#d62728\">seat 1 win rate (95% interval)</text>\n</svg>\n",
        (left + right) / 2.0,
        bottom + 40.0,
        esc(key),
        (top + bottom) / 2.0,
        right + 45.0,
        (top + bottom) / 2.0
    ));
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_with_both_ends() {
        let r = Range::parse("beads.supply=30..60:10").expect("valid");
        assert_eq!(r.values(), vec![30, 40, 50, 60]);
        assert_eq!(
            Range::parse("beads.store=4..6").expect("valid").values(),
            vec![4, 5, 6]
        );
        assert!(Range::parse("beads.supply=60..30").is_err());
        assert!(Range::parse("beads.supply=30..60:0").is_err());
        assert!(Range::parse("supply=1..2").is_err());
        assert!(Range::parse("beads.supply").is_err());
    }

    #[test]
    fn keys_are_applied_and_checked_by_the_loader() {
        use crate::games::roots_and_shoots::{RootsAndShoots, Rules};
        let apply = |v: &str, b: &Rules, k: &str, x: i64| apply::<RootsAndShoots>(v, b, k, x);
        let base = Rules::standard();
        let r = apply("standard", &base, "beads.supply", 30).expect("in bounds");
        assert_eq!(r.beads.supply, 30);
        assert!(
            apply("standard", &base, "beads.suply", 30)
                .unwrap_err()
                .contains("unknown key")
        );
        assert!(
            apply("standard", &base, "end.finish", 1)
                .unwrap_err()
                .contains("whole-number")
        );
        assert!(apply("standard", &base, "board.size", 1000).is_err());
    }
}
