//! Runs split across machines: `--shard K/N` plays the K-th of N slices of
//! every run's games and writes a [`Partial`]; merging the N partials gives
//! exactly the totals of one run (every total is an integer sum, and game
//! `i` is the same game whichever shard plays it).

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::accum::AccumulatorData;
use super::paired::Pairs;

/// The K-th (from 1) of N shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// Most shards one run may be split into.
pub const MAX_SHARDS: u64 = 100_000;

impl Shard {
    /// Parse `K/N` (1 <= K <= N).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "--shard `{text}`: expected K/N with 1 <= K <= N, like 2/4 (the second of four shards)"
            )
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count || count > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// This shard's slice of the games `0..games`: contiguous, the slices
    /// of `1/N .. N/N` covering it once, in order.
    pub fn range(&self, games: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(games) * u128::from(k) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }

    /// The slice of the games `from..to` (a tune's later round).
    pub fn slice(&self, from: u64, to: u64) -> Range<u64> {
        let r = self.range(to - from);
        from + r.start..from + r.end
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a partial result file says it is.
pub const PARTIAL_FORMAT: &str = "roots-partial";
/// Its version; a merge refuses another. Version 2 added `program` and
/// `checksum`.
pub const PARTIAL_VERSION: u32 = 2;

/// The largest part file `roots merge` reads (a part of a sweep of a
/// thousand points is well under 1 MiB).
pub const MAX_PART_BYTES: u64 = 64 * 1024 * 1024;

/// The program that writes and merges parts: parts of another version are
/// refused (its games or statistics may differ).
pub fn program() -> String {
    format!("roots {}", env!("CARGO_PKG_VERSION"))
}

/// FNV-1a of 128 bits over `bytes`, as 32 hex digits: the checksum of a
/// part. It catches any corruption or hand edit of a part; it is not a
/// signature (whoever edits a part on purpose can compute it again).
pub fn checksum(bytes: &[u8]) -> String {
    let mut hash: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for &b in bytes {
        hash ^= u128::from(b);
        hash = hash.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
    }
    format!("{hash:032x}")
}

/// The end of a part's text before its checksum's digits.
const CHECKSUM_KEY: &str = ",\"checksum\":\"";

/// One run of a sharded command (a side of `compare`, a point of `sweep`):
/// its name, its totals, or why it could not be played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartialRun {
    pub label: String,
    /// The run's totals of this shard's games (none: not a valid variant).
    pub totals: Option<AccumulatorData>,
    /// Why the run was not played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A partial result: what `--shard K/N` writes and `roots merge` reads.
/// `command` and `setup` (the command's settings and the resolved
/// variants, as JSON) must be the same in every part of one merge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Partial {
    pub format: String,
    pub version: u32,
    /// The command that wrote it: `simulate`, `compare`, `sweep`, `tune`.
    pub command: String,
    pub shard: Shard,
    /// The `game` key of the variants played.
    pub game: String,
    /// The command's settings, variants and seed: what makes the report.
    pub setup: serde_json::Value,
    pub runs: Vec<PartialRun>,
    /// The paired sums of `compare`'s matched games (absent from other
    /// commands' parts, and from parts of versions before paired analysis:
    /// a merge of `compare` refuses those).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Pairs>,
    /// Whether a Ctrl-C cut this shard short (a merge refuses it).
    #[serde(default)]
    pub interrupted: bool,
    /// The program that wrote it (`roots 0.1.0`): a merge refuses a part of
    /// another version.
    pub program: String,
    /// [`checksum`] of the file's text without these digits: the last key,
    /// so the file's every other byte is covered (the run's definition,
    /// command, game, shard, settings, totals).
    #[serde(default)]
    pub checksum: String,
}

