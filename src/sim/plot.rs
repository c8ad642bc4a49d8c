//! The plots of a sweep, as hand-written SVG: one panel per measure against
//! one key (points with their 95% intervals, a dashed fair-share line on
//! win-rate panels), or a heat map of one measure over two keys.
//!
//! Ticks are "nice" numbers (1, 2 or 5 times a power of ten) chosen for the
//! range, so a long range gets a handful of readable labels and every axis
//! is evenly divided.

use std::fmt::Write as _;

use super::sweep::{Axis, Estimate};

/// One measure across the points of a sweep (`None`: the point was not
/// valid, or not played).
#[derive(Clone, Debug)]
pub struct Panel {
    /// The measure in words (`mean rounds`).
    pub label: String,
    /// A proportion, shown in percent.
    pub rate: bool,
    /// Points are percentage points off a fair share (shown with a sign).
    pub signed: bool,
    pub points: Vec<Option<Estimate>>,
    /// The fair share at each point, for a line (win rates).
    pub fair: Vec<Option<f64>>,
}

/// Evenly spaced nice ticks covering `lo..=hi`, about `want` of them: the
/// step (1, 2 or 5 times a power of ten, at least `min_step`) and the
/// ticks, the first at or below `lo` and the last at or above `hi`.
pub fn nice_ticks(lo: f64, hi: f64, want: usize, min_step: f64) -> (f64, Vec<f64>) {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo - 0.5, lo + 0.5)
    };
    let raw = (hi - lo) / want.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    // Of 1, 2, 5 and 10 times the power of ten below the raw step, the one
    // that gives the number of intervals nearest `want` (the wider on a tie).
    let span = hi - lo;
    let step = [10.0, 5.0, 2.0, 1.0]
        .iter()
        .map(|m| m * mag)
        .min_by(|a, b| {
            let da = (span / a - want as f64).abs();
            let db = (span / b - want as f64).abs();
            da.total_cmp(&db)
        })
        .unwrap_or(mag)
        .max(min_step);
    let first = (lo / step).floor() as i64;
    let last = (hi / step).ceil() as i64;
    let ticks = (first..=last).map(|i| i as f64 * step).collect();
    (step, ticks)
}

/// A tick's label with as many decimals as the step needs.
fn tick_text(v: f64, step: f64, percent: bool, signed: bool) -> String {
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    let v = if v.abs() < step * 1e-9 { 0.0 } else { v };
    let mut s = if signed && v > 0.0 {
        format!("+{v:.decimals$}")
    } else {
        format!("{v:.decimals$}")
    };
    if percent {
        s.push_str(if signed { "pt" } else { "%" });
    }
    s
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Where the values of an axis go, between `left` and `right`: numbers by
/// value, words evenly spaced.
struct XScale<'a> {
    axis: &'a Axis,
    left: f64,
    right: f64,
    lo: f64,
    hi: f64,
}

impl XScale<'_> {
    fn new(axis: &Axis, left: f64, right: f64) -> XScale<'_> {
        let (lo, hi) = if axis.numeric() {
            let nums: Vec<f64> = axis.values.iter().map(num).collect();
            let lo = nums.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = nums.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if hi > lo {
                let pad = (hi - lo) * 0.03;
                (lo - pad, hi + pad)
            } else {
                (lo - 1.0, lo + 1.0)
            }
        } else {
            (-0.5, axis.values.len() as f64 - 0.5)
        };
        XScale {
            axis,
            left,
            right,
            lo,
            hi,
        }
    }

    fn at(&self, i: usize) -> f64 {
        let v = if self.axis.numeric() {
            num(&self.axis.values[i])
        } else {
            i as f64
        };
        self.pos(v)
    }

    fn pos(&self, v: f64) -> f64 {
        self.left + (v - self.lo) / (self.hi - self.lo) * (self.right - self.left)
    }

    /// Tick positions and labels.
    fn ticks(&self) -> Vec<(f64, String)> {
        if self.axis.numeric() {
            let nums: Vec<f64> = self.axis.values.iter().map(num).collect();
            let lo = nums.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = nums.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let (step, ticks) = nice_ticks(lo, hi, 8, 1.0);
            ticks
                .into_iter()
                .filter(|t| *t >= self.lo - 1e-9 && *t <= self.hi + 1e-9)
                .map(|t| (self.pos(t), tick_text(t, step, false, false)))
                .collect()
        } else {
            let every = label_stride(self.axis.values.len(), 12);
            (0..self.axis.values.len())
                .filter(|i| i % every == 0)
                .map(|i| (self.at(i), self.axis.values[i].to_string()))
                .collect()
        }
    }
}

