//! `--html FILE`: one run of each command that reports (simulate, compare,
//! sweep, tune, ladder, merge) writes a web page; the page refers to
//! nothing on the network; headless Chromium opens it without a script
//! error, and every picture is there, drawn and captioned; the figures the
//! pictures carry equal the JSON report's of the same run.
//!
//! Without Chromium the browser half says so loudly and is skipped, except
//! under `CI=true`, where it fails (as tests/view_browser.rs).

use crate::common;

use std::path::Path;

use common::{chromium, roots, tmp_dir};
use serde_json::Value;

/// Run `args` with `--format json --html PAGE`: the page and the JSON.
fn run_with_page(dir: &Path, name: &str, args: &[&str]) -> (String, Value) {
    let page = dir.join(format!("{name}.html"));
    let mut all: Vec<&str> = args.to_vec();
    let p = page.to_str().unwrap().to_owned();
    all.extend(["--format", "json", "--html", &p]);
    let r = roots(&all);
    assert_eq!(r.code, 0, "{name}: {}", r.transcript());
    let html = std::fs::read_to_string(&page).expect("the page is written");
    (html, r.json())
}

/// The attributes of every element whose opening tag starts with `open`.
fn elements(html: &str, open: &str) -> Vec<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(open) {
        let tag = &rest[i..];
        let end = tag.find('>').unwrap_or(tag.len());
        out.push(attributes(&tag[..end]));
        rest = &tag[end..];
    }
    out
}

fn attributes(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = tag;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].rsplit(' ').next().unwrap_or("").to_owned();
        let after = &rest[eq + 2..];
        let close = after.find('"').unwrap_or(after.len());
        let value = after[..close]
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&#39;", "'")
            .replace("&amp;", "&");
        out.push((name, value));
        rest = &after[(close + 1).min(after.len())..];
    }
    out
}

fn get<'a>(attrs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn num(attrs: &[(String, String)], name: &str) -> f64 {
    get(attrs, name)
        .unwrap_or_else(|| panic!("no {name} in {attrs:?}"))
        .parse()
        .unwrap()
}

/// The marks of a picture (`<g class="mark"` inside `<svg id="ID"`).
fn marks(html: &str, id: &str) -> Vec<Vec<(String, String)>> {
    let start = html
        .find(&format!("<svg id=\"{id}\""))
        .unwrap_or_else(|| panic!("no picture {id}"));
    let end = html[start..].find("</svg>").unwrap() + start;
    elements(&html[start..end], "<g class=\"mark\"")
}

/// What every page has, whatever its kind.
fn common_checks(name: &str, html: &str, variants: usize) {
    let svg_ns = html.matches("http://www.w3.org/2000/svg").count();
    assert_eq!(
        html.matches("http://").count(),
        svg_ns,
        "{name}: the page refers to the network"
    );
    assert!(
        !html.contains("https://"),
        "{name}: the page refers to the network"
    );
    assert!(!html.contains("<script src"), "{name}: an external script");
    for id in ["question", "verdict", "foot", "command", "version", "time"] {
        assert!(html.contains(&format!("id=\"{id}\"")), "{name}: no #{id}");
    }
    assert!(
        html.contains("--html"),
        "{name}: the command line is at the foot"
    );
    assert_eq!(
        html.matches("<details class=\"sheet\"").count(),
        variants,
        "{name}: a rules sheet per variant"
    );
    assert_eq!(
        html.matches("<iframe class=\"viewer\"").count(),
        variants,
        "{name}: a sample game per variant"
    );
    let figures = html.matches("<figure class=\"picture\"").count();
    let captions = html.matches("<figcaption>").count();
    assert!(figures > 0, "{name}: no picture");
    assert_eq!(figures, captions, "{name}: every picture has a caption");
}

/// Open the page in Chromium with `#selftest`: no script error, and every
/// picture drawn at a size, with marks and a caption.
fn in_browser(browser: &Path, profile: &Path, name: &str, page: &Path, html: &str) {
    let (dom, log) = common::dump_dom(browser, page, "#selftest", profile);
    let body = elements(&dom, "<body");
    let body = body.first().expect("a body");
    assert!(
        get(body, "data-error").is_none(),
        "{name}: a script error: {body:?}"
    );
    assert!(
        !log.contains("Uncaught"),
        "{name}: the console reports an error:\n{log}"
    );
    let seen: Value =
        serde_json::from_str(get(body, "data-selftest").expect("the page measured its pictures"))
            .unwrap();
    let seen = seen.as_array().unwrap();
    assert_eq!(
        seen.len(),
        html.matches("<figure class=\"picture\"").count(),
        "{name}: every picture is on the page the browser built"
    );
    for p in seen {
        for k in ["width", "height", "drawn", "marks", "caption"] {
            assert!(
                p[k].as_f64().unwrap() > 0.0,
                "{name}: picture {p} has no {k}"
            );
        }
    }
}

