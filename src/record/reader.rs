//! Reading a record: limits, lines, header and events. Whether the events
//! make a legal game is checked by replaying them ([`crate::referee::Referee`]).

use std::fmt;
use std::path::Path;

use crate::record::format::{Event, Header};

/// Largest record read, in bytes.
pub const MAX_RECORD_BYTES: u64 = 64 * 1024 * 1024;
/// Longest line read, in bytes (the newline not counted).
pub const MAX_LINE_BYTES: usize = 1024 * 1024;
/// Most events in one record.
pub const MAX_EVENTS: usize = 5_000_000;

/// What is wrong with a record, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// 1-based line, when the problem is on a line.
    pub line: Option<usize>,
    pub message: String,
}

impl RecordError {
    pub fn at(line: usize, message: impl Into<String>) -> RecordError {
        RecordError {
            line: Some(line),
            message: message.into(),
        }
    }

    pub fn whole(message: impl Into<String>) -> RecordError {
        RecordError {
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(n) => write!(f, "line {n}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RecordError {}

/// Why a record file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The file was read but is not a valid record.
    Record(RecordError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Record(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// What to do with a last line that has no newline and does not parse (a
/// process killed while writing it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartialTail {
    /// An error (replay).
    Refuse,
    /// Drop it with a warning (resume, `replay --lenient`).
    Drop,
}

/// A record read from bytes: its header and events, not yet replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct RawRecord {
    pub header: Header,
    /// Each event with its 1-based line number.
    pub events: Vec<(usize, Event)>,
    /// Things worth saying that are not errors (a dropped partial line).
    pub warnings: Vec<String>,
    /// Bytes up to the end of the last whole line: where appending resumes.
    pub whole_len: u64,
}

/// Read and parse the record at `path`, refusing files over the limits
/// before reading them whole.
pub fn read_path(path: &Path, tail: PartialTail) -> Result<RawRecord, ReadError> {
    // `stat` does not block; the size it gives is checked first, then the
    // read itself is bounded in bytes and in time (a pipe, a device or
    // `/proc/kmsg`, which `stat` calls a regular file of 0 bytes).
    let len = std::fs::metadata(path).map_err(ReadError::Io)?.len();
    if len > MAX_RECORD_BYTES {
        return Err(ReadError::Record(too_big(len)));
    }
    let bytes = crate::core::io::read_bounded(path, MAX_RECORD_BYTES + 1).map_err(ReadError::Io)?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(ReadError::Record(too_big(bytes.len() as u64)));
    }
    parse(&bytes, tail).map_err(ReadError::Record)
}

fn too_big(len: u64) -> RecordError {
    RecordError::whole(format!(
        "expected a record of at most {} MiB, found {len} bytes",
        MAX_RECORD_BYTES / (1024 * 1024)
    ))
}

/// Parse a whole record from bytes.
pub fn parse(bytes: &[u8], tail: PartialTail) -> Result<RawRecord, RecordError> {
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(too_big(bytes.len() as u64));
    }
    if bytes.is_empty() {
        return Err(RecordError::at(
            1,
            "expected a record header, found an empty file",
        ));
    }
    let mut warnings = Vec::new();
    let mut header: Option<Header> = None;
    let mut events = Vec::new();
    let mut whole_len = 0u64;
    let mut start = 0usize;
    let mut lineno = 0usize;
    while start < bytes.len() {
        lineno += 1;
        let (end, has_newline) = match memchr(b'\n', &bytes[start..]) {
            Some(i) => (start + i, true),
            None => (bytes.len(), false),
        };
        let raw = &bytes[start..end];
        let next = if has_newline { end + 1 } else { end };
        if raw.len() > MAX_LINE_BYTES {
            return Err(RecordError::at(
                lineno,
                format!(
                    "expected a line of at most {} MiB, found {} bytes",
                    MAX_LINE_BYTES / (1024 * 1024),
                    raw.len()
                ),
            ));
        }
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let parsed = match std::str::from_utf8(raw) {
            Err(_) => Err("expected UTF-8 text, found invalid bytes".to_string()),
            Ok("") => Err(if header.is_none() {
                "expected a record header, found an empty line".to_string()
            } else {
                "expected an event, found an empty line".to_string()
            }),
            Ok(text) => match header {
                None => Header::parse(text).map(Line::Header),
                Some(_) => Event::parse(text).map(Line::Event),
            },
        };
        match parsed {
            Ok(Line::Header(h)) => header = Some(h),
            Ok(Line::Event(e)) => {
                if events.len() >= MAX_EVENTS {
                    return Err(RecordError::at(
                        lineno,
                        format!("expected at most {MAX_EVENTS} events, found more"),
                    ));
                }
                events.push((lineno, e));
            }
            Err(message) if !has_newline && header.is_some() => {
                // A last line cut short: the process stopped while writing it.
                match tail {
                    PartialTail::Refuse => {
                        return Err(RecordError::at(
                            lineno,
                            format!(
                                "expected a whole event, found a truncated last line ({message}); use --lenient to ignore it"
                            ),
                        ));
                    }
                    PartialTail::Drop => {
                        warnings.push(format!(
                            "line {lineno}: dropped a truncated last line (no newline, does not parse); continuing from the last whole event"
                        ));
                        break;
                    }
                }
            }
            Err(message) => return Err(RecordError::at(lineno, message)),
        }
        start = next;
        whole_len = next as u64;
    }
    let header = header
        .ok_or_else(|| RecordError::at(1, "expected a record header, found an empty file"))?;
    Ok(RawRecord {
        header,
        events,
        warnings,
        whole_len,
    })
}

enum Line {
    Header(Header),
    Event(Event),
}

fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| b == needle)
}
