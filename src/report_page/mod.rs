//! A finished run as one web page (`--html FILE` of simulate, compare,
//! sweep, tune, ladder and merge): the question and the verdict in a
//! sentence each, the findings, the variants (rules sheets, their diff,
//! scripts), the pictures, a sample game of each variant in the viewer,
//! and the command that repeats the run.
//!
//! The page is drawn from the same report object the text and JSON are
//! printed from ([`crate::run::Kind`]); it computes no statistic of its
//! own. It is self-contained: inline CSS and SVG, the sample games as
//! `roots view` pages inside sandboxed frames (`srcdoc`), no network. Its
//! one script does nothing unless the address ends in `#selftest`: then
//! it measures every picture for the browser test (tests/report_html.rs).

mod chart;
mod kinds;

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use crate::games::{AnyRules, GameId, Registered};
use crate::record::{DiceMode, Header, RawRecord};
use crate::run::{Failure, Kind, Settings};

/// A variant of the run, by the name the report gives it.
pub struct Variant {
    pub label: String,
    pub rules: AnyRules,
}

/// Everything a page shows besides the report.
pub struct Page<'a> {
    pub report: Kind<'a>,
    /// The variants played: one, or A and B for `compare`.
    pub variants: Vec<Variant>,
    /// The run's seats, bots and seed: a sample game of each variant is
    /// game 0 of the run (none: no sample).
    pub sample: Option<Settings>,
    /// The command line, as typed.
    pub command: String,
}

/// The variants and settings of a merge, from its parts' setup (the
/// settings under `sim`, the resolved rules under `rules`, or `rules_a`
/// and `rules_b` for compare, named by `label`/`label_a`/`label_b`).
pub fn from_setup(game: &str, setup: &serde_json::Value) -> (Vec<Variant>, Option<Settings>) {
    let settings = setup
        .get("sim")
        .and_then(|s| serde_json::from_value::<Settings>(s.clone()).ok());
    let Some(id) = GameId::parse(game) else {
        return (Vec::new(), settings);
    };
    fn of<G: Registered>(v: &serde_json::Value) -> Option<AnyRules> {
        serde_json::from_value::<<G as crate::games::Game>::Rules>(v.clone())
            .ok()
            .map(|r| G::wrap(Arc::new(r)))
    }
    let rules_of =
        |v: &serde_json::Value| -> Option<AnyRules> { crate::with_game_id!(id, G => of::<G>(v)) };
    let label = |k: &str, or: &str| {
        setup
            .get(k)
            .and_then(|v| v.as_str())
            .unwrap_or(or)
            .to_owned()
    };
    let mut variants = Vec::new();
    for (rules, name, or) in [
        ("rules", "label", "the variant"),
        ("rules_a", "label_a", "A"),
        ("rules_b", "label_b", "B"),
    ] {
        if let Some(r) = setup.get(rules).and_then(rules_of) {
            let l = if rules == "rules" && setup.get("label").is_none() {
                label("variant", or)
            } else {
                label(name, or)
            };
            variants.push(Variant { label: l, rules: r });
        }
    }
    (variants, settings)
}

