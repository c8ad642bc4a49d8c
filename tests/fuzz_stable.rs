//! A fuzzing driver for the stable toolchain: the bodies of the eight fuzz
//! targets (`roots::fuzzing::*`, what `fuzz/fuzz_targets/*.rs` call) fed
//! mutated inputs for a while, each under `catch_unwind`. It has none of
//! libFuzzer's coverage guidance (the mutants are blind: bit flips, byte
//! changes, inserts, deletions, splices and copies of the seed inputs and
//! of earlier mutants), so it finds less per execution; it runs where
//! nightly and cargo-fuzz cannot be had. Ignored in the ordinary run;
//! `fuzz/run-stable.sh SECONDS [TARGET...]` runs it, niced, and a crash's
//! input is kept under `fuzz/artifacts/TARGET/` (add it to `tests/fuzz/`
//! once fixed, for `tests/fuzz_regressions.rs`).

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

type Body = fn(&[u8]);

const TARGETS: &[(&str, Body)] = &[
    ("variant_loader", roots::fuzzing::variant_loader),
    ("record_replay", roots::fuzzing::record_replay),
    ("referee_input", roots::fuzzing::referee_input),
    ("engine", roots::fuzzing::engine),
    ("protocol", roots::fuzzing::protocol),
    ("merge", roots::fuzzing::merge),
    ("script_text", roots::fuzzing::script_text),
    ("script_text_games", roots::fuzzing::script_text_games),
];

/// Inputs are kept below this size (libFuzzer's default is 4096; the
/// engine and merge seeds are larger).
const MAX_LEN: usize = 64 * 1024;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files_in(dir: &Path, ends: &str, out: &mut Vec<Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_file()
            && p.to_string_lossy().ends_with(ends)
            && let Ok(b) = std::fs::read(&p)
        {
            out.push(b);
        }
    }
}

/// The seed inputs of a target: those of `fuzz/run.sh`, and the inputs
/// kept under `tests/fuzz/TARGET/`.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let r = root();
    let mut out = Vec::new();
    files_in(&r.join("tests/fuzz").join(target), "", &mut out);
    match target {
        "variant_loader" => {
            files_in(&r.join("variants"), ".toml", &mut out);
            files_in(&r.join("tests/variants/bad"), ".toml", &mut out);
            files_in(&r.join("tests/variants/warn"), ".toml", &mut out);
        }
        "record_replay" => {
            files_in(&r.join("tests/records"), ".jsonl", &mut out);
            files_in(&r.join("tests/records/bad"), ".jsonl", &mut out);
        }
        "script_text" => {
            for v in [0u8, 1, 2, 3] {
                out.push([&[v][..], b"if turn > 3 { end(\"x\") }".as_slice()].concat());
                out.push([&[v][..], b"let a = [1, 2, 3]; a.len()".as_slice()].concat());
            }
        }
        "script_text_games" => {
            // Game (first byte % 3) and hook (first byte / 3 % 3) each.
            for v in 0u8..9 {
                out.push(
                    [
                        &[v][..],
                        b"let s = ctx.seat; if s > 0 { s } else { 0 }".as_slice(),
                    ]
                    .concat(),
                );
                out.push([&[v][..], b"ctx.add_score(1, 1); ctx.end_turn();".as_slice()].concat());
                out.push(
                    [
                        &[v][..],
                        b"ctx.set(\"n\", ctx.get(\"n\") + 1); ctx.kind == \"place\"".as_slice(),
                    ]
                    .concat(),
                );
            }
            out.push(
                [
                    &[0u8][..],
                    b"ctx.add_stash(1, 1, -1); ctx.add_root(0, 0);".as_slice(),
                ]
                .concat(),
            );
            out.push(
                [
                    &[1u8][..],
                    b"ctx.add_stone(1, ctx.cell + 1); ctx.remove_stone(0);".as_slice(),
                ]
                .concat(),
            );
            out.push(
                [
                    &[2u8][..],
                    b"for i in 0..100 { ctx.card_at(i % ctx.columns, i / ctx.columns); }"
                        .as_slice(),
                ]
                .concat(),
            );
        }
        "referee_input" => {
            for (i, line) in ["place 9,9", "grow buds", "grow 8", "pass", "d8", "3,4"]
                .iter()
                .enumerate()
            {
                let i = i as u8;
                out.push([&[i % 7, 0, i, i.wrapping_mul(9)][..], line.as_bytes()].concat());
            }
        }
        _ => {}
    }
    if out.is_empty() {
        out.push(vec![0; 16]);
    }
    out
}

/// xorshift64*: fast, seeded, enough for blind mutation.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const INTERESTING: &[&[u8]] = &[
    b"0",
    b"-1",
    b"255",
    b"65536",
    b"4294967295",
    b"18446744073709551615",
    b"9223372036854775808",
    b"1e309",
    b"null",
    b"\"\"",
    b"[]",
    b"{}",
    b"\n",
    b"\xff",
    b"\xc3\xa9",
];

