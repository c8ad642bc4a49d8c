//! What every game's picture shares: an SVG writer with fixed number
//! formatting (so pictures are stable text, fit for snapshot tests), the
//! seats' colours, text escaping, and the default picture of a game that
//! draws none of its own: its text board inside an SVG.
//!
//! Pictures are self-contained: no external fonts, images or styles, so that
//! a picture opens from disk and can be inlined into an HTML page.

use std::fmt::Write;

use crate::core::protocol::Seat;

/// Fill colours of the seats, seat 1 first (bead colours: red, blue, green,
/// purple, teal, amber, grey, brown), as in the terminal's order.
const SEAT_FILLS: [&str; 8] = [
    "#d62728", "#1f5fbf", "#2ca02c", "#8e44ad", "#17a2b8", "#e6a100", "#7f7f7f", "#8c564b",
];

/// The fill colour of seat `s`.
pub fn seat_fill(s: Seat) -> &'static str {
    SEAT_FILLS[usize::from(s) % SEAT_FILLS.len()]
}

/// Text for an SVG text node or attribute: `&`, `<`, `>`, `"` and `'`
/// escaped; control characters other than tab dropped.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// A number as SVG writes it: at most two decimals, no trailing zeros, no
/// `-0`.
pub fn num(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    let r = if r == 0.0 { 0.0 } else { r };
    let s = format!("{r:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// Points of a polygon or polyline: `x,y x,y ...`.
pub fn points(pts: &[(f64, f64)]) -> String {
    pts.iter()
        .map(|&(x, y)| format!("{},{}", num(x), num(y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An SVG document being written: elements are appended as text.
#[derive(Debug)]
pub struct Svg {
    width: f64,
    height: f64,
    body: String,
}

impl Svg {
    /// A picture `width` x `height` pixels (its view box).
    pub fn new(width: f64, height: f64) -> Svg {
        Svg {
            width,
            height,
            body: String::new(),
        }
    }

    /// Append raw markup (one element or more).
    pub fn raw(&mut self, markup: &str) {
        self.body.push_str(markup);
        if !markup.ends_with('\n') {
            self.body.push('\n');
        }
    }

    /// A line.
    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), style: &str) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {style}/>"#,
            num(a.0),
            num(a.1),
            num(b.0),
            num(b.1)
        );
    }

    /// A circle.
    pub fn circle(&mut self, c: (f64, f64), r: f64, style: &str) {
        let _ = writeln!(
            self.body,
            r#"<circle cx="{}" cy="{}" r="{}" {style}/>"#,
            num(c.0),
            num(c.1),
            num(r)
        );
    }

    /// A rectangle.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, style: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{}" y="{}" width="{}" height="{}" {style}/>"#,
            num(x),
            num(y),
            num(w),
            num(h)
        );
    }

    /// A closed polygon.
    pub fn polygon(&mut self, pts: &[(f64, f64)], style: &str) {
        let _ = writeln!(self.body, r#"<polygon points="{}" {style}/>"#, points(pts));
    }

    /// Text at `at` (escaped), with `style` attributes (`text-anchor`,
    /// `font-size`, ...).
    pub fn text(&mut self, at: (f64, f64), text: &str, style: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{}" y="{}" {style}>{}</text>"#,
            num(at.0),
            num(at.1),
            esc(text)
        );
    }

    /// The document: an `<svg>` element with its view box, a white
    /// background, a `<title>` and the body.
    pub fn finish(self, title: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n<title>{}</title>\n<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n{}</svg>\n",
            esc(title),
            self.body,
            w = num(self.width),
            h = num(self.height),
        )
    }
}