fn num(v: &super::sweep::Value) -> f64 {
    match v {
        super::sweep::Value::Int(n) => *n as f64,
        _ => 0.0,
    }
}

/// Label every `k`-th of `n` items so that at most about `most` show, `k`
/// being 1, 2 or 5 times a power of ten.
fn label_stride(n: usize, most: usize) -> usize {
    let mut k = 1;
    let mut mult = [2, 5, 10].iter().cycle();
    let mut base = 1;
    while n.div_ceil(k) > most {
        let m = *mult.next().unwrap_or(&10);
        k = base * m;
        if m == 10 {
            base *= 10;
        }
    }
    k
}

/// The y range of a panel: the intervals and the fair line, clamped to
/// 0..1 for rates; nice ticks over it.
fn y_ticks(p: &Panel) -> (f64, Vec<f64>) {
    let scale = if p.rate { 100.0 } else { 1.0 };
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for e in p.points.iter().flatten() {
        lo = lo.min(e.low);
        hi = hi.max(e.high);
    }
    for f in p.fair.iter().flatten() {
        lo = lo.min(*f);
        hi = hi.max(*f);
    }
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if p.rate && !p.signed {
        lo = lo.max(0.0);
        hi = hi.min(1.0);
    }
    let (step, ticks) = nice_ticks(lo * scale, hi * scale, 5, 0.0);
    (step / scale, ticks.into_iter().map(|t| t / scale).collect())
}

/// What the bars of a line plot are, written under its title.
pub const BARS: &str =
    "dots: each value's estimate; bars: its 95% interval (not the spread of single games)";

/// Panels of measures against one key, stacked with a shared x axis.
pub fn line_svg(title: &str, axis: &Axis, panels: &[Panel]) -> String {
    let (w, left, right) = (760.0, 80.0, 700.0);
    let (panel_h, gap, top) = (200.0, 40.0, 50.0);
    let h = top + panels.len() as f64 * (panel_h + gap) + 40.0;
    let x = XScale::new(axis, left, right);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n<text x=\"{}\" y=\"40\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\">{BARS}</text>",
        w / 2.0,
        esc(title),
        w / 2.0
    );
    for (k, p) in panels.iter().enumerate() {
        let ptop = top + k as f64 * (panel_h + gap);
        let pbot = ptop + panel_h;
        let (ystep, yt) = y_ticks(p);
        let (y0, y1) = (yt[0], yt[yt.len() - 1]);
        let py = |v: f64| pbot - (v - y0) / (y1 - y0) * (pbot - ptop);
        let pct = p.rate;
        for t in &yt {
            let y = py(*t);
            let _ = writeln!(
                o,
                "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{right}\" y2=\"{y:.1}\" stroke=\"#e4e4e4\"/>\n<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                left - 6.0,
                y + 4.0,
                tick_text(
                    t * if pct { 100.0 } else { 1.0 },
                    ystep * if pct { 100.0 } else { 1.0 },
                    pct,
                    p.signed
                )
            );
        }
        let _ = writeln!(
            o,
            "<rect x=\"{left}\" y=\"{ptop}\" width=\"{}\" height=\"{panel_h}\" fill=\"none\" stroke=\"#444\"/>\n<text transform=\"translate(20 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            right - left,
            (ptop + pbot) / 2.0,
            esc(&p.label)
        );
        for (tx, label) in x.ticks() {
            let _ = writeln!(
                o,
                "<line x1=\"{tx:.1}\" y1=\"{pbot}\" x2=\"{tx:.1}\" y2=\"{}\" stroke=\"#444\"/>\n<text x=\"{tx:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                pbot + 5.0,
                pbot + 18.0,
                esc(&label)
            );
        }
        // The fair share, dashed, broken where a point is missing.
        let fair: Vec<Option<(f64, f64)>> = p
            .fair
            .iter()
            .enumerate()
            .map(|(i, f)| f.map(|f| (x.at(i), py(f))))
            .collect();
        for run in runs(&fair) {
            let _ = writeln!(
                o,
                "<polyline fill=\"none\" stroke=\"#888\" stroke-dasharray=\"6 4\" points=\"{run}\"/>"
            );
        }
        if let Some((_, fy)) = fair.iter().rev().flatten().next() {
            // In the right margin, level with the line's end.
            let _ = writeln!(
                o,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#666\">fair</text>\n<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#666\">share</text>",
                right + 5.0,
                fy - 1.0,
                right + 5.0,
                fy + 10.0
            );
        }
        let pts: Vec<Option<(f64, f64)>> = p
            .points
            .iter()
            .enumerate()
            .map(|(i, e)| e.map(|e| (x.at(i), py(e.value))))
            .collect();
        if axis.numeric() {
            for run in runs(&pts) {
                let _ = writeln!(
                    o,
                    "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"{run}\"/>"
                );
            }
        }
        let bar = if axis.values.len() > 60 { 0.0 } else { 3.0 };
        for (i, e) in p.points.iter().enumerate() {
            let px = x.at(i);
            match e {
                Some(e) => {
                    let (lo, hi) = (py(e.low.max(y0)), py(e.high.min(y1)));
                    let _ = writeln!(
                        o,
                        "<path d=\"M{:.1} {lo:.1}H{:.1}M{px:.1} {lo:.1}V{hi:.1}M{:.1} {hi:.1}H{:.1}\" stroke=\"#1f77b4\" stroke-opacity=\"0.6\"/>\n<circle cx=\"{px:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"#1f77b4\"/>",
                        px - bar,
                        px + bar,
                        px - bar,
                        px + bar,
                        py(e.value)
                    );
                }
                None => {
                    let _ = writeln!(
                        o,
                        "<text x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#c00\">×</text>",
                        pbot - 6.0
                    );
                }
            }
        }
    }
    let bottom = top + panels.len() as f64 * (panel_h + gap);
    let missing = panels
        .first()
        .is_some_and(|p| p.points.iter().any(Option::is_none));
    let _ = writeln!(
        o,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>\n</svg>",
        (left + right) / 2.0,
        bottom + 10.0,
        esc(&axis.key),
        if missing {
            "   (× not a valid variant: skipped)"
        } else {
            ""
        }
    );
    o
}

