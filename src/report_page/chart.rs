//! The pictures of a report page, as inline SVG: rows of estimates with
//! their intervals (the forest plot of `compare`, win rates, measures,
//! ratings) and histograms. Every mark carries its figures as `data-`
//! attributes, so a test reads back what was drawn.
//!
//! Colours are the Okabe-Ito palette (safe for the common colour
//! blindnesses); every series also has its own marker shape, and the
//! second series of a histogram its own hatching, so a page printed in grey
//! still tells them apart.

use std::fmt::Write as _;

use super::esc;

/// A series' look: a colour and a marker shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Variant A, or a run's only series: blue circles.
    A,
    /// Variant B: orange triangles.
    B,
    /// Further series (tune's best points, ...): by index.
    Other(usize),
    /// A verdict: "different" (vermillion squares).
    Different,
    /// "the same within the margin" (blue circles).
    Same,
    /// "changed, by under ±d or near it" (vermillion hollow squares).
    Changed,
    /// "not decided yet" (grey hollow diamonds).
    Undecided,
}

impl Look {
    fn colour(self) -> &'static str {
        const MORE: [&str; 5] = ["#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000"];
        match self {
            Look::A | Look::Same => "#0072B2",
            Look::B => "#E69F00",
            Look::Different | Look::Changed => "#D55E00",
            Look::Undecided => "#6b6b6b",
            Look::Other(i) => MORE[i % MORE.len()],
        }
    }

    /// A marker at (x, y).
    fn marker(self, x: f64, y: f64) -> String {
        let c = self.colour();
        let shape = match self {
            Look::A | Look::Same => 0,
            Look::B => 1,
            Look::Different | Look::Changed => 2,
            Look::Undecided => 3,
            Look::Other(i) => 2 + i % 3,
        };
        let hollow = matches!(self, Look::Undecided | Look::Changed);
        let fill = if hollow { "#fff" } else { c };
        match shape {
            0 => format!(
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4.5\" fill=\"{fill}\" stroke=\"{c}\" stroke-width=\"1.5\"/>"
            ),
            1 => format!(
                "<path d=\"M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z\" fill=\"{fill}\" stroke=\"{c}\" stroke-width=\"1.5\"/>",
                x,
                y - 5.5,
                x + 5.0,
                y + 3.5,
                x - 5.0,
                y + 3.5
            ),
            2 => format!(
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"8\" height=\"8\" fill=\"{fill}\" stroke=\"{c}\" stroke-width=\"1.5\"/>",
                x - 4.0,
                y - 4.0
            ),
            _ => format!(
                "<path d=\"M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z\" fill=\"{fill}\" stroke=\"{c}\" stroke-width=\"1.8\"/>",
                x,
                y - 5.5,
                x + 5.5,
                y,
                x,
                y + 5.5,
                x - 5.5,
                y
            ),
        }
    }
}

/// One estimate drawn on a row: a marker at `value`, a line over the
/// interval.
#[derive(Clone, Debug)]
pub struct Mark {
    pub look: Look,
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// Extra `data-` attributes of the mark (the figures as the JSON has
    /// them), already written: ` data-x="1"`.
    pub data: String,
}

/// A row of a [`Dots`] chart.
#[derive(Clone, Debug)]
pub struct Row {
    pub label: String,
    pub marks: Vec<Mark>,
    /// The row's scale.
    pub lo: f64,
    pub hi: f64,
    /// Dashed reference lines (a fair share, a goal, no difference).
    pub refs: Vec<f64>,
    /// A shaded band (the margin of "the same").
    pub band: Option<(f64, f64)>,
    /// The figures in words, right of the row.
    pub text: String,
}

/// Rows of estimates with their 95% intervals.
pub struct Dots<'a> {
    /// The `id` of the picture (a test finds it by this).
    pub id: &'a str,
    pub rows: Vec<Row>,
    /// A swatch per series.
    pub legend: Vec<(Look, String)>,
    /// What the dashed lines and the band are, for the legend.
    pub refs_label: Option<String>,
    pub band_label: Option<String>,
    /// How a value of the shared scale reads (`50%`, `1.2`), when every
    /// row has the same scale: drawn as an axis on top.
    pub axis: Option<&'a dyn Fn(f64) -> String>,
}

const WIDTH: f64 = 720.0;
const LABEL_W: f64 = 200.0;
const PLOT_X0: f64 = 210.0;
const PLOT_X1: f64 = 500.0;
const TEXT_X: f64 = 512.0;
const ROW_H: f64 = 24.0;

