//! The per-game file of `simulate --out`: one row per game, in game order,
//! as CSV, JSON Lines or a JSON array.

use std::io::Write;

use crate::games::Game;
use crate::sim::GameResult;

use super::failure::Failure;

/// The format of the per-game file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamesFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON object per line.
    Jsonl,
    /// One JSON array of the games.
    Json,
}

impl GamesFormat {
    /// The format given, else the extension of `path`: `.jsonl` JSON
    /// Lines, `.json` a JSON array, anything else CSV.
    pub fn of(path: &str, given: Option<GamesFormat>) -> GamesFormat {
        given.unwrap_or_else(|| {
            let lower = path.to_ascii_lowercase();
            if lower.ends_with(".jsonl") {
                GamesFormat::Jsonl
            } else if lower.ends_with(".json") {
                GamesFormat::Json
            } else {
                GamesFormat::Csv
            }
        })
    }
}

/// The per-game file being written.
pub enum GamesFile {
    Csv(Box<csv::Writer<std::io::BufWriter<std::fs::File>>>),
    Json {
        w: std::io::BufWriter<std::fs::File>,
        array: bool,
        first: bool,
    },
}

impl GamesFile {
    pub fn create<G: Game>(
        path: &str,
        format: GamesFormat,
        players: u8,
    ) -> Result<GamesFile, Failure> {
        let cannot =
            |e: &dyn std::fmt::Display| Failure::usage(format!("cannot write {path}: {e}"));
        let file = std::fs::File::create(path).map_err(|e| cannot(&e))?;
        let w = std::io::BufWriter::new(file);
        match format {
            GamesFormat::Csv => {
                let mut c = csv::Writer::from_writer(w);
                c.write_record(GameResult::csv_header::<G>(players))
                    .map_err(|e| cannot(&e))?;
                Ok(GamesFile::Csv(Box::new(c)))
            }
            GamesFormat::Jsonl | GamesFormat::Json => {
                let array = format == GamesFormat::Json;
                let mut w = w;
                if array {
                    w.write_all(b"[").map_err(|e| cannot(&e))?;
                }
                Ok(GamesFile::Json {
                    w,
                    array,
                    first: true,
                })
            }
        }
    }

    pub fn write(&mut self, r: &GameResult) -> std::io::Result<()> {
        match self {
            GamesFile::Csv(c) => c.write_record(r.csv_row()).map_err(std::io::Error::other),
            GamesFile::Json { w, array, first } => {
                if *array {
                    w.write_all(if *first { b"\n" } else { b",\n" })?;
                }
                *first = false;
                serde_json::to_writer(&mut *w, r)?;
                if !*array {
                    w.write_all(b"\n")?;
                }
                Ok(())
            }
        }
    }

    /// Close the array (after a Ctrl-C too) and flush.
    pub fn finish(self) -> std::io::Result<()> {
        match self {
            GamesFile::Csv(mut c) => c.flush(),
            GamesFile::Json {
                mut w,
                array,
                first,
            } => {
                if array {
                    w.write_all(if first { b"]\n" } else { b"\n]\n" })?;
                }
                w.flush()
            }
        }
    }
}
