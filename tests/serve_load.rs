//! `roots serve` under load, over loopback: 100 tables played at once to
//! their end by scripted clients (a thread per table, playing both seats'
//! first legal move through the HTTP API), bounded in time. Prints the
//! latency of a move (the POST that plays it, answered once the engine
//! checked it and the record has it) and the server's peak memory; the
//! figures in `docs/serve.md` come from this test (`cargo test --test
//! serve_load -- --nocapture`). `ROOTS_LOAD_TABLES` changes the count.
#![cfg(feature = "serve")]

use crate::serve_kit;

use std::time::{Duration, Instant};

use serde_json::json;
use serve_kit::{Server, key_of, post_patiently, settled, tmp_dir, wait_view};

#[test]
fn a_hundred_tables_at_once() {
    let tables: usize = std::env::var("ROOTS_LOAD_TABLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let dir = tmp_dir("load");
    // Sprout-R-Out on its smallest board: short games, many of them.
    let variant = dir.join("sprout-small.toml");
    std::fs::write(
        &variant,
        format!(
            "game = \"sprout-r-out\"\nextends = \"{}/variants/sprout-r-out.toml\"\nname = \"sprout-small\"\n[board]\nshape = \"limping-3\"\n",
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    let variant = variant.to_str().unwrap().to_string();
    let server = Server::start(&dir.join("tables"), &[&variant]);
    let opened: Vec<(String, [String; 2])> = (0..tables)
        .map(|i| {
            let t = server.open(&json!({
                "variant": variant,
                "players": ["human", "human"],
                "seed": i,
            }));
            (
                t["id"].as_str().unwrap().to_string(),
                [
                    key_of(t["seats"][0]["link"].as_str().unwrap()),
                    key_of(t["seats"][1]["link"].as_str().unwrap()),
                ],
            )
        })
        .collect();
    let start = Instant::now();
    let results: Vec<(Vec<Duration>, u32)> = std::thread::scope(|scope| {
        let handles: Vec<_> = opened
            .iter()
            .map(|(id, keys)| {
                let server = &server;
                scope.spawn(move || {
                    let mut lat = Vec::new();
                    let mut slowed = 0;
                    loop {
                        let v = wait_view(server, id, &keys[0], settled);
                        if v["outcome"].is_object() {
                            break;
                        }
                        let due = v["due"].as_u64().unwrap() as usize;
                        let mine = wait_view(server, id, &keys[due - 1], |_| true);
                        let text = mine["moves"][0]["text"].as_str().unwrap().to_string();
                        let t0 = Instant::now();
                        let (code, r, s) = post_patiently(
                            server,
                            &format!("/api/t/{id}/act"),
                            &keys[due - 1],
                            &json!({ "action": text }),
                        );
                        lat.push(t0.elapsed());
                        slowed += s;
                        assert_eq!(code, 200, "{r}");
                        assert!(
                            start.elapsed() < Duration::from_secs(600),
                            "the load test ran too long"
                        );
                    }
                    (lat, slowed)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let wall = start.elapsed();
    let mut all: Vec<Duration> = results.iter().flat_map(|r| r.0.iter().copied()).collect();
    let slowed: u32 = results.iter().map(|r| r.1).sum();
    all.sort();
    let pct = |p: f64| all[((all.len() as f64 - 1.0) * p) as usize].as_secs_f64() * 1000.0;
    let peak = server.peak_kib().unwrap_or(0);
    eprintln!(
        "load: {tables} tables, {} moves in {:.1} s ({:.0} moves/s); move latency ms: p50 {:.1}, p90 {:.1}, p99 {:.1}, max {:.1}; slowed by the rate limit {slowed} times; server peak memory {:.1} MiB",
        all.len(),
        wall.as_secs_f64(),
        all.len() as f64 / wall.as_secs_f64(),
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0),
        peak as f64 / 1024.0
    );
    assert!(all.len() >= tables * 5);
    // Every record replays.
    for (id, _) in opened.iter().take(5) {
        let record = dir.join("tables").join(format!("{id}.jsonl"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_roots"))
            .args(["replay", record.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
