//! CSV text, for every table a report writes as CSV.

/// Rows as CSV text, quoted where a field needs it (the csv crate).
pub fn csv_text<R, F>(rows: impl IntoIterator<Item = R>) -> String
where
    R: IntoIterator<Item = F>,
    F: AsRef<[u8]>,
{
    let mut w = csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    for row in rows {
        // Writing to memory cannot fail.
        let _ = w.write_record(row);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}