/// Write the page of `page` to `path` whole: a temporary file beside it,
/// then renamed, so a reader never sees half a page.
pub fn write(path: &Path, page: &Page) -> Result<(), Failure> {
    let text = html(page);
    let shown = path.display();
    let name = path.file_name().map_or_else(
        || "report.html".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let fail =
        |e: std::io::Error| Failure::io(format!("{shown}: error: cannot write the page: {e}"));
    std::fs::write(&tmp, text).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}

/// The page.
pub fn html(page: &Page) -> String {
    let parts = kinds::parts(page);
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body data-kind=\"{}\">\n<main>\n",
        esc(&parts.title),
        parts.kind
    );
    let _ = writeln!(o, "<header><h1>{}</h1>", esc(&parts.title));
    let _ = writeln!(
        o,
        "<p class=\"question\" id=\"question\">{}</p>",
        inline(&parts.question)
    );
    let _ = writeln!(
        o,
        "<p class=\"verdict\" id=\"verdict\">{}</p>",
        esc(&parts.verdict)
    );
    if !parts.detail.is_empty() {
        let _ = writeln!(
            o,
            "<p class=\"detail\" id=\"detail\">{}</p>",
            esc(&parts.detail)
        );
    }
    let _ = writeln!(o, "</header>");
    if !parts.findings.is_empty() {
        let _ = writeln!(o, "<section id=\"findings\"><h2>Findings</h2><ul>");
        for f in &parts.findings {
            let _ = writeln!(o, "<li>{}</li>", inline(f));
        }
        let _ = writeln!(o, "</ul></section>");
    }
    variants_section(page, &mut o);
    if !parts.pictures.is_empty() {
        let _ = writeln!(o, "<section id=\"pictures\"><h2>Pictures</h2>");
        for p in &parts.pictures {
            let _ = writeln!(
                o,
                "<figure class=\"picture\" id=\"fig-{}\">\n{}<figcaption>{}</figcaption>\n</figure>",
                esc(&p.id),
                p.svg,
                esc(&p.caption)
            );
        }
        let _ = writeln!(o, "</section>");
    }
    for extra in &parts.tables {
        o.push_str(extra);
    }
    sample_section(page, &mut o);
    let _ = writeln!(
        o,
        "<section id=\"text\"><details><summary>The report as text</summary><pre>{}</pre></details></section>",
        esc(&parts.text)
    );
    foot(page, &parts, &mut o);
    let _ = writeln!(o, "</main>\n<script>{SELFTEST}</script>\n</body>\n</html>");
    o
}

/// A picture of the page.
pub(crate) struct Picture {
    pub id: String,
    pub svg: String,
    pub caption: String,
}

/// What a report kind gives the page.
pub(crate) struct Parts {
    pub kind: &'static str,
    pub title: String,
    pub question: String,
    pub verdict: String,
    /// The verdict's figures, under it (may be empty).
    pub detail: String,
    pub findings: Vec<String>,
    pub pictures: Vec<Picture>,
    /// Further sections (HTML), after the pictures.
    pub tables: Vec<String>,
    /// The text report.
    pub text: String,
    pub seed: Option<u64>,
}

fn variants_section(page: &Page, o: &mut String) {
    if page.variants.is_empty() {
        return;
    }
    let _ = writeln!(o, "<section id=\"variants\"><h2>The variants</h2>");
    if let [a, b] = &page.variants[..] {
        let changes = crate::with_game!(&a.rules, G, ra => match G::unwrap(&b.rules) {
            Some(rb) => crate::variant::diff::<G>(ra, rb),
            None => Vec::new(),
        });
        let _ = writeln!(
            o,
            "<h3>What B changes: <code>{}</code> → <code>{}</code></h3>",
            esc(&a.label),
            esc(&b.label)
        );
        if changes.is_empty() {
            let _ = writeln!(
                o,
                "<p id=\"diff\">no differences: both variants play the same game</p>"
            );
        } else {
            let _ = writeln!(
                o,
                "<table id=\"diff\" class=\"diff\"><thead><tr><th>key</th><th>A</th><th>B</th><th>what it means in play</th></tr></thead><tbody>"
            );
            for c in &changes {
                let _ = writeln!(
                    o,
                    "<tr data-key=\"{0}\"><td><code>{0}</code></td><td>{1}</td><td>{2}</td><td>{3}</td></tr>",
                    esc(&c.key),
                    esc(&c.from.to_string()),
                    esc(&c.to.to_string()),
                    esc(&c.meaning)
                );
            }
            let _ = writeln!(o, "</tbody></table>");
        }
    }
    let _ = writeln!(o, "<div class=\"sheets\">");
    for (i, v) in page.variants.iter().enumerate() {
        let who = match (page.variants.len(), i) {
            (1, _) => String::new(),
            (_, 0) => "A: ".into(),
            _ => "B: ".into(),
        };
        let _ = writeln!(
            o,
            "<details class=\"sheet\" open><summary>{who}the rules sheet of <code>{}</code></summary><div class=\"sheet-body\">{}</div></details>",
            esc(&v.label),
            sheet_html(&crate::variant::explain::rules_sheet(&v.rules))
        );
    }
    let _ = writeln!(o, "</div></section>");
}