/// The legend under a board, from its left edge: one line per seat, a
/// round swatch filled with `fill(seat)` and drawn with `outline` (the
/// stroke attributes, like the game's pieces), its letter, its player's name
/// and `detail` (scores and the like). Returns the height used.
pub fn legend(
    svg: &mut Svg,
    top: f64,
    rows: &[(Seat, char, String)],
    fill: impl Fn(Seat) -> &'static str,
    outline: &str,
) -> f64 {
    let step = 22.0;
    let left = 14.0;
    for (i, (seat, letter, text)) in rows.iter().enumerate() {
        let y = top + step * i as f64;
        svg.raw(&format!(
            r#"<circle cx="{}" cy="{}" r="7" fill="{}" {outline}/>"#,
            num(left + 8.0),
            num(y + 8.0),
            fill(*seat)
        ));
        svg.text(
            (left + 22.0, y + 13.0),
            &format!("{letter}  {text}"),
            r##"font-size="13" fill="#222222""##,
        );
    }
    step * rows.len() as f64
}

/// The outline of the legend's swatches in the games whose pieces have a
/// thin dark edge (beads, pyramids).
pub const THIN_OUTLINE: &str = r##"stroke="#00000055" stroke-width="1""##;

/// The legend's rows, a seat each (`0..seats`): the seat, its `letter`,
/// and its player's name from `names` (`?` where none is given) followed by
/// `detail(seat)`: `Ann: score 3, ...`.
pub fn seat_rows(
    seats: u8,
    names: &[String],
    letter: impl Fn(Seat) -> char,
    detail: impl Fn(Seat) -> String,
) -> Vec<(Seat, char, String)> {
    (0..seats)
        .map(|s| {
            let name = names.get(usize::from(s)).map_or("?", String::as_str);
            (s, letter(s), format!("{name}: {}", detail(s)))
        })
        .collect()
}

/// How a picture draws its seats in the legend ([`legend`]): the rows, the
/// fill of each seat's swatch and the swatch's outline.
pub struct Seats<'a> {
    pub rows: &'a [(Seat, char, String)],
    pub fill: fn(Seat) -> &'static str,
    pub outline: &'a str,
}

/// What every picture draws under its board, from `top`: the seats'
/// [`legend`], a line of `status` in words (after a round swatch styled
/// `swatch`, when one is given), then the [`Key`] to the marks.
pub fn foot(
    svg: &mut Svg,
    top: f64,
    seats: &Seats<'_>,
    status: &str,
    swatch: Option<&str>,
    key: &Key,
) {
    let used = legend(svg, top, seats.rows, seats.fill, seats.outline);
    let left = match swatch {
        Some(style) => {
            svg.circle((22.0, top + used + 8.0), 7.0, style);
            36.0
        }
        None => 14.0,
    };
    svg.text(
        (left, top + used + 13.0),
        status,
        r##"font-size="13" fill="#222222""##,
    );
    key.draw(svg, 14.0, top + used + 24.0);
}

/// The width the legend's rows need, in pixels (13-pixel text).
pub fn legend_width(rows: &[(Seat, char, String)]) -> f64 {
    let chars = rows
        .iter()
        .map(|(_, _, t)| t.chars().count() + 3)
        .max()
        .unwrap_or(0);
    (14.0 + 22.0 + 7.6 * chars as f64 + 14.0).ceil()
}

/// How a swatch of a picture's key is drawn: centred at the point given.
pub type Swatch<'a> = Box<dyn Fn(&mut Svg, (f64, f64)) + 'a>;

/// The key under a picture: what each kind of mark means, as small
/// swatches drawn like the marks, each followed by its words, in rows that
/// wrap at the picture's width. Every picture explains its marks with one
/// (a legend that names only the seats leaves a newcomer guessing).
pub struct Key<'a> {
    width: f64,
    items: Vec<(Swatch<'a>, String)>,
}

/// The colour the pictures outline the last move with.
pub const LAST_MOVE: &str = "#e6a100";

/// The key's row height and text size, in pixels.
const KEY_ROW: f64 = 20.0;
const KEY_FONT: f64 = 11.0;

