//! Preemptible shards (issue #50, item 2): a shard run with `--checkpoint
//! FILE`, stopped by SIGTERM or `kill -9` mid-run and run again with the
//! same arguments, resumes from its checkpoint and prints, byte for byte,
//! the part of an uninterrupted shard; `roots merge` of the parts prints
//! the report of one uninterrupted run. A checkpoint of other arguments is
//! refused. The real binary, real signals.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::common::tmp_dir;

const BIN: &str = env!("CARGO_BIN_EXE_roots");

/// Games of the whole run of `command`: each of its two shards takes
/// several seconds of the debug build (so that a checkpoint, written every
/// 2 s, comes before the kill), and not so many that the test is slow: a
/// shard of `simulate` plays 4,000 games (about 3 s); one of `compare` or
/// `sweep` plays 3,000 of each of its two runs (6,000 in all, about 6 s on
/// the idle CI machine, whose first checkpoint held 2,048 of them).
fn games(command: &str) -> &'static str {
    match command {
        "simulate" => "8000",
        _ => "6000",
    }
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The arguments of shard `k` of the run of `command`.
fn shard_args(command: &str, k: u32) -> Vec<String> {
    let mut args: Vec<String> = match command {
        "simulate" => vec!["simulate".into()],
        // Two values of one key: each a run of the part.
        "sweep" => ["sweep", "standard", "--set", "beads.supply=50..60:10"]
            .map(String::from)
            .to_vec(),
        _ => vec!["compare".into(), "standard".into(), "fewer-beads".into()],
    };
    for a in [
        "--games",
        games(command),
        "--bots",
        "random",
        "--seed",
        "23",
        "--jobs",
        "1",
        "--format",
        "json",
    ] {
        args.push(a.into());
    }
    args.push("--shard".into());
    args.push(format!("{k}/2"));
    args
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The games a checkpoint holds so far (all its runs), or none before it
/// is written.
fn games_in(checkpoint: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(checkpoint).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let runs = v["runs"].as_array()?;
    Some(
        runs.iter()
            .map(|r| r["totals"]["games"].as_u64().unwrap_or(0))
            .sum(),
    )
}

/// Run shard `k` with a checkpoint, stop it with `signal` once its
/// checkpoint holds some games, run it again, and give its part.
fn interrupted_then_resumed(dir: &Path, command: &str, k: u32, signal: &str) -> String {
    let checkpoint: PathBuf = dir.join(format!("{command}-{k}.ckpt"));
    let mut args = shard_args(command, k);
    args.push("--checkpoint".into());
    args.push(checkpoint.display().to_string());
    let child = Command::new(BIN)
        .current_dir(dir)
        .args(strs(&args))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    while games_in(&checkpoint).unwrap_or(0) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no checkpoint written"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let stopped = child.wait_with_output().expect("the shard ends");
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    let held = games_in(&checkpoint).expect("the checkpoint is still readable");
    match signal {
        "-TERM" => {
            assert_eq!(stopped.status.code(), Some(143), "{stderr}");
            // The part it printed says it is partial: merge refuses it.
            let part = String::from_utf8_lossy(&stopped.stdout);
            assert!(part.contains("\"interrupted\":true"), "{part}");
        }
        _ => assert_eq!(stopped.status.code(), None, "killed: {stderr}"),
    }
    // A shard's games, as its checkpoint counts them: half the run's; for
    // compare and sweep, half of each of its two runs, both counted.
    let total: u64 = games(command).parse().unwrap();
    let slice = match command {
        "simulate" => total / 2,
        _ => total,
    };
    assert!(
        held > 0 && held < slice,
        "the shard was stopped mid-run: its checkpoint holds {held} of {slice} games"
    );
    // No temporary file is left beside it.
    let tmp = dir.join(format!("{command}-{k}.ckpt.tmp"));
    assert!(
        !tmp.exists() || signal == "-KILL",
        "a temporary file is left after {signal}"
    );

    let again = run(dir, &strs(&args));
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("resuming from"), "{stderr}");
    String::from_utf8(again.stdout).expect("UTF-8")
}

