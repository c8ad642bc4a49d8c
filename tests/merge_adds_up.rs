//! `roots merge` refuses a part that does not add up whatever its checksum
//! says (issue #50, item 4): the checksum guards against damage, and a
//! person who edits a part on purpose can compute it again, so every part
//! is also checked against itself and its header. Each forged part below
//! is re-sealed (its checksum computed again over the edit) and must be
//! refused with a message naming the part and the check; none of them
//! changes the printed report, since none is printed.

use std::path::Path;

use roots::sim::shard::checksum;

use super::common::{Run, roots_in, tmp_dir};

/// The two parts (shards 1/2 and 2/2) of a run of `command` with 100
/// games, and the merge of the untouched parts.
fn parts(dir: &Path, command: &[&str]) -> (String, String, String) {
    let mut texts = Vec::new();
    for k in [1, 2] {
        let shard = format!("{k}/2");
        let mut args = command.to_vec();
        args.extend(["-n", "100", "--seed", "3", "--shard", &shard, "-q"]);
        let out = roots_in(dir, &args, "");
        assert_eq!(out.code, 0, "{}", out.stderr);
        texts.push(out.stdout);
    }
    let good = merge(
        dir,
        &[
            ("a.json", texts[0].as_bytes()),
            ("b.json", texts[1].as_bytes()),
        ],
    );
    assert_eq!(good.code, 0, "{}", good.stderr);
    (texts.remove(0), texts.remove(0), good.stdout)
}

fn merge(dir: &Path, files: &[(&str, &[u8])]) -> Run {
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).expect("write part");
    }
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|(n, _)| *n));
    roots_in(dir, &args, "")
}

/// A part's text with its checksum computed again, as a forger would.
fn resealed(text: &str) -> String {
    let key = ",\"checksum\":\"";
    let body = text.trim_end_matches('\n');
    let at = body.rfind(key).expect("checksum key");
    let head = format!("{}\"}}", &body[..at + key.len()]);
    let sum = checksum(head.as_bytes());
    format!("{}{sum}\"}}\n", &head[..head.len() - 2])
}

/// The JSON array after the first `"key":` at or after `from` in `text`,
/// as numbers, with where it starts and ends.
fn array_after(text: &str, key: &str, from: usize) -> (usize, usize, Vec<u64>) {
    let k = format!("\"{key}\":[");
    let start = from + text[from..].find(&k).expect("the key") + k.len();
    let end = start + text[start..].find(']').expect("the array's end");
    let numbers = text[start..end]
        .split(',')
        .map(|n| n.parse().expect("a number"))
        .collect();
    (start, end, numbers)
}

/// `text` with the array after `"key":` (the `nth` one of the part's runs,
/// from 0) made `f` of it.
fn edit_array(text: &str, key: &str, nth: usize, f: impl Fn(&mut Vec<u64>)) -> String {
    let mut from = text.find("\"runs\":").expect("the runs");
    for _ in 0..nth {
        from = array_after(text, key, from).1;
    }
    let (start, end, mut numbers) = array_after(text, key, from);
    f(&mut numbers);
    let joined: Vec<String> = numbers.iter().map(u64::to_string).collect();
    format!("{}{}{}", &text[..start], joined.join(","), &text[end..])
}

/// Merge `forged` (re-sealed) as part a.json with the good `b`: refused,
/// exit 1, nothing printed, the message naming a.json and saying `says`.
fn refused(dir: &Path, forged: &str, b: &str, says: &str) {
    let forged = resealed(forged);
    let out = merge(
        dir,
        &[("a.json", forged.as_bytes()), ("b.json", b.as_bytes())],
    );
    assert_eq!(out.code, 1, "{says}: {}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("a.json") && out.stderr.contains(says),
        "expected a.json and `{says}` in: {}",
        out.stderr
    );
    assert!(
        out.stdout.is_empty(),
        "a report was printed: {}",
        out.stdout
    );
}

#[test]
fn resealed_parts_that_do_not_add_up_are_refused() {
    let dir = tmp_dir("merge_adds_up", "simulate");
    let (a, b, whole) = parts(&dir, &["simulate"]);
    // Re-sealing an untouched part changes nothing: it merges.
    let again = merge(
        &dir,
        &[
            ("a.json", resealed(&a).as_bytes()),
            ("b.json", b.as_bytes()),
        ],
    );
    assert_eq!(again.stdout, whole);

    // The seats' wins swapped: the same sum, but not the games each seat
    // was alone on top of.
    let swapped = edit_array(&a, "seat_wins", 0, |w| w.swap(0, 1));
    assert_ne!(swapped, a, "the seats' wins differ");
    refused(&dir, &swapped, &b, "seat 1 has");
    // 101 outcomes for 100 games: a win more.
    refused(
        &dir,
        &edit_array(&a, "seat_wins", 0, |w| w[0] += 1),
        &b,
        "expected the wins and ties to make the 50 games, found 51 wins",
    );
    // A histogram off by one.
    refused(
        &dir,
        &edit_array(&a, "margin", 0, |h| h[0] += 1),
        &b,
        "expected the histogram of margins to count the 50 games, found 51",
    );
    // The header says another slice of the games than the totals count:
    // shard 1/3 of 100 games is games 0..33.
    let header = resealed(&a).replacen(
        "\"shard\":{\"index\":1,\"count\":2}",
        "\"shard\":{\"index\":1,\"count\":3}",
        1,
    );
    refused(
        &dir,
        &header,
        &b,
        "shard 1/3 of a run of 100 games plays games 0..33 (33 games), but the totals of run count 50 games",
    );
    // A seed range overlapping another part's: b's slice again, as a.
    let overlap = b.clone();
    let out = merge(
        &dir,
        &[("a.json", overlap.as_bytes()), ("b.json", b.as_bytes())],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("b.json: shard 2/2 again (a.json is shard 2/2 too)"),
        "{}",
        out.stderr
    );
    // All of the part's games moved to the other half: the header of 2/2
    // on the totals of 1/2 (which count 50 games, as 2/2 does) is the one
    // forgery of the header the totals cannot tell; the two parts then
    // claim the same slice, refused as above.
    let moved = a.replacen(
        "\"shard\":{\"index\":1,\"count\":2}",
        "\"shard\":{\"index\":2,\"count\":2}",
        1,
    );
    let out = merge(
        &dir,
        &[
            ("a.json", resealed(&moved).as_bytes()),
            ("b.json", b.as_bytes()),
        ],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("again"), "{}", out.stderr);
}

#[test]
fn resealed_compare_parts_that_do_not_add_up_are_refused() {
    let dir = tmp_dir("merge_adds_up", "compare");
    let (a, b, _) = parts(&dir, &["compare", "standard", "fewer-beads"]);
    // A win of side B's seat 1 moved to seat 2 (the same sum), its
    // margins' histogram off by one: each refused, naming side B.
    refused(
        &dir,
        &edit_array(&a, "seat_wins", 1, |w| {
            w[0] -= 1;
            w[1] += 1;
        }),
        &b,
        "the totals of B do not add up: seat 1 has",
    );
    refused(
        &dir,
        &edit_array(&a, "margin", 1, |h| {
            let last = h.len() - 1;
            h[last] += 1;
        }),
        &b,
        "the totals of B do not add up: expected the histogram of margins to count the 50 games, found 51",
    );
}
