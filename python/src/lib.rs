//! The native half of the `roots` Python package: the engine protocol
//! (`docs/protocol.md`) in process. Python sends a request as a JSON line and
//! gets the answer line back; `roots/__init__.py` turns answers into Python
//! values and refusals into exceptions. Everything else (loading, checking,
//! playing, simulating) is the `roots` crate's, unchanged.

use pyo3::prelude::*;

/// One engine session (at most one game under way), as `roots engine`.
#[pyclass(unsendable)]
struct Engine {
    inner: roots::engine::Engine,
}

#[pymethods]
impl Engine {
    /// A session that may read variant files, write records and start
    /// external players when `files` is true.
    #[new]
    #[pyo3(signature = (files = true))]
    fn new(files: bool) -> Self {
        let access = if files {
            roots::engine::Access::ALL
        } else {
            roots::engine::Access::CLOSED
        };
        Engine {
            inner: roots::engine::Engine::new(access),
        }
    }

    /// Answer one request line with one answer line (JSON).
    fn handle(&mut self, line: &str) -> String {
        self.inner.handle_line(line)
    }
}

#[pymodule]
fn _roots(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Engine>()?;
    m.add("PROTOCOL_VERSION", roots::engine::VERSION)?;
    Ok(())
}
