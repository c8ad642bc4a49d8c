//! The printer of a run's result: a finished report in its format, or a
//! shard's part, on stdout.

use roots::run::{Failure, Finished, Format, Ran, Render};

/// Print a report in `format`.
pub fn report(report: &dyn Render, format: Format) -> Result<(), Failure> {
    match format {
        Format::Table => super::out(&report.table()),
        Format::Csv => super::out(&report.csv()),
        Format::Json => {
            let text = report
                .json()
                .map_err(|e| Failure::usage(format!("cannot print JSON: {e}")))?;
            super::out(&format!("{text}\n"));
        }
    }
    Ok(())
}

/// Print a finished report.
pub fn finished(f: &Finished) -> Result<(), Failure> {
    report(&*f.report, f.format)
}

/// Print what a run gave: its report in `format`, or its part.
pub fn ran<T: Render>(ran: &Ran<T>, format: Format) -> Result<(), Failure> {
    match ran {
        Ran::Report(r) => report(r, format),
        Ran::Part(p) => {
            super::out(&p.to_text());
            Ok(())
        }
    }
}
