//! A finished run's report, handed to a printer: every kind of report is
//! printed as a table, CSV or JSON ([`Render`]), in the run's [`Format`].

use crate::sim::ladder::Ladder;
use crate::sim::sweep_table::SweepTable;
use crate::sim::tune_table::TuneTable;
use crate::sim::{Comparison, Report, SameRules};

use super::plan::Format;

/// A report in the three forms a run prints.
pub trait Render {
    /// The readable report.
    fn table(&self) -> String;
    /// The summary as CSV rows.
    fn csv(&self) -> String;
    /// The whole report as JSON (pretty, no trailing newline).
    fn json(&self) -> serde_json::Result<String>;
    /// The report itself, by kind: what the web page of a run
    /// (`--html`, `crate::report_page`) draws from.
    fn kind(&self) -> Kind<'_>;
}

/// A report by its kind, borrowed.
#[derive(Clone, Copy)]
pub enum Kind<'a> {
    Simulate(&'a Report),
    Compare(&'a Comparison),
    /// `compare` of a variant with itself: nothing played.
    SameRules(&'a SameRules),
    Ladder(&'a Ladder),
    Sweep(&'a SweepTable),
    Tune(&'a TuneTable),
}

/// A finished report and how to print it: what a run (or `merge`) gives
/// the printer.
pub struct Finished {
    pub report: Box<dyn Render>,
    pub format: Format,
    /// Of a merge: the parts' game and setup (their settings and resolved
    /// variants, as JSON), for the web page's rules sheets and sample games.
    pub setup: Option<(String, serde_json::Value)>,
}

impl Finished {
    pub fn new(report: impl Render + 'static, format: Format) -> Finished {
        Finished {
            report: Box::new(report),
            format,
            setup: None,
        }
    }
}

/// What a run gives back: its finished report, or (a shard) the part to
/// write for `roots merge`.
// A part is made once per run and moved once: its size does not matter.
#[allow(clippy::large_enum_variant)]
pub enum Ran<T> {
    Report(T),
    Part(crate::sim::shard::Partial),
}

/// [`Render`] for report types with `to_table` and `to_csv` methods, each
/// written once here: the JSON is the one `json` makes of the report (its
/// `Serialize` form, or its own `to_json`).
macro_rules! render_by_methods {
    ($json:expr => $($report:ty: $kind:ident),+) => {
        $(
            impl Render for $report {
                fn table(&self) -> String {
                    self.to_table()
                }
                fn csv(&self) -> String {
                    self.to_csv()
                }
                fn json(&self) -> serde_json::Result<String> {
                    let json: fn(&Self) -> serde_json::Result<String> = $json;
                    json(self)
                }
                fn kind(&self) -> Kind<'_> {
                    Kind::$kind(self)
                }
            }
        )+
    };
}

render_by_methods!(serde_json::to_string_pretty =>
    Report: Simulate, Comparison: Compare, SameRules: SameRules, Ladder: Ladder);
render_by_methods!(|r| r.to_json() => SweepTable: Sweep, TuneTable: Tune);

impl Render for Box<dyn Render> {
    fn table(&self) -> String {
        (**self).table()
    }
    fn csv(&self) -> String {
        (**self).csv()
    }
    fn json(&self) -> serde_json::Result<String> {
        (**self).json()
    }
    fn kind(&self) -> Kind<'_> {
        (**self).kind()
    }
}