#[test]
fn every_command_writes_a_page_whose_figures_are_the_reports() {
    let dir = tmp_dir("report_html", "pages");
    let mut pages = Vec::new();

    // simulate: each seat's wins as the JSON has them.
    let (html, json) = run_with_page(
        &dir,
        "simulate",
        &["simulate", "standard", "-n", "60", "--seed", "3"],
    );
    common_checks("simulate", &html, 1);
    let wins = marks(&html, "wins");
    for seat in json["seats"].as_array().unwrap() {
        let key = format!("seat{}-wins", seat["seat"]);
        let m = wins
            .iter()
            .find(|m| get(m, "data-key") == Some(&key))
            .expect("a mark per seat");
        assert_eq!(num(m, "data-value"), seat["wins"]["rate"].as_f64().unwrap());
        assert_eq!(num(m, "data-low"), seat["wins"]["low"].as_f64().unwrap());
        assert_eq!(num(m, "data-high"), seat["wins"]["high"].as_f64().unwrap());
    }
    let measures = marks(&html, "measures-shares");
    let balance = json["measures"]["measures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["share"] == true)
        .unwrap();
    let m = measures
        .iter()
        .find(|m| get(m, "data-key") == balance["key"].as_str())
        .unwrap();
    assert_eq!(num(m, "data-value"), balance["value"].as_f64().unwrap());
    assert!(html.contains(&format!("<dd id=\"seed\">{}</dd>", json["seed"])));
    pages.push(("simulate", html));

    // compare: the forest plot has every difference, its interval, margin
    // and verdict.
    let (html, json) = run_with_page(
        &dir,
        "compare",
        &[
            "compare",
            "standard",
            "more-beads",
            "-n",
            "60",
            "--seed",
            "3",
        ],
    );
    common_checks("compare", &html, 2);
    assert!(
        html.contains("data-key=\"beads.supply\""),
        "the diff of the two variants"
    );
    let forest = marks(&html, "forest");
    let diffs = json["differences"].as_array().unwrap();
    assert_eq!(forest.len(), diffs.len(), "a row per statistic");
    for (m, d) in forest.iter().zip(diffs) {
        assert_eq!(get(m, "data-key"), d["key"].as_str());
        assert_eq!(num(m, "data-estimate"), d["estimate"].as_f64().unwrap());
        assert_eq!(num(m, "data-ci-low"), d["low"].as_f64().unwrap());
        assert_eq!(num(m, "data-ci-high"), d["high"].as_f64().unwrap());
        assert_eq!(num(m, "data-margin"), d["margin"].as_f64().unwrap());
        assert_eq!(get(m, "data-verdict"), d["verdict"].as_str());
    }
    let bars = elements(&html, "<rect class=\"bar\"");
    assert!(
        bars.iter()
            .any(|b| get(b, "data-series").is_some_and(|s| s.starts_with("A:")))
    );
    assert!(
        bars.iter()
            .any(|b| get(b, "data-series").is_some_and(|s| s.starts_with("B:")))
    );
    pages.push(("compare", html));

    // sweep: each cell of the figures is the JSON's estimate.
    let (html, json) = run_with_page(
        &dir,
        "sweep",
        &[
            "sweep",
            "standard",
            "--set",
            "beads.supply=40..80:20",
            "-n",
            "30",
            "--seed",
            "3",
        ],
    );
    common_checks("sweep", &html, 1);
    let cells = elements(&html, "<td class=\"num cell\"");
    let rows = json["values"].as_array().unwrap();
    let mut checked = 0;
    for (i, row) in rows.iter().enumerate() {
        for (key, e) in row["measures"].as_object().unwrap() {
            let mine: Vec<_> = cells
                .iter()
                .filter(|c| get(c, "data-measure") == Some(key.as_str()))
                .collect();
            assert_eq!(num(mine[i], "data-value"), e["value"].as_f64().unwrap());
            assert_eq!(num(mine[i], "data-low"), e["low"].as_f64().unwrap());
            checked += 1;
        }
    }
    assert!(checked >= 3);
    assert!(html.contains("<svg id=\"sweep\""));
    pages.push(("sweep", html));

    // tune: the distances of the original rules and the best points (the
    // best variant written in the test's directory, not the crate's).
    let tuned = dir.join("tuned.toml");
    let tuned = tuned.to_str().unwrap();
    let (html, json) = run_with_page(
        &dir,
        "tune",
        &[
            "tune",
            "standard",
            "--vary",
            "beads.supply=40..80",
            "--target",
            "rounds=22",
            "--budget",
            "300",
            "--candidates",
            "3",
            "--top",
            "2",
            "-n",
            "20",
            "--seed",
            "3",
            "--write",
            tuned,
        ],
    );
    common_checks("tune", &html, 2);
    let dist = marks(&html, "distance");
    let mut want = vec![json["original"]["distance"].as_f64().unwrap()];
    want.extend(
        json["best"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["distance"].as_f64().unwrap()),
    );
    let got: Vec<f64> = dist.iter().map(|m| num(m, "data-value")).collect();
    assert_eq!(got, want);
    // The path: each round's least distance, as the JSON's path has it.
    let path: Vec<f64> = marks(&html, "path")
        .iter()
        .map(|m| num(m, "data-distance"))
        .collect();
    let want: Vec<f64> = json["path"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["distance"].as_f64())
        .collect();
    assert!(want.len() >= 2, "a path of rounds: {}", json["path"]);
    assert_eq!(path, want);
    assert!(
        html.contains("<table id=\"diff\""),
        "the best variant's diff"
    );
    let target = marks(&html, "target-1");
    assert_eq!(
        num(&target[1], "data-value"),
        json["best"][0]["measures"]["rounds"]["value"]
            .as_f64()
            .unwrap()
    );
    pages.push(("tune", html));

    // ladder: the ratings.
    let (html, json) = run_with_page(
        &dir,
        "ladder",
        &[
            "ladder",
            "standard",
            "--bots",
            "greedy,random",
            "-n",
            "20",
            "--seed",
            "3",
        ],
    );
    common_checks("ladder", &html, 1);
    let ratings = marks(&html, "ratings");
    for r in json["ratings"].as_array().unwrap() {
        let m = ratings
            .iter()
            .find(|m| get(m, "data-key") == r["bot"].as_str())
            .unwrap();
        assert_eq!(num(m, "data-value"), r["elo"].as_f64().unwrap());
        assert_eq!(num(m, "data-low"), r["low"].as_f64().unwrap());
    }
    pages.push(("ladder", html));

    // merge: the page of two shards is the page of the whole run's report,
    // rules sheet and sample game included.
    let mut parts = Vec::new();
    for k in ["1/2", "2/2"] {
        let r = roots(&[
            "simulate", "standard", "-n", "60", "--seed", "3", "--format", "json", "--shard", k,
        ]);
        assert_eq!(r.code, 0, "{}", r.transcript());
        let part = dir.join(format!("part-{}.json", &k[..1]));
        std::fs::write(&part, &r.stdout).unwrap();
        parts.push(part.to_str().unwrap().to_owned());
    }
    let page = dir.join("merge.html");
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(String::as_str));
    args.extend(["--html", page.to_str().unwrap()]);
    let r = roots(&args);
    assert_eq!(r.code, 0, "{}", r.transcript());
    let html = std::fs::read_to_string(&page).unwrap();
    common_checks("merge", &html, 1);
    let whole = &pages[0].1;
    assert_eq!(
        marks(&html, "wins"),
        marks(whole, "wins"),
        "merged wins = the whole run's"
    );
    pages.push(("merge", html));

    let Some(browser) = chromium() else {
        let msg = "\n\n*** report_html: Chromium is not installed: the pages were NOT opened in a \
                   browser. Install it (apt-get install chromium) or set ROOTS_CHROMIUM. ***\n";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg}under CI=true the browser test must run");
        }
        eprintln!("{msg}");
        return;
    };
    let profile = dir.join("profile");
    for (name, html) in &pages {
        in_browser(
            &browser,
            &profile,
            name,
            &dir.join(format!("{name}.html")),
            html,
        );
    }
}

#[test]
fn html_with_shard_is_refused_before_playing() {
    let r = roots(&[
        "simulate", "-n", "10", "--seed", "1", "--shard", "1/2", "--html", "x.html",
    ]);
    assert_eq!(r.code, 2, "{}", r.transcript());
    assert!(r.stderr.contains("--html with --shard"), "{}", r.stderr);
}

#[test]
fn a_page_that_cannot_be_written_is_a_clear_error() {
    let dir = tmp_dir("report_html", "unwritable");
    let page = dir.join("no-such-dir").join("page.html");
    let r = roots(&[
        "simulate",
        "-n",
        "10",
        "--seed",
        "1",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_ne!(r.code, 0, "{}", r.transcript());
    assert!(r.stderr.contains("cannot write the page"), "{}", r.stderr);
    assert!(!page.exists());
}
