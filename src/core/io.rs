//! Reading with limits: a whole file of at most so many bytes, without
//! hanging on one that blocks, and one line of at most so many bytes. The
//! variant files, the records, the engine protocol and external players
//! read through these.

use std::io::Read;
use std::path::Path;

/// How long reading one variant file or record may take. A regular file of
/// a few MiB takes milliseconds; a file that blocks (a pipe, a device, or a
/// special file that `stat` calls regular, like `/proc/kmsg`) is given up.
pub const READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// Open and read at most `limit` bytes of `path` in a thread of its own,
/// waiting [`READ_TIMEOUT`] for it: a file whose open or read blocks is
/// refused with an error of kind `TimedOut` (its thread is left blocked, and
/// ends with the process) instead of hanging the caller.
pub fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = path.to_path_buf();
    std::thread::Builder::new()
        .name("roots-read".into())
        .spawn(move || {
            let read = std::fs::File::open(&owned).and_then(|file| {
                let mut bytes = Vec::new();
                file.take(limit).read_to_end(&mut bytes).map(|_| bytes)
            });
            let _ = tx.send(read);
        })?;
    match rx.recv_timeout(READ_TIMEOUT) {
        Ok(read) => read,
        Err(_) => Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!(
                "reading it did not finish within {} s: it is not a file that can be read whole (a pipe, a device or a special file such as /proc/kmsg)",
                READ_TIMEOUT.as_secs()
            ),
        )),
    }
}

/// The longest request line read (longer lines are answered with an error
/// and skipped): room for an inline variant file.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Read one line of at most [`MAX_LINE_BYTES`] from `input`: `Ok(None)` at
/// the end of the input, `Ok(Some(Err(why)))` for a line too long or not
/// UTF-8 (the rest of it is skipped).
pub fn read_line(
    input: &mut impl std::io::BufRead,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<Result<String, String>>> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, found) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i)),
            None => (chunk, None),
        };
        if !too_long {
            if buf.len() + part.len() > MAX_LINE_BYTES {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(part);
            }
        }
        match found {
            Some(i) => {
                input.consume(i + 1);
                break;
            }
            None => {
                let n = chunk.len();
                input.consume(n);
            }
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(Err(format!(
            "expected a request line of at most {MAX_LINE_BYTES} bytes, found a longer one"
        ))));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    match std::str::from_utf8(buf) {
        Ok(s) => Ok(Some(Ok(s.to_string()))),
        Err(e) => Ok(Some(Err(format!(
            "expected a request line in UTF-8, found invalid bytes ({e})"
        )))),
    }
}