/// Round ticks for `lo..hi`, about `want` of them.
pub fn ticks(lo: f64, hi: f64, want: usize) -> Vec<f64> {
    let span = hi - lo;
    if span.is_nan() || span <= 0.0 || !span.is_finite() {
        return vec![lo];
    }
    let raw = span / want.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let mut out = Vec::new();
    let mut t = (lo / step).ceil() * step;
    while t <= hi + step * 1e-9 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

/// A scale that holds every value, low and high of `marks` and `extra`,
/// with a little room.
pub fn scale(values: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.into_iter().filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-12 {
        let pad = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
        return (lo - pad, hi + pad);
    }
    let pad = (hi - lo) * 0.06;
    (lo - pad, hi + pad)
}

impl Dots<'_> {
    pub fn svg(&self) -> String {
        let top = if self.axis.is_some() { 30.0 } else { 8.0 };
        let legend_h = 26.0;
        let height = top + ROW_H * self.rows.len() as f64 + legend_h + 6.0;
        let mut o = String::new();
        let _ = writeln!(
            o,
            "<svg id=\"{}\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {height:.0}\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">",
            esc(self.id)
        );
        let bottom = top + ROW_H * self.rows.len() as f64;
        if let (Some(fmt), Some(first)) = (self.axis, self.rows.first()) {
            let x = |v: f64| PLOT_X0 + (v - first.lo) / (first.hi - first.lo) * (PLOT_X1 - PLOT_X0);
            for t in ticks(first.lo, first.hi, 5) {
                let _ = writeln!(
                    o,
                    "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#ddd\"/><text x=\"{0:.1}\" y=\"{3:.1}\" text-anchor=\"middle\" fill=\"#333\">{4}</text>",
                    x(t),
                    top - 4.0,
                    bottom,
                    top - 10.0,
                    esc(&fmt(t))
                );
            }
        }
        for (i, row) in self.rows.iter().enumerate() {
            let y0 = top + ROW_H * i as f64;
            let yc = y0 + ROW_H / 2.0;
            let span = row.hi - row.lo;
            let x = |v: f64| {
                let f = if span > 0.0 { (v - row.lo) / span } else { 0.5 };
                PLOT_X0 + f.clamp(0.0, 1.0) * (PLOT_X1 - PLOT_X0)
            };
            if i % 2 == 0 {
                let _ = writeln!(
                    o,
                    "<rect x=\"0\" y=\"{y0:.1}\" width=\"{WIDTH}\" height=\"{ROW_H}\" fill=\"#f4f4f4\"/>"
                );
            }
            let _ = writeln!(
                o,
                "<text x=\"{LABEL_W}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#111\">{}</text>",
                yc + 4.0,
                esc(&clip(&row.label, 30))
            );
            if let Some((a, b)) = row.band {
                let _ = writeln!(
                    o,
                    "<rect class=\"band\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#cfe3f1\" stroke=\"#7fa9c9\" stroke-dasharray=\"2 2\"/>",
                    x(a),
                    y0 + 2.0,
                    (x(b) - x(a)).max(0.5),
                    ROW_H - 4.0
                );
            }
            let _ = writeln!(
                o,
                "<line x1=\"{PLOT_X0}\" x2=\"{PLOT_X1}\" y1=\"{yc:.1}\" y2=\"{yc:.1}\" stroke=\"#c8c8c8\"/>"
            );
            if self.axis.is_none() {
                // The row's own scale, its ends written small.
                let _ = writeln!(
                    o,
                    "<text x=\"{PLOT_X0}\" y=\"{0:.1}\" font-size=\"9\" fill=\"#666\">{1}</text><text x=\"{PLOT_X1}\" y=\"{0:.1}\" font-size=\"9\" text-anchor=\"end\" fill=\"#666\">{2}</text>",
                    y0 + 9.0,
                    short(row.lo),
                    short(row.hi)
                );
            }
            for r in &row.refs {
                let _ = writeln!(
                    o,
                    "<line class=\"ref\" x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#000\" stroke-dasharray=\"4 3\"/>",
                    x(*r),
                    y0 + 1.0,
                    y0 + ROW_H - 1.0
                );
            }
            let n = row.marks.len();
            for (k, m) in row.marks.iter().enumerate() {
                let dy = if n > 1 {
                    (k as f64 - (n as f64 - 1.0) / 2.0) * (ROW_H - 8.0) / (n as f64 - 1.0).max(1.0)
                } else {
                    0.0
                };
                let y = yc + dy;
                let c = m.look.colour();
                let _ = write!(
                    o,
                    "<g class=\"mark\" data-value=\"{}\" data-low=\"{}\" data-high=\"{}\"{}>",
                    m.value, m.low, m.high, m.data
                );
                if m.low.is_finite() && m.high.is_finite() {
                    let _ = write!(
                        o,
                        "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"{c}\" stroke-width=\"2.2\"/>",
                        x(m.low),
                        x(m.high)
                    );
                    // Arrow heads where the interval runs off the scale.
                    if m.low < row.lo {
                        let _ = write!(
                            o,
                            "<path d=\"M{:.1} {y:.1}l6 -4v8z\" fill=\"{c}\"/>",
                            PLOT_X0 - 2.0
                        );
                    }
                    if m.high > row.hi {
                        let _ = write!(
                            o,
                            "<path d=\"M{:.1} {y:.1}l-6 -4v8z\" fill=\"{c}\"/>",
                            PLOT_X1 + 2.0
                        );
                    }
                }
                o.push_str(&m.look.marker(x(m.value), y));
                let _ = writeln!(o, "</g>");
            }
            let _ = writeln!(
                o,
                "<text x=\"{TEXT_X}\" y=\"{:.1}\" fill=\"#111\">{}</text>",
                yc + 4.0,
                esc(&row.text)
            );
        }
        // The legend.
        let ly = bottom + 18.0;
        let mut lx = legend(
            &mut o,
            10.0,
            ly,
            self.legend.iter().map(|(l, n)| (*l, n.as_str())),
        );
        if let Some(l) = &self.band_label {
            let _ = write!(
                o,
                "<rect x=\"{lx:.1}\" y=\"{:.1}\" width=\"16\" height=\"10\" fill=\"#cfe3f1\" stroke=\"#7fa9c9\" stroke-dasharray=\"2 2\"/><text x=\"{:.1}\" y=\"{ly:.1}\" fill=\"#111\">{}</text>",
                ly - 9.0,
                lx + 20.0,
                esc(l)
            );
            lx += 30.0 + 6.5 * l.chars().count() as f64;
        }
        if let Some(l) = &self.refs_label {
            let _ = write!(
                o,
                "<line x1=\"{lx:.1}\" x2=\"{lx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#000\" stroke-dasharray=\"4 3\"/><text x=\"{:.1}\" y=\"{ly:.1}\" fill=\"#111\">{}</text>",
                ly - 11.0,
                ly + 2.0,
                lx + 6.0,
                esc(l)
            );
        }
        o.push_str("</svg>\n");
        o
    }
}

