//! Writing a record: append-only, one flushed write per line, so a process
//! killed at any moment leaves at worst one partial last line.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::record::format::{Event, Header};

/// An open record, appended to event by event.
#[derive(Debug)]
pub struct RecordWriter {
    file: File,
    path: PathBuf,
}

impl RecordWriter {
    /// Start a new record at `path` with its header. Refuses to overwrite an
    /// existing file.
    pub fn create(path: &Path, header: &Header) -> io::Result<RecordWriter> {
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(path)?;
        let mut w = RecordWriter {
            file,
            path: path.to_path_buf(),
        };
        w.write_line(&header.to_line())?;
        Ok(w)
    }

    /// Reopen a record to go on appending to it. `whole_len` is where its
    /// last whole line ends ([`crate::record::RawRecord::whole_len`]): a
    /// partial line after it (a write cut short) is cut off first, and a
    /// missing final newline is added. Nothing before `whole_len` changes.
    pub fn resume(path: &Path, whole_len: u64) -> io::Result<RecordWriter> {
        let mut file = OpenOptions::new().read(true).write(true).open(path)?;
        let len = file.metadata()?.len();
        if len > whole_len {
            file.set_len(whole_len)?;
        }
        let mut needs_newline = false;
        if whole_len > 0 {
            file.seek(SeekFrom::Start(whole_len - 1))?;
            let mut last = [0u8; 1];
            file.read_exact(&mut last)?;
            needs_newline = last[0] != b'\n';
        }
        drop(file);
        let file = OpenOptions::new().append(true).open(path)?;
        let mut w = RecordWriter {
            file,
            path: path.to_path_buf(),
        };
        if needs_newline {
            w.file.write_all(b"\n")?;
            w.file.flush()?;
        }
        Ok(w)
    }

    /// Append one event and flush it to the operating system.
    pub fn write_event(&mut self, event: &Event) -> io::Result<()> {
        self.write_line(&event.to_line())
    }

    fn write_line(&mut self, line: &str) -> io::Result<()> {
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        // One write of the whole line: a kill leaves it whole or partial, and
        // a partial last line is what the reader knows how to drop.
        self.file.write_all(&buf)?;
        self.file.flush()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}