fn preempted_shard_merges_as_one_run(command: &str, signal: &str) {
    let dir = tmp_dir("preemptible_shards", &format!("{command}{signal}"));
    // The uninterrupted shards, and their merge.
    let mut whole = Vec::new();
    for k in [1, 2] {
        let out = run(&dir, &strs(&shard_args(command, k)));
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let path = dir.join(format!("whole-{k}.json"));
        std::fs::write(&path, &out.stdout).unwrap();
        whole.push(path);
    }
    let merged = |parts: &[&Path]| {
        let out = Command::new(BIN)
            .current_dir(&dir)
            .arg("merge")
            .args(parts)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        out.stdout
    };
    let reference = merged(&[&whole[0], &whole[1]]);

    let resumed = interrupted_then_resumed(&dir, command, 1, signal);
    assert_eq!(
        resumed,
        std::fs::read_to_string(&whole[0]).unwrap(),
        "the resumed shard's part is the uninterrupted one's"
    );
    let path = dir.join("resumed-1.json");
    std::fs::write(&path, &resumed).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&merged(&[&path, &whole[1]])),
        String::from_utf8_lossy(&reference),
        "the merge is the report of one run, byte for byte"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_simulate_shard_stopped_by_sigterm_resumes_and_merges_as_one_run() {
    preempted_shard_merges_as_one_run("simulate", "-TERM");
}

#[test]
fn a_simulate_shard_killed_with_kill_9_resumes_and_merges_as_one_run() {
    preempted_shard_merges_as_one_run("simulate", "-KILL");
}

#[test]
fn a_compare_shard_stopped_by_sigterm_resumes_and_merges_as_one_run() {
    preempted_shard_merges_as_one_run("compare", "-TERM");
}

#[test]
fn a_sweep_shard_stopped_by_sigterm_resumes_and_merges_as_one_run() {
    preempted_shard_merges_as_one_run("sweep", "-TERM");
}