/// A histogram's series: its look, name and bars (`from..=to`, the share
/// of games).
pub struct Bars {
    pub look: Look,
    pub name: String,
    pub bins: Vec<(u32, u32, f64)>,
}

/// Histograms of one count for one or two runs on one axis: the first
/// series filled, the second hatched and outlined.
pub fn histogram(id: &str, x_label: &str, series: &[Bars]) -> String {
    let (w, h) = (WIDTH, 260.0);
    let (x0, x1, y0, y1) = (56.0, w - 16.0, 16.0, h - 62.0);
    let lo = series
        .iter()
        .flat_map(|s| s.bins.iter().map(|b| b.0))
        .min()
        .unwrap_or(0);
    let hi = series
        .iter()
        .flat_map(|s| s.bins.iter().map(|b| b.1 + 1))
        .max()
        .unwrap_or(1)
        .max(lo + 1);
    let top = series
        .iter()
        .flat_map(|s| s.bins.iter().map(|b| b.2 / f64::from(b.1 + 1 - b.0)))
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let x = |v: f64| x0 + (v - f64::from(lo)) / f64::from(hi - lo) * (x1 - x0);
    // Bars are drawn as density (share per unit of the count), so bins of
    // different widths compare; the axis says share of games per unit.
    let y = |d: f64| y1 - d / top * (y1 - y0);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg id=\"{}\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">",
        esc(id)
    );
    let _ = writeln!(
        o,
        "<defs><pattern id=\"{}-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"{}\" stroke-width=\"2.5\"/></pattern></defs>",
        esc(id),
        Look::B.colour()
    );
    for t in ticks(0.0, top, 4) {
        let _ = writeln!(
            o,
            "<line x1=\"{x0}\" x2=\"{x1}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#e2e2e2\"/><text x=\"{1:.1}\" y=\"{2:.1}\" text-anchor=\"end\" fill=\"#333\">{3}</text>",
            y(t),
            x0 - 4.0,
            y(t) + 4.0,
            pct(t)
        );
    }
    for t in ticks(f64::from(lo), f64::from(hi), 8) {
        let _ = writeln!(
            o,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#333\">{}</text>",
            x(t),
            y1 + 15.0,
            t
        );
    }
    for (k, s) in series.iter().enumerate() {
        let c = s.look.colour();
        let (fill, opacity) = if k == 0 {
            (c.to_owned(), "0.55")
        } else {
            (format!("url(#{}-hatch)", esc(id)), "1")
        };
        for b in &s.bins {
            let d = b.2 / f64::from(b.1 + 1 - b.0);
            let _ = writeln!(
                o,
                "<rect class=\"bar\" data-series=\"{}\" data-from=\"{}\" data-to=\"{}\" data-share=\"{}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\" fill-opacity=\"{opacity}\" stroke=\"{c}\" stroke-width=\"1.5\"/>",
                esc(&s.name),
                b.0,
                b.1,
                b.2,
                x(f64::from(b.0)),
                y(d),
                (x(f64::from(b.1 + 1)) - x(f64::from(b.0))).max(0.5),
                (y1 - y(d)).max(0.0)
            );
        }
    }
    let _ = writeln!(
        o,
        "<line x1=\"{x0}\" x2=\"{x1}\" y1=\"{y1}\" y2=\"{y1}\" stroke=\"#333\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#111\">{}</text>",
        (x0 + x1) / 2.0,
        y1 + 32.0,
        esc(x_label)
    );
    let mut lx = x0;
    for (k, s) in series.iter().enumerate() {
        let fill = if k == 0 {
            format!("{}\" fill-opacity=\"0.55", s.look.colour())
        } else {
            format!("url(#{}-hatch)", esc(id))
        };
        let _ = write!(
            o,
            "<rect x=\"{lx:.1}\" y=\"{:.1}\" width=\"18\" height=\"12\" fill=\"{fill}\" stroke=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\" fill=\"#111\">{}</text>",
            h - 20.0,
            s.look.colour(),
            lx + 24.0,
            h - 10.0,
            esc(&s.name)
        );
        lx += 40.0 + 6.5 * s.name.chars().count() as f64;
    }
    o.push_str("</svg>\n");
    o
}