/// A rules sheet (Markdown, with fenced script code) as HTML.
fn sheet_html(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        out.push_str(&crate::view::markdown(&rest[..start]));
        let after = &rest[start + 3..];
        let body_at = after.find('\n').map_or(after.len(), |i| i + 1);
        let body = &after[body_at..];
        let end = body.find("```").unwrap_or(body.len());
        let _ = write!(
            out,
            "<pre class=\"code\">{}</pre>",
            esc(body[..end].trim_end())
        );
        rest = body.get(end + 3..).unwrap_or("");
    }
    out.push_str(&crate::view::markdown(rest));
    out
}

/// A sample game of each variant: game 0 of the run, played again with
/// the run's seed, seats and bots, as the `roots view` page, embedded.
fn sample_section(page: &Page, o: &mut String) {
    let Some(settings) = &page.sample else {
        return;
    };
    if page.variants.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "<section id=\"samples\" class=\"samples\"><h2>A sample game of each variant</h2><p>Game 1 of the run (seed {}, the run's seats and bots; <code>--record-game 0</code> of simulate){}: step through it with the buttons or the arrow keys. The page of <code>roots view</code>, embedded.</p>",
        settings.seed,
        if page.variants.len() == 2 {
            ", the same dice in both"
        } else {
            ""
        }
    );
    for v in &page.variants {
        match sample_page(&v.rules, settings) {
            Ok(view) => {
                let _ = writeln!(
                    o,
                    "<details class=\"sample\" open><summary>{}</summary><iframe class=\"viewer\" title=\"a sample game of {}\" sandbox=\"allow-scripts\" srcdoc=\"{}\"></iframe></details>",
                    esc(&v.label),
                    esc(&v.label),
                    esc(&view)
                );
            }
            Err(why) => {
                let _ = writeln!(
                    o,
                    "<p class=\"sample-missing\">{}: no sample game: {}</p>",
                    esc(&v.label),
                    esc(&why)
                );
            }
        }
    }
    let _ = writeln!(o, "</section>");
}

/// The `roots view` page of game 0 of a run of `rules` under `settings`.
fn sample_page(rules: &AnyRules, settings: &Settings) -> Result<String, String> {
    crate::with_game!(rules, G, r => sample_of::<G>(r, settings))
}

fn sample_of<G: Registered>(rules: &G::Rules, settings: &Settings) -> Result<String, String> {
    let json = serde_json::to_value(rules).map_err(|e| e.to_string())?;
    let mut one = settings.clone();
    one.games = 1;
    let config = one.config::<G>(&json).map_err(|f| f.message)?;
    let (players, events) = crate::sim::record_game(&config, 0).map_err(|e| e.to_string())?;
    let raw = RawRecord {
        header: Header {
            variant: G::wrap(Arc::clone(&config.rules)),
            seed: Some(config.seed),
            seed_game: 0,
            dice: DiceMode::Auto,
            players,
            created: crate::record::utc_now().0,
        },
        events: events
            .into_iter()
            .enumerate()
            .map(|(i, e)| (i + 2, e))
            .collect(),
        warnings: Vec::new(),
        whole_len: 0,
    };
    crate::view::html::<G>(&raw).map_err(|e| e.message)
}

fn foot(page: &Page, parts: &Parts, o: &mut String) {
    let _ = writeln!(o, "<footer id=\"foot\"><h2>To repeat this run</h2>");
    let _ = writeln!(
        o,
        "<pre class=\"command\" id=\"command\">{}</pre>",
        esc(&page.command)
    );
    let _ = writeln!(o, "<dl>");
    if let Some(seed) = parts.seed {
        let _ = writeln!(o, "<dt>seed</dt><dd id=\"seed\">{seed}</dd>");
    }
    let _ = writeln!(
        o,
        "<dt>version</dt><dd id=\"version\">roots {}</dd><dt>written</dt><dd id=\"time\">{}</dd>",
        env!("CARGO_PKG_VERSION"),
        crate::record::utc_now().0
    );
    let _ = writeln!(
        o,
        "</dl><p>The same command with the same seed and version plays the same games. What every figure means: docs/statistics.md; this page: docs/report.md.</p></footer>"
    );
}