impl Partial {
    pub fn new(
        command: &str,
        shard: Shard,
        game: &str,
        setup: serde_json::Value,
        runs: Vec<PartialRun>,
    ) -> Partial {
        Partial {
            format: PARTIAL_FORMAT.to_owned(),
            version: PARTIAL_VERSION,
            command: command.to_owned(),
            shard,
            game: game.to_owned(),
            setup,
            runs,
            pairs: None,
            interrupted: false,
            program: program(),
            checksum: String::new(),
        }
    }

    /// The file's text: one JSON document ending with its checksum, and a
    /// newline.
    pub fn to_text(&self) -> String {
        let mut p = self.clone();
        p.checksum.clear();
        let mut s = serde_json::to_string(&p).unwrap_or_default();
        // `...,"checksum":""}`: the digits go between the quotes.
        let at = s.len() - 2;
        let sum = checksum(s.as_bytes());
        s.insert_str(at, &sum);
        s.push('\n');
        s
    }

    /// Read a part from its bytes; `name` is how messages call it. Refuses
    /// a part whose checksum does not match (edited, corrupted or cut),
    /// of another format or program version.
    pub fn read(name: &str, bytes: &[u8]) -> Result<Partial, String> {
        let not_a_part = |why: String| {
            format!("{name}: not a partial result of `roots ... --shard K/N` ({why})")
        };
        let text = std::str::from_utf8(bytes).map_err(|e| not_a_part(format!("not UTF-8: {e}")))?;
        let body = text.strip_suffix('\n').unwrap_or(text);
        let digits = body
            .strip_suffix("\"}")
            .and_then(|b| b.get(b.len().saturating_sub(32)..))
            .filter(|d| d.len() == 32 && d.bytes().all(|c| c.is_ascii_hexdigit()));
        let head = digits.and_then(|d| body.get(..body.len() - 2 - d.len()));
        let (Some(digits), Some(head)) = (digits, head.filter(|h| h.ends_with(CHECKSUM_KEY)))
        else {
            // Not even the shape of a part: say what JSON says, else that
            // the end is missing.
            if let Err(e) = serde_json::from_str::<serde_json::Value>(text) {
                return Err(not_a_part(e.to_string()));
            }
            return Err(format!(
                "{name}: expected a part ending with its checksum (`\"checksum\":\"...\"}}`), found none: the file is cut short, edited, or of an older version of roots"
            ));
        };
        let expected = checksum(format!("{head}\"}}").as_bytes());
        if digits != expected {
            return Err(format!(
                "{name}: the checksum does not match the content (expected {expected}, found {digits}): the part was edited or corrupted; write it again with the same `--shard` command"
            ));
        }
        let p: Partial = serde_json::from_str(text).map_err(|e| not_a_part(e.to_string()))?;
        if p.format != PARTIAL_FORMAT || p.version != PARTIAL_VERSION {
            return Err(format!(
                "{name}: a partial result of format `{}` version {}, not `{PARTIAL_FORMAT}` version {PARTIAL_VERSION}",
                p.format, p.version
            ));
        }
        if p.program != program() {
            return Err(format!(
                "{name}: written by {}, not by this {}: merge parts with the version that wrote them, or run every shard again",
                p.program,
                program()
            ));
        }
        if let Some(pairs) = &p.pairs {
            pairs
                .check()
                .map_err(|why| format!("{name}: the paired sums do not add up: {why}"))?;
        }
        for run in &p.runs {
            if let Some(t) = &run.totals {
                t.check().map_err(|why| {
                    format!("{name}: the totals of {} do not add up: {why}", run.label)
                })?;
            }
        }
        Ok(p)
    }