/// A point of a [`path`] chart: where it lies, how it looks, its figures
/// as `data-` attributes (already written: ` data-x="1"`) and its words
/// for a tooltip.
pub struct Stop {
    pub x: f64,
    pub y: f64,
    pub look: Look,
    pub data: String,
    pub title: String,
    /// A dashed upright line before this point (a new stage begins).
    pub divide: bool,
}

/// A path over an x axis: points joined by a line, with dashed uprights
/// where a stage begins and an optional dashed level line (what the path
/// is measured against), each axis labelled.
pub fn path(
    id: &str,
    stops: &[Stop],
    level: Option<(f64, &str)>,
    x_label: &str,
    y_label: &str,
    legend: &[(Look, &str)],
) -> String {
    let (w, h) = (WIDTH, 300.0);
    let (x0, x1, y0, y1) = (60.0, w - 20.0, 16.0, h - 78.0);
    let (xl, xh) = (0.0, stops.iter().map(|s| s.x).fold(1.0f64, f64::max));
    let (_, yh) = scale(
        stops
            .iter()
            .map(|s| s.y)
            .chain(level.map(|l| l.0))
            .chain([0.0]),
    );
    let yl = 0.0;
    let x = |v: f64| x0 + (v - xl) / (xh - xl) * (x1 - x0);
    let y = |v: f64| y1 - (v - yl) / (yh - yl) * (y1 - y0);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg id=\"{}\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">",
        esc(id)
    );
    for t in ticks(yl, yh, 4) {
        let _ = writeln!(
            o,
            "<line x1=\"{x0}\" x2=\"{x1}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#e2e2e2\"/><text x=\"{1:.1}\" y=\"{2:.1}\" text-anchor=\"end\" fill=\"#333\">{3}</text>",
            y(t),
            x0 - 4.0,
            y(t) + 4.0,
            short(t)
        );
    }
    for t in ticks(xl, xh, 6) {
        let _ = writeln!(
            o,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#333\">{}</text>",
            x(t),
            y1 + 15.0,
            crate::sim::verdict::thousands(t.round() as u64)
        );
    }
    for s in stops.iter().filter(|s| s.divide) {
        let _ = writeln!(
            o,
            "<line class=\"divide\" x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{y0}\" y2=\"{y1}\" stroke=\"#999\" stroke-dasharray=\"2 3\"/>",
            x(s.x)
        );
    }
    if let Some((v, _)) = level {
        let _ = writeln!(
            o,
            "<line class=\"ref\" x1=\"{x0}\" x2=\"{x1}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#000\" stroke-dasharray=\"4 3\"/>",
            y(v)
        );
    }
    let line: Vec<String> = stops
        .iter()
        .map(|s| format!("{:.1},{:.1}", x(s.x), y(s.y)))
        .collect();
    if line.len() > 1 {
        let _ = writeln!(
            o,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"#888\" stroke-width=\"1.2\"/>",
            line.join(" ")
        );
    }
    for s in stops {
        let _ = writeln!(
            o,
            "<g class=\"mark\" data-value=\"{}\"{}><title>{}</title>{}</g>",
            s.y,
            s.data,
            esc(&s.title),
            s.look.marker(x(s.x), y(s.y))
        );
    }
    let _ = writeln!(
        o,
        "<line x1=\"{x0}\" x2=\"{x1}\" y1=\"{y1}\" y2=\"{y1}\" stroke=\"#333\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#111\">{}</text><text transform=\"translate(14 {:.1}) rotate(-90)\" text-anchor=\"middle\" fill=\"#111\">{}</text>",
        (x0 + x1) / 2.0,
        y1 + 32.0,
        esc(x_label),
        (y0 + y1) / 2.0,
        esc(y_label)
    );
    let ly = h - 14.0;
    let lx = self::legend(&mut o, x0, ly, legend.iter().copied());
    if let Some((_, l)) = level {
        let _ = write!(
            o,
            "<line x1=\"{lx:.1}\" x2=\"{end:.1}\" y1=\"{mid:.1}\" y2=\"{mid:.1}\" stroke=\"#000\" stroke-dasharray=\"4 3\"/><text x=\"{tx:.1}\" y=\"{ly:.1}\" fill=\"#111\">{name}</text>",
            end = lx + 18.0,
            mid = ly - 4.0,
            tx = lx + 24.0,
            name = esc(l)
        );
    }
    o.push_str("</svg>\n");
    o
}