#[test]
fn a_checkpoint_of_other_arguments_is_refused_and_kept() {
    let dir = tmp_dir("preemptible_shards", "other-arguments");
    let checkpoint = dir.join("c.ckpt");
    let c = checkpoint.display().to_string();
    let base = [
        "simulate",
        "--games",
        "50",
        "--bots",
        "random",
        "--shard",
        "1/2",
        "--checkpoint",
        &c,
    ];
    let first = run(&dir, &[&base[..], &["--seed", "1"]].concat());
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    let before = std::fs::read(&checkpoint).expect("a checkpoint is written");

    // Another seed, another shard, another command: each refused, saying
    // what differs; the checkpoint is left as it was.
    let seed = run(&dir, &[&base[..], &["--seed", "2"]].concat());
    let stderr = String::from_utf8_lossy(&seed.stderr);
    assert_eq!(seed.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("a checkpoint of another run: its setting `sim.seed` differs"),
        "{stderr}"
    );
    let mut other_shard = base.to_vec();
    other_shard[6] = "2/2";
    let shard = run(&dir, &[&other_shard[..], &["--seed", "1"]].concat());
    let stderr = String::from_utf8_lossy(&shard.stderr);
    assert_eq!(shard.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("it is of shard 1/2, this run is shard 2/2"),
        "{stderr}"
    );
    let compare = run(
        &dir,
        &[
            "compare",
            "standard",
            "more-beads",
            "--games",
            "50",
            "--seed",
            "1",
            "--shard",
            "1/2",
            "--checkpoint",
            &c,
        ],
    );
    let stderr = String::from_utf8_lossy(&compare.stderr);
    assert_eq!(compare.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("it is of `roots simulate`, this run of `roots compare`"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&checkpoint).unwrap(), before);

    // A checkpoint edited by hand (or torn by a disk) is refused too.
    let mut edited = before.clone();
    let at = edited.len() / 2;
    edited[at] ^= 1;
    std::fs::write(&checkpoint, &edited).unwrap();
    let torn = run(&dir, &[&base[..], &["--seed", "1"]].concat());
    let stderr = String::from_utf8_lossy(&torn.stderr);
    assert_eq!(torn.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("not a checkpoint this run can resume"),
        "{stderr}"
    );

    // A checkpoint is not a part: merge refuses it.
    std::fs::write(&checkpoint, &before).unwrap();
    let merge = run(&dir, &["merge", &c]);
    assert_ne!(merge.status.code(), Some(0), "{merge:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The arguments of shard `k` of 2 of a tune exchanging through `exchange`.
fn tune_args(k: u32, exchange: &str) -> Vec<String> {
    [
        "tune",
        "standard",
        "--vary",
        "beads.supply=30..90",
        "--target",
        "rounds=25",
        "--budget",
        "8000",
        "--games",
        "600",
        "--bots",
        "random",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--exchange",
        exchange,
    ]
    .map(String::from)
    .into_iter()
    .chain(["--shard".into(), format!("{k}/2")])
    .collect()
}

/// A tune's shards play together, swapping totals after every batch: shard
/// 1 stopped by SIGTERM mid-search (shard 2 waits for it at the exchange)
/// and run again resumes from its checkpoint's log of jobs; both parts are
/// the uninterrupted shards' parts, and so is their merge, byte for byte.
#[test]
fn a_tune_shard_stopped_by_sigterm_resumes_and_merges_as_one_run() {
    let dir = tmp_dir("preemptible_shards", "tune-TERM");
    let spawn = |args: &[String]| {
        Command::new(BIN)
            .current_dir(&dir)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs")
    };
    // The uninterrupted shards, together.
    let whole: Vec<Output> = [1, 2]
        .map(|k| spawn(&tune_args(k, "whole")))
        .into_iter()
        .map(|c| c.wait_with_output().expect("the shard ends"))
        .collect();
    for out in &whole {
        assert_eq!(out.status.code(), Some(0), "{out:?}");
    }
    let with_checkpoint = |k: u32| {
        let mut args = tune_args(k, "resumed");
        args.extend(["--checkpoint".into(), format!("tune-{k}.ckpt")]);
        args
    };
    let second = spawn(&with_checkpoint(2));
    let first = spawn(&with_checkpoint(1));
    let checkpoint = dir.join("tune-1.ckpt");
    let started = Instant::now();
    while games_in(&checkpoint).unwrap_or(0) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no checkpoint written"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-TERM", &first.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let stopped = first.wait_with_output().expect("the shard ends");
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(143), "{stderr}");
    let part = String::from_utf8_lossy(&stopped.stdout);
    assert!(part.contains("\"interrupted\":true"), "{part}");
    assert!(
        !dir.join("tune-1.ckpt.tmp").exists(),
        "a temporary file is left after SIGTERM"
    );

    let again = run(&dir, &strs(&with_checkpoint(1)));
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("resuming from"), "{stderr}");
    let second = second.wait_with_output().expect("the shard ends");
    assert_eq!(second.status.code(), Some(0), "{second:?}");
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        String::from_utf8_lossy(&whole[0].stdout),
        "the resumed shard's part is the uninterrupted one's"
    );
    assert_eq!(
        String::from_utf8_lossy(&second.stdout),
        String::from_utf8_lossy(&whole[1].stdout),
        "the shard that waited prints the uninterrupted one's part"
    );
    let merged = |parts: [&[u8]; 2], name: &str| {
        let paths = [1, 2].map(|k| dir.join(format!("{name}-{k}.json")));
        for (p, bytes) in paths.iter().zip(parts) {
            std::fs::write(p, bytes).unwrap();
        }
        let out = Command::new(BIN)
            .current_dir(&dir)
            .arg("merge")
            .args(&paths)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        out.stdout
    };
    assert_eq!(
        String::from_utf8_lossy(&merged([&again.stdout, &second.stdout], "resumed")),
        String::from_utf8_lossy(&merged([&whole[0].stdout, &whole[1].stdout], "whole")),
        "the merge is the report of one run, byte for byte"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