/// The polyline point lists of the unbroken runs of `pts`.
fn runs(pts: &[Option<(f64, f64)>]) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    for p in pts.iter().chain(std::iter::once(&None)) {
        match p {
            Some((x, y)) => cur.push(format!("{x:.1},{y:.1}")),
            None => {
                if cur.len() > 1 {
                    out.push(cur.join(" "));
                }
                cur.clear();
            }
        }
    }
    out
}

/// A colour for `t` in 0..=1: a light-to-dark blue-green-yellow ramp
/// (after viridis), or, when `diverging`, blue (0) to white (0.5) to red (1).
fn colour(t: f64, diverging: bool) -> (u8, u8, u8) {
    let stops: &[(f64, f64, f64)] = if diverging {
        &[
            (33.0, 102.0, 172.0),
            (247.0, 247.0, 247.0),
            (178.0, 24.0, 43.0),
        ]
    } else {
        &[
            (68.0, 1.0, 84.0),
            (59.0, 82.0, 139.0),
            (33.0, 145.0, 140.0),
            (94.0, 201.0, 98.0),
            (253.0, 231.0, 37.0),
        ]
    };
    let t = t.clamp(0.0, 1.0) * (stops.len() - 1) as f64;
    let i = (t.floor() as usize).min(stops.len() - 2);
    let f = t - i as f64;
    let (a, b) = (stops[i], stops[i + 1]);
    let mix = |x: f64, y: f64| (x + (y - x) * f).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// A heat map of one measure over two keys: `x` across, `y` up;
/// `panel.points[j * x.len() + i]` is the cell of x value `i` and y value
/// `j`. A measure with a fair share is coloured on a diverging scale
/// centred on it (blue below, red above); others from dark to light.
pub fn heat_svg(title: &str, x: &Axis, y: &Axis, panel: &Panel) -> String {
    let (nx, ny) = (x.values.len(), y.values.len());
    let cell = (560.0 / nx as f64).min(400.0 / ny as f64).clamp(4.0, 60.0);
    let (left, top) = (110.0, 64.0);
    let (gw, gh) = (cell * nx as f64, cell * ny as f64);
    let bh = gh.clamp(120.0, 400.0);
    let (w, h) = ((left + gw + 150.0).max(640.0), top + gh.max(bh) + 70.0);
    let scale = if panel.rate { 100.0 } else { 1.0 };
    let values: Vec<f64> = panel.points.iter().flatten().map(|e| e.value).collect();
    let fair = panel.fair.iter().flatten().next().copied();
    let (mut lo, mut hi) = (
        values.iter().copied().fold(f64::INFINITY, f64::min),
        values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if let Some(f) = fair {
        let d = (hi - f).abs().max((lo - f).abs()).max(1e-9);
        (lo, hi) = (f - d, f + d);
    }
    let (step, ticks) = nice_ticks(lo * scale, hi * scale, 5, 0.0);
    let (c0, c1) = (ticks[0] / scale, ticks[ticks.len() - 1] / scale);
    let (c0, c1) = match fair {
        // Keep the centre on the fair share.
        Some(f) => {
            let d = (c1 - f).abs().max((c0 - f).abs());
            (f - d, f + d)
        }
        None => (c0, c1),
    };
    let t_of = |v: f64| if c1 > c0 { (v - c0) / (c1 - c0) } else { 0.5 };
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{:.1}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n<text x=\"{:.1}\" y=\"42\" text-anchor=\"middle\">{}</text>",
        w / 2.0,
        esc(&panel.label),
        w / 2.0,
        esc(title)
    );
    let labels = nx * ny <= 400 && cell >= 34.0;
    for j in 0..ny {
        for i in 0..nx {
            let cx = left + i as f64 * cell;
            let cy = top + (ny - 1 - j) as f64 * cell;
            match panel.points.get(j * nx + i).copied().flatten() {
                Some(e) => {
                    let (r, g, b) = colour(t_of(e.value), fair.is_some());
                    let _ = writeln!(
                        o,
                        "<rect x=\"{cx:.1}\" y=\"{cy:.1}\" width=\"{cell:.1}\" height=\"{cell:.1}\" fill=\"rgb({r},{g},{b})\"><title>{}={}, {}={}: {}</title></rect>",
                        esc(&x.key),
                        esc(&x.values[i].to_string()),
                        esc(&y.key),
                        esc(&y.values[j].to_string()),
                        show(e.value, panel)
                    );
                    if labels {
                        let light =
                            0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b);
                        let _ = writeln!(
                            o,
                            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"10\" fill=\"{}\">{}</text>",
                            cx + cell / 2.0,
                            cy + cell / 2.0 + 3.5,
                            if light < 128.0 { "white" } else { "black" },
                            show(e.value, panel)
                        );
                    }
                }
                None => {
                    let _ = writeln!(
                        o,
                        "<rect x=\"{cx:.1}\" y=\"{cy:.1}\" width=\"{cell:.1}\" height=\"{cell:.1}\" fill=\"#ddd\"/>\n<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#900\" font-size=\"{:.0}\">×</text>",
                        cx + cell / 2.0,
                        cy + cell / 2.0 + 4.0,
                        (cell * 0.6).clamp(6.0, 14.0)
                    );
                }
            }
        }
    }
    let _ = writeln!(
        o,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{gw:.1}\" height=\"{gh:.1}\" fill=\"none\" stroke=\"#444\"/>"
    );
    let xs = label_stride(nx, (gw / 45.0).max(2.0) as usize);
    for i in (0..nx).filter(|i| i % xs == 0) {
        let cx = left + (i as f64 + 0.5) * cell;
        let _ = writeln!(
            o,
            "<line x1=\"{cx:.1}\" y1=\"{:.1}\" x2=\"{cx:.1}\" y2=\"{:.1}\" stroke=\"#444\"/>\n<text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            top + gh,
            top + gh + 5.0,
            top + gh + 18.0,
            esc(&x.values[i].to_string())
        );
    }
    let ys = label_stride(ny, (gh / 18.0).max(2.0) as usize);
    for j in (0..ny).filter(|j| j % ys == 0) {
        let cy = top + (ny - 1 - j) as f64 * cell + cell / 2.0;
        let _ = writeln!(
            o,
            "<line x1=\"{left}\" y1=\"{cy:.1}\" x2=\"{}\" y2=\"{cy:.1}\" stroke=\"#444\"/>\n<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left - 5.0,
            left - 8.0,
            cy + 4.0,
            esc(&y.values[j].to_string())
        );
    }
    let _ = writeln!(
        o,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n<text transform=\"translate(20 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        left + gw / 2.0,
        top + gh + 40.0,
        esc(&x.key),
        top + gh / 2.0,
        esc(&y.key)
    );
    // The colour bar, with nice ticks.
    let (bx, bw) = (left + gw + 30.0, 16.0);
    for k in 0..50 {
        let t = f64::from(k) / 49.0;
        let (r, g, b) = colour(t, fair.is_some());
        let _ = writeln!(
            o,
            "<rect x=\"{bx:.1}\" y=\"{:.1}\" width=\"{bw}\" height=\"{:.2}\" fill=\"rgb({r},{g},{b})\"/>",
            top + bh - (t * bh) - bh / 50.0,
            bh / 50.0 + 0.5
        );
    }
    for t in &ticks {
        let v = t / scale;
        if v < c0 - 1e-12 || v > c1 + 1e-12 {
            continue;
        }
        let ty = top + bh - t_of(v) * bh;
        let _ = writeln!(
            o,
            "<line x1=\"{:.1}\" y1=\"{ty:.1}\" x2=\"{:.1}\" y2=\"{ty:.1}\" stroke=\"#444\"/>\n<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            bx + bw,
            bx + bw + 4.0,
            bx + bw + 7.0,
            ty + 4.0,
            tick_text(*t, step, panel.rate, panel.signed)
        );
    }
    let _ = writeln!(
        o,
        "<rect x=\"{bx:.1}\" y=\"{top}\" width=\"{bw}\" height=\"{bh:.1}\" fill=\"none\" stroke=\"#444\"/>\n<text x=\"{bx:.1}\" y=\"{:.1}\" font-size=\"10\">{}</text>\n</svg>",
        top + bh + 16.0,
        if fair.is_some() {
            "white: fair share"
        } else {
            ""
        }
    );
    o
}

