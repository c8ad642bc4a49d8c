//! `roots view`: a recorded game as one HTML page to step through in a
//! browser (`roots::view`).

use super::{errln, outln};
use std::path::PathBuf;

use clap::Args;
use roots::record::{self, PartialTail, ReadError};

use super::Failure;

#[derive(Args, Debug)]
pub struct ViewArgs {
    /// The record to view (a `.jsonl` file written by `roots play` or
    /// `roots simulate --record-game`).
    #[arg(value_name = "RECORD")]
    record: PathBuf,

    /// Where to write the page [default: RECORD with `.html` for `.jsonl`].
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,

    /// Ignore a truncated last line (a game cut off while writing) instead
    /// of failing.
    #[arg(long)]
    lenient: bool,
}

pub fn run(args: ViewArgs) -> Result<(), Failure> {
    let shown = args.record.display().to_string();
    let tail = if args.lenient {
        PartialTail::Drop
    } else {
        PartialTail::Refuse
    };
    let raw = match record::reader::read_path(&args.record, tail) {
        Ok(raw) => raw,
        Err(ReadError::Io(e)) => return Err(Failure::io(format!("{shown}: error: {e}"))),
        Err(ReadError::Record(e)) => return Err(Failure::invalid(located(&shown, &e))),
    };
    for w in &raw.warnings {
        errln!("{shown}: warning: {w}");
    }
    let page = roots::with_game_id!(raw.header.game(), G => roots::view::html::<G>(&raw))
        .map_err(|e| Failure::invalid(located(&shown, &e)))?;
    let out = args
        .output
        .unwrap_or_else(|| args.record.with_extension("html"));
    if out == args.record {
        return Err(Failure::usage(format!(
            "the page would overwrite the record {shown}; name another file with -o"
        )));
    }
    std::fs::write(&out, page).map_err(|e| {
        Failure::io(format!(
            "{}: error: cannot write the page: {e}",
            out.display()
        ))
    })?;
    outln!(
        "{}: {} events; open it in a browser",
        out.display(),
        raw.events.len()
    );
    Ok(())
}

fn located(shown: &str, e: &record::RecordError) -> String {
    match e.line {
        Some(n) => format!("{shown}:{n}: error: {}", e.message),
        None => format!("{shown}: error: {}", e.message),
    }
}
