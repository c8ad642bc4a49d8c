//! Writing a record: append-only, one flushed write per line, so a process
//! killed at any moment leaves at worst one partial last line. A record being
//! written is locked (an advisory exclusive lock, `flock` on Unix): a second
//! writer is refused before it reads or changes anything.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::record::format::{Event, Header};

/// An open record, appended to event by event. It holds the record's lock
/// until it is dropped.
#[derive(Debug)]
pub struct RecordWriter {
    file: File,
    path: PathBuf,
}

/// A record opened for appending and locked against other writers (the
/// first step of resuming: taken before the record is read).
#[derive(Debug)]
pub struct RecordLock {
    file: File,
    path: PathBuf,
}

/// The error of a record another process is writing.
fn locked() -> io::Error {
    io::Error::new(
        io::ErrorKind::WouldBlock,
        "another process is writing this record (it is locked); nothing was changed",
    )
}

fn try_lock(file: &File) -> io::Result<()> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(locked()),
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

impl RecordLock {
    /// Open `path` for appending and lock it; refused with an error of kind
    /// `WouldBlock` while another writer holds it.
    pub fn acquire(path: &Path) -> io::Result<RecordLock> {
        let file = OpenOptions::new().read(true).append(true).open(path)?;
        try_lock(&file)?;
        Ok(RecordLock {
            file,
            path: path.to_path_buf(),
        })
    }
}

impl RecordWriter {
    /// Start a new record at `path` with its header. Refuses to overwrite an
    /// existing file.
    pub fn create(path: &Path, header: &Header) -> io::Result<RecordWriter> {
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(path)?;
        try_lock(&file)?;
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
        RecordWriter::resume_locked(RecordLock::acquire(path)?, whole_len)
    }

    /// [`RecordWriter::resume`] with the lock already taken (before the
    /// record was read, so no other writer can have changed it since).
    pub fn resume_locked(lock: RecordLock, whole_len: u64) -> io::Result<RecordWriter> {
        let RecordLock { mut file, path } = lock;
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
        // The handle is in append mode: every write goes to the end.
        let mut w = RecordWriter { file, path };
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
        let before = self.file.metadata()?.len();
        let written = self.file.write_all(&buf).and_then(|()| self.file.flush());
        if written.is_err() {
            // A write cut short (a full disk): cut the record back to its
            // last whole line, so that it stays readable and a later write
            // (once there is room) follows a whole line.
            let _ = self.file.set_len(before);
        }
        written
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}