    /// Read the part file at `path`: a regular file of at most
    /// [`MAX_PART_BYTES`], read within the time limit of variant files and
    /// records ([`crate::core::io::READ_TIMEOUT`]).
    pub fn read_file(path: &std::path::Path) -> Result<Partial, PartError> {
        use PartError::{Invalid, Unreadable};
        let name = path.display().to_string();
        let meta =
            std::fs::metadata(path).map_err(|e| Unreadable(format!("cannot read {name}: {e}")))?;
        if !meta.is_file() {
            return Err(Unreadable(format!(
                "cannot read {name}: it is not a regular file (a directory, device or pipe); give the part files `--shard` wrote"
            )));
        }
        let too_large = |found: String| {
            Invalid(format!(
                "{name}: expected a part of at most {} MiB, found {found}",
                MAX_PART_BYTES >> 20
            ))
        };
        if meta.len() > MAX_PART_BYTES {
            return Err(too_large(format!("{} bytes", meta.len())));
        }
        let bytes = crate::core::io::read_bounded(path, MAX_PART_BYTES + 1)
            .map_err(|e| Unreadable(format!("cannot read {name}: {e}")))?;
        if bytes.len() as u64 > MAX_PART_BYTES {
            return Err(too_large("more".into()));
        }
        Partial::read(&name, &bytes).map_err(Invalid)
    }
}

/// Why a part file was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum PartError {
    /// It could not be read (exit 2).
    Unreadable(String),
    /// It was read and is not a valid part (exit 1).
    Invalid(String),
}

/// Check that `parts` are the N shards of one run, each once: the same
/// command, game, setup and runs; shards 1..N. Ordered by shard.
pub fn check_parts(names: &[String], parts: &mut [Partial]) -> Result<(), String> {
    let Some(first) = parts.first() else {
        return Err("no partial result given".into());
    };
    let (command, game, setup) = (
        first.command.clone(),
        first.game.clone(),
        first.setup.clone(),
    );
    let count = first.shard.count;
    let labels: Vec<String> = first.runs.iter().map(|r| r.label.clone()).collect();
    for (name, p) in names.iter().zip(parts.iter()) {
        if p.interrupted {
            return Err(format!(
                "{name}: shard {} was interrupted (Ctrl-C or a signal) and holds only part of its games: run it again (with --checkpoint, it goes on from where it stopped)",
                p.shard
            ));
        }
        if p.command != command || p.game != game {
            return Err(format!(
                "{name}: a part of `roots {}` for {}, but {} is of `roots {command}` for {game}",
                p.command, p.game, names[0]
            ));
        }
        if p.setup != setup || p.runs.iter().map(|r| &r.label).ne(labels.iter()) {
            return Err(format!(
                "{name}: not a shard of the same run as {} (the variant, seed or settings differ)",
                names[0]
            ));
        }
        if p.shard.count != count {
            return Err(format!(
                "{name}: shard {} of a run split {} ways, but {} is of one split {count} ways",
                p.shard, p.shard.count, names[0]
            ));
        }
    }
    // Each slice of the games once: two parts of one shard would count
    // its games twice.
    for (i, p) in parts.iter().enumerate() {
        if let Some(j) = parts[..i].iter().position(|q| q.shard == p.shard) {
            return Err(format!(
                "{}: shard {} again ({} is shard {} too): give each slice of the games exactly once, or its games count twice",
                names.get(i).map_or("?", String::as_str),
                p.shard,
                names.get(j).map_or("?", String::as_str),
                p.shard
            ));
        }
    }
    parts.sort_by_key(|p| p.shard.index);
    for (k, p) in parts.iter().enumerate() {
        if p.shard.index != k as u64 + 1 {
            let have: Vec<String> = parts.iter().map(|p| p.shard.to_string()).collect();
            return Err(format!(
                "the parts are shards {} of {count}: give each of the {count} shards exactly once",
                have.join(", ")
            ));
        }
    }
    if parts.len() as u64 != count {
        return Err(format!(
            "{} parts given for a run split {count} ways: give every shard",
            parts.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_games_once_in_order() {
        for games in [0u64, 1, 7, 1000, 1001] {
            for n in 1..=6 {
                let mut next = 0;
                for k in 1..=n {
                    let r = Shard { index: k, count: n }.range(games);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, games);
            }
        }
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "4", "a/b", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Shard { index: 2, count: 2 }.slice(100, 300), 200..300);
    }
}