/// Several plots one above the other, as one SVG.
pub fn stack(svgs: &[String]) -> String {
    if let [one] = svgs {
        return one.clone();
    }
    let size = |s: &str, attr: &str| -> f64 {
        let pat = format!(" {attr}=\"");
        s.find(&pat)
            .and_then(|i| {
                let rest = &s[i + pat.len()..];
                rest[..rest.find('"')?].parse().ok()
            })
            .unwrap_or(0.0)
    };
    let w = svgs.iter().map(|s| size(s, "width")).fold(0.0, f64::max);
    let h: f64 = svgs.iter().map(|s| size(s, "height")).sum();
    let mut o = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\">\n"
    );
    let mut y = 0.0;
    for s in svgs {
        // The inner plot keeps its own size, placed at `y`.
        let inner = s.replacen(
            "<svg xmlns=\"http://www.w3.org/2000/svg\"",
            &format!("<svg y=\"{y:.0}\""),
            1,
        );
        o.push_str(&inner);
        y += size(s, "height");
    }
    o.push_str("</svg>\n");
    o
}

fn show(v: f64, p: &Panel) -> String {
    if p.signed {
        format!("{:+.1}", 100.0 * v)
    } else if p.rate {
        format!("{:.0}%", 100.0 * v)
    } else {
        format!("{v:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_nice_and_even_whatever_the_range() {
        let (step, t) = nice_ticks(20.0, 200.0, 8, 1.0);
        assert_eq!(step, 20.0);
        assert_eq!(t.first(), Some(&20.0));
        assert_eq!(t.last(), Some(&200.0));
        assert!(t.len() <= 11);
        let (step, t) = nice_ticks(0.431, 0.587, 5, 0.0);
        assert_eq!(step, 0.05);
        assert!(t[0] <= 0.431 && *t.last().unwrap() >= 0.587);
        for w in t.windows(2) {
            assert!((w[1] - w[0] - step).abs() < 1e-12);
        }
        let (step, _) = nice_ticks(3.0, 5.0, 8, 1.0);
        assert_eq!(step, 1.0);
        let (_, t) = nice_ticks(7.0, 7.0, 5, 0.0);
        assert!(t.len() >= 2);
    }

    #[test]
    fn label_strides_thin_long_axes() {
        assert_eq!(label_stride(5, 12), 1);
        assert_eq!(label_stride(91, 12), 10);
        assert_eq!(label_stride(20, 12), 2);
        assert_eq!(label_stride(1000, 12), 100);
    }

    #[test]
    fn tick_labels_have_the_decimals_of_the_step() {
        assert_eq!(tick_text(40.0, 20.0, false, false), "40");
        assert_eq!(tick_text(0.15, 0.05, false, false), "0.15");
        assert_eq!(tick_text(45.0, 5.0, true, false), "45%");
        assert_eq!(tick_text(2.0, 1.0, true, true), "+2pt");
    }
}
