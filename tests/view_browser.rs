//! `roots view` in a real browser: headless Chromium (Debian's `chromium`,
//! installed by `.ci/run`) opens the page of a recorded game of every game
//! from disk, with nothing fetched; the page loads without a script error,
//! its own buttons and arrow keys step through the game and change the
//! board, and the last step shows the final scores.
//!
//! Without Chromium the test says so loudly and passes, except under
//! `CI=true`, where it fails.

use crate::common;
use common::{chromium, dump_dom};

use common::roots;

/// The value of attribute `name` on the first element that has it.
fn attribute(dom: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let start = dom.find(&key)? + key.len();
    let end = dom[start..].find('"')? + start;
    Some(
        dom[start..end]
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&#39;", "'")
            .replace("&amp;", "&"),
    )
}

fn text_of(dom: &str, id: &str) -> String {
    let key = format!("id=\"{id}\">");
    let start = dom.find(&key).map(|i| i + key.len()).unwrap_or(0);
    let end = dom[start..].find('<').map_or(dom.len(), |e| e + start);
    dom[start..end].to_string()
}

#[test]
fn the_page_steps_through_a_game_of_every_game_in_chromium() {
    let Some(browser) = chromium() else {
        let msg = "\n\n*** view_browser: Chromium is not installed: the browser test of `roots view` \
                   did NOT run. Install it (apt-get install chromium) or set ROOTS_CHROMIUM. ***\n";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg}under CI=true the browser test must run");
        }
        eprintln!("{msg}");
        return;
    };
    let dir = std::env::temp_dir().join(format!("roots-view-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let profile = dir.join("profile");
    for (variant, players) in [
        ("standard", "random,random"),
        ("btt", "random,random,random"),
        ("sprout-r-out", "random,random"),
        ("roots-growy-roots", "random,random"),
    ] {
        let record = dir.join(format!("{variant}.jsonl"));
        let page = dir.join(format!("{variant}.html"));
        let r = roots(&[
            "play",
            variant,
            "--players",
            players,
            "--seed",
            "11",
            "--record",
            record.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{}", r.transcript());
        let r = roots(&[
            "view",
            record.to_str().unwrap(),
            "-o",
            page.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{}", r.transcript());
        let html = std::fs::read_to_string(&page).unwrap();
        for remote in ["http://", "https://", "src=\"//"] {
            let uses = html.matches(remote).count();
            let svg_ns = html.matches("http://www.w3.org/2000/svg").count();
            if remote == "http://" {
                assert_eq!(uses, svg_ns, "{variant}: the page refers to the network");
            } else {
                assert_eq!(uses, 0, "{variant}: the page refers to the network");
            }
        }

        let (dom, log) = dump_dom(&browser, &page, "#selftest", &profile);
        assert!(
            attribute(&dom, "data-error").is_none(),
            "{variant}: a script error: {:?}",
            attribute(&dom, "data-error")
        );
        assert!(
            !log.contains("Uncaught"),
            "{variant}: the console reports an error:\n{log}"
        );
        let seen: serde_json::Value = serde_json::from_str(
            &attribute(&dom, "data-selftest").expect("the page ran its self-test"),
        )
        .unwrap();
        let seen = seen.as_array().unwrap();
        let steps: Vec<u64> = seen.iter().map(|s| s["step"].as_u64().unwrap()).collect();
        let events = std::fs::read_to_string(&record).unwrap().lines().count() as u64 - 1;
        assert_eq!(
            steps,
            [0, 1, 2, 1, events, 0, events],
            "{variant}: load, on, right, left, end, home, end"
        );
        let board = |i: usize| seen[i]["board"].as_str().unwrap().to_string();
        assert_ne!(
            board(0),
            board(1),
            "{variant}: the first step changes the board"
        );
        assert_ne!(
            board(0),
            board(4),
            "{variant}: the end differs from the start"
        );
        assert_eq!(
            board(1),
            board(3),
            "{variant}: back shows the same board again"
        );
        assert_eq!(board(4), board(6));
        let end_status = seen[4]["status"].as_str().unwrap();
        assert!(
            end_status.contains("Final scores"),
            "{variant}: the last step shows the final scores: {end_status}"
        );

        // The final scores are the ones `roots replay` reports.
        let replay = roots(&["replay", record.to_str().unwrap(), "--format", "json"]);
        let scores = replay.json()["scores"].clone();
        let letters: Vec<String> = scores
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(s, v)| {
                let letter = if variant == "sprout-r-out" {
                    ["X", "O"][s]
                } else {
                    ["A", "B", "C"][s]
                };
                format!("{letter} {v}")
            })
            .collect();
        assert!(
            end_status.contains(&format!("Final scores: {}.", letters.join(", "))),
            "{variant}: {end_status} vs {letters:?}"
        );

        // A step can be linked to.
        let (dom, _) = dump_dom(&browser, &page, "#step=end", &profile);
        assert!(
            text_of(&dom, "status").contains("Final scores"),
            "{variant}"
        );
        assert!(dom.contains("<svg"), "{variant}: the board is drawn");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