/// A legend's swatches in a row from `x` on the baseline `y`: each
/// series' marker and name. Returns where the row ends.
fn legend<'n>(o: &mut String, x: f64, y: f64, items: impl Iterator<Item = (Look, &'n str)>) -> f64 {
    let mut lx = x;
    for (look, name) in items {
        o.push_str(&look.marker(lx + 5.0, y - 4.0));
        let _ = write!(
            o,
            "<text x=\"{:.1}\" y=\"{y:.1}\" fill=\"#111\">{}</text>",
            lx + 14.0,
            esc(name)
        );
        lx += 24.0 + 6.5 * name.chars().count() as f64;
    }
    lx
}

/// A share in percent, as the text report writes it.
pub fn pct(x: f64) -> String {
    let p = 100.0 * x;
    if p != 0.0 && p.abs() < 1.0 {
        format!("{p:.1}%")
    } else {
        format!("{p:.0}%")
    }
}

/// A scale's end in a few figures.
fn short(x: f64) -> String {
    let a = x.abs();
    if a >= 100.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        let t = ticks(0.0, 1.0, 5);
        assert_eq!(t.len(), 6);
        assert!((t[1] - 0.2).abs() < 1e-12 && (t[5] - 1.0).abs() < 1e-12);
        let t = ticks(-3.7, 4.2, 4);
        assert!(t.first().is_some_and(|v| *v >= -3.7) && t.last().is_some_and(|v| *v <= 4.2));
        assert!(t.contains(&0.0));
    }

    #[test]
    fn a_dot_chart_carries_its_figures() {
        let d = Dots {
            id: "x",
            rows: vec![Row {
                label: "seat 1 <wins>".into(),
                marks: vec![Mark {
                    look: Look::A,
                    value: 0.5,
                    low: 0.4,
                    high: 0.6,
                    data: String::new(),
                }],
                lo: 0.0,
                hi: 1.0,
                refs: vec![0.5],
                band: None,
                text: "50%".into(),
            }],
            legend: vec![(Look::A, "A".into())],
            refs_label: Some("fair share".into()),
            band_label: None,
            axis: None,
        };
        let s = d.svg();
        assert!(s.contains("data-value=\"0.5\" data-low=\"0.4\" data-high=\"0.6\""));
        assert!(s.contains("seat 1 &lt;wins&gt;"));
    }
}