impl<'a> Key<'a> {
    /// An empty key for a picture `width` pixels wide.
    pub fn new(width: f64) -> Key<'a> {
        Key {
            width,
            items: Vec::new(),
        }
    }

    /// One more mark: `swatch` draws it (about 16 pixels across, centred at
    /// the point given) and `words` say what it means.
    pub fn add(mut self, swatch: impl Fn(&mut Svg, (f64, f64)) + 'a, words: &str) -> Key<'a> {
        self.items.push((Box::new(swatch), words.to_owned()));
        self
    }

    /// The mark of the last move, as every game outlines it: a square
    /// `side` pixels across in [`LAST_MOVE`]'s colour, and its `words`.
    pub fn last_move(self, side: f64, words: &str) -> Key<'a> {
        self.add(
            move |svg, at| {
                square(
                    svg,
                    at,
                    side,
                    &format!(r#"fill="none" stroke="{LAST_MOVE}" stroke-width="2.5""#),
                );
            },
            words,
        )
    }

    /// Where each item starts, from the key's top left, and the height used.
    fn places(&self, left: f64) -> (Vec<(f64, f64)>, f64) {
        let (mut x, mut y) = (0.0, 0.0);
        let mut out = Vec::new();
        for (_, words) in &self.items {
            // DejaVu Sans averages a little under 0.6 em a character.
            let w = 24.0 + 0.6 * KEY_FONT * words.chars().count() as f64 + 14.0;
            if x > 0.0 && left + x + w > self.width - left {
                x = 0.0;
                y += KEY_ROW;
            }
            out.push((x, y));
            x += w;
        }
        let height = if self.items.is_empty() {
            0.0
        } else {
            y + KEY_ROW
        };
        (out, height)
    }

    /// The height the key needs, in pixels, when drawn from `left`.
    pub fn height(&self, left: f64) -> f64 {
        self.places(left).1
    }

    /// Draw the key with its top left at (`left`, `top`); returns the
    /// height used.
    pub fn draw(&self, svg: &mut Svg, left: f64, top: f64) -> f64 {
        let (places, height) = self.places(left);
        for ((swatch, words), (x, y)) in self.items.iter().zip(places) {
            swatch(svg, (left + x + 8.0, top + y + 8.0));
            svg.text(
                (left + x + 22.0, top + y + 12.0),
                words,
                r##"font-size="11" fill="#555555""##,
            );
        }
        height
    }
}

/// A swatch: a rounded square `side` pixels across, centred at `at`.
pub fn square(svg: &mut Svg, at: (f64, f64), side: f64, style: &str) {
    svg.rect(
        at.0 - side / 2.0,
        at.1 - side / 2.0,
        side,
        side,
        &format!(r#"rx="2" {style}"#),
    );
}

/// The default picture: the game's text board in a monospaced font, one
/// `<text>` line per line of `text`.
pub fn text_picture(text: &str, title: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let cols = lines.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    let (cw, lh, pad) = (8.4, 17.0, 12.0);
    let mut svg = Svg::new(
        (pad * 2.0 + cw * cols as f64).ceil(),
        (pad * 2.0 + lh * lines.len().max(1) as f64).ceil(),
    );
    for (i, line) in lines.iter().enumerate() {
        svg.raw(&format!(
            r##"<text x="{}" y="{}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14" fill="#222222" xml:space="preserve">{}</text>"##,
            num(pad),
            num(pad + lh * (i as f64 + 0.8)),
            esc(line)
        ));
    }
    svg.finish(title)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.5), "1.5");
        assert_eq!(num(1.234), "1.23");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(-2.5), "-2.5");
        assert_eq!(num(100.0), "100");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(esc("a<b & \"c\"\u{1b}"), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn the_text_picture_holds_every_line() {
        let svg = text_picture("a b\n<c>", "t");
        assert!(svg.starts_with("<svg "));
        assert!(svg.contains(">a b</text>"));
        assert!(svg.contains(">&lt;c&gt;</text>"));
        assert!(svg.contains("<title>t</title>"));
    }
}