/// Text as HTML, with `code` in backticks as code.
fn inline(s: &str) -> String {
    let mut o = String::new();
    for (i, part) in esc(s).split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(o, "<code>{part}</code>");
        } else {
            o.push_str(part);
        }
    }
    o
}

/// Text as HTML (also inside attributes).
pub(crate) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// With `#selftest`: each picture's drawn size and marks, and any script
/// error, as attributes of the body, for the browser test to read.
const SELFTEST: &str = r#"
window.addEventListener('error', function (e) { document.body.setAttribute('data-error', String(e.message)); });
if (location.hash === '#selftest') {
  var seen = [];
  document.querySelectorAll('figure.picture').forEach(function (f) {
    var svg = f.querySelector('svg');
    var box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
    var inner = svg ? svg.getBBox() : { width: 0, height: 0 };
    seen.push({ id: f.id, width: Math.round(box.width), height: Math.round(box.height),
      drawn: Math.round(inner.width * inner.height),
      marks: svg ? svg.querySelectorAll('.mark, .bar, path, rect').length : 0,
      caption: (f.querySelector('figcaption') || { textContent: '' }).textContent.length });
  });
  document.body.setAttribute('data-selftest', JSON.stringify(seen));
}
"#;

const CSS: &str = r#"
:root { --ink: #111; --soft: #555; --line: #d0d0d0; --a: #0072B2; --b: #E69F00; --diff: #D55E00; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0; }
h2 { font-size: 1.2rem; border-bottom: 2px solid var(--line); padding-bottom: .2rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; }
.question { font-size: 1.1rem; color: var(--soft); margin: .3rem 0; }
.verdict { font-size: 1.25rem; font-weight: 600; border-left: 6px solid var(--a); padding: .4rem .8rem; background: #eef5fa; }
figure { margin: 1rem 0 1.5rem; }
svg.chart { width: 100%; height: auto; display: block; }
figcaption { font-size: .92rem; color: var(--soft); margin-top: .3rem; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
th, td { border-bottom: 1px solid var(--line); padding: .25rem .4rem; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.table-wrap { overflow-x: auto; }
code, pre { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: .88rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f6f6; padding: .6rem; }
.sheets { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 1rem; }
.sheet-body { font-size: .9rem; max-height: 22rem; overflow-y: auto; border: 1px solid var(--line); padding: 0 .6rem; }
.detail { color: var(--soft); margin: .3rem 0 0; }
details > summary { cursor: pointer; font-weight: 600; }
iframe.viewer { width: 100%; height: 40rem; border: 1px solid var(--line); }
.verdict-different { color: var(--diff); font-weight: 600; }
.verdict-same { color: var(--a); }
.verdict-undecided { color: var(--soft); }
footer { margin-top: 2rem; border-top: 2px solid var(--line); font-size: .95rem; }
footer dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
footer dt { color: var(--soft); }
footer dd { margin: 0; }
@media (max-width: 40rem) {
  body { font-size: 15px; }
  main { padding: .6rem; }
  .verdict { font-size: 1.1rem; }
  iframe.viewer { height: 32rem; }
  /* Pictures keep a readable size and scroll sideways on a phone. */
  figure.picture { overflow-x: auto; }
  svg.chart { min-width: 40rem; }
}
@media print {
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  .verdict { background: none; border-left-width: 4px; }
  details { display: block; }
  .sheet-body { max-height: none; overflow: visible; border: none; }
  details > summary { list-style: none; }
  .samples, #text { display: none; }
  figure { break-inside: avoid; }
  h2 { break-after: avoid; }
}
"#;
