//! The printer of a run's result: a finished report in its format, or a
//! shard's part, on stdout.

use std::path::Path;

use roots::report_page::{self, Page, Variant};
use roots::run::{Failure, Finished, Format, Ran, Render, Settings};

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

/// `--html FILE`: the report also as a web page, written whole; a sample
/// game of each of `variants` is played under `sample`.
pub fn page(
    path: Option<&Path>,
    report: &dyn Render,
    variants: Vec<Variant>,
    sample: Option<Settings>,
) -> Result<(), Failure> {
    let Some(path) = path else {
        return Ok(());
    };
    let report = report.kind();
    let mut variants = variants;
    // A tune's best variant beside the original, so the page shows their
    // diff (a merged tune's page too: the report carries the rules).
    if let roots::run::Kind::Tune(t) = &report
        && variants.len() == 1
        && let (Some(rules), Some((point, _))) = (&t.best_rules, t.best.first())
    {
        let sets: Vec<_> = t
            .axes
            .iter()
            .zip(point)
            .map(|(a, &i)| a.set(&a.values[i]))
            .collect();
        variants.push(variant("the best variant found", &sets, rules));
    }
    let page = Page {
        report,
        variants,
        sample,
        command: command_line(),
    };
    report_page::write(path, &page)?;
    if !roots::run::console::quiet() {
        super::err(&format!(
            "the report as a web page: {}; open it in a browser\n",
            path.display()
        ));
    }
    Ok(())
}

/// The page of what a run gave: a shard's part has none.
pub fn ran_page<T: Render>(
    path: Option<&Path>,
    ran: &Ran<T>,
    variants: Vec<Variant>,
    sample: Option<Settings>,
) -> Result<(), Failure> {
    match ran {
        Ran::Report(r) => page(path, r, variants, sample),
        Ran::Part(_) => Ok(()),
    }
}

/// `--html` with `--shard`: refused before anything is played.
pub fn no_page_of_a_shard(html: Option<&Path>, shard: Option<&str>) -> Result<(), Failure> {
    match (html, shard) {
        (Some(_), Some(_)) => Err(Failure::usage(
            "--html with --shard: a shard prints a part, not a report; give --html to `roots merge`",
        )),
        _ => Ok(()),
    }
}

/// The command line as typed, quoted for a POSIX shell where needed.
fn command_line() -> String {
    std::env::args()
        .enumerate()
        .map(|(i, a)| {
            let a = if i == 0 {
                Path::new(&a)
                    .file_name()
                    .map_or(a.clone(), |n| n.to_string_lossy().into_owned())
            } else {
                a
            };
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-./=:,+@%^".contains(c));
            if plain {
                a
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A variant's name on the page: as given, with the `--set` options on
/// top of it.
pub fn variant(
    name: &str,
    sets: &[roots::variant::Override],
    rules: &roots::games::AnyRules,
) -> Variant {
    let mut label = name.to_owned();
    for s in sets {
        label.push_str(&format!(" --set {s}"));
    }
    Variant {
        label,
        rules: rules.clone(),
    }
}