fn mutate(rng: &mut Rng, pool: &[Vec<u8>]) -> Vec<u8> {
    let mut d = pool[rng.below(pool.len())].clone();
    for _ in 0..1 + rng.below(6) {
        let len = d.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                d[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                d[i] = rng.next() as u8;
            }
            2 => {
                let i = rng.below(len + 1);
                d.insert(i, rng.next() as u8);
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(64));
                d.drain(i..i + n);
            }
            4 if len > 0 => {
                // A copy of a stretch elsewhere.
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(256));
                let chunk = d[i..i + n].to_vec();
                let at = rng.below(len + 1);
                d.splice(at..at, chunk);
            }
            5 => {
                // A splice with another input.
                let other = &pool[rng.below(pool.len())];
                let cut = rng.below(len + 1);
                let from = rng.below(other.len() + 1);
                d.truncate(cut);
                d.extend_from_slice(&other[from..]);
            }
            6 => {
                let i = rng.below(len + 1);
                let word = INTERESTING[rng.below(INTERESTING.len())];
                let end = (i + rng.below(4)).min(len);
                d.splice(i..end, word.iter().copied());
            }
            7 if len > 0 => {
                // A digit changed: numbers are what most parsers check.
                let digits: Vec<usize> = (0..len).filter(|&i| d[i].is_ascii_digit()).collect();
                if !digits.is_empty() {
                    let i = digits[rng.below(digits.len())];
                    d[i] = b'0' + rng.below(10) as u8;
                }
            }
            _ => d.truncate(rng.below(len + 1)),
        }
    }
    d.truncate(MAX_LEN);
    d
}

/// What one target's run came to.
struct Tally {
    target: &'static str,
    execs: u64,
    crashes: Vec<(PathBuf, String)>,
    slowest: Duration,
}

fn fuzz(target: &'static str, body: Body, secs: u64, seed: u64) -> Tally {
    let mut pool = seeds(target);
    let first = pool.len();
    let mut rng = Rng(seed | 1);
    let mut tally = Tally {
        target,
        execs: 0,
        crashes: Vec::new(),
        slowest: Duration::ZERO,
    };
    let deadline = Instant::now() + Duration::from_secs(secs);
    // The seeds themselves first.
    let mut queue: Vec<Vec<u8>> = pool.clone();
    while Instant::now() < deadline {
        let input = queue.pop().unwrap_or_else(|| mutate(&mut rng, &pool));
        let start = Instant::now();
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| body(&input)));
        let took = start.elapsed();
        tally.slowest = tally.slowest.max(took);
        tally.execs += 1;
        if let Err(e) = result {
            let why = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_else(|| "a panic".into());
            let dir = root().join("fuzz/artifacts").join(target);
            let _ = std::fs::create_dir_all(&dir);
            let name = format!("crash-{:016x}", fnv(&input));
            let path = dir.join(name);
            let _ = std::fs::write(&path, &input);
            tally.crashes.push((path, why));
            if tally.crashes.len() >= 20 {
                break;
            }
            continue;
        }
        // Keep a few mutants as parents, replacing old ones, so mutations
        // stack further from the seeds.
        if rng.below(64) == 0 {
            if pool.len() < first + 256 {
                pool.push(input);
            } else {
                let i = first + rng.below(256);
                pool[i] = input;
            }
        }
    }
    tally
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `ROOTS_FUZZ_SECS` (default 10) seconds for each of the targets named in
/// `ROOTS_FUZZ_TARGETS` (comma-separated; default all eight), all at once
/// on threads of their own; fails when any input panicked.
#[test]
#[ignore = "a fuzzing run: fuzz/run-stable.sh"]
fn fuzz_targets_on_stable() {
    let secs: u64 = std::env::var("ROOTS_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let wanted = std::env::var("ROOTS_FUZZ_TARGETS").unwrap_or_default();
    let chosen: Vec<(&'static str, Body)> = TARGETS
        .iter()
        .copied()
        .filter(|(t, _)| wanted.is_empty() || wanted.split(',').any(|w| w.trim() == *t))
        .collect();
    assert!(!chosen.is_empty(), "no target named `{wanted}`");
    // The targets' own panics are what is counted; their messages would
    // flood the output.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = chosen
            .iter()
            .enumerate()
            .map(|(i, &(t, body))| {
                s.spawn(move || fuzz(t, body, secs, 0x9e37_79b9_7f4a_7c15 ^ i as u64))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a fuzzing thread"))
            .collect()
    });
    std::panic::set_hook(hook);
    let mut crashed = 0;
    for t in &tallies {
        println!(
            "{}: {} executions in {secs} s, slowest {:?}, {} crashes",
            t.target,
            t.execs,
            t.slowest,
            t.crashes.len()
        );
        for (path, why) in &t.crashes {
            println!("  {}: {why}", path.display());
        }
        crashed += t.crashes.len();
    }
    assert_eq!(
        crashed, 0,
        "inputs that panicked, kept under fuzz/artifacts/"
    );
}
