//! `roots sweep` over any key, `roots tune`, and runs split with
//! `--shard K/N` and put back together by `roots merge`, through the real
//! binary (each shard its own process).

use crate::common;

use common::roots;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("roots-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Run `args` whole, then as `n` shards in separate processes, merge the
/// parts, and compare stdout byte for byte.
fn shards_merge_to_one_run(name: &str, args: &[&str], n: u64) {
    let dir = temp_dir(name);
    let one = roots(args);
    assert_eq!(one.code, 0, "{}", one.stderr);
    let mut parts = Vec::new();
    // Started together, as a job array would.
    let children: Vec<_> = (1..=n)
        .map(|k| {
            let shard = format!("{k}/{n}");
            let mut a: Vec<&str> = args.to_vec();
            a.extend(["--shard", &shard]);
            std::process::Command::new(env!("CARGO_BIN_EXE_roots"))
                .args(&a)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .env("NO_COLOR", "1")
                .output()
        })
        .collect();
    // Given out of order, to show the order does not matter.
    for (k, out) in children.into_iter().enumerate().rev() {
        let out = out.expect("the roots binary runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let path = dir.join(format!("part-{}.json", k + 1));
        std::fs::write(&path, &out.stdout).expect("write part");
        parts.push(path.to_string_lossy().into_owned());
    }
    let mut merge: Vec<&str> = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    let merged = roots(&merge);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(
        merged.stdout, one.stdout,
        "merged shards differ from one run"
    );
    // A missing shard is refused, not merged into a smaller report.
    let short = roots(&merge[..merge.len() - 1]);
    assert_eq!(short.code, 1, "{}", short.stdout);
    assert!(short.stderr.contains("give"), "{}", short.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn simulate_in_shards_merges_to_the_report_of_one_run() {
    shards_merge_to_one_run(
        "shard-simulate",
        &[
            "simulate",
            "-n",
            "301",
            "--seed",
            "9",
            "--players",
            "3",
            "--rotate",
            "--bots",
            "greedy,random,random",
        ],
        4,
    );
    shards_merge_to_one_run(
        "shard-simulate-json",
        &[
            "simulate", "btt", "-n", "200", "--seed", "2", "--format", "json", "--bots", "greedy",
        ],
        3,
    );
}

#[test]
fn compare_in_shards_merges_to_the_comparison_of_one_run() {
    shards_merge_to_one_run(
        "shard-compare",
        &[
            "compare",
            "standard",
            "variants/fewer-beads.toml",
            "-n",
            "150",
            "--seed",
            "4",
        ],
        2,
    );
}

#[test]
fn sweep_in_shards_merges_to_the_table_of_one_run() {
    shards_merge_to_one_run(
        "shard-sweep",
        &[
            "sweep",
            "standard",
            "--set",
            "beads.store=4..8:2",
            "--set",
            "turn.one_nutrient_per_turn",
            "--measure",
            "ties",
            "-n",
            "90",
            "--seed",
            "5",
        ],
        4,
    );
}

#[test]
fn shards_need_a_seed_and_parts_must_match() {
    let run = roots(&["simulate", "--shard", "1/2", "-n", "10"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--shard needs --seed"),
        "{}",
        run.stderr
    );
    let dir = temp_dir("shard-mismatch");
    let a = roots(&["simulate", "--shard", "1/2", "-n", "10", "--seed", "1"]);
    let b = roots(&["simulate", "--shard", "2/2", "-n", "10", "--seed", "2"]);
    std::fs::write(dir.join("a.json"), &a.stdout).expect("write");
    std::fs::write(dir.join("b.json"), &b.stdout).expect("write");
    let merged = roots(&[
        "merge",
        dir.join("a.json").to_str().expect("utf-8"),
        dir.join("b.json").to_str().expect("utf-8"),
    ]);
    assert_eq!(merged.code, 1);
    assert!(
        merged.stderr.contains("not a shard of the same run"),
        "{}",
        merged.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `roots sweep standard --set beads.store=0..300:100` aborted the whole
/// sweep with an error naming a file that does not exist
/// (`standard-beads-store-0`): each invalid value is reported, naming the
/// option, and skipped.
#[test]
fn sweep_reports_and_skips_invalid_points() {
    let run = roots(&[
        "sweep",
        "standard",
        "--set",
        "beads.store=0..30:10",
        "-n",
        "20",
        "--seed",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("--set beads.store=0: error"),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("standard-beads-store"),
        "{}",
        run.stderr
    );
    insta::assert_snapshot!(run.transcript());
    let none = roots(&[
        "sweep",
        "standard",
        "--set",
        "beads.store=0..300:300",
        "-n",
        "20",
        "--seed",
        "1",
    ]);
    assert_eq!(none.code, 1, "{}", none.stderr);
    assert!(
        none.stderr.contains("no value of the sweep"),
        "{}",
        none.stderr
    );
}

/// A 20..200:2 sweep drew 91 overlapping labels and uneven y ticks: the
/// plot's ticks are nice numbers now; the SVG is pinned.
#[test]
fn sweep_plot_has_readable_ticks() {
    let dir = temp_dir("sweep-ticks");
    let svg = dir.join("plot.svg");
    let run = roots(&[
        "sweep",
        "standard",
        "--set",
        "beads.supply=20..200:2",
        "-n",
        "10",
        "--seed",
        "1",
        "--measure",
        "rounds",
        "--measure",
        "seat1-wins",
        "--svg",
        svg.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&svg).expect("plot written");
    // Centred labels (the x ticks of both panels, the title, the key): a
    // handful, not 91 per panel.
    let labels = text.matches("text-anchor=\"middle\">").count();
    assert!(labels < 30, "{labels} labels");
    assert!(text.contains(">fair</text>"));
    insta::assert_snapshot!(text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sweep_grid_draws_a_heat_map() {
    let dir = temp_dir("sweep-heat");
    let svg = dir.join("heat.svg");
    let run = roots(&[
        "sweep",
        "standard",
        "--set",
        "beads.supply=30..60:10",
        "--set",
        "nutrients.value_rolled",
        "--measure",
        "first-player-advantage",
        "-n",
        "20",
        "--seed",
        "1",
        "--format",
        "csv",
        "--svg",
        svg.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&svg).expect("plot written");
    assert!(text.contains("white: fair share"), "a diverging scale");
    insta::assert_snapshot!(text);
    assert!(
        run.stdout
            .starts_with("beads.supply,nutrients.value_rolled,")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_finds_a_variant_and_writes_it_as_a_file_that_extends_the_original() {
    let dir = temp_dir("tune");
    let out = dir.join("best.toml");
    let out_s = out.to_str().expect("utf-8");
    let run = roots(&[
        "tune",
        "standard",
        "--bots",
        "random",
        "--vary",
        "beads.supply=20..80:2",
        "--target",
        "rounds=25",
        "--budget",
        "6000",
        "-n",
        "270",
        "--seed",
        "3",
        "--write",
        out_s,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(text.contains("extends = \"standard\""), "{text}");
    // Only the changed key is set.
    let keys: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains(" = "))
        .collect();
    assert_eq!(keys.len(), 4, "{text}");
    let supply: i64 = text
        .lines()
        .find_map(|l| l.strip_prefix("supply = "))
        .and_then(|v| v.parse().ok())
        .expect("beads.supply set");
    // Random bots play about 0.7 rounds per bead of supply here: 25 rounds
    // need about 36.
    assert!((30..=42).contains(&supply), "{supply}\n{}", run.stdout);
    assert!(run.stdout.contains("Best variants"), "{}", run.stdout);
    // It validates, and diffs against the original like any variant.
    let v = roots(&["validate", out_s]);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
    let d = roots(&["diff", "standard", out_s]);
    assert!(d.stdout.contains("beads.supply"), "{}", d.stdout);
    // The same search in 3 shards, exchanging totals, merges to the same report.
    let ex = dir.join("exchange");
    let ex_s = ex.to_str().expect("utf-8");
    let shard_out = dir.join("best-shards.toml");
    let children: Vec<_> = (1..=3)
        .map(|k| {
            std::process::Command::new(env!("CARGO_BIN_EXE_roots"))
                .args([
                    "tune",
                    "standard",
                    "--bots",
                    "random",
                    "--vary",
                    "beads.supply=20..80:2",
                    "--target",
                    "rounds=25",
                    "--budget",
                    "6000",
                    "-n",
                    "270",
                    "--seed",
                    "3",
                    "--write",
                    out_s,
                    "--shard",
                    &format!("{k}/3"),
                    "--exchange",
                    ex_s,
                ])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    let mut parts = Vec::new();
    for (k, c) in children.into_iter().enumerate() {
        let o = c.wait_with_output().expect("shard ends");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let p = dir.join(format!("tune-{k}.json"));
        std::fs::write(&p, &o.stdout).expect("write");
        parts.push(p.to_string_lossy().into_owned());
    }
    let _ = std::fs::remove_file(&out);
    let mut merge = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    let page = dir.join("merged.html");
    let page_s = page.to_string_lossy().into_owned();
    merge.extend(["--html", page_s.as_str()]);
    let merged = roots(&merge);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(merged.stdout, run.stdout);
    // The merged page shows the search's path and the best variant's diff
    // against the original, as the unsharded run's page would.
    let html = std::fs::read_to_string(&page).expect("the merged page");
    assert!(html.contains("<svg id=\"path\""), "the path of the search");
    assert!(
        html.contains("<table id=\"diff\"") && html.contains("data-key=\"beads.supply\""),
        "the best variant's diff"
    );
    assert_eq!(std::fs::read_to_string(&out).expect("rewritten"), text);
    let _ = shard_out;
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_mistakes_get_clear_errors() {
    let cases: &[&[&str]] = &[
        &[
            "tune",
            "standard",
            "--vary",
            "beads.suply=1..3",
            "--target",
            "rounds=25",
        ],
        &[
            "tune",
            "standard",
            "--vary",
            "beads.supply=30..60",
            "--target",
            "fun=3",
        ],
        &[
            "tune",
            "standard",
            "--vary",
            "beads.supply=30..60",
            "--target",
            "seat1-wins=55",
        ],
        &[
            "tune",
            "standard",
            "--vary",
            "beads.supply=30..60",
            "--target",
            "rounds",
        ],
        &[
            "tune",
            "standard",
            "--vary",
            "nutrients.supply=20..60",
            "--target",
            "rounds=25",
            "--budget",
            "300",
        ],
    ];
    let mut out = String::new();
    for args in cases {
        let run = roots(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        out.push_str(&format!(
            "$ roots {}\n{}\n",
            args.join(" "),
            run.transcript()
        ));
    }
    insta::assert_snapshot!(out);
}

/// Ctrl-C during a tune keeps the best so far: it is printed, marked
/// partial, written as a variant file, and the exit code is 130.
#[test]
fn ctrl_c_during_tune_keeps_the_best_so_far() {
    let dir = temp_dir("tune-interrupt");
    let out = dir.join("best.toml");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_roots"))
        .args([
            "tune",
            "standard",
            "--vary",
            "beads.supply=30..90",
            "--target",
            "rounds=25",
            "--budget",
            "1000000000",
            "-n",
            "100000",
            "--seed",
            "1",
            "-j",
            "1",
            "--write",
        ])
        .arg(&out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The first round (100000 / 27 games of each point) takes a while.
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let o = child.wait_with_output().expect("ends");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(130), "{stdout}{stderr}");
    assert!(stderr.contains("interrupted: partial"), "{stderr}");
    assert!(stdout.contains("; partial"), "{stdout}");
    if stdout.contains("Best variant written") {
        let v = roots(&["validate", out.to_str().expect("utf-8")]);
        assert_eq!(v.code, 0, "{}", v.stderr);
    } else {
        assert!(stdout.contains("no point finished a round"), "{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// docs/cluster.md shows the job-array script that CI runs, as it is.
#[test]
fn the_cluster_doc_shows_the_script_that_runs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/cluster.md")).expect("doc");
    let script = std::fs::read_to_string(root.join("scripts/slurm-array.sh")).expect("script");
    assert!(
        doc.contains(script.trim_end()),
        "docs/cluster.md is out of date with scripts/slurm-array.sh"
    );
}
